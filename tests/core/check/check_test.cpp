// The asset checker (core/check) on writer-made mods: a clean mod has no finding above information, and each
// planted defect is found once, with the right id, file and location.
#include "check/check.h"
#include "check_fixtures.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace rs;
using namespace rs::test;
using Defect = CheckMod::Defect;

namespace {

// The mod over its (bare) game: references are judged (without a game they are ref.base-game notes).
check::Report checkMod(const CheckMod& m, unsigned threads = 2) {
    auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({m.game}, {m.mod}));
    const Resolver r(table);
    check::Options o;
    o.threads = threads;
    return r.mounted() ? check::checkMount(r, o) : check::Report{};
}

std::string dump(const check::Report& r) {
    std::ostringstream s;
    for (const auto& f : r.findings)
        s << check::levelName(f.level) << " " << f.id << " " << f.file << " [" << f.where.str() << "] " << f.message
          << "\n";
    return s.str();
}

// The one finding at warning or above (or, for info-level ids, the one finding with that id); fails otherwise.
check::Finding only(const check::Report& r, const std::string& id) {
    const check::CheckInfo* c = check::findCheck(id);
    REQUIRE(c);
    std::vector<const check::Finding*> hits;
    for (const auto& f : r.findings)
        if (c->level == check::Level::Info ? f.id == id : f.level >= check::Level::Warning) hits.push_back(&f);
    INFO(dump(r));
    REQUIRE(hits.size() == 1);
    CHECK(hits[0]->id == id);
    CHECK(hits[0]->level == c->level);
    return *hits[0]; // a copy: the report is often a temporary
}

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

TEST_CASE("check: a clean writer-made mod has no finding above information") {
    CheckMod m;
    const check::Report r = checkMod(m);
    INFO(dump(r));
    CHECK(r.files >= 5);
    CHECK_FALSE(r.reaches(check::Level::Warning));
    CHECK(r.count(check::Level::Info) == 0); // everything is referenced
}

TEST_CASE("check: one thread and two threads give the same findings") {
    CheckMod m(Defect::TextureMissing);
    const check::Report a = checkMod(m, 1), b = checkMod(m, 2);
    CHECK(dump(a) == dump(b));
    CHECK(b.threads == 2);
}

TEST_CASE("check: read.error names the chunk and offset of a truncated model") {
    CheckMod m(Defect::ReadError);
    const check::Finding f = only(checkMod(m), "read.error");
    CHECK(endsWith(f.file, "Data/Art/Models/BROKEN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/BROKEN.ALO");
    CHECK(f.where.hasOffset());
    CHECK_THAT(f.where.chunk, Catch::StartsWith("0x"));
}

TEST_CASE("check: an emitter feature the viewer does not simulate is information, not a read.warning") {
    CheckMod m(CheckMod::Defect::NotSimulated);
    const check::Report r = checkMod(m);
    const check::Finding f = only(r, "read.not-simulated");
    CHECK(f.level == check::Level::Info);
    CHECK(endsWith(f.file, "Data/Art/Models/P_CLEAN.ALO"));
    CHECK_THAT(f.message, Catch::Contains("emits from the proxy's mesh"));
    for (const check::Finding& x : r.findings) {
        CHECK(x.id != "read.warning");
        CHECK(x.level == check::Level::Info);
    }
}

TEST_CASE("check: read.warning names the unknown chunk") {
    CheckMod m(Defect::ReadWarning);
    const check::Finding f = only(checkMod(m), "read.warning");
    CHECK(endsWith(f.file, "CLEAN.ALO"));
    CHECK(f.where.chunk == "0x7777");
}

TEST_CASE("check: model.texture-missing names the material") {
    CheckMod m(Defect::TextureMissing);
    const check::Finding f = only(checkMod(m), "model.texture-missing");
    CHECK(endsWith(f.file, "CLEAN.ALO"));
    CHECK(f.where.mesh == "Hull");
    CHECK(f.where.subMesh == 0);
    CHECK(f.where.material == "GONE.TGA");
}

TEST_CASE("check: model.shader-unknown") {
    CheckMod m(Defect::ShaderUnknown);
    const check::Finding f = only(checkMod(m), "model.shader-unknown");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Hull");
    CHECK(f.where.subMesh == 0);
    CHECK(f.where.material == "MeshFancy.fx");
}

TEST_CASE("check: model.proxy-missing names the bone") {
    CheckMod m(Defect::ProxyMissing);
    const check::Finding f = only(checkMod(m), "model.proxy-missing");
    CHECK(endsWith(f.file, "CLEAN.ALO"));
    CHECK(f.where.bone == "Hand");
    CHECK_THAT(f.message, Catch::Contains("P_GONE"));
}

TEST_CASE("check: model.hierarchy-missing for a W3D skin") {
    CheckMod m(Defect::HierarchyMissing);
    const check::Report r = checkMod(m);
    const check::Finding* f = nullptr;
    for (const auto& x : r.findings)
        if (x.level >= check::Level::Warning) {
            INFO(dump(r));
            REQUIRE(f == nullptr);
            f = &x;
        }
    INFO(dump(r));
    REQUIRE(f);
    CHECK(f->id == "model.hierarchy-missing");
    CHECK(endsWith(f->file, "Data/Art/Models/UNIT_SKN.W3D"));
    CHECK(f->key == "DATA/ART/MODELS/UNIT_SKN.W3D");
    CHECK(f->where.str().empty()); // the whole file: no chunk, mesh or bone
    CHECK_THAT(f->message, Catch::Contains("NOSUCH_SKL", Catch::CaseSensitive::No));
}

TEST_CASE("check: model.clip-mismatch names the clip") {
    CheckMod m(Defect::ClipMismatch);
    const check::Finding f = only(checkMod(m), "model.clip-mismatch");
    CHECK(endsWith(f.file, "CLEAN_WALK_00.ALA"));
    CHECK_THAT(f.message, Catch::Contains("CLEAN.ALO"));
}

TEST_CASE("check: limit.vertices") {
    CheckMod m(Defect::Vertices);
    const check::Finding f = only(checkMod(m), "limit.vertices");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Big");
    CHECK(f.where.subMesh == 0);
}

TEST_CASE("check: limit.triangles") {
    CheckMod m(Defect::Triangles);
    const check::Finding f = only(checkMod(m), "limit.triangles");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Dense");
    CHECK(f.where.subMesh == -1); // the mesh as a whole
}

TEST_CASE("check: limit.w3d-vertices above 65535, not at 65535") {
    CheckMod m(Defect::W3dVertices);
    const check::Finding f = only(checkMod(m), "limit.w3d-vertices");
    CHECK(endsWith(f.file, "Data/Art/Models/W3DBIG.W3D"));
    CHECK(f.where.mesh == "BIG"); // EDGE (65535 vertices) is within the limit
    CHECK_THAT(f.message, Catch::StartsWith("mesh has 65536 vertices"));
}

TEST_CASE("check: limit.w3d-triangles counts the indices of every material pass") {
    CheckMod m(Defect::W3dTriangles);
    const check::Finding f = only(checkMod(m), "limit.w3d-triangles");
    CHECK(endsWith(f.file, "Data/Art/Models/W3DBIG.W3D"));
    CHECK(f.where.mesh == "DENSE"); // EDGE: 21845 triangles in one pass, 65535 indices, within the limit
    CHECK_THAT(f.message, Catch::StartsWith("mesh has 11000 triangles in 2 passes: 66000 indices"));
}

TEST_CASE("check: limit.skin-bones") {
    CheckMod m(Defect::SkinBones);
    const check::Finding f = only(checkMod(m), "limit.skin-bones");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Skin");
    CHECK(f.where.subMesh == 0);
}

TEST_CASE("check: limit.skin-weights of an Alamo RSkin sub-mesh that weights a second bone") {
    CheckMod m(Defect::SkinWeights);
    const check::Finding f = only(checkMod(m), "limit.skin-weights");
    CHECK(endsWith(f.file, "CLEAN.ALO"));
    CHECK(f.where.mesh == "Skin");
    CHECK(f.where.subMesh == 0);
    CHECK_THAT(f.message, Catch::StartsWith("1 of 4 vertices (first: vertex 2) weight a second bone"));
    CHECK_THAT(f.message, Catch::Contains("alD3dVertRSkinNU2"));
}

TEST_CASE("check: limit.skin-weights of a W3D skin whose weights do not add up to 100%") {
    CheckMod m(Defect::SkinWeightsW3d);
    const check::Finding f = only(checkMod(m), "limit.skin-weights");
    CHECK(endsWith(f.file, "Data/Art/Models/UNIT_SKN.W3D"));
    CHECK(f.key == "DATA/ART/MODELS/UNIT_SKN.W3D");
    CHECK(f.where.subMesh == 0);
    CHECK_THAT(f.message, Catch::StartsWith("1 of 4 vertices (first: vertex 1, 120%)"));
}

TEST_CASE("check: limit.shadow-not-closed") {
    CheckMod m(Defect::ShadowOpen);
    const check::Finding f = only(checkMod(m), "limit.shadow-not-closed");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Shadow");
    CHECK(f.where.subMesh == 0);
    CHECK(f.where.material == "MeshShadowVolume.fx");
    CHECK(f.message == "shadow volume is not closed: 3 edges border one triangle only (a hole)");
}

TEST_CASE("check: limit.shadow-materials") {
    CheckMod m(Defect::ShadowMaterials);
    const check::Finding f = only(checkMod(m), "limit.shadow-materials");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Shadow");
    CHECK(f.where.subMesh == -1); // the mesh as a whole
}

TEST_CASE("check: limit.collision-materials") {
    CheckMod m(Defect::CollisionMaterials);
    const check::Finding f = only(checkMod(m), "limit.collision-materials");
    CHECK(endsWith(f.file, "Data/Art/Models/CLEAN.ALO"));
    CHECK(f.key == "DATA/ART/MODELS/CLEAN.ALO");
    CHECK(f.where.mesh == "Hull");
    CHECK(f.where.subMesh == -1); // the mesh as a whole
}

TEST_CASE("check: limit.texture-size") {
    CheckMod m(Defect::TextureSize);
    const check::Finding f = only(checkMod(m), "limit.texture-size");
    CHECK(endsWith(f.file, "Data/Art/Textures/CLEAN.DDS"));
    CHECK_THAT(f.message, Catch::StartsWith("6x4"));
}

TEST_CASE("check: archive.duplicate-name") {
    CheckMod m(Defect::ArchiveDuplicate);
    const check::Finding f = only(checkMod(m), "archive.duplicate-name");
    CHECK(endsWith(f.file, "Clips.meg"));
    CHECK(f.where.chunk == "file table record 1");
}

TEST_CASE("check: archive.crc-mismatch") {
    CheckMod m(Defect::ArchiveCrc);
    const check::Finding f = only(checkMod(m), "archive.crc-mismatch");
    CHECK(endsWith(f.file, "Clips.meg"));
    CHECK(f.where.chunk == "file table record 0");
}

TEST_CASE("check: archive.missing") {
    CheckMod m(Defect::ArchiveMissing);
    const check::Finding f = only(checkMod(m), "archive.missing");
    CHECK(endsWith(f.file, "Data/MegaFiles.xml"));
    CHECK_THAT(f.message, Catch::Contains("Gone.meg"));
    CHECK(f.level == check::Level::Error);
    CHECK(f.where.line == 3); // " <File>Data\Gone.meg</File>"
    CHECK(f.where.column == 8);
}

TEST_CASE("check: archive.name-unreachable") {
    CheckMod m(Defect::ArchiveName);
    const check::Finding f = only(checkMod(m), "archive.name-unreachable");
    CHECK(endsWith(f.file, "Data/Clips.meg"));
    CHECK_THAT(f.where.chunk, Catch::StartsWith("file table record ")); // records are in CRC order
    CHECK_FALSE(f.where.hasOffset());
    CHECK_THAT(f.message, Catch::Contains("low.dds"));
}

TEST_CASE("check: object.parent-missing") {
    CheckMod m(Defect::ObjectParent);
    const check::Finding f = only(checkMod(m), "object.parent-missing");
    CHECK(endsWith(f.file, "Data/XML/Units.xml"));
    CHECK(f.where.line == 7); // the variant's element
    CHECK(f.where.object == "Clean_Dead");
}

TEST_CASE("check: object.model-missing") {
    CheckMod m(Defect::ObjectModel);
    const check::Finding f = only(checkMod(m), "object.model-missing");
    CHECK(endsWith(f.file, "Data/XML/Units.xml"));
    CHECK(f.where.line == 3);
    CHECK(f.where.object == "Clean"); // what the viewer opens for it
}

TEST_CASE("check: object.bone-missing") {
    CheckMod m(Defect::ObjectBone);
    const check::Finding f = only(checkMod(m), "object.bone-missing");
    CHECK(endsWith(f.file, "Data/XML/HardPoints.xml"));
    CHECK(f.where.bone == "NoBone");
    CHECK(f.where.line > 0);
}

TEST_CASE("check: object.hardpoint-missing") {
    CheckMod m(Defect::ObjectHardpoint);
    const check::Finding f = only(checkMod(m), "object.hardpoint-missing");
    CHECK(endsWith(f.file, "Data/XML/Units.xml"));
    CHECK(f.where.line == 4);
}

TEST_CASE("check: object.object-missing") {
    CheckMod m(Defect::ObjectObject);
    const check::Finding f = only(checkMod(m), "object.object-missing");
    CHECK(endsWith(f.file, "Data/XML/Units.xml"));
    CHECK(f.where.line == 5);
}

TEST_CASE("check: object.particle-missing for a Particle object a hardpoint names") {
    CheckMod m(Defect::ParticleObject);
    const check::Finding f = only(checkMod(m), "object.particle-missing");
    CHECK(endsWith(f.file, "Data/XML/HardPoints.xml"));
    CHECK(f.key == "DATA/XML/HARDPOINTS.XML");
    CHECK(f.where.line == 5);
    CHECK(f.where.column == 4); // the tag name, after "  <"
    CHECK_THAT(f.message, Catch::Contains("Nobody_Explosion"));
    CHECK_THAT(f.message, Catch::Contains("Death_Explosion_Particles"));
}

TEST_CASE("check: object.particle-missing for a Particle object's .ALO") {
    CheckMod m(Defect::ParticleFile);
    const check::Finding f = only(checkMod(m), "object.particle-missing");
    CHECK(endsWith(f.file, "Data/XML/Particles.xml"));
    CHECK(f.where.line == 3);
    CHECK(f.where.column == 4); // the tag name, after "  <"
    CHECK_THAT(f.message, Catch::StartsWith("Clean_Explosion: "));
    CHECK_THAT(f.message, Catch::Contains("P_GONE.ALO"));
}

TEST_CASE("check: object.particle-missing for Damaged_Smoke_Asset_Name") {
    CheckMod m(Defect::ParticleSmoke);
    const check::Finding f = only(checkMod(m), "object.particle-missing");
    CHECK(endsWith(f.file, "Data/XML/Units.xml"));
    CHECK(f.where.line == 11);
    CHECK(f.where.column == 4); // the tag name, after "  <"
    CHECK_THAT(f.message, Catch::Contains("P_GONE_SMOKE"));
}

TEST_CASE("check: references to Particle objects are not judged when the mount defines none") {
    CheckMod m(Defect::ParticleUnjudged);
    const check::Report r = checkMod(m);
    INFO(dump(r));
    CHECK_FALSE(r.reaches(check::Level::Warning));
}

TEST_CASE("check: the clean mod's particle references resolve: the particle .ALO is referenced") {
    // Without the proxy, P_CLEAN.ALO is referenced by the Particle object and Damaged_Smoke_Asset_Name alone.
    CheckMod m;
    std::filesystem::remove(std::filesystem::path(m.mod) / "Data/Art/Models/CLEAN.ALO");
    const check::Report r = checkMod(m);
    INFO(dump(r));
    for (const auto& f : r.findings)
        CHECK_FALSE(endsWith(f.file, "P_CLEAN.ALO"));
}

TEST_CASE("check: object.definition-error") {
    CheckMod m(Defect::ObjectDefinition);
    const check::Finding f = only(checkMod(m), "object.definition-error");
    CHECK(endsWith(f.file, "Data/XML/Broken.xml"));
    CHECK(f.where.line == 3);
}

TEST_CASE("check: object.file-missing") {
    CheckMod m(Defect::ObjectFile);
    const check::Finding f = only(checkMod(m), "object.file-missing");
    CHECK_THAT(f.file, Catch::Contains("GONE.XML", Catch::CaseSensitive::No));
    CHECK(f.key == "DATA/XML/GONE.XML"); // named by the index: no folder holds it, so the game path is the file
    CHECK(f.file == f.key);
    CHECK(f.where.str().empty());
    CHECK(f.where.object.empty()); // about no object
}

TEST_CASE("check: unref.file") {
    CheckMod m(Defect::Unreferenced);
    const check::Report r = checkMod(m);
    INFO(dump(r));
    CHECK_FALSE(r.reaches(check::Level::Warning));
    const check::Finding f = only(r, "unref.file");
    CHECK(endsWith(f.file, "Data/Art/Textures/ORPHAN.DDS"));
}

TEST_CASE("check: checkPaths on one file and the catalog") {
    CheckMod m(Defect::ShaderUnknown);
    const Resolver r;
    const check::Report rep = check::checkPaths(r, {m.mod + "/Data/Art/Models/CLEAN.ALO"});
    INFO(dump(rep));
    CHECK(rep.files == 1);
    bool shader = false;
    for (const auto& f : rep.findings)
        shader |= f.id == "model.shader-unknown";
    CHECK(shader);
    for (const auto& c : check::catalog()) {
        CHECK(std::string(c.source).size() > 10);
        CHECK(check::findCheck(c.id) == &c);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// SAGE: a writer-made BFME II mod with its art under a working tree's top folder (arts/art/...).

namespace {

using SageDefect = SageCheckMod::Defect;

check::Report checkSage(const SageCheckMod& m, unsigned threads = 2) {
    auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({m.game}, {m.mod}));
    const Resolver r(table);
    check::Options o;
    o.threads = threads;
    return r.mounted() ? check::checkMount(r, o) : check::Report{};
}

void sageAt(const check::Finding& f, int line, int column) {
    CHECK(endsWith(f.file, "data/ini/object/units.ini"));
    CHECK(f.key == "DATA/INI/OBJECT/UNITS.INI");
    CHECK(f.where.line == line);
    CHECK(f.where.column == column);
}

} // namespace

TEST_CASE("check: a clean SAGE mod in arts/art/... has no finding, its textures found in the engine's folders") {
    SageCheckMod m;
    const check::Report r = checkSage(m);
    INFO(dump(r));
    CHECK(r.files == 5);
    CHECK(r.findings.empty()); // kbunit.tga in arts/art/textures/kb/, kbunit_d.dds in .../compiledtextures/kb/
}

TEST_CASE("check: SAGE object.model-missing") {
    SageCheckMod m(SageDefect::Model);
    const check::Report r = checkSage(m);
    std::vector<check::Finding> hits;
    for (const auto& f : r.findings)
        if (f.level >= check::Level::Warning) hits.push_back(f);
    INFO(dump(r));
    // The model's finding; the bone, sub-object and texture lookups in it are left out (no cascade).
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].id == "object.model-missing");
    CHECK_THAT(hits[0].message, Catch::Contains("KBGONE_SKN"));
    sageAt(hits[0], 3, 5); // the state that names it
}

TEST_CASE("check: SAGE object.bone-missing for a ParticleSysBone") {
    SageCheckMod m(SageDefect::Bone);
    const check::Finding f = only(checkSage(m), "object.bone-missing");
    sageAt(f, 6, 7);
    CHECK(f.where.bone == "NOBONE");
}

TEST_CASE("check: SAGE object.particle-missing") {
    SageCheckMod m(SageDefect::Particle);
    const check::Finding f = only(checkSage(m), "object.particle-missing");
    sageAt(f, 6, 7);
    CHECK_THAT(f.message, Catch::Contains("KBNoSmoke"));
}

TEST_CASE("check: SAGE object.clip-missing") {
    SageCheckMod m(SageDefect::Clip);
    const check::Finding f = only(checkSage(m), "object.clip-missing");
    sageAt(f, 12, 7); // the Animation block that names it
    CHECK_THAT(f.message, Catch::Contains("KBUNIT_SKL.KBUNIT_GONE"));
}

TEST_CASE("check: SAGE object.texture-missing") {
    SageCheckMod m(SageDefect::Texture);
    const check::Finding f = only(checkSage(m), "object.texture-missing");
    sageAt(f, 8, 5);
    CHECK_THAT(f.message, Catch::Contains("kbgone.tga"));
}

TEST_CASE("check: SAGE object.subobject-missing") {
    SageCheckMod m(SageDefect::SubObject);
    const check::Finding f = only(checkSage(m), "object.subobject-missing");
    sageAt(f, 19, 5);
    CHECK_THAT(f.message, Catch::Contains("NOSUCH"));
}

TEST_CASE("check: SAGE object.parent-missing of a ChildObject") {
    SageCheckMod m(SageDefect::Parent);
    const check::Finding f = only(checkSage(m), "object.parent-missing");
    sageAt(f, 23, 1);
    CHECK_THAT(f.message, Catch::Contains("KBNobody"));
}

TEST_CASE("check: one and two threads give the same SAGE findings") {
    SageCheckMod m(SageDefect::Clip);
    CHECK(dump(checkSage(m, 1)) == dump(checkSage(m, 2)));
}

TEST_CASE("check: archive.duplicate-name in a BIG archive of a SAGE mod") {
    SageCheckMod m;
    // Two spellings of one name: BIG lookups fold case, so the second entry is never read.
    FakeInstall::write(std::filesystem::path(m.mod) / "Dup.big",
                       vfs::writeBig({{"data\\readme.txt", textBytes("first")},
                                      {"art\\notes.txt", textBytes("notes")},
                                      {"DATA\\README.TXT", textBytes("second")}}));
    const check::Finding f = only(checkSage(m), "archive.duplicate-name");
    CHECK(endsWith(f.file, "/mod/Dup.big"));
    CHECK(f.where.chunk == "file table record 2");
    CHECK_THAT(f.message, Catch::Contains("DATA\\README.TXT"));
    CHECK_THAT(f.message, Catch::Contains("has the name of record 0"));
    auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {m.mod}));
    const vfs::EntryBytes b = table->read("data/readme.txt");
    CHECK(std::string(b.span.data, b.span.data + b.span.size) == "first"); // the first is used
}
