#include "vfs/mount.h"

#include "common/file_read.h"
#include "common/text_budgets.h"
#include "common/warnings.h"
#include <mutex>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace rs::vfs {

namespace fs = std::filesystem;

// Expansions rank above their base game.
static int rank(Game g) {
    switch (g) {
    case Game::Foc:
        return 0;
    case Game::Eaw:
        return 1;
    case Game::ZeroHour:
        return 0;
    case Game::Generals:
        return 1;
    case Game::Rotwk:
        return 0;
    case Game::Bfme2:
        return 1;
    case Game::Bfme:
        return 2;
    case Game::KanesWrath:
        return 0;
    case Game::Cnc3:
        return 1;
    default:
        return 3;
    }
}

// Upper-cased names of the folder's direct entries -> the real name.
static std::vector<std::pair<std::string, std::string>> listDir(const fs::path& dir) {
    std::vector<std::pair<std::string, std::string>> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.emplace_back(normalizePath(it->path().filename().string()), it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Case-insensitive resolution of a relative Windows path under root; empty when absent.
static std::string resolveOnDisk(const fs::path& root, const std::string& rel) {
    fs::path cur = root;
    std::stringstream ss(normalizePath(rel));
    std::string part;
    while (std::getline(ss, part, '/')) {
        if (part.empty() || part == ".") continue;
        if (part == "..") return {};
        std::string found;
        for (const auto& [key, real] : listDir(cur))
            if (key == part) {
                found = real;
                break;
            }
        if (found.empty()) return {};
        cur /= found;
    }
    return cur.string();
}

Detected detectGame(const std::string& dir) {
    Detected d;
    const auto names = listDir(dir);
    auto has = [&](const char* upper) {
        return std::any_of(names.begin(), names.end(), [&](const auto& n) { return n.first == upper; });
    };
    auto hasSuffix = [&](const char* suffix) {
        const std::string s(suffix);
        return std::any_of(names.begin(), names.end(), [&](const auto& n) {
            return n.first.size() >= s.size() && n.first.compare(n.first.size() - s.size(), s.size(), s) == 0;
        });
    };
    const bool megaFiles = !resolveOnDisk(dir, "Data/MegaFiles.xml").empty();
    const bool dataDir = !resolveOnDisk(dir, "Data").empty() && fs::is_directory(resolveOnDisk(dir, "Data"));
    const bool bigs = hasSuffix(".BIG");
    if (has("SWFOC.EXE"))
        d.game = Game::Foc, d.why = "swfoc.exe";
    else if (has("SWEAW.EXE"))
        d.game = Game::Eaw, d.why = "sweaw.exe";
    else if (has("LOTRBFME2EP1.EXE"))
        d.game = Game::Rotwk, d.why = "lotrbfme2ep1.exe";
    else if (has("LOTRBFME2.EXE"))
        d.game = Game::Bfme2, d.why = "lotrbfme2.exe";
    else if (has("LOTRBFME.EXE"))
        d.game = Game::Bfme, d.why = "lotrbfme.exe";
    else if (hasSuffix("ZH.BIG"))
        d.game = Game::ZeroHour, d.why = "*ZH.big archives";
    else if (has("GENERALS.EXE"))
        d.game = Game::Generals, d.why = "generals.exe";
    else if (const Game cnc3 = recogniseCnc3(dir); cnc3 != Game::Unknown)
        d.game = cnc3, d.why = cnc3 == Game::KanesWrath ? "CNC3EP1.exe, a CNC3EP1_*.SkuDef or RetailExe/*/cnc3ep1.dat"
                                                        : "CNC3.exe, a CNC3_*.SkuDef or RetailExe/*/cnc3game.dat";
    else if (megaFiles && normalizePath(fs::path(dir).filename().string()) == "CORRUPTION")
        d.game = Game::Foc, d.why = "Data/MegaFiles.xml in a folder named corruption";
    else if (megaFiles)
        d.game = Game::Eaw, d.why = "Data/MegaFiles.xml";
    // A SAGE mod's working tree also has a data/ folder (data/ini/...): Data/INI without Data/XML is not Alamo.
    const bool sageIni = !resolveOnDisk(dir, "Data/INI").empty() && resolveOnDisk(dir, "Data/XML").empty();
    d.alamoLayout = d.game == Game::Unknown ? (dataDir && !bigs && !sageIni) : isAlamo(d.game);
    d.mod =
        d.game == Game::Unknown || (!has("SWFOC.EXE") && !has("SWEAW.EXE") && d.why.find(".exe") == std::string::npos &&
                                    d.game != Game::ZeroHour && !megaFiles);
    if (d.game == Game::Unknown)
        d.why = d.alamoLayout ? "Data/ folder without a game executable"
                              : (sageIni ? "Data/INI/ without Data/XML/ (SAGE)"
                                         : "no game executable, MegaFiles.xml or Data/ folder");
    return d;
}

std::vector<std::string> readMegaFilesXml(const std::string& dir, std::vector<std::string>* warnings) {
    std::vector<std::string> out;
    const std::string path = resolveOnDisk(dir, "Data/MegaFiles.xml");
    if (path.empty()) return out;
    std::string xml;
    try { // at most budget::kMaxXmlBytes, as every object XML file
        const std::vector<uint8_t> b = readFile(path, budget::kMaxXmlBytes, "MegaFiles.xml");
        xml.assign(b.begin(), b.end());
    } catch (const ParseError& e) {
        if (warnings) pushWarning(*warnings, e.what());
        return out;
    }
    auto lower = [](std::string s) {
        for (char& c : s)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        return s;
    };
    const std::string lx = lower(xml);
    size_t at = 0;
    while ((at = lx.find("<file>", at)) != std::string::npos) {
        const size_t start = at + 6;
        const size_t end = lx.find("</file>", start);
        if (end == std::string::npos) {
            if (warnings) pushWarning(*warnings, path + ": <File> at offset " + std::to_string(at) + " is not closed");
            break;
        }
        std::string name = xml.substr(start, end - start);
        const auto b = name.find_first_not_of(" \t\r\n"), e = name.find_last_not_of(" \t\r\n");
        if (b != std::string::npos) out.push_back(name.substr(b, e - b + 1));
        at = end + 7;
    }
    return out;
}

void MountTable::add(std::shared_ptr<Source> source, std::string role) {
    if (base_) throw std::logic_error("MountTable::add on an overlay");
    const auto m = uint32_t(mounts_.size());
    for (const std::string& w : source->warnings())
        pushWarning(warnings, w);
    const auto& es = source->entries();
    index_.reserve(index_.size() + es.size());
    for (uint32_t i = 0; i < es.size(); ++i) {
        std::vector<Hit>& hits = index_[es[i].key];
        if (!hits.empty() && hits.back().mount == m) continue; // duplicate within the source: first wins
        hits.push_back({m, i});
    }
    mounts_.push_back({std::move(source), std::move(role)});
    sorted_.clear();
}

std::shared_ptr<const MountTable> MountTable::overlay(std::shared_ptr<Source> own, std::string role,
                                                      std::shared_ptr<const MountTable> base) {
    auto t = std::make_shared<MountTable>();
    t->add(std::move(own), std::move(role));
    if (!base) return t;
    for (const Mount& m : base->mounts()) { // as add() would: the sources' warnings, the mounts in order
        for (const std::string& w : m.source->warnings())
            pushWarning(t->warnings, w);
        t->mounts_.push_back(m);
    }
    size_t shared = 0;
    for (auto& [key, hits] : t->index_)
        if (const std::vector<Hit>* below = base->findAll(key)) {
            ++shared;
            for (Hit h : *below) {
                ++h.mount;
                hits.push_back(h);
            }
        }
    t->baseOnly_ = base->size() - shared;
    t->base_ = std::move(base);
    t->shifted_ = std::make_shared<Shifted>();
    return t;
}

std::vector<std::string> MountTable::list(std::string_view folder) const {
    const std::string prefix = folder.empty() ? std::string() : normalizePath(folder);
    std::vector<std::string> own = listOwn(prefix);
    if (!base_) return own;
    const std::vector<std::string> below = base_->list(prefix);
    std::vector<std::string> out;
    out.reserve(own.size() + below.size());
    std::set_union(own.begin(), own.end(), below.begin(), below.end(), std::back_inserter(out));
    return out;
}

std::vector<std::string> MountTable::listOwn(const std::string& prefix) const {
    std::lock_guard<std::mutex> lock(*sortMutex_); // the sorted keys are built on first use, from any thread
    if (sorted_.size() != index_.size()) {
        sorted_.clear();
        sorted_.reserve(index_.size());
        for (const auto& kv : index_)
            sorted_.push_back(&kv.first);
        std::sort(sorted_.begin(), sorted_.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
    }
    std::vector<std::string> out;
    auto it = std::lower_bound(sorted_.begin(), sorted_.end(), prefix,
                               [](const std::string* k, const std::string& p) { return *k < p; });
    for (; it != sorted_.end() && (*it)->compare(0, prefix.size(), prefix) == 0; ++it)
        if ((*it)->find('/', prefix.size()) == std::string::npos) out.push_back(**it);
    return out;
}

const std::vector<Hit>* MountTable::findAll(std::string_view path) const {
    std::string key = normalizePath(path);
    auto it = index_.find(key);
    if (it != index_.end()) return &it->second;
    if (!base_) return nullptr;
    const std::vector<Hit>* below = base_->findAll(key);
    if (!below) return nullptr;
    std::lock_guard<std::mutex> lock(shifted_->mu);
    auto [at, fresh] = shifted_->hits.try_emplace(std::move(key));
    if (fresh) {
        at->second = *below;
        for (Hit& h : at->second)
            ++h.mount;
    }
    return &at->second;
}

const Hit* MountTable::find(std::string_view path) const {
    const auto* all = findAll(path);
    return all ? &all->front() : nullptr;
}

EntryBytes MountTable::read(std::string_view path) const {
    const Hit* h = find(path);
    if (!h) throw ParseError(std::string(path), {}, 0, "not found in the mounted game and mod folders");
    return read(*h);
}

std::string MountTable::describe(const Hit& h) const {
    const Mount& m = mounts_[h.mount];
    const Entry& e = entry(h);
    if (!e.diskPath.empty()) return e.diskPath;
    return m.source->label() + ":" + e.name;
}

const Entry* MountTable::findDescribed(std::string_view described, const Source** source) const {
    for (const Mount& m : mounts_) {
        const std::string& label = m.source->label();
        const Entry* e = nullptr;
        if (m.source->kind() == "folder") {
            const std::string root = label + "/";
            if (described.size() > root.size() && described.compare(0, root.size(), root) == 0)
                e = m.source->find(described.substr(root.size()));
            if (e && e->diskPath != described) e = nullptr;
        } else if (described.size() > label.size() + 1 && described.compare(0, label.size(), label) == 0 &&
                   described[label.size()] == ':') {
            e = m.source->find(described.substr(label.size() + 1));
        }
        if (e) {
            if (source) *source = m.source.get();
            return e;
        }
    }
    return nullptr;
}

std::string MountTable::keyFor(std::string_view path) const {
    if (const Entry* e = findDescribed(path)) return e->key;
    std::string p(path);
    const size_t slash = p.find_last_of("/\\");
    return normalizePath(slash == std::string::npos ? p : p.substr(slash + 1));
}

void MountTable::forEach(const std::function<void(const std::string&, const std::vector<Hit>&)>& fn) const {
    for (const auto& [k, v] : index_)
        fn(k, v);
    if (!base_) return;
    std::vector<Hit> shifted;
    base_->forEach([&](const std::string& k, const std::vector<Hit>& below) {
        if (index_.count(k)) return;
        shifted = below;
        for (Hit& h : shifted)
            ++h.mount;
        fn(k, shifted);
    });
}

static void mountArchive(MountTable& t, const std::string& path, const std::string& role) {
    try {
        t.add(openArchiveFile(path), role);
    } catch (const ParseError& e) {
        pushWarning(t.warnings, std::string("archive not mounted: ") + e.what());
    }
}

static void mountAlamoLoose(MountTable& t, const std::string& dir, const std::string& who) {
    const std::string data = resolveOnDisk(dir, "Data");
    if (!data.empty()) t.add(std::make_shared<Folder>(dir, fs::path(data).filename().string(), true), who + " loose");
}

// The engine's master MEG of one folder, in load order (a later one replaces an earlier one's entries): the
// archives listed in Data/MegaFiles.xml in file order, then Data/Patch.meg, Data/Patch2.meg and Data/64Patch.meg
// whether listed or not (a listed patch takes its patch slot). Mounted in reverse: the last loaded wins.
static void mountAlamoArchives(MountTable& t, const std::string& dir, const std::string& who) {
    static const char* const kPatches[] = {"Data/Patch.meg", "Data/Patch2.meg", "Data/64Patch.meg"};
    auto isPatch = [](const std::string& rel) {
        const std::string k = normalizePath(rel);
        return std::any_of(std::begin(kPatches), std::end(kPatches),
                           [&](const char* p) { return normalizePath(p) == k; });
    };
    std::vector<std::string> order;
    for (const std::string& m : readMegaFilesXml(dir, &t.warnings)) {
        if (isPatch(m)) continue;
        const std::string p = resolveOnDisk(dir, m);
        if (p.empty())
            pushWarning(t.warnings, dir + ": " + m + " listed in Data/MegaFiles.xml is missing");
        else if (std::find(order.begin(), order.end(), p) == order.end())
            order.push_back(p);
    }
    for (const char* patch : kPatches)
        if (const std::string p = resolveOnDisk(dir, patch); !p.empty()) order.push_back(p);
    for (auto it = order.rbegin(); it != order.rend(); ++it)
        mountArchive(t, *it, who + " archive");
}

// SAGE: the folder's *.big in the order of their lower-cased names, then each sub-folder's (same order, recursively);
// an archive mounted earlier keeps a name (see top of mount.h).
static void mountSageArchives(MountTable& t, const std::string& dir, const std::string& who, int depth) {
    auto lower = [](std::string s) {
        for (char& c : s)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        return s;
    };
    std::vector<std::pair<std::string, std::string>> bigs, subs;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (it->is_regular_file(ec) && normalizePath(it->path().extension().string()) == ".BIG")
            bigs.emplace_back(lower(name), it->path().string());
        else if (it->is_directory(ec) && !it->is_symlink(ec))
            subs.emplace_back(lower(name), it->path().string());
    }
    std::sort(bigs.begin(), bigs.end());
    std::sort(subs.begin(), subs.end());
    for (const auto& b : bigs)
        mountArchive(t, b.second, who + " archive");
    if (depth < 8)
        for (const auto& s : subs)
            mountSageArchives(t, s.second, who, depth + 1);
}

static void mountFolder(MountTable& t, const std::string& dir, bool alamo, const std::string& who) {
    if (alamo) {
        mountAlamoLoose(t, dir, who);
        mountAlamoArchives(t, dir, who);
        return;
    }
    t.add(std::make_shared<Folder>(dir, std::string(), true), who + " loose");
    mountSageArchives(t, dir, who, 0);
}

MountTable mountInstall(const std::vector<std::string>& gameDirs, const std::vector<std::string>& modDirs) {
    MountTable t;
    struct G {
        std::string dir;
        Detected d;
    };
    std::vector<G> games;
    for (const std::string& g : gameDirs)
        games.push_back({g, detectGame(g)});
    std::stable_sort(games.begin(), games.end(),
                     [](const G& a, const G& b) { return rank(a.d.game) < rank(b.d.game); });
    const bool alamoGame = !games.empty() && games.front().d.alamoLayout;
    for (const std::string& m : modDirs) {
        const Detected d = detectGame(m);
        mountFolder(t, m, games.empty() ? d.alamoLayout : alamoGame, "mod");
    }
    if (alamoGame) {
        // The expansion's loose files, every game's archives (the expansion's master MEG over the base game's),
        // then the base game's loose files (see top of mount.h).
        mountAlamoLoose(t, games.front().dir, "game");
        for (const G& g : games)
            mountAlamoArchives(t, g.dir, "game");
        for (size_t i = 1; i < games.size(); ++i)
            mountAlamoLoose(t, games[i].dir, "game");
        return t;
    }
    for (const G& g : games)
        mountFolder(t, g.dir, g.d.alamoLayout, "game");
    return t;
}

MountTable mountSingle(const std::string& path) {
    MountTable t;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        t.add(std::make_shared<Folder>(path), "folder");
    else
        t.add(openArchiveFile(path), "archive");
    return t;
}

bool globMatch(std::string_view pat, std::string_view s) {
    size_t p = 0, i = 0, star = std::string::npos, mark = 0;
    while (i < s.size()) {
        if (p < pat.size() && (pat[p] == '?' || pat[p] == s[i]))
            ++p, ++i;
        else if (p < pat.size() && pat[p] == '*')
            star = p++, mark = i;
        else if (star != std::string::npos)
            p = star + 1, i = ++mark;
        else
            return false;
    }
    while (p < pat.size() && pat[p] == '*')
        ++p;
    return p == pat.size();
}

} // namespace rs::vfs
