// Parse errors carry where a file went wrong: file label, chunk path and byte offset.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rs {

// Thrown by every reader on malformed input. what() is one line:
//   "<file>: chunk <chunkPath> at offset <offset>: <message>"
// chunkPath is "0x400/0x10000/0x10007" style; a path not starting with "0x" names a field and reads
// "field <chunkPath>"; it may be empty. offset kNoOffset (a fault with no place in the file: a missing companion
// file, a clip that does not fit a model, a file refused by its size) leaves out "at offset". Non-printable bytes
// of every part are escaped in what() (printable()); the accessors return them as given.
class ParseError : public std::runtime_error {
public:
    static constexpr uint64_t kNoOffset = ~uint64_t(0);

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

// s safe to print on a terminal: control characters (C0, DEL, C1) and bytes that are not UTF-8 become \xNN;
// valid UTF-8 text is kept.
std::string printable(const std::string& s);

} // namespace rs
