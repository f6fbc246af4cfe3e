// Test main for the Catch2 suites without Qt: skipped cases exit with rs::test::kSkipReturnCode.
#define CATCH_CONFIG_RUNNER
#include "skip.h"

int main(int argc, char** argv) { return rs::test::exitCode(Catch::Session().run(argc, argv)); }
