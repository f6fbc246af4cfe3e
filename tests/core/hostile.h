// Shared by the robustness tests: load a (damaged) file and judge the outcome.
#pragma once

#include "io/loader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::test {

// Loads bytes as path. Returns "" when the file loaded and its model/clips satisfy the contracts of
// scene/validate.h (and pose evaluation ran over them), or when it failed with a ParseError naming path and
// an offset within the bytes; otherwise a description of what went wrong. loaded tells which case it was.
std::string tryLoad(const std::vector<uint8_t>& bytes, const std::string& path, bool& loaded);

// tryLoad plus limits: fails the current test (Catch2 FAIL_CHECK) on a problem, a peak heap above
// 16 x size + 1 MiB, or more than 2 s. Returns true when the file loaded.
bool expectLoadsOrRejects(const std::vector<uint8_t>& bytes, const std::string& path, const std::string& what);

} // namespace rs::test
