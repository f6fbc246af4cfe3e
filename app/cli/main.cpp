// rigscope-cli: model/clip summaries and poses as JSON, no GUI.
//   rigscope-cli info [--json] FILE        (models, clips, banks; .dds/.tga textures: info_texture.cpp)
//   rigscope-cli pose --json MODEL [--clip CLIP] [--frame N | --time SECONDS]
//   rigscope-cli amal --json FILE (--movement N | --program N) [--ticks T]   (cli_amal.cpp)
//     MODEL may be a B&W2 .al: without --clip its first animation is posed (frame 0 is exact).
//     A .bwm MODEL with an .al CLIP gets the library's armature (names, parents) applied first.
// Exit status: 0 ok, 1 unreadable/invalid file (one line on stderr), 2 usage error.
#include "commands.h"

#include "bw2/al.h"
#include "scene/pose.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <vector>

using namespace rs;
using namespace rs::cli;

static const char* kUsage =
    "usage: rigscope-cli info [--json] FILE\n"
    "       rigscope-cli pose --json MODEL [--clip CLIP] [--frame N | --time SECONDS]\n"
    "       rigscope-cli amal --json FILE (--movement N [--backward] | --program N) [--ticks T]\n"
    "                         [--x X --y Y --a A] [--set NAME=VALUE] (XM YM J0 J1 K1 K2 R0-R9 RA-RZ ...)\n";

static double parseNumber(const std::string& s, const char* what) {
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v)) throw UsageError{std::string("bad ") + what + ": " + s};
    return v;
}

// Text output safe for a terminal: every line through printable() (file strings may hold escape sequences).
static std::string terminalText(const std::string& text) {
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        const size_t nl = text.find('\n', start);
        const size_t end = nl == std::string::npos ? text.size() : nl;
        out += printable(text.substr(start, end - start));
        if (nl != std::string::npos) out += '\n';
        start = end + 1;
    }
    return out;
}

static int cmdInfo(const std::vector<std::string>& args) {
    bool json = false;
    std::string file;
    for (const auto& a : args) {
        if (a == "--json") json = true;
        else if (!a.empty() && a[0] == '-') throw UsageError{"unknown option " + a};
        else if (file.empty()) file = a;
        else throw UsageError{"more than one file given"};
    }
    if (file.empty()) throw UsageError{"info needs a FILE"};
    std::vector<uint8_t> bytes = readInputFile(file);
    std::string out;
    if (infoTexture(ByteSpan(bytes), file, json, out)) {
        std::cout << terminalText(out) << "\n";
        return 0;
    }
    const std::string format = detectFormat(ByteSpan(bytes), file);
    if (infoSpecial(format, file, json, out)) {
        std::cout << terminalText(out) << "\n";
        return 0;
    }
    Document doc = loadDocument(ByteSpan(bytes), file);
    if (json) {
        Json j;
        if (doc.format == "alo" || doc.format == "ala") infoAlamo(doc, j);
        else if (doc.format == "w3d") infoW3d(doc, j);
        else if (doc.format == "bwm") infoBwm(doc, j);
        else if (doc.format == "al") infoAl(doc, j);
        else throw ParseError(file, {}, ParseError::kNoOffset, "no info writer for format " + doc.format);
        std::cout << j.out << "\n";
    } else if (doc.format == "alo" || doc.format == "ala") {
        infoAlamoText(doc, out);
        std::cout << terminalText(out);
    } else {
        infoGenericText(doc, out);
        std::cout << terminalText(out);
    }
    return 0;
}

static std::shared_ptr<Clip> firstClip(const Document& d) {
    if (d.clips.empty()) throw ParseError(d.path, {}, ParseError::kNoOffset, "file holds no animation clip");
    return d.clips.front();
}

static int cmdPose(const std::vector<std::string>& args) {
    bool json = false;
    std::string model, clipPath;
    bool haveFrame = false, haveTime = false;
    double frame = 0, time = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "--json") json = true;
        else if (a == "--clip") clipPath = next("--clip");
        else if (a == "--frame") { frame = parseNumber(next("--frame"), "frame"); haveFrame = true; }
        else if (a == "--time") { time = parseNumber(next("--time"), "time"); haveTime = true; }
        else if (!a.empty() && a[0] == '-') throw UsageError{"unknown option " + a};
        else if (model.empty()) model = a;
        else throw UsageError{"more than one model given"};
    }
    if (!json) throw UsageError{"pose supports --json output only"};
    if (model.empty()) throw UsageError{"pose needs a MODEL"};
    if (haveFrame && haveTime) throw UsageError{"give --frame or --time, not both"};

    Document md = loadDocument(model);
    if (!md.model) throw ParseError(model, {}, ParseError::kNoOffset, "file holds no model or skeleton");
    std::shared_ptr<Clip> clip;
    if (!clipPath.empty()) {
        Document cd = loadDocument(clipPath);
        clip = firstClip(cd);
        // A B&W2 animation library names the skin's bones: apply its armature to a .bwm first.
        if (cd.format == "al" && md.format == "bwm" && cd.model) {
            std::string why;
            if (!bw2::libraryFits(*md.model, cd.model->skeleton, &why))
                throw ParseError(clipPath, {}, ParseError::kNoOffset,
                                 "animation library does not fit the model " + model + ": " + why);
            md.model = std::make_shared<Model>(bw2::applyLibrary(*md.model, cd.model->skeleton));
        }
    } else if (md.format == "al") {
        // An .al holds its own armature and clips: without --clip, pose its first animation.
        clip = firstClip(md);
        clipPath = model;
    }
    const Skeleton& sk = md.model->skeleton;
    ClipBinding binding;
    float f = 0.0f;
    if (clip) {
        binding = bindClip(sk, *clip);
        if (!binding.ok())
            throw ParseError(clipPath, {}, ParseError::kNoOffset,
                             "clip does not fit model " + model + ": " + binding.problems.front());
        if (haveTime) f = static_cast<float>(time * clip->fps);
        else f = static_cast<float>(frame);
        if (haveFrame && (frame < 0 || frame > double(clip->frameCount) - 1))
            throw UsageError{"frame " + std::to_string(frame) + " outside 0.." + std::to_string(int(clip->frameCount) - 1)};
    }
    PoseBuffers buf(sk.bones.size());
    // --frame N is the stored frame N: evaluate without wrapping (Once clamps only).
    evaluatePose(sk, clip.get(), clip ? &binding : nullptr, f, haveFrame ? LoopMode::Once : LoopMode::Loop,
                 buf.view());
    Json j;
    j.beginObject().key("bones").beginArray();
    for (size_t i = 0; i < sk.bones.size(); ++i) {
        j.beginObject().kv("name", sk.bones[i].name).key("world");
        j.floats(&buf.world[i][0][0], 16);
        j.endObject();
    }
    j.endArray().endObject();
    std::cout << j.out << "\n";
    return 0;
}

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h") {
            std::cerr << kUsage;
            return args.empty() ? 2 : 0;
        }
        const std::string cmd = args[0];
        args.erase(args.begin());
        if (cmd == "info") return cmdInfo(args);
        if (cmd == "pose") return cmdPose(args);
        if (cmd == "amal") return cmdAmal(args);
        throw UsageError{"unknown command " + cmd};
    } catch (const UsageError& e) {
        std::cerr << "rigscope-cli: " << e.message << "\n" << kUsage;
        return 2;
    } catch (const ParseError& e) {
        std::cerr << "rigscope-cli: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        // Loads turn this into a ParseError naming the file; anything else: name the last file argument.
        std::string file;
        for (const auto& a : args)
            if (!a.empty() && a[0] != '-') file = a;
        std::cerr << "rigscope-cli: " << printable(file) << (file.empty() ? "" : ": ") << "out of memory\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rigscope-cli: " << e.what() << "\n";
        return 1;
    }
}
