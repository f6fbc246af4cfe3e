#include "alamo/alamo_chunks.h"

namespace rs::alamo {

static uint32_t loadU32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

bool ChunkCursor::next(Chunk& c) {
    if (pos_ >= end_) return false;
    const size_t left = end_ - pos_;
    if (left < 8)
        throw ParseError(*name_, parent_, pos_,
                         "truncated chunk header: " + std::to_string(left) + " bytes left in the parent");
    const uint32_t type = loadU32(file_.data + pos_);
    const uint32_t raw = loadU32(file_.data + pos_ + 4);
    const size_t size = raw & 0x7FFFFFFFu;
    c.type = type;
    c.container = (raw & 0x80000000u) != 0;
    c.header = pos_;
    c.begin = pos_ + 8;
    c.path = parent_.child(type);
    if (size > left - 8)
        throw ParseError(*name_, c.path, pos_,
                         "chunk size " + std::to_string(size) + " exceeds the " + std::to_string(left - 8) +
                             " bytes left in its parent");
    c.end = c.begin + size;
    pos_ = c.end;
    return true;
}

ChunkCursor ChunkCursor::children(const Chunk& c) const {
    if (!c.container) fail(c, "expected a container chunk (size bit 31 set), found a data chunk");
    return ChunkCursor(file_, *name_, c.begin, c.end, c.path);
}

ByteReader ChunkCursor::data(const Chunk& c) const {
    if (c.container) fail(c, "expected a data chunk, found a container (size bit 31 set)");
    return ByteReader(ByteSpan(file_.data + c.begin, c.size()), *name_, c.path, c.begin);
}

void ChunkCursor::fail(const Chunk& c, const std::string& msg) const {
    throw ParseError(*name_, c.path, c.header, msg);
}

bool MiniCursor::next(uint8_t& type, ByteReader& payload) {
    if (r_.atEnd()) return false;
    if (r_.remaining() < 2) r_.fail("truncated mini-chunk header");
    type = r_.u8();
    const uint8_t size = r_.u8();
    if (size > r_.remaining())
        r_.fail("mini-chunk " + std::to_string(type) + " size " + std::to_string(size) + " exceeds the " +
                std::to_string(r_.remaining()) + " bytes left in the chunk");
    payload = r_.sub(size);
    return true;
}

static void expectSize(ByteReader& m, uint8_t type, size_t n) {
    if (m.remaining() != n)
        m.fail("mini-chunk " + std::to_string(type) + " holds " + std::to_string(m.remaining()) + " bytes, expected " +
               std::to_string(n));
}

uint32_t miniU32(ByteReader& m, uint8_t type) {
    expectSize(m, type, 4);
    return m.u32le();
}

float miniF32(ByteReader& m, uint8_t type) {
    expectSize(m, type, 4);
    return m.f32le();
}

glm::vec3 miniVec3(ByteReader& m, uint8_t type) {
    expectSize(m, type, 12);
    glm::vec3 v;
    v.x = m.f32le();
    v.y = m.f32le();
    v.z = m.f32le();
    return v;
}

glm::vec4 miniVec4(ByteReader& m, uint8_t type) {
    expectSize(m, type, 16);
    glm::vec4 v;
    v.x = m.f32le();
    v.y = m.f32le();
    v.z = m.f32le();
    v.w = m.f32le();
    return v;
}

std::string miniString(ByteReader& m) { return m.restAsCString(); }

} // namespace rs::alamo
