#include "w3d/w3d_chunks.h"

#include <algorithm>

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
    case id::Sphere: // sub-chunks 1 (definition) and 2..5 (channels)
    case id::Ring:
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
    Cursor c(bytes, 0, true, file, {}, warnings);
    c.stream_ = std::make_shared<Stream>();
    c.stream_->file = bytes;
    return c;
}

static uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

void Cursor::moveStream(uint64_t to) {
    if (to >= stream_->resumeAt) { // the engine's file position only moves forward
        stream_->resumeAt = to;
        stream_->resumeDepth = depth_;
    }
}

void Cursor::noteOverrun(const Chunk& c, const std::string& what) {
    const size_t n = ++stream_->overruns;
    if (!warnings_ || n > kOverrunWarnings + 1) return;
    if (n == kOverrunWarnings + 1) {
        warnings_->push_back(*file_ + ": further chunks read past the end of their parent are not listed");
        return;
    }
    warnings_->push_back(*file_ + ": chunk " + pathOf(c) + " at offset " + std::to_string(c.offset) + ": " + what);
}

bool Cursor::next(Chunk& out) {
    if (pos_ == range_.size) return false; // the engine's end of a parent: the children's sizes add up to it
    // After a chunk read past its parent's end the engine's file position is ahead of this cursor: read there.
    if (stream_ && (pos_ > range_.size || (depth_ < stream_->resumeDepth && stream_->resumeAt > base_ + pos_)))
        return nextPastEnd(out);
    const size_t left = size_t(range_.size - pos_);
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
        if (!endsAtFileEnd_) {
            // Read by its own size when the file holds it (the engine does); else the engine's read fails too.
            if (!stream_ || at + 8 + out.declaredSize > stream_->file.size)
                throw ParseError(*file_, pathOf(out), at,
                                 "chunk size " + std::to_string(out.declaredSize) + " exceeds the " +
                                     std::to_string(avail) + " bytes left in its parent");
            out.payload = ByteSpan(p + 8, out.declaredSize);
            pos_ += 8 + uint64_t(out.declaredSize);
            moveStream(at + 8 + out.declaredSize);
            noteOverrun(out, "chunk size " + std::to_string(out.declaredSize) + " exceeds the " +
                                 std::to_string(avail) + " bytes left in its parent; read by its own size, and " +
                                 (parentPath_.empty() ? std::string("the file") : "its parent " + parentPath_.str()) +
                                 " read on past its end, as the engine's chunk loader does");
            return true;
        }
        out.truncated = true;
        out.payload = ByteSpan(p + 8, avail);
        if (warnings_)
            warnings_->push_back("chunk " + pathOf(out) + " at offset " + std::to_string(at) +
                                 " is truncated: " + std::to_string(out.declaredSize) + " bytes declared, " +
                                 std::to_string(avail) + " present (file ends early)");
        pos_ = range_.size;
    } else {
        out.payload = ByteSpan(p + 8, out.declaredSize);
        pos_ += 8 + uint64_t(out.declaredSize);
    }
    return true;
}

bool Cursor::nextPastEnd(Chunk& out) {
    const ByteSpan file = stream_->file;
    const uint64_t at = depth_ < stream_->resumeDepth ? std::max(base_ + pos_, stream_->resumeAt) : base_ + pos_;
    if (at >= file.size) return false; // the engine's header read fails at the end of the file
    const uint64_t left = file.size - at;
    if (left < 8) {
        if (warnings_)
            warnings_->push_back(*file_ + ": " + std::to_string(left) + " bytes at offset " + std::to_string(at) +
                                 " are the start of a chunk header cut off by the end of the file");
        moveStream(file.size);
        return false;
    }
    const uint8_t* p = file.data + at;
    out.id = le32(p);
    const uint32_t rawSize = le32(p + 4);
    out.highBit = (rawSize & 0x80000000u) != 0;
    out.declaredSize = rawSize & 0x7FFFFFFFu;
    out.offset = at;
    out.truncated = out.declaredSize > left - 8;
    out.payload = ByteSpan(p + 8, out.truncated ? size_t(left - 8) : size_t(out.declaredSize));
    pos_ += 8 + uint64_t(out.declaredSize);
    moveStream(out.truncated ? file.size : at + 8 + out.declaredSize);
    if (out.truncated && warnings_)
        warnings_->push_back("chunk " + pathOf(out) + " at offset " + std::to_string(at) +
                             " is truncated: " + std::to_string(out.declaredSize) + " bytes declared, " +
                             std::to_string(left - 8) + " present (file ends early)");
    // Chunks the engine reads at a position inside this cursor's range (a descendant consumed the bytes before
    // it, and was reported) are ordinary; one past the range is a child the parent's own size does not hold.
    if (at >= base_ + range_.size)
        noteOverrun(out,
                    "lies past the end of " +
                        (parentPath_.empty() ? std::string("the file's chunks") : "its parent " + parentPath_.str()) +
                        " (offset " + std::to_string(base_ + range_.size) +
                        "); read as its child, as the engine's chunk loader does");
    return true;
}

Cursor Cursor::children(const Chunk& c) const {
    Cursor k(c.payload, c.payloadOffset(), c.truncated, *file_, pathOf(c), warnings_);
    k.stream_ = stream_;
    k.depth_ = depth_ + 1;
    return k;
}

ByteReader Cursor::data(const Chunk& c) const { return ByteReader(c.payload, *file_, pathOf(c), c.payloadOffset()); }

} // namespace rs::w3d
