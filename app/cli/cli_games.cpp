// rigscope-cli games [--json] [--home DIR]: the games and mods found on this computer (core/games/discovery.h):
// each game with its store and the folders it mounts in the engine's order, each mod with its modinfo and the mods
// it stacks (its dependencies flattened as the game does), and every problem met (a broken libraryfolders.vdf or
// modinfo.json named with line and column, a dependency cycle, a missing dependency).
#include "commands.h"
#include "games/discovery.h"

#include <iostream>

namespace rs::cli {

int cmdGames(std::vector<std::string> args) {
    bool json = false;
    games::DiscoverOptions opt;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            json = true;
        } else if (args[i] == "--home") {
            if (i + 1 >= args.size()) throw UsageError{"--home needs a folder"};
            opt.home = args[++i];
        } else {
            throw UsageError{"unknown argument " + args[i]};
        }
    }
    const games::Discovery d = games::discover(opt);
    std::vector<std::vector<std::string>> stackProblems(d.mods.size());
    std::vector<std::vector<const games::ModInfo*>> stacks(d.mods.size());
    for (size_t i = 0; i < d.mods.size(); ++i) {
        const games::ModStack s = games::resolveMod(d, d.mods[i]);
        stacks[i] = s.order;
        stackProblems[i] = s.problems;
    }
    if (json) {
        Json j;
        j.beginObject().kv("schema", "rigscope-games/1");
        j.key("games").beginArray();
        for (const games::GameInstall& g : d.games) {
            j.beginObject().kv("id", rs::gameId(g.game)).kv("name", rs::gameName(g.game));
            j.kv("store", g.store).key("root").value(Json::Path{g.root});
            if (!g.library.empty()) j.key("library").value(Json::Path{g.library});
            if (!g.prefix.empty()) j.key("prefix").value(Json::Path{g.prefix});
            j.key("mount").beginArray();
            for (const std::string& f : g.mountFolders)
                j.value(Json::Path{f});
            j.endArray().endObject();
        }
        j.endArray();
        j.key("mods").beginArray();
        for (size_t i = 0; i < d.mods.size(); ++i) {
            const games::ModInfo& m = d.mods[i];
            j.beginObject().kv("id", m.id).kv("name", m.name).kv("version", m.version).kv("source", m.source);
            j.kv("game", rs::gameId(m.game)).key("folder").value(Json::Path{m.folder});
            if (!m.variant.empty()) j.kv("variant", m.variant);
            if (!m.summary.empty()) j.kv("summary", m.summary);
            j.key("dependencies").beginArray();
            for (const games::ModReference& r : m.dependencies)
                j.beginObject().kv("modtype", r.type).kv("identifier", r.identifier).endObject();
            j.endArray();
            j.key("stack").beginArray();
            for (const games::ModInfo* s : stacks[i])
                j.value(s->id);
            j.endArray();
            j.key("problems").beginArray();
            for (const std::string& p : stackProblems[i])
                j.value(p);
            j.endArray().endObject();
        }
        j.endArray();
        j.key("problems").beginArray();
        for (const std::string& p : d.problems)
            j.value(p);
        j.endArray();
        j.key("searched").beginObject();
        j.key("steamRoots").beginArray();
        for (const std::string& s : d.steamRoots)
            j.value(Json::Path{s});
        j.endArray().key("libraries").beginArray();
        for (const std::string& s : d.libraries)
            j.value(Json::Path{s});
        j.endArray().key("prefixes").beginArray();
        for (const std::string& s : d.prefixes)
            j.value(Json::Path{s});
        j.endArray().endObject().endObject();
        std::cout << j.out << "\n";
        return 0;
    }
    if (d.games.empty()) std::cout << "no game found (Steam roots searched: " << d.steamRoots.size() << ")\n";
    for (const games::GameInstall& g : d.games) {
        std::cout << rs::gameId(g.game) << "\t" << rs::gameName(g.game) << " (" << g.store << ")\n";
        std::cout << "\t--game";
        for (const std::string& f : g.mountFolders)
            std::cout << " " << printable(f);
        std::cout << "\n";
    }
    for (size_t i = 0; i < d.mods.size(); ++i) {
        const games::ModInfo& m = d.mods[i];
        std::cout << "mod " << printable(m.id) << "\t" << printable(m.name)
                  << (m.version.empty() ? "" : " " + printable(m.version)) << " [" << m.source << ", "
                  << rs::gameId(m.game) << "] " << printable(m.folder) << "\n";
        if (stacks[i].size() > 1) {
            std::cout << "\tstacks:";
            for (const games::ModInfo* s : stacks[i])
                std::cout << " " << printable(s->id);
            std::cout << "\n";
        }
        for (const std::string& p : stackProblems[i])
            std::cout << "\tproblem: " << printable(p) << "\n";
    }
    for (const std::string& p : d.problems)
        std::cerr << "problem: " << printable(p) << "\n";
    return 0;
}

} // namespace rs::cli
