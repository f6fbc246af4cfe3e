// Shared by the robustness tests: load a (damaged) file and judge the outcome.
#pragma once

#include "format_catch.h"
#include "resolve/resolver.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rs::test {

// Loads bytes as path. Returns "" when the file loaded and its model/clips satisfy the contracts of
// scene/validate.h (and pose evaluation ran over them), or when it failed with a ParseError naming path and
// an offset within the bytes; otherwise a description of what went wrong. loaded tells which case it was.
// clipBytes (optional) receives the size of the decoded dense clip data of a loaded file.
std::string tryLoad(const std::vector<uint8_t>& bytes, const std::string& path, bool& loaded,
                    size_t* clipBytes = nullptr);

// "" when a refusal is well formed: names `path` (what() starts with it), an offset within the `size` bytes or
// ParseError::kNoOffset, a non-empty message, no control character in what(); else what is wrong.
std::string judgeRefusal(const rs::ParseError& e, size_t size, const std::string& path);

// Probes and decodes bytes as the texture `path` (core/texture): "" when both succeed and agree, or when they
// refuse with a well-formed ParseError (judgeRefusal); else the problem. imageBytes: decoded RGBA size.
std::string tryDecodeTexture(const std::vector<uint8_t>& bytes, const std::string& path, bool& decoded,
                             size_t* imageBytes = nullptr);
// Heap a texture decode may use: the decoder's stated bound per input byte (texture.h) + 1 MiB.
int64_t textureHeapAllowance(size_t inputBytes, const std::string& path);

// Bytes held by the dense per-frame tracks of the clips (what keyframe-compressed formats expand to).
size_t decodedClipBytes(const Document& d);

// Heap a load may use: 16 x the input + 1 MiB, plus twice the decoded dense clip data (formats with
// keyframe-compressed clips, e.g. W3D timecoded channels, legitimately expand beyond their file size;
// readers cap that expansion: W3D at 65536 frames and 2^24 frame x pivot samples).
int64_t heapAllowance(size_t inputBytes, size_t clipBytes);

// tryLoad plus limits: fails the current test (Catch2 FAIL_CHECK) on a problem, a peak heap above
// heapAllowance(), or more than 2 s. Returns true when the file loaded.
bool expectLoadsOrRejects(const std::vector<uint8_t>& bytes, const std::string& path, const std::string& what);

// Chunk files of the form  u32 id | u32 size (bit 31 = container) | payload  (Alamo, W3D writer output).
struct ChunkAt {
    size_t header, begin, end; // offsets of the header, payload start, payload end
    uint32_t id;
    bool container;
    std::string path; // "0x400/0x10000/0x10007"
};
// Every chunk of a well-formed file, depth first.
std::vector<ChunkAt> chunks(const std::vector<uint8_t>& bytes);
// Offsets of the mini-chunks (u8 type, u8 size) when a data chunk's payload is exactly a sequence of them.
std::vector<size_t> minis(const std::vector<uint8_t>& bytes, const ChunkAt& c);
uint32_t u32at(const std::vector<uint8_t>& b, size_t at);
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v);

struct Sample {
    std::string name; // file name given to the loader (its extension selects the reader)
    std::vector<uint8_t> bytes;
};
using Cases = std::vector<std::pair<std::string, std::vector<uint8_t>>>;
using CaseGen = std::function<void(const std::vector<uint8_t>&, const ChunkAt&, Cases&)>;

// Runs expectLoadsOrRejects on every case gen makes for every chunk of s. Returns the number of cases
// (loaded counts those that loaded).
int patchChunks(const Sample& s, const CaseGen& gen, int& loaded);

// Case generators: the chunk's size set to 0x7FFFFFF0, 0x7FFFFFFF and one past its payload;
void chunkSizeCases(const std::vector<uint8_t>& b, const ChunkAt& c, Cases& out);
// every aligned u32 of a data chunk's first 256 bytes (first 16 of bigger ones) set to 0x7FFFFFFF,
// 0xFFFFFFFF and 0x80000000;
void u32FieldCases(const std::vector<uint8_t>& b, const ChunkAt& c, Cases& out);
// every mini-chunk's size set to 0xFF and one more than stored (adds nothing for chunks without minis).
void miniSizeCases(const std::vector<uint8_t>& b, const ChunkAt& c, Cases& out);

} // namespace rs::test
