// Game objects in the view: an EaW hardpoint's Model_To_Attach drawn at its Attachment_Bone of the hull, and gone
// when the hardpoint's "destroyed" state is shown (core/objects/object_states.h -> SceneView attachments).
#include "object_fixtures.h"
#include "render_harness.h"

#include "objects/object_db.h"
#include "objects/object_states.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

using namespace rs;
using namespace rs::test;

namespace {

// Pixels of the decals' blue (kDecalBlue).
int bluePixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            if (c.blue() > 110 && c.red() < 70 && c.green() < 90 && c.blue() > 2 * c.green()) ++n;
        }
    return n;
}

// Pixels of the turret's red.
int redPixels(const QImage& img, QRect* box = nullptr) {
    int n = 0;
    QRect b;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            if (c.red() > 120 && c.green() < 70 && c.blue() < 70 && c.red() > 2 * c.green()) {
                ++n;
                b = b.united(QRect(x, y, 1, 1));
            }
        }
    if (box) *box = b;
    return n;
}

render::ViewOptions plain(std::shared_ptr<const Resolver> r) {
    render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.resolver = std::move(r);
    return o;
}

} // namespace

TEST_CASE("object: a hardpoint's model is drawn at its bone and hidden in its destroyed state", "[render][objects]") {
    EawObjectInstall inst;
    const auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {inst.root()}));
    const auto resolver = std::make_shared<const Resolver>(table);
    const auto db = objects::ObjectDb::load(*table);
    const objects::ModelProbe probe = objects::documentProbe(*table);
    const objects::AssembledObject o = db->assemble("Test_Cruiser", probe);
    const auto states = objects::objectStates(*db, *table, o, probe);
    REQUIRE(states.size() >= 3);
    CHECK(states[0].label == "intact");
    CHECK(states[1].label == "HP_Turret destroyed");

    auto& v = view();
    v.setOptions(plain(resolver));
    auto show = [&](const objects::ObjectState& s, size_t attachments) {
        const objects::LoadedState ls = objects::loadState(*resolver, s);
        INFO(s.label);
        REQUIRE(ls.model);
        REQUIRE(ls.attachments.size() == attachments);
        std::vector<render::Attachment> a;
        for (const auto& at : ls.attachments)
            a.push_back({at.model, at.bone});
        v.setModel(ls.model, QString::fromStdString(ls.path), a);
        CHECK(v.attachmentsDrawn() == int(attachments));
        v.setCameraAngles(30.0f, 25.0f);
        return grab();
    };
    const QImage intact = show(states[0], 1);
    REQUIRE_FALSE(intact.isNull());
    QRect turret;
    const int red = redPixels(intact, &turret);
    INFO("red pixels " << red);
    CHECK(red > 150);

    // The same turret baked into the hull on HP_Bone draws the same red pixels: the attachment hangs at its bone.
    v.setModel(std::make_shared<Model>(objectHull(true)), QStringLiteral("reference.alo"));
    v.setCameraAngles(30.0f, 25.0f);
    const QImage reference = grab();
    QRect refBox;
    const int refRed = redPixels(reference, &refBox);
    INFO("reference red " << refRed << " box " << refBox.x() << "," << refBox.y() << " attached box " << turret.x()
                          << "," << turret.y());
    CHECK(std::abs(refRed - red) < red / 10 + 20);
    CHECK(std::abs(refBox.center().x() - turret.center().x()) <= 3);
    CHECK(std::abs(refBox.center().y() - turret.center().y()) <= 3);

    // HP_Turret destroyed: its attachment is gone, the hull stays.
    const QImage destroyed = show(states[1], 0);
    REQUIRE_FALSE(destroyed.isNull());
    CHECK(redPixels(destroyed) == 0);
    CHECK(countDifferent(destroyed, QColor(48, 52, 60)) > 300);
}

TEST_CASE("object: a missing model or bone is reported, not attached", "[render][objects]") {
    EawObjectInstall inst;
    const auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {inst.root()}));
    const auto resolver = std::make_shared<const Resolver>(table);
    const auto db = objects::ObjectDb::load(*table);
    REQUIRE(db->find("Test_Cruiser")->side == "Empire");
    const objects::ModelProbe probe = objects::documentProbe(*table);
    const auto states = objects::objectStates(*db, *table, db->assemble("Broken_Ship", probe), probe);
    const objects::LoadedState ls = objects::loadState(*resolver, states.front());
    CHECK_FALSE(ls.model);
    std::string all;
    for (const auto& m : ls.missing)
        all += m + "\n";
    INFO(all);
    CHECK(all.find("MISSING.ALO") != std::string::npos);
    CHECK(all.find("No_Such_Bone") != std::string::npos);
}

TEST_CASE("object: a hardpoint's damage decal is drawn only in the state where it is destroyed", "[render][objects]") {
    // Issue 38: the meshes a hardpoint names as its <Damage_Decal> were drawn over the intact hull.
    EawDecalInstall inst;
    const auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {inst.root()}));
    const auto resolver = std::make_shared<const Resolver>(table);
    const auto db = objects::ObjectDb::load(*table);
    const objects::ModelProbe probe = objects::documentProbe(*table);
    const auto states = objects::objectStates(*db, *table, db->assemble("Decal_Cruiser", probe), probe);
    auto& v = view();
    v.setOptions(plain(resolver));
    auto shoot = [&](const std::string& label) {
        for (const objects::ObjectState& s : states)
            if (s.label == label) {
                const objects::LoadedState ls = objects::loadState(*resolver, s);
                REQUIRE(ls.model);
                std::vector<render::Attachment> a;
                for (const auto& at : ls.attachments)
                    a.push_back({at.model, at.bone});
                v.setModel(ls.model, QString::fromStdString(ls.path), a);
                v.setCameraAngles(20.0f, 60.0f); // from above: the decals lie on the hull's top
                return grab();
            }
        FAIL("no state " << label);
        return QImage();
    };
    const QImage intact = shoot("intact"), deck = shoot("HP_Deck destroyed"), damaged = shoot("damaged");
    REQUIRE_FALSE(intact.isNull());
    REQUIRE_FALSE(deck.isNull());
    REQUIRE_FALSE(damaged.isNull());
    const int none = bluePixels(intact), one = bluePixels(deck), both = bluePixels(damaged);
    INFO("blue pixels: intact " << none << ", HP_Deck destroyed " << one << ", damaged " << both);
    CHECK(none == 0);
    CHECK(one > 50);
    CHECK(both > one + 100);                                 // HP_Turret's decal too
    CHECK(countDifferent(intact, QColor(48, 52, 60)) > 300); // the hull is drawn
}
