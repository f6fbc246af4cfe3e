// W3D clips: the channels the game ignores (Euler angles, unknown types) are one warning per channel type with the
// count and the list of pivots, not one line per pivot.
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rs;
using namespace rs::w3d;

namespace {

std::vector<std::string> clipWarnings(const ClipSpec& spec) {
    ChunkWriter cw;
    writeClip(cw, spec);
    const std::vector<uint8_t> bytes = cw.take();
    const File f = readFile(ByteSpan(bytes), "clip.w3d");
    REQUIRE(f.clips.size() == 1);
    return f.clips[0].warnings;
}

ChannelSpec channel(uint16_t pivot, uint8_t type) {
    ChannelSpec c;
    c.pivot = pivot;
    c.type = type;
    c.values = {0.5f, 1.0f};
    return c;
}

} // namespace

TEST_CASE("W3D clip: ignored channels are one warning per type with the count and the pivots", "[w3d][anim]") {
    ClipSpec s;
    s.name = "ODD";
    s.hierarchy = "TEST_SKL";
    s.frames = 2;
    s.channels = {channel(1, 0), channel(3, 15), channel(2, 4), channel(5, 15), channel(7, 15)};
    const std::vector<std::string> w = clipWarnings(s);
    CHECK(w == std::vector<std::string>{"channel type 4 (Euler angle, unused by the game) on pivot 2 ignored",
                                        "channel type 15 (unknown) on 3 pivots ignored: 3, 5, 7"});
}

TEST_CASE("W3D clip: a type on many pivots lists the first 32 and counts the rest", "[w3d][anim]") {
    ClipSpec s;
    s.name = "MANY";
    s.hierarchy = "TEST_SKL";
    s.frames = 2;
    for (uint16_t p = 1; p <= 40; ++p)
        s.channels.push_back(channel(p, 15));
    s.channels.push_back(channel(4, 15)); // a second channel of the type on pivot 4
    const std::vector<std::string> w = clipWarnings(s);
    std::string pivots;
    for (int p = 1; p <= 32; ++p)
        pivots += (p > 1 ? ", " : "") + std::to_string(p);
    REQUIRE(w.size() == 1);
    CHECK(w[0] == "channel type 15 (unknown) on 40 pivots (41 channels) ignored: " + pivots + " and 8 more");
}
