#include "amal/amal_writer.h"

#include "common/bytes.h"

#include <stdexcept>

namespace rs::amal {

uint8_t moveByte(int v) {
    if (v < -64 || v > 63 || v == 0) throw std::invalid_argument("move byte value out of -64..63 or 0");
    return uint8_t(v & 0x7F);
}

uint8_t pauseByte(int n) {
    if (n < 1 || n > 128) throw std::invalid_argument("pause length out of 1..128");
    return uint8_t(0x80 | (n - 1));
}

static void padEven(ByteWriter& w) {
    if (w.size() & 1) w.u8(0);
}

static void patchU16be(ByteWriter& w, size_t at, uint16_t v) {
    w.buf[at] = uint8_t(v >> 8);
    w.buf[at + 1] = uint8_t(v);
}

std::vector<uint8_t> writeAmalPayload(const BankSpec& spec) {
    ByteWriter w;
    w.u32be(0); // programs offset, patched
    const size_t n = spec.movements.size();
    w.u16be(uint16_t(n));
    const size_t offTable = w.size();
    w.zeros(n * 4); // offsets + lengths
    for (const auto& m : spec.movements) {
        std::string name = m.defined ? m.name : "Empty";
        name.resize(8, ' ');
        w.bytes(name.data(), 8);
    }
    for (size_t i = 0; i < n; ++i) {
        const MovementSpec& m = spec.movements[i];
        if (!m.defined) continue;
        padEven(w);
        const size_t rec = w.size();
        w.u16be(m.speed);
        w.u16be(uint16_t(5 + m.x.size() + 1));
        w.u8(0);
        w.bytes(m.x.data(), m.x.size());
        w.u8(0);
        w.u8(0);
        w.bytes(m.y.data(), m.y.size());
        w.u8(0);
        padEven(w);
        patchU16be(w, offTable + i * 2, uint16_t((rec - 4) / 2));
        patchU16be(w, offTable + n * 2 + i * 2, uint16_t(w.size() - rec));
    }
    if (!spec.withPrograms) return w.buf;
    padEven(w);
    w.patchU32be(0, uint32_t(w.size()));
    const size_t count = spec.programs.empty() ? 0 : spec.programs.size() - 1;
    w.u16be(uint16_t(count));
    const size_t table = w.size();
    w.zeros((count + 1) * 2);
    w.u16be(uint16_t(spec.environment.size()));
    w.bytes(spec.environment.data(), spec.environment.size());
    for (size_t i = 0; i < spec.programs.size(); ++i) {
        padEven(w);
        const std::string& p = spec.programs[i];
        patchU16be(w, table + i * 2, uint16_t((w.size() - table) / 2));
        w.u16be(uint16_t(p.size()));
        w.bytes(p.data(), p.size());
    }
    padEven(w);
    return w.buf;
}

static std::vector<uint8_t> header(int number, const std::string& type, size_t payload) {
    ByteWriter w;
    w.bytes("AmBk", 4);
    w.u16be(uint16_t(number));
    w.u16be(1);
    w.u32be(uint32_t(0x80000000u | uint32_t(payload + 8)));
    std::string t = type;
    t.resize(8, ' ');
    w.bytes(t.data(), 8);
    return w.buf;
}

std::vector<uint8_t> writeAmalBank(const BankSpec& spec) {
    std::vector<uint8_t> p = writeAmalPayload(spec);
    std::vector<uint8_t> out = header(spec.number, "Amal", p.size());
    out.insert(out.end(), p.begin(), p.end());
    return out;
}

std::vector<uint8_t> writeMemoryBank(int number, const std::string& type, size_t payloadBytes) {
    std::vector<uint8_t> out = header(number, type, payloadBytes);
    out.resize(out.size() + payloadBytes, 0);
    return out;
}

std::vector<uint8_t> writeImageBank(int images, int height, bool icons) {
    ByteWriter w;
    w.bytes(icons ? "AmIc" : "AmSp", 4);
    w.u16be(uint16_t(images));
    for (int i = 0; i < images; ++i) {
        w.u16be(1);
        w.u16be(uint16_t(height));
        w.u16be(2);
        w.u16be(0);
        w.u16be(0);
        for (int plane = 0; plane < 2; ++plane)
            for (int k = 0; k < height * 2; ++k)
                w.u8(uint8_t(plane == 0 ? 0x5A + i : ~(0x5A + i)));
    }
    for (int c = 0; c < 32; ++c)
        w.u16be(uint16_t(c * 0x111));
    return w.buf;
}

ImageSpec solidImage(int widthWords, int height, int depth, int colour) {
    ImageSpec im;
    im.widthWords = widthWords;
    im.height = height;
    im.depth = depth;
    for (int plane = 0; plane < depth; ++plane)
        im.planes.insert(im.planes.end(), size_t(height * widthWords * 2),
                         uint8_t((colour >> plane) & 1 ? 0xFF : 0x00));
    return im;
}

std::vector<uint8_t> writeImageBank(const std::vector<ImageSpec>& images, const std::array<uint16_t, 32>& palette,
                                    bool icons) {
    ByteWriter w;
    w.bytes(icons ? "AmIc" : "AmSp", 4);
    w.u16be(uint16_t(images.size()));
    for (const ImageSpec& im : images) {
        w.u16be(uint16_t(im.widthWords));
        w.u16be(uint16_t(im.height));
        w.u16be(uint16_t(im.depth));
        w.u16be(uint16_t(im.hotX));
        w.u16be(uint16_t(im.hotY));
        w.bytes(im.planes.data(), im.planes.size());
    }
    for (const uint16_t c : palette)
        w.u16be(c);
    return w.buf;
}

std::vector<uint8_t> writeAmosSource(const std::vector<std::vector<uint8_t>>& banks, size_t codeBytes) {
    ByteWriter w;
    w.bytes("AMOS Basic V134 ", 16);
    w.u32be(uint32_t(codeBytes));
    w.zeros(codeBytes);
    w.bytes("AmBs", 4);
    w.u16be(uint16_t(banks.size()));
    for (const auto& b : banks)
        w.bytes(b.data(), b.size());
    return w.buf;
}

} // namespace rs::amal
