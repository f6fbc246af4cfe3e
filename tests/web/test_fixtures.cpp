// rigscope-test-fixtures: writes fixtures with the project's own writers for the tests that are not C++ (the web
// page's browser tests, web/tests/*.mjs).
//   rigscope-test-fixtures w3d-emitters OUT.w3d
//     A W3D model (tests/core/w3d_fixtures.h's hierarchy and quad) with two emitters in the file (chunk 0x500) that
//     its HLOD's aggregates place at bones:
//       SPARKS at ARM: additive, texture wfx_sparks.tga read as a 2x2 atlas (frame mode 1), frame 1 throughout
//         (the top-right cell), rising at 1 unit/s from a 0.6-unit box, 8 a second, 2 s lives, size 0.12 -> 0.2,
//         rotation 0.8 rad/s;
//       SMOKE at BODY (the quad's bone, so that the quad hides part of it): alpha-blended (SRC_ALPHA /
//         ONE_MINUS_SRC_ALPHA), texture wfx_smoke.tga, drifting along +x and down, 5 a second, 2.5 s lives, size
//         0.45, opacity 0.9 -> 0.3.
//     In the browser test's view (1280x720) the sparks stay under the desktop's low-resolution threshold (90 pixels
//     tall) and the smoke is over it (110-120 pixels): both of the desktop's particle paths are drawn.
//     The quad is opaque: translucent meshes and particles are ordered differently by the desktop (one sorted
//     transparent layer) and the page (meshes, then particles).
//   rigscope-test-fixtures w3d-primitives OUT.w3d
//     The same hierarchy and opaque quad with a sphere (0x741) and a ring (0x742) that the HLOD places at bones:
//       BLAST at BODY: additive sphere of extent 0.4 looping over 2 s, scale 0.3 -> 1.2, colour dark red -> green,
//       alpha 0.2 -> 1
//         (keys at 0 and 0.5 of its life);
//       WAVE at ARM: alpha-blended (SRC_ALPHA / ONE_MINUS_SRC_ALPHA) yellow ring, alpha 0.9, camera aligned (flag 1),
//         inner extent 0.1, outer extent 0.3 scaled 0.5 -> 2 over its 1 s life (one-shot). Both stay in view and
//         apart: the desktop sorts its transparent entities back to front, the page draws them in the file's order.
//   rigscope-test-fixtures dds-cube OUT.dds
//     A DDS cube map (core's writeDdsCubeRgba) of 64x64 faces, one colour a face, the desktop render test's
//     (tests/render/w3d_fx_test.cpp, ObjectsGenericEnvMap.fx's cube): +X (230, 26, 26), -X (26, 230, 26),
//     +Y (26, 26, 230), -Y (230, 230, 26), +Z (51, 204, 230), -Z (230, 77, 204), alpha 255. 64 texels a side keep
//     the band where a face's edge is filtered small: WebGL2 filters across cube faces (seamless), desktop GL as
//     the desktop viewer runs it does not, which on 4x4 faces turns a seam into a gradient a quarter face wide.
// Exit 0 with the file written (writeFileSafely), 2 on bad arguments, 1 when the write fails (the message names
// the file).
#include "common/file_write.h"
#include "texture/texture_writer.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <cstdio>
#include <exception>
#include <string>

namespace {

std::vector<uint8_t> w3dEmitters() {
    using namespace rs;
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::Emitter sparks;
    sparks.name = "SPARKS";
    sparks.texture = "wfx_sparks.tga";
    sparks.lifetime = 2.0f;
    sparks.emissionRate = 8.0f;
    sparks.velocity = {0.0f, 0.0f, 1.0f};
    sparks.hasInfoV2 = sparks.hasProps = true;
    sparks.burstSize = 1;
    sparks.creationVolume = {0, {0.6f, 0.6f, 0.6f}};
    sparks.shader.srcBlend = 1;  // one
    sparks.shader.destBlend = 1; // one: additive
    sparks.shader.texturing = 1;
    sparks.frameMode = 1; // 2x2 frames
    sparks.colorKeys = {{0.0f, {1.0f, 0.8f, 0.3f}}, {2.0f, {0.6f, 0.3f, 0.1f}}};
    sparks.opacityKeys = {{0.0f, {1.0f, 0, 0}}};
    sparks.sizeKeys = {{0.0f, {0.12f, 0, 0}}, {2.0f, {0.2f, 0, 0}}};
    sparks.rotation.present = true;
    sparks.rotation.keys = {{0.0f, {0.8f, 0, 0}}};
    sparks.frame.present = true;
    sparks.frame.keys = {{0.0f, {1.0f, 0, 0}}};
    w3d::writeEmitter(cw, sparks);
    w3d::Emitter smoke;
    smoke.name = "SMOKE";
    smoke.texture = "wfx_smoke.tga";
    smoke.lifetime = 2.5f;
    smoke.emissionRate = 5.0f;
    smoke.velocity = {0.6f, 0.0f, -0.6f};
    smoke.hasInfoV2 = smoke.hasProps = true;
    smoke.burstSize = 1;
    smoke.creationVolume = {0, {0.3f, 0.3f, 0.3f}};
    smoke.shader.srcBlend = 2;  // src alpha
    smoke.shader.destBlend = 5; // 1 - src alpha
    smoke.shader.texturing = 1;
    smoke.colorKeys = {{0.0f, {0.9f, 0.9f, 1.0f}}};
    smoke.opacityKeys = {{0.0f, {0.9f, 0, 0}}, {2.5f, {0.3f, 0, 0}}};
    smoke.sizeKeys = {{0.0f, {0.45f, 0, 0}}};
    w3d::writeEmitter(cw, smoke);
    // The quad at BODY: the model the emitters belong to, framed by both views.
    w3d::RawMesh plate = test::testQuad("PLATE", "UNIT");
    plate.shaders[0].srcBlend = 1;  // one
    plate.shaders[0].destBlend = 0; // zero: opaque, drawn before the particles on both views
    w3d::writeMesh(cw, plate);
    w3d::Hlod h = test::oneLodHlod("UNIT", "TEST_SKL", {{1, "UNIT.PLATE"}});
    h.aggregates = {{2, "SPARKS"}, {1, "SMOKE"}};
    w3d::writeHlod(cw, h);
    return cw.take();
}

std::vector<uint8_t> w3dPrimitives() {
    using namespace rs;
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::Sphere s;
    s.version = 0x10000;
    s.flags = 8; // looping
    s.name = "UNIT.BLAST";
    s.extent = {0.4f, 0.4f, 0.4f};
    s.duration = 2.0f;
    s.shader.srcBlend = 1;
    s.shader.destBlend = 1; // additive
    s.colorKeys = {{{0.3f, 0, 0}, 0.0f}, {{0, 1, 0.2f}, 0.5f}};
    s.alphaKeys = {{0.2f, 0.0f}, {1.0f, 0.5f}};
    s.scaleKeys = {{{0.3f, 0.3f, 0.3f}, 0.0f}, {{1.2f, 1.2f, 1.2f}, 0.5f}};
    w3d::writeSphere(cw, s);
    w3d::Ring r;
    r.version = 0x10000;
    r.flags = 1; // camera aligned, one-shot
    r.name = "UNIT.WAVE";
    r.duration = 1.0f;
    r.color = {1.0f, 1.0f, 0.2f};
    r.alpha = 0.9f;
    r.shader.srcBlend = 2;
    r.shader.destBlend = 5; // alpha
    r.innerExtent = {0.1f, 0.1f};
    r.outerExtent = {0.3f, 0.3f};
    r.outerScaleKeys = {{{0.5f, 0.5f}, 0.0f}, {{2.0f, 2.0f}, 1.0f}};
    w3d::writeRing(cw, r);
    w3d::writeMesh(cw, test::testQuad("PLATE", "UNIT"));
    w3d::Hlod h = test::oneLodHlod("UNIT", "TEST_SKL", {{1, "UNIT.PLATE"}});
    h.aggregates = {{1, "BLAST"}, {2, "WAVE"}};
    w3d::writeHlod(cw, h);
    return cw.take();
}

std::vector<uint8_t> ddsCube() {
    static const uint8_t kFace[6][3] = {{230, 26, 26},  {26, 230, 26},  {26, 26, 230},
                                        {230, 230, 26}, {51, 204, 230}, {230, 77, 204}};
    rs::Image faces[6];
    for (int f = 0; f < 6; ++f) {
        faces[f].width = faces[f].height = 64;
        faces[f].rgba.resize(64 * 64 * 4);
        for (size_t i = 0; i < 64 * 64; ++i) {
            for (size_t k = 0; k < 3; ++k)
                faces[f].rgba[i * 4 + k] = kFace[f][k];
            faces[f].rgba[i * 4 + 3] = 255;
        }
    }
    return rs::writeDdsCubeRgba(faces);
}

} // namespace

int main(int argc, char** argv) {
    const std::string what = argc == 3 ? argv[1] : "";
    if (what != "w3d-emitters" && what != "w3d-primitives" && what != "dds-cube") {
        std::fprintf(stderr, "usage: rigscope-test-fixtures w3d-emitters|w3d-primitives OUT.w3d | dds-cube OUT.dds\n");
        return 2;
    }
    try {
        const std::vector<uint8_t> bytes = what == "dds-cube"         ? ddsCube()
                                           : what == "w3d-primitives" ? w3dPrimitives()
                                                                      : w3dEmitters();
        rs::writeFileSafely(argv[2], rs::ByteSpan(bytes.data(), bytes.size()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rigscope-test-fixtures: %s\n", e.what());
        return 1;
    }
    return 0;
}
