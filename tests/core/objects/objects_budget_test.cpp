// Issue 44: object definitions a hostile mod can ship. One case per row of the table: the input is made
// here (never committed), the mod is loaded (and, where the row says so, checked or every object assembled), and
// each case must finish within 5 s, stay under 512 MiB of heap (heap_meter), name the budget it refused with the
// file, line and column, and still list the ordinary objects of the same mod.
#include "check/check.h"
#include "cli_run.h"
#include "common/text_budgets.h"
#include "heap_meter.h"
#include "objects/eaw_xml.h"
#include "objects/object_db.h"
#include "objects/sage_ini.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace rs;
using namespace rs::objects;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kHeapLimit = int64_t(512) << 20;
// Each case must finish within 5 s; sanitizer builds (ASan + UBSan, Debug) run several times slower, so they get
// four times that (the RelWithDebInfo figures are in docs/HARDENING.md).
#if defined(__SANITIZE_ADDRESS__)
constexpr double kTimeLimit = 20.0;
#else
constexpr double kTimeLimit = 5.0;
#endif

struct TempMod {
    fs::path root;
    TempMod() {
        static std::atomic<int> n{0};
        root =
            fs::temp_directory_path() / ("rigscope_budget_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~TempMod() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary).write(text.data(), std::streamsize(text.size()));
    }
    std::string dir() const { return root.string(); }
};

// An EaW mod: GameObjectFiles.xml lists Ordinary.xml (one plain object) and the given files.
void eawMod(const TempMod& m, const std::vector<std::string>& files) {
    std::string index = "<Game_Object_Files>\n<File>Ordinary.xml</File>\n";
    for (const std::string& f : files)
        index += "<File>" + f + "</File>\n";
    m.write("Data/XML/GameObjectFiles.xml", index + "</Game_Object_Files>\n");
    m.write("Data/XML/HardPointDataFiles.xml", "<F><File>HardPoints.xml</File></F>\n");
    m.write("Data/XML/HardPoints.xml", "<HardPoints><HardPoint Name=\"HP_Plain\"><Type>HARD_POINT_WEAPON_LASER</Type>"
                                       "</HardPoint></HardPoints>\n");
    m.write("Data/XML/Ordinary.xml", "<Units>\n<SpaceUnit Name=\"Ordinary_Ship\">\n"
                                     "<Space_Model_Name>ORDINARY.ALO</Space_Model_Name>\n"
                                     "<HardPoints>HP_Plain</HardPoints>\n</SpaceUnit>\n</Units>\n");
}

// A SAGE mod: data/ini/object/ordinary.ini (one plain object) besides the given files.
void sageMod(const TempMod& m) {
    m.write("data/ini/object/ordinary.ini", "Object OrdinaryUnit\n  Side = Men\n"
                                            "  Draw = W3DScriptedModelDraw ModuleTag_Draw\n"
                                            "    DefaultModelConditionState\n      Model = ORD_SKN\n    End\n"
                                            "  End\nEnd\n");
}

struct Run {
    double seconds = 0;
    int64_t peak = 0;
};

template <class F> Run measure(F&& f) {
    Run r;
    const auto t0 = std::chrono::steady_clock::now();
    r.peak = test::peakHeap(f);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

void checkBounds(const Run& r, const char* what) {
    INFO(what << ": " << r.seconds << " s, peak heap " << (r.peak >> 20) << " MiB");
    CHECK(r.seconds < kTimeLimit);
    if (test::heapMeterActive()) CHECK(r.peak < kHeapLimit);
    WARN(what << ": " << r.seconds << " s, peak heap " << (r.peak >> 20) << " MiB");
}

std::string allErrors(const ObjectDb& db) {
    std::string s;
    for (const std::string& e : db.errors())
        s += e + "\n";
    return s;
}

// Loads the mod (mounted alone) and assembles every object, as `check` does: the database and the time and heap.
// The table the database reads from lives as long as the test (a static per case is enough: one mod each).
std::shared_ptr<const ObjectDb> loadAll(const TempMod& m, Run& run, size_t* refused = nullptr) {
    std::shared_ptr<const ObjectDb> db;
    static std::shared_ptr<const vfs::MountTable> table;
    run = measure([&] {
        table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {m.dir()}));
        const vfs::MountTable& t = *table;
        db = ObjectDb::load(t);
        size_t n = 0;
        for (const ObjectSummary& o : db->objects()) {
            try {
                db->assemble(o.name, ModelProbe());
            } catch (const ParseError&) {
                ++n;
            }
        }
        if (refused) *refused = n;
    });
    return db;
}

} // namespace

TEST_CASE("objects budget: SAGE #define fan-out (ten B each A, ten A each B) is cut at kMaxMacroTokens") {
    TempMod m;
    sageMod(m);
    std::string ini = "#define FANA FANB FANB FANB FANB FANB FANB FANB FANB FANB FANB\n"
                      "#define FANB FANA FANA FANA FANA FANA FANA FANA FANA FANA FANA\n";
    for (int i = 0; ini.size() < 20000; ++i)
        ini += "Object Fan" + std::to_string(i) + "\n  Value = FANA\nEnd\n";
    m.write("data/ini/object/fan.ini", ini);
    // Without a cycle: ten C each B, ten D each C, ten E each D (10^4 tokens a use).
    std::string wide = "#define WA WB WB WB WB WB WB WB WB WB WB\n#define WB WC WC WC WC WC WC WC WC WC WC\n"
                       "#define WC WD WD WD WD WD WD WD WD WD WD\n#define WD WE WE WE WE WE WE WE WE WE WE\n";
    for (int i = 0; wide.size() < 20000; ++i)
        wide += "Object Wide" + std::to_string(i) + "\n  Value = WA 7\nEnd\n";
    m.write("data/ini/object/wide.ini", wide);
    Run run;
    const auto db = loadAll(m, run);
    checkBounds(run, "#define fan-out");
    CHECK(db->find("OrdinaryUnit"));
    CHECK(db->find("Fan0"));
    CHECK(db->find("Wide0"));
    const std::string e = allErrors(*db);
    CHECK_THAT(e, Catch::Contains("DATA/INI/OBJECT/FAN.INI: field line 4, column 11: macro FANA refers to itself "
                                  "(cycle) or nests deeper than 8 (budget kMaxMacroDepth), left unexpanded"));
    CHECK_THAT(e, Catch::Contains("DATA/INI/OBJECT/WIDE.INI: field line 6, column 11: macro WA expands to more than "
                                  "1024 tokens (budget kMaxMacroTokens): the value is cut there"));
}

TEST_CASE("objects budget: SAGE #include fan-out without a loop (each of 15 files includes the next 4 times)") {
    TempMod m;
    sageMod(m);
    const std::string pad(5000, ' ');
    m.write("data/ini/object/fan.ini", "Object FanTop\nEnd\n" + std::string(4, ' ') +
                                           "#include \"inc/f1.inc\"\n#include \"inc/f1.inc\"\n"
                                           "#include \"inc/f1.inc\"\n#include \"inc/f1.inc\"\n");
    for (int i = 1; i < 15; ++i) {
        std::string f = ";" + pad + "\n";
        for (int k = 0; k < 4; ++k)
            f += "#include \"f" + std::to_string(i + 1) + ".inc\"\n";
        m.write("data/ini/object/inc/f" + std::to_string(i) + ".inc", f);
    }
    m.write("data/ini/object/inc/f15.inc", "; the last\n");
    Run run;
    const auto db = loadAll(m, run);
    checkBounds(run, "#include fan-out");
    CHECK(db->find("OrdinaryUnit"));
    CHECK(db->find("FanTop"));
    const std::string e = allErrors(*db);
    CHECK_THAT(e, Catch::Contains("refused: more than 256 inclusions from DATA/INI/OBJECT/FAN.INI (budget "
                                  "kMaxIniIncludes)"));
    CHECK_THAT(e, Catch::Matches("(.|\n)*DATA/INI/OBJECT/INC/F[0-9]+\\.INC: field line [0-9]+, column 1: (.|\n)*"));
}

TEST_CASE("objects budget: a 101 MB object INI is refused by its size, a 10 MB one of one-letter lines at "
          "kMaxIniStatements") {
    TempMod m;
    sageMod(m);
    {
        std::ofstream big(m.root / "data/ini/object/huge.ini", std::ios::binary);
        const std::string chunk(1 << 20, 'a');
        std::string lines;
        for (size_t i = 0; i < chunk.size(); i += 2)
            lines += "a\n";
        for (int i = 0; i < 101; ++i)
            big.write(lines.data(), std::streamsize(lines.size()));
        std::ofstream ten(m.root / "data/ini/object/ten.ini", std::ios::binary);
        for (int i = 0; i < 10; ++i)
            ten.write(lines.data(), std::streamsize(lines.size()));
    }
    Run run;
    const auto db = loadAll(m, run);
    checkBounds(run, "101 MB + 10 MB INI");
    CHECK(db->find("OrdinaryUnit"));
    const std::string e = allErrors(*db);
    CHECK_THAT(e, Catch::Contains("DATA/INI/OBJECT/HUGE.INI: INI file of 105906176 bytes refused: more than 16777216 "
                                  "(budget kMaxIniFileBytes)"));
    CHECK_THAT(e, Catch::Contains("DATA/INI/OBJECT/TEN.INI: field line 100001, column 1: more than 100000 statements "
                                  "(budget kMaxIniStatements)"));
}

TEST_CASE("objects budget: an object XML with 15.7 M empty child elements is read up to kMaxXmlElements") {
    TempMod m;
    eawMod(m, {"Big.xml"});
    {
        std::ofstream f(m.root / "Data/XML/Big.xml", std::ios::binary);
        f << "<Units>\n<SpaceUnit Name=\"Early_Ship\"><Space_Model_Name>E.ALO</Space_Model_Name></SpaceUnit>\n"
             "<SpaceUnit Name=\"Big_Ship\">\n";
        std::string chunk;
        for (int i = 0; i < (1 << 18); ++i)
            chunk += "<a/>";
        for (int i = 0; i < 60; ++i) // 15.7 M elements, 60 MiB
            f.write(chunk.data(), std::streamsize(chunk.size()));
        f << "\n</SpaceUnit>\n</Units>\n";
    }
    Run run;
    const auto db = loadAll(m, run);
    checkBounds(run, "15.7 M elements");
    CHECK(db->find("Ordinary_Ship"));
    CHECK(db->find("Early_Ship"));
    CHECK_FALSE(db->find("Big_Ship")); // cut short: dropped and named
    CHECK_THAT(allErrors(*db), Catch::Contains("DATA/XML/BIG.XML: field line 4, column 1999977: more than 500,000 XML "
                                               "elements (budget kMaxXmlElements): the file is read up to here "
                                               "(object Big_Ship dropped)"));
}

TEST_CASE("objects budget: one <HardPoints> list of 31 M names is cut (kMaxXmlValueBytes, kMaxListItems)") {
    TempMod m;
    eawMod(m, {"List.xml"});
    {
        std::ofstream f(m.root / "Data/XML/List.xml", std::ios::binary);
        f << "<Units>\n<SpaceUnit Name=\"List_Ship\">\n<HardPoints>";
        std::string chunk;
        for (int i = 0; i < (1 << 19); ++i)
            chunk += "H,";
        for (int i = 0; i < 59; ++i) // 31 M names
            f.write(chunk.data(), std::streamsize(chunk.size()));
        f << "HP_Plain</HardPoints>\n</SpaceUnit>\n</Units>\n";
    }
    Run run;
    std::vector<std::string> warnings;
    std::shared_ptr<const ObjectDb> db;
    const vfs::MountTable t = vfs::mountInstall({}, {m.dir()});
    run = measure([&] {
        db = ObjectDb::load(t);
        warnings = db->assemble("List_Ship", ModelProbe()).warnings;
    });
    checkBounds(run, "31 M hardpoint names");
    CHECK(db->find("Ordinary_Ship"));
    CHECK_THAT(allErrors(*db), Catch::Contains("DATA/XML/LIST.XML: field line 3, column 2: value of <HardPoints> "
                                               "longer than 1,048,576 bytes (budget kMaxXmlValueBytes): cut there"));
    std::string w;
    for (const std::string& s : warnings)
        w += s + "\n";
    CHECK_THAT(w, Catch::Contains("DATA/XML/LIST.XML: field line 3, column 2: <HardPoints> lists more than 4096 names "
                                  "(budget kMaxListItems): the rest are not read"));
}

TEST_CASE("objects budget: 60 MB of text under 40 nested elements of one field is cut per value") {
    TempMod m;
    eawMod(m, {"Text.xml"});
    {
        std::ofstream f(m.root / "Data/XML/Text.xml", std::ios::binary);
        f << "<Units>\n<SpaceUnit Name=\"Text_Ship\">\n<Field>";
        for (int i = 0; i < 40; ++i)
            f << "<N" << i << ">";
        const std::string chunk(1 << 20, 'x');
        for (int i = 0; i < 60; ++i)
            f.write(chunk.data(), std::streamsize(chunk.size()));
        for (int i = 39; i >= 0; --i)
            f << "</N" << i << ">";
        f << "</Field>\n<Space_Model_Name>T.ALO</Space_Model_Name>\n</SpaceUnit>\n</Units>\n";
    }
    Run run;
    const auto db = loadAll(m, run);
    checkBounds(run, "60 MB nested text");
    CHECK(db->find("Ordinary_Ship"));
    CHECK(db->find("Text_Ship"));
    CHECK_THAT(allErrors(*db), Catch::Contains("DATA/XML/TEXT.XML: field line 3, column 2: value of <Field> longer "
                                               "than 1,048,576 bytes (budget kMaxXmlValueBytes): cut there"));
}

TEST_CASE("objects budget: Variant_Of_Existing_Type chains 20,000 long resolve in linear time, refused past "
          "kMaxInheritanceDepth") {
    TempMod m;
    eawMod(m, {"Chain.xml"});
    std::string x = "<Units>\n<SpaceUnit Name=\"Chain_0\"><Space_Model_Name>C.ALO</Space_Model_Name></SpaceUnit>\n";
    for (int i = 1; i < 20000; ++i)
        x += "<SpaceUnit Name=\"Chain_" + std::to_string(i) + "\"><Variant_Of_Existing_Type>Chain_" +
             std::to_string(i - 1) + "</Variant_Of_Existing_Type></SpaceUnit>\n";
    // And a cycle of 5,000, reported once.
    for (int i = 0; i < 5000; ++i)
        x += "<SpaceUnit Name=\"Loop_" + std::to_string(i) + "\"><Variant_Of_Existing_Type>Loop_" +
             std::to_string((i + 1) % 5000) + "</Variant_Of_Existing_Type></SpaceUnit>\n";
    m.write("Data/XML/Chain.xml", x + "</Units>\n");
    Run run;
    size_t refused = 0;
    const auto db = loadAll(m, run, &refused);
    checkBounds(run, "EaW chains of 20,000");
    CHECK(db->find("Ordinary_Ship"));
    CHECK(refused == 20000 - 65 + 5000);
    const std::string e = allErrors(*db);
    CHECK_THAT(e, Catch::Contains("DATA/XML/CHAIN.XML: field line 67, column 2: object Chain_65 refused: it inherits "
                                  "through more than 64 levels (budget kMaxInheritanceDepth): Chain_65 -> Chain_64"));
    size_t cycles = 0;
    for (const std::string& s : db->errors())
        cycles += s.find("inherits from itself") != std::string::npos;
    CHECK(cycles == 1);
    const AssembledObject c64 = db->assemble("Chain_64", ModelProbe());
    CHECK(c64.inheritance.size() == 64);
    CHECK(c64.inheritance.back() == "Chain_0");
    CHECK_THROWS_WITH(db->assemble("Chain_19999", ModelProbe()),
                      Catch::Contains("Chain_19999 refused: it inherits through more than 64 levels") &&
                          Catch::Contains("(19999 ancestors)"));
    CHECK_THROWS_WITH(db->assemble("Loop_7", ModelProbe()),
                      Catch::Contains("Loop_7 refused: it inherits from itself (Loop_7 -> Loop_8"));

    // The check over the same mod (killed at 60 s before): one finding per refused object, in time.
    const Run checkRun = measure([&] {
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {m.dir()}));
        const Resolver r(table);
        check::Options o;
        o.threads = 1;
        o.unreferenced = false;
        const check::Report rep = check::checkMount(r, o);
        size_t definitionErrors = 0;
        for (const check::Finding& f : rep.findings)
            definitionErrors += f.id == "object.definition-error";
        CHECK(definitionErrors >= 20000 - 65);
    });
    checkBounds(checkRun, "check over EaW chains of 20,000");
}

TEST_CASE("objects budget: ChildObject chains 20,000 long resolve in linear time, refused past "
          "kMaxInheritanceDepth") {
    TempMod m;
    sageMod(m);
    std::string ini = "Object Child0\n  Side = Men\nEnd\n";
    for (int i = 1; i < 20000; ++i)
        ini += "ChildObject Child" + std::to_string(i) + " Child" + std::to_string(i - 1) + "\nEnd\n";
    m.write("data/ini/object/chain.ini", ini);
    Run run;
    size_t refused = 0;
    const auto db = loadAll(m, run, &refused);
    checkBounds(run, "SAGE chains of 20,000");
    CHECK(db->find("OrdinaryUnit"));
    CHECK(refused == 20000 - 65);
    CHECK_THAT(allErrors(*db), Catch::Contains("DATA/INI/OBJECT/CHAIN.INI: field line 132, column 1: object Child65 "
                                               "refused: it inherits through more than 64 levels (budget "
                                               "kMaxInheritanceDepth)"));
    CHECK(db->assemble("Child64", ModelProbe()).inheritance.size() == 64);
}

TEST_CASE("objects budget: rigscope-cli object \"\" is a usage error") {
    REQUIRE(test::cliBuilt());
    TempMod m;
    eawMod(m, {});
    const auto r = test::runCli("object '' --mod '" + m.dir() + "'", test::Stderr::Merge, 60);
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("object needs a NAME (an empty name was given)"));
    const auto blank = test::runCli("object '  ' --mod '" + m.dir() + "'", test::Stderr::Merge, 60);
    CHECK(blank.status == 2);
}
