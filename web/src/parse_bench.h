// Parse throughput of core's readers: one function compiled into the native benchmark (bench/web_parse_bench.cpp)
// and into the WebAssembly module (rigscope_web.cpp, benchParse), so that their ratio compares the two builds of
// the same code on the same files.
#pragma once

#include "formats/formats.h"

#include <chrono>
#include <string>
#include <vector>

namespace rs::web {

struct ParseThroughput {
    double bytesPerSecond = 0;
    uint64_t bytes = 0; // of one pass over the files
    int passes = 0;
    std::string error; // the first file that did not read ("" when all did)
};

// Reads every file once (not timed), then parses all of them with readDocument (no companion lookups) pass after
// pass until `seconds` have passed (at least one pass).
inline ParseThroughput parseThroughput(const std::vector<std::string>& files, double seconds) {
    ParseThroughput r;
    std::vector<std::vector<uint8_t>> bytes;
    for (const std::string& f : files) {
        bytes.push_back(readInputFile(f));
        r.bytes += bytes.back().size();
    }
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    double elapsed = 0;
    do {
        for (size_t i = 0; i < files.size(); ++i) {
            try {
                ReadContext c;
                c.label = files[i];
                Document d = readDocument(ByteSpan(bytes[i]), c);
                (void)d;
            } catch (const std::exception& e) {
                if (r.error.empty()) r.error = e.what();
            }
        }
        ++r.passes;
        elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (elapsed < seconds);
    r.bytesPerSecond = double(r.bytes) * r.passes / elapsed;
    return r;
}

} // namespace rs::web
