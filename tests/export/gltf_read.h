// Reading a glTF back in the export tests: the values of an accessor (tinygltf model, accessor index).
#pragma once

#include <tiny_gltf.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace rs::test {

// A float accessor's components, every element in order (the buffer view's stride honoured).
inline std::vector<float> floats(const tinygltf::Model& g, int accessor) {
    const tinygltf::Accessor& a = g.accessors.at(size_t(accessor));
    REQUIRE(a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT);
    const tinygltf::BufferView& v = g.bufferViews.at(size_t(a.bufferView));
    const size_t comps = size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type)));
    const size_t stride = v.byteStride ? v.byteStride : comps * 4;
    const unsigned char* base = g.buffers.at(size_t(v.buffer)).data.data() + v.byteOffset + a.byteOffset;
    std::vector<float> out(a.count * comps);
    for (size_t i = 0; i < a.count; ++i)
        std::memcpy(&out[i * comps], base + i * stride, comps * 4);
    return out;
}

// An unsigned integer accessor's components (8, 16 or 32 bits each, tightly packed) widened to 32 bits.
inline std::vector<uint32_t> uints(const tinygltf::Model& g, int accessor) {
    const tinygltf::Accessor& a = g.accessors.at(size_t(accessor));
    const tinygltf::BufferView& v = g.bufferViews.at(size_t(a.bufferView));
    const size_t comps = size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type)));
    const size_t cs = size_t(tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType)));
    const unsigned char* base = g.buffers.at(size_t(v.buffer)).data.data() + v.byteOffset + a.byteOffset;
    std::vector<uint32_t> out(a.count * comps);
    for (size_t i = 0; i < out.size(); ++i) {
        uint32_t x = 0;
        std::memcpy(&x, base + i * cs, cs);
        out[i] = x;
    }
    return out;
}

} // namespace rs::test
