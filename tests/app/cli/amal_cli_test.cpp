// rigscope-cli info/amal on synthetic AMAL banks: JSON content and exit codes (0 ok, 1 bad file, 2 usage).
#include "amal/amal_writer.h"
#include "cli_run.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace {

using rs::test::runCli;
using Run = rs::test::CliRun;

std::string writeTemp(const std::string& name, const std::vector<uint8_t>& bytes) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path.string();
}

} // namespace

TEST_CASE("amal cli: info and amal commands", "[amal][cli]") {
    using namespace rs::amal;
    if (!std::filesystem::exists(RIGSCOPE_CLI)) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    BankSpec s;
    MovementSpec m;
    m.name = "Zig";
    m.speed = 2;
    m.x = {moveByte(5), moveByte(5)};
    m.y = {moveByte(-3), moveByte(-3)};
    s.movements = {m};
    s.programs = {"Move 8,0,4", "J Q"};
    s.environment = "Screen 0";
    const std::string abk = writeTemp("rigscope_amal_cli.abk", writeAmalBank(s));
    const std::string spr = writeTemp("rigscope_amal_cli_sprites.abk", writeImageBank(1, 2));

    Run info = runCli("info --json " + abk);
    CHECK(info.status == 0);
    CHECK(info.out.find("\"format\":\"amal\"") != std::string::npos);
    CHECK(info.out.find(
              "{\"index\":1,\"name\":\"Zig\",\"speed\":2,\"x_bytes\":2,\"y_bytes\":2,\"x_steps\":2,\"y_steps\":2,"
              "\"play_steps\":2,\"duration_ticks\":5,\"duration\":0.1,\"end\":[10,-6]}") != std::string::npos);
    CHECK(info.out.find(
              "\"index\":1,\"length\":3,\"lines\":1,\"first_line\":\"J Q\",\"error\":{\"code\":3,\"amos_error\":109") !=
          std::string::npos);
    CHECK(info.out.find("\"environment\":\"Screen 0\"") != std::string::npos);

    Run mv = runCli("amal --json " + abk + " --movement 1 --ticks 4");
    CHECK(mv.status == 0);
    CHECK(
        mv.out.find("\"ticks\":[{\"t\":0,\"x\":0,\"y\":0,\"a\":0},{\"t\":1,\"x\":5,\"y\":-3,\"a\":0},{\"t\":2,\"x\":5,"
                    "\"y\":-3,\"a\":0},{\"t\":3,\"x\":10,\"y\":-6,\"a\":0},{\"t\":4,\"x\":10,\"y\":-6,\"a\":0}]") !=
        std::string::npos);

    Run pr = runCli("amal --json " + abk + " --program 0 --ticks 2");
    CHECK(pr.status == 0);
    CHECK(pr.out.find("{\"t\":1,\"x\":2,\"y\":0,\"a\":0},{\"t\":2,\"x\":4,\"y\":0,\"a\":0}") != std::string::npos);

    CHECK(runCli("amal --json " + abk + " --program 1").status == 1); // label not defined
    CHECK(runCli("amal --json " + abk + " --movement 9").status == 1);
    CHECK(runCli("info " + spr).status == 1); // no Amal bank
    CHECK(runCli("amal --json " + abk).status == 2);
    CHECK(runCli("amal --json " + abk + " --movement 1 --program 0").status == 2);
    CHECK(runCli("amal " + abk + " --movement 1").status == 2);
    CHECK(runCli("amal --json " + abk + " --set Q=1 --program 0").status == 2);
    std::filesystem::remove(abk);
    std::filesystem::remove(spr);
}
