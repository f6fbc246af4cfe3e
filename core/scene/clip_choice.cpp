#include "clip_choice.h"

#include <cctype>

namespace rs {

namespace {

bool idleToken(std::string_view t) {
    auto up = [&](size_t i) { return char(std::toupper(static_cast<unsigned char>(t[i]))); };
    auto digitsFrom = [&](size_t i) {
        for (; i < t.size(); ++i)
            if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
        return true;
    };
    if (t.size() < 3 || up(0) != 'I' || up(1) != 'D' || up(2) != 'L') return false;
    if (digitsFrom(3)) return true;                                              // IDL, IDL2
    return std::isalpha(static_cast<unsigned char>(t[3])) != 0 && digitsFrom(4); // IDLE, IDLA, IDLB2
}

} // namespace

bool isIdleClipName(std::string_view name) {
    size_t start = 0;
    for (size_t i = 0; i <= name.size(); ++i) {
        const bool sep = i == name.size() || !std::isalnum(static_cast<unsigned char>(name[i]));
        if (!sep) continue;
        if (i > start && idleToken(name.substr(start, i - start))) return true;
        start = i + 1;
    }
    return false;
}

int pickInitialClip(const std::vector<std::string>& names, const std::vector<bool>& fits) {
    int first = -1;
    for (size_t i = 0; i < names.size() && i < fits.size(); ++i) {
        if (!fits[i]) continue;
        if (isIdleClipName(names[i])) return int(i);
        if (first < 0) first = int(i);
    }
    return first;
}

} // namespace rs
