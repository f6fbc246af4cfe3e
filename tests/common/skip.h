// Skipping a test case that cannot run here (the corpus, or a file of it, is absent), so that ctest reports it as
// skipped rather than passed. Every test main returns exitCode(Catch::Session().run(...)): kSkipReturnCode when a
// case skipped and none failed; each case is its own ctest entry (catch_discover_tests) with SKIP_RETURN_CODE set.
#pragma once

#include <catch2/catch.hpp>

namespace rs::test {

constexpr int kSkipReturnCode = 77;

// Records that the running case skipped.
void markSkipped();

// The process exit code for Catch's result: kSkipReturnCode when a case called markSkipped and nothing failed.
int exitCode(int catchResult);

} // namespace rs::test

// Prints "SKIPPED: <message>" and returns from the test case.
#define RIGSCOPE_SKIP(message)                                                                                         \
    do {                                                                                                               \
        ::rs::test::markSkipped();                                                                                     \
        WARN("SKIPPED: " << message);                                                                                  \
        return;                                                                                                        \
    } while (0)
