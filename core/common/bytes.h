// Bounds-checked reading from a byte span. Every read checks the bytes left and throws
// rs::ParseError (file, context path, absolute offset) instead of reading past the end.
#pragma once

#include "common/error.h"

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace rs {

struct ByteSpan {
    const uint8_t* data = nullptr;
    size_t size = 0;
    ByteSpan() = default;
    ByteSpan(const uint8_t* d, size_t n) : data(d), size(n) {}
    explicit ByteSpan(const std::vector<uint8_t>& v) : data(v.data()), size(v.size()) {}
};

// Reads the whole file (at most kMaxInputBytes; only regular files, checked before opening: common/file_read.h);
// throws ParseError naming the file when it cannot be read.
std::vector<uint8_t> readFileBytes(const std::string& path);

// A chunk path ("0x400/0x10000/0x10007") kept as chunk ids and formatted only when it is needed (an error
// or a warning): copying one allocates nothing. Paths deeper than kMaxDepth keep their last ids and format
// as ".../0x..".
class ChunkPath {
public:
    static constexpr int kMaxDepth = 14;
    ChunkPath() = default;
    bool empty() const { return depth_ == 0; }
    // This path with `id` appended.
    ChunkPath child(uint32_t id) const {
        ChunkPath p = *this;
        if (p.n_ == kMaxDepth) {
            std::memmove(p.ids_, p.ids_ + 1, sizeof(uint32_t) * (kMaxDepth - 1));
            --p.n_;
        }
        p.ids_[p.n_++] = id;
        ++p.depth_;
        return p;
    }
    std::string str() const {
        std::string s = depth_ > n_ ? ".../" : "";
        for (int i = 0; i < n_; ++i)
            s += (i ? "/" : "") + hex(ids_[i]);
        return s;
    }
    operator std::string() const { return str(); }
    friend std::string operator+(const std::string& a, const ChunkPath& b) { return a + b.str(); }
    friend std::string operator+(const char* a, const ChunkPath& b) { return a + b.str(); }
    friend std::string operator+(const ChunkPath& a, const std::string& b) { return a.str() + b; }
    friend std::string operator+(const ChunkPath& a, const char* b) { return a.str() + b; }

private:
    uint32_t ids_[kMaxDepth] = {};
    uint8_t n_ = 0;       // ids kept
    uint32_t depth_ = 0;  // ids appended in all
};

// Cursor over [begin, end) of a buffer. Offsets reported in errors are absolute
// (relative to the start of the file the span came from).
// The file name is not copied: `file` must outlive the reader (the callers' file name, or a literal).
// The context is a chunk path (formatted only when an error is raised) or, for formats without chunks, a
// short label.
class ByteReader {
public:
    ByteReader(ByteSpan span, std::string_view file, std::string context = {}, uint64_t baseOffset = 0)
        : data_(span.data), size_(span.size), file_(file), label_(std::move(context)), base_(baseOffset) {}
    ByteReader(ByteSpan span, std::string_view file, const ChunkPath& path, uint64_t baseOffset)
        : data_(span.data), size_(span.size), file_(file), path_(path), base_(baseOffset) {}

    size_t pos() const { return pos_; }
    size_t size() const { return size_; }
    size_t remaining() const { return size_ - pos_; }
    bool atEnd() const { return pos_ >= size_; }
    uint64_t absOffset() const { return base_ + pos_; }
    const uint8_t* data() const { return data_; }
    const uint8_t* cur() const { return data_ + pos_; }
    std::string_view file() const { return file_; }
    // The context as text (the chunk path formatted, or the label).
    std::string context() const { return path_.empty() ? label_ : path_.str(); }
    void setContext(std::string c) {
        label_ = std::move(c);
        path_ = ChunkPath();
    }

    [[noreturn]] void fail(const std::string& msg) const { failAt(pos_, msg); }
    [[noreturn]] void failAt(size_t localPos, const std::string& msg) const {
        throw ParseError(std::string(file_), context(), base_ + localPos, msg);
    }

    void need(size_t n) const {
        if (n > remaining())
            fail("need " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
    }
    // Throws unless count * elemSize bytes remain (overflow-safe). Call before allocating count items.
    void needCount(uint64_t count, size_t elemSize, const char* what) const {
        if (elemSize != 0 && count > remaining() / elemSize)
            fail(std::string(what) + " count " + std::to_string(count) + " exceeds the " +
                 std::to_string(remaining()) + " bytes left");
    }
    void seek(size_t p) {
        if (p > size_) fail("seek to " + std::to_string(p) + " past end " + std::to_string(size_));
        pos_ = p;
    }
    void skip(size_t n) {
        need(n);
        pos_ += n;
    }
    ByteSpan take(size_t n) {
        need(n);
        ByteSpan s(data_ + pos_, n);
        pos_ += n;
        return s;
    }
    // A sub-reader over the next n bytes; advances this reader past them.
    ByteReader sub(size_t n, std::string context) {
        need(n);
        ByteReader r(ByteSpan(data_ + pos_, n), file_, std::move(context), base_ + pos_);
        pos_ += n;
        return r;
    }
    // The same with this reader's context (no string is copied for a chunk path).
    ByteReader sub(size_t n) {
        need(n);
        ByteReader r = *this;
        r.data_ = data_ + pos_;
        r.size_ = n;
        r.pos_ = 0;
        r.base_ = base_ + pos_;
        pos_ += n;
        return r;
    }

    uint8_t u8() {
        need(1);
        return data_[pos_++];
    }
    uint16_t u16le() { return static_cast<uint16_t>(le(2)); }
    uint32_t u32le() { return static_cast<uint32_t>(le(4)); }
    int16_t i16le() { return static_cast<int16_t>(u16le()); }
    int32_t i32le() { return static_cast<int32_t>(u32le()); }
    float f32le() {
        uint32_t u = u32le();
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    glm::vec3 vec3le() {
        const float x = f32le(), y = f32le(), z = f32le();
        return {x, y, z};
    }
    uint16_t u16be() { return static_cast<uint16_t>(be(2)); }
    uint32_t u32be() { return static_cast<uint32_t>(be(4)); }
    int16_t i16be() { return static_cast<int16_t>(u16be()); }

    // Fixed-size field holding a NUL-padded string (stops at the first NUL).
    std::string fixedString(size_t n) {
        need(n);
        const char* p = reinterpret_cast<const char*>(data_ + pos_);
        size_t len = 0;
        while (len < n && p[len] != 0) ++len;
        pos_ += n;
        return std::string(p, len);
    }
    // The rest of the span as a string, cut at the first NUL.
    std::string restAsCString() { return fixedString(remaining()); }

private:
    uint64_t le(size_t n) {
        need(n);
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= uint64_t(data_[pos_ + i]) << (8 * i);
        pos_ += n;
        return v;
    }
    uint64_t be(size_t n) {
        need(n);
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v = (v << 8) | data_[pos_ + i];
        pos_ += n;
        return v;
    }

    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
    std::string_view file_;
    ChunkPath path_;
    std::string label_;
    uint64_t base_;
};

// Little-endian writer used by the project's own fixture writers.
class ByteWriter {
public:
    std::vector<uint8_t> buf;
    size_t size() const { return buf.size(); }
    void u8(uint8_t v) { buf.push_back(v); }
    void u16le(uint16_t v) { putLe(v, 2); }
    void u32le(uint32_t v) { putLe(v, 4); }
    void i16le(int16_t v) { putLe(static_cast<uint16_t>(v), 2); }
    void i32le(int32_t v) { putLe(static_cast<uint32_t>(v), 4); }
    void f32le(float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        putLe(u, 4);
    }
    void u16be(uint16_t v) { putBe(v, 2); }
    void u32be(uint32_t v) { putBe(v, 4); }
    void bytes(const void* p, size_t n) {
        auto* b = static_cast<const uint8_t*>(p);
        buf.insert(buf.end(), b, b + n);
    }
    void zeros(size_t n) { buf.insert(buf.end(), n, 0); }
    // NUL-terminated string.
    void cstr(std::string_view s) {
        bytes(s.data(), s.size());
        u8(0);
    }
    // NUL-padded fixed field; s is cut to n-1 characters.
    void fixedString(std::string_view s, size_t n) {
        size_t len = s.size() < n ? s.size() : (n ? n - 1 : 0);
        bytes(s.data(), len);
        zeros(n - len);
    }
    void patchU32le(size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i) buf[at + i] = uint8_t(v >> (8 * i));
    }
    void patchU32be(size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i) buf[at + i] = uint8_t(v >> (8 * (3 - i)));
    }

private:
    void putLe(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) buf.push_back(uint8_t(v >> (8 * i)));
    }
    void putBe(uint64_t v, int n) {
        for (int i = n - 1; i >= 0; --i) buf.push_back(uint8_t(v >> (8 * i)));
    }
};

} // namespace rs
