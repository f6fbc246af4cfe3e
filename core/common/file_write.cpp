#include "common/file_write.h"

#include "common/error.h"
#include "common/file_read.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rs {

namespace {

std::string folderOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The mode a new file gets (0666 less the umask), read without changing the umask (umask(2) would, for every
// thread); an existing destination keeps its own mode.
mode_t modeFor(const std::string& path) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
    mode_t mask = 022;
    if (FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f))
            if (std::strncmp(line, "Umask:", 6) == 0) mask = mode_t(std::strtoul(line + 6, nullptr, 8));
        std::fclose(f);
    }
    return 0666 & ~mask;
}

[[noreturn]] void fail(const std::string& path, const std::string& step, int err) {
    throw ParseError(path, {}, ParseError::kNoOffset, step + ": " + std::strerror(err));
}

} // namespace

void writeFileSafely(const std::string& path, ByteSpan bytes, const std::function<void(ByteSpan)>& check) {
    const std::string folder = folderOf(path);
    const size_t slash = path.rfind('/');
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string temp = folder + "/." + base + ".rigscope-XXXXXX";
    const int fd = mkstemp(temp.data());
    if (fd < 0) fail(path, "cannot create a temporary file in " + folder, errno);
    struct Cleanup {
        std::string temp;
        int fd;
        bool done = false;
        ~Cleanup() {
            if (fd >= 0) close(fd);
            if (!done) unlink(temp.c_str());
        }
    } guard{temp, fd};
    if (fchmod(fd, modeFor(path)) != 0) fail(path, "cannot set the mode of " + temp, errno);
    size_t at = 0;
    while (at < bytes.size) {
        const ssize_t n = write(fd, bytes.data + at, bytes.size - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail(path, "cannot write " + temp, n < 0 ? errno : ENOSPC);
        at += size_t(n);
    }
    if (fsync(fd) != 0) fail(path, "cannot flush " + temp, errno);
    if (close(guard.fd) != 0) {
        guard.fd = -1;
        fail(path, "cannot close " + temp, errno);
    }
    guard.fd = -1;
    std::vector<uint8_t> back;
    try {
        back = readFile(temp, bytes.size + 1, "written");
    } catch (const ParseError& e) {
        throw ParseError(path, {}, ParseError::kNoOffset, "cannot read back " + temp + ": " + e.message());
    }
    if (back.size() != bytes.size || (bytes.size && std::memcmp(back.data(), bytes.data, bytes.size) != 0))
        throw ParseError(path, {}, ParseError::kNoOffset,
                         "the bytes read back from " + temp + " differ from those written");
    if (check) check(ByteSpan(back));
    if (rename(temp.c_str(), path.c_str()) != 0) fail(path, "cannot rename " + temp + " to " + path, errno);
    guard.done = true;
    const int dir = open(folder.c_str(), O_RDONLY | O_DIRECTORY);
    if (dir >= 0) {
        fsync(dir); // the rename itself reaches the disk
        close(dir);
    }
}

} // namespace rs
