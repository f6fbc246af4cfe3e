// Native side of the web viewer's parse-throughput ratio (web/bench/web_bench.mjs runs the WebAssembly side on the
// same files): web_parse_bench SECONDS FILE... -> one JSON line {bytes, passes, bytesPerSecond, error}.
#include "../web/src/parse_bench.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: web_parse_bench SECONDS FILE...\n");
        return 2;
    }
    std::vector<std::string> files(argv + 2, argv + argc);
    const rs::web::ParseThroughput r = rs::web::parseThroughput(files, std::atof(argv[1]));
    std::printf("{\"bytes\":%llu,\"passes\":%d,\"bytesPerSecond\":%.1f,\"error\":\"%s\"}\n",
                (unsigned long long)r.bytes, r.passes, r.bytesPerSecond, r.error.empty() ? "" : "see stderr");
    if (!r.error.empty()) std::fprintf(stderr, "%s\n", r.error.c_str());
    return 0;
}
