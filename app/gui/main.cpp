// rigscope: the desktop viewer (placeholder until the UI issue lands).
#include <cstdio>
int main() {
    std::puts("rigscope GUI not built yet; use rigscope-cli");
    return 0;
}
