// Petroglyph MEG archives (Empire at War, Forces of Corruption, later Petroglyph games). Little-endian.
//
//   version 1                          versions 2 and 3
//   u32 nNames                         u32 id 0xFFFFFFFF (0x8FFFFFFF: encrypted version 3, refused)
//   u32 nFiles                         f32 0.99 (bytes a4 70 7d 3f)
//                                      u32 dataStart (first byte after the file table)
//                                      u32 nNames, u32 nFiles
//                                      v3 only: u32 nameTableSize (bytes of the name table)
//   name table: nNames x { u16 length; char name[length] }   Latin-1 Windows paths, no terminator
//   file table: nFiles x records, 20 bytes each, sorted by CRC:
//     v1/v2: u32 crc32(name), u32 index, u32 size, u32 offset, u32 nameIndex
//     v3:    u16 flags (non-zero: encrypted entry), u32 crc32(name), u32 index, u32 size, u32 offset,
//            u16 nameIndex
//   data: offsets are absolute (from the start of the archive)
//
// v2 and v3 share the header id; v3 is recognised by dataStart == 24 + nameTableSize + 20 * nFiles.
#include "vfs/archive.h"
#include "common/warnings.h"

namespace rs::vfs::detail {

namespace {

constexpr uint32_t kMegId = 0xFFFFFFFFu;
constexpr uint32_t kMegEncryptedId = 0x8FFFFFFFu;
constexpr uint32_t kMegVersionTag = 0x3F7D70A4u; // 0.99f
constexpr size_t kRecordSize = 20;

std::string latin1ToUtf8(const uint8_t* p, size_t n) {
    size_t high = 0;
    for (size_t i = 0; i < n; ++i)
        high += p[i] >> 7;
    if (high == 0) return std::string(reinterpret_cast<const char*>(p), n);
    std::string s;
    s.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        if (p[i] < 0x80)
            s.push_back(char(p[i]));
        else {
            s.push_back(char(0xC0 | (p[i] >> 6)));
            s.push_back(char(0x80 | (p[i] & 0x3F)));
        }
    }
    return s;
}

struct Name {
    std::string text;
    uint32_t crc;
};

// Where the parse stands: the bytes given (all of the archive, or its first part) and the archive's size.
struct Extent {
    ByteSpan prefix;
    uint64_t archiveSize;
    // Bytes of the file from the position of r (a reader over `prefix`) on.
    uint64_t left(const ByteReader& r) const { return archiveSize - std::min<uint64_t>(archiveSize, r.absOffset()); }
    void want(const ByteReader& r, size_t n) const { wantBytes(r, n, prefix, archiveSize); }
};

// Names from r; `left`: the bytes the table can have; x: null when r holds all of them (a sized name table).
std::vector<Name> readNames(ByteReader& r, uint32_t nNames, uint64_t left, const Extent* x) {
    const size_t countAt = r.pos();
    if (uint64_t(nNames) * 2 > left)
        r.failAt(countAt, "name count " + std::to_string(nNames) + " needs at least " +
                              std::to_string(uint64_t(nNames) * 2) + " bytes, " + std::to_string(left) + " left");
    std::vector<Name> names;
    names.reserve(nNames);
    for (uint32_t i = 0; i < nNames; ++i) {
        const size_t at = r.pos();
        if (x) x->want(r, 2);
        const uint16_t len = r.u16le();
        if (x) x->want(r, len);
        if (len > r.remaining())
            r.failAt(at, "name " + std::to_string(i) + " length " + std::to_string(len) + " exceeds the " +
                             std::to_string(r.remaining()) + " bytes left");
        const ByteSpan s = r.take(len);
        names.push_back({latin1ToUtf8(s.data, s.size), crc32(s.data, s.size)});
    }
    return names;
}

void readRecords(ByteReader& r, int version, uint32_t nFiles, std::vector<Name>& names, const Extent& x,
                 const std::string& label, std::vector<Entry>& out, std::vector<std::string>& warnings) {
    const uint64_t archiveSize = x.archiveSize;
    r.setContext("file table");
    if (uint64_t(nFiles) * kRecordSize > x.left(r))
        r.fail("file count " + std::to_string(nFiles) + " needs " + std::to_string(uint64_t(nFiles) * kRecordSize) +
               " bytes, " + std::to_string(x.left(r)) + " left");
    x.want(r, size_t(uint64_t(nFiles) * kRecordSize));
    out.reserve(nFiles);
    std::vector<uint8_t> used(names.size(), 0); // a name used once is moved into its entry, not copied
    size_t crcBad = 0;
    for (uint32_t i = 0; i < nFiles; ++i) {
        const size_t at = r.pos();
        Entry e;
        uint32_t nameIndex;
        if (version == 3) {
            e.flags = r.u16le();
            e.crc = r.u32le();
            r.u32le(); // index
            e.size = r.u32le();
            e.offset = r.u32le();
            nameIndex = r.u16le();
        } else {
            e.crc = r.u32le();
            r.u32le(); // index
            e.size = r.u32le();
            e.offset = r.u32le();
            nameIndex = r.u32le();
        }
        if (nameIndex >= names.size())
            r.failAt(at + (version == 3 ? 18 : 16), "record " + std::to_string(i) + " name index " +
                                                        std::to_string(nameIndex) + " out of range (" +
                                                        std::to_string(names.size()) + " names)");
        e.key = normalizePath(names[nameIndex].text);
        if (used[nameIndex])
            e.name = names[nameIndex].text;
        else
            e.name = std::move(names[nameIndex].text), used[nameIndex] = 1;
        if (e.offset > archiveSize || e.size > archiveSize - e.offset)
            r.failAt(at + (version == 3 ? 14 : 12), "record " + std::to_string(i) + " (" + e.name + "): offset " +
                                                        std::to_string(e.offset) + " + size " + std::to_string(e.size) +
                                                        " exceeds the archive size " + std::to_string(archiveSize));
        if (e.crc != names[nameIndex].crc && ++crcBad <= 10)
            pushWarning(warnings, label + ": file table record " + std::to_string(i) + " at offset " + std::to_string(at) +
                               ": CRC " + hex(e.crc) + " does not match name " + e.name + " (CRC " +
                               hex(names[nameIndex].crc) + ")");
        out.push_back(std::move(e));
    }
    if (crcBad > 10) pushWarning(warnings, label + ": " + std::to_string(crcBad) + " CRC mismatches in all");
}

} // namespace

void parseMeg(ByteSpan bytes, uint64_t archiveSize, const std::string& label, std::string& kind,
              std::vector<Entry>& out, std::vector<std::string>& warnings) {
    const Extent x{bytes, archiveSize};
    ByteReader r(bytes, label, "header");
    x.want(r, 4);
    const uint32_t first = r.u32le();
    if (first == kMegEncryptedId)
        r.failAt(0, "encrypted MEG version 3 archive (id 0x8FFFFFFF); encrypted archives are not supported");
    if (first != kMegId) {
        // Version 1: first is nNames.
        kind = "meg1";
        x.want(r, 4);
        const uint32_t nFiles = r.u32le();
        r.setContext("name table");
        std::vector<Name> names = readNames(r, first, x.left(r), &x);
        readRecords(r, 1, nFiles, names, x, label, out, warnings);
        return;
    }
    x.want(r, 20);
    const uint32_t tag = r.u32le();
    if (tag != kMegVersionTag) r.failAt(4, "MEG id 0xFFFFFFFF not followed by 0.99 (found " + hex(tag) + ")");
    const uint32_t dataStart = r.u32le();
    const uint32_t nNames = r.u32le();
    const uint32_t nFiles = r.u32le();
    if (dataStart > archiveSize)
        r.failAt(8,
                 "data start " + std::to_string(dataStart) + " beyond the archive size " + std::to_string(archiveSize));
    int version = 2;
    uint32_t nameTableSize = 0;
    if (archiveSize - r.absOffset() >= 4) {
        x.want(r, 4);
        const uint8_t* c = r.cur();
        const uint32_t cand = uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
        const uint64_t v3Start = 24 + uint64_t(cand) + kRecordSize * uint64_t(nFiles);
        if (v3Start == dataStart) version = 3;
    }
    kind = version == 3 ? "meg3" : "meg2";
    if (version == 3) {
        nameTableSize = r.u32le();
        r.setContext("name table");
        if (nameTableSize > x.left(r))
            r.fail("need " + std::to_string(nameTableSize) + " bytes, " + std::to_string(x.left(r)) + " left");
        x.want(r, nameTableSize);
        ByteReader nr = r.sub(nameTableSize, "name table");
        std::vector<Name> names = readNames(nr, nNames, nr.remaining(), nullptr);
        if (!nr.atEnd())
            pushWarning(warnings,
                        label + ": name table at offset 24 has " + std::to_string(nr.remaining()) + " unused bytes");
        readRecords(r, 3, nFiles, names, x, label, out, warnings);
    } else {
        r.setContext("name table");
        std::vector<Name> names = readNames(r, nNames, x.left(r), &x);
        readRecords(r, 2, nFiles, names, x, label, out, warnings);
        if (r.pos() != dataStart)
            pushWarning(warnings, label + ": file table ends at offset " + std::to_string(r.pos()) +
                                      " but the header says data starts at " + std::to_string(dataStart));
    }
}

} // namespace rs::vfs::detail
