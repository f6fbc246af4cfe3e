#include "palette.h"

#include <algorithm>
#include <limits>

namespace rs::record {

ColourHistogram::ColourHistogram() : bins_(kBins) {}

void ColourHistogram::add(const uint8_t* pixels, int width, int height, size_t stride, int channels) {
    for (int y = 0; y < height; ++y) {
        const uint8_t* p = pixels + size_t(y) * stride;
        for (int x = 0; x < width; ++x, p += channels) {
            Bin& b = bins_[binOf(p[0], p[1], p[2])];
            ++b.count;
            b.sum[0] += p[0];
            b.sum[1] += p[1];
            b.sum[2] += p[2];
        }
    }
}

namespace {

// Dithering partners: at most this far from the nearest colour (RGB levels), and the cost of a partner is its
// segment's distance to the colour (squared) plus this times the segment's length (squared).
constexpr double kMaxStep = 64.0;
constexpr double kLengthWeight = 0.1;

struct Entry {
    uint32_t bin;
    uint64_t count;
    double mean[3];
};

struct Box {
    size_t begin, end; // entries
    uint64_t count = 0;
    int axis = 0;
    double side = 0.0; // longest side (mean colours)
    double priority() const { return end - begin > 1 ? double(count) * side : -1.0; }
};

void measure(Box& box, const std::vector<Entry>& e) {
    double lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    box.count = 0;
    for (size_t i = box.begin; i < box.end; ++i) {
        box.count += e[i].count;
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], e[i].mean[c]);
            hi[c] = std::max(hi[c], e[i].mean[c]);
        }
    }
    box.axis = 0;
    for (int c = 1; c < 3; ++c)
        if (hi[c] - lo[c] > hi[box.axis] - lo[box.axis]) box.axis = c;
    box.side = hi[box.axis] - lo[box.axis];
}

} // namespace

Palette medianCutPalette(const ColourHistogram& histogram, int maxColours) {
    maxColours = std::clamp(maxColours, 1, 256);
    std::vector<Entry> entries;
    const auto& bins = histogram.bins();
    for (uint32_t i = 0; i < bins.size(); ++i)
        if (bins[i].count) {
            const double n = double(bins[i].count);
            entries.push_back({i, bins[i].count, {bins[i].sum[0] / n, bins[i].sum[1] / n, bins[i].sum[2] / n}});
        }
    Palette pal;
    pal.indexOfBin.assign(ColourHistogram::kBins, 0);
    if (entries.empty()) {
        pal.colours.push_back({0, 0, 0});
        return pal;
    }
    std::vector<Box> boxes(1);
    boxes[0].begin = 0;
    boxes[0].end = entries.size();
    measure(boxes[0], entries);
    while (int(boxes.size()) < maxColours) {
        size_t pick = 0;
        for (size_t i = 1; i < boxes.size(); ++i)
            if (boxes[i].priority() > boxes[pick].priority()) pick = i;
        Box& box = boxes[pick];
        if (box.priority() < 0.0) break; // every box is one bin
        const int axis = box.axis;
        std::sort(entries.begin() + long(box.begin), entries.begin() + long(box.end),
                  [axis](const Entry& a, const Entry& b) { return a.mean[axis] < b.mean[axis]; });
        // Split after the entry where the population reaches half, keeping both halves non-empty.
        uint64_t acc = 0;
        size_t cut = box.begin + 1;
        for (size_t i = box.begin; i + 1 < box.end; ++i) {
            acc += entries[i].count;
            cut = i + 1;
            if (acc * 2 >= box.count) break;
        }
        Box upper;
        upper.begin = cut;
        upper.end = box.end;
        box.end = cut;
        measure(box, entries);
        measure(upper, entries);
        boxes.push_back(upper);
    }
    for (const Box& box : boxes) {
        double sum[3] = {0, 0, 0};
        for (size_t i = box.begin; i < box.end; ++i)
            for (int c = 0; c < 3; ++c)
                sum[c] += entries[i].mean[c] * double(entries[i].count);
        std::array<uint8_t, 3> colour{};
        for (int c = 0; c < 3; ++c)
            colour[size_t(c)] = uint8_t(std::clamp(sum[c] / double(box.count) + 0.5, 0.0, 255.0));
        pal.colours.push_back(colour);
    }
    pal.partnerOfBin.assign(ColourHistogram::kBins, 0);
    for (const Entry& e : entries) {
        double best = std::numeric_limits<double>::max();
        for (size_t i = 0; i < pal.colours.size(); ++i) {
            double d = 0.0;
            for (int c = 0; c < 3; ++c) {
                const double v = e.mean[c] - double(pal.colours[i][size_t(c)]);
                d += v * v;
            }
            if (d < best) {
                best = d;
                pal.indexOfBin[e.bin] = uint8_t(i);
            }
        }
        // The partner: a colour q on the far side of the mean from p (positive projection on p->q), at most
        // kMaxStep away, whose segment p->q passes closest to the mean, short segments preferred (a distant
        // colour sprinkled over an area shows as noise even where it makes the mean right).
        const uint8_t near = pal.indexOfBin[e.bin];
        const auto& p = pal.colours[near];
        double c[3];
        for (int ch = 0; ch < 3; ++ch)
            c[ch] = e.mean[ch] - double(p[size_t(ch)]);
        double bestPartner = std::numeric_limits<double>::max();
        pal.partnerOfBin[e.bin] = near;
        for (size_t i = 0; i < pal.colours.size(); ++i) {
            if (i == near) continue;
            double d[3], dot = 0.0, len = 0.0;
            for (int ch = 0; ch < 3; ++ch) {
                d[ch] = double(pal.colours[i][size_t(ch)]) - double(p[size_t(ch)]);
                dot += c[ch] * d[ch];
                len += d[ch] * d[ch];
            }
            if (dot <= 0.0 || len <= 0.0 || len > kMaxStep * kMaxStep) continue;
            const double t = std::min(dot / len, 1.0);
            double off = 0.0;
            for (int ch = 0; ch < 3; ++ch) {
                const double v = c[ch] - t * d[ch];
                off += v * v;
            }
            off += kLengthWeight * len;
            if (off < bestPartner) {
                bestPartner = off;
                pal.partnerOfBin[e.bin] = uint8_t(i);
            }
        }
    }
    pal.binHasColour.assign(ColourHistogram::kBins, 0);
    for (size_t i = 0; i < pal.colours.size(); ++i) {
        const auto& c = pal.colours[i];
        pal.exact.emplace_back(uint32_t(c[0]) << 16 | uint32_t(c[1]) << 8 | c[2], uint8_t(i));
        pal.binHasColour[ColourHistogram::binOf(c[0], c[1], c[2])] = 1;
    }
    std::sort(pal.exact.begin(), pal.exact.end());
    return pal;
}

int bayer8(int x, int y) {
    // Interleaves the bits of x ^ y and y (the recursive definition M(2n) = [4M, 4M+2; 4M+3, 4M+1]).
    const int a = (x ^ y) & 7, b = y & 7;
    int v = 0;
    for (int bit = 0; bit < 3; ++bit)
        v |= ((a >> bit & 1) << (2 * (2 - bit) + 1)) | ((b >> bit & 1) << (2 * (2 - bit)));
    return v;
}

uint8_t Palette::ditheredIndexOf(uint8_t r, uint8_t g, uint8_t b, int x, int y) const {
    const uint32_t bin = ColourHistogram::binOf(r, g, b);
    if (binHasColour[bin]) {
        const uint32_t key = uint32_t(r) << 16 | uint32_t(g) << 8 | b;
        const auto it = std::lower_bound(exact.begin(), exact.end(), std::make_pair(key, uint8_t(0)));
        if (it != exact.end() && it->first == key) return it->second;
    }
    const uint8_t i = indexOfBin[bin], j = partnerOfBin[bin];
    if (i == j) return i;
    const auto& p = colours[i];
    const auto& q = colours[j];
    const int px[3] = {r, g, b};
    int64_t dot = 0, len = 0;
    for (int c = 0; c < 3; ++c) {
        const int d = int(q[size_t(c)]) - int(p[size_t(c)]);
        dot += int64_t(px[c] - int(p[size_t(c)])) * d;
        len += int64_t(d) * d;
    }
    // q when dot / len > (bayer + 0.5) / 64.
    return dot * 128 > int64_t(2 * bayer8(x, y) + 1) * len ? j : i;
}

} // namespace rs::record
