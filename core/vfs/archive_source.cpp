// MEG and BIG archives as stored: the source tree (read, edit, write: docs/ARCHITECTURE.md) and repacking with
// entries replaced or added. The field layouts are those of meg.cpp and big.cpp; both readers run first, so an
// archive they refuse is refused here with their message.
#include "vfs/archive.h"

#include "common/text_util.h"
#include <algorithm>
#include <cstring>
#include <numeric>

namespace rs::vfs {

namespace {

struct MegRecord {
    uint64_t at = 0; // offset of the record
    uint16_t flags = 0;
    uint32_t crc = 0, index = 0, size = 0, offset = 0, nameIndex = 0;
};

struct MegLayout {
    int version = 1;
    uint64_t headerSize = 8;
    uint32_t dataStart = 0;                           // v2/v3 header field
    std::vector<std::pair<uint64_t, uint64_t>> names; // [begin, end) of each name (length word included)
    uint64_t namesEnd = 0, recordsEnd = 0;
    std::vector<MegRecord> records;
};

struct BigEntry {
    uint64_t at = 0, end = 0; // the index entry
    uint32_t offset = 0, size = 0;
    std::string name; // raw bytes
};

struct BigLayout {
    uint32_t archiveSize = 0, indexEnd = 0;
    uint64_t indexStop = 16; // end of the last index entry
    std::vector<BigEntry> entries;
};

bool isMeg(ByteSpan b) {
    return !(b.size >= 4 && (std::memcmp(b.data, "BIGF", 4) == 0 || std::memcmp(b.data, "BIG4", 4) == 0));
}

uint64_t fileTableRecordSize() { return 20; }

MegLayout readMeg(ByteSpan bytes, const std::string& label) {
    std::string kind;
    std::vector<Entry> entries;
    std::vector<std::string> warnings;
    detail::parseMeg(bytes, bytes.size, label, kind, entries, warnings); // validates (throws ParseError)
    MegLayout L;
    L.version = kind == "meg1" ? 1 : kind == "meg2" ? 2 : 3;
    ByteReader r(bytes, label, "header");
    uint32_t nNames, nFiles;
    if (L.version == 1) {
        nNames = r.u32le();
        nFiles = r.u32le();
    } else {
        r.skip(8);
        L.dataStart = r.u32le();
        nNames = r.u32le();
        nFiles = r.u32le();
        if (L.version == 3) r.skip(4);
    }
    L.headerSize = r.pos();
    r.setContext("name table");
    for (uint32_t i = 0; i < nNames; ++i) {
        const uint64_t at = r.pos();
        const uint16_t len = r.u16le();
        r.skip(len);
        L.names.push_back({at, r.pos()});
    }
    L.namesEnd = r.pos();
    if (L.version == 3) { // the name table size field may hold unused bytes after the names
        const uint32_t tableSize = uint32_t(bytes.data[20]) | uint32_t(bytes.data[21]) << 8 |
                                   uint32_t(bytes.data[22]) << 16 | uint32_t(bytes.data[23]) << 24;
        L.namesEnd = 24 + uint64_t(tableSize);
        r.seek(size_t(L.namesEnd));
    }
    r.setContext("file table");
    for (uint32_t i = 0; i < nFiles; ++i) {
        MegRecord rec;
        rec.at = r.pos();
        if (L.version == 3) rec.flags = r.u16le();
        rec.crc = r.u32le();
        rec.index = r.u32le();
        rec.size = r.u32le();
        rec.offset = r.u32le();
        rec.nameIndex = L.version == 3 ? r.u16le() : r.u32le();
        if (rec.flags)
            r.failAt(rec.at, "record " + std::to_string(i) + " is encrypted; encrypted archives are not repacked");
        L.records.push_back(rec);
    }
    L.recordsEnd = r.pos();
    return L;
}

BigLayout readBig(ByteSpan bytes, const std::string& label) {
    std::string kind;
    std::vector<Entry> entries;
    std::vector<std::string> warnings;
    detail::parseBig(bytes, bytes.size, label, kind, entries, warnings); // validates (throws ParseError)
    BigLayout L;
    ByteReader r(bytes, label, "header");
    r.skip(4);
    L.archiveSize = r.u32le();
    const uint32_t count = r.u32be();
    L.indexEnd = r.u32be();
    r.setContext("index");
    for (uint32_t i = 0; i < count; ++i) {
        BigEntry e;
        e.at = r.pos();
        e.offset = r.u32be();
        e.size = r.u32be();
        const uint8_t* p = r.cur();
        const size_t len = size_t(static_cast<const uint8_t*>(std::memchr(p, 0, r.remaining())) - p);
        e.name.assign(reinterpret_cast<const char*>(p), len);
        r.skip(len + 1);
        e.end = r.pos();
        L.entries.push_back(std::move(e));
    }
    L.indexStop = r.pos();
    return L;
}

std::string latin1ToUtf8(const std::string& s) {
    std::string o;
    for (unsigned char c : s) {
        if (c < 0x80)
            o.push_back(char(c));
        else {
            o.push_back(char(0xC0 | (c >> 6)));
            o.push_back(char(0x80 | (c & 0x3F)));
        }
    }
    return o;
}

// One entry's data in the new archive.
struct Item {
    uint64_t origOffset = 0, origSize = 0;
    ByteSpan data;
    bool added = false;
    uint64_t newOffset = 0;
};

// Lays the items' data out after a new index of `newIndexSize` bytes: stored entries in their stored order with
// the bytes between them (and before the first: the index's filler) kept, then the added ones, then the bytes
// after the last stored entry. Entries that share their data stay shared. Returns the archive with the index
// bytes left zero (the caller writes them).
std::vector<uint8_t> layData(ByteSpan orig, const std::string& label, uint64_t origIndexEnd, uint64_t newIndexSize,
                             std::vector<Item>& items) {
    std::vector<uint8_t> out(newIndexSize, 0);
    std::vector<size_t> order;
    for (size_t i = 0; i < items.size(); ++i)
        if (!items[i].added) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return items[a].origOffset < items[b].origOffset; });
    uint64_t cursor = origIndexEnd; // original bytes up to here are placed
    const Item* prev = nullptr;
    for (size_t i : order) {
        Item& it = items[i];
        if (prev && it.origOffset == prev->origOffset && it.origSize == prev->origSize &&
            it.data.data == prev->data.data && it.data.size == prev->data.size) {
            it.newOffset = prev->newOffset; // shared data
            continue;
        }
        if (it.origOffset < cursor) {
            if (it.origSize != 0)
                throw ParseError(label, "file table", it.origOffset,
                                 "entries overlap at offset " + std::to_string(it.origOffset) +
                                     "; the archive cannot be laid out again (replace entries with data of the "
                                     "same size to write them in place)");
            it.newOffset = out.size();
            continue;
        }
        out.insert(out.end(), orig.data + cursor, orig.data + it.origOffset);
        it.newOffset = out.size();
        out.insert(out.end(), it.data.data, it.data.data + it.data.size);
        cursor = it.origOffset + it.origSize;
        prev = &it;
    }
    if (cursor < origIndexEnd) cursor = origIndexEnd;
    for (Item& it : items)
        if (it.added) {
            it.newOffset = out.size();
            out.insert(out.end(), it.data.data, it.data.data + it.data.size);
        }
    if (cursor < orig.size) out.insert(out.end(), orig.data + cursor, orig.data + orig.size);
    if (out.size() > 0xFFFFFFFFull) throw ParseError(label, {}, ParseError::kNoOffset, "archive larger than 4 GiB");
    return out;
}

void put32le(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + size_t(i)] = uint8_t(v >> (8 * i));
}
void put32be(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + size_t(i)] = uint8_t(v >> (8 * (3 - i)));
}
void put16le(std::vector<uint8_t>& b, size_t at, uint16_t v) {
    b[at] = uint8_t(v);
    b[at + 1] = uint8_t(v >> 8);
}

// The replacement for a stored name, or null; marks it used.
const std::vector<uint8_t>* replacementFor(const std::map<std::string, std::vector<uint8_t>>& byKey,
                                           const std::string& utf8Name, std::vector<std::string>& used) {
    const auto it = byKey.find(normalizePath(utf8Name));
    if (it == byKey.end()) return nullptr;
    used.push_back(it->first);
    return &it->second;
}

std::vector<uint8_t> repackMeg(ByteSpan bytes, const std::string& label,
                               const std::map<std::string, std::vector<uint8_t>>& replace) {
    const MegLayout L = readMeg(bytes, label);
    std::map<std::string, std::vector<uint8_t>> byKey;
    std::map<std::string, std::string> given; // key -> name as given
    for (const auto& [name, data] : replace) {
        byKey[normalizePath(name)] = data;
        given[normalizePath(name)] = name;
    }
    std::vector<std::string> used;
    std::vector<std::string> names; // raw bytes
    for (const auto& [b, e] : L.names)
        names.emplace_back(reinterpret_cast<const char*>(bytes.data + b + 2), size_t(e - b - 2));
    std::vector<Item> items;
    bool changed = false;
    for (const MegRecord& rec : L.records) {
        Item it;
        it.origOffset = rec.offset;
        it.origSize = rec.size;
        it.data = ByteSpan(bytes.data + rec.offset, rec.size);
        if (const auto* r = replacementFor(byKey, latin1ToUtf8(names[rec.nameIndex]), used)) {
            it.data = ByteSpan(*r);
            changed = changed || r->size() != rec.size;
        }
        items.push_back(it);
    }
    std::vector<std::string> added;
    for (const auto& [key, data] : byKey)
        if (std::find(used.begin(), used.end(), key) == used.end()) added.push_back(key);
    if (!changed && added.empty()) { // in place
        std::vector<uint8_t> out(bytes.data, bytes.data + bytes.size);
        for (const Item& it : items)
            if (it.data.size) std::memcpy(out.data() + it.origOffset, it.data.data, it.data.size);
        return out;
    }
    // Records of added names: name appended, record placed after the last record whose CRC is not larger.
    std::vector<MegRecord> records = L.records;
    std::vector<size_t> itemOf(records.size());
    std::iota(itemOf.begin(), itemOf.end(), size_t(0));
    for (const std::string& key : added) {
        const std::string stored = utf8ToLatin1(given[key]);
        if (stored.size() > 0xFFFF)
            throw ParseError(label, "name table", ParseError::kNoOffset, "name too long: " + key);
        MegRecord rec;
        rec.crc = crc32(stored.data(), stored.size());
        rec.nameIndex = uint32_t(names.size());
        names.push_back(stored);
        Item it;
        it.added = true;
        it.data = ByteSpan(byKey[key]);
        items.push_back(it);
        const auto pos = std::upper_bound(records.begin(), records.end(), rec.crc,
                                          [](uint32_t c, const MegRecord& r) { return c < r.crc; });
        const size_t k = size_t(pos - records.begin());
        records.insert(pos, rec);
        itemOf.insert(itemOf.begin() + long(k), items.size() - 1);
    }
    bool indexIsPosition = true;
    for (size_t k = 0; k < L.records.size(); ++k)
        indexIsPosition = indexIsPosition && L.records[k].index == k;
    uint32_t nextIndex = uint32_t(L.records.size());
    for (size_t k = 0; k < records.size(); ++k) {
        if (indexIsPosition)
            records[k].index = uint32_t(k);
        else if (items[itemOf[k]].added)
            records[k].index = nextIndex++;
    }
    uint64_t nameBytes = 0;
    for (const std::string& n : names)
        nameBytes += 2 + n.size();
    const uint64_t unusedNameBytes =
        L.version == 3 ? L.namesEnd - (L.names.empty() ? L.headerSize : L.names.back().second) : 0;
    const uint64_t namesEnd = L.headerSize + nameBytes + unusedNameBytes;
    const uint64_t recordsEnd = namesEnd + fileTableRecordSize() * records.size();
    std::vector<uint8_t> out = layData(bytes, label, L.recordsEnd, recordsEnd, items);
    // Header: as stored, counts and sizes recomputed.
    std::memcpy(out.data(), bytes.data, size_t(L.headerSize));
    if (L.version == 1) {
        put32le(out, 0, uint32_t(names.size()));
        put32le(out, 4, uint32_t(records.size()));
    } else {
        put32le(out, 8, uint32_t(int64_t(L.dataStart) - int64_t(L.recordsEnd) + int64_t(recordsEnd)));
        put32le(out, 12, uint32_t(names.size()));
        put32le(out, 16, uint32_t(records.size()));
        if (L.version == 3) put32le(out, 20, uint32_t(nameBytes + unusedNameBytes));
    }
    size_t at = size_t(L.headerSize);
    for (const std::string& n : names) {
        put16le(out, at, uint16_t(n.size()));
        std::memcpy(out.data() + at + 2, n.data(), n.size());
        at += 2 + n.size();
    }
    if (unusedNameBytes)
        std::memcpy(out.data() + at, bytes.data + L.namesEnd - unusedNameBytes, size_t(unusedNameBytes));
    at = size_t(namesEnd);
    for (size_t k = 0; k < records.size(); ++k) {
        const MegRecord& rec = records[k];
        const Item& it = items[itemOf[k]];
        if (L.version == 3) {
            put16le(out, at, rec.flags);
            at += 2;
        }
        put32le(out, at, rec.crc);
        put32le(out, at + 4, rec.index);
        put32le(out, at + 8, uint32_t(it.data.size));
        put32le(out, at + 12, uint32_t(it.newOffset));
        if (L.version == 3) {
            put16le(out, at + 16, uint16_t(rec.nameIndex));
            at += 18;
        } else {
            put32le(out, at + 16, rec.nameIndex);
            at += 20;
        }
    }
    return out;
}

std::vector<uint8_t> repackBig(ByteSpan bytes, const std::string& label,
                               const std::map<std::string, std::vector<uint8_t>>& replace) {
    BigLayout L = readBig(bytes, label);
    std::map<std::string, std::vector<uint8_t>> byKey;
    std::map<std::string, std::string> given;
    for (const auto& [name, data] : replace) {
        byKey[normalizePath(name)] = data;
        given[normalizePath(name)] = name;
    }
    std::vector<std::string> used;
    std::vector<Item> items;
    bool changed = false;
    for (const BigEntry& e : L.entries) {
        Item it;
        it.origOffset = e.offset;
        it.origSize = e.size;
        it.data = ByteSpan(bytes.data + e.offset, e.size);
        if (const auto* r = replacementFor(byKey, e.name, used)) {
            it.data = ByteSpan(*r);
            changed = changed || r->size() != e.size;
        }
        items.push_back(it);
    }
    std::vector<std::string> added;
    for (const auto& [key, data] : byKey)
        if (std::find(used.begin(), used.end(), key) == used.end()) added.push_back(key);
    if (!changed && added.empty()) {
        std::vector<uint8_t> out(bytes.data, bytes.data + bytes.size);
        for (const Item& it : items)
            if (it.data.size) std::memcpy(out.data() + it.origOffset, it.data.data, it.data.size);
        return out;
    }
    for (const std::string& key : added) {
        BigEntry e;
        e.name = given[key];
        L.entries.push_back(e);
        Item it;
        it.added = true;
        it.data = ByteSpan(byKey[key]);
        items.push_back(it);
    }
    uint64_t indexStop = 16;
    for (const BigEntry& e : L.entries)
        indexStop += 8 + e.name.size() + 1;
    std::vector<uint8_t> out = layData(bytes, label, L.indexStop, indexStop, items);
    std::memcpy(out.data(), bytes.data, 4);
    const uint32_t total = L.archiveSize == bytes.size
                               ? uint32_t(out.size())
                               : uint32_t(int64_t(L.archiveSize) - int64_t(bytes.size) + int64_t(out.size()));
    put32le(out, 4, total);
    put32be(out, 8, uint32_t(L.entries.size()));
    put32be(out, 12, uint32_t(int64_t(L.indexEnd) - int64_t(L.indexStop) + int64_t(indexStop)));
    size_t at = 16;
    for (size_t i = 0; i < L.entries.size(); ++i) {
        put32be(out, at, uint32_t(items[i].newOffset));
        put32be(out, at + 4, uint32_t(items[i].data.size));
        std::memcpy(out.data() + at + 8, L.entries[i].name.data(), L.entries[i].name.size());
        out[at + 8 + L.entries[i].name.size()] = 0;
        at += 8 + L.entries[i].name.size() + 1;
    }
    return out;
}

} // namespace

SourceTree archiveSourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    const ByteSpan b(*bytes);
    std::vector<FieldSpan> s;
    std::vector<FieldSpan> data;
    try {
        if (isMeg(b)) {
            const MegLayout L = readMeg(b, label);
            s.push_back({"header", 0, L.headerSize, {}});
            FieldSpan names{"name table", L.headerSize, L.namesEnd, {}};
            for (size_t i = 0; i < L.names.size(); ++i)
                names.children.push_back({"name " + std::to_string(i), L.names[i].first, L.names[i].second, {}});
            s.push_back(std::move(names));
            FieldSpan recs{"file table", L.namesEnd, L.recordsEnd, {}};
            for (size_t i = 0; i < L.records.size(); ++i) {
                const MegRecord& r = L.records[i];
                recs.children.push_back({"record " + std::to_string(i), r.at, r.at + 20, {}});
                const auto& nm = L.names[r.nameIndex];
                data.push_back({"data " + std::string(reinterpret_cast<const char*>(b.data + nm.first + 2),
                                                      size_t(nm.second - nm.first - 2)),
                                r.offset,
                                uint64_t(r.offset) + r.size,
                                {}});
            }
            s.push_back(std::move(recs));
        } else {
            const BigLayout L = readBig(b, label);
            s.push_back({"header", 0, 16, {}});
            FieldSpan index{"index", 16, L.indexStop, {}};
            for (size_t i = 0; i < L.entries.size(); ++i) {
                const BigEntry& e = L.entries[i];
                index.children.push_back({"entry " + std::to_string(i), e.at, e.end, {}});
                data.push_back({"data " + e.name, e.offset, uint64_t(e.offset) + e.size, {}});
            }
            s.push_back(std::move(index));
        }
    } catch (const ParseError& e) {
        SourceTree t = wholeFileTree(bytes, label, "unparsed archive");
        if (!t.roots().empty()) t.roots().front().quirk = e.what();
        return t;
    }
    std::stable_sort(data.begin(), data.end(),
                     [](const FieldSpan& a, const FieldSpan& c) { return a.begin < c.begin; });
    for (FieldSpan& d : data)
        s.push_back(std::move(d));
    SourceTree t(bytes, label);
    t.roots() = fieldNodes(s, 0, b.size, "gap");
    return t;
}

std::vector<uint8_t> repackArchive(ByteSpan archive, const std::string& label,
                                   const std::map<std::string, std::vector<uint8_t>>& replace) {
    return isMeg(archive) ? repackMeg(archive, label, replace) : repackBig(archive, label, replace);
}

} // namespace rs::vfs
