// Black & White 2 .stuff archives (Data/Everything.stuff; openblack's bw2-modding, file_formats/stuff.md).
//
//   (no header) entry data ...
//   directory at `dirOffset`: count x 268 bytes {char name[256] NUL-terminated, i32 offset, i32 size, i32 unknown}
//   u32 dirOffset                  the last 4 bytes of the file
//   count = (fileSize - 4 - dirOffset) / 268; offsets are absolute.
//
// Refused by name (archive, field, byte offset): a file shorter than 4 bytes, a directory offset past the end, a
// directory that is not a whole number of entries or holds more than kMaxStuffEntries, a name without its NUL or
// empty, a negative offset or size, and an entry whose data runs into the directory or past the end.
#include "vfs/archive.h"

#include <cstring>

namespace rs::vfs::detail {

void parseStuff(ByteSpan bytes, uint64_t archiveSize, const std::string& label, std::string& kind,
                std::vector<Entry>& out, std::vector<std::string>& warnings) {
    (void)warnings;
    kind = "stuff";
    // `bytes` is the end of the file: the bytes from archiveSize - bytes.size on (all of it, or the directory and
    // the offset word after it). Offsets in errors are the file's.
    const uint64_t base = archiveSize - bytes.size;
    ByteReader r(bytes, label, "directory offset", base);
    if (archiveSize < 4)
        r.failAt(0, "file of " + std::to_string(archiveSize) +
                        " bytes is too small for a .stuff archive (its last 4 bytes give the directory offset)");
    if (bytes.size < 4) throw NeedMoreBytes{4};
    const uint64_t tail = archiveSize - 4;
    r.seek(size_t(tail - base));
    const uint32_t dir = r.u32le();
    if (dir > tail)
        r.failAt(size_t(tail - base), "directory offset " + std::to_string(dir) + " is past the directory's end at " +
                                          std::to_string(tail) + " (file of " + std::to_string(archiveSize) +
                                          " bytes)");
    const uint64_t dirBytes = tail - dir;
    if (dirBytes % kStuffEntryBytes != 0)
        r.failAt(size_t(tail - base), "directory of " + std::to_string(dirBytes) + " bytes (offset " +
                                          std::to_string(dir) + " to " + std::to_string(tail) +
                                          ") is not a whole number of " + std::to_string(kStuffEntryBytes) +
                                          "-byte entries");
    const uint64_t count = dirBytes / kStuffEntryBytes;
    if (count > kMaxStuffEntries)
        r.failAt(size_t(tail - base), "directory of " + std::to_string(count) + " entries refused (more than " +
                                          std::to_string(kMaxStuffEntries) + ")");
    if (dir < base) throw NeedMoreBytes{archiveSize - dir}; // the caller reads the last N bytes
    r.setContext("directory");
    r.seek(size_t(dir - base));
    out.reserve(size_t(count));
    for (uint64_t i = 0; i < count; ++i) {
        const size_t at = r.pos();
        const ByteSpan name = r.take(256);
        const void* nul = std::memchr(name.data, 0, 256);
        if (!nul) r.failAt(at, "entry " + std::to_string(i) + ": name has no terminating NUL in its 256 bytes");
        Entry e;
        e.name.assign(reinterpret_cast<const char*>(name.data), size_t(static_cast<const uint8_t*>(nul) - name.data));
        if (e.name.empty()) r.failAt(at, "entry " + std::to_string(i) + " has an empty name");
        const int32_t offset = r.i32le(), size = r.i32le();
        e.extra = r.u32le();
        if (offset < 0 || size < 0)
            r.failAt(at + 256, "entry " + std::to_string(i) + " (" + e.name + "): negative offset " +
                                   std::to_string(offset) + " or size " + std::to_string(size));
        e.offset = uint64_t(offset);
        e.size = uint64_t(size);
        e.key = normalizePath(e.name);
        if (e.offset > dir || e.size > dir - e.offset)
            r.failAt(at + 256,
                     "entry " + std::to_string(i) + " (" + e.name + "): offset " + std::to_string(e.offset) +
                         " + size " + std::to_string(e.size) +
                         (e.offset + e.size > tail ? " exceeds the archive (" : " overlaps the directory (at ") +
                         std::to_string(e.offset + e.size > tail ? archiveSize : dir) + ")");
        out.push_back(std::move(e));
    }
}

} // namespace rs::vfs::detail
