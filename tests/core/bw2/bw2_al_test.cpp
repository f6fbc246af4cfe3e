#include "bw2_fixtures.h"
#include "cli_run.h"

#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace rs;
using namespace rs::bw2;
using namespace rs::test::bw2fx;

static void requireNear(const glm::mat4& a, const glm::mat4& b, float eps = 1e-5f) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            REQUIRE(a[c][r] == Approx(b[c][r]).margin(eps));
}

static glm::mat4 tr(const glm::vec3& t, const glm::quat& q) {
    return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(q);
}

TEST_CASE("al library with two animations and events round trips", "[bw2]") {
    AlFile src = library();
    std::vector<uint8_t> bytes = writeAl(src);
    AlFile f = parseAl(ByteSpan(bytes), "creature.al");
    CHECK(f.warnings.empty());
    CHECK(f.name == "creature");
    CHECK(f.size + kAlHeaderSize == bytes.size());
    REQUIRE(f.bones.size() == 4);
    CHECK(f.bones[2].name == "Head");
    CHECK(f.bones[2].parent == 1);
    CHECK(f.bones[3].parent == 0);
    CHECK(f.armatureExtra == src.armatureExtra);
    REQUIRE(f.animations.size() == 2);
    const AlAnimation& w = f.animations[0];
    CHECK(w.header.name == "a_walk");
    CHECK(w.meta.name == "a_walk");
    CHECK(w.header.frameCount == 5);
    CHECK(w.header.samplingRate == 30.0f);
    CHECK(w.header.distance == 1.5f);
    CHECK(w.header.cyclic);
    CHECK(w.header.eventCount == 2);
    CHECK(w.header.eventStringSize == 14 + 15 + 5 + 11);
    REQUIRE(w.events.size() == 2);
    CHECK(w.events[0].bone == "LHAnimEvent01");
    CHECK(w.events[0].name == "::FOOTSTEPS.99");
    CHECK(w.events[1].bone == "Head");
    CHECK(w.events[1].name == "::GROWL.50");
    CHECK(glm::vec3(w.events[0].matrix()[3]) == glm::vec3(1, 2, 3));
    CHECK(w.unknownBlock == src.animations[0].unknownBlock);
    CHECK(w.frameOffsets == src.animations[0].frameOffsets);
    CHECK(w.rotationsPerFrame == 4);
    CHECK(w.positionsPerFrame == 1);
    CHECK(w.first == src.animations[0].first);
    CHECK(w.second == src.animations[0].second);
    for (size_t b = 0; b < 4; ++b) {
        CHECK(w.frameZeroRotations[b] == src.animations[0].frameZeroRotations[b]);
        CHECK(w.frameZeroPositions[b] == src.animations[0].frameZeroPositions[b]);
    }
    const AlAnimation& i = f.animations[1];
    CHECK(i.header.name == "a_idle");
    CHECK(i.header.frameCount == 3);
    CHECK(i.first.size() == 4);
    CHECK(i.second.empty());
    CHECK(writeAl(f) == bytes);
}

TEST_CASE("al document: armature skeleton, one clip per animation, decode status labelled", "[bw2]") {
    std::vector<uint8_t> bytes = writeAl(library());
    Document d = Resolver().read(ByteSpan(bytes), "creature.al");
    REQUIRE(d.format == Format::Bw2Library);
    REQUIRE(d.model);
    CHECK(d.model->format == Format::Bw2Library);
    REQUIRE(d.model->skeleton.bones.size() == 4);
    CHECK(d.model->skeleton.bones[1].parent == 0);
    REQUIRE(d.clips.size() == 2);
    const Clip& walk = *d.clips[0];
    CHECK(walk.format == Format::Bw2Library);
    CHECK(walk.name == "a_walk");
    CHECK(walk.frameCount == 5);
    CHECK(walk.fps == 30.0f);
    CHECK(walk.codec.find("frame 0 exact") != std::string::npos);
    CHECK(walk.codec.find("interpreted") != std::string::npos);
    REQUIRE(walk.events.size() == 2);
    CHECK(walk.events[0].name == "::FOOTSTEPS.99");
    CHECK(walk.events[0].boneName == "LHAnimEvent01");
    CHECK_FALSE(walk.events[0].frameKnown);
    const Clip& idle = *d.clips[1];
    CHECK(idle.codec.find("not decoded") != std::string::npos);
    CHECK(idle.tracks[0].rotation.size() == 1); // frame 0 held
    bool saysHeld = false;
    for (const auto& w : idle.warnings)
        saysHeld |= w.find("frame 0 held") != std::string::npos;
    CHECK(saysHeld);

    // Frame 0 is the stored pose: world = parent * T * R.
    ClipBinding b = bindClip(d.model->skeleton, walk);
    REQUIRE(b.ok());
    PoseBuffers buf(4);
    evaluatePose(d.model->skeleton, &walk, &b, 0.0f, LoopMode::Once, buf.view());
    AlFile src = library();
    const auto& a = src.animations[0];
    glm::mat4 w0 = tr(a.frameZeroPositions[0], a.frameZeroRotations[0]);
    glm::mat4 w1 = w0 * tr(a.frameZeroPositions[1], a.frameZeroRotations[1]);
    glm::mat4 w2 = w1 * tr(a.frameZeroPositions[2], a.frameZeroRotations[2]);
    requireNear(buf.world[0], w0);
    requireNear(buf.world[1], w1);
    requireNear(buf.world[2], w2);

    // Interpretation of frames 1..N-1: the compressed rotations decode to the encoded ones (within s16 precision).
    evaluatePose(d.model->skeleton, &walk, &b, 3.0f, LoopMode::Once, buf.view());
    glm::mat4 l1 = tr(a.frameZeroPositions[1], walkRotation(1, 3));
    requireNear(buf.local[1], l1, 2e-4f);
}

TEST_CASE("al: compressed rotations decode to unit quaternions", "[bw2]") {
    glm::quat q = glm::angleAxis(glm::radians(123.0f), glm::normalize(glm::vec3(1, -2, 0.5f)));
    glm::quat d = decompressRotation(compressRotation(q));
    CHECK(std::fabs(glm::dot(q, d)) == Approx(1.0f).margin(1e-6));
    CHECK(glm::length(decompressRotation(glm::i16vec3(32767, 32767, 32767))) > 0.0f); // clamped w
}

TEST_CASE("al pairs with a .bwm skin by bone count and names", "[bw2]") {
    std::vector<uint8_t> lib = writeAl(library());
    Document ld = Resolver().read(ByteSpan(lib), "creature.al");
    BwmFile skinFile = skinModel(SkinLayout::U8PerIndex);
    Model skin = toModel(skinFile, "creature.bwm");
    std::string why;
    REQUIRE(libraryFits(skin, ld.model->skeleton, &why));
    Model applied = applyLibrary(skin, ld.model->skeleton);
    CHECK(applied.skeleton.bones[2].name == "Head");
    CHECK(applied.skeleton.bones[2].parent == 1);
    // The bind pose is still the skin's model-space bone frames.
    std::vector<glm::mat4> world(4);
    applied.skeleton.bindWorld(world.data());
    for (size_t i = 0; i < 4; ++i)
        requireNear(world[i], skinFile.bones[i].matrix(), 1e-5f);
    // Applying twice is stable (names now agree).
    CHECK(libraryFits(applied, ld.model->skeleton));
    // Clips bind by index and name.
    CHECK(bindClip(applied.skeleton, *ld.clips[0]).ok());

    Model three = toModel(skinModel(SkinLayout::U8PerIndex, 6, 3), "small.bwm");
    CHECK_FALSE(libraryFits(three, ld.model->skeleton, &why));
    CHECK(why.find("bone counts differ") != std::string::npos);
    CHECK_THROWS_AS(applyLibrary(three, ld.model->skeleton), std::invalid_argument);

    // Files next to the model with the same bone count are found.
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / "rigscope_bw2_pair";
    fs::remove_all(dir);
    fs::create_directories(dir / "binary_anim_libs");
    fs::create_directories(dir / "models");
    auto put = [](const fs::path& p, const std::vector<uint8_t>& b) {
        std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    };
    put(dir / "models" / "creature.bwm", writeBwm(skinFile));
    put(dir / "binary_anim_libs" / "creature.al", lib);
    AlFile other = library();
    other.bones.pop_back();
    for (auto& a : other.animations) {
        a.frameZeroRotations.pop_back();
        a.frameZeroPositions.pop_back();
        a.rotationsPerFrame = 0;
        a.first.clear();
    }
    put(dir / "binary_anim_libs" / "small.al", writeAl(other));
    auto found = Resolver().matchingLibraries((dir / "models" / "creature.bwm").string(), 4);
    REQUIRE(found.size() == 1);
    CHECK(fs::path(found[0]).filename() == "creature.al");
    fs::remove_all(dir);
}

#ifdef RIGSCOPE_CLI
static std::string runCli(const std::string& args) { return rs::test::runCli(args, rs::test::Stderr::Merge).out; }

TEST_CASE("rigscope-cli pose --json of an .al gives frame 0 of its first animation", "[bw2][cli]") {
    namespace fs = std::filesystem;
    if (!fs::exists(RIGSCOPE_CLI)) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    fs::path p = fs::temp_directory_path() / "rigscope_bw2_cli.al";
    std::vector<uint8_t> lib = writeAl(library());
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(lib.data()), std::streamsize(lib.size()));
    std::string out = runCli("pose --json " + p.string());
    // Parse the world matrix of "Spine".
    size_t at = out.find("\"name\":\"Spine\",\"world\":[");
    REQUIRE(at != std::string::npos);
    std::istringstream in(out.substr(at + 25));
    float v[16];
    char c;
    for (int k = 0; k < 16; ++k)
        in >> v[k] >> c;
    AlFile src = library();
    const auto& a = src.animations[0];
    glm::mat4 expect =
        tr(a.frameZeroPositions[0], a.frameZeroRotations[0]) * tr(a.frameZeroPositions[1], a.frameZeroRotations[1]);
    for (int k = 0; k < 16; ++k)
        CHECK(v[k] == Approx((&expect[0][0])[k]).margin(1e-5));

    std::string info = runCli("info --json " + p.string());
    CHECK(info.find("\"format\":\"al\"") != std::string::npos);
    CHECK(info.find("\"interpreted\":[\"rotations of frames 1..4") != std::string::npos);
    CHECK(info.find("\"name\":\"::FOOTSTEPS.99\",\"frame\":null") != std::string::npos);

    // A .bwm skin posed with the library: the armature is applied first, bones carry its names.
    fs::path skin = fs::temp_directory_path() / "rigscope_bw2_cli.bwm";
    std::vector<uint8_t> sk = writeBwm(skinModel(SkinLayout::U32PerIndex));
    std::ofstream(skin, std::ios::binary).write(reinterpret_cast<const char*>(sk.data()), std::streamsize(sk.size()));
    std::string posed = runCli("pose --json " + skin.string() + " --clip " + p.string());
    CHECK(posed.find("\"name\":\"LHAnimEvent01\"") != std::string::npos);
    std::string skinInfo = runCli("info --json " + skin.string());
    CHECK(skinInfo.find("\"skin\":{\"layout\":\"u32-per-index\",\"influences\":4}") != std::string::npos);
    fs::remove(skin);
    fs::remove(p);
}
#endif
