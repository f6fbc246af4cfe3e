// The source tree of W3D files (read, edit, write: docs/ARCHITECTURE.md).
#include "w3d/w3d_chunks.h"

namespace rs::w3d {

namespace {
bool container(uint32_t type, uint32_t, uint32_t) { return isContainer(type); }
} // namespace

SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    ChunkGrammar g;
    g.container = container;
    g.engineOverruns = true;
    g.containerFallsBackToData = true;
    return chunkTree(std::move(bytes), label, g);
}

} // namespace rs::w3d
