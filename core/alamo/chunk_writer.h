// Alamo chunk nesting on top of ByteWriter, shared by the model/clip and particle writers: begin() reserves the
// 8-byte header (u32 type, u32 size), end() patches the size, with bit 31 set for containers.
#pragma once

#include "common/bytes.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rs::alamo {

class ChunkWriter {
  public:
    ByteWriter w;

    void begin(uint32_t type) {
        w.u32le(type);
        open_.push_back(w.size());
        w.u32le(0);
    }
    // Closes the innermost open chunk.
    void end(bool container) {
        const size_t at = open_.back();
        open_.pop_back();
        const size_t size = w.size() - at - 4;
        w.patchU32le(at, static_cast<uint32_t>(size) | (container ? 0x80000000u : 0u));
    }
    void dataChunk(uint32_t type, const ByteWriter& payload) {
        begin(type);
        w.bytes(payload.buf.data(), payload.buf.size());
        end(false);
    }
    void stringChunk(uint32_t type, const std::string& s) {
        begin(type);
        w.cstr(s);
        end(false);
    }
    // Mini-chunk (u8 id, u8 size, payload) inside a data chunk.
    void mini(uint8_t id, const void* p, size_t n) {
        if (n > 255) throw std::invalid_argument("mini-chunk payload larger than 255 bytes");
        w.u8(id);
        w.u8(static_cast<uint8_t>(n));
        w.bytes(p, n);
    }

  private:
    std::vector<size_t> open_;
};

} // namespace rs::alamo
