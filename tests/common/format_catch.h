// Catch prints rs::Format by its registry name ("alo", "w3d", ...) in failed checks.
#pragma once

#include "formats/formats.h"

#include <catch2/catch.hpp>

#include <string>

namespace Catch {
template <> struct StringMaker<rs::Format> {
    static std::string convert(rs::Format f) {
        const std::string name = rs::formatName(f);
        return "Format(" + (name.empty() ? std::string("unknown") : name) + ")";
    }
};
} // namespace Catch
