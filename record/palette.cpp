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
    }
    return pal;
}

} // namespace rs::record
