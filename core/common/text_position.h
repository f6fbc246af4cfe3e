// Where a byte of a text file is, and how deeply a JSON text nests: shared by the readers of the JSON files users
// write (patch files, modinfo.json, check baselines and suppressions), which check nesting before a parser that
// recurses sees the text and name errors by line and column. Header-only, standard C++.
#pragma once

#include <cstddef>
#include <string_view>

namespace rs {

struct TextPosition {
    size_t line = 1, column = 1; // 1-based; a tab or a UTF-8 byte counts one column
};

// The line and column of byte `offset` of `text` (offsets past the end give the position after the last byte).
inline TextPosition textPositionOf(std::string_view text, size_t offset) {
    TextPosition p;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

// The offset of the first '[' or '{' (outside JSON strings) that opens a level deeper than `maxDepth`;
// std::string_view::npos when the text nests no deeper.
inline size_t jsonTooDeepAt(std::string_view text, size_t maxDepth) {
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) return i;
        } else if ((c == ']' || c == '}') && depth) {
            --depth;
        }
    }
    return std::string_view::npos;
}

} // namespace rs
