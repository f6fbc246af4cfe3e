// Parse errors carry where a file went wrong: file label, chunk path and byte offset.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rs {

// Thrown by every reader on malformed input. what() is one line:
//   "<file>: <chunkPath> at offset <offset>: <message>"
// chunkPath is "0x400/0x10000/0x10007" style (may be empty for non-chunked formats).
class ParseError : public std::runtime_error {
public:
    ParseError(std::string file, std::string chunkPath, uint64_t offset, std::string message);

    const std::string& file() const { return file_; }
    const std::string& chunkPath() const { return chunkPath_; }
    uint64_t offset() const { return offset_; }
    const std::string& message() const { return message_; }

private:
    std::string file_;
    std::string chunkPath_;
    uint64_t offset_;
    std::string message_;
};

// Hex formatting used in chunk paths and messages: 0x10007.
std::string hex(uint32_t v);

} // namespace rs
