// Peak heap use of a piece of code, for the robustness tests (mutation, hostile headers).
#pragma once

#include <cstdint>
#include <functional>

namespace rs::test {

// Peak bytes allocated on the heap while fn runs, above the level when it started (single-threaded code).
int64_t peakHeap(const std::function<void()>& fn);

// False when the build gives no way to observe allocations (then peakHeap returns 0).
bool heapMeterActive();

} // namespace rs::test
