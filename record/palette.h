// One palette for a whole recording (GIF): a colour histogram over every frame, cut into at most 256 boxes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rs::record {

// Counts colours in bins of 6 bits per channel (262,144 bins), keeping each bin's summed colour so that a bin's
// representative is the mean of the colours that fell in it, not its corner.
class ColourHistogram {
  public:
    static constexpr int kBits = 6;
    static constexpr size_t kBins = size_t(1) << (3 * kBits);
    static uint32_t binOf(uint8_t r, uint8_t g, uint8_t b) {
        return (uint32_t(r >> (8 - kBits)) << (2 * kBits)) | (uint32_t(g >> (8 - kBits)) << kBits) |
               uint32_t(b >> (8 - kBits));
    }

    ColourHistogram();
    // width*height RGB or RGBA pixels (channels = 3 or 4), rows stride bytes apart.
    void add(const uint8_t* pixels, int width, int height, size_t stride, int channels);

    struct Bin {
        uint64_t count = 0;
        uint64_t sum[3] = {0, 0, 0};
    };
    const std::vector<Bin>& bins() const { return bins_; }

  private:
    std::vector<Bin> bins_;
};

struct Palette {
    std::vector<std::array<uint8_t, 3>> colours; // 1..256 entries
    std::vector<uint8_t> indexOfBin;             // ColourHistogram::kBins entries: the nearest colour of each bin
    // ColourHistogram::kBins entries: the colour to mix with indexOfBin's for ordered dithering (the one whose
    // segment from the nearest colour passes closest to the bin's mean, on its far side; the nearest colour itself
    // when there is none).
    std::vector<uint8_t> partnerOfBin;
    // The palette's colours as 0xRRGGBB with their index, sorted; binHasColour[bin]: some colour lies in that bin.
    std::vector<std::pair<uint32_t, uint8_t>> exact;
    std::vector<uint8_t> binHasColour;

    uint8_t indexOf(uint8_t r, uint8_t g, uint8_t b) const { return indexOfBin[ColourHistogram::binOf(r, g, b)]; }

    // Ordered dithering (8x8 Bayer matrix, the threshold depending on x, y only, so a still area stays the same
    // from frame to frame): a pixel that is a palette colour maps to it exactly; any other mixes its bin's nearest
    // colour p and partner q, taking q where the pixel's position along p->q (0 at p, 1 at q) exceeds the
    // threshold, so that the mean of an area approaches its colour.
    uint8_t ditheredIndexOf(uint8_t r, uint8_t g, uint8_t b, int x, int y) const;
};

// The 8x8 Bayer matrix (0..63; the threshold of pixel (x, y) is (bayer8(x, y) + 0.5) / 64).
int bayer8(int x, int y);

// Median cut over the non-empty bins: the box whose population times longest side is largest is split at the
// population median of that side, until maxColours boxes (1..256) or no box can be split. Each colour is its
// box's population-weighted mean; each non-empty bin maps to the colour nearest its mean (squared RGB distance).
// A histogram with at most maxColours non-empty bins thus keeps every bin's mean colour exactly. An empty
// histogram gives one black entry. Fills the dithering tables (partnerOfBin, exact, binHasColour) too.
Palette medianCutPalette(const ColourHistogram& histogram, int maxColours = 256);

} // namespace rs::record
