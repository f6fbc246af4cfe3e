// rigscope-cli thumbnails SOURCE -o DIR [--size N] [--sheet FILE.png] [--threads N] [--game DIR]... [--mod DIR]...
// Pictures of every model, particle system, clip, AMAL bank and texture of SOURCE (a folder, a .meg/.big archive) or,
// without SOURCE, of the mounted --game/--mod folders, drawn by the software renderer of the thumbnails
// (ui/thumbnail_render.h: no display, no GPU) on a pool of threads, one PNG per asset under DIR named after its path
// inside the source (DATA/ART/MODELS/X.ALO -> DIR/DATA/ART/MODELS/X.ALO.png; names that would leave DIR are refused),
// and a contact sheet (the pictures in a grid with their names) with --sheet. DIR is created (with its parents) when
// missing. Each file is written to a temporary name beside it and renamed. Exit status: 0 pictures written (assets
// that could not be drawn are listed as failed; particle systems with only distortion emitters are skipped), 1
// nothing could be drawn or the contact sheet could not be written, 2 usage.
#include "commands.h"

#ifdef RIGSCOPE_HAVE_THUMBNAILS
#include "thumbnail_render.h"

#include <QFont>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rs::cli {

static const char* const kThumbnailsHelp =
    "Usage: rigscope-cli thumbnails [SOURCE] -o DIR [--size N] [--sheet FILE.png] [--threads N] [--game DIR]... "
    "[--mod DIR]...\n"
    "Writes a picture of every model (bind pose), particle system (alone, when it shows most), clip (its skeleton\n"
    "posed mid-clip), AMAL bank (its 2D stage) and texture of SOURCE (a folder or a .meg/.big archive) or, without\n"
    "SOURCE, of the --game/--mod folders, to DIR/<path inside the source>.png, at most N x N pixels (default 256).\n"
    "DIR is created when missing. Drawn in software: no display needed.\n"
    "  --sheet FILE  also write a contact sheet: every picture in a grid with its name\n"
    "  --threads N   worker threads (default: every core)\n"
    "Carries on past files that cannot be drawn and lists them. A progress line is drawn on a terminal.\n"
    "Exit status: 0 pictures written (those that could not be drawn are listed as failed; particle systems with\n"
    "only distortion emitters are skipped), 1 nothing could be drawn or the contact sheet not written, 2 usage.\n";

#ifdef RIGSCOPE_HAVE_THUMBNAILS
namespace {

bool isViewable(const std::string& key) {
    const size_t dot = key.rfind('.'), slash = key.find_last_of("/\\");
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
    std::string ext = key.substr(dot);
    for (char& c : ext)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const char* e : {".alo", ".ala", ".w3d", ".bwm", ".al", ".abk", ".amos", ".dds", ".tga"})
        if (ext == e) return true;
    return false;
}

struct Item {
    std::string path;  // what the resolver opens
    std::string rel;   // relative output name (with .png)
    std::string label; // the name on the contact sheet
    QImage image;      // drawn (kept for the sheet)
    std::string error;
    bool skipped = false;
};

bool writePng(const QImage& img, const std::string& path, std::string& why) {
    QSaveFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly)) {
        why = "cannot write " + path + ": " + f.errorString().toStdString();
        return false;
    }
    QImageWriter w(&f, "png");
    if (!w.write(img) || !f.commit()) {
        why = "cannot write " + path + ": " + (w.error() ? w.errorString() : f.errorString()).toStdString();
        f.cancelWriting();
        return false;
    }
    return true;
}

QImage contactSheet(const std::vector<Item>& items, int size, std::string& why) {
    std::vector<const Item*> drawn;
    for (const Item& it : items)
        if (!it.image.isNull()) drawn.push_back(&it);
    if (drawn.empty()) {
        why = "no picture for the contact sheet";
        return {};
    }
    // Cells of (SIZE + 8) x (SIZE + 8 + label), label = text pixel size + 6; columns = ceil(sqrt(n * cellH / cellW)).
    QFont font;
    const int textPx = std::clamp(size / 10, 9, 14), labelH = textPx + 6;
    font.setPixelSize(textPx);
    const QFontMetrics fm(font);
    const int pad = 4, cellW = size + 2 * pad, cellH = size + 2 * pad + labelH;
    const int n = int(drawn.size());
    const int columns = std::max(1, int(std::ceil(std::sqrt(double(n) * cellH / cellW))));
    const int rows = (n + columns - 1) / columns;
    const qint64 w = qint64(columns) * cellW, h = qint64(rows) * cellH;
    if (w > 32767 || h > 32767 || w * h > (qint64(1) << 28)) {
        why = "the contact sheet would be " + std::to_string(w) + "x" + std::to_string(h) +
              " pixels (at most 32767 a side and 268 million pixels): give a smaller --size";
        return {};
    }
    QImage sheet(int(w), int(h), QImage::Format_RGB32);
    sheet.fill(QColor(58, 62, 70));
    QPainter p(&sheet);
    p.setFont(font);
    p.setPen(QColor(230, 230, 230));
    for (int i = 0; i < n; ++i) {
        const int x = (i % columns) * cellW, y = (i / columns) * cellH;
        const QImage& img = drawn[size_t(i)]->image;
        p.drawImage(QPoint(x + pad + (size - img.width()) / 2, y + pad + (size - img.height()) / 2), img);
        const QRect text(x + 2, y + 2 * pad + size, cellW - 4, labelH);
        p.drawText(text, Qt::AlignHCenter | Qt::AlignTop,
                   fm.elidedText(QString::fromStdString(drawn[size_t(i)]->label), Qt::ElideMiddle, text.width()));
    }
    return sheet;
}

} // namespace
#endif

int cmdThumbnails(std::vector<std::string> args) {
    if (wantsHelp(args)) return std::cout << kThumbnailsHelp, 0;
#ifndef RIGSCOPE_HAVE_THUMBNAILS
    (void)args;
    throw UsageError{"thumbnails: this rigscope-cli was built without the GUI libraries (RIGSCOPE_GUI=OFF)"};
#else
    GameMount m;
    takeMountOptions(args, m);
    std::string out, sheet, source;
    int size = 256;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) -> std::string {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        auto number = [&](const char* what, long lo, long hi) {
            const std::string v = next(what);
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || n < lo || n > hi)
                throw UsageError{std::string(what) + " needs a number from " + std::to_string(lo) + " to " +
                                 std::to_string(hi) + ": " + v};
            return n;
        };
        if (a == "-o")
            out = next("-o");
        else if (a == "--size")
            size = int(number("--size", 16, 2048));
        else if (a == "--threads")
            threads = unsigned(number("--threads", 1, 64));
        else if (a == "--sheet")
            sheet = next("--sheet");
        else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else if (source.empty())
            source = a;
        else
            throw UsageError{"more than one SOURCE given"};
    }
    if (out.empty()) throw UsageError{"thumbnails needs -o DIR"};
    if (source.empty() && !m.table) throw UsageError{"thumbnails needs a SOURCE or --game DIR / --mod DIR"};
    std::error_code ec;

    // The assets: the source's entries (a folder or archive as one mount), else every name of the mount.
    std::vector<Item> items;
    std::vector<std::string> refused;
    auto add = [&](const std::string& path, const std::string& name) {
        const std::string rel = safeRelativePath(name);
        if (rel.empty()) {
            refused.push_back(path + ": its name would write outside " + out);
            return;
        }
        Item it;
        it.path = path;
        it.rel = rel + ".png";
        it.label = rel.substr(rel.find_last_of('/') == std::string::npos ? 0 : rel.find_last_of('/') + 1);
        items.push_back(std::move(it));
    };
    if (!source.empty()) {
        if (!fs::exists(source, ec)) throw UsageError{"SOURCE not found: " + source};
        const vfs::MountTable single = vfs::mountSingle(source);
        for (const std::string& w : single.warnings)
            std::cerr << "rigscope-cli: warning: " << w << "\n";
        const vfs::Source& src = *single.mounts()[0].source;
        // What could not be listed is a failure (every asset of SOURCE was asked for); links leading out are not read.
        for (const std::string& u : src.unreadable())
            refused.push_back(u);
        std::vector<const vfs::Entry*> entries;
        for (const vfs::Entry& e : src.entries()) // (links leading out: named in the warnings above)
            if (!e.linkOutside && isViewable(e.key) && src.find(e.key) == &e)
                entries.push_back(&e); // first of duplicate names
        std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->key < b->key; });
        const bool folder = fs::is_directory(source, ec);
        for (const vfs::Entry* e : entries)
            add(folder ? (fs::path(source) / e->name).string() : source + ":" + e->name, e->name);
    } else {
        std::vector<std::pair<std::string, std::string>> found; // key, loadable path
        m.table->forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
            if (isViewable(key) && !m.table->entry(hits.front()).linkOutside)
                found.emplace_back(key, m.table->describe(hits.front()));
        });
        std::sort(found.begin(), found.end());
        for (const auto& [key, path] : found)
            add(path, key);
    }

    makeOutputFolder(out); // after the source is known good: a mistyped command leaves no empty folder

    // Software rendering only: no X server, no GPU.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int qtArgc = 1;
    static char qtName[] = "rigscope-cli";
    static char* qtArgv[] = {qtName, nullptr};
    QGuiApplication app(qtArgc, qtArgv);

    const Resolver& resolver = m.res();
    const bool tty = isatty(STDERR_FILENO);
    const bool keepForSheet = !sheet.empty();
    std::atomic<size_t> next{0}, done{0};
    std::mutex printMutex;
    auto work = [&] {
        for (size_t i; (i = next++) < items.size();) {
            Item& it = items[i];
            const thumbs::Picture pic = thumbs::renderAsset(resolver, it.path, size);
            if (pic.image.isNull()) {
                it.error = pic.error;
                it.skipped = pic.noPicture;
            } else {
                const fs::path file = fs::path(out) / it.rel;
                std::error_code mk;
                fs::create_directories(file.parent_path(), mk);
                std::string why;
                if (!writePng(pic.image, file.string(), why))
                    it.error = why;
                else if (keepForSheet)
                    it.image = pic.image;
            }
            const size_t d = ++done;
            std::lock_guard<std::mutex> lk(printMutex);
            if (tty) {
                std::fprintf(stderr, "\rthumbnails %zu/%zu %-50.50s\x1b[K", d, items.size(), it.rel.c_str());
                std::fflush(stderr);
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<unsigned>(threads, unsigned(std::max<size_t>(items.size(), 1))); ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    if (tty && !items.empty()) std::fprintf(stderr, "\r\x1b[K");

    size_t written = 0, skipped = 0;
    std::vector<std::string> failed = refused;
    for (const Item& it : items) {
        if (it.error.empty())
            ++written;
        else if (it.skipped)
            ++skipped;
        else
            failed.push_back(it.error);
    }
    if (!sheet.empty()) {
        std::string why;
        const QImage img = contactSheet(items, size, why);
        if (img.isNull() || !writePng(img, sheet, why)) failed.push_back("contact sheet: " + why);
    }
    std::printf("%zu thumbnails written to %s, %zu skipped, %zu failed\n", written, out.c_str(), skipped,
                failed.size());
    for (const Item& it : items)
        if (it.skipped) std::printf("skipped: %s\n", it.error.c_str());
    for (const std::string& f : failed)
        std::printf("failed: %s\n", f.c_str());
    // One asset that cannot be drawn does not fail the batch (it is listed); nothing drawn at all, or a contact
    // sheet asked for and not written, does.
    const bool sheetFailed = !sheet.empty() && !failed.empty() && failed.back().rfind("contact sheet: ", 0) == 0;
    return (written == 0 && !failed.empty()) || sheetFailed ? 1 : 0;
#endif
}

} // namespace rs::cli
