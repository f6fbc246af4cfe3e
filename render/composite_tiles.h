#pragma once

#include <glm/vec4.hpp>

#include <cstdint>
#include <vector>

namespace rs::render {

// Which tiles of the window a full-window pass must shade: a coarse coverage mask (tiles of kTile pixels, the
// rasterizer's own tile size on llvmpipe) filled from rectangles in normalized device coordinates, read back as a few
// rectangles that cover exactly the marked tiles. Pixels outside every added rectangle are not covered by any rect().
class CompositeTiles {
  public:
    static constexpr int kTile = 64;

    // Empties the mask for a window of width x height pixels (each at least 1).
    void reset(int width, int height);
    // Marks every tile that a rectangle x0, y0, x1, y1 (NDC, any order; clipped to the window) touches. Non-finite
    // coordinates mark the whole window.
    void add(const glm::vec4& ndc);
    void addAll();
    bool empty() const { return marked_ == 0; }
    size_t marked() const { return marked_; } // tiles marked
    size_t tiles() const { return mask_.size(); }

    // The marked tiles as rectangles (NDC x0, y0, x1, y1, x0 < x1, y0 < y1): horizontal runs of marked tiles, runs
    // with the same columns on consecutive rows merged. No two overlap; together they are exactly the marked tiles
    // (clipped to the window).
    const std::vector<glm::vec4>& rects();

  private:
    int width_ = 1, height_ = 1, cols_ = 1, rows_ = 1;
    std::vector<uint8_t> mask_; // rows_ x cols_, row 0 at the bottom (NDC y = -1)
    size_t marked_ = 0;
    std::vector<glm::vec4> rects_;
    bool dirty_ = true;
};

} // namespace rs::render
