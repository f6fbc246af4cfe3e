// rigscope-cli diff A B [--json] [--game DIR]... [--mod DIR]...: what differs between two models or clips
// (core/compare/compare.h), as text or as JSON (schema rigscope-diff/1, docs/DIFF.md).
// Exit status: 0 identical, 1 different, 2 usage error or a file that cannot be read (one line naming it).
#include "commands.h"

#include "compare/compare.h"

#include <cmath>
#include <iostream>
#include <new>

namespace rs::cli {
namespace {

using compare::Category;
using compare::Difference;
using compare::Summary;

// Text sections, in the order differences are listed.
const char* sectionOf(Category c) {
    switch (c) {
    case Category::Bone:
        return "Bones";
    case Category::Mesh:
    case Category::SubMesh:
        return "Meshes";
    case Category::Material:
    case Category::Parameter:
        return "Materials";
    case Category::Texture:
        return "Textures";
    case Category::Light:
        return "Lights";
    case Category::Proxy:
        return "Proxies";
    case Category::Dazzle:
        return "Dazzles";
    case Category::Marker:
        return "Markers";
    case Category::Clip:
    case Category::Track:
        return "Clips";
    }
    return "Other";
}

std::string kindOf(const compare::Side& s) {
    if (s.model) return "model";
    return s.skeleton ? "clips with skeleton" : "clips";
}

void writeSide(Json& j, const std::string& path, const compare::Side& s, const Asset& a) {
    j.beginObject().kv("path", Json::Path{path}).kv("kind", s.model ? "model" : "clips");
    j.kv("skeleton", s.skeleton != nullptr).kv("clips", uint64_t(s.clips.size()));
    if (s.model) {
        j.kv("bones", uint64_t(s.model->skeleton.bones.size())).kv("meshes", uint64_t(s.model->meshes.size()));
    }
    j.key("unreadable_clips").beginArray();
    for (const ClipFile& f : a.clips)
        if (!f.clip) j.beginObject().kv("path", Json::Path{f.path}).kv("error", f.error).endObject();
    j.endArray();
    j.endObject();
}

void number(Json& j, const char* key, double v) {
    if (!std::isnan(v)) j.kv(key, v);
}

void writeDifference(Json& j, const Difference& d) {
    j.beginObject().kv("category", compare::categoryName(d.category)).kv("change", compare::changeName(d.change));
    j.kv("subject", d.subject);
    if (!d.field.empty()) j.kv("field", d.field);
    if (!d.a.empty()) j.kv("a", d.a);
    if (!d.b.empty()) j.kv("b", d.b);
    number(j, "value_a", d.valueA);
    number(j, "value_b", d.valueB);
    number(j, "distance", d.distance);
    number(j, "angle", d.angle);
    number(j, "local_distance", d.localDistance);
    number(j, "local_angle", d.localAngle);
    number(j, "distance_time", d.distanceTime);
    number(j, "angle_time", d.angleTime);
    if (d.boneA >= 0) j.kv("bone_a", d.boneA);
    if (d.boneB >= 0) j.kv("bone_b", d.boneB);
    if (!d.clipA.empty()) j.kv("clip_a", d.clipA);
    if (!d.clipB.empty()) j.kv("clip_b", d.clipB);
    j.kv("text", compare::describe(d));
    j.endObject();
}

void writeClipPair(Json& j, const compare::ClipPair& p) {
    j.beginObject();
    j.key("a").beginObject().kv("name", p.nameA).kv("frames", p.framesA).kv("fps", p.fpsA).kv("seconds", p.secondsA);
    j.endObject();
    j.key("b").beginObject().kv("name", p.nameB).kv("frames", p.framesB).kv("fps", p.fpsB).kv("seconds", p.secondsB);
    j.endObject();
    j.key("largest_distance");
    if (p.largestBone.empty())
        j.null();
    else
        j.beginObject()
            .kv("bone", p.largestBone)
            .kv("distance", p.largestDistance)
            .kv("time", p.largestDistanceTime)
            .endObject();
    j.key("largest_angle");
    if (p.largestAngleBone.empty())
        j.null();
    else
        j.beginObject()
            .kv("bone", p.largestAngleBone)
            .kv("angle", p.largestAngle)
            .kv("time", p.largestAngleTime)
            .endObject();
    j.endObject();
}

std::string fixed(double v, int decimals) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

std::string textOf(const std::string& pathA, const compare::Side& a, const std::string& pathB, const compare::Side& b,
                   const Summary& s) {
    std::string out = "A: " + pathA + " (" + kindOf(a) + ", " + std::to_string(a.clips.size()) + " clips)\n";
    out += "B: " + pathB + " (" + kindOf(b) + ", " + std::to_string(b.clips.size()) + " clips)\n";
    if (s.identical())
        out += "identical\n";
    else
        out += std::to_string(s.differences.size()) + " difference" + (s.differences.size() == 1 ? "" : "s") + "\n";
    std::string section;
    for (const Difference& d : s.differences) {
        if (section != sectionOf(d.category)) {
            section = sectionOf(d.category);
            out += "\n" + section + ":\n";
        }
        out += "  " + compare::describe(d) + "\n";
    }
    if (!s.clipPairs.empty()) {
        out += "\nClips compared:\n";
        for (const compare::ClipPair& p : s.clipPairs) {
            out += "  " + p.nameA + " (" + std::to_string(p.framesA) + " frames, " + fixed(p.secondsA, 3) + " s) <-> " +
                   p.nameB + " (" + std::to_string(p.framesB) + " frames, " + fixed(p.secondsB, 3) + " s)";
            if (!p.largestBone.empty() || !p.largestAngleBone.empty()) {
                out += ": largest ";
                if (!p.largestBone.empty())
                    out += fixed(p.largestDistance, 4) + " at " + p.largestBone + " (" +
                           fixed(p.largestDistanceTime, 3) + " s)";
                if (!p.largestBone.empty() && !p.largestAngleBone.empty()) out += ", ";
                if (!p.largestAngleBone.empty())
                    out += fixed(p.largestAngle, 2) + " deg at " + p.largestAngleBone + " (" +
                           fixed(p.largestAngleTime, 3) + " s)";
            }
            out += "\n";
        }
    }
    if (!s.notes.empty()) {
        out += "\nNotes:\n";
        for (const std::string& n : s.notes)
            out += "  " + n + "\n";
    }
    return out;
}

Asset openSide(const GameMount& gm, const std::string& path) { return gm.res().open(path); }

} // namespace

int cmdDiff(std::vector<std::string> args) {
    GameMount gm;
    takeMountOptions(args, gm);
    bool json = false;
    std::vector<std::string> pos;
    takeJsonAndPositional(args, json, pos);
    if (pos.size() != 2) throw UsageError{"diff needs two files, A and B"};
    Asset a, b;
    for (int side = 0; side < 2; ++side) {
        const std::string& path = pos[size_t(side)];
        try {
            (side == 0 ? a : b) = openSide(gm, path);
        } catch (const ParseError& e) {
            std::cerr << "rigscope-cli: " << e.what() << "\n";
            return 2;
        } catch (const std::bad_alloc&) {
            std::cerr << "rigscope-cli: " << printable(path) << ": out of memory\n";
            return 2;
        } catch (const std::exception& e) {
            const std::string what = e.what();
            std::cerr << "rigscope-cli: "
                      << (what.rfind(path + ":", 0) == 0 ? printable(what) : printable(path + ": " + what)) << "\n";
            return 2;
        }
    }
    const compare::Side sa = compare::sideOf(a), sb = compare::sideOf(b);
    if (!sa.model && !sb.model && sa.clips.empty() && sb.clips.empty()) {
        std::cerr << "rigscope-cli: " << printable(pos[0]) << ", " << printable(pos[1])
                  << ": neither holds a model or a clip\n";
        return 2;
    }
    for (const auto* s : {&sa, &sb})
        if (!s->model && s->clips.empty()) {
            const std::string& p = s == &sa ? pos[0] : pos[1];
            std::cerr << "rigscope-cli: " << printable(p) << ": holds no model and no clip\n";
            return 2;
        }
    Summary s = compare::diff(sa, sb);
    for (const auto* asset : {&a, &b})
        for (const ClipFile& f : asset->clips)
            if (!f.clip) s.notes.push_back("clip " + f.path + " not compared: " + f.error);
    if (!a.missingHierarchy.empty()) s.notes.push_back("A needs the hierarchy " + a.missingHierarchy + ": not found");
    if (!b.missingHierarchy.empty()) s.notes.push_back("B needs the hierarchy " + b.missingHierarchy + ": not found");

    if (json) {
        Json j;
        j.beginObject().kv("schema", "rigscope-diff/1");
        j.key("a");
        writeSide(j, a.document.path, sa, a);
        j.key("b");
        writeSide(j, b.document.path, sb, b);
        j.kv("identical", s.identical());
        j.key("differences").beginArray();
        for (const Difference& d : s.differences)
            writeDifference(j, d);
        j.endArray();
        j.key("clips").beginArray();
        for (const compare::ClipPair& p : s.clipPairs)
            writeClipPair(j, p);
        j.endArray();
        j.key("notes").beginArray();
        for (const std::string& n : s.notes)
            j.value(n);
        j.endArray();
        j.endObject();
        std::cout << j.out << "\n";
    } else {
        const std::string text = textOf(a.document.path, sa, b.document.path, sb, s);
        size_t start = 0;
        while (start < text.size()) {
            const size_t nl = text.find('\n', start);
            const size_t end = nl == std::string::npos ? text.size() : nl;
            std::cout << printable(text.substr(start, end - start)) << "\n";
            start = end + 1;
        }
    }
    return s.identical() ? 0 : 1;
}

} // namespace rs::cli
