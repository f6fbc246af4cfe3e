// Game archives and folders as read-only sources of named entries (no Qt).
//
// A Source lists its entries once (archives: only the index is read) and reads one entry on demand (archives:
// only that entry's bytes; nothing is read whole). Names are Windows game paths: lookups are case-insensitive and
// accept '/' and '\' (see normalizePath).
//
// Archive files on disk are memory-mapped only while their index is parsed (openArchiveFile); the mapping is then
// released and entries are read with pread() on the kept descriptor. A file that shrinks after it was opened (a
// game patcher rewriting it, a truncated copy) therefore gives a ParseError naming the archive, the entry and the
// sizes, never SIGBUS on a page past the new end of the file.
//
// Archives are untrusted input. Opening throws ParseError (archive, field, byte offset) when the index is
// malformed: counts exceeding the bytes left, name lengths past the index, name indices out of range, entries
// whose offset + size lies outside the archive. Duplicate names, overlapping entries and CRC mismatches are
// warnings (Source::warnings); the archive stays readable (the first of duplicate names wins, as in the games).
#pragma once

#include "common/bytes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rs::vfs {

// Lookup key of a game path: ASCII upper-case, '\' -> '/', no leading "./" or '/', no repeated '/'.
std::string normalizePath(std::string_view path);

// zlib CRC-32 (the MEG name checksum).
uint32_t crc32(const void* data, size_t n, uint32_t crc = 0);

struct Entry {
    std::string name;    // as stored (MEG: Latin-1 bytes; BIG: bytes up to the NUL)
    std::string key;     // normalizePath(name)
    uint64_t offset = 0; // archives: absolute offset of the data; folders: 0
    uint64_t size = 0;
    uint32_t crc = 0;     // MEG: stored name CRC
    uint32_t flags = 0;   // MEG v3: record flags (non-zero = encrypted entry)
    std::string diskPath; // folders: the file on disk
};

// Bytes of one entry: a view that stays valid while `keep` is held (a mapped archive or an owned buffer).
struct EntryBytes {
    std::shared_ptr<const void> keep;
    ByteSpan span;
};

class Source {
  public:
    virtual ~Source() = default;
    const std::string& label() const { return label_; } // archive or folder path
    const std::string& kind() const { return kind_; }   // "meg1", "meg2", "meg3", "bigf", "big4", "folder"
    const std::vector<Entry>& entries() const { return entries_; }
    const std::vector<std::string>& warnings() const { return warnings_; }
    // Entry named `path` (any case, either separator); the first stored one when duplicated. O(log n).
    const Entry* find(std::string_view path) const;
    // Throws ParseError naming the archive and entry when the entry cannot be read (encrypted, compressed).
    virtual EntryBytes read(const Entry& e) const = 0;

  protected:
    // Sorts the lookup index and reports duplicate names and overlapping extents as warnings.
    void finishIndex(bool checkOverlaps);
    std::string label_, kind_;
    std::vector<Entry> entries_;
    std::vector<std::string> warnings_;
    std::vector<uint32_t> byKey_; // entry indices sorted by (key, index)
};

// Parsed archive index; entries come from bytes owned by `keep` (openArchive, openArchiveCopy) or from the file
// (openArchiveFile: one pread per entry, into a buffer the EntryBytes owns).
class Archive : public Source {
  public:
    EntryBytes read(const Entry& e) const override;

  private:
    friend std::shared_ptr<Archive> openArchive(std::shared_ptr<const void>, ByteSpan, const std::string&);
    friend std::shared_ptr<Archive> openArchiveFile(const std::string&);
    EntryBytes readFromFile(const Entry& e) const;
    std::shared_ptr<const void> keep_;
    ByteSpan bytes_;
    std::shared_ptr<const int> fd_; // file-backed: the open descriptor (closed with the last reference)
};

// A folder on disk: entries are the regular files under root/sub (recursively), named relative to root.
// skipArchives leaves out .meg and .big files (mounted as archives of their own); !recursive lists root/sub only.
class Folder : public Source {
  public:
    Folder(const std::string& root, const std::string& sub = {}, bool skipArchives = false, bool recursive = true);
    EntryBytes read(const Entry& e) const override;
    const std::string& root() const { return root_; }

  private:
    std::string root_;
};

// True when bytes start like a MEG or BIG archive.
bool looksLikeArchive(ByteSpan bytes);

// Parses an archive (MEG v1/v2/v3, BIGF/BIG4) from bytes kept alive by `keep`. Throws ParseError.
std::shared_ptr<Archive> openArchive(std::shared_ptr<const void> keep, ByteSpan bytes, const std::string& label);
// Parses the index of the archive file (through a temporary memory map) and keeps the file open for entry reads.
// Throws ParseError when unreadable or malformed.
std::shared_ptr<Archive> openArchiveFile(const std::string& path);
// A copy of `bytes` as an archive (tests, fuzzers).
std::shared_ptr<Archive> openArchiveCopy(ByteSpan bytes, const std::string& label);

// Whole-file memory map (read-only). Empty files map to an empty span.
class MappedFile {
  public:
    static std::shared_ptr<MappedFile> open(const std::string& path); // throws ParseError
    ~MappedFile();
    ByteSpan span() const { return ByteSpan(data_, size_); }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

  private:
    MappedFile() = default;
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

namespace detail {
// Format parsers: fill entries (absolute offsets checked against bytes.size) and warnings.
void parseMeg(ByteSpan bytes, const std::string& label, std::string& kind, std::vector<Entry>& out,
              std::vector<std::string>& warnings);
void parseBig(ByteSpan bytes, const std::string& label, std::string& kind, std::vector<Entry>& out,
              std::vector<std::string>& warnings);
} // namespace detail

} // namespace rs::vfs

#include "common/source_tree.h"

#include <map>

namespace rs::vfs {

// The source tree of a MEG (v1-3, unencrypted) or BIG archive (no chunks): "header", "name table" ("name N"),
// "file table" ("record N") or "index" ("entry N"), then each entry's data by offset (labelled with its name),
// gaps and trailing bytes as Raw. An archive these readers refuse is one Raw node naming why. Never throws on
// bad input.
SourceTree archiveSourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);

// The archive with entries replaced or added, everything else as stored: the header's fields, name and record
// order, record index fields, name case and separators, CRCs, gaps between entries and trailing bytes. Names in
// `replace` are matched like lookups (normalizePath); a name the archive lacks is added (MEG: name appended,
// record inserted in CRC order; BIG: appended to the index), stored as given. When no entry changes size and
// none is added the data are overwritten in place; otherwise the data are laid out again in their stored order
// and the offsets, sizes and header fields recomputed. Throws ParseError (archive, field, offset) on an archive
// the reader refuses, an encrypted one, or entries that overlap (they cannot be laid out again).
std::vector<uint8_t> repackArchive(ByteSpan archive, const std::string& label,
                                   const std::map<std::string, std::vector<uint8_t>>& replace);

} // namespace rs::vfs
