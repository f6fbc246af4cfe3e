#include "vfs/archive_writer.h"

#include "common/bytes.h"
#include "common/text_util.h"
#include "vfs/archive.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace rs::vfs {

ArchiveLayout layoutMeg(int version, const std::vector<std::string>& names, const std::vector<uint64_t>& sizes) {
    if (version < 1 || version > 3) throw std::invalid_argument("MEG version must be 1, 2 or 3");
    if (names.size() != sizes.size()) throw std::invalid_argument("names and sizes differ in count");
    const size_t n = names.size();
    std::vector<std::string> stored(n);
    std::vector<uint32_t> crcs(n);
    uint64_t nameBytes = 0;
    for (size_t i = 0; i < n; ++i) {
        stored[i] = utf8ToLatin1(names[i]);
        if (stored[i].size() > 0xFFFF) throw std::invalid_argument("MEG name longer than 65535 bytes");
        crcs[i] = crc32(stored[i].data(), stored[i].size());
        nameBytes += 2 + stored[i].size();
    }
    const uint64_t headerSize = version == 1 ? 8 : version == 2 ? 20 : 24;
    const uint64_t dataStart = headerSize + nameBytes + 20 * uint64_t(n);
    ArchiveLayout L;
    L.offsets.resize(n);
    uint64_t at = dataStart;
    for (size_t i = 0; i < n; ++i) {
        L.offsets[i] = at;
        at += sizes[i];
    }
    L.total = at;
    if (L.total > 0xFFFFFFFFull) throw std::invalid_argument("MEG archives are limited to 4 GiB");
    ByteWriter w;
    if (version == 1) {
        w.u32le(uint32_t(n));
        w.u32le(uint32_t(n));
    } else {
        w.u32le(0xFFFFFFFFu);
        w.f32le(0.99f);
        w.u32le(uint32_t(dataStart));
        w.u32le(uint32_t(n));
        w.u32le(uint32_t(n));
        if (version == 3) w.u32le(uint32_t(nameBytes));
    }
    for (const std::string& s : stored) {
        w.u16le(uint16_t(s.size()));
        w.bytes(s.data(), s.size());
    }
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return crcs[a] < crcs[b]; });
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t i = order[k];
        if (version == 3) w.u16le(0);
        w.u32le(crcs[i]);
        w.u32le(k);
        w.u32le(uint32_t(sizes[i]));
        w.u32le(uint32_t(L.offsets[i]));
        if (version == 3)
            w.u16le(uint16_t(i));
        else
            w.u32le(i);
    }
    L.index = std::move(w.buf);
    return L;
}

ArchiveLayout layoutBig(const std::vector<std::string>& names, const std::vector<uint64_t>& sizes, const char* magic) {
    if (names.size() != sizes.size()) throw std::invalid_argument("names and sizes differ in count");
    uint64_t indexSize = 16;
    for (const std::string& s : names)
        indexSize += 8 + s.size() + 1;
    const uint64_t dataStart = indexSize + 8; // "L225" + 4 bytes
    ArchiveLayout L;
    L.offsets.resize(names.size());
    uint64_t at = dataStart;
    for (size_t i = 0; i < names.size(); ++i) {
        L.offsets[i] = at;
        at += sizes[i];
    }
    L.total = at;
    if (L.total > 0xFFFFFFFFull) throw std::invalid_argument("BIG archives are limited to 4 GiB");
    ByteWriter w;
    w.bytes(magic, 4);
    w.u32le(uint32_t(L.total));
    w.u32be(uint32_t(names.size()));
    w.u32be(uint32_t(dataStart - 1));
    for (size_t i = 0; i < names.size(); ++i) {
        w.u32be(uint32_t(L.offsets[i]));
        w.u32be(uint32_t(sizes[i]));
        w.cstr(names[i]);
    }
    w.bytes("L225", 4);
    w.u32le(0);
    L.index = std::move(w.buf);
    return L;
}

static std::vector<uint8_t> assemble(const ArchiveLayout& L, const std::vector<WriteEntry>& entries) {
    std::vector<uint8_t> out(size_t(L.total), 0);
    std::copy(L.index.begin(), L.index.end(), out.begin());
    for (size_t i = 0; i < entries.size(); ++i)
        std::copy(entries[i].data.begin(), entries[i].data.end(), out.begin() + long(L.offsets[i]));
    return out;
}

static void split(const std::vector<WriteEntry>& entries, std::vector<std::string>& names,
                  std::vector<uint64_t>& sizes) {
    for (const WriteEntry& e : entries) {
        names.push_back(e.name);
        sizes.push_back(e.data.size());
    }
}

void sortForMeg(std::vector<WriteEntry>& entries) {
    std::vector<std::pair<uint32_t, size_t>> key(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        const std::string s = utf8ToLatin1(entries[i].name);
        key[i] = {crc32(s.data(), s.size()), i};
    }
    std::sort(key.begin(), key.end(), [&](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : entries[a.second].name < entries[b.second].name;
    });
    std::vector<WriteEntry> out;
    out.reserve(entries.size());
    for (const auto& k : key)
        out.push_back(std::move(entries[k.second]));
    entries = std::move(out);
}

void sortForBig(std::vector<WriteEntry>& entries) {
    auto lower = [](std::string s) {
        for (char& c : s)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        return s;
    };
    std::stable_sort(entries.begin(), entries.end(), [&](const WriteEntry& a, const WriteEntry& b) {
        const std::string la = lower(a.name), lb = lower(b.name);
        return la != lb ? la < lb : a.name < b.name;
    });
}

std::vector<uint8_t> writeMeg(int version, const std::vector<WriteEntry>& entries) {
    std::vector<std::string> names;
    std::vector<uint64_t> sizes;
    split(entries, names, sizes);
    return assemble(layoutMeg(version, names, sizes), entries);
}

std::vector<uint8_t> writeStuff(const std::vector<WriteEntry>& entries, uint32_t unknown) {
    ByteWriter w;
    std::vector<uint32_t> offsets;
    for (const WriteEntry& e : entries) {
        offsets.push_back(uint32_t(w.buf.size()));
        w.bytes(e.data.data(), e.data.size());
    }
    const uint32_t dir = uint32_t(w.buf.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        const std::string& n = entries[i].name;
        if (n.size() >= 256) throw std::invalid_argument(".stuff entry name of 256 bytes or more: " + n);
        std::vector<uint8_t> name(256, 0);
        std::copy(n.begin(), n.end(), name.begin());
        w.bytes(name.data(), name.size());
        w.u32le(offsets[i]);
        w.u32le(uint32_t(entries[i].data.size()));
        w.u32le(unknown);
    }
    w.u32le(dir);
    return std::move(w.buf);
}

std::vector<uint8_t> writeBig(const std::vector<WriteEntry>& entries, const char* magic) {
    std::vector<std::string> names;
    std::vector<uint64_t> sizes;
    split(entries, names, sizes);
    return assemble(layoutBig(names, sizes, magic), entries);
}

} // namespace rs::vfs
