// The one command-line parser of `rigscope`, for the interactive viewer and the headless --screenshot and --record
// modes.
// It runs before any Qt application object exists, so --help and --version work without a display.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rs::app {

// Which mode an option belongs to.
enum Mode : unsigned {
    Viewer = 1,
    Screenshot = 2,
    Record = 4,
    Both = Viewer | Screenshot,
    Headless = Screenshot | Record,
    All = Viewer | Screenshot | Record
};

struct OptionSpec {
    const char* name;      // long name without "--"
    const char* valueName; // nullptr for a flag
    unsigned modes;
    const char* help;
    bool repeatable = false;
};

// Every option, in the order --help lists them.
const std::vector<OptionSpec>& optionSpecs();

struct CommandLine {
    bool help = false;
    bool version = false;
    bool screenshot = false;                                // --screenshot given
    bool record = false;                                    // --record given
    std::map<std::string, std::vector<std::string>> values; // option name -> values (flags: one empty string)
    std::vector<std::string> files;                         // positional arguments

    bool has(const std::string& name) const { return values.count(name) != 0; }
    std::string value(const std::string& name) const; // last value, "" when absent
};

// Parses argv[1..]. Returns an empty string on success, else the usage error. Options may be written
// `--name VALUE` or `--name=VALUE`; an option of another mode is an error naming the mode it belongs to.
std::string parseCommandLine(int argc, char** argv, CommandLine& out);

std::string helpText();
std::string versionText();

} // namespace rs::app
