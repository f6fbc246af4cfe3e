#include "common/game.h"

#include <cctype>
#include <filesystem>

namespace rs {

const char* gameId(Game g) {
    switch (g) {
    case Game::Unknown:
        return "";
    case Game::Eaw:
        return "eaw";
    case Game::Foc:
        return "foc";
    case Game::Generals:
        return "generals";
    case Game::ZeroHour:
        return "zh";
    case Game::Bfme:
        return "bfme";
    case Game::Bfme2:
        return "bfme2";
    case Game::Rotwk:
        return "rotwk";
    case Game::Cnc3:
        return "cnc3";
    case Game::KanesWrath:
        return "kw";
    case Game::Bw2:
        return "bw2";
    }
    return "";
}

const char* gameName(Game g) {
    switch (g) {
    case Game::Unknown:
        return "unknown game";
    case Game::Eaw:
        return "Star Wars: Empire at War";
    case Game::Foc:
        return "Star Wars: Empire at War - Forces of Corruption";
    case Game::Generals:
        return "Command & Conquer: Generals";
    case Game::ZeroHour:
        return "Command & Conquer: Generals - Zero Hour";
    case Game::Bfme:
        return "The Battle for Middle-earth";
    case Game::Bfme2:
        return "The Battle for Middle-earth II";
    case Game::Rotwk:
        return "The Battle for Middle-earth II: The Rise of the Witch-king";
    case Game::Cnc3:
        return "Command & Conquer 3: Tiberium Wars";
    case Game::KanesWrath:
        return "Command & Conquer 3: Kane's Wrath";
    case Game::Bw2:
        return "Black & White 2";
    }
    return "unknown game";
}

bool parseGameId(const std::string& id, Game& out) {
    std::string l = id;
    for (char& c : l)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (l.empty()) return false;
    for (Game g : {Game::Eaw, Game::Foc, Game::Generals, Game::ZeroHour, Game::Bfme, Game::Bfme2, Game::Rotwk,
                   Game::Cnc3, Game::KanesWrath, Game::Bw2})
        if (l == gameId(g)) {
            out = g;
            return true;
        }
    return false;
}

bool isAlamo(Game g) { return g == Game::Eaw || g == Game::Foc; }

namespace {

std::string lowerName(const std::filesystem::path& p) {
    std::string s = p.filename().string();
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool endsWith(const std::string& s, const char* suffix) {
    const std::string x(suffix);
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

} // namespace

Game recogniseCnc3(const std::string& dir) {
    namespace fs = std::filesystem;
    bool kw = false, cnc3 = false;
    std::error_code ec;
    size_t n = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && n < kMaxCnc3Entries; it.increment(ec), ++n) {
        const std::string name = lowerName(it->path());
        if (name == "cnc3ep1.exe" || (name.rfind("cnc3ep1_", 0) == 0 && endsWith(name, ".skudef")))
            kw = true;
        else if (name == "cnc3.exe" || (name.rfind("cnc3_", 0) == 0 && endsWith(name, ".skudef")))
            cnc3 = true;
        else if (name == "retailexe") {
            // RetailExe/<version>/<game>.dat
            std::error_code de;
            if (!it->is_directory(de)) continue;
            size_t m = 0;
            for (fs::directory_iterator v(it->path(), de), vend; !de && v != vend && m < kMaxCnc3Entries;
                 v.increment(ec), ++m) {
                std::error_code e2;
                if (!v->is_directory(e2)) continue;
                size_t k = 0;
                for (fs::directory_iterator f(v->path(), e2), fend; !e2 && f != fend && k < kMaxCnc3Entries;
                     f.increment(e2), ++k) {
                    const std::string file = lowerName(f->path());
                    kw = kw || file == "cnc3ep1.dat";
                    cnc3 = cnc3 || file == "cnc3game.dat";
                }
            }
        }
    }
    return kw ? Game::KanesWrath : cnc3 ? Game::Cnc3 : Game::Unknown;
}

} // namespace rs
