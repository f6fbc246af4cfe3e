// Game folders and archives on the command line.
//   rigscope-cli ls [SOURCE] [--game DIR]... [--mod DIR]... [--json] [GLOB]
//   rigscope-cli extract SOURCE GLOB -o DIR
// and, for info/pose, inputs given as ARCHIVE:PATH or as a game path inside --game/--mod folders.
#include "commands.h"
#include "games/discovery.h"

#include "common/error.h"
#include "common/file_read.h"
#include "resolve/lookup_rules.h"
#include "vfs/archive.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace rs::cli {

namespace fs = std::filesystem;

static const char* kLsHelp =
    "usage: rigscope-cli ls [SOURCE] [--game DIR]... [--mod DIR]... [--json] [GLOB]\n"
    "  Lists the entries of SOURCE (a .meg/.big/.stuff archive, a game or mod folder, any folder) or, without SOURCE,\n"
    "  every name of the mounted --game/--mod folders: size, the source that holds it, the sources it overrides\n"
    "  and the ones overriding it. GLOB (case-insensitive, '*' and '?', '/' or '\\') filters the names.\n"
    "  --game may be given twice (e.g. FoC and EaW: the expansion wins); the first --mod wins over later ones.\n";
static const char* kExtractHelp =
    "usage: rigscope-cli extract SOURCE GLOB -o DIR\n"
    "  Writes the entries of SOURCE (a .meg/.big/.stuff archive or a folder) whose names match GLOB into DIR, keeping\n"
    "  their folders. Names that would leave DIR (\"..\", absolute paths, drive letters) are refused.\n";

bool wantsHelp(const std::vector<std::string>& args) {
    return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

using vfs::globMatch;

const Resolver& GameMount::res() const {
    static const Resolver none;
    return resolver ? *resolver : none;
}

void takeJsonAndPositional(const std::vector<std::string>& args, bool& json, std::vector<std::string>& pos) {
    for (const auto& a : args) {
        if (a == "--json")
            json = true;
        else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else
            pos.push_back(a);
    }
}

void takeMountOptions(std::vector<std::string>& args, GameMount& m) {
    std::vector<std::string> rest, gameArgs, modArgs, modIds;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--game" || args[i] == "--mod" || args[i] == "--mod-id") {
            if (i + 1 >= args.size())
                throw UsageError{args[i] + (args[i] == "--mod-id" ? " needs an id" : " needs a folder")};
            (args[i] == "--game" ? gameArgs : args[i] == "--mod" ? modArgs : modIds).push_back(args[i + 1]);
            ++i;
        } else {
            rest.push_back(args[i]);
        }
    }
    args = rest;
    // Folders as given; "--game auto|ID", "--mod NAME" and "--mod-id ID" through the games found on this computer
    // (core/games/discovery.h), a named mod with its dependencies in the game's order.
    const games::MountChoice c = games::resolveMountArgs(gameArgs, modArgs, modIds);
    if (!c.problems.empty()) {
        std::string msg = c.problems.front();
        for (size_t i = 1; i < c.problems.size(); ++i)
            msg += "; " + c.problems[i];
        throw UsageError{msg};
    }
    for (const std::string& g : gameArgs)
        if (fs::exists(g) && !fs::is_directory(g)) throw UsageError{"--game " + g + ": not a folder"};
    for (const std::string& g : modArgs)
        if (fs::exists(g) && !fs::is_directory(g)) throw UsageError{"--mod " + g + ": not a folder"};
    m.games = c.games;
    m.mods = c.mods;
    if (!m.games.empty() || !m.mods.empty())
        m.table = std::make_shared<const vfs::MountTable>(vfs::mountInstall(m.games, m.mods));
    m.resolver = std::make_shared<const Resolver>(m.table);
}

// The archive of ARCHIVE:PATH: the shortest prefix ending before a ':' that is an existing file; "" when none.
static std::string archivePrefix(const std::string& arg) {
    for (size_t c = arg.find(':'); c != std::string::npos; c = arg.find(':', c + 1)) {
        std::error_code ec;
        if (c > 0 && fs::is_regular_file(arg.substr(0, c), ec)) return arg.substr(0, c);
    }
    return {};
}

bool isArchivePath(const std::string& arg) { return !archivePrefix(arg).empty(); }

// A file on disk rather than an archive entry or a game path: what exists on disk is read as a file (and refused
// by name when it is not a regular one), and without --game/--mod every input that is not ARCHIVE:PATH is.
static bool onDisk(const std::string& arg, const GameMount& m) {
    if (isArchivePath(arg)) return false;
    std::error_code ec;
    return !m.table || fs::exists(arg, ec);
}

bool resolvesThroughTable(const std::string& arg, const GameMount& m) { return m.table || isArchivePath(arg); }

void makeOutputFolder(const std::string& dir) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return;
    if (fs::exists(dir, ec)) throw ParseError(dir, {}, ParseError::kNoOffset, "not a folder (-o needs one)");
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw ParseError(dir, {}, ParseError::kNoOffset,
                         "cannot create the output folder: " + (ec ? ec.message() : std::string("not a folder")));
}

// An archive given where a model, clip, bank or texture is expected (`info Cinematics.meg`): refused naming what
// it is and how to look inside, instead of "unrecognised file format". A malformed archive gives its own error.
static void refuseArchive(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    std::vector<uint8_t> head;
    try {
        head = readFileHead(path, 16);
    } catch (const ParseError&) {
        return; // missing, a folder, a FIFO: readInputFile says so
    }
    if (ext != ".meg" && ext != ".big" && !vfs::looksLikeArchive(ByteSpan(head))) return;
    const std::shared_ptr<vfs::Archive> a = vfs::openArchiveFile(path);
    std::string kind = a->kind();
    for (char& c : kind)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    if (kind.size() == 4 && kind[3] >= '1' && kind[3] <= '3') kind = "MEG version " + kind.substr(3); // MEG1..3
    const size_t n = a->entries().size();
    throw ParseError(path, {}, ParseError::kNoOffset,
                     "a " + kind + " archive of " + std::to_string(n) + (n == 1 ? " file" : " files") +
                         ", not a model, clip or texture: list its files with `rigscope-cli ls " + path +
                         "` and open one as " + path + ":PATH");
}

Input readInput(const std::string& arg, const GameMount& m) {
    Input in;
    in.arg = arg;
    in.label = arg;
    if (onDisk(arg, m)) {
        refuseArchive(arg);
        in.bytes = readInputFile(arg);
        in.place = m.res().placeOf(arg);
        return in;
    }
    in.place = m.res().placeOf(arg);
    const vfs::Hit* h = in.place.table ? in.place.table->find(in.place.key) : nullptr;
    if (!h) {
        const std::string archive = archivePrefix(arg);
        throw ParseError(archive.empty() ? vfs::normalizePath(arg) : arg, {}, 0,
                         archive.empty() ? "not found in the mounted game and mod folders"
                                         : "no such entry in the archive");
    }
    const vfs::MountTable& t = *in.place.table;
    in.label = t.describe(*h);
    const vfs::Entry& e = t.entry(*h);
    if (!e.diskPath.empty()) {
        in.bytes = readInputFile(e.diskPath); // a loose file of a mounted folder: refused by name like any file
    } else {
        const vfs::EntryBytes b = t.read(*h);
        in.bytes.assign(b.span.data, b.span.data + b.span.size);
    }
    return in;
}

Document parseInput(const Input& in, const GameMount& m) {
    // Looked up around the input as given (a game path: in the mounted folders' order), named as the file is.
    OpenOptions o;
    o.label = in.label;
    return m.res().read(ByteSpan(in.bytes), in.arg, o);
}

Document loadInput(const std::string& arg, const GameMount& m, Input* read) {
    Input in = readInput(arg, m);
    Document d = parseInput(in, m);
    if (read) *read = std::move(in);
    return d;
}

static void writeHit(Json& j, const vfs::MountTable& t, const vfs::Hit& h) {
    j.beginObject().kv("source", Json::Path{t.describe(h)}).kv("role", t.mountOf(h).role).endObject();
}

void writeResolved(const Document& doc, const Input& in, Json& j) {
    if (!in.place.table) return;
    const vfs::MountTable& t = *in.place.table;
    const std::string& key = in.place.key;
    j.beginObject().key("textures").beginArray();
    std::vector<std::string> names;
    if (doc.model)
        for (const Mesh& mesh : doc.model->meshes)
            for (const SubMesh& sm : mesh.subMeshes)
                for (const MaterialParam& p : sm.material.params)
                    if (p.type == ParamType::Texture && !p.texture.empty()) names.push_back(p.texture);
    if (doc.model)
        for (const Dazzle& d : doc.model->dazzles)
            if (!d.texture.empty()) names.push_back(d.texture);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const std::string& n : names) {
        j.beginObject().kv("name", n);
        const vfs::Hit* h = resolve::findTexture(t, n, key);
        j.kv("found", h != nullptr);
        if (h) {
            const auto* all = t.findAll(t.entry(*h).key);
            j.kv("source", Json::Path{t.describe(*h)}).kv("role", t.mountOf(*h).role).key("overrides").beginArray();
            for (size_t i = 1; i < all->size(); ++i)
                writeHit(j, t, (*all)[i]);
            j.endArray();
        }
        j.endObject();
    }
    j.endArray().key("clips").beginArray();
    for (const std::string& c : resolve::companionClips(t, key))
        j.value(Json::Path{t.describe(*t.find(c))});
    j.endArray();
    if (doc.model && !doc.model->skeleton.name.empty() && doc.format == Format::W3d) {
        const vfs::Hit* h = resolve::findW3dHierarchy(t, doc.model->skeleton.name, key);
        j.key("hierarchy");
        if (h)
            j.value(Json::Path{t.describe(*h)});
        else
            j.null();
    }
    j.key("warnings").beginArray();
    for (const std::string& w : doc.warnings)
        j.value(w);
    j.endArray().endObject();
}

int cmdLs(std::vector<std::string> args) {
    if (wantsHelp(args)) return std::cout << kLsHelp, 0;
    GameMount m;
    takeMountOptions(args, m);
    bool json = false;
    std::vector<std::string> pos;
    takeJsonAndPositional(args, json, pos);
    std::string source, glob = "*";
    std::error_code ec;
    if (!pos.empty() && (fs::exists(pos[0], ec) || !m.table)) source = pos[0], pos.erase(pos.begin());
    if (!pos.empty()) glob = pos[0], pos.erase(pos.begin());
    if (!pos.empty()) throw UsageError{"ls takes one SOURCE and one GLOB"};
    if (source.empty() && !m.table) throw UsageError{"ls needs a SOURCE or --game/--mod"};
    glob = vfs::normalizePath(glob);

    vfs::MountTable table;
    int only = -1; // list this mount's entries only
    if (m.table) table = *m.table;
    if (!source.empty()) {
        const fs::path canon = fs::weakly_canonical(source, ec);
        for (size_t i = 0; i < table.mounts().size() && only < 0; ++i)
            if (fs::weakly_canonical(table.mounts()[i].source->label(), ec) == canon) only = int(i);
        if (only < 0) {
            vfs::MountTable top;
            const vfs::Detected d = vfs::detectGame(source);
            top = fs::is_directory(source, ec) && d.game != Game::Unknown ? vfs::mountInstall({source}, {})
                                                                          : vfs::mountSingle(source);
            for (const vfs::Mount& mt : table.mounts())
                top.add(mt.source, mt.role);
            top.warnings.insert(top.warnings.end(), table.warnings.begin(), table.warnings.end());
            if (!fs::is_directory(source, ec) || d.game == Game::Unknown) only = 0;
            table = std::move(top);
        }
    }
    struct Row {
        std::string key;
        const std::vector<vfs::Hit>* hits;
        size_t self;
    };
    std::vector<Row> rows;
    table.forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
        if (!globMatch(glob, key)) return;
        for (size_t i = 0; i < hits.size(); ++i)
            if (only < 0 ? i == 0 : hits[i].mount == uint32_t(only)) {
                rows.push_back({key, &hits, i});
                break;
            }
    });
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
    Json j;
    if (json) j.beginObject().key("entries").beginArray();
    for (const Row& r : rows) {
        const vfs::Hit& h = (*r.hits)[r.self];
        const vfs::Entry& e = table.entry(h);
        if (json) {
            j.beginObject()
                .kv("name", e.name)
                .kv("size", uint64_t(e.size))
                .kv("source", Json::Path{table.mountOf(h).source->label()});
            j.kv("role", table.mountOf(h).role);
            if (e.linkOutside) j.kv("link_outside", e.linkTarget); // a link leading out of the folder: not read
            j.key("overridden_by").beginArray();
            for (size_t i = 0; i < r.self; ++i)
                writeHit(j, table, (*r.hits)[i]);
            j.endArray().key("overrides").beginArray();
            for (size_t i = r.self + 1; i < r.hits->size(); ++i)
                writeHit(j, table, (*r.hits)[i]);
            j.endArray().endObject();
        } else {
            std::cout << e.size << '\t' << table.mountOf(h).source->label() << '\t' << e.name;
            for (size_t i = 0; i < r.self; ++i)
                std::cout << "\toverridden-by " << table.describe((*r.hits)[i]);
            for (size_t i = r.self + 1; i < r.hits->size(); ++i)
                std::cout << "\toverrides " << table.describe((*r.hits)[i]);
            if (e.linkOutside) std::cout << "\tlink-outside " << (e.linkTarget.empty() ? "?" : e.linkTarget);
            std::cout << '\n';
        }
    }
    if (json) {
        j.endArray().key("warnings").beginArray();
        for (const std::string& w : table.warnings)
            j.value(w);
        j.endArray().endObject();
        std::cout << j.out << '\n';
    } else {
        for (const std::string& w : table.warnings)
            std::cerr << "warning: " << w << '\n';
    }
    return 0;
}

// The path `name` takes under DIR, or "" when it would leave DIR. Archive names are relative to the archive's
// root: a leading separator (as some BIG writers store, "/test/hello.txt") anchors at DIR; ".." components,
// drive letters and any other ':' are refused.
std::string safeRelativePath(const std::string& name) {
    std::string n = name;
    std::replace(n.begin(), n.end(), '\\', '/');
    if (n.empty() || n.find(':') != std::string::npos) return {};
    std::string out, part;
    size_t at = 0;
    while (at <= n.size()) {
        const size_t slash = std::min(n.find('/', at), n.size());
        part = n.substr(at, slash - at);
        at = slash + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") return {};
        if (part.find('\0') != std::string::npos) return {};
        out += (out.empty() ? "" : "/") + part;
    }
    return out;
}

int cmdExtract(std::vector<std::string> args) {
    if (wantsHelp(args)) return std::cout << kExtractHelp, 0;
    std::string out;
    std::vector<std::string> pos;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "-o") {
            if (i + 1 >= args.size()) throw UsageError{"-o needs a folder"};
            out = args[++i];
        } else if (!args[i].empty() && args[i][0] == '-') {
            throw UsageError{"unknown option " + args[i]};
        } else {
            pos.push_back(args[i]);
        }
    }
    if (pos.size() != 2 || out.empty()) throw UsageError{"extract needs SOURCE GLOB -o DIR"};
    vfs::MountTable t = vfs::mountSingle(pos[0]);
    const std::string glob = vfs::normalizePath(pos[1]);
    const vfs::Source& src = *t.mounts()[0].source;
    std::error_code ec;
    fs::create_directories(out, ec);
    const fs::path root = fs::canonical(out, ec);
    if (ec) throw ParseError(out, {}, 0, "cannot create the output folder: " + ec.message());
    int written = 0, refused = 0;
    for (const vfs::Entry& e : src.entries()) {
        if (!globMatch(glob, e.key)) continue;
        const std::string rel = safeRelativePath(e.name);
        const fs::path dest = (root / rel).lexically_normal();
        const std::string d = dest.string(), r = root.string() + "/";
        if (rel.empty() || d.compare(0, r.size(), r) != 0) {
            std::cerr << "rigscope-cli: " << src.label() << ": entry " << e.name
                      << " refused: its name would write outside " << out << '\n';
            ++refused;
            continue;
        }
        const vfs::EntryBytes b = src.read(e);
        fs::create_directories(dest.parent_path(), ec);
        // Never follow a link planted in DIR.
        if (fs::is_symlink(dest, ec) ||
            fs::canonical(dest.parent_path(), ec).string().compare(0, root.string().size(), root.string()) != 0) {
            std::cerr << "rigscope-cli: " << e.name << " refused: " << dest.string() << " leads outside " << out
                      << '\n';
            ++refused;
            continue;
        }
        std::ofstream f(dest, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(b.span.data), std::streamsize(b.span.size));
        if (!f) throw ParseError(dest.string(), {}, 0, "cannot write");
        ++written;
    }
    std::cout << written << " written, " << refused << " refused\n";
    return refused ? 1 : 0;
}

} // namespace rs::cli
