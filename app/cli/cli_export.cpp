// rigscope-cli export: glTF 2.0 (.glb / .gltf) through the export library (export/gltf_export.h).
//   rigscope-cli export [--game DIR]... [--mod DIR]... MODEL [--clip FILE]... [--all-clips] [--lod N] [--alt N]
//                      [--all-variants] [--faction-color #RRGGBB] -o OUT.glb|OUT.gltf
//     MODEL and FILE: a path, ARCHIVE:PATH, or a game path inside the --game/--mod folders. Textures, clips, W3D
//     hierarchies and B&W2 animation libraries are found through the model's archive or folder and the mounts,
//     the way the viewer finds them (one core Resolver, resolve/resolver.h).
//     Clips: the files given with --clip (every clip each holds); without --clip, or with --all-clips, also the
//     clips beside the model (naming convention) and those inside the file (W3D, .al); a .bwm gets the first
//     animation library beside it whose armature fits.
//   rigscope-cli export [--game DIR]... [--mod DIR]... --batch SOURCE -o DIR
//     Every model of a folder (recursively) or of a .meg/.big archive to DIR/<relative path>.glb with its clips
//     (DIR created with its parents when missing); carries on past bad files and lists them at the end (exit 1
//     when any failed).
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
    "       rigscope-cli export --batch SOURCE -o DIR      (DIR is created when missing)\n"
    "  Both take --game DIR / --mod DIR (repeatable); MODEL, FILE may be ARCHIVE:PATH or a game path inside them,\n"
    "  and SOURCE a folder or a .meg/.big archive. References are found the way the viewer finds them.\n"
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

// Applies the first animation library (.al) beside a .bwm whose armature fits it (Resolver::matchingLibraries:
// beside the model in its folder or archive, the mounts, and B&W2's sibling *anim* folders); its animations become
// clips. None fitting: the skin exports in its bind pose.
static void applyLibraryBeside(const Input& in, const GameMount& base, Loaded& l) {
    const Resolver& r = base.res();
    for (const std::string& path : r.matchingLibraries(in.arg, l.model.model->skeleton.bones.size())) {
        try {
            Document ld = r.read(path);
            if (ld.format != Format::Bw2Library || !ld.model || !bw2::libraryFits(*l.model.model, ld.model->skeleton))
                continue;
            l.model.model = std::make_shared<Model>(bw2::applyLibrary(*l.model.model, ld.model->skeleton));
            l.clips.insert(l.clips.end(), ld.clips.begin(), ld.clips.end());
            std::cerr << "rigscope-cli: animation library " << ld.path << " applied\n";
            return;
        } catch (const std::exception& e) {
            std::cerr << "rigscope-cli: warning: library skipped: " << e.what() << "\n";
        }
    }
}

// Refuses what is not a model by its format, before it is parsed.
static void refuseNonModel(const Input& in) {
    const Format format = detectFormat(ByteSpan(in.bytes), in.label);
    if (format == Format::Amal)
        throw ParseError(in.label, {}, 0, "AMAL banks are 2D movement programs, not models: not exported");
    if (format == Format::AlamoParticles)
        throw ParseError(in.label, {}, 0,
                         "this .alo is a particle system, not a model: particle systems are not exported");
}

// Loads the model (parsed through the resolver unless `parsed` is given) and its clips. Explicit clip files
// (loose, ARCHIVE:PATH or game paths of the mounts) are required to fit; companion clips (Resolver::companionClips:
// beside the model inside its archive or folder and the mounted game/mod folders) that do not are dropped by the
// exporter with a warning.
static Loaded loadForExport(const Input& in, const GameMount& base, const std::vector<std::string>& clipFiles,
                            bool companions, const Document* parsed = nullptr) {
    refuseNonModel(in);
    Loaded l;
    l.model = parsed ? *parsed : parseInput(in, base);
    if (!l.model.model) throw ParseError(in.label, {}, 0, "file holds no model or skeleton (a clip file?)");
    bool libraryGiven = false;
    for (const std::string& cf : clipFiles) {
        Document cd = loadInput(cf, base);
        if (cd.clips.empty()) throw ParseError(cf, {}, 0, "file holds no animation clip");
        if (cd.format == Format::Bw2Library && l.model.format == Format::Bw2Model && cd.model) {
            std::string why;
            if (!bw2::libraryFits(*l.model.model, cd.model->skeleton, &why))
                throw ParseError(cf, {}, 0, "animation library does not fit the model: " + why);
            l.model.model = std::make_shared<Model>(bw2::applyLibrary(*l.model.model, cd.model->skeleton));
            libraryGiven = true;
        }
        for (auto& c : cd.clips) {
            const ClipBinding b = bindClip(l.model.model->skeleton, *c);
            if (!b.ok()) throw ParseError(cf, {}, 0, "clip does not match model: " + b.problems.front());
            l.clips.push_back(c);
        }
    }
    if (companions) {
        l.clips.insert(l.clips.end(), l.model.clips.begin(), l.model.clips.end());
        // In the order of their game paths (keys), whatever folder or archive holds each.
        std::vector<std::string> found = base.res().companionClips(in.arg);
        if (in.place.table)
            std::stable_sort(found.begin(), found.end(), [&](const std::string& x, const std::string& y) {
                return in.place.table->keyFor(x) < in.place.table->keyFor(y);
            });
        for (const std::string& c : found) {
            if (c == in.label) continue;
            try {
                Document cd = base.res().read(c);
                l.clips.insert(l.clips.end(), cd.clips.begin(), cd.clips.end());
            } catch (const std::exception& e) {
                std::cerr << "rigscope-cli: warning: clip skipped: " << e.what() << "\n";
            }
        }
        if (l.model.format == Format::Bw2Model && !libraryGiven) applyLibraryBeside(in, base, l);
    }
    return l;
}

static gltf::ExportStats exportOne(const Input& in, const GameMount& base, const std::vector<std::string>& clipFiles,
                                   bool companions, const gltf::ExportOptions& opt, const std::string& out,
                                   const Document* parsed = nullptr) {
    try {
        Loaded l = loadForExport(in, base, clipFiles, companions, parsed);
        std::vector<const Clip*> clips;
        for (auto& c : l.clips)
            clips.push_back(c.get());
        // The viewer's order (Resolver::findTexture): the game's lookup through the table first for an archive entry
        // or when --game/--mod are given, else the folders around the file first.
        gltf::ResolverTextureLookup textures(base.res(), in.arg);
        return gltf::exportModel(*l.model.model, clips, opt, &textures, out);
    } catch (...) {
        rethrowNamingFile(in.label);
    }
}

static bool isModelName(const std::string& name) {
    const std::string ext = toLower(fs::path(name).extension().string());
    return ext == ".alo" || ext == ".w3d" || ext == ".bwm";
}

// One batch item: a file under the source folder, or an entry of the source archive.
struct BatchItem {
    std::string rel;  // relative output path (before .glb)
    std::string path; // what the resolver opens: the file, or "<archive>:<entry>"
};

static int batch(const std::string& source, const std::string& outDir, const GameMount& base) {
    std::error_code ec;
    std::vector<BatchItem> items;
    std::vector<std::string> failed, skipped;
    if (fs::is_directory(source, ec)) {
        // Every model under the folder: a sub-folder that cannot be read is a failure (the batch promises all of
        // them), the others are still exported; a link leading out of the folder is not read.
        const vfs::FolderWalk walk = vfs::walkFolder(source);
        for (const std::string& u : walk.unreadable)
            failed.push_back(u);
        std::vector<fs::path> files;
        for (const vfs::WalkedFile& f : walk.files) {
            if (!isModelName(f.path)) continue;
            if (f.linkOutside)
                skipped.push_back(fs::path(f.path).lexically_relative(source).string() + " (a link leading out of " +
                                  source + ": not read)");
            else
                files.push_back(f.path);
        }
        std::sort(files.begin(), files.end());
        for (const fs::path& f : files)
            items.push_back({f.lexically_relative(source).string(), f.string()});
    } else if (fs::is_regular_file(source, ec)) {
        // An archive: its models (entries named *.alo/*.w3d/*.bwm) with references found in it and the mounts.
        const vfs::MountTable single = vfs::mountSingle(source);
        const vfs::Source& src = *single.mounts()[0].source;
        for (const std::string& w : src.warnings())
            std::cerr << "rigscope-cli: warning: " << w << "\n";
        std::vector<const vfs::Entry*> entries;
        for (const vfs::Entry& e : src.entries())
            if (isModelName(e.key) && src.find(e.key) == &e) entries.push_back(&e); // first of duplicate names
        std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->key < b->key; });
        for (const vfs::Entry* e : entries) {
            const std::string rel = safeRelativePath(e->name);
            if (rel.empty()) {
                failed.push_back(source + ":" + e->name + ": its name would write outside " + outDir);
                continue;
            }
            items.push_back({rel, source + ":" + e->name});
        }
    } else {
        throw UsageError{"--batch needs a folder or a .meg/.big archive: " + source};
    }
    makeOutputFolder(outDir); // after the source is known good: a mistyped command leaves no empty folder
    const bool tty = isatty(2);
    size_t written = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string& rel = items[i].rel;
        if (tty) {
            const int width = 30, done = int(width * (i + 1) / items.size());
            std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s", std::string(size_t(done), '#').c_str(),
                         std::string(size_t(width - done), ' ').c_str(), i + 1, items.size(), rel.c_str());
        }
        std::string status;
        try {
            const Input in = readInput(items[i].path, base);
            const Format format = detectFormat(ByteSpan(in.bytes), in.label);
            Document d = format == Format::W3d || format == Format::W3x || format == Format::Bw2Model ||
                                 format == Format::AlamoModel
                             ? parseInput(in, base)
                             : Document{};
            bool isModel = false;
            if (d.model)
                for (const Mesh& m : d.model->meshes)
                    isModel |= !m.subMeshes.empty();
            if (!isModel) {
                const std::string name = format == Format::Unknown ? std::string("unknown") : formatName(format);
                skipped.push_back(rel + (format == Format::AlamoParticles ? " (particle system, not a model)"
                                                                          : " (" + name + ", no mesh)"));
                status = "skipped";
            } else {
                fs::path out = fs::path(outDir) / rel;
                out.replace_extension(".glb");
                fs::create_directories(out.parent_path(), ec);
                const gltf::ExportStats st =
                    exportOne(in, base, {}, true, gltf::ExportOptions{}, out.string(), &d);
                ++written;
                status = "ok " + std::to_string(st.vertices) + " vertices, " + std::to_string(st.animations) +
                         " clips, " + std::to_string(st.images) + " textures";
            }
        } catch (const std::exception& e) {
            failed.push_back(e.what());
            status = "FAILED";
        }
        if (!tty) std::printf("%zu/%zu %s: %s\n", i + 1, items.size(), rel.c_str(), status.c_str());
    }
    if (tty) std::fprintf(stderr, "\n");
    std::printf("%zu exported, %zu skipped, %zu failed\n", written, skipped.size(), failed.size());
    for (const auto& s : skipped)
        std::printf("skipped: %s\n", s.c_str());
    for (const auto& s : failed)
        std::printf("failed: %s\n", s.c_str());
    return failed.empty() ? 0 : 1;
}

int cmdExport(std::vector<std::string> args) {
    if (wantsHelp(args)) return std::cout << kExportUsage, 0;
    GameMount base;
    takeMountOptions(args, base);
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
        return batch(batchSource, out, base);
    }
    if (model.empty()) throw UsageError{"export needs a MODEL"};
    const std::string ext = toLower(fs::path(out).extension().string());
    if (ext != ".glb" && ext != ".gltf") throw UsageError{"output must end in .glb or .gltf: " + out};
    const gltf::ExportStats st = [&] {
        Input in;
        try {
            in = readInput(model, base);
            in.label = model; // messages name the model as given
        } catch (...) {
            rethrowNamingFile(model);
        }
        return exportOne(in, base, clipFiles, clipFiles.empty() || allClips, opt, out);
    }();
    for (const auto& w : st.warnings)
        std::cerr << "rigscope-cli: warning: " << w << "\n";
    std::cout << out << ": " << st.scenes << " scene(s), " << st.meshes << " meshes, " << st.vertices << " vertices, "
              << st.triangles << " triangles, " << st.images << " textures, " << st.animations << " animations\n";
    return 0;
}

} // namespace rs::cli
