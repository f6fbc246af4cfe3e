// core/check/baseline: fingerprints robust to line shifts and changed counts, counted matching, absent entries,
// suppression rules (globs, reasons required) and malformed files named with line and column.
#include "check/baseline.h"
#include "common/error.h"

#include <catch2/catch.hpp>

using namespace rs;
using namespace rs::check;

namespace {
Finding finding(const std::string& id, const std::string& key, int line, const std::string& object,
                const std::string& message) {
    Finding f;
    f.id = id;
    f.level = Level::Error;
    f.file = "/mods/x/" + key;
    f.key = key;
    f.where.line = line;
    f.where.column = 4;
    f.where.object = object;
    f.message = message;
    return f;
}
} // namespace

TEST_CASE("baseline: a finding whose line moved or whose number changed is unchanged; a new one is new",
          "[check][baseline]") {
    Report before;
    before.findings = {finding("object.model-missing", "DATA/XML/UNITS.XML", 3, "Clean", "model GONE.ALO not found"),
                       finding("limit.vertices", "DATA/ART/MODELS/A.ALO", 0, "", "65537 vertices (limit 65535)"),
                       finding("limit.vertices", "DATA/ART/MODELS/A.ALO", 0, "", "65537 vertices (limit 65535)")};
    const std::vector<BaselineEntry> base = readBaseline(writeBaseline(before), "base.json");
    REQUIRE(base.size() == 3);
    CHECK(base[0].file == "DATA/XML/UNITS.XML");
    CHECK(base[0].level == "error");

    Report after;
    after.findings = {
        finding("object.model-missing", "DATA/XML/UNITS.XML", 9, "Clean", "model GONE.ALO not found"), // moved
        finding("limit.vertices", "DATA/ART/MODELS/A.ALO", 0, "", "70000 vertices (limit 65535)"),     // count
        finding("limit.vertices", "DATA/ART/MODELS/A.ALO", 0, "", "65537 vertices (limit 65535)"),
        finding("limit.vertices", "DATA/ART/MODELS/A.ALO", 0, "", "65537 vertices (limit 65535)"), // a third one
        finding("object.model-missing", "DATA/XML/UNITS.XML", 9, "Other", "model GONE.ALO not found")};
    const Compared c = compareWithBaseline(after, base);
    CHECK(c.state == std::vector<BaselineState>{BaselineState::Unchanged, BaselineState::Unchanged,
                                                BaselineState::Unchanged, BaselineState::New, BaselineState::New});
    CHECK(c.newCount == 2);
    CHECK(c.absent.empty());

    Report fixed;
    fixed.findings = {before.findings[1]};
    const Compared f = compareWithBaseline(fixed, base);
    CHECK(f.newCount == 0);
    REQUIRE(f.absent.size() == 2);
}

TEST_CASE("baseline: malformed baselines and suppression files are refused with line and column", "[check][baseline]") {
    auto refused = [](auto read, const std::string& text, const std::string& what) {
        try {
            read(text);
            FAIL("accepted " << text);
        } catch (const ParseError& e) {
            INFO(e.what());
            CHECK_THAT(e.what(), Catch::Contains(what));
        }
    };
    auto base = [](const std::string& t) { readBaseline(t, "b.json"); };
    auto sup = [](const std::string& t) { readSuppressions(t, "rigscope-check.json"); };
    refused(base, "{\"schema\": \"rigscope-baseline/1\",\n \"findings\": [1,]}",
            "b.json: line 2, column 17: not valid JSON");
    refused(base, "{\"schema\": \"other\"}", "not a rigscope baseline");
    refused(base, "{\"schema\": \"rigscope-baseline/1\", \"findings\": [{\"id\": \"x\"}]}", "no \"fingerprint\"");
    refused(base, std::string(100, '['), "nested deeper than 32");
    refused(sup, "{\"suppress\": [\n {\"id\": \"unref.*\"}\n]}", "line 2: rule 1: no \"reason\"");
    refused(sup, "{\"suppress\": [{\"reason\": \"all\"}]}", "names no id, file or object");
    refused(sup, "{\"suppress\": [{\"id\": \"*\", \"reason\": \"all\"}]}", "would suppress every finding");
    refused(sup, "{\"suppress\": [{\"id\": \"x\", \"reason\": \"r\", \"colour\": \"red\"}]}",
            "unknown field \"colour\"");
    refused(sup, "{\"rules\": []}", "no \"suppress\" list");
}

TEST_CASE("suppressions: rules match id, file and object globs in any case", "[check][baseline]") {
    const std::vector<Suppression> rules = readSuppressions(
        "{\"suppress\": [\n"
        "  {\"id\": \"unref.*\", \"reason\": \"kept for the next release\"},\n"
        "  {\"file\": \"data/art/models/w_*.alo\", \"id\": \"limit.vertices\", \"reason\": \"the engine copes\"},\n"
        "  {\"object\": \"Clean_*\", \"reason\": \"placeholder units\"}\n"
        "]}",
        "rigscope-check.json");
    REQUIRE(rules.size() == 3);
    CHECK(rules[1].line == 3);
    const Finding unref = finding("unref.file", "DATA/ART/TEXTURES/X.DDS", 0, "", "nothing refers to it");
    const Finding big = finding("limit.vertices", "DATA/ART/MODELS/W_TANK.ALO", 0, "", "70000 vertices");
    const Finding bigOther = finding("limit.vertices", "DATA/ART/MODELS/TANK.ALO", 0, "", "70000 vertices");
    const Finding obj = finding("object.model-missing", "DATA/XML/UNITS.XML", 3, "Clean_Dead", "model not found");
    REQUIRE(suppressedBy(unref, rules));
    CHECK(suppressedBy(unref, rules)->reason == "kept for the next release");
    REQUIRE(suppressedBy(big, rules));
    CHECK(suppressedBy(big, rules)->reason == "the engine copes");
    CHECK_FALSE(suppressedBy(bigOther, rules));
    REQUIRE(suppressedBy(obj, rules));
    CHECK(suppressedBy(obj, rules)->reason == "placeholder units");
}
