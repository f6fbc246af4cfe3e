// Runs build/bin/rigscope-cli (RIGSCOPE_CLI) for the CLI tests.
#pragma once

#include <string>

namespace rs::test {

struct CliRun {
    int status = -1;  // exit status, -1 when it did not exit normally or could not start
    std::string out;  // stdout, plus stderr when asked for
};

enum class Stderr { Drop, Merge };

// Runs `rigscope-cli ARGS` through the shell (ARGS is pasted as is). timeoutSeconds > 0: under timeout(1), which
// kills a hung run (status 124): a guard for the test suite, not a speed test. addressSpaceMiB > 0: the CLI runs
// with its address space limited to that many MiB (`ulimit -v`), so a read or allocation beyond it fails inside
// the CLI; ignored in sanitizer builds, whose shadow memory needs terabytes of address space.
CliRun runCli(const std::string& args, Stderr err = Stderr::Drop, int timeoutSeconds = 0, int addressSpaceMiB = 0);

// True when runCli can enforce addressSpaceMiB (not a sanitizer build).
bool memoryLimitEnforced();

// True when the CLI binary exists (core_tests depends on it, but a partial build may lack it).
bool cliBuilt();

} // namespace rs::test
