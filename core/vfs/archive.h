// Game archives and folders as read-only sources of named entries (no Qt).
//
// A Source lists its entries once (archives: only the index is read) and reads one entry on demand (archives:
// only that entry's bytes; nothing is read whole). Names are Windows game paths: lookups are case-insensitive and
// accept '/' and '\' (see normalizePath).
//
// Archive files on disk are never memory-mapped: openArchiveFile reads the index into memory with pread() (the bytes
// from the start of the file that the index needs, at most kMaxArchiveIndexBytes) and keeps the descriptor for
// entry reads. A file that shrinks while it is opened or read (a modding tool rewriting it, a truncated copy)
// therefore gives a ParseError naming the archive, saying it changed and giving the sizes, never SIGBUS on a page
// past the new end of the file.
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
    uint32_t extra = 0;   // B&W2 .stuff: the directory entry's word of unknown use, as stored
    std::string diskPath; // folders: the file on disk
    // Folders: a symbolic link whose target lies outside the folder (linkTarget: where it leads, "" when it cannot
    // be followed). Listed so that it can be shown and reported; never read (Folder::read refuses it).
    bool linkOutside = false;
    std::string linkTarget;
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
    const std::string& kind() const { return kind_; } // "meg1", "meg2", "meg3", "bigf", "big4", "stuff", "folder"
    const std::vector<Entry>& entries() const { return entries_; }
    const std::vector<std::string>& warnings() const { return warnings_; }
    // Folders: what could not be listed ("<path>: <reason>": a sub-folder that cannot be opened, a link that loops);
    // each is also a warning. The rest of the folder is listed.
    const std::vector<std::string>& unreadable() const { return unreadable_; }
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
    std::vector<std::string> unreadable_;
    std::vector<uint32_t> byKey_; // entry indices sorted by (key, index)
};

// Parsed archive index; entries come from bytes owned by `keep` (openArchive, openArchiveCopy) or from the file
// (openArchiveFile: one pread per entry, into a buffer the EntryBytes owns).
class Archive : public Source {
  public:
    EntryBytes read(const Entry& e) const override;

  private:
    friend std::shared_ptr<Archive> openArchive(std::shared_ptr<const void>, ByteSpan, const std::string&);
    friend std::shared_ptr<Archive> openArchiveDescriptor(std::shared_ptr<const int>, uint64_t, const std::string&);
    EntryBytes readFromFile(const Entry& e) const;
    std::shared_ptr<const void> keep_;
    ByteSpan bytes_;
    std::shared_ptr<const int> fd_; // file-backed: the open descriptor (closed with the last reference)
};

// The regular files under a folder on disk, for every command that reads "all files of a folder" (Folder, check
// PATH, export --batch): links to folders are not followed (no loops); a link to a file is listed, flagged when
// its target lies outside `root` (or cannot be followed); a sub-folder that cannot be opened or read to its end is
// named in `unreadable` and the walk goes on with the others.
struct WalkedFile {
    std::string path; // root/... as found (not resolved)
    uint64_t size = 0;
    bool linkOutside = false;
    std::string linkTarget; // linkOutside: the resolved target ("" when it cannot be followed)
};
struct FolderWalk {
    std::vector<WalkedFile> files;       // in the order found (callers sort)
    std::vector<std::string> unreadable; // "<path>: <reason>"
};
// Every regular file under `start` (only its direct files when !recursive); links are judged against `root`
// (start itself when empty).
FolderWalk walkFolder(const std::string& start, bool recursive = true, const std::string& root = {});

// A folder on disk: entries are the regular files under root/sub (recursively), named relative to root.
// skipArchives leaves out .meg and .big files (mounted as archives of their own); !recursive lists root/sub only.
// Links leaving root are listed with Entry::linkOutside and refused by read(); what could not be listed is in
// unreadable().
class Folder : public Source {
  public:
    Folder(const std::string& root, const std::string& sub = {}, bool skipArchives = false, bool recursive = true);
    EntryBytes read(const Entry& e) const override;
    const std::string& root() const { return root_; }

  private:
    std::string root_;
};

// B&W2 .stuff: directory entries of 268 bytes; more than this many entries are refused (a 268 MB directory).
constexpr uint64_t kStuffEntryBytes = 268;
constexpr uint64_t kMaxStuffEntries = 1000000;

// True when `label` names a B&W2 .stuff archive (by its extension: the format has no header).
bool isStuffName(std::string_view label);

// True when bytes start like a MEG or BIG archive.
bool looksLikeArchive(ByteSpan bytes);

// Parses an archive (MEG v1/v2/v3, BIGF/BIG4, and B&W2 .stuff when `label` ends in .stuff) from bytes kept alive
// by `keep`. Throws ParseError.
std::shared_ptr<Archive> openArchive(std::shared_ptr<const void> keep, ByteSpan bytes, const std::string& label);
// Reads the index of the archive file into memory (pread, never a memory map) and keeps the file open for entry
// reads. Throws ParseError when unreadable or malformed, when the index needs more than kMaxArchiveIndexBytes, and
// when the file changes size while its index is read ("archive changed while it was read").
std::shared_ptr<Archive> openArchiveFile(const std::string& path);
constexpr uint64_t kMaxArchiveIndexBytes = uint64_t(256) << 20;
// The same for an open descriptor of a file that had `sizeAtOpen` bytes when it was opened (what openArchiveFile
// does after fstat; tests pass a file truncated since).
std::shared_ptr<Archive> openArchiveDescriptor(std::shared_ptr<const int> fd, uint64_t sizeAtOpen,
                                               const std::string& path);
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
// Thrown by the format parsers when `bytes` is a prefix of the archive (bytes.size < archiveSize) that ends before a
// byte they need: the caller reads the file up to `upTo` (at least) and parses again.
struct NeedMoreBytes {
    uint64_t upTo;
};
// Throws NeedMoreBytes when the n bytes at r's position lie past the prefix but the archive is longer than it.
void wantBytes(const ByteReader& r, size_t n, ByteSpan prefix, uint64_t archiveSize);
// Format parsers over the first bytes of an archive of archiveSize bytes (all of it, or the prefix holding the
// index): fill entries (absolute offsets checked against archiveSize) and warnings.
void parseMeg(ByteSpan bytes, uint64_t archiveSize, const std::string& label, std::string& kind,
              std::vector<Entry>& out, std::vector<std::string>& warnings);
void parseBig(ByteSpan bytes, uint64_t archiveSize, const std::string& label, std::string& kind,
              std::vector<Entry>& out, std::vector<std::string>& warnings);
// B&W2 .stuff: `bytes` are the LAST bytes of the archive (the directory lies at its end; NeedMoreBytes::upTo then
// counts bytes from the end). The whole archive when bytes.size == archiveSize.
void parseStuff(ByteSpan bytes, uint64_t archiveSize, const std::string& label, std::string& kind,
                std::vector<Entry>& out, std::vector<std::string>& warnings);
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
