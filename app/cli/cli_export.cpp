// rigscope-cli export: glTF 2.0 (.glb / .gltf) through the export library (export/gltf_export.h).
//   rigscope-cli export MODEL [--clip FILE]... [--all-clips] [--lod N] [--alt N] [--all-variants]
//                      [--faction-color #RRGGBB] -o OUT.glb|OUT.gltf
//     Clips: the files given with --clip (every clip each holds); without --clip, or with --all-clips, also the
//     clips beside the model (naming convention) and those inside the file (W3D, .al).
//   rigscope-cli export --batch SOURCE -o DIR
//     Every model of a folder (recursively) to DIR/<relative path>.glb with its clips; carries on past bad files
//     and lists them at the end (exit 1 when any failed).
#include "commands.h"

#include "bw2/al.h"
#include "gltf_export.h"
#include "scene/pose.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

namespace fs = std::filesystem;

namespace rs::cli {

static const char* kExportUsage =
    "usage: rigscope-cli export MODEL [--clip FILE]... [--all-clips] [--lod N] [--alt N] [--all-variants]\n"
    "                           [--faction-color #RRGGBB] -o OUT.glb|OUT.gltf\n"
    "       rigscope-cli export --batch SOURCE -o DIR\n"
    "  Writes the model's skeleton, meshes (skinned and rigid), materials with PNG textures, lights, proxies,\n"
    "  dazzles and clips as glTF 2.0 (Y up: game (x, y, z) -> glTF (x, z, -y), 1 unit = 1 m).\n"
    "  Without --clip every clip beside the model and inside the file is exported; --all-clips adds them to\n"
    "  the --clip files. --all-variants writes one scene per LOD/ALT combination (scene 0 = --lod/--alt).\n";

static int parseInt(const std::string& s, const char* what) {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < -1 || v > 1000) throw UsageError{std::string("bad ") + what + ": " + s};
    return int(v);
}

static glm::vec3 parseColor(const std::string& s) {
    const std::string h = !s.empty() && s[0] == '#' ? s.substr(1) : s;
    if (h.size() != 6 || h.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw UsageError{"bad --faction-color (want #RRGGBB): " + s};
    const unsigned long v = std::strtoul(h.c_str(), nullptr, 16);
    return glm::vec3(float((v >> 16) & 255), float((v >> 8) & 255), float(v & 255)) / 255.0f;
}

struct Loaded {
    Document model;
    std::vector<std::shared_ptr<Clip>> clips; // owned
};

// Loads MODEL and its clips. Explicit clip files are required to fit; companion clips that do not are dropped
// by the exporter with a warning.
static Loaded loadForExport(const std::string& model, const std::vector<std::string>& clipFiles, bool companions) {
    const std::vector<uint8_t> bytes = readFileBytes(model);
    const std::string format = detectFormat(ByteSpan(bytes), model);
    if (format == "amal")
        throw ParseError(model, {}, 0, "AMAL banks are 2D movement programs, not models: not exported");
    if (format == "alo-particle")
        throw ParseError(model, {}, 0,
                         "this .alo is a particle system, not a model: particle systems are not exported");
    Loaded l;
    l.model = loadDocument(ByteSpan(bytes), model);
    if (!l.model.model) throw ParseError(model, {}, 0, "file holds no model or skeleton (a clip file?)");
    for (const std::string& cf : clipFiles) {
        Document cd = loadDocument(cf);
        if (cd.clips.empty()) throw ParseError(cf, {}, 0, "file holds no animation clip");
        if (cd.format == "al" && l.model.format == "bwm" && cd.model) {
            std::string why;
            if (!bw2::libraryFits(*l.model.model, cd.model->skeleton, &why))
                throw ParseError(cf, {}, 0, "animation library does not fit the model: " + why);
            l.model.model = std::make_shared<Model>(bw2::applyLibrary(*l.model.model, cd.model->skeleton));
        }
        for (auto& c : cd.clips) {
            const ClipBinding b = bindClip(l.model.model->skeleton, *c);
            if (!b.ok()) throw ParseError(cf, {}, 0, "clip does not match model: " + b.problems.front());
            l.clips.push_back(c);
        }
    }
    if (companions) {
        l.clips.insert(l.clips.end(), l.model.clips.begin(), l.model.clips.end());
        for (const std::string& cf : findCompanionClips(model)) {
            if (fs::equivalent(cf, model)) continue;
            try {
                Document cd = loadDocument(cf);
                l.clips.insert(l.clips.end(), cd.clips.begin(), cd.clips.end());
            } catch (const std::exception& e) {
                std::cerr << "rigscope-cli: warning: clip skipped: " << e.what() << "\n";
            }
        }
    }
    return l;
}

static gltf::ExportStats exportOne(const std::string& model, const std::vector<std::string>& clipFiles, bool companions,
                                   const gltf::ExportOptions& opt, const std::string& out) {
    Loaded l = loadForExport(model, clipFiles, companions);
    std::vector<const Clip*> clips;
    for (auto& c : l.clips)
        clips.push_back(c.get());
    gltf::FolderTextureLookup textures(model);
    return gltf::exportModel(*l.model.model, clips, opt, &textures, out);
}

static int batch(const std::string& source, const std::string& outDir) {
    std::error_code ec;
    if (!fs::is_directory(source, ec)) throw UsageError{"--batch needs a folder: " + source};
    if (!fs::is_directory(outDir, ec)) throw UsageError{"-o must be an existing folder with --batch: " + outDir};
    std::vector<fs::path> files;
    for (fs::recursive_directory_iterator it(source, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string ext = toLower(it->path().extension().string());
        if (ext == ".alo" || ext == ".w3d" || ext == ".bwm") files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    const bool tty = isatty(2);
    std::vector<std::string> failed, skipped;
    size_t written = 0;
    for (size_t i = 0; i < files.size(); ++i) {
        const fs::path& f = files[i];
        const fs::path rel = f.lexically_relative(source);
        if (tty) {
            const int width = 30, done = int(width * (i + 1) / files.size());
            std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s", std::string(size_t(done), '#').c_str(),
                         std::string(size_t(width - done), ' ').c_str(), i + 1, files.size(), rel.string().c_str());
        }
        std::string status;
        try {
            const std::vector<uint8_t> bytes = readFileBytes(f.string());
            const std::string format = detectFormat(ByteSpan(bytes), f.string());
            Document d = format == "w3d" || format == "bwm" || format == "alo"
                             ? loadDocument(ByteSpan(bytes), f.string())
                             : Document{};
            bool isModel = false;
            if (d.model)
                for (const Mesh& m : d.model->meshes)
                    isModel |= !m.subMeshes.empty();
            if (!isModel) {
                skipped.push_back(rel.string() +
                                  (format == "alo-particle"
                                       ? " (particle system, not a model)"
                                       : " (" + (format.empty() ? std::string("unknown") : format) + ", no mesh)"));
                status = "skipped";
            } else {
                fs::path out = fs::path(outDir) / rel;
                out.replace_extension(".glb");
                fs::create_directories(out.parent_path(), ec);
                const gltf::ExportStats st = exportOne(f.string(), {}, true, gltf::ExportOptions{}, out.string());
                ++written;
                status = "ok " + std::to_string(st.vertices) + " vertices, " + std::to_string(st.animations) +
                         " clips, " + std::to_string(st.images) + " textures";
            }
        } catch (const std::exception& e) {
            failed.push_back(e.what());
            status = "FAILED";
        }
        if (!tty) std::printf("%zu/%zu %s: %s\n", i + 1, files.size(), rel.string().c_str(), status.c_str());
    }
    if (tty) std::fprintf(stderr, "\n");
    std::printf("%zu exported, %zu skipped, %zu failed\n", written, skipped.size(), failed.size());
    for (const auto& s : skipped)
        std::printf("skipped: %s\n", s.c_str());
    for (const auto& s : failed)
        std::printf("failed: %s\n", s.c_str());
    return failed.empty() ? 0 : 1;
}

int cmdExport(const std::vector<std::string>& args) {
    gltf::ExportOptions opt;
    std::string model, out, batchSource;
    std::vector<std::string> clipFiles;
    bool allClips = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            std::cout << kExportUsage;
            return 0;
        } else if (a == "--clip")
            clipFiles.push_back(next("--clip"));
        else if (a == "--all-clips")
            allClips = true;
        else if (a == "--lod")
            opt.lod = parseInt(next("--lod"), "--lod");
        else if (a == "--alt")
            opt.alt = std::max(0, parseInt(next("--alt"), "--alt"));
        else if (a == "--all-variants")
            opt.allVariants = true;
        else if (a == "--faction-color")
            opt.factionColor = parseColor(next("--faction-color")), opt.haveFactionColor = true;
        else if (a == "-o" || a == "--output")
            out = next("-o");
        else if (a == "--batch")
            batchSource = next("--batch");
        else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else if (model.empty())
            model = a;
        else
            throw UsageError{"more than one model given"};
    }
    if (out.empty()) throw UsageError{"export needs -o OUT"};
    if (!batchSource.empty()) {
        if (!model.empty() || !clipFiles.empty()) throw UsageError{"--batch takes no MODEL or --clip"};
        return batch(batchSource, out);
    }
    if (model.empty()) throw UsageError{"export needs a MODEL"};
    const std::string ext = toLower(fs::path(out).extension().string());
    if (ext != ".glb" && ext != ".gltf") throw UsageError{"output must end in .glb or .gltf: " + out};
    const gltf::ExportStats st = exportOne(model, clipFiles, clipFiles.empty() || allClips, opt, out);
    for (const auto& w : st.warnings)
        std::cerr << "rigscope-cli: warning: " << w << "\n";
    std::cout << out << ": " << st.scenes << " scene(s), " << st.meshes << " meshes, " << st.vertices << " vertices, "
              << st.triangles << " triangles, " << st.images << " textures, " << st.animations << " animations\n";
    return 0;
}

} // namespace rs::cli
