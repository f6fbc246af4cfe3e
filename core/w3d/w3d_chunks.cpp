#include "w3d/w3d_chunks.h"

namespace rs::w3d {

bool isContainer(uint32_t c) {
    switch (c) {
    case id::Mesh:
    case id::PrelitUnlit:
    case id::PrelitVertex:
    case id::PrelitLightmapMultiPass:
    case id::PrelitLightmapMultiTexture:
    case id::VertexMaterials:
    case id::VertexMaterial:
    case id::Textures:
    case id::Texture:
    case id::MaterialPass:
    case id::TextureStage:
    case id::ShaderMaterials:
    case id::ShaderMaterial:
    case id::AabTree:
    case id::Hierarchy:
    case id::Animation:
    case id::CompressedAnimation:
    case id::MorphAnimation:
    case id::HModel:
    case id::LodModel:
    case id::Collection:
    case id::Light:
    case id::Emitter:
    case id::Aggregate:
    case id::Hlod:
    case id::HlodLodArray:
    case id::HlodAggregateArray:
    case id::HlodProxyArray:
    case id::Lightscape:
    case id::Dazzle:
    case id::SoundRObj:
    case id::ShdMesh:
        return true;
    default:
        return false;
    }
}

bool isTopLevelId(uint32_t c) {
    switch (c) {
    case id::Mesh:
    case id::Hierarchy:
    case id::Animation:
    case id::CompressedAnimation:
    case id::MorphAnimation:
    case id::HModel:
    case id::LodModel:
    case id::Collection:
    case id::Points:
    case id::Light:
    case id::Emitter:
    case id::Aggregate:
    case id::Hlod:
    case id::Box:
    case id::Sphere:
    case id::Ring:
    case id::NullObject:
    case id::Lightscape:
    case id::Dazzle:
    case id::SoundRObj:
    case id::ShdMesh:
        return true;
    default:
        return false;
    }
}

Cursor::Cursor(ByteSpan range, uint64_t rangeOffset, bool endsAtFileEnd, const std::string& file,
               const ChunkPath& parentPath, std::vector<std::string>* warnings)
    : range_(range), base_(rangeOffset), endsAtFileEnd_(endsAtFileEnd), file_(&file), parentPath_(parentPath),
      warnings_(warnings) {}

Cursor Cursor::file(ByteSpan bytes, const std::string& file, std::vector<std::string>* warnings) {
    return Cursor(bytes, 0, true, file, {}, warnings);
}

static uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

bool Cursor::next(Chunk& out) {
    if (pos_ >= range_.size) return false;
    const size_t left = range_.size - pos_;
    const uint64_t at = base_ + pos_;
    if (left < 8) {
        if (endsAtFileEnd_) {
            if (warnings_)
                warnings_->push_back((parentPath_.empty() ? std::string("file") : "chunk " + parentPath_.str()) + ": " +
                                     std::to_string(left) + " bytes at offset " + std::to_string(at) +
                                     " are the start of a chunk header cut off by the end of the file");
            pos_ = range_.size;
            return false;
        }
        throw ParseError(*file_, parentPath_, at,
                         std::to_string(left) + " stray bytes at the end of the chunk (less than a chunk header)");
    }
    const uint8_t* p = range_.data + pos_;
    out.id = le32(p);
    const uint32_t rawSize = le32(p + 4);
    out.highBit = (rawSize & 0x80000000u) != 0;
    out.declaredSize = rawSize & 0x7FFFFFFFu;
    out.offset = at;
    out.truncated = false;
    size_t avail = left - 8;
    if (out.declaredSize > avail) {
        if (!endsAtFileEnd_)
            throw ParseError(*file_, pathOf(out), at,
                             "chunk size " + std::to_string(out.declaredSize) + " exceeds the " +
                                 std::to_string(avail) + " bytes left in its parent");
        out.truncated = true;
        out.payload = ByteSpan(p + 8, avail);
        if (warnings_)
            warnings_->push_back("chunk " + pathOf(out) + " at offset " + std::to_string(at) +
                                 " is truncated: " + std::to_string(out.declaredSize) + " bytes declared, " +
                                 std::to_string(avail) + " present (file ends early)");
        pos_ = range_.size;
    } else {
        out.payload = ByteSpan(p + 8, out.declaredSize);
        pos_ += 8 + size_t(out.declaredSize);
    }
    return true;
}

Cursor Cursor::children(const Chunk& c) const {
    return Cursor(c.payload, c.payloadOffset(), c.truncated, *file_, pathOf(c), warnings_);
}

ByteReader Cursor::data(const Chunk& c) const { return ByteReader(c.payload, *file_, pathOf(c), c.payloadOffset()); }

} // namespace rs::w3d
