#include "vfs/archive.h"
#include "common/warnings.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rs::vfs {

namespace fs = std::filesystem;

std::string normalizePath(std::string_view path) {
    std::string out;
    out.reserve(path.size());
    for (char c : path) {
        if (c == '\\') c = '/';
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
        if (c == '/' && (out.empty() || out.back() == '/')) continue;
        out.push_back(c);
        if (out.size() == 2 && out[0] == '.' && out[1] == '/') out.clear();
    }
    return out;
}

uint32_t crc32(const void* data, size_t n, uint32_t crc) {
    static const auto table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    const auto* p = static_cast<const uint8_t*>(data);
    crc = ~crc;
    for (size_t i = 0; i < n; ++i)
        crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

const Entry* Source::find(std::string_view path) const {
    const std::string key = normalizePath(path);
    auto it = std::lower_bound(byKey_.begin(), byKey_.end(), key,
                               [&](uint32_t i, const std::string& k) { return entries_[i].key < k; });
    if (it == byKey_.end() || entries_[*it].key != key) return nullptr;
    return &entries_[*it];
}

void Source::finishIndex(bool checkOverlaps) {
    byKey_.resize(entries_.size());
    for (uint32_t i = 0; i < byKey_.size(); ++i)
        byKey_[i] = i;
    std::sort(byKey_.begin(), byKey_.end(), [&](uint32_t a, uint32_t b) {
        const int c = entries_[a].key.compare(entries_[b].key);
        return c != 0 ? c < 0 : a < b;
    });
    size_t dups = 0;
    for (size_t i = 1; i < byKey_.size(); ++i)
        if (entries_[byKey_[i]].key == entries_[byKey_[i - 1]].key && ++dups <= 10)
            pushWarning(warnings_, label_ + ": duplicate entry name " + entries_[byKey_[i]].name + " (entry " +
                                std::to_string(byKey_[i]) + "); the first one is used");
    if (dups > 10) pushWarning(warnings_, label_ + ": " + std::to_string(dups) + " duplicate entry names in all");
    if (!checkOverlaps) return;
    std::vector<uint32_t> byOff;
    byOff.reserve(entries_.size());
    for (uint32_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].size) byOff.push_back(i);
    std::sort(byOff.begin(), byOff.end(), [&](uint32_t a, uint32_t b) {
        return entries_[a].offset != entries_[b].offset ? entries_[a].offset < entries_[b].offset : a < b;
    });
    size_t overlaps = 0;
    uint64_t end = 0;
    uint32_t endOwner = 0;
    for (uint32_t i : byOff) {
        const Entry& e = entries_[i];
        if (e.offset < end && ++overlaps <= 10)
            pushWarning(warnings_, label_ + ": entry " + e.name + " at offset " + std::to_string(e.offset) +
                                " overlaps entry " + entries_[endOwner].name);
        if (e.offset + e.size > end) end = e.offset + e.size, endOwner = i;
    }
    if (overlaps > 10) pushWarning(warnings_, label_ + ": " + std::to_string(overlaps) + " overlapping entries in all");
}

// RefPack-compressed entries (C&C3 and later BIG archives): "EAR\0" wrapper or a bare RefPack header.
static bool looksCompressed(ByteSpan s) {
    if (s.size >= 4 && std::memcmp(s.data, "EAR\0", 4) == 0) return true;
    return s.size >= 5 && (s.data[0] & 0x3E) == 0x10 && s.data[1] == 0xFB;
}

EntryBytes Archive::readFromFile(const Entry& e) const {
    // Extents were checked against the archive's size when the index was read; the file may have shrunk since.
    auto buf = std::make_shared<std::vector<uint8_t>>(size_t(e.size));
    size_t done = 0;
    while (done < buf->size()) {
        const ssize_t n = ::pread(*fd_, buf->data() + done, buf->size() - done, off_t(e.offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw ParseError(label_, e.name, e.offset, std::string("cannot read entry: ") + std::strerror(errno));
        if (n == 0) {
            struct stat st {};
            const long long now = ::fstat(*fd_, &st) == 0 ? (long long)st.st_size : -1;
            throw ParseError(label_, e.name, e.offset + done,
                             "archive is shorter than when it was opened (now " + std::to_string(now) +
                                 " bytes; the entry needs bytes up to " + std::to_string(e.offset + e.size) + ")");
        }
        done += size_t(n);
    }
    return {buf, ByteSpan(*buf)};
}

EntryBytes Archive::read(const Entry& e) const {
    if (e.flags != 0)
        throw ParseError(label_, e.name, e.offset,
                         "entry is encrypted (MEG v3 record flags " + hex(e.flags) + "); encryption is not supported");
    if (fd_) {
        EntryBytes b = readFromFile(e);
        if ((kind_ == "bigf" || kind_ == "big4") && looksCompressed(b.span))
            throw ParseError(label_, e.name, e.offset,
                             "entry is RefPack-compressed (archives of later EA games); compressed entries are not "
                             "supported");
        return b;
    }
    // Extents were checked against the archive size when the index was read.
    ByteSpan s(bytes_.data + e.offset, size_t(e.size));
    if ((kind_ == "bigf" || kind_ == "big4") && looksCompressed(s))
        throw ParseError(label_, e.name, e.offset,
                         "entry is RefPack-compressed (archives of later EA games); compressed entries are not "
                         "supported");
    return {keep_, s};
}

FolderWalk walkFolder(const std::string& start, bool recursive, const std::string& rootIn) {
    FolderWalk out;
    std::error_code ec;
    const fs::path root(rootIn.empty() ? start : rootIn);
    const fs::path realRoot = fs::weakly_canonical(fs::absolute(root, ec), ec);
    auto inside = [&](const fs::path& p) {
        const std::string r = realRoot.generic_string(), q = p.generic_string();
        return q.size() > r.size() && q.compare(0, r.size(), r) == 0 && (r.back() == '/' || q[r.size()] == '/');
    };
    std::vector<fs::path> todo{fs::path(start)};
    while (!todo.empty()) {
        const fs::path dir = std::move(todo.back());
        todo.pop_back();
        std::vector<fs::path> subs;
        fs::directory_iterator it(dir, ec), end;
        if (ec) {
            out.unreadable.push_back(dir.string() + ": folder cannot be read (" + ec.message() + ")");
            continue;
        }
        for (; it != end; it.increment(ec)) {
            const fs::path p = it->path();
            std::error_code sec;
            const fs::file_status ls = it->symlink_status(sec);
            if (sec) { // gone meanwhile (nothing to say), or its path cannot be used (too long, ...)
                if (sec != std::errc::no_such_file_or_directory)
                    out.unreadable.push_back(p.string() + ": cannot be read (" + sec.message() + ")");
                continue;
            }
            if (fs::is_directory(ls)) {
                if (recursive) subs.push_back(p);
                continue;
            }
            if (fs::is_symlink(ls)) {
                std::error_code tec;
                const fs::file_status ts = fs::status(p, tec);
                if (tec) { // a loop or a dangling link: nothing to read
                    if (tec != std::errc::no_such_file_or_directory)
                        out.unreadable.push_back(p.string() + ": link cannot be followed (" + tec.message() + ")");
                    continue;
                }
                if (!fs::is_regular_file(ts)) continue; // links to folders are not followed
                WalkedFile f;
                f.path = p.string();
                f.size = fs::file_size(p, tec);
                const fs::path target = fs::canonical(p, tec);
                if (tec || !inside(target)) {
                    f.linkOutside = true;
                    f.linkTarget = tec ? std::string() : target.string();
                    f.size = 0;
                }
                out.files.push_back(std::move(f));
                continue;
            }
            if (!fs::is_regular_file(ls)) continue;
            WalkedFile f;
            f.path = p.string();
            f.size = it->file_size(sec);
            if (sec) f.size = 0;
            out.files.push_back(std::move(f));
        }
        if (ec) // the listing stopped part way: what was listed is kept
            out.unreadable.push_back(dir.string() + ": folder cannot be read to its end (" + ec.message() + ")");
        ec.clear();
        std::sort(subs.begin(), subs.end(), std::greater<>());
        for (fs::path& d : subs)
            todo.push_back(std::move(d));
    }
    return out;
}

Folder::Folder(const std::string& root, const std::string& sub, bool skipArchives, bool recursive) : root_(root) {
    label_ = root;
    kind_ = "folder";
    std::error_code ec;
    const fs::path base(root);
    const fs::path start = sub.empty() ? base : base / sub;
    if (!fs::is_directory(start, ec)) return;
    FolderWalk walk = walkFolder(start.string(), recursive, root);
    for (WalkedFile& f : walk.files) {
        const fs::path p(f.path);
        if (skipArchives) {
            const std::string ext = normalizePath(p.extension().string());
            if (ext == ".MEG" || ext == ".BIG" || ext == ".STUFF") continue;
        }
        Entry e;
        e.diskPath = std::move(f.path);
        e.name = p.lexically_relative(base).generic_string();
        e.key = normalizePath(e.name);
        e.size = f.size;
        e.linkOutside = f.linkOutside;
        e.linkTarget = std::move(f.linkTarget);
        if (e.linkOutside)
            pushWarning(warnings_,
                        e.diskPath + ": link leading out of " + root + " (to " +
                            (e.linkTarget.empty() ? std::string("a target that cannot be followed") : e.linkTarget) +
                            "): not read");
        entries_.push_back(std::move(e));
    }
    for (std::string& u : walk.unreadable) {
        pushWarning(warnings_, u);
        unreadable_.push_back(std::move(u));
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    finishIndex(false);
}

EntryBytes Folder::read(const Entry& e) const {
    if (e.linkOutside)
        throw ParseError(e.diskPath, {}, ParseError::kNoOffset,
                         "link leading out of the mounted folder " + root_ + " (to " +
                             (e.linkTarget.empty() ? std::string("a target that cannot be followed") : e.linkTarget) +
                             "): not read");
    auto buf = std::make_shared<std::vector<uint8_t>>(readFileBytes(e.diskPath));
    return {buf, ByteSpan(*buf)};
}

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw ParseError(path, {}, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw ParseError(path, {}, 0, "not a regular file");
    }
    std::shared_ptr<MappedFile> m(new MappedFile);
    if (st.st_size > 0) {
        void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            ::close(fd);
            throw ParseError(path, {}, 0, std::string("cannot map: ") + std::strerror(errno));
        }
        m->data_ = static_cast<const uint8_t*>(p);
        m->size_ = size_t(st.st_size);
    }
    ::close(fd);
    return m;
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

bool isStuffName(std::string_view label) {
    return label.size() >= 6 && normalizePath(label.substr(label.size() - 6)) == ".STUFF";
}

bool looksLikeArchive(ByteSpan b) {
    if (b.size >= 4 && (std::memcmp(b.data, "BIGF", 4) == 0 || std::memcmp(b.data, "BIG4", 4) == 0)) return true;
    if (b.size >= 8 && (b.data[0] == 0xFF || b.data[0] == 0x8F) && b.data[1] == 0xFF && b.data[2] == 0xFF &&
        b.data[3] == 0xFF)
        return true;
    return false; // MEG v1 has no signature: recognised by extension (openArchive parses it anyway)
}

namespace detail {

void wantBytes(const ByteReader& r, size_t n, ByteSpan prefix, uint64_t archiveSize) {
    if (n <= r.remaining() || prefix.size >= archiveSize) return;
    // Past the end of the file too: the whole file is read, and the parse over it refuses the index by name.
    throw NeedMoreBytes{std::min<uint64_t>(archiveSize, r.absOffset() + n)};
}

} // namespace detail

// Parses the index from `bytes`, the first bytes of an archive of archiveSize bytes (NeedMoreBytes when they are
// too few).
static void parseIndex(ByteSpan bytes, uint64_t archiveSize, std::string& kind, std::vector<Entry>& out,
                       std::vector<std::string>& warnings, const std::string& label) {
    if (isStuffName(label)) {
        if (bytes.size < archiveSize) throw detail::NeedMoreBytes{archiveSize}; // (only for in-memory callers)
        detail::parseStuff(bytes, archiveSize, label, kind, out, warnings);
        return;
    }
    if (bytes.size < 4 && bytes.size < archiveSize) throw detail::NeedMoreBytes{std::min<uint64_t>(archiveSize, 4)};
    if (bytes.size >= 4 && (std::memcmp(bytes.data, "BIGF", 4) == 0 || std::memcmp(bytes.data, "BIG4", 4) == 0))
        detail::parseBig(bytes, archiveSize, label, kind, out, warnings);
    else
        detail::parseMeg(bytes, archiveSize, label, kind, out, warnings);
}

std::shared_ptr<Archive> openArchive(std::shared_ptr<const void> keep, ByteSpan bytes, const std::string& label) {
    std::shared_ptr<Archive> a(new Archive);
    a->keep_ = std::move(keep);
    a->bytes_ = bytes;
    a->label_ = label;
    parseIndex(bytes, bytes.size, a->kind_, a->entries_, a->warnings_, label);
    a->finishIndex(true);
    return a;
}

// "changed while it was read": the file is no longer as long as it was when it was opened.
static ParseError changed(const std::string& path, uint64_t was, int fd, uint64_t needed) {
    struct stat st {};
    const long long now = ::fstat(fd, &st) == 0 ? (long long)st.st_size : -1;
    return ParseError(path, "index", ParseError::kNoOffset,
                      "archive changed while it was read: it had " + std::to_string(was) + " bytes when opened, now " +
                          std::to_string(now) + " (its index needs bytes up to " + std::to_string(needed) + ")");
}

std::shared_ptr<Archive> openArchiveDescriptor(std::shared_ptr<const int> handle, uint64_t size,
                                               const std::string& path) {
    const int fd = *handle;
    std::shared_ptr<Archive> a(new Archive);
    a->label_ = path;
    // The index is read into memory (pread), a first block and then as much more as the parser asks for; the bytes
    // read so far are kept and only the rest is read.
    std::vector<uint8_t> head;
    uint64_t want = std::min<uint64_t>(size, uint64_t(64) << 10);
    if (isStuffName(path)) { // B&W2 .stuff: the directory is at the end; read the file's last `want` bytes
        for (;;) {
            if (want > kMaxArchiveIndexBytes)
                throw ParseError(path, "directory", ParseError::kNoOffset,
                                 "the directory needs more than " + std::to_string(kMaxArchiveIndexBytes) +
                                     " bytes (kMaxArchiveIndexBytes): refused");
            head.resize(size_t(want));
            size_t have = 0;
            while (have < head.size()) {
                const ssize_t n = ::pread(fd, head.data() + have, head.size() - have, off_t(size - want + have));
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) throw ParseError(path, "directory", size - want + have, std::string("cannot read: ") +
                                                                                       std::strerror(errno));
                if (n == 0) throw changed(path, size, fd, size);
                have += size_t(n);
            }
            try {
                a->entries_.clear();
                a->warnings_.clear();
                detail::parseStuff(ByteSpan(head), size, path, a->kind_, a->entries_, a->warnings_);
                break;
            } catch (const detail::NeedMoreBytes& more) {
                if (more.upTo <= want) // parseStuff asks only for more than it was given
                    throw ParseError(path, "directory", ParseError::kNoOffset, "malformed directory");
                want = std::min<uint64_t>(size, more.upTo);
            }
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0 || uint64_t(st.st_size) < size) throw changed(path, size, fd, size);
        a->finishIndex(true);
        a->fd_ = std::move(handle);
        return a;
    }
    for (;;) {
        if (want > kMaxArchiveIndexBytes)
            throw ParseError(path, "index", ParseError::kNoOffset,
                             "the index needs more than " + std::to_string(kMaxArchiveIndexBytes) +
                                 " bytes (kMaxArchiveIndexBytes): refused");
        size_t have = head.size();
        head.resize(size_t(want));
        while (have < head.size()) {
            const ssize_t n = ::pread(fd, head.data() + have, head.size() - have, off_t(have));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw ParseError(path, "index", have, std::string("cannot read: ") + std::strerror(errno));
            if (n == 0) throw changed(path, size, fd, want);
            have += size_t(n);
        }
        try {
            a->entries_.clear();
            a->warnings_.clear();
            parseIndex(ByteSpan(head), size, a->kind_, a->entries_, a->warnings_, path);
            break;
        } catch (const detail::NeedMoreBytes& more) {
            want = std::min<uint64_t>(size, std::max<uint64_t>(more.upTo, want * 2));
        }
    }
    // The file must still have the size the index was checked against.
    struct stat st {};
    if (::fstat(fd, &st) != 0 || uint64_t(st.st_size) < size) throw changed(path, size, fd, head.size());
    a->finishIndex(true);
    a->fd_ = std::move(handle);
    return a;
}

std::shared_ptr<Archive> openArchiveFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw ParseError(path, {}, 0, std::string("cannot open: ") + std::strerror(errno));
    std::shared_ptr<const int> handle(new int(fd), [](const int* p) {
        ::close(*p);
        delete p;
    });
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) throw ParseError(path, {}, 0, "not a regular file");
    return openArchiveDescriptor(std::move(handle), uint64_t(st.st_size), path);
}

std::shared_ptr<Archive> openArchiveCopy(ByteSpan bytes, const std::string& label) {
    auto buf = std::make_shared<std::vector<uint8_t>>(bytes.data, bytes.data + bytes.size);
    const ByteSpan s(*buf);
    return openArchive(std::move(buf), s, label);
}

} // namespace rs::vfs
