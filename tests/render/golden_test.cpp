// Golden images of the built-in demo model, rendered by the rigscope binary itself (headless screenshot mode)
// and compared with tests/render/golden/*.png with a tolerance (software GL output varies slightly between
// Mesa versions). Regenerate with tests/render/make_golden.sh.
#include "render_harness.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

namespace {

struct Case {
    QString name;
    QStringList args;
};

QList<Case> cases() {
    QList<Case> out;
    QFile f(QString::fromStdString(rs::test::goldenDir()) + "/../golden_cases.txt");
    if (!f.open(QIODevice::ReadOnly)) return out;
    QTextStream ts(&f);
    while (!ts.atEnd()) {
        const QString line = ts.readLine().trimmed();
        if (line.isEmpty() || line.startsWith('#')) continue;
        QStringList parts = line.split(' ', Qt::SkipEmptyParts);
        Case c{parts.takeFirst(), parts};
        out << c;
    }
    return out;
}

} // namespace

TEST_CASE("demo model matches the golden images", "[render][golden]") {
    const QList<Case> all = cases();
    REQUIRE(all.size() >= 3);
    QTemporaryDir tmp;
    REQUIRE(tmp.isValid());
    for (const Case& c : all) {
        INFO("case " << c.name.toStdString());
        const QString out = tmp.filePath(c.name + ".png");
        QProcess p;
        p.start(RIGSCOPE_BIN, QStringList{"--screenshot", out} + c.args);
        REQUIRE(p.waitForFinished(90000));
        INFO(p.readAllStandardError().toStdString());
        REQUIRE(p.exitCode() == 0);
        QImage got(out), want(QString::fromStdString(rs::test::goldenDir()) + "/" + c.name + ".png");
        REQUIRE_FALSE(got.isNull());
        REQUIRE_FALSE(want.isNull());
        REQUIRE(got.size() == want.size());
        got = got.convertToFormat(QImage::Format_RGB32);
        want = want.convertToFormat(QImage::Format_RGB32);
        const int changed = rs::test::countChanged(got, want, 40);
        const double mean = rs::test::meanDifference(got, want);
        INFO("pixels off by > 40: " << changed << ", mean abs difference " << mean);
        CHECK(changed < got.width() * got.height() / 100);
        CHECK(mean < 2.0);
    }
}

TEST_CASE("screenshot mode exit codes", "[render][cli]") {
    QTemporaryDir tmp;
    auto run = [&](const QStringList& args) {
        QProcess p;
        p.start(RIGSCOPE_BIN, args);
        REQUIRE(p.waitForFinished(90000));
        return std::make_pair(p.exitCode(), QString::fromLocal8Bit(p.readAllStandardError()));
    };
    auto [usageRc, usageErr] = run({"--screenshot", tmp.filePath("a.png"), "--size", "12"});
    CHECK(usageRc == 2);
    auto [missingRc, missingErr] = run({"--screenshot", tmp.filePath("b.png"), tmp.filePath("nope.alo")});
    CHECK(missingRc == 1);
    CHECK(missingErr.count('\n') == 1);
    QFile bad(tmp.filePath("bad.alo"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray("\x00\x02\x00\x00\xff\xff\xff\x7f garbage", 16));
    bad.close();
    auto [badRc, badErr] = run({"--screenshot", tmp.filePath("c.png"), tmp.filePath("bad.alo")});
    CHECK(badRc == 1);
    CHECK(badErr.count('\n') == 1);
    CHECK_FALSE(QFile::exists(tmp.filePath("c.png")));
}
