// Heap accounting for the robustness tests. Under ASan: the sanitizer allocator's malloc/free hooks.
// Otherwise this TU replaces the global operator new/delete of the test executable (malloc-backed, so
// behaviour is unchanged) and tracks live bytes with malloc_usable_size.
#include "heap_meter.h"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RS_ASAN 1
#endif

#if RS_ASAN
// From <sanitizer/allocator_interface.h> (shipped with clang, not with GCC; libasan has the symbols).
extern "C" {
size_t __sanitizer_get_allocated_size(const volatile void* p);
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, size_t),
                                              void (*free_hook)(const volatile void*));
}
#else
#include <malloc.h>
#endif

namespace {

std::atomic<int64_t> gLive{0}, gPeak{0};
std::atomic<bool> gTracking{false};

void onAlloc(size_t n) {
    if (!gTracking.load(std::memory_order_relaxed)) return;
    int64_t live = gLive.fetch_add(static_cast<int64_t>(n), std::memory_order_relaxed) + static_cast<int64_t>(n);
    int64_t peak = gPeak.load(std::memory_order_relaxed);
    while (live > peak && !gPeak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
    }
}
void onFree(size_t n) {
    if (gTracking.load(std::memory_order_relaxed)) gLive.fetch_sub(static_cast<int64_t>(n), std::memory_order_relaxed);
}

#if RS_ASAN
extern "C" void mallocHook(const volatile void*, size_t n) { onAlloc(n); }
extern "C" void freeHook(const volatile void* p) {
    if (p) onFree(__sanitizer_get_allocated_size(p));
}
const bool gHooks = [] { return __sanitizer_install_malloc_and_free_hooks(mallocHook, freeHook) != 0; }();
#endif

} // namespace

namespace rs::test {

int64_t peakHeap(const std::function<void()>& fn) {
    gLive = 0;
    gPeak = 0;
    gTracking = true;
    try {
        fn();
    } catch (...) {
        gTracking = false;
        throw;
    }
    gTracking = false;
    return gPeak.load();
}

bool heapMeterActive() {
#if RS_ASAN
    return gHooks;
#else
    return true;
#endif
}

} // namespace rs::test

#if !RS_ASAN
// Counting replacements of the global allocation functions (this test executable only). Frees of blocks
// allocated before tracking started are ignored by clamping: live may dip below zero but peak is unaffected.
void* operator new(size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    onAlloc(malloc_usable_size(p));
    return p;
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
    void* p = std::malloc(n ? n : 1);
    if (p) onAlloc(malloc_usable_size(p));
    return p;
}
void* operator new[](size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept {
    if (!p) return;
    onFree(malloc_usable_size(p));
    std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { operator delete(p); }
#endif
