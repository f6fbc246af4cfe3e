// rigscope-cli: model/clip summaries and poses as JSON, no GUI.
//   rigscope-cli info [--json] FILE        (models, clips, banks; .dds/.tga textures: info_texture.cpp)
//   rigscope-cli pose --json MODEL [--clip CLIP] [--frame N | --time SECONDS]
//   rigscope-cli particles --json FILE --time T [--seed N]   (cli_particles.cpp)
//   rigscope-cli amal --json FILE (--movement N | --program N) [--ticks T]   (cli_amal.cpp)
//   rigscope-cli ls / extract                                                 (cli_vfs.cpp)
//   rigscope-cli check                                                        (cli_check.cpp)
//   rigscope-cli thumbnails SOURCE -o DIR [--size N] [--sheet FILE.png]        (cli_thumbnails.cpp)
//   rigscope-cli diff A B [--json]                                            (cli_diff.cpp)
//   rigscope-cli rewrite FILE... -o DIR [--verify] / pack / edit               (cli_rewrite.cpp)
//   rigscope-cli import IN.glb -o OUT.alo                                     (cli_import.cpp)
//     info and pose take FILE as a path on disk, ARCHIVE:PATH (Models.meg:DATA/ART/MODELS/X.ALO) or a game path
//     inside --game DIR / --mod DIR; references (textures, clips, W3D hierarchies) are found through them.
//     MODEL may be a B&W2 .al: without --clip its first animation is posed (frame 0 is exact).
//     A .bwm MODEL with an .al CLIP gets the library's armature (names, parents) applied first.
// Exit status: 0 ok, 1 unreadable/invalid file (one line on stderr), 2 usage error.
#include "commands.h"

#include "bw2/al.h"
#include "scene/pose.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

using namespace rs;
using namespace rs::cli;

// One entry per command: `rigscope-cli --help` lists them, `rigscope-cli COMMAND --help` prints the entry.
struct Command {
    const char* name;
    int (*run)(std::vector<std::string>);
    const char* synopsis;
    const char* help;
};

static int cmdInfo(std::vector<std::string> args);
static int cmdPose(std::vector<std::string> args);
static int runAmal(std::vector<std::string> args) { return cmdAmal(args); }
static int runParticles(std::vector<std::string> args) { return cmdParticles(args); }
static int runExport(std::vector<std::string> args) { return cmdExport(args); }
static int runImport(std::vector<std::string> args) { return cmdImport(args); }

static const char* const kInputs =
    "FILE, MODEL and CLIP may be a path, ARCHIVE:PATH inside a .meg/.big/.stuff (Models.meg:DATA/ART/MODELS/X.ALO), or "
    "a\n"
    "game path inside the folders given with --game DIR / --mod DIR (repeatable; mods win over games), through\n"
    "which textures, clips and W3D hierarchies are found the way the game finds them.\n";

static const Command kCommands[] = {
    {"info", cmdInfo, "info [--json] [--game DIR]... [--mod DIR]... FILE",
     "Summarises FILE: format, skeleton, meshes, materials, clips (Alamo, W3D, B&W2), movements and programs\n"
     "(AMAL banks). --json prints one JSON object; the Alamo fields are listed atop app/cli/info_alamo.cpp.\n"},
    {"pose", cmdPose, "pose --json [--game DIR]... [--mod DIR]... MODEL [--clip CLIP] [--frame N | --time SECONDS]",
     "Prints every bone's world matrix (16 floats, column-major) and visibility of MODEL posed by CLIP (default: the\n"
     "model's own first clip for .al libraries, else the bind pose). --frame N is stored frame N (no wrapping);\n"
     "--time wraps like looping playback. A .bwm MODEL with an .al CLIP gets the library's armature first.\n"},
    {"ls", cmdLs, "ls [SOURCE] [--game DIR]... [--mod DIR]... [--json] [GLOB]",
     "Lists the entries of SOURCE (a .meg/.big/.stuff archive, a game or mod folder, any folder) or, without SOURCE,\n"
     "every name of the mounted --game/--mod folders: size, the source that holds it, the sources it overrides\n"
     "and the ones overriding it. GLOB (case-insensitive, '*' and '?', '/' or '\\') filters the names.\n"
     "--game may be given twice (e.g. FoC and EaW: the expansion wins); the first --mod wins over later ones.\n"},
    {"extract", cmdExtract, "extract SOURCE GLOB -o DIR",
     "Writes the entries of SOURCE (a .meg/.big/.stuff archive or a folder) whose names match GLOB into DIR, keeping\n"
     "their folders. Names that would leave DIR (\"..\", absolute paths, drive letters) are refused.\n"},
    {"objects", cmdObjects, "objects [--game DIR]... [--mod DIR]... [--json]",
     "Lists the game objects of the mounted folders: EaW/FoC objects of Data/XML/GameObjectFiles.xml and the\n"
     "files it lists, or SAGE objects of data/ini/object/ (Object, ChildObject, ObjectReskin): name, type,\n"
     "parent and file:line. Malformed files are reported with file, line and column; the rest is listed.\n"
     "A mod folder alone (--mod DIR without --game) is a valid mount.\n"},
    {"object", cmdObject, "object NAME [--game DIR]... [--mod DIR]... [--json]",
     "Assembles object NAME: its models and the bones they attach to (hardpoints), its draw states with their\n"
     "models, animations and hidden sub-objects (SAGE), inherited definitions, and every reference (model,\n"
     "bone, hardpoint, clip, sub-object, object) that did not resolve. An object that inherits from itself is\n"
     "refused by name.\n"},
    {"check", cmdCheck,
     "check [--game DIR]... [--mod DIR]... [PATH...] [--json | --sarif FILE] [--fail-on error|warning|info] "
     "[--threads N] [--no-unreferenced] [--baseline FILE | --baseline-write FILE] [--suppressions FILE]",
     "Checks every asset the mounted folders resolve (or the files and folders PATH, each opened through the\n"
     "mount): read errors and warnings, textures, shaders, proxies, W3D hierarchies and clips that do not\n"
     "resolve or fit, engine limits (vertices, triangles, skin bones and weights, shadow and collision meshes,\n"
     "texture sizes), archive names and CRCs, objects (EaW XML, SAGE INI) whose models, bones, clips, textures\n"
     "or parents do not resolve, and files nothing refers to. One line per finding: LEVEL ID FILE: WHERE: TEXT.\n"
     "A mod checked without --game: what it refers to and does not hold (textures, proxies, models, clips,\n"
     "objects...) may be the base game's, so those references are one note per check id (ref.base-game).\n"
     "  --json          one JSON document (schema rigscope-check/1, docs/CHECKS.md) on stdout\n"
     "  --sarif FILE    also write SARIF 2.1.0 to FILE (for CI services)\n"
     "  --fail-on L     exit 1 when a finding is at level L or above (default error)\n"
     "  --threads N     worker threads (default: every core)\n"
     "  --baseline-write FILE  record today's findings (JSON, docs/CHECKS.md \"Baselines\")\n"
     "  --baseline FILE mark each finding new or unchanged (matched by id, file and place, not line numbers);\n"
     "                  only new ones fail; SARIF results carry baselineState (new, unchanged, absent)\n"
     "  --suppressions FILE  rules (id, file, object globs, each with its reason) whose findings never fail;\n"
     "                  rigscope-check.json at the top of a mounted mod or checked folder is read too\n"
     "Runs on every core; on a terminal a progress line is shown after a second.\n"
     "Exit status: 0 nothing reaches --fail-on, 1 something does, 2 usage error.\n"},
    {"games", cmdGames, "games [--json] [--home DIR]",
     "Lists the games and mods found on this computer: Steam (native and Flatpak) and every library of its\n"
     "libraryfolders.vdf, Proton, Wine, Lutris and Bottles prefixes, games recognised by their files (EaW, FoC,\n"
     "Generals, Zero Hour, BFME I/II, RotWK, C&C 3, Kane's Wrath, Black & White 2), EaW Workshop mods and local\n"
     "Mods/ folders with their modinfo.json. Each game with the folders it mounts; each mod with the mods it\n"
     "stacks (its dependencies flattened as the game does). Broken VDF/JSON files, dependency cycles and missing\n"
     "dependencies are named. Every command that mounts takes --game auto (the last game chosen, else the first\n"
     "found), --game ID (eaw, foc, zh, ...), --mod NAME and --mod-id ID (a Workshop id or a local mod's folder\n"
     "name), a mod with its dependencies and its game. --json: schema rigscope-games/1.\n"},
    {"thumbnails", cmdThumbnails,
     "thumbnails [SOURCE] -o DIR [--size N] [--sheet FILE.png] [--threads N] [--game DIR]... [--mod DIR]...",
     "Writes a picture of every model (bind pose), clip (its skeleton posed mid-clip), AMAL bank (its 2D stage)\n"
     "and texture of SOURCE (a folder or a .meg/.big archive) or of the --game/--mod folders to\n"
     "DIR/<path inside the source>.png, at most N x N pixels (default 256), in software (no display needed).\n"
     "  --sheet FILE  also write a contact sheet: every picture in a grid with its name\n"
     "  --threads N   worker threads (default: every core)\n"
     "DIR is created when missing. Carries on past files that cannot be drawn and lists them; exits 1 only when\n"
     "nothing could be drawn (or the --sheet not written). A progress line on a terminal.\n"},
    {"diff", cmdDiff, "diff [--json] [--game DIR]... [--mod DIR]... A B",
     "Lists what differs between two models or clips (any format the viewer opens; a model's clips come\n"
     "along and are paired by name): bones added, removed, moved (bind-pose distance and angle) or reparented;\n"
     "meshes, sub-mesh, vertex and triangle counts; shaders and material parameters; textures; lights,\n"
     "proxies, dazzles; clip lengths, animated bones and each bone's largest difference over the clip with its\n"
     "time. Names match case-insensitively. --json prints one object (schema rigscope-diff/1, docs/DIFF.md).\n"
     "Exit status: 0 identical, 1 different, 2 usage error or a file that cannot be read.\n"},
    {"rewrite", cmdRewrite, "rewrite [--game DIR]... [--mod DIR]... FILE... -o DIR [--verify | --check-only]",
     "Reads each FILE (Alamo .alo/.ala, W3D, B&W2 .bwm/.al, AMOS AMAL banks, MEG and BIG archives) and writes it\n"
     "back unchanged to DIR/<its file name>: every chunk, mini-chunk, padding and trailing byte, unknown chunks\n"
     "and the quirks the readers tolerate as stored. Each write goes to a temporary file in DIR, is flushed,\n"
     "read back by the format's reader and only then renamed; nothing is written outside DIR, and an entry of\n"
     "an archive (ARCHIVE:PATH) is written as a loose file in DIR, never into the archive.\n"
     "  --verify      then compare each output with its input byte for byte; at a difference print the first\n"
     "                differing offset with its chunk path (or field)\n"
     "  --check-only  write nothing: compare the files already in DIR with their inputs (as --verify)\n"
     "Exit status: 0 all written (and identical), 1 a file could not be read or written or differs (named),\n"
     "2 usage error.\n"},
    {"pack", cmdPack,
     "pack DIR -o OUT.meg [--meg-version 1|2|3] | pack DIR -o OUT.big [--big4] [--separator / | \\\\] [--prefix P]\n"
     "  rigscope-cli pack --from ARCHIVE [--replace GAMEPATH=FILE]... -o OUT",
     "Writes an archive (safely: temporary file, read back, rename).\n"
     "From DIR: every regular file under it (links are not followed) as an entry named by its path under DIR\n"
     "with '\\' separators (--separator /: '/'), after P when --prefix P is given (\"/\": a leading '/', as some\n"
     "BIG tools store). MEG (default version 1): names upper-cased, the name table, file table and data in\n"
     "the order of the names' CRC-32, as the games' tools write them. BIG (BIGF, or BIG4): names as on disk,\n"
     "sorted ignoring case. An archive extracted with 'rigscope-cli extract' packs back to the same bytes when\n"
     "its names are such paths.\n"
     "--from ARCHIVE: the archive as stored (header fields, name and record order, name case, CRCs, gaps,\n"
     "trailing bytes) with the entries named by --replace replaced by FILE's bytes (a name the archive lacks is\n"
     "added). Same sizes: written in place; else the data are laid out again in their order. OUT must not be\n"
     "ARCHIVE itself.\n"},
    {"edit", cmdEdit,
     "edit [--game DIR]... [--mod DIR]... INPUT|GLOB... EDIT... [--patch FILE.json] [--dry-run] (-o DIR | --in-place)",
     "Edits files in place of their bytes: only the chunks that hold an edited value change (and their\n"
     "ancestors' sizes); every other byte is kept. EDIT is any of, in order, each repeatable:\n"
     "  --rename-texture OLD=NEW  texture names (ASCII case ignored): Alamo texture parameters, W3D texture\n"
     "                            names and shader material textures, B&W2 material slots\n"
     "  --set TARGET.PARAM=VALUE  a material parameter: TARGET is a mesh (\"MESH\", \"MESH#1\" its second\n"
     "                            sub-mesh), a W3D vertex material or a B&W2 \"material N\"; empty: every one\n"
     "                            (\".Diffuse=#FF8000\"); VALUE is numbers (\"1 0.5 0 1\", \"#RRGGBB\") or a name;\n"
     "                            PARAM \"shader\" sets the shader; W3D: shader bits (DepthMask, ...), vertex\n"
     "                            material colours (Diffuse=R G B 0..255), shader material properties\n"
     "  --shader OLD=NEW          sub-mesh shaders named OLD ('*' any): Alamo 0x10101, W3D FX shader names\n"
     "  --rename-bone OLD=NEW     the bone, carried into the files that name it: Alamo clips beside the model,\n"
     "                            object XML/INI of the --game/--mod folders (attachment bones, ParticleSysBone)\n"
     "  --patch FILE.json         the edits (and optionally the files) of a patch file (docs/EDITING.md)\n"
     "INPUT is a file, a glob (expanded here: quoted globs work; ** any folders), a folder (every Alamo, W3D\n"
     "and B&W2 file under it, at its path under the folder), an ARCHIVE:PATH or a game path of the --game/--mod\n"
     "folders (written at its game path under DIR).\n"
     "  --dry-run    list each file and each change (chunk path, offset, old and new value); write nothing\n"
     "  -o DIR       write the changed files under DIR (temporary file, read back, rename)\n"
     "  --in-place   replace each changed file on disk the same safe way (never an archive's entry)\n"
     "Example, one texture in every model of a mod: rigscope-cli edit 'MyMod/Data/Art/Models/*.alo'\n"
     "  --rename-texture W_OLD.TGA=W_NEW.TGA -o Out/Data/Art/Models\n"
     "Exit status: 0 done, 1 a file could not be read, edited or written (named), 2 usage error.\n"},
    {"particles", runParticles,
     "particles --json FILE --time SECONDS [--seed N] [--no-skip] [--max N] [--system NAME]",
     "Live particles of a particle system at a time (deterministic for a seed): per particle the emitter,\n"
     "position, velocity, size (full quad width), colour rgba, rotation (radians), texture frame, age and life.\n"
     "FILE: an Alamo particle system (.alo), a .w3d holding W3D emitters (chunk 0x500; positions in the space of\n"
     "the emitter's bone), or a SAGE ParticleSystem INI with --system NAME.\n"
     "  --no-skip   ignore the emitters' skip time (0x33) instead of pre-simulating it\n"
     "  --max N     write at most N particles (default 1000000); \"live\" still counts all\n"
     "  --system NAME  the SAGE system of the INI, or the W3D emitter when the .w3d holds several\n"},
    {"export", runExport,
     "export [--game DIR]... [--mod DIR]... MODEL [--clip FILE]... [--all-clips] [--lod N] [--alt N] "
     "[--all-variants] [--faction-color #RRGGBB] -o OUT.glb|OUT.gltf\n"
     "  rigscope-cli export [--game DIR]... [--mod DIR]... --batch SOURCE -o DIR",
     "Writes the model's skeleton, meshes (skinned and rigid), materials with PNG textures, lights, proxies,\n"
     "dazzles and clips as glTF 2.0 (Y up: Z-up Alamo and W3D (x, y, z) -> glTF (x, z, -y), Y-up B&W2 kept;\n"
     "1 unit = 1 m).\n"
     "Without --clip every clip beside the model and inside the file is exported; --all-clips adds them to\n"
     "the --clip files. --all-variants writes one scene per LOD/ALT combination (scene 0 = --lod/--alt).\n"
     "A .bwm gets the first animation library (.al) beside it whose armature fits.\n"
     "--batch exports every model under SOURCE (a folder or a .meg/.big archive) to DIR/<relative path>.glb\n"
     "(DIR is created when missing), carrying on past broken files and listing them at the end (exit 1 if any\n"
     "failed).\n"},
    {"import", runImport,
     "import IN.glb|IN.gltf -o OUT.alo|OUT.w3d [--game eaw|foc|generals|zh|bfme|bfme2] [--clips all|NAME...] "
     "[--scale S] [--up y|z] [--rename] [--layout sage]",
     "Converts a glTF 2.0 model and its animations into an Alamo model and <OUT>_<CLIP>_00.ALA clips beside it\n"
     "(format 2 for foc, 1 for eaw; 30 fps), or a W3D model with one uncompressed <OUT>_<CLIP>.w3d per clip, within\n"
     "the engine's limits (reported); nothing is written on error. 'rigscope-cli import --help' for the options.\n"},
    {"amal", runAmal,
     "amal --json FILE (--movement N [--backward] | --program N) [--ticks T] [--x X --y Y --a A] [--set NAME=VALUE]",
     "Runs AMAL movement N (recorded PLay data) or program N of an AMAL bank for T ticks (1/50 s) and prints\n"
     "the channel's x, y and image per tick. --set NAME=VALUE presets XM YM J0 J1 K1 K2 R0-R9 RA-RZ ...\n"},
};

static std::string usageText() {
    std::string s = "Usage: rigscope-cli COMMAND [OPTIONS]\n\nCommands:\n";
    for (const Command& c : kCommands)
        s += std::string("  rigscope-cli ") + c.synopsis + "\n";
    s += std::string("\n") + kInputs +
         "\n'rigscope-cli COMMAND --help' describes a command.\n"
         "Exit status: 0 success, 1 unreadable or invalid file (one line on stderr), 2 usage error.\n";
    return s;
}

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

static int cmdInfo(std::vector<std::string> args) {
    GameMount gm;
    takeMountOptions(args, gm);
    bool json = false;
    std::string file;
    for (const auto& a : args) {
        if (a == "--json")
            json = true;
        else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else if (file.empty())
            file = a;
        else
            throw UsageError{"more than one file given"};
    }
    if (file.empty()) throw UsageError{"info needs a FILE"};
    try {
        std::string out;
        // Read (a file refused by name first), then textures and AMAL banks by their own writers, then the
        // document through the resolver (resolver -> reader -> model).
        const Input in = readInput(file, gm);
        const bool resolved = resolvesThroughTable(file, gm);
        if (!resolved) {
            if (infoTexture(ByteSpan(in.bytes), file, json, out)) {
                std::cout << terminalText(out) << "\n";
                return 0;
            }
            if (infoSpecial(detectFormat(ByteSpan(in.bytes), file), ByteSpan(in.bytes), file, json, out)) {
                std::cout << terminalText(out) << "\n";
                return 0;
            }
        }
        const Document doc = parseInput(in, gm);
        if (json) {
            Json j;
            if (doc.format == Format::AlamoModel || doc.format == Format::AlamoClip)
                infoAlamo(doc, j);
            else if (doc.format == Format::W3d || doc.format == Format::W3x)
                infoW3d(doc, ByteSpan(in.bytes), j);
            else if (doc.format == Format::Bw2Model)
                infoBwm(doc, ByteSpan(in.bytes), j);
            else if (doc.format == Format::Bw2Library)
                infoAl(doc, ByteSpan(in.bytes), j);
            else if (doc.particles)
                infoParticles(doc, j);
            else
                throw ParseError(file, {}, ParseError::kNoOffset,
                                 std::string("no info writer for format ") + formatName(doc.format));
            if (resolved) { // what the model refers to, found through the mounted folders / archive
                Json r;
                writeResolved(doc, in, r);
                j.out.pop_back();
                j.out += ",\"resolved\":" + r.out + "}";
            }
            std::cout << j.out << "\n";
        } else if (doc.format == Format::AlamoModel || doc.format == Format::AlamoClip) {
            infoAlamoText(doc, out);
            std::cout << terminalText(out);
        } else if (doc.particles) {
            infoParticlesText(doc, out);
            std::cout << terminalText(out);
        } else {
            infoGenericText(doc, out);
            std::cout << terminalText(out);
        }
        return 0;
    } catch (...) {
        rethrowNamingFile(file);
    }
}

static std::shared_ptr<Clip> firstClip(const Document& d) {
    if (d.clips.empty()) throw ParseError(d.path, {}, ParseError::kNoOffset, "file holds no animation clip");
    return d.clips.front();
}

static int cmdPose(std::vector<std::string> args) {
    GameMount gm;
    takeMountOptions(args, gm);
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
        if (a == "--json")
            json = true;
        else if (a == "--clip")
            clipPath = next("--clip");
        else if (a == "--frame") {
            frame = parseNumber(next("--frame"), "frame");
            haveFrame = true;
        } else if (a == "--time") {
            time = parseNumber(next("--time"), "time");
            haveTime = true;
        } else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else if (model.empty())
            model = a;
        else
            throw UsageError{"more than one model given"};
    }
    if (!json) throw UsageError{"pose supports --json output only"};
    if (model.empty()) throw UsageError{"pose needs a MODEL"};
    if (haveFrame && haveTime) throw UsageError{"give --frame or --time, not both"};
    try {
        Document md = loadInput(model, gm);
        if (!md.model) throw ParseError(model, {}, ParseError::kNoOffset, "file holds no model or skeleton");
        std::shared_ptr<Clip> clip;
        if (!clipPath.empty()) {
            Document cd = loadInput(clipPath, gm);
            clip = firstClip(cd);
            // A B&W2 animation library names the skin's bones: apply its armature to a .bwm first.
            if (cd.format == Format::Bw2Library && md.format == Format::Bw2Model && cd.model) {
                std::string why;
                if (!bw2::libraryFits(*md.model, cd.model->skeleton, &why))
                    throw ParseError(clipPath, {}, ParseError::kNoOffset,
                                     "animation library does not fit the model " + model + ": " + why);
                md.model = std::make_shared<Model>(bw2::applyLibrary(*md.model, cd.model->skeleton));
            }
        } else if (md.format == Format::Bw2Library) {
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
            if (haveTime)
                f = static_cast<float>(time * clip->fps);
            else
                f = static_cast<float>(frame);
            if (haveFrame && (frame < 0 || frame > double(clip->frameCount) - 1))
                throw UsageError{"frame " + std::to_string(frame) + " outside 0.." +
                                 std::to_string(int(clip->frameCount) - 1)};
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
            j.kv("visible", buf.visible[i] != 0); // effective: the bone's own flag, its ancestors' and the clip's
            j.endObject();
        }
        j.endArray().endObject();
        std::cout << j.out << "\n";
        return 0;
    } catch (...) {
        rethrowNamingFile(model);
    }
}

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (args.empty()) {
            std::cerr << usageText();
            return 2;
        }
        if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            std::cout << usageText();
            return 0;
        }
        if (args[0] == "--version") {
            std::cout << "rigscope-cli " RIGSCOPE_VERSION "\n";
            return 0;
        }
        const std::string cmd = args[0];
        args.erase(args.begin());
        for (const Command& c : kCommands) {
            if (cmd != c.name) continue;
            if (wantsHelp(args)) {
                std::cout << "Usage: rigscope-cli " << c.synopsis << "\n\n" << c.help;
                return 0;
            }
            return c.run(args);
        }
        throw UsageError{"unknown command " + cmd};
    } catch (const UsageError& e) {
        std::cerr << "rigscope-cli: " << e.message << "\nTry 'rigscope-cli --help'.\n";
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
