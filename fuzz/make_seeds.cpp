// Writes seed inputs for the fuzz targets from the project's own writers: make_seeds OUTDIR creates
// OUTDIR/<target>/<name> for every fixture the writers produce. Readers whose writers are not in core yet
// get no synthetic seeds (tools/fuzz.sh adds the corpus files when present).
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "common/bytes.h"
#include "demo/demo_model.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

int written = 0;

void put(const std::string& dir, const std::string& target, const std::string& name, const std::vector<uint8_t>& b) {
    std::filesystem::create_directories(dir + "/" + target);
    std::ofstream(dir + "/" + target + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    ++written;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_seeds OUTDIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    using namespace rs;
    put(dir, "alamo_model", "synthetic.alo", alamo::writeModel(test::syntheticModel()));
    put(dir, "alamo_model", "synthetic205.alo", alamo::writeModel(test::syntheticModel(), {true, true, true, false}));
    put(dir, "alamo_model", "demo.alo", demo::demoAloBytes());
    put(dir, "alamo_clip", "synthetic1.ala", alamo::writeClip(test::syntheticClip(), {1}));
    put(dir, "alamo_clip", "synthetic2.ala", alamo::writeClip(test::syntheticClip(), {2}));
    put(dir, "alamo_clip", "demo.ala", demo::demoAlaBytes());
    std::printf("make_seeds: %d seed files in %s\n", written, dir.c_str());
    return 0;
}
