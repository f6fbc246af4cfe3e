#include "composite_tiles.h"

#include <algorithm>
#include <cmath>

namespace rs::render {

void CompositeTiles::reset(int width, int height) {
    width_ = std::max(1, width);
    height_ = std::max(1, height);
    cols_ = (width_ + kTile - 1) / kTile;
    rows_ = (height_ + kTile - 1) / kTile;
    mask_.assign(size_t(cols_) * size_t(rows_), 0);
    marked_ = 0;
    dirty_ = true;
}

void CompositeTiles::addAll() {
    std::fill(mask_.begin(), mask_.end(), uint8_t(1));
    marked_ = mask_.size();
    dirty_ = true;
}

void CompositeTiles::add(const glm::vec4& ndc) {
    if (!std::isfinite(ndc.x) || !std::isfinite(ndc.y) || !std::isfinite(ndc.z) || !std::isfinite(ndc.w)) {
        addAll();
        return;
    }
    // NDC -> pixels (x right, y up from the bottom edge), then the tiles the closed pixel span touches.
    const float px0 = (std::min(ndc.x, ndc.z) * 0.5f + 0.5f) * float(width_);
    const float px1 = (std::max(ndc.x, ndc.z) * 0.5f + 0.5f) * float(width_);
    const float py0 = (std::min(ndc.y, ndc.w) * 0.5f + 0.5f) * float(height_);
    const float py1 = (std::max(ndc.y, ndc.w) * 0.5f + 0.5f) * float(height_);
    if (px1 < 0.0f || py1 < 0.0f || px0 > float(width_) || py0 > float(height_)) return;
    const auto tile = [](float p, int last) { return std::clamp(int(std::floor(p / float(kTile))), 0, last); };
    const int c0 = tile(px0, cols_ - 1), c1 = tile(px1, cols_ - 1);
    const int r0 = tile(py0, rows_ - 1), r1 = tile(py1, rows_ - 1);
    for (int r = r0; r <= r1; ++r) {
        uint8_t* row = mask_.data() + size_t(r) * size_t(cols_);
        for (int c = c0; c <= c1; ++c) {
            marked_ += row[c] == 0;
            row[c] = 1;
        }
    }
    dirty_ = true;
}

const std::vector<glm::vec4>& CompositeTiles::rects() {
    if (!dirty_) return rects_;
    dirty_ = false;
    rects_.clear();
    const auto ndcX = [this](int c) { return std::min(1.0f, float(c * kTile) / float(width_) * 2.0f - 1.0f); };
    const auto ndcY = [this](int r) { return std::min(1.0f, float(r * kTile) / float(height_) * 2.0f - 1.0f); };
    // Runs of the previous row still open for merging: (c0, c1, index into rects_).
    struct Run {
        int c0, c1;
        size_t rect;
    };
    std::vector<Run> open, next;
    for (int r = 0; r < rows_; ++r) {
        next.clear();
        const uint8_t* row = mask_.data() + size_t(r) * size_t(cols_);
        for (int c = 0; c < cols_;) {
            if (!row[c]) {
                ++c;
                continue;
            }
            const int c0 = c;
            while (c < cols_ && row[c])
                ++c;
            const int c1 = c; // exclusive
            auto same = std::find_if(open.begin(), open.end(), [&](const Run& o) { return o.c0 == c0 && o.c1 == c1; });
            if (same != open.end()) {
                rects_[same->rect].w = ndcY(r + 1);
                next.push_back(*same);
            } else {
                rects_.push_back({ndcX(c0), ndcY(r), ndcX(c1), ndcY(r + 1)});
                next.push_back({c0, c1, rects_.size() - 1});
            }
        }
        open.swap(next);
    }
    return rects_;
}

} // namespace rs::render
