// rigscope-cli import: glTF 2.0 (.glb / .gltf) to the files a game loads, through the import library
// (import/gltf_import.h).
//   rigscope-cli import IN.glb|IN.gltf -o OUT.alo [--game eaw|foc] [--clips all|NAME...] [--scale S] [--up y|z]
// Prints the files written and what was changed to fit the engine; writes nothing when anything fails.
#include "commands.h"

#include "formats/engine_limits.h"
#include "gltf_import.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace rs::cli {

namespace fs = std::filesystem;

static const char* const kImportUsage =
    "usage: rigscope-cli import IN.glb|IN.gltf -o OUT.alo [--game eaw|foc] [--clips all|NAME...] [--scale S] "
    "[--up y|z] [--textures DIR]\n"
    "       rigscope-cli import IN.glb|IN.gltf -o OUT.w3d [--game generals|zh|bfme|bfme2] [--rename] [--layout sage]\n"
    "                    [--codec uncompressed|timecoded|adaptive-delta] [--clips all|NAME...] [--scale S] [--up y|z]\n"
    "                    [--textures DIR]\n"
    "  Converts a glTF 2.0 model with its animations into an Alamo model and clips: OUT.alo and\n"
    "  <OUT>_<CLIP>_00.ALA beside it (format 2 for foc, the default; format 1 for eaw), sampled at 30 fps.\n"
    "  --clips all (default) converts every animation; --clips NAME... only those named.\n"
    "  --scale S multiplies every length; --up z keeps the axes (the input is Z up), --up y (default) turns\n"
    "  glTF's Y up into the game's Z up.\n"
    "  Engine limits are met by splitting (26 bones per skin palette, 65536 vertices per sub-mesh, 65535\n"
    "  triangles per mesh) and reported; what cannot be met is refused naming the element. Every file is read\n"
    "  back before anything is written; on any error nothing is written.\n"
    "  W3D: OUT.w3d holds the hierarchy, the meshes and an HLOD; each clip is <OUT>_<CLIP>.w3d. Skins bind one\n"
    "  bone per vertex (generals, zh) or the two heaviest (bfme, bfme2; weights in percent).\n"
    "  --codec: uncompressed (default; floats per frame), timecoded (keys where interpolation would leave the\n"
    "  exact pose by more than 1e-6 of the rig size or 2e-5 rad) or adaptive-delta (4-bit deltas); compressed\n"
    "  clips are read back and their largest error is reported.\n"
    "  --textures DIR writes each PNG/JPEG image of the glTF as DDS (DXT1 when opaque, DXT5 with alpha, full mip\n"
    "  chain) named as the model names it (<stem>.dds), in DIR, or with --layout sage in\n"
    "  DIR/art/compiledtextures/<first two letters>/ (bfme, bfme2) or DIR/art/textures/ (generals, zh).\n"
    "  Names longer than 15 characters are refused, or cut and made unique with --rename (reported).\n"
    "  --layout sage writes under <DIR>/art/w3d/<first two letters>/.\n";

int cmdImport(std::vector<std::string> args) {
    if (wantsHelp(args)) return std::cout << kImportUsage, 0;
    gltfimport::ImportOptions opt;
    std::string in, out;
    bool clipsAll = false;
    std::string game;
    gltfimport::W3dOptions w3o;
    bool codecGiven = false;
    std::string textures;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "-o" || a == "--output") {
            out = next("-o");
        } else if (a == "--game") {
            game = toLower(next("--game"));
            if (game == "eaw")
                opt.game = gltfimport::Game::Eaw;
            else if (game == "foc")
                opt.game = gltfimport::Game::Foc;
            else if (game == "bfme" || game == "bfme2")
                w3o.bfme = true;
            else if (game != "generals" && game != "zh")
                throw UsageError{"unknown --game " + game};
        } else if (a == "--codec") {
            const std::string c = toLower(next("--codec"));
            if (c == "uncompressed")
                w3o.codec = gltfimport::W3dCodec::Uncompressed;
            else if (c == "timecoded")
                w3o.codec = gltfimport::W3dCodec::Timecoded;
            else if (c == "adaptive-delta")
                w3o.codec = gltfimport::W3dCodec::AdaptiveDelta;
            else
                throw UsageError{"--codec must be uncompressed, timecoded or adaptive-delta: " + c};
            codecGiven = true;
        } else if (a == "--textures") {
            textures = next("--textures");
            if (textures.empty()) throw UsageError{"--textures needs a folder"};
        } else if (a == "--rename") {
            w3o.rename = true;
        } else if (a == "--layout") {
            const std::string l = toLower(next("--layout"));
            if (l != "sage") throw UsageError{"--layout must be sage: " + l};
            w3o.sageLayout = true;
        } else if (a == "--clips") {
            const std::string first = next("--clips");
            if (first == "all") {
                clipsAll = true;
            } else {
                opt.clips.push_back(first);
                while (i + 1 < args.size() && !args[i + 1].empty() && args[i + 1][0] != '-')
                    opt.clips.push_back(args[++i]);
            }
        } else if (a == "--scale") {
            const std::string v = next("--scale");
            char* end = nullptr;
            const double s = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !std::isfinite(s) || s <= 0 || s > 1e6) throw UsageError{"bad --scale: " + v};
            opt.scale = float(s);
        } else if (a == "--up") {
            const std::string u = toLower(next("--up"));
            if (u == "y")
                opt.zUp = false;
            else if (u == "z")
                opt.zUp = true;
            else
                throw UsageError{"--up must be y or z: " + u};
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError{"unknown option " + a};
        } else if (in.empty()) {
            in = a;
        } else {
            throw UsageError{"more than one input given"};
        }
    }
    if (clipsAll && !opt.clips.empty()) throw UsageError{"--clips all takes no names"};
    if (in.empty()) throw UsageError{"import needs IN.glb or IN.gltf"};
    if (out.empty()) throw UsageError{"import needs -o OUT.alo"};
    const std::string ext = toLower(fs::path(out).extension().string());
    const bool w3d = ext == ".w3d";
    if (!w3d && ext != ".alo") throw UsageError{"output must end in .alo or .w3d: " + out};
    if (w3d && (game == "eaw" || game == "foc")) throw UsageError{"--game " + game + " writes .alo, not .w3d"};
    if (!w3d && (!game.empty() && game != "eaw" && game != "foc"))
        throw UsageError{"--game " + game + " writes .w3d, not .alo"};
    if (!w3d && (w3o.rename || w3o.sageLayout || codecGiven))
        throw UsageError{"--rename, --layout and --codec are for .w3d output"};
    if (w3d && w3o.bfme) opt.bonesPerVertex = limits::kW3dBonesPerVertexBfme;
    opt.keepImages = !textures.empty();
    gltfimport::ImportResult r = gltfimport::importGltfFile(in, opt);
    std::vector<gltfimport::OutputFile> files =
        w3d ? gltfimport::w3dFiles(r, out, w3o, &r.report) : gltfimport::alamoFiles(r, out, opt);
    const size_t modelFiles = files.size();
    if (!textures.empty()) {
        const gltfimport::TextureLayout layout = !w3d || !w3o.sageLayout ? gltfimport::TextureLayout::Flat
                                                 : w3o.bfme              ? gltfimport::TextureLayout::SageCompiled
                                                                         : gltfimport::TextureLayout::SageTextures;
        for (auto& f : gltfimport::textureFiles(r, textures, layout, &r.report))
            files.push_back(std::move(f));
    }
    gltfimport::writeFiles(files); // model, clips and textures: all or nothing
    for (const std::string& line : r.report)
        std::cerr << "rigscope-cli: note: " << printable(line) << "\n";
    size_t tris = 0;
    for (const Mesh& m : r.model.meshes)
        for (const SubMesh& s : m.subMeshes)
            tris += s.triangleCount();
    std::cout << printable(files[0].path) << ": " << r.model.skeleton.bones.size() << " bones, "
              << r.model.meshes.size() << " meshes, " << tris << " triangles, " << r.model.proxies.size()
              << " proxies, " << r.model.lights.size() << " lights\n";
    for (size_t i = modelFiles; i < files.size(); ++i)
        std::cout << printable(files[i].path) << ": texture\n";
    for (size_t i = 1; i < modelFiles; ++i)
        std::cout << printable(files[i].path) << ": clip " << printable(r.clips[i - 1].name) << ", "
                  << r.clips[i - 1].frameCount << " frames\n";
    return 0;
}

} // namespace rs::cli
