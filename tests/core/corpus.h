// Access to the third-party corpus (../shared/corpus). Tests that need it skip (skip.h) when absent.
#pragma once

#include "skip.h"

#include <filesystem>
#include <string>
#include <vector>

namespace rs::test {

// Root of the corpus: $RIGSCOPE_CORPUS or the configured ../shared/corpus. Empty when absent.
std::string corpusDir();

// Files under corpusDir()/sub whose extension (lower-case, with dot) is in exts. Sorted.
std::vector<std::string> corpusFiles(const std::string& sub, const std::vector<std::string>& exts);

} // namespace rs::test

// Use at the top of a corpus test: skips the case (reported as skipped by ctest) when the corpus is absent.
#define RIGSCOPE_REQUIRE_CORPUS(sub)                                                                                   \
    do {                                                                                                               \
        if (rs::test::corpusDir().empty() || !std::filesystem::is_directory(rs::test::corpusDir() + "/" + (sub)))      \
            RIGSCOPE_SKIP("corpus folder " << (sub) << " not found (set RIGSCOPE_CORPUS or place ../shared/corpus "    \
                                           "beside the checkout)");                                                    \
    } while (0)
