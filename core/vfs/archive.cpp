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

Folder::Folder(const std::string& root, const std::string& sub, bool skipArchives, bool recursive) : root_(root) {
    label_ = root;
    kind_ = "folder";
    std::error_code ec;
    const fs::path base(root);
    const fs::path start = sub.empty() ? base : base / sub;
    if (!fs::is_directory(start, ec)) return;
    for (fs::recursive_directory_iterator it(start, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        if (!recursive && it->is_directory(ec)) it.disable_recursion_pending();
        if (!it->is_regular_file(ec)) continue;
        if (skipArchives) {
            const std::string ext = normalizePath(it->path().extension().string());
            if (ext == ".MEG" || ext == ".BIG" || ext == ".STUFF") continue;
        }
        Entry e;
        e.diskPath = it->path().string();
        e.name = it->path().lexically_relative(base).generic_string();
        e.key = normalizePath(e.name);
        e.size = it->file_size(ec);
        if (ec) e.size = 0, ec.clear();
        entries_.push_back(std::move(e));
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    finishIndex(false);
}

EntryBytes Folder::read(const Entry& e) const {
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

std::shared_ptr<Archive> openArchive(std::shared_ptr<const void> keep, ByteSpan bytes, const std::string& label) {
    std::shared_ptr<Archive> a(new Archive);
    a->keep_ = std::move(keep);
    a->bytes_ = bytes;
    a->label_ = label;
    if (bytes.size >= 4 && (std::memcmp(bytes.data, "BIGF", 4) == 0 || std::memcmp(bytes.data, "BIG4", 4) == 0))
        detail::parseBig(bytes, label, a->kind_, a->entries_, a->warnings_);
    else if (isStuffName(label))
        detail::parseStuff(bytes, label, a->kind_, a->entries_, a->warnings_);
    else
        detail::parseMeg(bytes, label, a->kind_, a->entries_, a->warnings_);
    a->finishIndex(true);
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
    // The map is released when the index is parsed: entries are read with pread (see top of archive.h).
    std::shared_ptr<Archive> a;
    if (st.st_size == 0) {
        a = openArchive(nullptr, ByteSpan(), path);
    } else {
        const size_t size = size_t(st.st_size);
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) throw ParseError(path, {}, 0, std::string("cannot map: ") + std::strerror(errno));
        std::shared_ptr<const void> map(p, [size](const void* q) { ::munmap(const_cast<void*>(q), size); });
        a = openArchive(map, ByteSpan(static_cast<const uint8_t*>(p), size), path);
    }
    a->keep_.reset();
    a->bytes_ = ByteSpan();
    a->fd_ = std::move(handle);
    return a;
}

std::shared_ptr<Archive> openArchiveCopy(ByteSpan bytes, const std::string& label) {
    auto buf = std::make_shared<std::vector<uint8_t>>(bytes.data, bytes.data + bytes.size);
    const ByteSpan s(*buf);
    return openArchive(std::move(buf), s, label);
}

} // namespace rs::vfs
