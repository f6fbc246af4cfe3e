// Bounded reading of input files. Every path is checked with stat() before it is opened: folders, FIFOs,
// sockets and devices are refused by name (a FIFO is never opened, so a read cannot block forever), and no file
// larger than the caller's cap is read. rs::readFileBytes (bytes.h) is readFile(path, kMaxInputBytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

// Largest file any reader reads whole (the per-format caps of io/loader.h are smaller).
constexpr uint64_t kMaxInputBytes = uint64_t(512) << 20;

// Size of the regular file at path; throws ParseError naming the path when it is missing, unreadable, or not a
// regular file (symbolic links are followed).
uint64_t regularFileSize(const std::string& path);

// Whole file, at most maxBytes (ParseError naming the file, its size and the cap when larger). what names the
// kind of file in that message ("Alamo model"). Allocation failure becomes a ParseError too.
std::vector<uint8_t> readFile(const std::string& path, uint64_t maxBytes, const std::string& what = "input");

// The first n bytes (fewer when the file is shorter), same checks; for format detection before a full read.
std::vector<uint8_t> readFileHead(const std::string& path, size_t n);

// True when path names a regular file (following links); never opens it. For lookups of companion files.
bool isRegularFile(const std::string& path);

} // namespace rs
