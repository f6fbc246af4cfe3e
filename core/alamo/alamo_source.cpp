// The source tree of Alamo chunk files (read, edit, write: docs/ARCHITECTURE.md).
#include "alamo/alamo_chunks.h"

namespace rs::alamo {

namespace {

// Bit 31 of the stored size: the same rule as ChunkCursor (alamo_chunks.cpp).
bool container(uint32_t, uint32_t rawSize, uint32_t) { return (rawSize & 0x80000000u) != 0; }

// Mini-chunks live only in data chunks; which ones hold them depends on the context (material parameters,
// clip headers, particle properties, dazzles, ...). Any data chunk is tried; a payload that does not divide
// exactly into mini-chunks stays one leaf, so a guess never changes what is written.
bool minis(uint32_t, uint32_t) { return true; }

} // namespace

SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    ChunkGrammar g;
    g.container = container;
    g.minis = minis;
    return chunkTree(std::move(bytes), label, g);
}

} // namespace rs::alamo
