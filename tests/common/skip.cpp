#include "skip.h"

#include <atomic>

namespace rs::test {
namespace {
std::atomic<bool> skipped{false};
}

void markSkipped() { skipped = true; }

int exitCode(int catchResult) { return catchResult == 0 && skipped ? kSkipReturnCode : catchResult; }

} // namespace rs::test
