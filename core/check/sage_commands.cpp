#include "check/sage_commands.h"

#include "common/error.h"
#include "common/text_budgets.h"
#include "objects/sage_ini.h"
#include "resolve/lookup_rules.h"
#include "vfs/mount.h"

#include <cctype>
#include <map>

namespace rs::check {

namespace {

constexpr const char* kSrc = "EA's Generals/Zero Hour source: ControlBar's CommandSet/CommandButton tables "
                             "(findCommandButton, findCommandSet), ImageCollection (MappedImage; ThingTemplate's "
                             "SelectPortrait and ButtonImage are mapped image names), ThingFactory (Object); unknown "
                             "names are left empty in game";

std::string upper(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

struct Use {
    std::string name; // the name used
    objects::SourcePos pos;
    std::string owner; // the block using it ("CommandSet X")
};

} // namespace

const std::vector<CheckInfo>& sageCommandChecks() {
    static const std::vector<CheckInfo> rows = {
        {"ini.commandbutton-missing", Level::Warning, "a command set slot naming a command button no INI defines",
         kSrc},
        {"ini.commandset-missing", Level::Warning,
         "an object's CommandSet (its own or one a module of it switches to) that no INI defines", kSrc},
        {"ini.button-object-missing", Level::Warning, "a command button's Object that no INI defines", kSrc},
        {"ini.mappedimage-missing", Level::Warning,
         "a mapped image no MappedImage defines: a command button's ButtonImage, an object's SelectPortrait or "
         "ButtonImage",
         kSrc},
        {"ini.mappedimage-texture-missing", Level::Warning, "a MappedImage's Texture file that does not resolve", kSrc},
    };
    return rows;
}

void checkSageCommands(const vfs::MountTable& t, std::vector<Finding>& out, std::vector<std::string>& referenced) {
    std::vector<std::string> keys;
    t.forEach([&](const std::string& key, const std::vector<vfs::Hit>&) {
        if (key.rfind("DATA/INI/", 0) == 0 && key.size() > 4 && key.compare(key.size() - 4, 4, ".INI") == 0)
            keys.push_back(key);
    });
    std::sort(keys.begin(), keys.end());
    std::map<std::string, objects::SourcePos> sets, buttons, images, objectsDefined;
    std::vector<Use> buttonUses, setUses, objectUses, imageUses, textureUses;
    objects::IniContext ctx;
    ctx.table = &t;
    if (const vfs::Hit* gd = t.find("DATA/INI/GAMEDATA.INI")) {
        try {
            const vfs::EntryBytes b = t.read(*gd);
            objects::readIniDefines(b.span, "DATA/INI/GAMEDATA.INI", ctx);
        } catch (const ParseError&) {
        }
    }
    for (const std::string& key : keys) {
        const vfs::Hit* h = t.find(key);
        if (!h || t.entry(*h).size > budget::kMaxIniFileBytes) continue; // refused by the objects pass, named there
        vfs::EntryBytes b;
        try {
            b = t.read(*h);
        } catch (const ParseError&) {
            continue; // an unreadable file is the read pass's finding
        }
        for (const objects::IniNode& n : objects::parseIni(b.span, key, ctx)) {
            const std::string name = n.values.empty() ? std::string() : n.values[0];
            if (name.empty()) continue;
            if (objects::keyIs(n, "CommandSet")) {
                sets.emplace(upper(name), n.pos);
                for (const objects::IniNode& c : n.children) // "1 = Command_X"
                    if (!c.key.empty() && std::isdigit(static_cast<unsigned char>(c.key[0])) && !c.values.empty())
                        buttonUses.push_back({c.values[0], c.pos, "CommandSet " + name});
            } else if (objects::keyIs(n, "CommandButton")) {
                buttons.emplace(upper(name), n.pos);
                for (const objects::IniNode& c : n.children) {
                    if (c.values.empty()) continue;
                    if (objects::keyIs(c, "Object"))
                        objectUses.push_back({c.values[0], c.pos, "CommandButton " + name});
                    if (objects::keyIs(c, "ButtonImage"))
                        imageUses.push_back({c.values[0], c.pos, "CommandButton " + name});
                }
            } else if (objects::keyIs(n, "MappedImage")) {
                images.emplace(upper(name), n.pos);
                for (const objects::IniNode& c : n.children)
                    if (objects::keyIs(c, "Texture") && !c.values.empty())
                        textureUses.push_back({c.values[0], c.pos, "MappedImage " + name});
            } else if (objects::keyIs(n, "Object") || objects::keyIs(n, "ChildObject") ||
                       objects::keyIs(n, "ObjectReskin")) {
                objectsDefined.emplace(upper(name), n.pos);
                for (const objects::IniNode& c : n.children) {
                    if (c.values.empty()) continue;
                    // ThingTemplate's SelectPortrait and ButtonImage: mapped image names (the control bar's
                    // portrait and build button), looked up in the MappedImage collection.
                    if (objects::keyIs(c, "SelectPortrait") || objects::keyIs(c, "ButtonImage"))
                        imageUses.push_back({c.values[0], c.pos, n.key + " " + name});
                }
                // CommandSet: the object's own, and those its modules switch to (CommandSetUpgrade, BFME's level
                // and weapon-set swaps), at any depth of the block.
                std::vector<const objects::IniNode*> stack;
                for (const objects::IniNode& c : n.children)
                    stack.push_back(&c);
                while (!stack.empty()) {
                    const objects::IniNode* c = stack.back();
                    stack.pop_back();
                    if (objects::keyIs(*c, "CommandSet") && !c->values.empty())
                        setUses.push_back({c->values[0], c->pos, n.key + " " + name});
                    for (const objects::IniNode& cc : c->children)
                        stack.push_back(&cc);
                }
            }
        }
    }
    auto report = [&](const char* id, const Use& u, const std::string& what) {
        Finding f;
        f.id = id;
        for (const CheckInfo& r : sageCommandChecks())
            if (f.id == r.id) f.level = r.level;
        f.key = u.pos.file;
        const vfs::Hit* h = t.find(u.pos.file);
        f.file = h ? t.describe(*h) : u.pos.file;
        f.where.line = u.pos.line;
        f.where.column = u.pos.column;
        f.where.object = u.owner.substr(u.owner.find(' ') + 1);
        f.subject = u.name;
        f.message = u.owner + ": " + what;
        out.push_back(std::move(f));
    };
    bool gameMounted = false;
    for (const vfs::Mount& m : t.mounts())
        gameMounted |= m.role.rfind("game", 0) == 0 || m.role.rfind("mod", 0) != 0;
    auto judge = [&](const char* id, const std::vector<Use>& uses,
                     const std::map<std::string, objects::SourcePos>& defs, const char* kind) {
        // None of this kind mounted: with a game mounted, not judged (a partial game); a mod without its game: each
        // use is reported, and check::checkMount turns them into one ref.base-game note (left to the base game).
        if (defs.empty() && gameMounted) return;
        for (const Use& u : uses)
            if (!defs.count(upper(u.name)) && upper(u.name) != "NONE")
                report(id, u, std::string(kind) + " " + u.name + " is not defined by any INI file");
    };
    judge("ini.commandbutton-missing", buttonUses, buttons, "command button");
    judge("ini.commandset-missing", setUses, sets, "command set");
    judge("ini.button-object-missing", objectUses, objectsDefined, "object");
    judge("ini.mappedimage-missing", imageUses, images, "mapped image");
    // Mapped images' texture files: as the game looks up textures (Art/Textures, the art roots' too).
    for (const Use& u : textureUses) {
        const vfs::Hit* hit = resolve::findTexture(t, u.name, "ART/W3D/" + upper(u.name.substr(0, 2)) + "/X.W3D");
        if (hit) {
            referenced.push_back(t.describe(*hit));
            continue;
        }
        report("ini.mappedimage-texture-missing", u, "texture " + u.name + " does not resolve");
    }
}

} // namespace rs::check
