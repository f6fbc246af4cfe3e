#include "amal/amal_bank.h"
#include "common/warnings.h"

#include "scene/model.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace rs::amal {

namespace {

bool magicAt(ByteSpan b, size_t at, const char* m) { return at + 4 <= b.size && std::memcmp(b.data + at, m, 4) == 0; }

std::string rtrim(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0'))
        s.pop_back();
    return s;
}

std::string hexOff(uint64_t v) { return hex(static_cast<uint32_t>(v)); }

// Reads the bytes of a 0-terminated step stream starting at `from` (payload-relative).
std::vector<uint8_t> readStream(const ByteReader& p, size_t from, const char* what, int index) {
    if (from > p.size())
        p.failAt(p.size(), std::string(what) + " stream of movement " + std::to_string(index) + " starts at " +
                               hexOff(p.absOffset() - p.pos() + from) + ", past the end of the bank");
    const uint8_t* b = p.data() + from;
    const uint8_t* e = p.data() + p.size();
    const uint8_t* z = std::find(b, e, uint8_t(0));
    if (z == e)
        p.failAt(from, std::string(what) + " stream of movement " + std::to_string(index) +
                           " has no 0 terminator before the end of the bank");
    return std::vector<uint8_t>(b, z);
}

} // namespace

int AmosImage::colorAt(int x, int y) const {
    if (x < 0 || y < 0 || x >= width() || y >= height) return 0;
    const size_t plane = size_t(widthWords) * 2 * size_t(height);
    const size_t at = size_t(y) * size_t(widthWords) * 2 + size_t(x >> 3);
    const int bit = 7 - (x & 7);
    int c = 0;
    for (int p = 0; p < depth && p < 8; ++p)
        if (plane * size_t(p) + at < data.size() && (data[plane * size_t(p) + at] >> bit) & 1) c |= 1 << p;
    return c;
}

int streamSteps(const std::vector<uint8_t>& steps) {
    int n = 0;
    for (uint8_t b : steps)
        n += (b & 0x80) ? (b & 0x7F) + 1 : 1;
    return n;
}

int streamSum(const std::vector<uint8_t>& steps) {
    int s = 0;
    for (uint8_t b : steps)
        if (!(b & 0x80)) s += stepValue(b);
    return s;
}

const Movement* Bank::movement(int index) const {
    if (index < 1 || index > int(movements.size())) return nullptr;
    const Movement& m = movements[size_t(index - 1)];
    return m.defined ? &m : nullptr;
}

const Program* Bank::program(int index) const {
    if (index < 0 || index >= int(programs.size())) return nullptr;
    return &programs[size_t(index)];
}

int Bank::definedMovements() const {
    return int(std::count_if(movements.begin(), movements.end(), [](const Movement& m) { return m.defined; }));
}

int Bank::nonEmptyPrograms() const {
    return int(std::count_if(programs.begin(), programs.end(), [](const Program& p) { return !p.text.empty(); }));
}

Bank readAmalPayload(ByteSpan payload, const std::string& file, uint64_t payloadOffset) {
    Bank bank;
    bank.payloadOffset = payloadOffset;
    ByteReader p(payload, file, "Amal", payloadOffset);

    const uint32_t progOff = p.u32be();

    // Movements.
    p.setContext("Amal/movements");
    const uint16_t n = p.u16be();
    p.needCount(n, 2 + 2 + 8, "movement");
    std::vector<uint16_t> offs(n), lens(n);
    for (auto& o : offs)
        o = p.u16be();
    for (auto& l : lens)
        l = p.u16be();
    bank.movementSlots = n;
    bank.movements.resize(n);
    for (int i = 0; i < n; ++i) {
        Movement& m = bank.movements[size_t(i)];
        m.index = i + 1;
        m.name = rtrim(p.fixedString(8));
        m.storedLength = lens[size_t(i)];
    }
    for (int i = 0; i < n; ++i) {
        Movement& m = bank.movements[size_t(i)];
        if (offs[size_t(i)] == 0) continue;
        const size_t rec = 4 + size_t(offs[size_t(i)]) * 2;
        p.setContext("Amal/movements/" + std::to_string(m.index));
        if (rec + 4 > p.size())
            p.failAt(std::min(rec, p.size()), "movement " + std::to_string(m.index) + " record at " +
                                                  hexOff(payloadOffset + rec) + " lies past the end of the bank");
        p.seek(rec);
        m.offset = payloadOffset + rec;
        m.speed = p.u16be();
        const uint16_t yOff = p.u16be();
        if (yOff < 5)
            p.failAt(rec + 2, "movement " + std::to_string(m.index) + " Y stream offset " + std::to_string(yOff) +
                                  " overlaps the record header");
        m.xSteps = readStream(p, rec + 5, "X", m.index);
        m.ySteps = readStream(p, rec + size_t(yOff) + 1, "Y", m.index);
        m.defined = true;
        if (p.data()[rec + 4] != 0)
            pushWarning(bank.warnings, "movement " + std::to_string(m.index) +
                                    ": no 0 byte before the X steps (playing backwards would overrun)");
        if (p.data()[rec + yOff] != 0)
            pushWarning(bank.warnings, "movement " + std::to_string(m.index) + ": no 0 byte before the Y steps");
        if (rec + 5 + m.xSteps.size() > rec + yOff)
            pushWarning(bank.warnings, "movement " + std::to_string(m.index) + ": X steps run into the Y steps");
        if (m.storedLength != 0 && rec + size_t(yOff) + 2 + m.ySteps.size() > rec + m.storedLength)
            pushWarning(bank.warnings, "movement " + std::to_string(m.index) + ": steps run past the stored length " +
                                    std::to_string(m.storedLength));
    }

    // Programs.
    if (progOff == 0) return bank;
    p.setContext("Amal/programs");
    if (progOff > p.size() - 2 || progOff < 4)
        p.failAt(0, "programs section offset " + hexOff(progOff) + " lies outside the " + std::to_string(p.size()) +
                        "-byte bank");
    p.seek(progOff);
    const uint16_t count = p.u16be();
    const size_t table = p.pos();
    p.needCount(uint64_t(count) + 1, 2, "program");
    std::vector<uint16_t> poffs(size_t(count) + 1);
    for (auto& o : poffs)
        o = p.u16be();
    bank.programSlots = int(count) + 1;
    bank.programs.resize(poffs.size());
    if (p.remaining() >= 2) {
        p.setContext("Amal/environment");
        const uint16_t len = p.u16be();
        if (len > p.remaining()) {
            pushWarning(bank.warnings, "environment string length " + std::to_string(len) + " exceeds the " +
                                    std::to_string(p.remaining()) + " bytes left; cut");
            bank.environment = std::string(reinterpret_cast<const char*>(p.cur()), p.remaining());
        } else {
            bank.environment = std::string(reinterpret_cast<const char*>(p.cur()), len);
        }
    } else {
        pushWarning(bank.warnings, "no environment string after the program table");
    }
    for (size_t i = 0; i < poffs.size(); ++i) {
        Program& pr = bank.programs[i];
        pr.index = int(i);
        if (poffs[i] == 0) continue;
        const size_t at = table + size_t(poffs[i]) * 2;
        p.setContext("Amal/programs/" + std::to_string(i));
        if (at + 2 > p.size())
            p.failAt(std::min(at, p.size()), "program " + std::to_string(i) + " at " + hexOff(payloadOffset + at) +
                                                 " lies past the end of the bank");
        p.seek(at);
        pr.offset = payloadOffset + at;
        const uint16_t len = p.u16be();
        p.needCount(len, 1, "program text byte");
        pr.text.assign(reinterpret_cast<const char*>(p.cur()), len);
    }
    return bank;
}

namespace {

struct Walker {
    ByteSpan bytes;
    const std::string& file;
    BankFile& out;

    // Image bank (AmSp / AmIc): decoded into out.imageBanks; returns its end offset.
    size_t imageBank(size_t at, bool icons) {
        ByteReader r(bytes, file, icons ? "AmIc" : "AmSp");
        r.seek(at + 4);
        const uint16_t n = r.u16be();
        r.needCount(n, 10, "image");
        ImageBank ib;
        ib.icons = icons;
        ib.offset = at;
        ib.images.resize(n);
        for (int i = 0; i < n; ++i) {
            r.setContext(std::string(icons ? "AmIc/" : "AmSp/") + std::to_string(i + 1));
            AmosImage& im = ib.images[size_t(i)];
            im.widthWords = r.u16be();
            im.height = r.u16be();
            im.depth = r.u16be();
            im.hotX = r.u16be();
            im.hotY = r.u16be();
            const uint64_t bytesPerPlane = uint64_t(im.widthWords) * 2 * uint64_t(im.height);
            if (im.depth != 0) r.needCount(bytesPerPlane, size_t(im.depth), "image data byte");
            const ByteSpan data = r.take(size_t(bytesPerPlane * uint64_t(im.depth)));
            im.data.assign(data.data, data.data + data.size);
        }
        r.setContext(icons ? "AmIc/palette" : "AmSp/palette");
        if (r.remaining() < 64) {
            pushWarning(out.warnings, std::string(icons ? "icon" : "sprite") + " bank at " + hexOff(at) +
                                   ": palette cut short by the end of the file");
            r.seek(r.size());
        } else {
            for (auto& c : ib.palette)
                c = r.u16be();
        }
        OtherBank ob;
        ob.kind = icons ? "AmIc" : "AmSp";
        ob.number = icons ? 2 : 1;
        ob.type = icons ? "Icons" : "Sprites";
        ob.offset = at;
        ob.length = r.pos() - at;
        ob.images = n;
        out.otherBanks.push_back(ob);
        out.imageBanks.push_back(std::move(ib));
        return r.pos();
    }

    // Memory bank (AmBk): returns its end offset. last = no bank is expected after it.
    size_t memoryBank(size_t at, bool last) {
        ByteReader r(bytes, file, "AmBk@" + hexOff(at));
        r.seek(at + 4);
        const uint16_t number = r.u16be();
        const uint16_t flags = r.u16be();
        const uint32_t lenField = r.u32be();
        const uint32_t len = lenField & 0x0FFFFFFF;
        const std::string type = r.fixedString(8);
        size_t payloadLen;
        const size_t avail = r.remaining();
        if (len < 8 || len - 8 > avail) {
            if (!last)
                r.failAt(at + 8, "bank length " + std::to_string(len) + " does not fit the " +
                                     std::to_string(avail + 8) + " bytes left");
            pushWarning(out.warnings, "bank " + std::to_string(number) + " at " + hexOff(at) + ": length field " +
                                   std::to_string(len) + " disagrees with the " + std::to_string(avail + 8) +
                                   " bytes left (truncated or damaged header); using the bytes present");
            payloadLen = avail;
        } else {
            payloadLen = len - 8;
        }
        const std::string trimmed = rtrim(type);
        const bool isAmal = istartsWith(trimmed, "amal");
        if (isAmal) {
            Bank b = readAmalPayload(ByteSpan(bytes.data + r.pos(), payloadLen), file, r.pos());
            b.number = number;
            b.flags = flags;
            b.offset = at;
            if (trimmed != "Amal") pushWarning(b.warnings, "bank type field reads \"" + trimmed + "\", taken as Amal");
            out.amalBanks.push_back(std::move(b));
        } else {
            OtherBank ob;
            ob.kind = "AmBk";
            ob.number = number;
            ob.type = trimmed;
            ob.offset = at;
            ob.length = 20 + payloadLen;
            out.otherBanks.push_back(ob);
        }
        return r.pos() + payloadLen;
    }

    // Walks banks from `at`; expected = count from AmBs, or -1 for "until the end of the file".
    void walk(size_t at, int expected) {
        int seen = 0;
        while (at < bytes.size && (expected < 0 || seen < expected)) {
            const bool last = expected >= 0 ? seen + 1 == expected : false;
            if (magicAt(bytes, at, "AmBk")) {
                at = memoryBank(at, last || expected < 0);
            } else if (magicAt(bytes, at, "AmSp")) {
                at = imageBank(at, false);
            } else if (magicAt(bytes, at, "AmIc")) {
                at = imageBank(at, true);
            } else {
                if (expected < 0 && seen > 0) {
                    pushWarning(out.warnings, std::to_string(bytes.size - at) + " trailing bytes after the last bank at " +
                                           hexOff(at));
                    return;
                }
                pushWarning(out.warnings, "no bank marker at " + hexOff(at) + "; scanning the rest of the file for banks");
                scan(at);
                return;
            }
            ++seen;
        }
        if (expected >= 0 && seen < expected)
            pushWarning(out.warnings, "bank list announces " + std::to_string(expected) + " banks, " +
                                   std::to_string(seen) + " found before the end of the file");
    }

    // Damaged containers: look for "AmBk" headers of type Amal from `at` on.
    void scan(size_t at) {
        for (size_t i = at; i + 20 <= bytes.size; ++i) {
            if (!magicAt(bytes, i, "AmBk")) continue;
            if (std::memcmp(bytes.data + i + 12, "Amal", 4) != 0) continue;
            size_t end = memoryBank(i, true);
            i = std::max(i, end - 1);
        }
    }
};

} // namespace

bool hasAbkExtension(const std::string& path) {
    return path.size() >= 4 && iequals(path.substr(path.size() - 4), ".abk");
}

bool looksLikeAmosContainer(ByteSpan b) {
    if (b.size >= 4 &&
        (magicAt(b, 0, "AmBk") || magicAt(b, 0, "AmSp") || magicAt(b, 0, "AmIc") || magicAt(b, 0, "AmBs")))
        return true;
    return b.size >= 16 && (std::memcmp(b.data, "AMOS Basic", 10) == 0 || std::memcmp(b.data, "AMOS Pro", 8) == 0);
}

BankFile readBankFile(ByteSpan bytes, const std::string& file) {
    BankFile out;
    out.path = file;
    Walker w{bytes, file, out};
    if (bytes.size >= 16 &&
        (std::memcmp(bytes.data, "AMOS Basic", 10) == 0 || std::memcmp(bytes.data, "AMOS Pro", 8) == 0)) {
        out.container = "amos";
        ByteReader r(bytes, file, "AMOS");
        r.seek(16);
        const uint32_t codeLen = r.u32be();
        if (codeLen > r.remaining())
            r.failAt(16, "program code length " + std::to_string(codeLen) + " exceeds the " +
                             std::to_string(r.remaining()) + " bytes left");
        r.skip(codeLen);
        const size_t at = r.pos();
        if (magicAt(bytes, at, "AmBs")) {
            r.setContext("AmBs");
            r.skip(4);
            const uint16_t n = r.u16be();
            w.walk(r.pos(), n);
        } else if (at == bytes.size) {
            pushWarning(out.warnings, "source ends after the program: no bank section");
        } else {
            pushWarning(out.warnings, "no \"AmBs\" bank section after the program at " + hex(uint32_t(at)) +
                                   "; scanning for Amal banks");
            w.scan(at);
        }
    } else if (magicAt(bytes, 0, "AmBs")) {
        out.container = "banks";
        ByteReader r(bytes, file, "AmBs");
        r.skip(4);
        const uint16_t n = r.u16be();
        w.walk(6, n);
    } else if (magicAt(bytes, 0, "AmBk") || magicAt(bytes, 0, "AmSp") || magicAt(bytes, 0, "AmIc")) {
        out.container = "abk";
        w.walk(0, -1);
    } else {
        const std::string noHeader =
            "not an AMOS bank or source: no \"AmBk\", \"AmSp\", \"AmIc\", \"AmBs\" or \"AMOS Basic\" header";
        // Ripped banks may lack the 20-byte AmBk header: an .abk is accepted as a bare Amal payload only
        // when that parses and holds a movement or a program (said in a warning, never silently).
        if (!hasAbkExtension(file)) throw ParseError(file, {}, 0, noHeader);
        Bank b;
        try {
            b = readAmalPayload(bytes, file, 0);
        } catch (const ParseError& e) {
            throw ParseError(file, {}, 0, noHeader + ", and not a bare Amal bank either (" + e.message() + ")");
        }
        if (b.definedMovements() == 0 && b.nonEmptyPrograms() == 0)
            throw ParseError(file, {}, 0,
                             noHeader + ", and no movement or program found reading it as a bare Amal bank");
        b.warnings.insert(b.warnings.begin(), "no AmBk header: read as a bare Amal bank payload (ripped bank?)");
        out.container = "raw";
        out.amalBanks.push_back(std::move(b));
    }
    return out;
}

std::string describeOtherBanks(const BankFile& f) {
    std::ostringstream s;
    bool first = true;
    for (const auto& b : f.otherBanks) {
        if (!first) s << ", ";
        first = false;
        if (b.kind == "AmBk")
            s << "\"" << b.type << "\" bank " << b.number;
        else
            s << b.type << " bank (" << b.images << " images)";
        s << " at " << hex(uint32_t(b.offset));
    }
    return s.str();
}

const Bank& requireAmalBank(const BankFile& f) {
    if (!f.amalBanks.empty()) return f.amalBanks.front();
    std::string what =
        f.otherBanks.empty() ? std::string("it holds no banks at all") : "it holds only: " + describeOtherBanks(f);
    throw ParseError(f.path, {}, ParseError::kNoOffset, "no Amal bank in this file; " + what);
}

} // namespace rs::amal
