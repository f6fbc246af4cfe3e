// Thumbnails: (1) pictures per second over every model of the corpus (ui/thumbnail_render.h, 128 px, the software
// renderer), on one and on two threads; (2) the Assets grid over 20,000 writer-made models scrolled a step per frame
// while the two workers make pictures: the time of each frame (scroll, delivered pictures, repaint) on the GUI
// thread. Each part runs --repeat times (default 3); the machine may be shared, so ranges are printed.
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/bin/thumbnail_bench [--repeat N] [--frames N] [--no-corpus]
#include "asset_browser_dock.h"
#include "asset_grid_view.h"
#include "thumbnail_fixtures.h"
#include "thumbnail_render.h"
#include "thumbnail_service.h"

#include "resolve/resolver.h"
#include "vfs/archive_writer.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace rs;

namespace {

std::vector<std::string> corpusModels() {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(RIGSCOPE_CORPUS_DIR, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        std::string ext = it->path().extension().string();
        for (char& c : ext)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".alo" || ext == ".w3d" || ext == ".bwm") out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Pictures per second of `files` on `threads` threads; drawn = pictures made (the rest cannot be drawn).
double picturesPerSecond(const std::vector<std::string>& files, unsigned threads, size_t* drawn) {
    const Resolver resolver;
    std::atomic<size_t> next{0}, ok{0};
    QElapsedTimer clock;
    clock.start();
    auto work = [&] {
        for (size_t i; (i = next++) < files.size();)
            if (!thumbs::renderAsset(resolver, files[i], 128).image.isNull()) ++ok;
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
    *drawn = ok;
    return double(files.size()) / (double(clock.nsecsElapsed()) * 1e-9);
}

struct FrameStats {
    double p50, p95, p99, max;
    int over16, frames, arrived;
};

FrameStats scrollGrid(const QString& meg, int frames, bool workers) {
    ui::AssetBrowserDock dock;
    dock.resize(900, 1000);
    dock.show();
    QApplication::processEvents();
    dock.showArchive(meg);
    dock.setGridMode(true);
    ui::AssetGridView* grid = dock.grid();
    grid->service()->setPaused(!workers);
    QApplication::processEvents();
    QScrollBar* bar = grid->verticalScrollBar();
    std::vector<double> ms;
    ms.reserve(size_t(frames));
    const int step = std::max(1, bar->maximum() / frames);
    QElapsedTimer frameClock;
    for (int f = 0; f < frames; ++f) {
        frameClock.start();
        bar->setValue(std::min(bar->maximum(), (f + 1) * step));
        QApplication::processEvents(); // delivered pictures, layout
        grid->viewport()->repaint();   // the frame
        ms.push_back(double(frameClock.nsecsElapsed()) * 1e-6);
        // The rest of a 60 Hz frame: the workers keep making pictures meanwhile.
        const double left = 1000.0 / 60.0 - ms.back();
        if (left > 0) std::this_thread::sleep_for(std::chrono::microseconds(int(left * 1000)));
    }
    FrameStats s{};
    s.frames = frames;
    s.arrived = int(grid->service()->arrivalOrder().size());
    for (double m : ms)
        s.over16 += m > 1000.0 / 60.0;
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double p) { return ms[std::min(ms.size() - 1, size_t(p * double(ms.size())))]; };
    s.p50 = pct(0.5);
    s.p95 = pct(0.95);
    s.p99 = pct(0.99);
    s.max = ms.back();
    return s;
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 3, frames = 600;
    bool corpus = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::max(10, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--no-corpus")) corpus = false;
    }
    QTemporaryDir tmp;
    qputenv("XDG_CACHE_HOME", QFile::encodeName(tmp.path() + "/xdg")); // every picture is drawn, none cached
    QApplication app(argc, argv);

    if (corpus) {
        const std::vector<std::string> files = corpusModels();
        std::printf("corpus models: %zu (%s)\n", files.size(), RIGSCOPE_CORPUS_DIR);
        for (unsigned threads : {1u, 2u}) {
            double lo = 1e30, hi = 0;
            size_t drawn = 0;
            for (int r = 0; r < repeat; ++r) {
                const double pps = picturesPerSecond(files, threads, &drawn);
                lo = std::min(lo, pps);
                hi = std::max(hi, pps);
            }
            std::printf("  %u thread%s: %.1f - %.1f pictures/s (%zu drawn, %zu cannot be drawn), %d runs\n", threads,
                        threads > 1 ? "s" : "", lo, hi, drawn, files.size() - drawn, repeat);
        }
    }

    const fs::path meg = fs::path(tmp.path().toStdString()) / "Grid.meg";
    {
        const std::vector<uint8_t> box = alamo::writeModel(test::boxModel({1, 1, 2}));
        std::vector<vfs::WriteEntry> entries;
        entries.reserve(20000);
        for (int i = 0; i < 20000; ++i) {
            char name[96];
            std::snprintf(name, sizeof name, "DATA\\ART\\MODELS\\F%03d\\BOX_%05d.ALO", i / 100, i);
            entries.push_back({name, box});
        }
        test::writeFile(meg, vfs::writeMeg(1, entries));
    }
    std::printf("grid: 20000 models, %d frames scrolled top to bottom at 60 Hz while 2 workers make pictures\n",
                frames);
    for (int r = 0; r < 2 * repeat; ++r) {
        QDir(tmp.path() + "/xdg").removeRecursively();
        const bool workers = r % 2 == 0;
        const FrameStats s = scrollGrid(QString::fromStdString(meg.string()), frames, workers);
        std::printf("  run %d %s: frame ms p50 %.2f p95 %.2f p99 %.2f max %.2f, %d of %d frames over 16.7 ms, %d "
                    "pictures arrived\n",
                    r / 2 + 1, workers ? "making pictures" : "workers paused ", s.p50, s.p95, s.p99, s.max, s.over16, s.frames, s.arrived);
    }
    return 0;
}
