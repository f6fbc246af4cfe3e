#include "common/error.h"

#include "common/bytes.h"

#include <cstdio>
#include <fstream>

namespace rs {

static std::string composeMessage(const std::string& file, const std::string& path, uint64_t offset,
                                  const std::string& message) {
    std::string s = file.empty() ? std::string("<memory>") : file;
    s += ": ";
    if (!path.empty()) s += "chunk " + path + " ";
    s += "at offset " + std::to_string(offset) + ": " + message;
    return s;
}

ParseError::ParseError(std::string file, std::string chunkPath, uint64_t offset, std::string message)
    : std::runtime_error(composeMessage(file, chunkPath, offset, message)), file_(std::move(file)),
      chunkPath_(std::move(chunkPath)), offset_(offset), message_(std::move(message)) {}

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%X", v);
    return b;
}

std::vector<uint8_t> readFileBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw ParseError(path, {}, 0, "cannot open file");
    std::streamoff n = f.tellg();
    if (n < 0) throw ParseError(path, {}, 0, "cannot read file size");
    std::vector<uint8_t> buf(static_cast<size_t>(n));
    f.seekg(0);
    if (n > 0 && !f.read(reinterpret_cast<char*>(buf.data()), n))
        throw ParseError(path, {}, 0, "read failed");
    return buf;
}

} // namespace rs
