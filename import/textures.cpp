// DDS files of an import's PNG/JPEG images (gltf_import.h textureFiles): stb_image decodes, stb_dxt (Debian's
// libstb) compresses each 4x4 block, core's writeDdsBlocks wraps the levels, core's decodeDds reads them back.
#include "gltf_import.h"

#include "common/error.h"
#include "formats/engine_limits.h"
#include "texture/texture.h"
#include "texture/texture_writer.h"

#include <stb_dxt.h>
#include <stb_image.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>

namespace rs::gltfimport {

namespace {

namespace fs = std::filesystem;

struct Rgba {
    int w = 0, h = 0;
    std::vector<uint8_t> px; // w * h * 4
};

// Next level: 2x2 box filter (odd sizes: the last row/column counted once more), at least 1x1.
Rgba halve(const Rgba& a) {
    Rgba b;
    b.w = std::max(1, a.w / 2);
    b.h = std::max(1, a.h / 2);
    b.px.resize(size_t(b.w) * size_t(b.h) * 4);
    for (int y = 0; y < b.h; ++y)
        for (int x = 0; x < b.w; ++x)
            for (int c = 0; c < 4; ++c) {
                int sum = 0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) {
                        const int sx = std::min(a.w - 1, x * 2 + dx), sy = std::min(a.h - 1, y * 2 + dy);
                        sum += a.px[(size_t(sy) * size_t(a.w) + size_t(sx)) * 4 + size_t(c)];
                    }
                b.px[(size_t(y) * size_t(b.w) + size_t(x)) * 4 + size_t(c)] = uint8_t((sum + 2) / 4);
            }
    return b;
}

// One level's blocks, left to right, top to bottom; texels past the edge repeat the edge's.
void compressLevel(const Rgba& a, bool alpha, std::vector<uint8_t>& out) {
    uint8_t block[64];
    uint8_t dst[16];
    for (int by = 0; by < a.h; by += 4)
        for (int bx = 0; bx < a.w; bx += 4) {
            for (int y = 0; y < 4; ++y)
                for (int x = 0; x < 4; ++x) {
                    const int sx = std::min(a.w - 1, bx + x), sy = std::min(a.h - 1, by + y);
                    std::memcpy(block + (y * 4 + x) * 4, &a.px[(size_t(sy) * size_t(a.w) + size_t(sx)) * 4], 4);
                }
            stb_compress_dxt_block(dst, block, alpha ? 1 : 0, STB_DXT_HIGHQUAL);
            out.insert(out.end(), dst, dst + (alpha ? 16 : 8));
        }
}

bool isPng(const std::vector<uint8_t>& b) {
    return b.size() >= 8 && std::memcmp(b.data(), "\x89PNG\r\n\x1a\n", 8) == 0;
}
bool isJpeg(const std::vector<uint8_t>& b) { return b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF; }

} // namespace

std::vector<OutputFile> textureFiles(const ImportResult& r, const std::string& dir, TextureLayout layout,
                                     std::vector<std::string>* report) {
    std::vector<OutputFile> files;
    std::vector<std::string> written;
    for (const ImportedImage& im : r.images) {
        if (im.bytes.empty()) {
            if (report) report->push_back(im.source + ": no image bytes; " + im.name + " not written");
            continue;
        }
        if (!isPng(im.bytes) && !isJpeg(im.bytes)) {
            if (report) report->push_back(im.source + ": not PNG or JPEG; " + im.name + " not written");
            continue;
        }
        bool dup = false;
        for (const std::string& w : written)
            dup |= iequals(w, im.name);
        if (dup) continue; // two images of one name: the first is the one the model's name finds
        written.push_back(im.name);
        if (im.bytes.size() > size_t(0x7FFFFFFF))
            throw ParseError(im.source, {}, ParseError::kNoOffset, "image larger than 2 GiB");
        int w = 0, h = 0, comps = 0;
        if (!stbi_info_from_memory(im.bytes.data(), int(im.bytes.size()), &w, &h, &comps))
            throw ParseError(im.source, {}, ParseError::kNoOffset,
                             std::string("malformed image: ") + (stbi_failure_reason() ? stbi_failure_reason() : "?"));
        if (w <= 0 || h <= 0 || w > limits::kImportMaxTextureDim || h > limits::kImportMaxTextureDim)
            throw ParseError(im.source, {}, ParseError::kNoOffset,
                             std::to_string(w) + "x" + std::to_string(h) + " image; at most " +
                                 std::to_string(limits::kImportMaxTextureDim) + " a side is converted");
        int dw = 0, dh = 0, dc = 0;
        std::unique_ptr<uint8_t, void (*)(void*)> data(
            stbi_load_from_memory(im.bytes.data(), int(im.bytes.size()), &dw, &dh, &dc, 4), stbi_image_free);
        if (!data || dw != w || dh != h)
            throw ParseError(im.source, {}, ParseError::kNoOffset,
                             std::string("malformed image: ") + (stbi_failure_reason() ? stbi_failure_reason() : "?"));
        Rgba level;
        level.w = w;
        level.h = h;
        level.px.assign(data.get(), data.get() + size_t(w) * size_t(h) * 4);
        data.reset();
        bool alpha = false;
        for (size_t i = 3; i < level.px.size() && !alpha; i += 4)
            alpha = level.px[i] != 255;
        std::vector<uint8_t> blocks;
        int mips = 0;
        for (;;) {
            compressLevel(level, alpha, blocks);
            ++mips;
            if (level.w == 1 && level.h == 1) break;
            level = halve(level);
        }
        if (report && ((w & (w - 1)) || (h & (h - 1))))
            report->push_back(im.source + ": " + std::to_string(w) + "x" + std::to_string(h) +
                              " is not a power of two (the games' Direct3D 9 renderers may refuse it)");
        OutputFile f;
        fs::path where = fs::path(dir);
        const std::string stem = toLower(fs::path(im.name).stem().string());
        if (layout == TextureLayout::SageCompiled)
            where = where / "art" / "compiledtextures" / stem.substr(0, std::min<size_t>(2, stem.size()));
        else if (layout == TextureLayout::SageTextures)
            where = where / "art" / "textures";
        f.path = (where / im.name).string();
        f.bytes = writeDdsBlocks(w, h, alpha ? "DXT5" : "DXT1", mips, blocks);
        const std::string path = f.path;
        f.check = [path](ByteSpan b) { (void)decodeDds(b, path); };
        f.check(ByteSpan(f.bytes));
        if (report)
            report->push_back(im.source + ": " + fs::path(f.path).filename().string() + " written, " +
                              (alpha ? "DXT5" : "DXT1") + " " + std::to_string(w) + "x" + std::to_string(h) + ", " +
                              std::to_string(mips) + " mip levels");
        files.push_back(std::move(f));
    }
    return files;
}

} // namespace rs::gltfimport
