// The freedesktop thumbnail cache (ui/thumbnail_cache.h): key, PNG chunks, permissions, atomic writes, stale and
// failed entries, archive entries, the cache shared with the installed thumbnailer; the pictures of every kind
// (ui/thumbnail_render.h) with pixel checks; rigscope --screenshot and the thumbnailer of files without a model.
#define CATCH_CONFIG_RUNNER
#include "skip.h"

#include "particle_fixtures.h"
#include "thumbnail_cache.h"
#include "thumbnail_fixtures.h"
#include "thumbnail_render.h"
#include "vfs_fixtures.h"

#include "alamo/particle_writer.h"
#include "particles/particle_preview.h"
#include "resolve/resolver.h"
#include "vfs/archive_writer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <utime.h>

using namespace rs;
using namespace rs::thumbs;
namespace fs = std::filesystem;

namespace {

// tEXt chunks of PNG bytes, read from the raw chunk list (what any PNG reader sees).
std::map<std::string, std::string> textChunks(const QByteArray& png) {
    std::map<std::string, std::string> out;
    int at = 8;
    while (at + 12 <= png.size()) {
        const auto len = uint32_t(uint8_t(png[at]) << 24 | uint8_t(png[at + 1]) << 16 | uint8_t(png[at + 2]) << 8 |
                                  uint8_t(png[at + 3]));
        const QByteArray type = png.mid(at + 4, 4);
        const QByteArray body = png.mid(at + 8, int(len));
        if (type == "tEXt") {
            const int nul = body.indexOf('\0');
            out[body.left(nul).toStdString()] = body.mid(nul + 1).toStdString();
        }
        at += 12 + int(len);
    }
    return out;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void setMtime(const std::string& path, time_t t) {
    utimbuf u{t, t};
    REQUIRE(::utime(path.c_str(), &u) == 0);
}

int64_t mtimeOf(const std::string& path) {
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return int64_t(st.st_mtime);
}

QImage solid(int w, int h, QColor c) {
    QImage img(w, h, QImage::Format_ARGB32);
    img.fill(c);
    return img;
}

struct Coverage {
    int count = 0;
    QRect box;
    QPointF centroid;
};
// Pixels with alpha > 0 (or, for opaque images, pixels matching `pred`).
template <class Pred> Coverage coverage(const QImage& img, Pred pred) {
    Coverage c;
    double sx = 0, sy = 0;
    int x0 = img.width(), y0 = img.height(), x1 = -1, y1 = -1;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (pred(img.pixelColor(x, y))) {
                ++c.count;
                sx += x;
                sy += y;
                x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
            }
    if (c.count) {
        c.box = QRect(QPoint(x0, y0), QPoint(x1, y1));
        c.centroid = QPointF(sx / c.count, sy / c.count);
    }
    return c;
}

bool opaque(const QColor& c) { return c.alpha() > 128; }
bool skeletonGreen(const QColor& c) { return c.alpha() > 128 && c.green() > 180 && c.red() < 160 && c.blue() < 200; }

struct TempDir {
    QTemporaryDir dir;
    fs::path path() const { return fs::path(dir.path().toStdString()); }
};

} // namespace

TEST_CASE("cache: the MD5 name of the standard's example URI") {
    // Thumbnail Managing Standard, "Thumbnail Saving": file:///home/jens/photos/me.png.
    CHECK(keyName("file:///home/jens/photos/me.png") == QStringLiteral("c6ee772d9e49320e97ec29a7eb5b1697.png"));
}

TEST_CASE("cache: file URIs are escaped like GLib's g_filename_to_uri") {
    CHECK(fileUri(QStringLiteral("/no/such/dir/a b#c%d;e[f]?g.alo")) ==
          QByteArray("file:///no/such/dir/a%20b%23c%25d%3Be%5Bf%5D%3Fg.alo"));
    CHECK(fileUri(QString::fromUtf8("/no/such/Ü_(x)+y,z=w@v~$!'*&:.ALO")) ==
          QByteArray("file:///no/such/%C3%9C_(x)+y,z=w@v~$!'*&:.ALO"));
    CHECK(fileUri(QStringLiteral("/no/such/../such/./x.alo")) == QByteArray("file:///no/such/x.alo"));
}

TEST_CASE("cache: XDG_CACHE_HOME is the cache's parent - a relative one is ignored") {
    const QByteArray old = qgetenv("XDG_CACHE_HOME");
    qputenv("XDG_CACHE_HOME", "/some/where");
    CHECK(ThumbnailCache::defaultRoot() == QStringLiteral("/some/where/thumbnails"));
    qputenv("XDG_CACHE_HOME", "relative/dir");
    CHECK(ThumbnailCache::defaultRoot() == QDir::homePath() + QStringLiteral("/.cache/thumbnails"));
    qunsetenv("XDG_CACHE_HOME");
    CHECK(ThumbnailCache::defaultRoot() == QDir::homePath() + QStringLiteral("/.cache/thumbnails"));
    if (!old.isNull()) qputenv("XDG_CACHE_HOME", old);
}

TEST_CASE("cache: a stored picture carries Thumb::URI - MTime and Size - is 0600 in 0700 folders - found again") {
    TempDir t;
    const fs::path src = t.path() / "models" / "BOX.ALO";
    test::writeFile(src, alamo::writeModel(test::boxModel({1, 1, 1})));
    setMtime(src.string(), 1700000000);
    const ThumbnailCache cache(QString::fromStdString((t.path() / "cache" / "thumbnails").string()));
    const SourceId id = identify(src.string());
    REQUIRE(id.valid());
    CHECK(id.uri == "file://" + QByteArray::fromStdString(fs::canonical(src).string()));
    CHECK(id.mtime == 1700000000);
    CHECK(id.size == int64_t(fs::file_size(src)));

    CHECK(cache.lookup(id, Flavor::Normal) == ThumbnailCache::State::Miss);
    QString why;
    REQUIRE(cache.store(id, Flavor::Normal, solid(300, 150, Qt::red), &why));
    // The file the standard names: <root>/normal/<md5 of the URI>.png.
    const QString md5 = QString::fromLatin1(QCryptographicHash::hash(id.uri, QCryptographicHash::Md5).toHex());
    const QString file = cache.root() + "/normal/" + md5 + ".png";
    CHECK(cache.pathFor(id.uri, Flavor::Normal) == file);
    const QByteArray png = readAll(file);
    REQUIRE(!png.isEmpty());
    const auto text = textChunks(png);
    CHECK(text.at("Thumb::URI") == id.uri.toStdString());
    CHECK(text.at("Thumb::MTime") == "1700000000");
    CHECK(text.at("Thumb::Size") == std::to_string(fs::file_size(src)));
    QImage back;
    REQUIRE(back.loadFromData(png, "PNG"));
    CHECK(back.size() == QSize(128, 64)); // scaled to the flavour, aspect kept
    CHECK(back.pixelColor(64, 32) == QColor(Qt::red));

    struct stat st {};
    REQUIRE(::stat(QFile::encodeName(file).constData(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    REQUIRE(::stat(QFile::encodeName(cache.root() + "/normal").constData(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    REQUIRE(::stat(QFile::encodeName(cache.root()).constData(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    // Written under a temporary name and renamed: nothing else is left in the folder.
    CHECK(QDir(cache.root() + "/normal").entryList(QDir::Files | QDir::Hidden) == QStringList{md5 + ".png"});

    QImage hit;
    CHECK(cache.lookup(id, Flavor::Normal, &hit) == ThumbnailCache::State::Hit);
    CHECK(hit.size() == QSize(128, 64));
    CHECK(cache.lookup(id, Flavor::Large) == ThumbnailCache::State::Miss); // another flavour, another folder
}

TEST_CASE("cache: a stale picture (the file changed) misses and is made again") {
    TempDir t;
    const fs::path src = t.path() / "X.ALO";
    test::writeFile(src, alamo::writeModel(test::boxModel({1, 1, 1})));
    setMtime(src.string(), 1600000000);
    const ThumbnailCache cache(QString::fromStdString((t.path() / "thumbnails").string()));
    const SourceId before = identify(src.string());
    REQUIRE(cache.store(before, Flavor::Large, solid(256, 256, Qt::red)));
    CHECK(cache.lookup(before, Flavor::Large) == ThumbnailCache::State::Hit);
    setMtime(src.string(), 1600000100);
    const SourceId after = identify(src.string());
    CHECK(after.uri == before.uri);
    CHECK(cache.lookup(after, Flavor::Large) == ThumbnailCache::State::Miss);
    REQUIRE(cache.store(after, Flavor::Large, solid(256, 256, Qt::blue)));
    QImage img;
    REQUIRE(cache.lookup(after, Flavor::Large, &img) == ThumbnailCache::State::Hit);
    CHECK(img.pixelColor(10, 10) == QColor(Qt::blue));
    CHECK(textChunks(readAll(cache.pathFor(after.uri, Flavor::Large))).at("Thumb::MTime") == "1600000100");
    // Same mtime, other size: stale too (Thumb::Size is stored).
    SourceId resized = after;
    resized.size += 1;
    CHECK(cache.lookup(resized, Flavor::Large) == ThumbnailCache::State::Miss);
}

// KDE's thumbnailer saves through QImage::setText, which stores values of 40 characters or more as zTXt.
TEST_CASE("cache: an entry a Qt-based file manager wrote (compressed text chunks) is found") {
    TempDir t;
    const fs::path src = t.path() / "a_rather_long_folder_name_for_the_uri" / "X.ALO";
    test::writeFile(src, {1, 2, 3});
    const ThumbnailCache cache(QString::fromStdString((t.path() / "thumbnails").string()));
    const SourceId id = identify(src.string());
    REQUIRE(id.uri.size() > 40);
    QImage img = solid(128, 128, Qt::green);
    img.setText("Thumb::URI", QString::fromLatin1(id.uri));
    img.setText("Thumb::MTime", QString::number(id.mtime));
    QDir().mkpath(cache.root() + "/normal");
    REQUIRE(img.save(cache.pathFor(id.uri, Flavor::Normal), "PNG"));
    CHECK(readAll(cache.pathFor(id.uri, Flavor::Normal)).contains("zTXtThumb::URI"));
    QImage hit;
    CHECK(cache.lookup(id, Flavor::Normal, &hit) == ThumbnailCache::State::Hit);
    CHECK(hit.pixelColor(1, 1) == QColor(Qt::green));
}

TEST_CASE("cache: a file that cannot be drawn gets a fail entry until it changes") {
    TempDir t;
    const fs::path src = t.path() / "BROKEN.ALO";
    test::writeFile(src, {1, 2, 3, 4});
    setMtime(src.string(), 1500000000);
    const ThumbnailCache cache(QString::fromStdString((t.path() / "thumbnails").string()));
    const SourceId id = identify(src.string());
    REQUIRE(cache.storeFailure(id));
    CHECK(cache.failPathFor(id.uri).startsWith(cache.root() + "/fail/rigscope-"));
    CHECK(cache.failPathFor(id.uri).endsWith("/" + keyName(id.uri)));
    const auto text = textChunks(readAll(cache.failPathFor(id.uri)));
    CHECK(text.at("Thumb::URI") == id.uri.toStdString());
    CHECK(cache.lookup(id, Flavor::Normal) == ThumbnailCache::State::Failed);
    setMtime(src.string(), 1500000001);
    CHECK(cache.lookup(identify(src.string()), Flavor::Normal) == ThumbnailCache::State::Miss);
}

TEST_CASE("cache: a write that cannot happen fails and leaves nothing under the final name") {
    TempDir t;
    const fs::path root = t.path() / "thumbnails";
    test::writeFile(root / "normal", {'x'}); // a file where the folder should be
    const fs::path src = t.path() / "X.ALO";
    test::writeFile(src, {1});
    const ThumbnailCache cache(QString::fromStdString(root.string()));
    QString why;
    CHECK_FALSE(cache.store(identify(src.string()), Flavor::Normal, solid(8, 8, Qt::red), &why));
    CHECK(why.contains("normal"));
    CHECK(fs::is_regular_file(root / "normal"));
    CHECK(std::distance(fs::directory_iterator(root), fs::directory_iterator()) == 1);
}

TEST_CASE("cache: an archive entry is keyed by the archive's URI and the entry's name - with the archive's mtime") {
    TempDir t;
    const fs::path meg = t.path() / "Data" / "Models.meg";
    test::writeFile(meg,
                    vfs::writeMeg(1, {{"Data\\Art\\Models\\Box.alo", alamo::writeModel(test::boxModel({1, 1, 1}))}}));
    setMtime(meg.string(), 1650000000);
    const SourceId id = identify(meg.string() + ":Data\\Art\\Models\\Box.alo");
    REQUIRE(id.valid());
    CHECK(id.uri == "file://" + QByteArray::fromStdString(fs::canonical(meg).string()) + "#DATA/ART/MODELS/BOX.ALO");
    CHECK(id.mtime == 1650000000);
    CHECK(id.size == int64_t(fs::file_size(meg)));
    // Any spelling of the entry gives the same key.
    CHECK(identify(meg.string() + ":data/art/models/BOX.ALO").uri == id.uri);
    CHECK_FALSE(identify((t.path() / "nothing.meg").string() + ":X.ALO").valid());
}

// The installed thumbnailer and the GUI share the cache: a picture stored by rigscope's cache code is what the
// thumbnailer hands the file manager, and one the thumbnailer made is found by rigscope under the same key.
TEST_CASE("cache: shared with rigscope-thumbnailer in both directions") {
    TempDir t;
    const fs::path a = t.path() / "A.ALO", b = t.path() / "B.ALO";
    test::writeFile(a, alamo::writeModel(test::boxModel({1, 1, 1})));
    test::writeFile(b, alamo::writeModel(test::boxModel({1, 1, 1})));
    const QString cacheHome = QString::fromStdString((t.path() / "xdg").string());
    const ThumbnailCache cache(cacheHome + "/thumbnails");
    // rigscope -> thumbnailer: a planted picture (all magenta) for A; the thumbnailer must return it, not draw.
    REQUIRE(cache.store(identify(a.string()), Flavor::Normal, solid(128, 128, Qt::magenta)));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CACHE_HOME", cacheHome);
    env.remove("DISPLAY");
    p.setProcessEnvironment(env);
    const QString outA = QString::fromStdString((t.path() / "outA.png").string());
    p.start(RIGSCOPE_THUMBNAILER, {"-s", "128", QString::fromStdString("file://" + a.string()), outA});
    REQUIRE(p.waitForFinished(30000));
    REQUIRE(p.exitCode() == 0);
    QImage got(outA);
    REQUIRE(got.size() == QSize(128, 128));
    CHECK(got.pixelColor(5, 5) == QColor(Qt::magenta));
    CHECK(got.pixelColor(64, 64) == QColor(Qt::magenta));
    // thumbnailer -> rigscope: B is drawn and stored at the key a file manager computes: MD5("file://" + path).
    const QString outB = QString::fromStdString((t.path() / "outB.png").string());
    p.start(RIGSCOPE_THUMBNAILER, {"-s", "128", QString::fromStdString(b.string()), outB});
    REQUIRE(p.waitForFinished(30000));
    REQUIRE(p.exitCode() == 0);
    const QByteArray uriB = "file://" + QByteArray::fromStdString(fs::canonical(b).string());
    const QString md5 = QString::fromLatin1(QCryptographicHash::hash(uriB, QCryptographicHash::Md5).toHex());
    const QString stored = cacheHome + "/thumbnails/normal/" + md5 + ".png";
    REQUIRE(QFile::exists(stored));
    CHECK(textChunks(readAll(stored)).at("Thumb::URI") == uriB.toStdString());
    CHECK(textChunks(readAll(stored)).at("Thumb::MTime") == std::to_string(mtimeOf(b.string())));
    QImage fromCache;
    CHECK(cache.lookup(identify(b.string()), Flavor::Normal, &fromCache) == ThumbnailCache::State::Hit);
    CHECK(fromCache == QImage(outB).convertToFormat(fromCache.format()));
    // A file it cannot draw: exit 1, no output, a fail entry; the second call is refused from the cache.
    const fs::path bad = t.path() / "BAD.ALO";
    test::writeFile(bad, {0, 2, 0, 0, 9, 9, 9, 9});
    const QString outBad = QString::fromStdString((t.path() / "bad.png").string());
    p.start(RIGSCOPE_THUMBNAILER, {QString::fromStdString(bad.string()), outBad});
    REQUIRE(p.waitForFinished(30000));
    CHECK(p.exitCode() == 1);
    CHECK_FALSE(QFile::exists(outBad));
    CHECK(cache.lookup(identify(bad.string()), Flavor::Normal) == ThumbnailCache::State::Failed);
}

TEST_CASE("render: a model is drawn framed - its silhouette centred and as tall as the box") {
    TempDir t;
    const fs::path tall = t.path() / "TALL.ALO", wide = t.path() / "WIDE.ALO";
    test::writeFile(tall, alamo::writeModel(test::boxModel({1, 1, 4}, {5, 5, 10})));
    test::writeFile(wide, alamo::writeModel(test::boxModel({4, 4, 0.5f}, {-3, 2, 0})));
    const Resolver r;
    const Picture pt = renderAsset(r, tall.string(), 128);
    REQUIRE(pt.image.size() == QSize(128, 128));
    CHECK(pt.kind == Kind::Model);
    const Coverage ct = coverage(pt.image, opaque);
    CHECK(ct.count > 128 * 128 / 20); // not blank
    // Framed on the box wherever it is: centred; Z up, so the tall box stands upright.
    CHECK(std::abs(ct.centroid.x() - 64) < 10);
    CHECK(std::abs(ct.centroid.y() - 64) < 10);
    CHECK(ct.box.height() > 2 * ct.box.width());
    CHECK(pt.image.pixelColor(2, 2).alpha() == 0); // transparent background
    // Its colour (Diffuse 0.8, 0.3, 0.2), shaded.
    const QColor mid = pt.image.pixelColor(int(ct.centroid.x()), int(ct.centroid.y()));
    CHECK(mid.red() > mid.green());
    CHECK(mid.green() > mid.blue() - 5);
    const Coverage cw = coverage(renderAsset(r, wide.string(), 128).image, opaque);
    CHECK(cw.box.width() > cw.box.height());
}

TEST_CASE("render: a clip alone is its model's skeleton posed at the middle of the clip") {
    TempDir t;
    test::writeFile(t.path() / "STICK.ALO", alamo::writeModel(test::stickModel()));
    test::writeFile(t.path() / "STICK_MOVE_00.ALA", alamo::writeClip(test::stickClip()));
    const Resolver r;
    const std::string clip = (t.path() / "STICK_MOVE_00.ALA").string();
    const Picture mid = renderAsset(r, clip, 128);
    REQUIRE_FALSE(mid.image.isNull());
    CHECK(mid.kind == Kind::Clip);
    const Coverage cm = coverage(mid.image, skeletonGreen);
    CHECK(cm.count > 40);
    // Frame 0: Tip straight above Root (a vertical bone); the middle (frame 2): Tip at x = 2, a slanted bone.
    const Coverage c0 = coverage(renderAsset(r, clip, 128, 0.0f).image, skeletonGreen);
    CHECK(c0.box.width() < c0.box.height() / 2);
    CHECK(cm.box.width() > cm.box.height() / 2);
    // The model's box is not drawn: only the skeleton's colour.
    CHECK(coverage(mid.image, [](const QColor& c) {
              return c.alpha() > 128 && c.red() > 150 && c.green() < 120;
          }).count == 0);
}

TEST_CASE("render: a clip without its model shows the bones its tracks name") {
    TempDir t;
    test::writeFile(t.path() / "ORPHAN_MOVE_00.ALA", alamo::writeClip(test::stickClip()));
    const Picture p = renderAsset(Resolver(), (t.path() / "ORPHAN_MOVE_00.ALA").string(), 96);
    REQUIRE_FALSE(p.image.isNull());
    CHECK(p.kind == Kind::Clip);
    CHECK(coverage(p.image, skeletonGreen).count > 10);
}

TEST_CASE("render: clips inside archives - a W3D clip on its hierarchy - an Alamo clip on its model") {
    test::FakeInstall inst;
    const Resolver r;
    const Picture w3d = renderAsset(r, inst.bfme2 + "/W3D.big:art\\w3d\\te\\test_idla.w3d", 96);
    REQUIRE_FALSE(w3d.image.isNull());
    CHECK(w3d.kind == Kind::Clip);
    CHECK(coverage(w3d.image, skeletonGreen).count > 10);
    const Picture ala = renderAsset(r, inst.eaw + "/Data/Models.meg:DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA", 96);
    REQUIRE_FALSE(ala.image.isNull());
    CHECK(ala.kind == Kind::Clip);
    CHECK(coverage(ala.image, skeletonGreen).count > 10);
}

TEST_CASE("render: an AMAL bank is its 2D stage at tick 0") {
    TempDir t;
    test::writeFile(t.path() / "BANK.ABK", test::amalBank());
    const Picture p = renderAsset(Resolver(), (t.path() / "BANK.ABK").string(), 128);
    REQUIRE_FALSE(p.image.isNull());
    CHECK(p.kind == Kind::Amal);
    // The stage's background, the track (light blue) going right then down, the object (red) at its start.
    const Coverage stage = coverage(p.image, [](const QColor& c) { return c == QColor(0x20, 0x22, 0x2a); });
    CHECK(stage.count > 128 * 90 / 2);
    const Coverage track =
        coverage(p.image, [](const QColor& c) { return c.blue() > 200 && c.green() > 150 && c.red() < 140; });
    CHECK(track.count > 30);
    CHECK(track.box.width() > 20);
    CHECK(track.box.height() > 15);
    const Coverage object =
        coverage(p.image, [](const QColor& c) { return c.red() > 200 && c.green() < 100 && c.blue() < 100; });
    CHECK(object.count > 5);
    CHECK(object.centroid.x() < track.centroid.x()); // at the start: left of the track's middle
}

TEST_CASE("render: a texture is itself - scaled down to fit and never up") {
    TempDir t;
    test::writeKindsFolder(t.path());
    const Resolver r;
    for (const char* name : {"TWO.TGA", "TWO.DDS"}) {
        INFO(name);
        const std::string path = (t.path() / "Textures" / name).string();
        const Picture p = renderAsset(r, path, 128);
        REQUIRE(p.kind == Kind::Texture);
        REQUIRE(p.image.size() == QSize(64, 32));
        CHECK(p.image.pixelColor(10, 10) == QColor(255, 0, 0));
        CHECK(p.image.pixelColor(50, 20) == QColor(0, 0, 255));
        CHECK(p.image.pixelColor(3, 5) == QColor(0, 255, 0));
        const Picture small = renderAsset(r, path, 32);
        REQUIRE(small.image.size() == QSize(32, 16));
        CHECK(small.image.pixelColor(4, 8).red() > 200);
        CHECK(small.image.pixelColor(28, 8).blue() > 200);
    }
}

TEST_CASE("render: what cannot be drawn says why") {
    TempDir t;
    test::writeFile(t.path() / "BAD.ALO", {0, 2, 0, 0, 1, 1, 1, 1});
    const Picture p = renderAsset(Resolver(), (t.path() / "BAD.ALO").string(), 64);
    CHECK(p.image.isNull());
    CHECK(p.error.find("BAD.ALO") != std::string::npos);
    const Picture missing = renderAsset(Resolver(), (t.path() / "NONE.ALO").string(), 64);
    CHECK(missing.image.isNull());
    CHECK_FALSE(missing.error.empty());
}

// rigscope --screenshot and the thumbnailer of files without a model: an AMAL bank, a clip alone, a texture.
TEST_CASE("screenshot and thumbnailer: AMAL banks - clips and textures get a picture") {
    TempDir t;
    test::writeKindsFolder(t.path());
    struct Case {
        const char* file;
        std::function<bool(const QColor&)> pixel; // what must be in the picture
    };
    const std::vector<Case> cases = {
        {"Amal/BANK.ABK", [](const QColor& c) { return c.blue() > 200 && c.green() > 150 && c.red() < 140; }},
        {"Models/STICK_MOVE_00.ALA", skeletonGreen},
        {"Textures/TWO.TGA", [](const QColor& c) { return c == QColor(255, 0, 0); }},
    };
    for (const Case& c : cases) {
        INFO(c.file);
        const QString in = QString::fromStdString((t.path() / c.file).string());
        const QString shot = QString::fromStdString((t.path() / "shot.png").string());
        QProcess p;
        p.start(RIGSCOPE_BIN, {"--screenshot", shot, "--size", "320x240", in});
        REQUIRE(p.waitForFinished(60000));
        INFO(p.readAllStandardError().toStdString());
        REQUIRE(p.exitCode() == 0);
        const QImage img(shot);
        REQUIRE(img.size() == QSize(320, 240));
        CHECK(coverage(img, c.pixel).count > 10);
        QFile::remove(shot);

        const QString thumb = QString::fromStdString((t.path() / "thumb.png").string());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        p.setProcessEnvironment(env);
        p.start(RIGSCOPE_THUMBNAILER, {"--no-cache", "-s", "128", in, thumb});
        REQUIRE(p.waitForFinished(30000));
        REQUIRE(p.exitCode() == 0);
        const QImage ti(thumb);
        CHECK(std::max(ti.width(), ti.height()) <= 128);
        CHECK(coverage(ti, c.pixel).count > 5);
        QFile::remove(thumb);
    }
}

namespace {

// A fountain: 20 particles a second living 2 s, born in a 2-unit sphere and rising at 1 unit/s, size 0.6, one
// colour (0.1, 0.9, 0.2) (no colour texture in the folder: the soft round sprite), blended as `blend`.
ParticleSystem fountain(ParticleBlend blend = ParticleBlend::Additive) {
    ParticleSystem s;
    s.name = "p_test_fountain";
    ParticleEmitter e = test::continuousEmitter("fountain", 20, 2.0f);
    e.blend = blend;
    e.params.blendMode = uint32_t(blend);
    e.position.shape = ParticleVolume::Shape::Sphere;
    e.position.rawShape = 3;
    e.position.sphereRadius = 2.0f;
    e.velocity.point = {0.0f, 0.0f, 1.0f};
    e.red = test::constantTrack(0.1f);
    e.green = test::constantTrack(0.9f);
    e.blue = test::constantTrack(0.2f);
    e.size = test::constantTrack(0.6f);
    s.emitters = {e};
    return s;
}

bool fountainGreen(const QColor& c) {
    return c.alpha() > 40 && c.green() > 150 && c.green() > 2 * c.red() + 30 && c.green() > 2 * c.blue() + 30;
}

} // namespace

TEST_CASE("render: a particle system alone is its particles when they show most - in its emitter's colour") {
    TempDir t;
    const fs::path file = t.path() / "P_FOUNTAIN.ALO";
    test::writeFile(file, alamo::writeParticleSystem(fountain()));
    const Picture p = renderAsset(Resolver(), file.string(), 128);
    INFO(p.error);
    REQUIRE(p.kind == Kind::Particles);
    REQUIRE_FALSE(p.image.isNull());
    CHECK(p.image.width() == 128);
    CHECK(p.image.height() == 128);
    // Green sprites on a transparent background, nothing of another hue.
    const Coverage green = coverage(p.image, fountainGreen);
    const Coverage any = coverage(p.image, [](const QColor& c) { return c.alpha() > 40; });
    INFO("green " << green.count << " of " << any.count << " drawn pixels");
    CHECK(green.count > 300);
    CHECK(green.count >= any.count * 9 / 10);
    CHECK(p.image.pixelColor(0, 0).alpha() == 0);
    // Framed on the particles: they spread over most of the picture, around its middle.
    CHECK(any.box.width() > 80);
    CHECK(any.box.height() > 80);
    CHECK(std::abs(any.centroid.x() - 64.0) < 20.0);
    CHECK(std::abs(any.centroid.y() - 64.0) < 20.0);
}

TEST_CASE("render: a burst gone after 0.5 s is shown while it lives - an explosion at its biggest") {
    ParticleSystem s = fountain(ParticleBlend::Alpha);
    ParticleEmitter& e = s.emitters[0];
    e.params.particlesPerSecond = 0;
    e.params.useBursts = true;
    e.params.particlesPerBurst = 30;
    e.params.burstDelay = 1.0f;
    e.params.burstCount = 1;
    e.params.lifetime = 0.5f;                   // one burst at 0, gone at 0.5 s
    e.size.keys = {{0.0f, 0.2f}, {1.0f, 2.0f}}; // growing to 10 times its birth size
    const double t = particlePreviewTime(s);    // of 1 s and k/32 s (the loop is 1 s): 15/32 s
    CHECK(t > 0.4);
    CHECK(t < 0.5);
    TempDir dir;
    const fs::path file = dir.path() / "P_BURST.ALO";
    test::writeFile(file, alamo::writeParticleSystem(s));
    const Picture p = renderAsset(Resolver(), file.string(), 96);
    INFO(p.error);
    REQUIRE_FALSE(p.image.isNull());
    CHECK(coverage(p.image, fountainGreen).count > 50);
}

TEST_CASE("render: a particle system of distortion emitters only gets no picture - and says so") {
    TempDir t;
    const fs::path file = t.path() / "P_HEAT.ALO";
    test::writeFile(file, alamo::writeParticleSystem(fountain(ParticleBlend::Heat)));
    const Picture p = renderAsset(Resolver(), file.string(), 64);
    CHECK(p.image.isNull());
    CHECK(p.noPicture);
    CHECK(p.error.find("P_HEAT.ALO") != std::string::npos);
}

TEST_CASE("screenshot and thumbnailer: a particle system gets a picture in its emitter's colour") {
    TempDir t;
    const fs::path file = t.path() / "P_FOUNTAIN.ALO";
    test::writeFile(file, alamo::writeParticleSystem(fountain()));
    const QString in = QString::fromStdString(file.string());
    // rigscope --screenshot (the Qt3D view, over its grey background) at the same moment: green sprites.
    const QString shot = QString::fromStdString((t.path() / "shot.png").string());
    QProcess p;
    p.start(RIGSCOPE_BIN, {"--screenshot", shot, "--size", "320x240", "--no-grid", in});
    REQUIRE(p.waitForFinished(60000));
    INFO(p.readAllStandardError().toStdString());
    REQUIRE(p.exitCode() == 0);
    const QImage img(shot);
    REQUIRE(img.size() == QSize(320, 240));
    CHECK(coverage(img, [](const QColor& c) { return c.green() > c.red() + 60 && c.green() > c.blue() + 60; }).count >
          300);
    // The installed thumbnailer (no display): the software picture.
    const QString thumb = QString::fromStdString((t.path() / "thumb.png").string());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    p.setProcessEnvironment(env);
    p.start(RIGSCOPE_THUMBNAILER, {"--no-cache", "-s", "128", in, thumb});
    REQUIRE(p.waitForFinished(30000));
    INFO(p.readAllStandardError().toStdString());
    REQUIRE(p.exitCode() == 0);
    const QImage ti(thumb);
    CHECK(std::max(ti.width(), ti.height()) <= 128);
    CHECK(coverage(ti, fountainGreen).count > 300);
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    return rs::test::exitCode(Catch::Session().run(argc, argv));
}
