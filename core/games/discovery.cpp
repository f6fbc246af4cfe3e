#include "games/discovery.h"

#include "common/bytes.h"
#include "common/error.h"
#include "common/file_read.h"
#include "common/file_write.h"
#include "common/text_position.h"
#include "games/vdf.h"
#include "vfs/mount.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace rs::games {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool isDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// A folder's entries, lower-case name -> path (the smallest name of those equal in any case); at most `budget`
// folders are listed in one discovery.
struct Lister {
    size_t visited = 0;
    bool exhausted = false;
    std::map<std::string, fs::path> list(const fs::path& dir) {
        std::map<std::string, fs::path> out;
        if (visited >= kMaxFoldersVisited) {
            exhausted = true;
            return out;
        }
        ++visited;
        std::error_code ec;
        size_t n = 0;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end && n < 100000; it.increment(ec), ++n) {
            const std::string name = it->path().filename().string();
            auto [slot, added] = out.emplace(lower(name), it->path());
            if (!added && name < slot->second.filename().string()) slot->second = it->path();
        }
        return out;
    }
};

std::string canonicalPath(const fs::path& p) {
    std::error_code ec;
    const fs::path c = fs::canonical(p, ec);
    return ec ? p.lexically_normal().string() : c.string();
}

std::vector<GameInstall> recognise(const fs::path& folder, bool withSiblings);

// The sibling of `folder` recognised as game `want` (FoC's GameData, Zero Hour's Generals, RotWK's BFME II).
std::string siblingGame(const fs::path& folder, Game want) {
    std::error_code ec;
    const fs::path parent = folder.parent_path();
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path() == folder || !isDir(it->path())) continue;
        for (const GameInstall& g : recognise(it->path(), false))
            if (g.game == want) return g.root;
    }
    return {};
}

bool hasDataDir(const std::map<std::string, fs::path>& e) {
    const auto d = e.find("data");
    return d != e.end() && isDir(d->second);
}

} // namespace

namespace {
std::vector<GameInstall> recognise(const fs::path& folder, bool withSiblings) {
    std::vector<GameInstall> out;
    Lister lister;
    const auto e = lister.list(folder);
    auto has = [&](const char* name) { return e.count(name) != 0; };
    const std::string base = lower(folder.filename().string());
    auto add = [&](Game g, std::vector<std::string> mounts) {
        GameInstall gi;
        gi.game = g;
        gi.root = folder.string();
        gi.mountFolders = std::move(mounts);
        gi.store = "folder";
        out.push_back(std::move(gi));
    };
    if (has("swfoc.exe") || (base == "corruption" && hasDataDir(e))) {
        std::vector<std::string> m{folder.string()};
        const std::string eaw = withSiblings ? siblingGame(folder, Game::Eaw) : std::string();
        if (!eaw.empty()) m.push_back(eaw);
        add(Game::Foc, m);
    } else if (has("sweaw.exe") || (base == "gamedata" && hasDataDir(e))) {
        add(Game::Eaw, {folder.string()});
    } else if (has("inizh.big") || has("w3dzh.big")) {
        std::vector<std::string> m{folder.string()};
        const std::string gen = withSiblings ? siblingGame(folder, Game::Generals) : std::string();
        if (!gen.empty()) m.push_back(gen);
        add(Game::ZeroHour, m);
    } else if (has("lotrbfme2ep1.exe")) {
        std::vector<std::string> m{folder.string()};
        const std::string b2 = withSiblings ? siblingGame(folder, Game::Bfme2) : std::string();
        if (!b2.empty()) m.push_back(b2);
        add(Game::Rotwk, m);
    } else if (has("lotrbfme2.exe")) {
        add(Game::Bfme2, {folder.string()});
    } else if (has("lotrbfme.exe")) {
        add(Game::Bfme, {folder.string()});
    } else if (has("generals.exe") && has("ini.big")) {
        add(Game::Generals, {folder.string()});
    } else if (const Game cnc3 = recogniseCnc3(folder.string()); cnc3 != Game::Unknown) {
        add(cnc3, {folder.string()});
    } else if (has("white.exe")) {
        add(Game::Bw2, {folder.string()});
    }
    return out;
}
} // namespace

std::vector<GameInstall> recogniseFolder(const std::string& folder) { return recognise(fs::path(folder), true); }

std::vector<Game> mountedGames(const vfs::MountTable* table) {
    std::vector<Game> out;
    if (!table) return out;
    std::set<std::string> seen;
    for (const vfs::Mount& m : table->mounts()) {
        if (!m.source || m.role.rfind("mod", 0) == 0) continue;
        // A loose folder is labelled by its path, an archive by its file's.
        const fs::path label(m.source->label());
        std::vector<fs::path> folders;
        if (isDir(label))
            folders.push_back(label);
        else
            for (fs::path p = label.parent_path(); folders.size() < 3 && !p.empty(); p = p.parent_path()) {
                folders.push_back(p);
                if (p == p.parent_path()) break;
            }
        for (const fs::path& folder : folders) {
            if (!seen.insert(canonicalPath(folder)).second) continue;
            for (const GameInstall& g : recognise(folder, false))
                if (std::find(out.begin(), out.end(), g.game) == out.end()) out.push_back(g.game);
        }
    }
    return out;
}

// --- modinfo.json ------------------------------------------------------------------------------------------------

namespace {

// Line and column of byte `offset` in `text` (1-based).
std::string lineColumn(const std::string& text, size_t offset) {
    const TextPosition p = textPositionOf(text, offset);
    return "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
}

// Parses one modinfo file into `m` (fields it holds replace m's). False, with a problem naming the file, when it
// is not a modinfo.
bool readModinfo(const fs::path& file, ModInfo& m, std::vector<std::string>& problems) {
    std::string text;
    try {
        const std::vector<uint8_t> bytes = readFile(file.string(), kMaxModinfoBytes, "modinfo");
        text.assign(bytes.begin(), bytes.end());
    } catch (const std::exception& e) {
        problems.push_back(e.what());
        return false;
    }
    if (text.size() >= 3 && uint8_t(text[0]) == 0xEF && uint8_t(text[1]) == 0xBB && uint8_t(text[2]) == 0xBF)
        text.erase(0, 3);
    if (jsonTooDeepAt(text, kMaxModinfoDepth) != std::string_view::npos) {
        problems.push_back(file.string() + ": nested deeper than " + std::to_string(kMaxModinfoDepth) +
                           " levels (kMaxModinfoDepth); not read");
        return false;
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        problems.push_back(file.string() + ": " + lineColumn(text, e.byte ? e.byte - 1 : 0) + ": not valid JSON (" +
                           e.what() + ")");
        return false;
    }
    if (!j.is_object()) {
        problems.push_back(file.string() + ": not a JSON object");
        return false;
    }
    auto str = [&](const char* key, std::string& out) {
        const auto it = j.find(key);
        if (it == j.end()) return;
        if (it->is_string())
            out = it->get<std::string>();
        else
            problems.push_back(file.string() + ": \"" + key + "\" is not a string");
    };
    const auto name = j.find("name");
    if (name == j.end() || !name->is_string() || name->get<std::string>().empty()) {
        problems.push_back(file.string() + ": no \"name\" (eaw.modinfo requires one)");
        return false;
    }
    str("name", m.name);
    str("version", m.version);
    str("summary", m.summary);
    if (const auto deps = j.find("dependencies"); deps != j.end()) {
        if (!deps->is_array()) {
            problems.push_back(file.string() + ": \"dependencies\" is not a list");
        } else {
            m.dependencies.clear();
            size_t index = 0;
            for (const auto& d : *deps) {
                ++index;
                if (d.is_string()) continue; // a resolve-layout marker of later specs ("FullResolved")
                const auto id = d.is_object() ? d.find("identifier") : d.end();
                if (!d.is_object() || id == d.end() || !id->is_string()) {
                    problems.push_back(file.string() + ": dependency " + std::to_string(index) +
                                       " has no \"identifier\" string");
                    continue;
                }
                ModReference r;
                r.identifier = id->get<std::string>();
                const auto type = d.find("modtype");
                r.type = type != d.end() && type->is_number_integer() ? type->get<int>() : 0;
                m.dependencies.push_back(std::move(r));
            }
        }
    }
    if (const auto sd = j.find("steamdata"); sd != j.end() && sd->is_object()) {
        const auto tags = sd->find("tags");
        if (tags != sd->end() && tags->is_array()) {
            bool eaw = false, foc = false;
            for (const auto& t : *tags)
                if (t.is_string()) {
                    const std::string l = lower(t.get<std::string>());
                    eaw |= l == "eaw";
                    foc |= l == "foc";
                }
            if (eaw && !foc) m.game = Game::Eaw;
            if (foc) m.game = Game::Foc;
        }
    }
    m.hasModinfo = true;
    return true;
}

} // namespace

std::vector<ModInfo> readModFolder(const std::string& folder, const std::string& id, const std::string& source,
                                   Game game, std::vector<std::string>& problems) {
    ModInfo main;
    main.id = id;
    main.folder = folder;
    main.source = source;
    main.game = game;
    main.name = fs::path(folder).filename().string();
    std::vector<ModInfo> out;
    Lister lister;
    const auto e = lister.list(folder);
    if (const auto it = e.find("modinfo.json"); it != e.end()) {
        ModInfo m = main;
        if (readModinfo(it->second, m, problems)) main = m;
    }
    out.push_back(main);
    for (const auto& [l, path] : e) {
        if (l.size() <= 13 || l.compare(l.size() - 13, 13, "-modinfo.json") != 0) continue;
        ModInfo v = main; // a variant inherits what it leaves out
        v.variant = path.filename().string();
        v.id = id + "/" + v.variant;
        if (readModinfo(path, v, problems)) out.push_back(std::move(v));
    }
    return out;
}

// --- discovery ---------------------------------------------------------------------------------------------------

namespace {

struct Walker {
    Discovery& d;
    Lister lister;
    std::set<std::string> seenGames, seenMods;

    void addGames(const fs::path& folder, const std::string& store, const std::string& library,
                  const std::string& prefix) {
        for (GameInstall g : recogniseFolder(folder.string())) {
            const std::string key = std::string(gameId(g.game)) + "|" + canonicalPath(g.root);
            if (!seenGames.insert(key).second) continue;
            g.store = store;
            g.library = library;
            g.prefix = prefix;
            // Local mods of the EaW/FoC folder.
            if (g.game == Game::Eaw || g.game == Game::Foc) {
                for (const auto& [l, mods] : lister.list(g.root)) {
                    if (l != "mods" || !isDir(mods)) continue;
                    for (const auto& [ml, modDir] : lister.list(mods))
                        if (isDir(modDir)) addMods(modDir, modDir.filename().string(), "local", g.game);
                }
            }
            d.games.push_back(std::move(g));
        }
    }

    void addMods(const fs::path& folder, const std::string& id, const std::string& source, Game game) {
        if (!seenMods.insert(canonicalPath(folder)).second) return;
        for (ModInfo& m : readModFolder(folder.string(), id, source, game, d.problems))
            d.mods.push_back(std::move(m));
    }

    // Game folders up to `depth` levels below `dir` (a recognised folder's own sub-folders are searched too: the
    // Steam Gold Pack holds GameData and corruption side by side).
    void scan(const fs::path& dir, int depth, const std::string& store, const std::string& library,
              const std::string& prefix) {
        if (depth < 0) return;
        for (const auto& [l, sub] : lister.list(dir)) {
            if (!isDir(sub)) continue;
            addGames(sub, store, library, prefix);
            if (l == "data" || l == "mods") continue; // game content, not installs
            scan(sub, depth - 1, store, library, prefix);
        }
    }

    void scanPrefix(const fs::path& pfx, const std::string& store) {
        const fs::path c = pfx / "drive_c";
        if (!isDir(c)) return;
        d.prefixes.push_back(pfx.string());
        for (const char* top : {"Program Files (x86)", "Program Files", "GOG Games", "Games"}) {
            const fs::path t = c / top;
            if (isDir(t)) scan(t, 2, store, {}, pfx.string());
        }
    }

    void library(const fs::path& lib, const std::string& store) {
        const std::string key = canonicalPath(lib);
        if (std::find(d.libraries.begin(), d.libraries.end(), key) != d.libraries.end()) return;
        d.libraries.push_back(key);
        const fs::path apps = lib / "steamapps";
        scan(apps / "common", 1, store, lib.string(), {});
        const fs::path ws = apps / "workshop" / "content" / kEawWorkshopApp;
        if (isDir(ws))
            for (const auto& [l, mod] : lister.list(ws))
                if (isDir(mod)) addMods(mod, mod.filename().string(), "workshop", Game::Foc);
        const fs::path compat = apps / "compatdata";
        if (isDir(compat))
            for (const auto& [l, id] : lister.list(compat))
                if (isDir(id / "pfx")) scanPrefix(id / "pfx", "proton");
    }

    void steamRoot(const fs::path& root, const std::string& store) {
        if (!isDir(root / "steamapps")) return;
        const std::string key = canonicalPath(root);
        if (std::find(d.steamRoots.begin(), d.steamRoots.end(), key) != d.steamRoots.end()) return;
        d.steamRoots.push_back(key);
        library(root, store);
        for (const fs::path& vdf :
             {root / "steamapps" / "libraryfolders.vdf", root / "config" / "libraryfolders.vdf"}) {
            if (!isRegularFile(vdf.string())) continue;
            try {
                const std::vector<uint8_t> bytes = readFile(vdf.string(), kMaxVdfBytes, "VDF");
                const VdfNode top =
                    parseVdf(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), vdf.string());
                const VdfNode* lf = top.find("libraryfolders");
                if (!lf) lf = top.find("LibraryFolders");
                if (!lf || !lf->block) {
                    d.problems.push_back(vdf.string() + ": no \"libraryfolders\" block");
                    continue;
                }
                for (const VdfNode& entry : lf->children) {
                    std::string path = entry.block ? entry.get("path") : entry.value;
                    // The older form also holds "TimeNextStatsReport" and "ContentStatsID": only numbered keys are
                    // libraries.
                    if (entry.key.empty() ||
                        !std::all_of(entry.key.begin(), entry.key.end(), [](char c) { return c >= '0' && c <= '9'; }))
                        continue;
                    if (path.empty()) continue;
                    if (!isDir(path)) {
                        d.problems.push_back(vdf.string() + ": line " + std::to_string(entry.line) +
                                             ": library folder " + path + " not found");
                        continue;
                    }
                    library(path, store);
                }
            } catch (const std::exception& e) {
                d.problems.push_back(e.what());
            }
        }
    }
};

} // namespace

Discovery discover(const DiscoverOptions& options) {
    Discovery d;
    std::string home = options.home;
    if (home.empty())
        if (const char* h = std::getenv("HOME")) home = h;
    if (home.empty()) {
        d.problems.push_back("no home folder ($HOME is not set)");
        return d;
    }
    const fs::path h(home);
    Walker w{d, {}, {}, {}};
    w.steamRoot(h / ".steam" / "steam", "steam");
    w.steamRoot(h / ".steam" / "root", "steam");
    w.steamRoot(h / ".local" / "share" / "Steam", "steam");
    w.steamRoot(h / ".var" / "app" / "com.valvesoftware.Steam" / ".local" / "share" / "Steam", "steam-flatpak");
    w.scanPrefix(h / ".wine", "wine");
    if (isDir(h / "Games"))
        for (const auto& [l, p] : w.lister.list(h / "Games"))
            if (isDir(p)) w.scanPrefix(p, "lutris");
    for (const fs::path& bottles : {h / ".local" / "share" / "bottles" / "bottles",
                                    h / ".var" / "app" / "com.usebottles.bottles" / "data" / "bottles" / "bottles"})
        if (isDir(bottles))
            for (const auto& [l, p] : w.lister.list(bottles))
                if (isDir(p)) w.scanPrefix(p, "bottles");
    if (w.lister.exhausted)
        d.problems.push_back("more than " + std::to_string(kMaxFoldersVisited) +
                             " folders searched (kMaxFoldersVisited); the search stopped there");
    return d;
}

// --- mods stacked as the game stacks them ---------------------------------------------------------------------------

namespace {

std::string label(const ModInfo& m) { return "\"" + m.name + "\" (" + m.id + ")"; }

// The main ModInfo (not a variant) a reference names: a Workshop id, or a path relative to the referring mod's
// folder or absolute.
const ModInfo* referenced(const Discovery& d, const ModInfo& from, const ModReference& r) {
    for (const ModInfo& m : d.mods) {
        if (!m.variant.empty()) continue;
        if (r.type == 1) {
            if (m.source == "workshop" && m.id == r.identifier) return &m;
        } else {
            fs::path p(r.identifier);
            if (p.is_relative()) p = fs::path(from.folder) / p;
            if (canonicalPath(p) == canonicalPath(m.folder)) return &m;
        }
    }
    return nullptr;
}

} // namespace

ModStack resolveMod(const Discovery& d, const ModInfo& mod) {
    ModStack s;
    s.order.push_back(&mod);
    // Cycles: a depth-first walk with the path so far (each mod's dependencies as listed).
    std::vector<const ModInfo*> path;
    std::set<const ModInfo*> done;
    std::function<void(const ModInfo*)> dfs = [&](const ModInfo* m) {
        if (path.size() > 256) return;
        path.push_back(m);
        for (const ModReference& r : m->dependencies) {
            const ModInfo* dep = referenced(d, *m, r);
            if (!dep) continue;
            const auto at = std::find(path.begin(), path.end(), dep);
            if (at != path.end()) {
                std::string cycle;
                for (auto it = at; it != path.end(); ++it)
                    cycle += label(**it) + " -> ";
                s.problems.push_back("dependency cycle: " + cycle + label(*dep));
                continue;
            }
            if (done.insert(dep).second) dfs(dep);
        }
        path.pop_back();
    };
    dfs(&mod);
    // Flattening: breadth first, each mod once (the first place counts).
    std::set<const ModInfo*> seen{&mod};
    std::set<std::string> missingSeen;
    std::deque<const ModInfo*> queue{&mod};
    while (!queue.empty()) {
        const ModInfo* m = queue.front();
        queue.pop_front();
        for (const ModReference& r : m->dependencies) {
            const ModInfo* dep = referenced(d, *m, r);
            if (!dep) {
                const std::string what = (r.type == 1 ? "Workshop mod " : "mod folder ") + r.identifier;
                if (missingSeen.insert(what).second)
                    s.problems.push_back(label(*m) + " depends on " + what + ", which is not installed");
                continue;
            }
            if (!seen.insert(dep).second) continue;
            s.order.push_back(dep);
            queue.push_back(dep);
        }
    }
    return s;
}

const ModInfo* findMod(const Discovery& d, const std::string& idOrName) {
    for (const ModInfo& m : d.mods)
        if (m.id == idOrName) return &m;
    const std::string l = lower(idOrName);
    for (const ModInfo& m : d.mods)
        if (m.variant.empty() && lower(m.name) == l) return &m;
    for (const ModInfo& m : d.mods)
        if (lower(m.name) == l) return &m;
    return nullptr;
}

const GameInstall* pickGame(const Discovery& d, const ModInfo* mod, const std::string& preferredId) {
    if (mod) {
        for (const GameInstall& g : d.games)
            if (g.game == mod->game && !preferredId.empty() && preferredId == gameId(g.game)) return &g;
        for (const GameInstall& g : d.games)
            if (g.game == mod->game) return &g;
        return nullptr;
    }
    for (const GameInstall& g : d.games)
        if (!preferredId.empty() && preferredId == gameId(g.game)) return &g;
    return d.games.empty() ? nullptr : &d.games.front();
}

MountChoice mountFor(const Discovery& d, const GameInstall* game, const ModInfo* mod) {
    MountChoice c;
    if (mod) {
        const ModStack s = resolveMod(d, *mod);
        for (const ModInfo* m : s.order)
            c.mods.push_back(m->folder);
        c.problems = s.problems;
        if (!game) c.problems.push_back(label(*mod) + " runs on " + gameName(mod->game) + ", which was not found");
    }
    if (game) c.games = game->mountFolders;
    return c;
}

// --- the remembered choice ---------------------------------------------------------------------------------------

namespace {
fs::path choiceFile(const std::string& home) {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const fs::path base = xdg && *xdg && home.empty() ? fs::path(xdg) : fs::path(home) / ".config";
    return base / "rigscope" / "last-mount.txt";
}
} // namespace

void rememberChoice(const std::string& home, const std::string& gameIdValue, const std::string& modId) {
    const fs::path f = choiceFile(home);
    std::error_code ec;
    fs::create_directories(f.parent_path(), ec);
    const std::string text = gameIdValue + "\n" + modId + "\n";
    try {
        writeFileSafely(f.string(), ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    } catch (const std::exception&) {
    }
}

bool recallChoice(const std::string& home, std::string& gameIdValue, std::string& modId) {
    const fs::path f = choiceFile(home);
    if (!isRegularFile(f.string())) return false;
    try {
        const std::vector<uint8_t> b = readFile(f.string(), 4096, "remembered mount");
        const std::string t(b.begin(), b.end());
        const size_t nl = t.find('\n');
        if (nl == std::string::npos) return false;
        gameIdValue = t.substr(0, nl);
        const size_t nl2 = t.find('\n', nl + 1);
        modId = t.substr(nl + 1, nl2 == std::string::npos ? std::string::npos : nl2 - nl - 1);
        return !gameIdValue.empty();
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace rs::games

namespace rs::games {

MountChoice resolveMountArgs(const std::vector<std::string>& gameArgs, const std::vector<std::string>& modArgs,
                             const std::vector<std::string>& modIds, const DiscoverOptions& options) {
    MountChoice c;
    // A value written as a path ("../mod", "C:\\x") that is no folder is refused as such, not searched for.
    auto looksLikePath = [](const std::string& v) {
        return v.find('/') != std::string::npos || v.find('\\') != std::string::npos || (!v.empty() && v[0] == '.');
    };
    for (const std::string& g : gameArgs)
        if (!isDir(g) && looksLikePath(g)) c.problems.push_back("--game " + g + ": not a folder");
    for (const std::string& m : modArgs)
        if (!isDir(m) && looksLikePath(m)) c.problems.push_back("--mod " + m + ": not a folder");
    if (!c.problems.empty()) return c;
    bool needDiscovery = !modIds.empty();
    for (const std::string& g : gameArgs)
        needDiscovery |= !isDir(g);
    for (const std::string& m : modArgs)
        needDiscovery |= !isDir(m);
    if (!needDiscovery) {
        c.games = gameArgs;
        c.mods = modArgs;
        return c;
    }
    const Discovery d = discover(options);
    std::string home = options.home;
    if (home.empty())
        if (const char* h = std::getenv("HOME")) home = h;
    auto addUnique = [](std::vector<std::string>& v, const std::string& s) {
        if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
    };
    const ModInfo* firstMod = nullptr;
    auto addMod = [&](const ModInfo* m) {
        if (!firstMod) firstMod = m;
        const MountChoice mc = mountFor(d, nullptr, m);
        for (const std::string& f : mc.mods)
            addUnique(c.mods, f);
        for (const std::string& p : mc.problems)
            if (p.find("which was not found") == std::string::npos) c.problems.push_back(p);
    };
    for (const std::string& m : modArgs) {
        if (isDir(m)) {
            addUnique(c.mods, m);
        } else if (const ModInfo* mod = findMod(d, m)) {
            addMod(mod);
        } else {
            c.problems.push_back("--mod " + m + ": neither a folder nor a mod found (rigscope-cli games lists them)");
        }
    }
    for (const std::string& id : modIds) {
        const ModInfo* mod = nullptr;
        for (const ModInfo& x : d.mods)
            if (x.id == id) mod = &x;
        if (mod)
            addMod(mod);
        else
            c.problems.push_back("--mod-id " + id + ": no Workshop or local mod with that id was found");
    }
    std::string rememberedGame, rememberedMod;
    recallChoice(home, rememberedGame, rememberedMod);
    const GameInstall* chosen = nullptr;
    for (const std::string& g : gameArgs) {
        if (isDir(g)) {
            addUnique(c.games, g);
            continue;
        }
        Game id;
        const GameInstall* gi = nullptr;
        if (g == "auto") {
            gi = pickGame(d, firstMod, rememberedGame);
            if (!gi) c.problems.push_back("--game auto: no game was found (rigscope-cli games shows where it looked)");
        } else if (parseGameId(g, id)) {
            for (const GameInstall& x : d.games)
                if (x.game == id && !gi) gi = &x;
            if (!gi) c.problems.push_back(std::string("--game ") + g + ": " + gameName(id) + " was not found");
        } else {
            c.problems.push_back("--game " + g +
                                 ": neither a folder, \"auto\" nor a game id (eaw, foc, generals, zh, "
                                 "bfme, bfme2, rotwk, cnc3, kw, bw2)");
        }
        if (gi) {
            chosen = gi;
            for (const std::string& f : gi->mountFolders)
                addUnique(c.games, f);
        }
    }
    if (gameArgs.empty() && firstMod) {
        chosen = pickGame(d, firstMod, rememberedGame);
        if (chosen)
            for (const std::string& f : chosen->mountFolders)
                addUnique(c.games, f);
    }
    if (chosen && c.problems.empty()) rememberChoice(home, gameId(chosen->game), firstMod ? firstMod->id : "");
    return c;
}

} // namespace rs::games
