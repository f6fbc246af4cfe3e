// Asset browser filter on 100,000 names: a MEG made by the project's writer (sparse: index only) mounted as a
// table, listed by the browser's model (ui/asset_tree_model.h), then filtered the way typing does: one
// setFilter per keystroke of a substring and of a glob, each followed by the tree view's relayout of the reset
// model (QTreeView on the offscreen platform, folders expanded when few match, as the dock does). Reports the
// median and worst time per keystroke (model filter alone and model + view), and the listing time.
//   asset_filter_bench [--entries N] [--runs N] [--no-view]   (--no-view: the model alone, no view attached)
#include "asset_tree_model.h"

#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <QApplication>
#include <QTreeView>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
    size_t entries = 100000;
    int runs = 5;
    bool withView = true;
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--no-view")) withView = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--entries"))
            entries = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[i + 1]));
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // Names spread like a game's: 3 kinds x 200 folders, long file names.
    std::vector<std::string> names;
    std::vector<uint64_t> sizes;
    for (size_t i = 0; i < entries; ++i) {
        char b[112];
        std::snprintf(b, sizeof b, "DATA\\ART\\%s\\FOLDER_%03zu\\ASSET_%06zu_SOME_LONGER_NAME.%s",
                      i % 3 == 0   ? "MODELS"
                      : i % 3 == 1 ? "TEXTURES"
                                   : "ANIMATIONS",
                      i % 200, i,
                      i % 3 == 0   ? "ALO"
                      : i % 3 == 1 ? "DDS"
                                   : "ALA");
        names.push_back(b);
        sizes.push_back(4096);
    }
    const fs::path path = fs::temp_directory_path() / ("rigscope_filter_bench_" + std::to_string(getpid()) + ".meg");
    const rs::vfs::ArchiveLayout L = rs::vfs::layoutMeg(2, names, sizes);
    {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(L.index.data()), std::streamsize(L.index.size()));
    }
    fs::resize_file(path, L.total);
    auto table = std::make_shared<rs::vfs::MountTable>(rs::vfs::mountSingle(path.string()));

    rs::ui::AssetTreeModel model;
    QTreeView view;
    view.setUniformRowHeights(true);
    view.resize(600, 800);
    if (withView) {
        view.setModel(&model);
        view.show();
    }
    double t0 = now();
    model.setTable(table);
    const double listMs = (now() - t0) * 1e3;
    if (model.total() != entries) {
        std::fprintf(stderr, "listed %zu of %zu\n", model.total(), entries);
        return 1;
    }

    struct Typed {
        const char* name;
        std::string text;
    };
    const Typed typed[] = {{"substring", "asset_049999_some"}, {"glob", "*folder_1*/asset_0*7_*.alo"}};
    std::printf("{\"entries\":%zu,\"list_ms\":%.1f,\"filters\":[\n", entries, listMs);
    for (size_t t = 0; t < 2; ++t) {
        std::vector<double> modelMs, viewMs;
        size_t lastVisible = 0;
        for (int r = 0; r < runs; ++r) {
            for (size_t n = 1; n <= typed[t].text.size(); ++n) { // one keystroke at a time
                const QString text = QString::fromStdString(typed[t].text.substr(0, n));
                t0 = now();
                model.setFilter(text);
                const double m = now() - t0;
                if (model.visibleFiles() <= 500) view.expandAll();
                view.doItemsLayout();
                app.processEvents();
                viewMs.push_back((now() - t0) * 1e3);
                modelMs.push_back(m * 1e3);
                lastVisible = model.visibleFiles();
            }
            model.setFilter(QString());
            view.collapseAll();
        }
        std::sort(modelMs.begin(), modelMs.end());
        std::sort(viewMs.begin(), viewMs.end());
        std::printf("{\"kind\":\"%s\",\"text\":\"%s\",\"keystrokes\":%zu,\"matches_last\":%zu,"
                    "\"model_ms_median\":%.2f,\"model_ms_max\":%.2f,\"with_view_ms_median\":%.2f,"
                    "\"with_view_ms_max\":%.2f}%s\n",
                    typed[t].name, typed[t].text.c_str(), modelMs.size(), lastVisible, modelMs[modelMs.size() / 2],
                    modelMs.back(), viewMs[viewMs.size() / 2], viewMs.back(), t == 0 ? "," : "");
    }
    std::printf("]}\n");
    fs::remove(path);
    return 0;
}
