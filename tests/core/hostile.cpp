#include "hostile.h"

#include "vfs/archive.h"

#include <filesystem>

#include "heap_meter.h"

#include "scene/pose.h"
#include "scene/validate.h"
#include "texture/texture.h"

#include <catch2/catch.hpp>

#include <ctime>

namespace rs::test {

size_t decodedClipBytes(const Document& d) {
    size_t n = 0;
    for (const auto& c : d.clips)
        for (const BoneTrack& t : c->tracks)
            n += t.translation.size() * sizeof(glm::vec3) + t.rotation.size() * sizeof(glm::quat) +
                 t.scale.size() * sizeof(glm::vec3) + t.visibility.size() + t.step.size();
    return n;
}

int64_t heapAllowance(size_t inputBytes, size_t clipBytes) {
    return 16 * int64_t(inputBytes) + (1 << 20) + 2 * int64_t(clipBytes);
}

std::string tryLoad(const std::vector<uint8_t>& bytes, const std::string& path, bool& loaded, size_t* clipBytes) {
    loaded = false;
    if (clipBytes) *clipBytes = 0;
    try {
        const std::string ext = rs::vfs::normalizePath(std::filesystem::path(path).extension().string());
        if (ext == ".MEG" || ext == ".BIG") { // archives: the index, then every entry
            auto a = rs::vfs::openArchive(nullptr, rs::ByteSpan(bytes), path);
            loaded = true;
            for (const rs::vfs::Entry& e : a->entries()) {
                if (e.offset > bytes.size() || e.size > bytes.size() - e.offset)
                    return "entry " + e.name + " extent outside the archive";
                if (!a->find(e.name)) return "entry " + e.name + " not found by its own name";
                try {
                    a->read(e);
                } catch (const rs::ParseError& r) {
                    if (r.file() != path || r.offset() > bytes.size())
                        return std::string("bad read error: ") + r.what();
                }
            }
            return {};
        }
        rs::Document d = rs::Resolver().read(rs::ByteSpan(bytes), path);
        loaded = true;
        if (clipBytes) *clipBytes = decodedClipBytes(d);
        if (d.model) {
            if (std::string e = rs::checkModel(*d.model); !e.empty()) return "model contract: " + e;
            rs::PoseBuffers buf(d.model->skeleton.bones.size());
            rs::evaluatePose(d.model->skeleton, nullptr, nullptr, 0.0f, rs::LoopMode::Loop, buf.view());
        }
        for (const auto& c : d.clips) {
            if (std::string e = rs::checkClip(*c); !e.empty()) return "clip contract: " + e;
            if (d.model) {
                rs::ClipBinding b = rs::bindClip(d.model->skeleton, *c);
                rs::PoseBuffers buf(d.model->skeleton.bones.size());
                rs::evaluatePose(d.model->skeleton, c.get(), &b, 0.5f, rs::LoopMode::Loop, buf.view());
            }
        }
        return {};
    } catch (const rs::ParseError& e) {
        return judgeRefusal(e, bytes.size(), path);
    } catch (const std::exception& e) {
        return std::string("unexpected exception (not ParseError): ") + e.what();
    }
}

std::string judgeRefusal(const rs::ParseError& e, size_t size, const std::string& path) {
    const std::string w = e.what();
    if (e.file() != path) return std::string("ParseError names file '") + e.file() + "': " + w;
    if (e.offset() != rs::ParseError::kNoOffset && e.offset() > size)
        return "ParseError offset " + std::to_string(e.offset()) + " beyond the " + std::to_string(size) +
               " bytes: " + w;
    if (e.message().empty()) return "ParseError with an empty message: " + w;
    if (w.rfind(rs::printable(path) + ": ", 0) != 0) return "message does not start with the file name: " + w;
    for (unsigned char c : w)
        if (c < 0x20 || c == 0x7F) return "message holds a control character: " + rs::printable(w);
    return {};
}

std::string tryDecodeTexture(const std::vector<uint8_t>& bytes, const std::string& path, bool& decoded,
                             size_t* imageBytes) {
    decoded = false;
    if (imageBytes) *imageBytes = 0;
    try {
        const rs::TextureInfo info = rs::probeTexture(rs::ByteSpan(bytes), path);
        const rs::Image img = rs::decodeTexture(rs::ByteSpan(bytes), path);
        decoded = true;
        if (imageBytes) *imageBytes = img.rgba.size();
        if (img.width != info.width || img.height != info.height) return "probe and decode disagree on the size";
        if (img.rgba.size() != size_t(img.width) * size_t(img.height) * 4) return "RGBA buffer of the wrong size";
        if (img.hasAlpha && !info.hasAlpha) return "decoded alpha where probe reports none";
        return {};
    } catch (const rs::ParseError& e) {
        return judgeRefusal(e, bytes.size(), path);
    } catch (const std::exception& e) {
        return std::string("unexpected exception (not ParseError): ") + e.what();
    }
}

int64_t textureHeapAllowance(size_t inputBytes, const std::string& path) {
    const bool tga = path.size() >= 4 && rs::toLower(path.substr(path.size() - 4)) == ".tga";
    return int64_t(inputBytes) * (tga ? rs::kTgaDecodedBytesPerByte : rs::kDdsDecodedBytesPerByte) + (1 << 20);
}

bool expectLoadsOrRejects(const std::vector<uint8_t>& bytes, const std::string& path, const std::string& what) {
    bool loaded = false;
    std::string problem;
    const std::clock_t t0 = std::clock(); // CPU time: a hang burns it, a busy machine does not
    size_t clipBytes = 0;
    const int64_t peak = peakHeap([&] { problem = tryLoad(bytes, path, loaded, &clipBytes); });
    const double secs = double(std::clock() - t0) / CLOCKS_PER_SEC;
    INFO(what << " (" << bytes.size() << " bytes)");
    if (!problem.empty()) FAIL_CHECK(problem);
    if (secs > 2.0) FAIL_CHECK("took " << secs << " s of CPU time");
    if (peak > heapAllowance(bytes.size(), clipBytes))
        FAIL_CHECK("peak heap " << peak << " bytes (decoded clips " << clipBytes << " bytes)");
    return loaded;
}

uint32_t u32at(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + i] = uint8_t(v >> (8 * i));
}

static void walk(const std::vector<uint8_t>& b, size_t begin, size_t end, const std::string& parent,
                 std::vector<ChunkAt>& out) {
    for (size_t p = begin; p + 8 <= end;) {
        const uint32_t id = u32at(b, p), size = u32at(b, p + 4);
        ChunkAt c{p,
                  p + 8,
                  p + 8 + (size & 0x7FFFFFFFu),
                  id,
                  (size & 0x80000000u) != 0,
                  (parent.empty() ? "" : parent + "/") + hex(id)};
        REQUIRE(c.end <= end);
        out.push_back(c);
        if (c.container) walk(b, c.begin, c.end, c.path, out);
        p = c.end;
    }
}

std::vector<ChunkAt> chunks(const std::vector<uint8_t>& bytes) {
    std::vector<ChunkAt> out;
    walk(bytes, 0, bytes.size(), "", out);
    return out;
}

std::vector<size_t> minis(const std::vector<uint8_t>& b, const ChunkAt& c) {
    std::vector<size_t> at;
    size_t p = c.begin;
    while (p + 2 <= c.end) {
        at.push_back(p);
        p += 2 + b[p + 1];
    }
    if (p != c.end || at.empty()) at.clear();
    return at;
}

int patchChunks(const Sample& s, const CaseGen& gen, int& loaded) {
    int n = 0;
    for (const ChunkAt& c : chunks(s.bytes)) {
        Cases cases;
        gen(s.bytes, c, cases);
        for (const auto& [what, bytes] : cases) {
            ++n;
            if (expectLoadsOrRejects(bytes, s.name, s.name + " " + c.path + ": " + what)) ++loaded;
        }
    }
    return n;
}

void chunkSizeCases(const std::vector<uint8_t>& b, const ChunkAt& c, Cases& out) {
    for (uint32_t size : {0x7FFFFFF0u, 0x7FFFFFFFu, uint32_t(c.end - c.begin + 1)}) {
        auto m = b;
        put32(m, c.header + 4, size | (c.container ? 0x80000000u : 0u));
        out.emplace_back("size " + std::to_string(size), std::move(m));
    }
}

void u32FieldCases(const std::vector<uint8_t>& b, const ChunkAt& c, Cases& out) {
    if (c.container) return;
    const size_t len = c.end - c.begin, limit = len <= 256 ? len : 16;
    for (size_t off = 0; off + 4 <= limit; off += 4)
        for (uint32_t v : {0x7FFFFFFFu, 0xFFFFFFFFu, 0x80000000u}) {
            auto m = b;
            put32(m, c.begin + off, v);
            out.emplace_back("u32 at +" + std::to_string(off) + " = " + hex(v), std::move(m));
        }
}

void miniSizeCases(const std::vector<uint8_t>& b, const ChunkAt& c, Cases& out) {
    if (c.container) return;
    for (size_t p : minis(b, c))
        for (uint8_t size : {uint8_t(0xFF), uint8_t(b[p + 1] + 1)}) {
            auto m = b;
            m[p + 1] = size;
            out.emplace_back("mini at " + std::to_string(p) + " size " + std::to_string(size), std::move(m));
        }
}

} // namespace rs::test
