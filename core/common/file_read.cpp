#include "common/file_read.h"

#include "common/bytes.h"
#include "common/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace rs {

namespace {

std::string kindOf(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    return "not a regular file";
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
    throw ParseError(path, {}, ParseError::kNoOffset, why);
}

uint64_t checkedSize(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) refuse(path, std::string("cannot open file: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) refuse(path, "is " + kindOf(st.st_mode) + ", not a file");
    return uint64_t(st.st_size);
}

// Opens a path already checked to be a regular file. O_NONBLOCK: should it have been swapped for a FIFO since
// the stat, open() still returns at once and the fstat below refuses it.
int openChecked(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) refuse(path, std::string("cannot open file: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        refuse(path, "is " + kindOf(st.st_mode) + ", not a file");
    }
    return fd;
}

struct Fd {
    int fd;
    ~Fd() { ::close(fd); }
};

// Reads up to n bytes into buf; returns the count read (short at end of file).
size_t readUpTo(const std::string& path, int fd, uint8_t* buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::read(fd, buf + got, n - got);
        if (r < 0) {
            if (errno == EINTR) continue;
            throw ParseError(path, {}, got, std::string("read failed: ") + std::strerror(errno));
        }
        if (r == 0) break;
        got += size_t(r);
    }
    return got;
}

std::string mib(uint64_t n) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f MiB", double(n) / (1024.0 * 1024.0));
    return b;
}

} // namespace

uint64_t regularFileSize(const std::string& path) { return checkedSize(path); }

bool isRegularFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<uint8_t> readFile(const std::string& path, uint64_t maxBytes, const std::string& what) {
    const uint64_t size = checkedSize(path);
    if (size > maxBytes)
        refuse(path, "file of " + std::to_string(size) + " bytes (" + mib(size) + ") is larger than any " + what +
                         " this viewer reads (at most " + mib(maxBytes) + ")");
    Fd f{openChecked(path)};
    std::vector<uint8_t> buf;
    try {
        buf.resize(size_t(size));
    } catch (const std::bad_alloc&) {
        refuse(path, "out of memory reading " + std::to_string(size) + " bytes");
    }
    buf.resize(readUpTo(path, f.fd, buf.data(), buf.size())); // a file that shrank since stat: what is there
    return buf;
}

std::vector<uint8_t> readFileHead(const std::string& path, size_t n) {
    checkedSize(path);
    Fd f{openChecked(path)};
    std::vector<uint8_t> buf(n);
    buf.resize(readUpTo(path, f.fd, buf.data(), n));
    return buf;
}

std::vector<uint8_t> readFileBytes(const std::string& path) { return readFile(path, kMaxInputBytes); }

} // namespace rs
