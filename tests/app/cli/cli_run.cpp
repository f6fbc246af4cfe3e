#include "cli_run.h"

#include <cstdio>
#include <filesystem>
#include <sys/wait.h>

namespace rs::test {

bool memoryLimitEnforced() {
#if defined(__SANITIZE_ADDRESS__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

CliRun runCli(const std::string& args, Stderr err, int timeoutSeconds, int addressSpaceMiB) {
    CliRun r;
    const std::string limit = addressSpaceMiB > 0 && memoryLimitEnforced()
                                  ? "ulimit -v " + std::to_string(addressSpaceMiB * 1024) + " && "
                                  : std::string();
    const std::string cmd =
        limit + (timeoutSeconds > 0 ? "timeout -k 1 " + std::to_string(timeoutSeconds) + " " : std::string()) +
        std::string(RIGSCOPE_CLI) + " " + args + (err == Stderr::Merge ? " 2>&1" : " 2>/dev/null");
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

bool cliBuilt() {
    std::error_code ec;
    return std::filesystem::exists(RIGSCOPE_CLI, ec);
}

} // namespace rs::test
