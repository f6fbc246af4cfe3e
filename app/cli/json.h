// Minimal streaming JSON writer for rigscope-cli (no Qt). Non-finite numbers are written as null.
// Output is UTF-8: strings (keys and values) are names from the games' files, CP-1252 bytes converted with
// cp1252ToUtf8; paths from the system go through Json::Path (pathToUtf8). Control characters (C0, DEL, C1)
// are written as \u escapes.
#pragma once

#include "common/cp1252.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rs::cli {

class Json {
public:
    // A file or archive path: kept when valid UTF-8, else read as CP-1252.
    struct Path {
        std::string text;
    };
    std::string out;

    Json& beginObject() { sep(); out += '{'; first_.push_back(true); return *this; }
    Json& endObject() { out += '}'; first_.pop_back(); return *this; }
    Json& beginArray() { sep(); out += '['; first_.push_back(true); return *this; }
    Json& endArray() { out += ']'; first_.pop_back(); return *this; }
    Json& key(const std::string& k) {
        sep();
        str(cp1252ToUtf8(k));
        out += ':';
        afterKey_ = true;
        return *this;
    }
    Json& value(const std::string& s) { sep(); str(cp1252ToUtf8(s)); return *this; }
    Json& value(const Path& p) { sep(); str(pathToUtf8(p.text)); return *this; }
    Json& value(const char* s) { return value(std::string(s)); }
    Json& value(bool b) { sep(); out += b ? "true" : "false"; return *this; }
    Json& value(int v) { return value(static_cast<int64_t>(v)); }
    Json& value(unsigned v) { return value(static_cast<int64_t>(v)); }
    Json& value(int64_t v) { sep(); out += std::to_string(v); return *this; }
    Json& value(uint64_t v) { sep(); out += std::to_string(v); return *this; }
    Json& value(double d) {
        sep();
        if (!std::isfinite(d)) {
            out += "null";
        } else {
            char b[32];
            std::snprintf(b, sizeof b, "%.9g", d);
            out += b;
        }
        return *this;
    }
    Json& value(float f) { return value(static_cast<double>(f)); }
    Json& null() { sep(); out += "null"; return *this; }
    template <class T>
    Json& kv(const std::string& k, const T& v) { key(k); return value(v); }
    Json& floats(const float* p, size_t n) {
        beginArray();
        for (size_t i = 0; i < n; ++i) value(p[i]);
        return endArray();
    }

private:
    void sep() {
        if (afterKey_) {
            afterKey_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) out += ',';
            first_.back() = false;
        }
    }
    // s: valid UTF-8.
    void str(const std::string& s) {
        out += '"';
        for (size_t i = 0; i < s.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(s[i]);
            if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
                // U+0080..U+009F (C1 controls)
                char b[8];
                std::snprintf(b, sizeof b, "\\u%04x", static_cast<unsigned char>(s[++i]));
                out += b;
                continue;
            }
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", c);
                    out += b;
                } else {
                    out += static_cast<char>(c);
                }
            }
        }
        out += '"';
    }
    std::vector<bool> first_;
    bool afterKey_ = false;
};

} // namespace rs::cli
