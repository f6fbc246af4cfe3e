// Minimal streaming JSON writer for rigscope-cli (no Qt). Non-finite numbers are written as null.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rs::cli {

class Json {
public:
    std::string out;

    Json& beginObject() { sep(); out += '{'; first_.push_back(true); return *this; }
    Json& endObject() { out += '}'; first_.pop_back(); return *this; }
    Json& beginArray() { sep(); out += '['; first_.push_back(true); return *this; }
    Json& endArray() { out += ']'; first_.pop_back(); return *this; }
    Json& key(const std::string& k) {
        sep();
        str(k);
        out += ':';
        afterKey_ = true;
        return *this;
    }
    Json& value(const std::string& s) { sep(); str(s); return *this; }
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
    void str(const std::string& s) {
        out += '"';
        for (unsigned char c : s) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20 || c >= 0x7F) {
                    // Keep output ASCII: file strings are not guaranteed to be UTF-8.
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
