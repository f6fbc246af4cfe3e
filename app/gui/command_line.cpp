#include "command_line.h"

#include <cstring>

#ifndef RIGSCOPE_VERSION
#define RIGSCOPE_VERSION "unknown"
#endif

namespace rs::app {

const std::vector<OptionSpec>& optionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"help", nullptr, All, "Print this help and exit."},
        {"version", nullptr, All, "Print the version and exit."},
        {"size", "WxH", All, "Window size, or image size with --screenshot and --record (default 800x600)."},
        {"frame", "N", Both, "Frame of the clip to show (stored frame N)."},
        {"game", "DIR", All,
         "Mount an installed game folder (repeatable): FILE may then be a game path or ARCHIVE:PATH, and textures, "
         "clips, hierarchies and animation libraries are found the way the game finds them.",
         true},
        {"mod", "DIR", All,
         "Mount a mod folder over the --game folders (repeatable; the first one wins): several folders may make one "
         "mod, e.g. a mod laid out as sources is its definitions' folder and its art's folder.",
         true},
        {"window-screenshot", "OUT.png", Viewer,
         "Open FILE (or the demo) as File > Open does, grab the whole window to OUT.png and exit."},
        {"select-bone", "NAME", Viewer, "With --window-screenshot: select this bone first."},
        {"play", nullptr, Viewer, "With --window-screenshot: start playback before grabbing."},
        {"screenshot", "OUT.png", Screenshot,
         "Headless mode: render one frame of MODEL (default: the built-in demo) to OUT.png and exit."},
        {"clip", "FILE", Headless, "Clip file to apply (default: the model's own or first companion clip)."},
        {"object", "NAME", Headless,
         "Render the game object NAME of the --game/--mod folders instead of a MODEL: its main model with the "
         "models it attaches at bones (EaW hardpoints), as the Objects panel opens it."},
        {"state", "S", Headless,
         "With --object: the state to show, as the Scene panel lists it (intact, \"HP_X destroyed\", damaged, "
         "\"dying: ...\"; SAGE condition flags such as DAMAGED), case-insensitive, also without the kind in "
         "parentheses (MOVING for \"MOVING (animation)\"), or its number from 0 (default: the first); "
         "`rigscope-cli object NAME` lists them."},
        {"time", "SECONDS", Screenshot,
         "Time in the clip (exclusive with --frame; default 0, for a particle system shown alone the moment its "
         "thumbnail shows: when its particles show most)."},
        {"lod", "N", Headless, "LOD level (default: the most detailed)."},
        {"alt", "N", Headless, "ALT (damage) level, 0 = intact."},
        {"faction-color", "#RRGGBB", Headless, "Faction colour for colorized materials."},
        {"night", nullptr, Headless, "Show night-only dazzles."},
        {"build-fraction", "F", Headless,
         "How far C&C 3 alien structures are built, 0..1 (ObjectsAlienBuildup.fx's fraction, the Scene panel's "
         "\"Built\"; default 1: built)."},
        {"lights", "land|space", Headless,
         "Light preset of the Alamo shaders, as the Scene panel's (default: land; with --object, the preset of the "
         "object's map kind)."},
        {"skeleton", nullptr, Headless, "Draw the skeleton."},
        {"wireframe", nullptr, Headless, "Draw triangle edges over the shaded model."},
        {"texture-dir", "DIR", Headless, "Extra folder searched for textures (repeatable).", true},
        {"no-grid", nullptr, Headless, "Do not draw the ground grid."},
        {"labels", nullptr, Headless,
         "Draw the names of the proxies and markers (off by default: every hardpoint and engine proxy would be "
         "named over the model)."},
        {"no-labels", nullptr, Headless, "Do not draw proxy and marker labels (the default)."},
        {"no-particles", nullptr, Headless, "Do not draw the particle systems named by the model's proxies."},
        {"yaw", "DEGREES", Headless, "Camera yaw around the model (default 35; with --turntable: at the first frame)."},
        {"pitch", "DEGREES", Headless, "Camera pitch (default 20)."},
        {"orbit", nullptr, Screenshot,
         "Frame as --turntable recordings do: the camera distance that holds the model at every yaw, so that "
         "screenshots at different --yaw show it at the same scale (default: fitted at this yaw)."},
        {"bench-fps", "SECONDS", Screenshot, "After the capture, play the clip for SECONDS and print the frame rate."},
        {"watch", nullptr, Screenshot,
         "Live reload: after writing OUT.png keep running and render it again each time MODEL, its clip or a "
         "texture it shows changes on disk (a file still being written is waited for; one that stays unreadable is "
         "named and the last picture kept). Each render prints \"rigscope: wrote OUT.png\" on stdout. Until "
         "Ctrl+C."},
        {"record", "OUT", Record,
         "Headless mode: record MODEL (default: the built-in demo) with its clip to OUT and exit. The format comes "
         "from the name: .mp4 (H.264), .webm (VP9), .gif (one palette for the whole recording) or .webp (animated, "
         "lossless). Frame k shows clip time k/FPS; the recording lasts the clip's duration (or --turntable), "
         "round(duration x FPS) frames, and loops. Ctrl+C cancels; the file appears only when complete."},
        {"fps", "N", Record, "Frames per second of the recording (1..120, default 30)."},
        {"turntable", "SECONDS", Record,
         "Turn the camera once around the model over SECONDS, which is then the recording's duration (the clip "
         "loops). The camera stays at one distance, framed for every yaw (as --screenshot --orbit)."},
    };
    return specs;
}

std::string CommandLine::value(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() || it->second.empty() ? std::string() : it->second.back();
}

static const OptionSpec* findSpec(const std::string& name) {
    for (const OptionSpec& s : optionSpecs())
        if (name == s.name) return &s;
    return nullptr;
}

std::string parseCommandLine(int argc, char** argv, CommandLine& out) {
    out = CommandLine{};
    for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0)
            out.screenshot = true;
        if (std::strcmp(argv[i], "--record") == 0 || std::strncmp(argv[i], "--record=", 9) == 0) out.record = true;
    }
    if (out.screenshot && out.record) return "--screenshot and --record are exclusive";
    const unsigned mode = out.screenshot ? Screenshot : out.record ? Record : Viewer;
    bool onlyFiles = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (onlyFiles || arg.empty() || arg[0] != '-' || arg == "-") {
            out.files.push_back(arg);
            continue;
        }
        if (arg == "--") {
            onlyFiles = true;
            continue;
        }
        if (arg == "-h") arg = "--help";
        if (arg == "-v") arg = "--version";
        if (arg.rfind("--", 0) != 0) return "unknown option " + arg;
        std::string name = arg.substr(2), value;
        bool inlineValue = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
            inlineValue = true;
        }
        const OptionSpec* spec = findSpec(name);
        if (!spec) return "unknown option --" + name;
        if (!(spec->modes & mode)) {
            const char* modeName = mode == Screenshot ? "--screenshot" : "--record";
            if (mode == Viewer)
                return "--" + name +
                       ((spec->modes & Headless) == Headless ? " needs --screenshot or --record (headless modes)"
                        : (spec->modes & Screenshot)         ? " needs --screenshot (headless mode)"
                                                             : " needs --record (headless mode)");
            if (spec->modes & Viewer) return "--" + name + " belongs to the interactive viewer, not to " + modeName;
            return "--" + name + " belongs to " + (mode == Screenshot ? "--record" : "--screenshot") + ", not to " +
                   modeName;
        }
        if (spec->valueName) {
            if (!inlineValue) {
                if (i + 1 >= argc) return "--" + name + " needs " + spec->valueName;
                value = argv[++i];
            }
        } else if (inlineValue) {
            return "--" + name + " takes no value";
        }
        auto& slot = out.values[name];
        if (!spec->repeatable && !slot.empty()) return "--" + name + " given more than once";
        slot.push_back(value);
    }
    out.help = out.has("help");
    out.version = out.has("version");
    return {};
}

// The options whose modes are exactly `modes`.
static void appendOptions(std::string& s, unsigned modes) {
    for (const OptionSpec& o : optionSpecs()) {
        if (o.modes != modes) continue;
        std::string head = std::string("  --") + o.name;
        if (o.valueName) head += std::string(" ") + o.valueName;
        if (head.size() < 26)
            head.resize(26, ' ');
        else
            head += "\n" + std::string(26, ' ');
        // The help wrapped at 116 columns, continuation lines under its start.
        std::string line = head;
        size_t pos = 0;
        const std::string help = o.help;
        while (pos < help.size()) {
            size_t end = help.size();
            const size_t nl = line.rfind('\n');
            const size_t width = nl == std::string::npos ? line.size() : line.size() - nl - 1;
            if (width + (end - pos) > 116) {
                end = help.rfind(' ', pos + (116 - width));
                if (end == std::string::npos || end <= pos) end = help.find(' ', pos);
                if (end == std::string::npos) end = help.size();
            }
            s += line + help.substr(pos, end - pos) + "\n";
            line = std::string(26, ' ');
            pos = end < help.size() ? end + 1 : end;
        }
    }
}

std::string helpText() {
    std::string s =
        "Usage: rigscope [OPTIONS] [FILE...]\n"
        "       rigscope --screenshot OUT.png [OPTIONS] [MODEL]\n"
        "       rigscope --record OUT.mp4|.webm|.gif|.webp [OPTIONS] [MODEL]\n"
        "FILE and MODEL: a path, ARCHIVE:PATH inside a .meg/.big (Models.meg:DATA/ART/MODELS/X.ALO), or a game path\n"
        "inside the --game/--mod folders.\n"
        "\n"
        "Viewer for the models and animations of classic games: Petroglyph Alamo (.alo, .ala), Westwood/EA W3D\n"
        "(.w3d), Black & White 2 (.bwm, .al) and AMOS AMAL banks (.abk, .amos). With no FILE the window shows the\n"
        "built-in demo model.\n"
        "\n"
        "Options of every mode:\n";
    appendOptions(s, All);
    s += "\nInteractive viewer (--frame: also --screenshot):\n";
    appendOptions(s, Viewer);
    appendOptions(s, Both);
    s += "\nHeadless screenshot and recording (no window; with no display they start their own Xvfb):\n";
    appendOptions(s, Headless);
    s += "\nHeadless screenshot only:\n";
    appendOptions(s, Screenshot);
    s += "\nHeadless recording only:\n";
    appendOptions(s, Record);
    s += "\n"
         "Exit status: 0 success, 1 unreadable or invalid file or failed recording (one-line error), 2 usage error,\n"
         "130 recording cancelled.\n"
         "Environment: RIGSCOPE_VIEW=preview replaces the OpenGL view by a software preview; RIGSCOPE_MSAA=N sets\n"
         "the view's samples per pixel (default 4 on graphics hardware, 0 on software OpenGL).\n"
         "See also: rigscope-cli(1).\n";
    return s;
}

std::string versionText() { return std::string("rigscope ") + RIGSCOPE_VERSION + "\n"; }

} // namespace rs::app
