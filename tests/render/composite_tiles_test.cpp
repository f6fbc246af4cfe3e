// CompositeTiles: the tiles a full-window pass must shade, as rectangles.
#include "composite_tiles.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using rs::render::CompositeTiles;

namespace {

// NDC of pixel coordinate p (from the left or bottom edge) in a window of n pixels.
float ndc(float p, int n) { return p / float(n) * 2.0f - 1.0f; }

double area(const std::vector<glm::vec4>& rects) {
    double a = 0.0;
    for (const glm::vec4& r : rects)
        a += double(r.z - r.x) * double(r.w - r.y);
    return a;
}

bool covered(const std::vector<glm::vec4>& rects, float x, float y) {
    for (const glm::vec4& r : rects)
        if (x >= r.x && x <= r.z && y >= r.y && y <= r.w) return true;
    return false;
}

} // namespace

TEST_CASE("composite tiles: nothing added gives no rectangle", "[render][composite]") {
    CompositeTiles t;
    t.reset(1920, 1080);
    CHECK(t.empty());
    CHECK(t.tiles() == 30u * 17u);
    CHECK(t.rects().empty());
}

TEST_CASE("composite tiles: a small rectangle gives the tiles it touches", "[render][composite]") {
    CompositeTiles t;
    t.reset(1920, 1080);
    // Pixels x 100..150, y 200..230 (from the bottom): columns 1-2, row 3.
    t.add({ndc(100, 1920), ndc(200, 1080), ndc(150, 1920), ndc(230, 1080)});
    CHECK(t.marked() == 2u);
    const auto& r = t.rects();
    REQUIRE(r.size() == 1u);
    CHECK(r[0].x == Approx(ndc(64, 1920)));
    CHECK(r[0].z == Approx(ndc(192, 1920)));
    CHECK(r[0].y == Approx(ndc(192, 1080)));
    CHECK(r[0].w == Approx(ndc(256, 1080)));
}

TEST_CASE("composite tiles: the top and right tiles are clipped to the window", "[render][composite]") {
    CompositeTiles t;
    t.reset(100, 100); // 2 x 2 tiles, the second column and row 36 pixels wide
    t.add({0.9f, 0.9f, 3.0f, 3.0f});
    const auto& r = t.rects();
    REQUIRE(r.size() == 1u);
    CHECK(r[0].x == Approx(ndc(64, 100)));
    CHECK(r[0].z == 1.0f);
    CHECK(r[0].w == 1.0f);
    t.reset(100, 100);
    t.add({-5.0f, -5.0f, -2.0f, -2.0f}); // wholly outside
    CHECK(t.empty());
}

TEST_CASE("composite tiles: rows with the same columns merge, overlapping adds do not overlap", "[render][composite]") {
    CompositeTiles t;
    t.reset(1280, 720);                                                 // 20 x 12 tiles
    t.add({ndc(10, 1280), ndc(10, 720), ndc(70, 1280), ndc(700, 720)}); // columns 0-1, every row: one rectangle
    CHECK(t.rects().size() == 1u);
    t.add({ndc(600, 1280), ndc(300, 720), ndc(900, 1280), ndc(400, 720)});
    t.add({ndc(650, 1280), ndc(350, 720), ndc(1000, 1280), ndc(500, 720)});
    const auto& r = t.rects();
    // Exactly the marked tiles: the area matches and the rectangles are pairwise disjoint.
    const double tileArea = (2.0 * 64 / 1280) * (2.0 * 64 / 720);
    CHECK(area(r) == Approx(double(t.marked()) * tileArea));
    for (size_t i = 0; i < r.size(); ++i)
        for (size_t j = i + 1; j < r.size(); ++j) {
            const bool apart = r[i].z <= r[j].x + 1e-6f || r[j].z <= r[i].x + 1e-6f || r[i].w <= r[j].y + 1e-6f ||
                               r[j].w <= r[i].y + 1e-6f;
            CHECK(apart);
        }
    // Every point of what was added is covered; a point far from it is not.
    for (float x = 600; x <= 1000; x += 7)
        for (float y = 300; y <= 500; y += 7)
            if ((x <= 900 && y <= 400) || (x >= 650 && y >= 350)) CHECK(covered(r, ndc(x, 1280), ndc(y, 720)));
    CHECK_FALSE(covered(r, ndc(1200, 1280), ndc(100, 720)));
}

TEST_CASE("composite tiles: non-finite coordinates mark the whole window", "[render][composite]") {
    CompositeTiles t;
    t.reset(640, 480);
    t.add({0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f});
    CHECK(t.marked() == t.tiles());
    const auto& r = t.rects();
    REQUIRE(r.size() == 1u);
    CHECK(r[0] == glm::vec4(-1.0f, -1.0f, 1.0f, 1.0f));
}
