// Mutation test over every corpus file (skipped when the corpus is absent): each file truncated at >= 32
// points, >= 64 single-bit flips and 16 aligned 32-bit fields overwritten with hostile values (fixed seeds).
// Every mutant must either load -- and then satisfy the model/clip contracts (scene/validate.h) and survive
// pose evaluation -- or throw ParseError naming the file and an offset inside it (or none: kNoOffset), whose
// message starts with the file name, is not empty and holds no control character (rs::test::judgeRefusal).
// Corpus textures (.dds, .tga) go through probeTexture + decodeTexture the same way, their peak heap held to the
// decoders' stated bound (8 bytes per input byte for DDS, 256 for TGA, + 1 MiB). No other exception, no
// mutant taking more than 2 s of CPU time (a hang guard, not a speed test), and no load whose peak heap use exceeds
// 16 x the file size + 1 MiB + twice the decoded dense clip data (rs::test::heapAllowance), where the decoded
// dense clip data itself may not exceed 16 x the file size + 64 KiB (the readers refuse clips whose header frame
// count is inflated beyond what their channels store; W3D: w3d_anim.cpp). Sanitizer builds catch crashes and
// memory errors on the way.
#include "corpus.h"

#include "format_catch.h"
#include "resolve/resolver.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>

#include "heap_meter.h"
#include "hostile.h"

namespace {

constexpr double kMaxSecondsPerMutant = 2.0;
// Decoded dense clip data (rs::test::decodedClipBytes) of any mutant that loads: at most this many times its size
// plus kClipBytesFixed. Real clips stay below 6 x (W3D motion-delta codecs); before the W3D bound, frame-count
// mutants decoded to ~500 x.
constexpr size_t kClipBytesPerByte = 16;
constexpr size_t kClipBytesFixed = 64 * 1024;

uint32_t seedFor(const std::string& path) {
    uint32_t h = 2166136261u; // FNV-1a of the path relative to the corpus: stable across machines
    const std::string rel = path.substr(rs::test::corpusDir().size());
    for (unsigned char c : rel)
        h = (h ^ c) * 16777619u;
    return h;
}

struct Totals {
    int files = 0, mutants = 0, loaded = 0, rejected = 0;
    double worstSeconds = 0, worstAllocRatio = 0, worstClipRatio = 0;
    int expandedClips = 0; // mutants whose decoded clips exceed 16 x their size
};

} // namespace

TEST_CASE("corpus mutants load or fail with ParseError, never crash, hang or over-allocate", "[mutation][corpus]") {
    struct Group {
        std::string label;
        std::vector<std::string> folders, exts;
    };
    const std::vector<Group> groups = {{"alamo", {"alamo"}, {".alo", ".ala"}},
                                       {"w3d", {"w3d"}, {".w3d"}},
                                       {"bw2", {"bw2"}, {".bwm", ".al"}},
                                       {"amal", {"amal"}, {".abk", ".amos"}},
                                       {"archives", {"archives"}, {".meg", ".big"}},
                                       {"texture", {"alamo", "w3d", "bw2"}, {".dds", ".tga"}}};
    if (rs::test::corpusDir().empty()) RIGSCOPE_REQUIRE_CORPUS("alamo");
    Totals all;
    for (const Group& g : groups) {
        const std::string& sub = g.label;
        const bool texture = sub == "texture";
        std::vector<std::string> files;
        for (const std::string& folder : g.folders)
            for (const std::string& f : rs::test::corpusFiles(folder, g.exts))
                files.push_back(f);
        Totals t;
        for (const std::string& path : files) {
            const std::vector<uint8_t> orig = rs::readFileBytes(path);
            std::mt19937 rng(seedFor(path));
            std::vector<std::vector<uint8_t>> mutants;
            std::vector<std::string> kinds;
            mutants.push_back(orig);
            kinds.push_back("unchanged");
            // Truncations: 32 evenly spaced lengths plus lengths inside the first header.
            std::vector<size_t> cuts = {1, 3, 4, 7, 8, 11, 12, 16, 20, 24};
            for (size_t k = 0; k < 32; ++k)
                cuts.push_back(orig.size() * k / 32 + (k ? rng() % 7 : 0));
            std::sort(cuts.begin(), cuts.end());
            cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
            for (size_t c : cuts)
                if (c < orig.size()) {
                    mutants.emplace_back(orig.begin(), orig.begin() + static_cast<long>(c));
                    kinds.push_back("cut at " + std::to_string(c));
                }
            if (!orig.empty()) {
                // Single-bit flips, half of them in the first 256 bytes where headers live.
                for (int k = 0; k < 64; ++k) {
                    std::vector<uint8_t> m = orig;
                    const size_t span = (k % 2 == 0 && m.size() > 256) ? 256 : m.size();
                    const size_t at = rng() % span;
                    const unsigned bit = rng() % 8;
                    m[at] ^= static_cast<uint8_t>(1u << bit);
                    mutants.push_back(std::move(m));
                    kinds.push_back("bit " + std::to_string(bit) + " of byte " + std::to_string(at) + " flipped");
                }
                // Hostile 32-bit values over aligned fields (counts, sizes, offsets, indices).
                const uint32_t hostile[] = {0x7FFFFFFFu, 0xFFFFFFFFu, 0x80000000u, 0x00010000u};
                for (int k = 0; k < 16 && orig.size() >= 4; ++k) {
                    std::vector<uint8_t> m = orig;
                    const size_t span = (k % 2 == 0 && m.size() > 512) ? 512 : m.size();
                    const size_t at = (rng() % (span / 4)) * 4;
                    const uint32_t v = hostile[k % 4];
                    for (int b = 0; b < 4; ++b)
                        m[at + b] = static_cast<uint8_t>(v >> (8 * b));
                    mutants.push_back(std::move(m));
                    kinds.push_back("u32 at " + std::to_string(at) + " = " + rs::hex(v));
                }
            }
            ++t.files;
            for (size_t mi = 0; mi < mutants.size(); ++mi) {
                const auto& m = mutants[mi];
                bool loaded = false;
                std::string problem;
                const std::clock_t t0 = std::clock(); // CPU time: a hang burns it, a busy machine does not
                size_t clipBytes = 0;
                const int64_t peak = rs::test::peakHeap([&] {
                    problem = texture ? rs::test::tryDecodeTexture(m, path, loaded)
                                      : rs::test::tryLoad(m, path, loaded, &clipBytes);
                });
                const double secs = double(std::clock() - t0) / CLOCKS_PER_SEC;
                const double ratio = double(peak) / double(std::max<size_t>(m.size(), 1));
                ++t.mutants;
                (loaded ? t.loaded : t.rejected)++;
                t.worstSeconds = std::max(t.worstSeconds, secs);
                if (m.size() > 4096 && clipBytes <= 4 * m.size())
                    t.worstAllocRatio = std::max(t.worstAllocRatio, ratio);
                INFO(path << " (" << orig.size() << " bytes): " << kinds[mi]);
                if (!problem.empty()) FAIL_CHECK(problem);
                if (secs > kMaxSecondsPerMutant) FAIL_CHECK("took " << secs << " s of CPU time");
                if (peak > (texture ? rs::test::textureHeapAllowance(m.size(), path)
                                    : rs::test::heapAllowance(m.size(), clipBytes)))
                    FAIL_CHECK("peak heap " << peak << " bytes for a " << m.size() << "-byte input (decoded clips "
                                            << clipBytes << " bytes)");
                if (clipBytes > kClipBytesPerByte * m.size() + kClipBytesFixed)
                    FAIL_CHECK("decoded clips " << clipBytes << " bytes for a " << m.size() << "-byte input");
                if (clipBytes > 16 * m.size()) ++t.expandedClips;
                t.worstClipRatio =
                    std::max(t.worstClipRatio, double(clipBytes) / double(std::max<size_t>(m.size(), 1)));
            }
        }
        if (t.files == 0) continue;
        std::printf("mutation %-6s files %4d mutants %6d loaded %6d rejected %6d | slowest %.3f s CPU, peak heap %.1f "
                    "x size%s\n",
                    sub.c_str(), t.files, t.mutants, t.loaded, t.rejected, t.worstSeconds, t.worstAllocRatio,
                    " (inputs > 4 KiB decoding clips < 4 x their size)");
        if (t.expandedClips)
            std::printf("mutation %-6s %d mutants decode clips larger than 16 x their size (worst %.0f x)\n",
                        sub.c_str(), t.expandedClips, t.worstClipRatio);
        all.files += t.files, all.mutants += t.mutants, all.loaded += t.loaded, all.rejected += t.rejected;
        all.worstSeconds = std::max(all.worstSeconds, t.worstSeconds);
        all.worstAllocRatio = std::max(all.worstAllocRatio, t.worstAllocRatio);
    }
    std::printf(
        "mutation total  files %4d mutants %6d loaded %6d rejected %6d | slowest %.3f s CPU, peak heap %.1f x size\n",
        all.files, all.mutants, all.loaded, all.rejected, all.worstSeconds, all.worstAllocRatio);
    REQUIRE(all.mutants >= all.files * 97); // unchanged + >= 32 cuts + 64 flips
}
