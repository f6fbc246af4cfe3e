#include "common/edit_op.h"

#include "common/source_tree.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace rs {

namespace {

const char* kindWord(EditOp::Kind k) {
    switch (k) {
    case EditOp::Kind::RenameTexture:
        return "rename texture";
    case EditOp::Kind::SetShader:
        return "set shader";
    case EditOp::Kind::SetParam:
        return "set";
    case EditOp::Kind::RenameBone:
        return "rename bone";
    case EditOp::Kind::SetBoneVisible:
        return "set bone visible";
    case EditOp::Kind::SetBoneBillboard:
        return "set bone billboard";
    case EditOp::Kind::SetMeshHidden:
        return "set mesh hidden";
    case EditOp::Kind::SetMeshCollision:
        return "set mesh collision";
    case EditOp::Kind::SetProxyTarget:
        return "set proxy target";
    case EditOp::Kind::SetProxyHidden:
        return "set proxy hidden";
    case EditOp::Kind::SetLightColor:
        return "set light colour";
    case EditOp::Kind::SetLightIntensity:
        return "set light intensity";
    case EditOp::Kind::SetDazzleColor:
        return "set dazzle colour";
    case EditOp::Kind::SetDazzleRate:
        return "set dazzle rate";
    case EditOp::Kind::RenameClip:
        return "rename clip";
    case EditOp::Kind::TrimClip:
        return "trim clip";
    case EditOp::Kind::SetClipRate:
        return "set clip rate";
    case EditOp::Kind::SetMeshTwoSided:
        return "set mesh two-sided";
    }
    return "edit";
}

} // namespace

std::string describeEdit(const EditOp& op) {
    std::string s = kindWord(op.kind);
    switch (op.kind) {
    case EditOp::Kind::RenameTexture:
    case EditOp::Kind::RenameBone:
        return s + " " + op.name + " -> " + op.value;
    case EditOp::Kind::SetShader:
        return s + (op.target.empty() ? std::string() : " of " + op.target) +
               (op.name.empty() ? std::string() : " " + op.name) + " -> " + op.value;
    case EditOp::Kind::SetParam:
        return s + " " + op.target + "." + op.name + " = " + op.value;
    case EditOp::Kind::TrimClip:
        return s + " to frames " + std::to_string(op.first) + ".." + std::to_string(op.last);
    default:
        return s + (op.target.empty() ? std::string() : " " + op.target) + " = " + op.value;
    }
}

std::vector<float> editNumbers(const std::string& value, size_t count, const std::string& file,
                               const std::string& what) {
    std::vector<float> out;
    auto bad = [&]() {
        return EditError(file + ": " + what + " takes " + std::to_string(count) +
                         (count == 1 ? " number" : " numbers") + ", got '" + value + "'");
    };
    if (!value.empty() && value[0] == '#') {
        const size_t digits = value.size() - 1;
        // #RRGGBB gives 3 numbers, #RRGGBBAA 4; #RRGGBB for 4 numbers has alpha 1.
        if ((digits != 6 && digits != 8) || (digits / 2 != count && !(digits == 6 && count == 4))) throw bad();
        for (size_t i = 0; i < digits; i += 2) {
            const char pair[3] = {value[1 + i], value[2 + i], 0};
            if (!std::isxdigit(static_cast<unsigned char>(pair[0])) ||
                !std::isxdigit(static_cast<unsigned char>(pair[1])))
                throw bad();
            out.push_back(float(std::strtol(pair, nullptr, 16)) / 255.0f);
        }
        if (out.size() < count) out.push_back(1.0f);
        return out;
    }
    std::string text = value;
    for (char& c : text)
        if (c == ',') c = ' ';
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        char* end = nullptr;
        const float v = std::strtof(word.c_str(), &end);
        if (end != word.c_str() + word.size() || !std::isfinite(v)) throw bad();
        out.push_back(v);
    }
    if (out.size() != count) throw bad();
    return out;
}

int64_t editInteger(const std::string& value, const std::string& file, const std::string& what) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || end != value.c_str() + value.size() || errno)
        throw EditError(file + ": " + what + " takes a whole number, got '" + value + "'");
    return v;
}

bool editBool(const std::string& value, const std::string& file, const std::string& what) {
    for (const char* t : {"1", "true", "yes", "on"})
        if (equalsNoCase(value, t)) return true;
    for (const char* f : {"0", "false", "no", "off"})
        if (equalsNoCase(value, f)) return false;
    throw EditError(file + ": " + what + " takes 1 or 0 (true or false), got '" + value + "'");
}

std::string editText(const float* v, size_t count) {
    std::string s;
    for (size_t i = 0; i < count; ++i) {
        char b[32];
        std::snprintf(b, sizeof b, "%g", double(v[i]));
        s += (i ? " " : "") + std::string(b);
    }
    return s;
}

bool editTargets(const std::string& target, const std::string& name, size_t index) {
    if (target.empty()) return true;
    const size_t hash = target.rfind('#');
    if (hash != std::string::npos && hash + 1 < target.size() &&
        target.find_first_not_of("0123456789", hash + 1) == std::string::npos) {
        return equalsNoCase(target.substr(0, hash), name) &&
               std::strtoul(target.c_str() + hash + 1, nullptr, 10) == index;
    }
    return equalsNoCase(target, name);
}

} // namespace rs
