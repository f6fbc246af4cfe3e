#include "objects/object_db.h"

#include "common/text_budgets.h"
#include "common/text_util.h"
#include "objects/eaw_xml.h"
#include "objects/sage_ini.h"
#include "vfs/mount.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_set>

namespace rs::objects {

namespace {

std::string upper(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool ieq(const std::string& a, const std::string& b) { return a.size() == b.size() && upper(a) == upper(b); }

bool hasExtension(const std::string& name) {
    const size_t slash = name.find_last_of("/\\");
    const size_t dot = name.rfind('.');
    return dot != std::string::npos && (slash == std::string::npos || dot > slash);
}

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct SageObject {
    ObjectSummary summary;
    IniNode node;
};

} // namespace

struct ObjectDb::Impl {
    // Alamo
    std::vector<XmlObject> xmlObjects;                 // parallel to objects_
    std::unordered_map<std::string, XmlObject> points; // upper-case hardpoint name -> definition (first kept)
    // SAGE
    std::vector<SageObject> sageObjects; // parallel to objects_
    // W3D files by upper-case file name, for names outside ART/W3D/ (built on first use).
    mutable std::once_flag w3dOnce;
    mutable std::unordered_map<std::string, std::string> w3dByName;
    // Particle systems defined in DATA/INI/ files whose name holds PARTICLE (ParticleSystem.ini,
    // FXParticleSystem.ini, ...): upper-case names of `ParticleSystem NAME` / `FXParticleSystem NAME` blocks; the
    // flag says whether any such file was mounted (without one, nothing can be judged). Built on first use.
    mutable std::once_flag particleOnce;
    mutable std::unordered_set<std::string> particleSystems;
    mutable bool particleFiles = false;
    // EaW/FoC: whether any object of XML type Particle is defined (the base game's Particles.xml mounted); without
    // one, references to Particle objects are not judged.
    bool particleObjects = false;
    // Inheritance, resolved once by load() (parallel to objects_): the parent's index (-1: none, or not defined),
    // the number of ancestors, and whether the chain is refused.
    enum class Chain : uint8_t { Ok, Cycle, IntoCycle, TooDeep };
    std::vector<int64_t> parentIndex;
    std::vector<uint32_t> depth;
    std::vector<Chain> chain;
    // The refusal of object o's chain (its Chain is not Ok): names at most a few objects of a long chain.
    static std::string chainRefusal(const ObjectDb& db, size_t o);
};

std::string ObjectDb::Impl::chainRefusal(const ObjectDb& db, size_t o) {
    const Impl& im = *db.impl_;
    const std::string& name = db.objects_[o].name;
    // The chain from o: up to a few names, then "..." and the count of steps walked (bounded).
    std::string s = name;
    size_t steps = 0;
    const size_t bound = 2 * budget::kMaxInheritanceDepth + 8;
    // A cycle is closed when the walk comes back to its first member met (o itself when o is in the cycle).
    int64_t cycleStart = im.chain[o] == Chain::Cycle ? int64_t(o) : -1;
    int64_t p = im.parentIndex[o];
    for (; p >= 0 && steps < bound; p = im.parentIndex[size_t(p)]) {
        ++steps;
        if (steps <= 6) s += " -> " + db.objects_[size_t(p)].name;
        if (im.chain[o] == Chain::TooDeep) {
            if (steps > budget::kMaxInheritanceDepth) {
                s += " -> ... (" + std::to_string(im.depth[o]) + " ancestors)";
                break;
            }
        } else if (p == cycleStart) {
            if (steps > 6) s += " -> ... -> " + db.objects_[size_t(p)].name + " (" + std::to_string(steps) + " steps)";
            break;
        } else if (cycleStart < 0 && im.chain[size_t(p)] == Chain::Cycle) {
            cycleStart = p;
        }
    }
    if (steps >= bound) s += " -> ...";
    if (im.chain[o] == Chain::TooDeep)
        return "object " + name + " refused: it inherits through more than " +
               std::to_string(budget::kMaxInheritanceDepth) + " levels (budget kMaxInheritanceDepth): " + s;
    return "object " + name + " refused: it inherits from itself (" + s + ")";
}

ObjectDb::ObjectDb() : impl_(std::make_unique<Impl>()) {}
ObjectDb::~ObjectDb() = default;

const ObjectSummary* ObjectDb::find(const std::string& name) const {
    const auto it = byName_.find(upper(trim(name)));
    return it == byName_.end() ? nullptr : &objects_[it->second];
}

static std::string w3dScan(const vfs::MountTable& t, const std::string& file) {
    std::string found;
    const std::string suffix = "/" + file;
    t.forEach([&](const std::string& key, const std::vector<vfs::Hit>&) {
        if (!found.empty() || key.size() < suffix.size()) return;
        if (key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0 &&
            key.find("W3D/") != std::string::npos)
            found = key;
    });
    return found;
}

static std::string findModelKeyWith(const vfs::MountTable& t, const std::string& rawName, bool alamo,
                                    const std::unordered_map<std::string, std::string>* w3dIndex) {
    const std::string name = trim(rawName);
    if (name.empty() || upper(name) == "NONE") return {};
    if (alamo) {
        std::string file = baseName(name);
        if (!hasExtension(file)) file += ".ALO";
        for (const std::string& k : {"DATA/ART/MODELS/" + file, vfs::normalizePath(name)})
            if (t.find(k)) return vfs::normalizePath(k);
        return {};
    }
    std::string file = upper(baseName(name));
    if (!hasExtension(file)) file += ".W3D";
    const std::string two = file.substr(0, std::min<size_t>(2, file.size()));
    for (const std::string& k : {"ART/W3D/" + two + "/" + file, "ART/W3D/" + file})
        if (t.find(k)) return k;
    if (w3dIndex) {
        const auto it = w3dIndex->find(file);
        return it == w3dIndex->end() ? std::string() : it->second;
    }
    return w3dScan(t, file);
}

std::string findModelKey(const vfs::MountTable& table, const std::string& name, bool alamo) {
    return findModelKeyWith(table, name, alamo, nullptr);
}

// ---------------------------------------------------------------------------------------------------------------
// Loading

std::shared_ptr<const ObjectDb> ObjectDb::load(const vfs::MountTable& table) {
    std::shared_ptr<ObjectDb> db(new ObjectDb());
    db->table_ = &table;
    auto readEntry = [&](const std::string& key, vfs::EntryBytes& out) -> bool {
        const vfs::Hit* h = table.find(key);
        if (!h) return false;
        try {
            out = table.read(*h);
        } catch (const ParseError& e) {
            db->errors_.push_back(e.what());
            return false;
        }
        db->bytesRead_ += out.span.size;
        db->filesRead_.push_back(key);
        return true;
    };
    auto addObject = [&](ObjectSummary s) -> bool {
        const std::string u = upper(s.name);
        if (s.name.empty()) {
            db->warnings_.add("object without a name skipped", s.pos.str());
            return false;
        }
        if (db->byName_.count(u)) {
            db->warnings_.add("object defined again (the first definition is kept)", s.name + " at " + s.pos.str());
            return false;
        }
        db->byName_[u] = db->objects_.size();
        db->objects_.push_back(std::move(s));
        return true;
    };

    if (table.contains("DATA/XML/GAMEOBJECTFILES.XML")) {
        db->family_ = Family::Alamo;
        auto readIndex = [&](const std::string& indexKey, const std::function<void(XmlFile&)>& each) {
            vfs::EntryBytes eb;
            if (!readEntry(indexKey, eb)) {
                db->filesMissing_.push_back(indexKey);
                return;
            }
            const XmlFile index = parseObjectXml(eb.span, indexKey);
            if (index.failed) db->errors_.push_back(index.error);
            std::set<std::string> seen;
            for (const std::string& f : index.fileEntries) {
                const std::string key = vfs::normalizePath("DATA/XML/" + f);
                if (!seen.insert(key).second) continue;
                vfs::EntryBytes fb;
                if (!readEntry(key, fb)) {
                    if (!table.contains(key)) db->filesMissing_.push_back(key);
                    continue;
                }
                XmlFile x;
                try {
                    x = parseObjectXml(fb.span, key);
                } catch (const ParseError& e) {
                    db->errors_.push_back(e.what());
                    continue;
                }
                if (x.failed) db->errors_.push_back(x.error);
                for (const std::string& e : x.refused) // budget refusals (the file's fault, when one, is above)
                    if (e != x.error) db->errors_.push_back(e);
                each(x);
            }
        };
        readIndex("DATA/XML/GAMEOBJECTFILES.XML", [&](XmlFile& x) {
            for (XmlObject& o : x.objects) {
                ObjectSummary s;
                s.name = o.name;
                s.type = o.type;
                s.pos = o.pos;
                if (const XmlField* v = o.last("VARIANT_OF_EXISTING_TYPE")) s.parent = v->value;
                if (const XmlField* v = o.last("AFFILIATION")) s.side = v->value;
                const bool particle = ieq(o.type, "Particle");
                if (addObject(std::move(s))) {
                    db->impl_->particleObjects = db->impl_->particleObjects || particle;
                    db->impl_->xmlObjects.push_back(std::move(o));
                }
            }
        });
        readIndex("DATA/XML/HARDPOINTDATAFILES.XML", [&](XmlFile& x) {
            for (XmlObject& o : x.objects) {
                const std::string u = upper(o.name);
                if (!db->impl_->points.count(u))
                    db->impl_->points.emplace(u, std::move(o));
                else
                    db->warnings_.add("hardpoint defined again (the first definition is kept)", o.name);
            }
        });
    } else {
        std::vector<std::string> iniKeys;
        table.forEach([&](const std::string& key, const std::vector<vfs::Hit>&) {
            if (key.rfind("DATA/INI/OBJECT/", 0) == 0 && key.size() > 4 && key.compare(key.size() - 4, 4, ".INI") == 0)
                iniKeys.push_back(key);
        });
        if (!iniKeys.empty() || table.contains("DATA/INI/GAMEDATA.INI")) db->family_ = Family::Sage;
        std::sort(iniKeys.begin(), iniKeys.end());
        IniContext ctx;
        ctx.table = &table;
        vfs::EntryBytes gd;
        if (readEntry("DATA/INI/GAMEDATA.INI", gd)) readIniDefines(gd.span, "DATA/INI/GAMEDATA.INI", ctx);
        for (const std::string& key : iniKeys) {
            // Refused by its listed size before it is read (parseIni refuses it again if it grew meanwhile).
            if (const vfs::Hit* h = table.find(key); h && table.entry(*h).size > budget::kMaxIniFileBytes) {
                ctx.error(errorAt(SourcePos{key, 0, 0},
                                  "INI file of " + std::to_string(table.entry(*h).size) + " bytes refused: more than " +
                                      std::to_string(budget::kMaxIniFileBytes) + " (budget kMaxIniFileBytes)"));
                continue;
            }
            vfs::EntryBytes eb;
            if (!readEntry(key, eb)) continue;
            std::vector<IniNode> top = parseIni(eb.span, key, ctx);
            for (IniNode& n : top) {
                if (!(keyIs(n, "Object") || keyIs(n, "ChildObject") || keyIs(n, "ObjectReskin"))) continue;
                SageObject so;
                so.summary.type = n.key;
                so.summary.pos = n.pos;
                if (!n.values.empty()) so.summary.name = n.values[0];
                if (!keyIs(n, "Object") && n.values.size() > 1) so.summary.parent = n.values[1];
                for (const IniNode& c : n.children)
                    if (keyIs(c, "Side") && !c.values.empty()) so.summary.side = c.values[0];
                if (!keyIs(n, "Object") && n.values.size() < 2)
                    ctx.error(errorAt(n.pos, n.key + " " + so.summary.name + " names no parent"));
                so.node = std::move(n);
                if (addObject(so.summary)) db->impl_->sageObjects.push_back(std::move(so));
            }
        }
        for (const std::string& k : ctx.included) {
            if (const vfs::Hit* h = table.find(k)) db->bytesRead_ += table.entry(*h).size;
            db->filesRead_.push_back(k);
        }
        for (std::string& e : ctx.errors)
            db->errors_.push_back(std::move(e));
        for (const std::string& w : ctx.warnings.lines())
            db->warnings_.add(w);
    }

    // Inheritance, resolved once for all objects in linear time: each object's parent (its index), its depth, and
    // whether it is refused: its chain loops (reported once per cycle) or is deeper than kMaxInheritanceDepth
    // (reported at each object one past the budget). assemble() walks the parent indices, at most the budget.
    {
        Impl& im = *db->impl_;
        const size_t n = db->objects_.size();
        im.parentIndex.assign(n, -1);
        im.depth.assign(n, 0);
        im.chain.assign(n, Impl::Chain::Ok);
        for (size_t i = 0; i < n; ++i)
            if (!db->objects_[i].parent.empty())
                if (const ObjectSummary* p = db->find(db->objects_[i].parent))
                    im.parentIndex[i] = int64_t(p - db->objects_.data());
        enum : uint8_t { Unseen, Walking, Done };
        std::vector<uint8_t> state(n, Unseen);
        std::vector<size_t> path;
        for (size_t i = 0; i < n; ++i) {
            if (state[i] != Unseen) continue;
            path.clear();
            size_t cur = i;
            while (state[cur] == Unseen) {
                state[cur] = Walking;
                path.push_back(cur);
                if (im.parentIndex[cur] < 0) break;
                cur = size_t(im.parentIndex[cur]);
            }
            size_t settled = path.size(); // path[settled..] have their depth and state
            if (state[cur] == Walking && !(im.parentIndex[cur] < 0 && cur == path.back())) {
                // A cycle: path[c..] are its members; the objects before them inherit from it.
                const size_t c = size_t(std::find(path.begin(), path.end(), cur) - path.begin());
                for (size_t j = c; j < path.size(); ++j)
                    im.chain[path[j]] = Impl::Chain::Cycle;
                db->errors_.push_back(errorAt(db->objects_[cur].pos, Impl::chainRefusal(*db, cur)).what());
                settled = c;
                for (size_t j = 0; j < c; ++j)
                    im.chain[path[j]] = Impl::Chain::IntoCycle;
            } else if (state[cur] == Walking) {
                settled = path.size() - 1; // a root: depth 0
            } else {
                // Joined an object resolved before: its depth and state carry on.
                im.chain[path.back()] = im.chain[cur] == Impl::Chain::Cycle ? Impl::Chain::IntoCycle : im.chain[cur];
                im.depth[path.back()] = im.depth[cur] + 1;
                settled = path.size() - 1;
            }
            for (size_t j = settled; j-- > 0;) {
                const size_t o = path[j], p = path[j + 1];
                if (im.chain[o] != Impl::Chain::Ok) continue; // cycles were marked above
                im.depth[o] = im.depth[p] + 1;
                im.chain[o] = im.chain[p] == Impl::Chain::Ok        ? Impl::Chain::Ok
                              : im.chain[p] == Impl::Chain::TooDeep ? Impl::Chain::TooDeep
                                                                    : Impl::Chain::IntoCycle;
            }
            for (size_t o : path) {
                state[o] = Done;
                if (im.chain[o] == Impl::Chain::Ok && im.depth[o] > budget::kMaxInheritanceDepth) {
                    im.chain[o] = Impl::Chain::TooDeep;
                    if (im.depth[o] == budget::kMaxInheritanceDepth + 1) // once per chain, where it passes
                        db->errors_.push_back(errorAt(db->objects_[o].pos, Impl::chainRefusal(*db, o)).what());
                }
            }
        }
    }
    return db;
}

// ---------------------------------------------------------------------------------------------------------------
// Assembly

namespace {

// A non-negative count ("10"), 0 when the token is not one.
int parseCount(const std::string& t) {
    if (t.empty() || t.size() > 9) return 0;
    int n = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return 0;
        n = n * 10 + (c - '0');
    }
    return n;
}

// A finite number (the whole token), else nullopt.
std::optional<float> parseNumber(const std::string& t) {
    if (t.empty() || t.size() > 32) return std::nullopt;
    char* end = nullptr;
    const float v = std::strtof(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// `RankInfo = RankNumber:1 UnitType:NAME Position:X:40 Y:0 [Leader 1 0] Position:X:40 Y:15 ...` (tokens split at
// whitespace; "Position:" may stand alone before its X:). Unknown tokens are skipped; at most 256 positions.
Rank parseRankInfo(const IniNode& n) {
    Rank r;
    r.pos = n.pos;
    std::optional<float> x;
    const std::vector<std::string>& v = n.values;
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string u = upper(v[i]);
        auto after = [&](size_t len) {
            if (u.size() > len) return v[i].substr(len);
            return i + 1 < v.size() ? v[++i] : std::string();
        };
        if (u.rfind("RANKNUMBER:", 0) == 0) {
            r.number = parseCount(after(11));
        } else if (u.rfind("UNITTYPE:", 0) == 0) {
            r.unitType = after(9);
        } else if (u.rfind("POSITION:", 0) == 0) {
            x.reset();
            if (u.size() > 9) {
                const std::string rest = u.substr(9);
                if (rest.rfind("X:", 0) == 0) x = parseNumber(rest.substr(2));
            }
        } else if (u.rfind("X:", 0) == 0) {
            x = parseNumber(u.substr(2));
        } else if (u.rfind("Y:", 0) == 0 && x) {
            if (const auto y = parseNumber(u.substr(2)); y && r.positions.size() < 256)
                r.positions.emplace_back(*x, *y);
            x.reset();
        }
    }
    return r;
}

struct Assembler {
    const vfs::MountTable& t;
    const ModelProbe& probe;
    const std::unordered_map<std::string, std::string>* w3d;
    AssembledObject& out;
    bool alamo;

    std::string modelKey(const std::string& name) const { return findModelKeyWith(t, name, alamo, w3d); }

    Ref& ref(std::string kind, std::string name, std::string where, const SourcePos& pos) {
        Ref r;
        r.kind = std::move(kind);
        r.name = std::move(name);
        r.where = std::move(where);
        r.pos = pos;
        out.refs.push_back(std::move(r));
        return out.refs.back();
    }

    // A model reference (or, kind "particle-system", a particle .ALO), looked up as models are: resolved key (""
    // when absent).
    std::string model(const std::string& name, const std::string& where, const SourcePos& pos,
                      const char* kind = "model") {
        Ref& r = ref(kind, name, where, pos);
        r.key = modelKey(name);
        r.found = !r.key.empty();
        return r.key;
    }

    ModelFacts facts(const std::string& key) {
        if (key.empty() || !probe) return {};
        return probe(key);
    }

    void bone(const std::string& name, const std::string& what, const std::string& modelName, const std::string& key,
              const SourcePos& pos, bool meshToo = false) {
        if (trim(name).empty()) return;
        Ref& r = ref("bone", trim(name), what + " in " + modelName, pos);
        const ModelFacts f = facts(key);
        if (!f.loaded) {
            r.where += key.empty() ? " (model not found)" : " (model not loaded: " + f.error + ")";
            return;
        }
        r.key = key;
        r.found = f.hasBone(r.name) || (meshToo && f.hasSubObject(r.name));
    }
};

// Effective tags of an XML object after Variant_Of_Existing_Type: the ancestors' tags, each replaced as a whole by
// a descendant that writes it. Order: first appearance.
std::vector<const XmlField*> effectiveFields(const std::vector<const XmlObject*>& chainRootFirst) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const XmlField*>> byTag;
    for (const XmlObject* o : chainRootFirst) {
        std::map<std::string, std::vector<const XmlField*>> own;
        for (const XmlField& f : o->fields)
            own[f.upper].push_back(&f);
        for (auto& [tag, list] : own) {
            if (!byTag.count(tag)) order.push_back(tag);
            byTag[tag] = list;
        }
    }
    std::vector<const XmlField*> out;
    for (const std::string& tag : order)
        for (const XmlField* f : byTag[tag])
            out.push_back(f);
    return out;
}

const XmlField* lastOf(const std::vector<const XmlField*>& fields, const char* upperTag) {
    const XmlField* r = nullptr;
    for (const XmlField* f : fields)
        if (f->upper == upperTag) r = f;
    return r;
}

bool isModelTag(const std::string& u) {
    auto ends = [&](const char* s) {
        const size_t n = std::char_traits<char>::length(s);
        return u.size() >= n && u.compare(u.size() - n, n, s) == 0;
    };
    return ends("MODEL_NAME") || u == "LAND_MODEL_ANIM_OVERRIDE_NAME" || u == "DAMAGED_SMOKE_ASSET_NAME";
}

// Tags whose value is a particle .ALO file, looked up as models are (ModVerify GameObjectTypeVerifier.Models:
// Damaged_Smoke_Asset_Name; the value is the file name, extension optional).
bool isParticleFileTag(const std::string& u) { return u == "DAMAGED_SMOKE_ASSET_NAME"; }

// Tags whose value names a game object of XML type Particle (Data/XML/Particles.xml), whose Space_Model_Name /
// Land_Model_Name is the particle .ALO: hardpoints and units (Death_Explosion_Particles), asteroid fields, shields,
// abilities (Owner_Particle_Effect) and projectiles (the EaW XML type documentation lists the Projectile_*_Particle
// tags as references).
bool isParticleObjectTag(const std::string& u) {
    static const char* const kTags[] = {"DEATH_EXPLOSION_PARTICLES",
                                        "ASTEROID_DAMAGE_HIT_PARTICLES",
                                        "BASE_SHIELD_PENETRATION_PARTICLE",
                                        "OWNER_PARTICLE_EFFECT",
                                        "PROJECTILE_OBJECT_DETONATION_PARTICLE",
                                        "PROJECTILE_OBJECT_ARMOR_REDUCED_DETONATION_PARTICLE",
                                        "PROJECTILE_ABSORBED_BY_SHIELDS_PARTICLE",
                                        "PROJECTILE_LIFETIME_DETONATION_PARTICLE",
                                        "PROJECTILE_GROUND_DETONATION_PARTICLE"};
    for (const char* t : kTags)
        if (u == t) return true;
    return false;
}

} // namespace

AssembledObject ObjectDb::assemble(const std::string& name, const ModelProbe& probe) const {
    const ObjectSummary* s = find(name);
    if (!s) throw ParseError(name, "", ParseError::kNoOffset, "no object of that name");
    const size_t index = size_t(s - objects_.data());
    AssembledObject out;
    out.family = family_ == Family::Alamo ? "alamo" : "sage";
    out.name = s->name;
    out.type = s->type;
    out.pos = s->pos;

    // Parent chain (nearest first), as load() resolved it: a cycle or a chain deeper than the budget is refused.
    if (impl_->chain[index] != Impl::Chain::Ok) throw errorAt(s->pos, Impl::chainRefusal(*this, index));
    std::vector<size_t> chain{index};
    for (size_t cur = index; !objects_[cur].parent.empty();) {
        const int64_t pi = impl_->parentIndex[cur];
        if (pi < 0) {
            Ref r;
            r.kind = "object";
            r.name = objects_[cur].parent;
            r.where = (family_ == Family::Alamo ? "Variant_Of_Existing_Type of " : "parent of ") + objects_[cur].name;
            r.pos = objects_[cur].pos;
            out.refs.push_back(r);
            break;
        }
        chain.push_back(size_t(pi));
        out.inheritance.push_back(objects_[size_t(pi)].name);
        cur = size_t(pi);
    }

    std::call_once(impl_->w3dOnce, [&] {
        if (family_ != Family::Sage) return;
        table_->forEach([&](const std::string& key, const std::vector<vfs::Hit>&) {
            if (key.size() > 4 && key.compare(key.size() - 4, 4, ".W3D") == 0 && key.find("W3D/") != std::string::npos)
                impl_->w3dByName.emplace(key.substr(key.rfind('/') + 1), key);
        });
    });
    std::call_once(impl_->particleOnce, [&] {
        if (family_ != Family::Sage) return;
        table_->forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
            if (key.rfind("DATA/INI/", 0) != 0 || key.find("PARTICLE") == std::string::npos || hits.empty() ||
                key.size() < 4 || key.compare(key.size() - 4, 4, ".INI") != 0)
                return;
            if (table_->entry(hits.front()).size > budget::kMaxIniFileBytes) return; // as parseIni refuses it
            vfs::EntryBytes b;
            try {
                b = table_->read(hits.front());
            } catch (const std::exception&) {
                return; // an unreadable file defines nothing; the INI reader reports it where it is included
            }
            impl_->particleFiles = true;
            const char* p = reinterpret_cast<const char*>(b.span.data);
            const char* end = p + b.span.size;
            while (p < end) {
                const char* eol = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
                if (!eol) eol = end;
                const char* q = p;
                while (q < eol && (*q == ' ' || *q == '\t'))
                    ++q;
                const char* w = q;
                while (w < eol && !std::isspace(static_cast<unsigned char>(*w)))
                    ++w;
                const std::string word = upper(std::string(q, w));
                if (word == "PARTICLESYSTEM" || word == "FXPARTICLESYSTEM") {
                    while (w < eol && (*w == ' ' || *w == '\t'))
                        ++w;
                    const char* n = w;
                    while (n < eol && !std::isspace(static_cast<unsigned char>(*n)) && *n != ';')
                        ++n;
                    if (n > w) impl_->particleSystems.insert(upper(std::string(w, n)));
                }
                p = eol + 1;
            }
        });
    });
    Assembler a{*table_, probe, &impl_->w3dByName, out, family_ == Family::Alamo};

    if (family_ == Family::Alamo) {
        std::vector<const XmlObject*> rootFirst;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            rootFirst.push_back(&impl_->xmlObjects[*it]);
        const std::vector<const XmlField*> fields = effectiveFields(rootFirst);

        // Models by tag; the hull (the tactical model the hardpoints hang on) is the first of these present.
        std::string hullName, hullKey;
        for (const char* tag :
             {"SPACE_MODEL_NAME", "LAND_MODEL_NAME", "MODEL_NAME", "TACTICAL_MODEL_NAME", "GALACTIC_MODEL_NAME"})
            if (const XmlField* f = lastOf(fields, tag); f && !f->value.empty() && hullName.empty())
                hullName = f->value;
        // A Particle object's model tags name its particle .ALO.
        const bool particleObject = ieq(s->type, "Particle");
        auto modelKind = [&](const std::string& upperTag) {
            return particleObject || isParticleFileTag(upperTag) ? "particle-system" : "model";
        };
        // A reference to a Particle object: found when the object exists; not judged when the mount defines no
        // Particle object (a mod checked without its game).
        auto particleRef = [&](const XmlField& f, const std::string& where) {
            const std::string name = trim(f.value);
            if (name.empty() || upper(name) == "NONE") return;
            Ref& r = a.ref("particle-system", name, where + ", a Particle object", f.pos);
            r.found = find(name) != nullptr;
            if (!r.found && !impl_->particleObjects) {
                r.optional = true;
                r.where += "; not judged: no Particle object is defined in the mount";
            }
        };
        // A list value's items, at most kMaxListItems (a longer list is refused by name where it is written).
        auto listOf = [&](const XmlField& f) {
            bool cut = false;
            std::vector<std::string> items = splitList(f.value, budget::kMaxListItems, &cut);
            if (cut)
                out.warnings.push_back(errorAt(f.pos, "<" + f.tag + "> lists more than " +
                                                          std::to_string(budget::kMaxListItems) +
                                                          " names (budget kMaxListItems): the rest are not read")
                                           .what());
            return items;
        };
        for (const XmlField* f : fields) {
            if (isParticleObjectTag(f->upper)) {
                particleRef(*f, f->tag);
            } else if (isModelTag(f->upper) && !f->value.empty()) {
                Part p;
                p.role = f->tag;
                p.model = f->value;
                p.key = a.model(f->value, f->tag, f->pos, modelKind(f->upper));
                p.found = !p.key.empty();
                if (p.found) p.clips = a.facts(p.key).clips;
                if (f->value == hullName && hullKey.empty()) hullKey = p.key;
                out.parts.push_back(std::move(p));
            } else if (f->upper == "LAND_TERRAIN_MODEL_MAPPING") {
                const std::vector<std::string> items = listOf(*f);
                for (size_t i = 0; i + 1 < items.size(); i += 2) {
                    out.terrainModels.emplace_back(items[i], items[i + 1]);
                    Part p;
                    p.role = "terrain " + items[i];
                    p.model = items[i + 1];
                    p.key = a.model(items[i + 1], f->tag + " " + items[i], f->pos);
                    p.found = !p.key.empty();
                    if (p.found) p.clips = a.facts(p.key).clips;
                    out.parts.push_back(std::move(p));
                }
            } else if (f->upper == "SQUADRON_UNITS" || f->upper == "COMPANY_UNITS") {
                // A squadron or company: the units it is made of (its own model tags, if any, are a marker).
                for (const std::string& n : splitList(f->value)) {
                    auto it = std::find_if(out.members.begin(), out.members.end(),
                                           [&](const Member& m) { return ieq(m.object, n); });
                    if (it == out.members.end()) {
                        Member m;
                        m.object = n;
                        m.where = f->tag;
                        m.found = find(n) != nullptr;
                        m.pos = f->pos;
                        out.members.push_back(std::move(m));
                        it = out.members.end() - 1;
                    }
                    ++it->count;
                }
            } else if (f->upper == "DEATH_CLONE") {
                const std::vector<std::string> items = listOf(*f);
                for (size_t i = 0; i + 1 < items.size(); i += 2) {
                    out.deathClones.emplace_back(items[i], items[i + 1]);
                    Ref& r = a.ref("object", items[i + 1], "Death_Clone " + items[i], f->pos);
                    r.found = find(items[i + 1]) != nullptr;
                }
            }
        }

        // Model tags inside nested blocks (abilities: Flame_Emitter_Model_Name, ...).
        for (const XmlObject* level : rootFirst)
            for (const XmlField& f : level->nested)
                if (isParticleObjectTag(f.upper)) {
                    particleRef(f, f.tag + " (nested)");
                } else if (isModelTag(f.upper) && !f.value.empty()) {
                    Part p;
                    p.role = f.tag;
                    p.model = f.value;
                    p.key = a.model(f.value, f.tag + " (nested)", f.pos, modelKind(f.upper));
                    p.found = !p.key.empty();
                    out.parts.push_back(std::move(p));
                }

        // Hardpoints: every <HardPoints> occurrence (any case), names in order, each once.
        std::vector<std::pair<std::string, SourcePos>> names;
        std::unordered_set<std::string> namesSeen; // upper case
        size_t dups = 0;
        for (const XmlField* f : fields)
            if (f->upper == "HARDPOINTS")
                for (const std::string& n : listOf(*f)) {
                    if (namesSeen.insert(upper(n)).second)
                        names.emplace_back(n, f->pos);
                    else if (++dups <= 16) // the first ones are named
                        out.warnings.push_back("hardpoint " + n + " listed more than once (" + f->pos.str() + ")");
                }
        for (const auto& [hpName, hpPos] : names) {
            Hardpoint hp;
            hp.name = hpName;
            hp.pos = hpPos;
            const auto it = impl_->points.find(upper(hpName));
            Ref& r = a.ref("hardpoint", hpName, "HardPoints", hpPos);
            if (it == impl_->points.end()) {
                out.hardpoints.push_back(std::move(hp));
                continue;
            }
            r.found = true;
            // Hardpoints may be variants too.
            std::vector<const XmlObject*> hpChain{&it->second};
            for (const XmlObject* cur = &it->second; hpChain.size() < 16;) {
                const XmlField* v = cur->last("VARIANT_OF_EXISTING_TYPE");
                if (!v || v->value.empty()) break;
                const auto pit = impl_->points.find(upper(v->value));
                if (pit == impl_->points.end() ||
                    std::find(hpChain.begin(), hpChain.end(), &pit->second) != hpChain.end())
                    break;
                hpChain.push_back(&pit->second);
                cur = &pit->second;
            }
            std::reverse(hpChain.begin(), hpChain.end());
            const std::vector<const XmlField*> hf = effectiveFields(hpChain);
            auto val = [&](const char* tag) {
                const XmlField* f = lastOf(hf, tag);
                return f ? f->value : std::string();
            };
            hp.defined = true;
            hp.pos = it->second.pos;
            hp.type = val("TYPE");
            hp.model = val("MODEL_TO_ATTACH");
            hp.attachmentBone = val("ATTACHMENT_BONE");
            hp.collisionMesh = val("COLLISION_MESH");
            hp.damageParticles = val("DAMAGE_PARTICLES");
            hp.damageDecal = val("DAMAGE_DECAL");
            for (const char* t : {"FIRE_BONE_A", "FIRE_BONE_B"})
                if (!val(t).empty()) hp.fireBones.push_back(val(t));
            const std::string where = "hardpoint " + hpName;
            a.bone(hp.attachmentBone, where + " Attachment_Bone", hullName, hullKey, hp.pos);
            a.bone(hp.collisionMesh, where + " Collision_Mesh", hullName, hullKey, hp.pos, true);
            a.bone(hp.damageParticles, where + " Damage_Particles", hullName, hullKey, hp.pos);
            a.bone(hp.damageDecal, where + " Damage_Decal", hullName, hullKey, hp.pos, true); // a mesh
            std::string fireModel = hullName, fireKey = hullKey;
            if (!hp.model.empty()) {
                Part p;
                p.role = where;
                p.model = hp.model;
                p.key = a.model(hp.model, where + " Model_To_Attach", hp.pos);
                p.found = !p.key.empty();
                if (p.found) p.clips = a.facts(p.key).clips;
                p.attachTo = hullName;
                p.bone = hp.attachmentBone;
                p.boneFound = !hp.attachmentBone.empty() && a.facts(hullKey).hasBone(hp.attachmentBone);
                fireModel = hp.model;
                fireKey = p.key;
                out.parts.push_back(std::move(p));
            }
            for (const std::string& fb : hp.fireBones)
                a.bone(fb, where + " Fire_Bone", fireModel, fireKey, hp.pos);
            for (const XmlField* f : hf)
                if (isParticleObjectTag(f->upper)) particleRef(*f, where + " " + f->tag);
            out.hardpoints.push_back(std::move(hp));
        }
        return out;
    }

    // SAGE: modules of the root, then each descendant's (same tag: replaced).
    std::vector<const IniNode*> modules;
    auto isModule = [](const IniNode& n) {
        return n.block && (keyIs(n, "Draw") || keyIs(n, "Body") || keyIs(n, "Behavior") || keyIs(n, "ClientUpdate") ||
                           keyIs(n, "ClientBehavior"));
    };
    auto tagOf = [](const IniNode& n) { return n.values.size() > 1 ? upper(n.values[1]) : std::string(); };
    auto put = [&](const IniNode& m) {
        const std::string tag = tagOf(m);
        for (const IniNode*& e : modules)
            if (!tag.empty() && tagOf(*e) == tag) {
                e = &m;
                return;
            }
        modules.push_back(&m);
    };
    std::vector<const IniNode*> otherKeys; // object-level statements, root first (descendants later)
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const IniNode& obj = impl_->sageObjects[*it].node;
        for (const IniNode& c : obj.children) {
            if (isModule(c)) {
                put(c);
            } else if ((keyIs(c, "ReplaceModule") || keyIs(c, "AddModule")) && c.block) {
                const std::string tag = c.values.empty() ? std::string() : upper(c.values[0]);
                for (const IniNode& m : c.children)
                    if (isModule(m)) {
                        bool replaced = false;
                        for (const IniNode*& e : modules)
                            if (keyIs(c, "ReplaceModule") && tagOf(*e) == tag) e = &m, replaced = true;
                        if (!replaced) put(m);
                    }
            } else if (keyIs(c, "RemoveModule") && !c.values.empty()) {
                const std::string tag = upper(c.values[0]);
                modules.erase(
                    std::remove_if(modules.begin(), modules.end(), [&](const IniNode* e) { return tagOf(*e) == tag; }),
                    modules.end());
            } else {
                otherKeys.push_back(&c);
            }
        }
    }

    std::set<std::string> modelsChecked;
    std::vector<std::string> allModelKeys;
    for (int pass = 0; pass < 2; ++pass) // draws first: upgrades look for sub-objects in their models
        for (const IniNode* m : modules) {
            if (pass == 0 && keyIs(*m, "Draw")) {
                DrawModule d = readDrawModule(*m);
                std::string defaultModel;
                for (const DrawState& st : d.states)
                    if (st.kind == DrawState::Kind::Default) defaultModel = st.model;
                for (DrawState& st : d.states) {
                    std::string flags;
                    for (const auto& set : st.flagSets) {
                        std::string one;
                        for (const std::string& f : set)
                            one += (one.empty() ? "" : " ") + f;
                        flags += (flags.empty() ? "" : " | ") + (one.empty() ? std::string("(none)") : one);
                    }
                    const std::string where = d.tag + " " + drawStateKindName(st.kind) + " state" +
                                              (st.stateName.empty() ? "" : " " + st.stateName) +
                                              (flags.empty() ? "" : " " + flags);
                    std::string stKey;
                    if (!st.model.empty() && upper(st.model) != "NONE") {
                        Part p;
                        p.role = where;
                        p.model = st.model;
                        p.key = a.modelKey(st.model);
                        p.found = !p.key.empty();
                        stKey = p.key;
                        if (modelsChecked.insert(upper(st.model)).second) {
                            Ref& r = a.ref("model", st.model, where, st.pos);
                            r.key = p.key;
                            r.found = p.found;
                            if (p.found) allModelKeys.push_back(p.key);
                            if (d.staticModelLod)
                                for (const char* lod : {"M", "L"}) {
                                    Ref& l =
                                        a.ref("lod-model", st.model + lod, where + " (StaticModelLODMode)", st.pos);
                                    l.key = a.modelKey(st.model + lod);
                                    l.found = !l.key.empty();
                                    l.optional = true;
                                }
                        }
                        out.parts.push_back(std::move(p));
                    }
                    for (AnimationRef& an : st.animations) {
                        an.clipKey = a.modelKey(an.clip);
                        Ref& r = a.ref("clip", an.name, where, an.pos);
                        r.key = an.clipKey;
                        r.found = !an.clipKey.empty();
                    }
                    // Sub-objects are looked for in the state's model, else the module's default model.
                    const std::string subModel = stKey.empty() ? defaultModel : st.model;
                    const std::string subKey = stKey.empty() ? a.modelKey(defaultModel) : stKey;
                    // ParticleSysBone = BONE SYSTEM [FollowBone:Yes]: the bone in the state's model (NONE: at the
                    // object's origin) and the particle system by name.
                    for (size_t i = 0; i < st.particleSysBones.size(); ++i) {
                        std::istringstream words(st.particleSysBones[i]);
                        std::string boneName, system;
                        words >> boneName >> system;
                        const SourcePos& pp = i < st.particleSysBonePos.size() ? st.particleSysBonePos[i] : st.pos;
                        if (!boneName.empty() && upper(boneName) != "NONE")
                            a.bone(boneName, where + " ParticleSysBone", subModel, subKey, pp);
                        if (system.empty()) continue;
                        Ref& r = a.ref("particle-system", system, where + " ParticleSysBone", pp);
                        if (!impl_->particleFiles) {
                            r.optional = true; // no definition file mounted: cannot be judged
                            r.where += " (no particle system file mounted)";
                            continue;
                        }
                        r.found = impl_->particleSystems.count(upper(system)) > 0;
                    }
                    for (const auto* list : {&st.hidden, &st.shown})
                        for (const std::string& so : *list) {
                            Ref& r = a.ref("sub-object", so, where + " in " + subModel, st.pos);
                            const ModelFacts f = a.facts(subKey);
                            if (!f.loaded) {
                                r.where +=
                                    subKey.empty() ? " (model not found)" : " (model not loaded: " + f.error + ")";
                                continue;
                            }
                            r.key = subKey;
                            r.found = f.hasSubObject(trim(so));
                        }
                }
                out.draws.push_back(std::move(d));
            } else if (pass == 1 && keyIs(*m, "Behavior") && !m->values.empty()) {
                if (ieq(m->values[0], "SubObjectsUpgrade")) {
                    for (const IniNode& c : m->children) {
                        if (keyIs(c, "HideSubObjects") || keyIs(c, "ShowSubObjects")) {
                            auto& list = keyIs(c, "HideSubObjects") ? out.upgradeHidden : out.upgradeShown;
                            for (const std::string& v : c.values) {
                                if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
                                Ref& r = a.ref("sub-object", v, "SubObjectsUpgrade " + c.key, c.pos);
                                for (const std::string& k : allModelKeys)
                                    if (a.facts(k).hasSubObject(v)) {
                                        r.found = true;
                                        r.key = k;
                                        break;
                                    }
                                if (!r.found && allModelKeys.empty() && !modelsChecked.empty())
                                    r.where += " (model not found)"; // none of the object's models resolved
                            }
                        } else if (keyIs(c, "UpgradeTexture") && c.values.size() >= 3) {
                            out.upgradeTextures.emplace_back(c.values[0], c.values[2]);
                        }
                    }
                } else if (upper(m->values[0]).find("HORDECONTAIN") != std::string::npos) {
                    // HordeContain, HorseHordeContain, ...: the members and their ranks.
                    const std::string where = m->values[0] + " InitialPayload";
                    for (const IniNode& c : m->children)
                        if (keyIs(c, "InitialPayload") && !c.values.empty()) {
                            Ref& r = a.ref("object", c.values[0], where, c.pos);
                            r.found = find(c.values[0]) != nullptr;
                            Member mb;
                            mb.object = c.values[0];
                            mb.where = where;
                            mb.found = r.found;
                            mb.pos = c.pos;
                            if (c.values.size() > 1) mb.count = parseCount(c.values[1]);
                            out.members.push_back(std::move(mb));
                        } else if (keyIs(c, "RankInfo") && out.ranks.size() < 64) {
                            out.ranks.push_back(parseRankInfo(c));
                        }
                }
            }
        }
    (void)otherKeys;
    return out;
}

} // namespace rs::objects
