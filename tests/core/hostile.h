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
// clipBytes (optional) receives the size of the decoded dense clip data of a loaded file.
std::string tryLoad(const std::vector<uint8_t>& bytes, const std::string& path, bool& loaded,
                    size_t* clipBytes = nullptr);

// Bytes held by the dense per-frame tracks of the clips (what keyframe-compressed formats expand to).
size_t decodedClipBytes(const Document& d);

// Heap a load may use: 16 x the input + 1 MiB, plus twice the decoded dense clip data (formats with
// keyframe-compressed clips, e.g. W3D timecoded channels, legitimately expand beyond their file size;
// readers cap that expansion: W3D at 65536 frames and 2^24 frame x pivot samples).
int64_t heapAllowance(size_t inputBytes, size_t clipBytes);

// tryLoad plus limits: fails the current test (Catch2 FAIL_CHECK) on a problem, a peak heap above
// heapAllowance(), or more than 2 s. Returns true when the file loaded.
bool expectLoadsOrRejects(const std::vector<uint8_t>& bytes, const std::string& path, const std::string& what);

} // namespace rs::test
