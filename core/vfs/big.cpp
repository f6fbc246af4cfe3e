// EA BIG archives (Generals, Zero Hour, Battle for Middle-earth I/II, Rise of the Witch-king).
//
//   char magic[4]      "BIGF" or "BIG4"
//   u32  archiveSize   little-endian (the only little-endian field)
//   u32  count         big-endian
//   u32  indexEnd      big-endian: end of the index (writers store first data offset or one less)
//   count x { u32be offset; u32be size; char path[] NUL-terminated }   offsets absolute
//   (writers usually put "L225" or "L231" and 4 bytes before the data)
//
// Entries of later games may be RefPack-compressed: Archive::read refuses them.
#include "vfs/archive.h"
#include "common/warnings.h"

#include <cstring>

namespace rs::vfs::detail {

void parseBig(ByteSpan bytes, uint64_t archiveSize, const std::string& label, std::string& kind,
              std::vector<Entry>& out, std::vector<std::string>& warnings) {
    ByteReader r(bytes, label, "header");
    wantBytes(r, 16, bytes, archiveSize);
    const ByteSpan magic = r.take(4);
    kind = std::memcmp(magic.data, "BIG4", 4) == 0 ? "big4" : "bigf";
    const uint32_t headerSize = r.u32le();
    const uint32_t count = r.u32be();
    r.u32be(); // indexEnd: informative only
    if (headerSize != archiveSize)
        pushWarning(warnings, label + ": header at offset 4 gives archive size " + std::to_string(headerSize) +
                                  ", the file has " + std::to_string(archiveSize) + " bytes");
    r.setContext("index");
    const uint64_t left = archiveSize - r.absOffset(); // in the file (bytes may be only its first part)
    if (uint64_t(count) * 9 > left)
        r.failAt(8, "entry count " + std::to_string(count) + " needs at least " + std::to_string(uint64_t(count) * 9) +
                        " bytes, " + std::to_string(left) + " left");
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        const size_t at = r.pos();
        wantBytes(r, 8, bytes, archiveSize);
        Entry e;
        e.offset = r.u32be();
        e.size = r.u32be();
        const uint8_t* p = r.cur();
        const void* nul = std::memchr(p, 0, r.remaining());
        if (!nul) {
            wantBytes(r, r.remaining() + 256, bytes, archiveSize); // the name goes on past the bytes read
            r.fail("entry " + std::to_string(i) + " name has no terminating NUL before the end of the archive");
        }
        const size_t len = size_t(static_cast<const uint8_t*>(nul) - p);
        e.name.assign(reinterpret_cast<const char*>(p), len);
        r.skip(len + 1);
        e.key = normalizePath(e.name);
        if (e.offset > archiveSize || e.size > archiveSize - e.offset)
            r.failAt(at, "entry " + std::to_string(i) + " (" + e.name + "): offset " + std::to_string(e.offset) +
                             " + size " + std::to_string(e.size) + " exceeds the archive size " +
                             std::to_string(archiveSize));
        out.push_back(std::move(e));
    }
}

} // namespace rs::vfs::detail
