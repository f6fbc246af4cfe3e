// Valve's text KeyValues format (VDF), as Steam writes libraryfolders.vdf and appmanifest_*.acf (no Qt).
//
//   file   := pair*
//   pair   := token ( token | '{' pair* '}' )        a key with a string value or a block of pairs
//   token  := '"' chars with \" \\ \n \t escapes '"' | bare characters up to white space, '"', '{' or '}'
//   comments: "//" to the end of the line; "#include"/"#base" lines and "[$WIN32]" conditions are kept as
//   ordinary tokens (Steam's own files have none).
//
// Hostile input is refused by name: more than kMaxVdfBytes, deeper than kMaxVdfDepth blocks, more than
// kMaxVdfPairs pairs, an unterminated string or block, a '}' with no '{', a key with no value. Errors are
// ParseError naming the file with "line L, column C".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rs::games {

constexpr size_t kMaxVdfBytes = size_t(4) << 20; // libraryfolders.vdf of a 100-library machine is ~20 KB
constexpr size_t kMaxVdfDepth = 32;
constexpr size_t kMaxVdfPairs = 200000;

struct VdfNode {
    std::string key;
    std::string value;             // a string value; "" for a block
    bool block = false;            // { ... }
    std::vector<VdfNode> children; // a block's pairs, in file order (keys may repeat)
    int line = 0, column = 0;      // where the key starts (1-based)

    // The first child whose key equals `k` ignoring ASCII case (VDF keys are case-insensitive); null when none.
    const VdfNode* find(std::string_view k) const;
    // find(k)'s string value, or `fallback` when absent or a block.
    std::string get(std::string_view k, std::string fallback = {}) const;
};

// Parses `text` (the file's bytes; a UTF-8 BOM is skipped) into a root block holding the top-level pairs.
// Throws ParseError naming `file` and the line and column of the first problem.
VdfNode parseVdf(std::string_view text, const std::string& file);

} // namespace rs::games
