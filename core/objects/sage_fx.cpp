#include "objects/sage_fx.h"

#include "common/text_budgets.h"
#include "vfs/mount.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>

namespace rs::objects {

namespace {

std::string upperOf(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool ieq(const std::string& a, const char* b) { return upperOf(a) == upperOf(b); }

struct Reader {
    SageFxLibrary& lib;
    ParticleSystem& sys;
    ParticleEmitter& em;
    SageEmitterParams& s;
    std::set<std::string> noted;

    void refuse(const IniNode& n, const std::string& why) {
        lib.errors.push_back(errorAt(n.pos, "field " + n.key + " of " + sys.name + ": " + why).what());
    }
    void notSimulated(const std::string& what) {
        if (noted.insert(what).second) {
            em.notSimulated.push_back(what);
            sys.warnings.push_back(notSimulatedWarning(0, em, what));
        }
    }
    void unknown(const IniNode& n, const std::string& module) {
        ParticleUnknown u;
        u.chunk = 0;
        u.offset = uint64_t(std::max(0, n.pos.line));
        std::string text = n.key + (n.equals ? " =" : "");
        for (const std::string& v : n.values)
            text += " " + v;
        u.bytes.assign(text.begin(), text.end());
        em.unknown.push_back(std::move(u));
        sys.warnings.push_back("emitter 0 \"" + em.name + "\": field " + (module.empty() ? "" : module + ".") + n.key +
                               " at " + n.pos.str() + " not understood");
    }

    // Values after '='.
    bool need(const IniNode& n, size_t count) {
        if (n.values.size() >= count) return true;
        refuse(n, "needs " + std::to_string(count) + " value(s), has " + std::to_string(n.values.size()));
        return false;
    }
    static bool number(const std::string& t, float& out) {
        if (t.empty() || t.size() > 64) return false;
        char* end = nullptr;
        const float v = std::strtof(t.c_str(), &end);
        if (end != t.c_str() + t.size() || !std::isfinite(v)) return false;
        out = v;
        return true;
    }
    bool real(const IniNode& n, size_t i, float& out) {
        if (!need(n, i + 1)) return false;
        float v;
        if (!number(n.values[i], v)) {
            refuse(n, "\"" + n.values[i] + "\" is not a number");
            return false;
        }
        out = v;
        return true;
    }
    bool frames(const IniNode& n, size_t i, uint32_t& out) {
        float v;
        if (!real(n, i, v)) return false;
        if (v < 0.0f || v > 4.0e9f || v != std::floor(v)) {
            refuse(n, "\"" + n.values[i] + "\" is not a frame count (a whole number 0..4e9)");
            return false;
        }
        out = uint32_t(v);
        return true;
    }
    void range(const IniNode& n, SageRange& r) {
        float lo, hi;
        if (!real(n, 0, lo) || !real(n, 1, hi)) return;
        r = {lo, hi};
        if (n.values.size() >= 3) {
            const std::string d = upperOf(n.values[2]);
            if (d != "UNIFORM" && d != "CONSTANT")
                notSimulated(n.key + " distribution " + n.values[2] + " (sampled uniformly)");
        }
    }
    void boolean(const IniNode& n, bool& out) {
        if (!need(n, 1)) return;
        const std::string v = upperOf(n.values[0]);
        if (v == "YES" || v == "TRUE" || v == "1")
            out = true;
        else if (v == "NO" || v == "FALSE" || v == "0")
            out = false;
        else
            refuse(n, "\"" + n.values[0] + "\" is not Yes or No");
    }
    // "X:1 Y:2 Z:3" (also "X: 1", split by the tokenizer).
    void coord(const IniNode& n, glm::vec3& out) {
        std::string joined;
        for (const std::string& v : n.values)
            joined += v + " ";
        glm::vec3 c(0.0f);
        bool seen[3] = {false, false, false};
        size_t i = 0;
        while (i < joined.size()) {
            while (i < joined.size() && joined[i] == ' ')
                ++i;
            if (i >= joined.size()) break;
            const char axis = char(std::toupper(static_cast<unsigned char>(joined[i])));
            const int k = axis == 'X' ? 0 : axis == 'Y' ? 1 : axis == 'Z' ? 2 : -1;
            if (k < 0 || i + 1 >= joined.size() || joined[i + 1] != ':') {
                refuse(n, "\"" + joined.substr(0, joined.size() - 1) + "\" is not a coordinate X:x Y:y Z:z");
                return;
            }
            i += 2;
            while (i < joined.size() && joined[i] == ' ')
                ++i;
            const size_t b = i;
            while (i < joined.size() && joined[i] != ' ')
                ++i;
            float v;
            std::string text = joined.substr(b, i - b);
            if (text.size() > 1 && text.back() == ':') {
                // "Y:15:" (Zero Hour's FXList.ini): the engine's sscanf reads the number and stops at the colon.
                text.pop_back();
                sys.warnings.push_back(n.pos.str() + ": " + n.key + ": stray ':' after " + text + " ignored");
            }
            if (!number(text, v)) {
                refuse(n, "\"" + text + "\" is not a number");
                return;
            }
            c[k] = v;
            seen[k] = true;
        }
        if (!seen[0] || !seen[1] || !seen[2]) {
            refuse(n, "a coordinate needs X:, Y: and Z:");
            return;
        }
        out = c;
    }
    // "R:255 G:128 B:0 FRAME"
    void colorKey(const IniNode& n, SageEmitterParams::ColorKey& key) {
        glm::vec3 c(0.0f);
        bool seen[3] = {false, false, false};
        uint32_t frame = 0;
        bool haveFrame = false;
        for (const std::string& v : n.values) {
            const char ch = v.empty() ? 0 : char(std::toupper(static_cast<unsigned char>(v[0])));
            const int k = ch == 'R' ? 0 : ch == 'G' ? 1 : ch == 'B' ? 2 : -1;
            float f;
            if (k >= 0 && v.size() > 2 && v[1] == ':') {
                if (!number(v.substr(2), f) || f < 0.0f || f > 255.0f) {
                    refuse(n, "\"" + v + "\" is not a colour component 0..255");
                    return;
                }
                c[k] = f / 255.0f;
                seen[k] = true;
            } else if (number(v, f) && !haveFrame) {
                if (f < 0.0f || f > 4.0e9f || f != std::floor(f)) {
                    refuse(n, "\"" + v + "\" is not a frame");
                    return;
                }
                frame = uint32_t(f);
                haveFrame = true;
            } else {
                refuse(n, "\"" + v + "\" is not R:r G:g B:b FRAME");
                return;
            }
        }
        if (!seen[0] || !seen[1] || !seen[2]) {
            refuse(n, "a colour key needs R:, G: and B:");
            return;
        }
        key.rgb = c;
        key.frame = frame;
    }
    void alphaKey(const IniNode& n, SageEmitterParams::AlphaKey& key) {
        float lo, hi;
        uint32_t f = 0;
        if (!real(n, 0, lo) || !real(n, 1, hi)) return;
        if (n.values.size() >= 3 && !frames(n, 2, f)) return;
        key.value = {lo, hi};
        key.frame = f;
    }
    template <class E> void pick(const IniNode& n, std::initializer_list<std::pair<const char*, E>> names, E& out) {
        if (!need(n, 1)) return;
        for (const auto& p : names)
            if (ieq(n.values[0], p.first)) {
                out = p.second;
                return;
            }
        refuse(n, "\"" + n.values[0] + "\" is not one of the names this field takes");
    }
    static int keyIndex(const std::string& key, const char* prefix) {
        const size_t l = std::strlen(prefix);
        if (key.size() != l + 1 || upperOf(key.substr(0, l)) != prefix) return -1;
        const char d = key[l];
        return d >= '1' && d <= '8' ? d - '1' : -1;
    }

    // A field of the classic flat template or of a BFME II module; false when not known.
    bool field(const IniNode& n, const std::string& module) {
        using Sh = SageEmitterParams::Shader;
        using Ty = SageEmitterParams::Type;
        using Ve = SageEmitterParams::Velocity;
        using Vo = SageEmitterParams::Volume;
        using Wi = SageEmitterParams::Wind;
        const std::string k = upperOf(n.key);
        const std::string m = upperOf(module);
        if (int i = keyIndex(k, "ALPHA"); i >= 0) return alphaKey(n, s.alpha[size_t(i)]), true;
        if (int i = keyIndex(k, "COLOR"); i >= 0) return colorKey(n, s.color[size_t(i)]), true;
        if (k == "PRIORITY") return s.priority = n.values.empty() ? "" : n.values[0], true;
        if (k == "ISONESHOT") return boolean(n, s.oneShot), true;
        if (k == "SHADER" && n.values.size() == 1 &&
            (ieq(n.values[0], "W3D_ALPHA") || ieq(n.values[0], "W3D_EMISSIVE") || ieq(n.values[0], "W3D_DIFFUSE"))) {
            // BFME II's shaders of models drawn as particles (Draw = RenderObjectDraw): blended as their nearest.
            s.shader = ieq(n.values[0], "W3D_EMISSIVE") ? Sh::Additive : Sh::Alpha;
            notSimulated("Shader " + n.values[0] + " (drawn " + (s.shader == Sh::Additive ? "additive" : "alpha") +
                         ")");
            return true;
        }
        if (k == "TYPE" && n.values.size() == 1 && ieq(n.values[0], "GPU_PARTICLE")) {
            s.type = Ty::Particle; // BFME II: the same particles, updated on the GPU
            return true;
        }
        if (k == "SHADER")
            return pick<Sh>(n,
                            {{"NONE", Sh::None},
                             {"ADDITIVE", Sh::Additive},
                             {"ALPHA", Sh::Alpha},
                             {"ALPHA_TEST", Sh::AlphaTest},
                             {"MULTIPLY", Sh::Multiply}},
                            s.shader),
                   true;
        if (k == "TYPE")
            return pick<Ty>(n,
                            {{"PARTICLE", Ty::Particle},
                             {"DRAWABLE", Ty::Drawable},
                             {"STREAK", Ty::Streak},
                             {"VOLUME_PARTICLE", Ty::Volume},
                             {"VOLUME", Ty::Volume},
                             {"SMUDGE", Ty::Unknown},
                             {"GPU_TERRAINFIRE", Ty::Unknown}},
                            s.type),
                   true;
        if (k == "PARTICLENAME") return s.particleName = n.values.empty() ? "" : n.values[0], true;
        if (k == "ANGLEZ") return range(n, s.angleZ), true;
        if (k == "ANGULARRATEZ") return range(n, s.angularRateZ), true;
        if (k == "ANGULARDAMPING") return range(n, s.angularDamping), true;
        if (k == "VELOCITYDAMPING") return range(n, s.velocityDamping), true;
        if (k == "GRAVITY") return real(n, 0, s.gravity), true;
        if (k == "SLAVESYSTEM") return s.slaveSystem = n.values.empty() ? "" : n.values[0], true;
        if (k == "SLAVEPOSOFFSET") return coord(n, s.slavePosOffset), true;
        if (k == "PERPARTICLEATTACHEDSYSTEM") {
            s.attachedSystem = n.values.empty() ? "" : n.values[0];
            if (!s.attachedSystem.empty()) notSimulated("PerParticleAttachedSystem " + s.attachedSystem);
            return true;
        }
        if (k == "LIFETIME") return range(n, s.lifetime), true;
        if (k == "SYSTEMLIFETIME") return frames(n, 0, s.systemLifetime), true;
        if (k == "SIZE") return range(n, s.size), true;
        if (k == "STARTSIZERATE") return range(n, s.startSizeRate), true;
        if (k == "SIZERATE") return range(n, s.sizeRate), true;
        if (k == "SIZERATEDAMPING") return range(n, s.sizeRateDamping), true;
        if (k == "COLORSCALE") return range(n, s.colorScale), true;
        if (k == "BURSTDELAY") return range(n, s.burstDelay), true;
        if (k == "BURSTCOUNT") return range(n, s.burstCount), true;
        if (k == "INITIALDELAY") return range(n, s.initialDelay), true;
        if (k == "DRIFTVELOCITY") return coord(n, s.drift), true;
        if (k == "VELOCITYTYPE")
            return pick<Ve>(n,
                            {{"NONE", Ve::None},
                             {"ORTHO", Ve::Ortho},
                             {"SPHERICAL", Ve::Spherical},
                             {"HEMISPHERICAL", Ve::Hemispherical},
                             {"CYLINDRICAL", Ve::Cylindrical},
                             {"OUTWARD", Ve::Outward}},
                            s.velocityType),
                   true;
        if (k == "VELORTHOX") return range(n, s.velOrtho[0]), true;
        if (k == "VELORTHOY") return range(n, s.velOrtho[1]), true;
        if (k == "VELORTHOZ") return range(n, s.velOrtho[2]), true;
        if (k == "VELSPHERICAL") return range(n, s.velSpherical), true;
        if (k == "VELHEMISPHERICAL") return range(n, s.velHemispherical), true;
        if (k == "VELCYLINDRICALRADIAL") return range(n, s.velCylRadial), true;
        if (k == "VELCYLINDRICALNORMAL") return range(n, s.velCylNormal), true;
        if (k == "VELOUTWARD") return range(n, s.velOutward), true;
        if (k == "VELOUTWARDOTHER") return range(n, s.velOutwardOther), true;
        if (k == "VOLUMETYPE")
            return pick<Vo>(n,
                            {{"NONE", Vo::Point},
                             {"POINT", Vo::Point},
                             {"LINE", Vo::Line},
                             {"BOX", Vo::Box},
                             {"SPHERE", Vo::Sphere},
                             {"CYLINDER", Vo::Cylinder}},
                            s.volumeType),
                   true;
        if (k == "VOLLINESTART") return coord(n, s.lineStart), true;
        if (k == "VOLLINEEND") return coord(n, s.lineEnd), true;
        if (k == "VOLBOXHALFSIZE") return coord(n, s.boxHalfSize), true;
        if (k == "VOLSPHERERADIUS") return real(n, 0, s.sphereRadius), true;
        if (k == "VOLCYLINDERRADIUS") return real(n, 0, s.cylinderRadius), true;
        if (k == "VOLCYLINDERLENGTH") return real(n, 0, s.cylinderLength), true;
        if (k == "ISHOLLOW") return boolean(n, s.hollow), true;
        if (k == "ISGROUNDALIGNED") return boolean(n, s.groundAligned), true;
        if (k == "ISEMITABOVEGROUNDONLY") {
            boolean(n, s.emitAboveGroundOnly);
            if (s.emitAboveGroundOnly) notSimulated("IsEmitAboveGroundOnly (no terrain)");
            return true;
        }
        if (k == "ISPARTICLEUPTOWARDSEMITTER") {
            boolean(n, s.upTowardsEmitter);
            if (s.upTowardsEmitter) notSimulated("IsParticleUpTowardsEmitter");
            return true;
        }
        if (k == "WINDMOTION")
            return pick<Wi>(n, {{"Unused", Wi::Unused}, {"PingPong", Wi::PingPong}, {"Circular", Wi::Circular}},
                            s.wind),
                   true;
        if (k == "WINDANGLECHANGEMIN") return real(n, 0, s.windAngleChangeMin), true;
        if (k == "WINDANGLECHANGEMAX") return real(n, 0, s.windAngleChangeMax), true;
        if (k == "WINDPINGPONGSTARTANGLEMIN") return real(n, 0, s.windStartAngleMin), true;
        if (k == "WINDPINGPONGSTARTANGLEMAX") return real(n, 0, s.windStartAngleMax), true;
        if (k == "WINDPINGPONGENDANGLEMIN") return real(n, 0, s.windEndAngleMin), true;
        if (k == "WINDPINGPONGENDANGLEMAX") return real(n, 0, s.windEndAngleMax), true;
        if (k == "WINDSTRENGTH") return real(n, 0, s.windStrength), true;
        if (k == "WINDFULLSTRENGTHDIST") return real(n, 0, s.windFullDistance), true;
        if (k == "WINDZEROSTRENGTHDIST") return real(n, 0, s.windZeroDistance), true;
        // BFME II module fields (their meaning depends on the module).
        if (m == "ORTHOEMISSIONVELOCITY" && (k == "X" || k == "Y" || k == "Z"))
            return range(n, s.velOrtho[k == "X" ? 0 : k == "Y" ? 1 : 2]), true;
        if (m == "SPHERICALEMISSIONVELOCITY" && k == "SPEED") return range(n, s.velSpherical), true;
        if (m == "HEMISPHERICALEMISSIONVELOCITY" && k == "SPEED") return range(n, s.velHemispherical), true;
        if (m == "CYLINDRICALEMISSIONVELOCITY" && k == "RADIAL") return range(n, s.velCylRadial), true;
        if (m == "CYLINDRICALEMISSIONVELOCITY" && k == "NORMAL") return range(n, s.velCylNormal), true;
        if (m == "OUTWARDEMISSIONVELOCITY" && k == "SPEED") return range(n, s.velOutward), true;
        if (m == "OUTWARDEMISSIONVELOCITY" && k == "OTHERSPEED") return range(n, s.velOutwardOther), true;
        if (m == "LINEEMISSIONVOLUME" && k == "STARTPOINT") return coord(n, s.lineStart), true;
        if (m == "LINEEMISSIONVOLUME" && k == "ENDPOINT") return coord(n, s.lineEnd), true;
        if (m == "BOXEMISSIONVOLUME" && k == "HALFSIZE") return coord(n, s.boxHalfSize), true;
        if (m == "SPHEREEMISSIONVOLUME" && k == "RADIUS") return real(n, 0, s.sphereRadius), true;
        if (m == "CYLINDEREMISSIONVOLUME" && k == "RADIUS") return real(n, 0, s.cylinderRadius), true;
        if (m == "CYLINDEREMISSIONVOLUME" && k == "LENGTH") return real(n, 0, s.cylinderLength), true;
        // Known, read by the games, not followed by this simulation.
        static const char* const kKnownIgnored[] = {"SORTLEVEL",
                                                    "ANGLEXY",
                                                    "ANGULARRATEXY",
                                                    "ANGULARDAMPINGXY",
                                                    "OFFSET",
                                                    "ROTATION",
                                                    "HEIGHTOFFSET",
                                                    "TURBULENCEFREQUENCY",
                                                    "TURBULENCEAMPLITUDE",
                                                    "STARTSIZEX",
                                                    "STARTSIZEY",
                                                    "STARTSIZEZ",
                                                    "SIZERATEX",
                                                    "SIZERATEY",
                                                    "SIZERATEZ",
                                                    "SIZEDAMPINGX",
                                                    "SIZEDAMPINGY",
                                                    "SIZEDAMPINGZ",
                                                    "RADIUSRATE",
                                                    "USEMINERALS",
                                                    "PERPARTICLE",
                                                    "KILLAFTEREVENT",
                                                    "EVENTFX",
                                                    "ORIENTFXTOTERRAIN",
                                                    "TOTALFRAMES",
                                                    "FRAMESPERROW",
                                                    "SPEEDMULTIPLIER",
                                                    "LIFETIMEMULTIPLIER",
                                                    "ISPARTICLEDRAWN",
                                                    "CLOUDCOUNT"};
        for (const char* known : kKnownIgnored)
            if (k == known) {
                notSimulated((module.empty() ? "" : module + ".") + n.key);
                return true;
            }
        return false;
    }

    void statements(const std::vector<IniNode>& nodes, const std::string& module) {
        for (const IniNode& n : nodes) {
            if (n.block) {
                // A BFME II module: `Physics = DefaultPhysics`; its type picks the meaning of its fields.
                const std::string type = n.values.empty() ? n.key : n.values[0];
                const std::string kt = upperOf(n.key), ut = upperOf(type);
                using Ve = SageEmitterParams::Velocity;
                using Vo = SageEmitterParams::Volume;
                if (kt == "EMISSIONVELOCITY") {
                    if (ut == "ORTHOEMISSIONVELOCITY")
                        s.velocityType = Ve::Ortho;
                    else if (ut == "SPHERICALEMISSIONVELOCITY")
                        s.velocityType = Ve::Spherical;
                    else if (ut == "HEMISPHERICALEMISSIONVELOCITY")
                        s.velocityType = Ve::Hemispherical;
                    else if (ut == "CYLINDRICALEMISSIONVELOCITY")
                        s.velocityType = Ve::Cylindrical;
                    else if (ut == "OUTWARDEMISSIONVELOCITY")
                        s.velocityType = Ve::Outward;
                    else
                        notSimulated("EmissionVelocity " + type);
                } else if (kt == "EMISSIONVOLUME") {
                    if (ut == "POINTEMISSIONVOLUME")
                        s.volumeType = Vo::Point;
                    else if (ut == "LINEEMISSIONVOLUME")
                        s.volumeType = Vo::Line;
                    else if (ut == "BOXEMISSIONVOLUME")
                        s.volumeType = Vo::Box;
                    else if (ut == "SPHEREEMISSIONVOLUME")
                        s.volumeType = Vo::Sphere;
                    else if (ut == "CYLINDEREMISSIONVOLUME")
                        s.volumeType = Vo::Cylinder;
                    else
                        notSimulated("EmissionVolume " + type + " (emitted from a point)");
                } else if (kt == "DRAW") {
                    if (ut == "STREAKDRAW")
                        s.type = SageEmitterParams::Type::Streak;
                    else if (ut != "DEFAULTDRAW")
                        notSimulated("Draw " + type + " (drawn as quads)");
                } else if (kt == "UPDATE" && ut != "DEFAULTUPDATE") {
                    notSimulated("Update " + type);
                } else if (kt == "EVENT") {
                    notSimulated("Event " + type);
                    continue;
                } else if (kt == "WIND" && s.wind == SageEmitterParams::Wind::Unused) {
                    // DefaultWind without WindMotion: its fields below may set it.
                }
                statements(n.children, type);
                continue;
            }
            if (!field(n, module)) unknown(n, module);
        }
    }
};

// What the renderer reads of an emitter (ParticleEmitter's Alamo-shaped fields), from the SAGE template.
void fillRenderFields(ParticleEmitter& e) {
    const SageEmitterParams& s = *e.sage;
    using Sh = SageEmitterParams::Shader;
    e.colorTexture = s.particleName;
    switch (s.shader) {
    case Sh::Additive:
        e.blend = ParticleBlend::Additive;
        break;
    case Sh::Alpha:
    case Sh::AlphaTest:
        e.blend = ParticleBlend::Alpha;
        break;
    case Sh::Multiply:
        e.blend = ParticleBlend::Modulate;
        break;
    default:
        e.blend = ParticleBlend::Unknown;
        break;
    }
    if (s.type == SageEmitterParams::Type::Drawable) {
        e.blend = ParticleBlend::Unknown; // not drawn: each particle is an object (notDrawn names it)
        e.notSimulated.push_back("Type DRAWABLE: each particle is the object " + s.particleName + " (not drawn)");
    } else if (s.type == SageEmitterParams::Type::Streak) {
        e.notSimulated.push_back("Type STREAK: drawn as quads, not as the engine's ribbon through the particles");
    } else if (s.type == SageEmitterParams::Type::Volume) {
        e.notSimulated.push_back("Type VOLUME_PARTICLE: drawn as one quad, not the engine's stacked layers");
    }
    if (s.type == SageEmitterParams::Type::Unknown) e.notSimulated.push_back("particle Type not known: drawn as quads");
    if (s.shader == Sh::None) e.notSimulated.push_back("Shader NONE: the engine removes its particles at once");
    ParticleEmitterParams& p = e.params;
    p.textureFrames = 1;
    p.worldOriented = s.groundAligned;
    // Alamo-shaped schedule for the preview's loop length (particle_preview.h); the simulation reads `sage`.
    const double fps = kSageFramesPerSecond;
    p.lifetime = float(std::max(s.lifetime.lo, s.lifetime.hi) / fps);
    p.initialDelay = float(std::max(s.initialDelay.lo, s.initialDelay.hi) / fps);
    p.useBursts = true;
    const double period = (std::max(0.0f, std::max(s.burstDelay.lo, s.burstDelay.hi)) + 1.0) / fps;
    p.burstDelay = float(period);
    p.particlesPerBurst = uint32_t(std::clamp(std::max(s.burstCount.lo, s.burstCount.hi), 0.0f, 1.0e6f));
    p.burstCount = s.systemLifetime ? int32_t(std::min(1.0e6, std::ceil(s.systemLifetime / fps / period))) : -1;
}

} // namespace

void SageFxLibrary::read(const std::vector<IniNode>& nodes) {
    for (const IniNode& n : nodes) {
        if (!n.block) continue;
        const bool classic = ieq(n.key, "ParticleSystem"), fx = ieq(n.key, "FXParticleSystem");
        if (classic || fx) {
            if (n.values.empty()) {
                errors.push_back(errorAt(n.pos, n.key + " without a name").what());
                continue;
            }
            ParticleSystem sys;
            sys.format = Format::Unknown;
            sys.name = n.values[0];
            sys.sourcePath = n.pos.str();
            sys.emitters.emplace_back();
            ParticleEmitter& em = sys.emitters.back();
            em.name = sys.name;
            em.sage.emplace();
            Reader r{*this, sys, em, *em.sage, {}};
            if (classic) em.sage->shader = SageEmitterParams::Shader::None; // the flat template's default index 0
            r.statements(n.children, "");
            fillRenderFields(em);
            const std::string key = upperOf(sys.name);
            if (templates_.count(key))
                warnings.push_back(n.pos.str() + ": " + n.key + " " + sys.name + " defined again");
            templates_[key] = std::move(sys);
            built_.erase(key);
            continue;
        }
        if (ieq(n.key, "FXList")) {
            if (n.values.empty()) {
                errors.push_back(errorAt(n.pos, "FXList without a name").what());
                continue;
            }
            FxList list;
            list.name = n.values[0];
            list.pos = n.pos;
            for (const IniNode& c : n.children) {
                if (!c.block) continue;
                FxNugget g;
                g.kind = c.key;
                g.pos = c.pos;
                if (ieq(c.key, "ParticleSystem")) {
                    for (const IniNode& f : c.children) {
                        if (ieq(f.key, "Name") && !f.values.empty()) g.system = f.values[0];
                        if (ieq(f.key, "CreateBoneOverride") && !f.values.empty()) g.createBone = f.values[0];
                        if (ieq(f.key, "AttachToObject") && !f.values.empty())
                            g.attachToObject = ieq(f.values[0], "Yes");
                        if (ieq(f.key, "Offset")) {
                            ParticleSystem dummy;
                            dummy.name = list.name;
                            dummy.emitters.emplace_back();
                            dummy.emitters.back().sage.emplace();
                            Reader r{*this, dummy, dummy.emitters.back(), *dummy.emitters.back().sage, {}};
                            r.coord(f, g.offset);
                            warnings.insert(warnings.end(), dummy.warnings.begin(), dummy.warnings.end());
                        }
                    }
                    if (g.system.empty())
                        errors.push_back(errorAt(c.pos, "ParticleSystem nugget without a Name").what());
                }
                list.nuggets.push_back(std::move(g));
            }
            const std::string key = upperOf(list.name);
            if (lists_.count(key)) warnings.push_back(n.pos.str() + ": FXList " + list.name + " defined again");
            lists_[key] = std::move(list);
        }
    }
}

void SageFxLibrary::readFile(ByteSpan bytes, const std::string& key, const vfs::MountTable* table) {
    IniContext ctx;
    ctx.table = table;
    const std::vector<IniNode> nodes = parseIni(bytes, key, ctx);
    errors.insert(errors.end(), ctx.errors.begin(), ctx.errors.end());
    read(nodes);
}

std::shared_ptr<const ParticleSystem> SageFxLibrary::find(const std::string& name) const {
    const std::string key = upperOf(name);
    if (auto it = built_.find(key); it != built_.end()) return it->second;
    const auto t = templates_.find(key);
    if (t == templates_.end()) return nullptr;
    auto sys = std::make_shared<ParticleSystem>(t->second);
    const std::string& slave = t->second.emitters[0].sage->slaveSystem;
    if (!slave.empty() && !ieq(slave, "NONE")) {
        const auto st = templates_.find(upperOf(slave));
        if (st == templates_.end()) {
            sys->warnings.push_back("SlaveSystem " + slave + " is not defined");
        } else {
            ParticleEmitter e = st->second.emitters[0];
            e.sage->slaveOf = 0;
            if (!e.sage->slaveSystem.empty() && !ieq(e.sage->slaveSystem, "NONE"))
                e.notSimulated.push_back("SlaveSystem " + e.sage->slaveSystem +
                                         " of a slave (the engine never bursts it)");
            sys->emitters.push_back(std::move(e));
        }
    }
    built_[key] = sys;
    return sys;
}

const FxList* SageFxLibrary::fxList(const std::string& name) const {
    const auto it = lists_.find(upperOf(name));
    return it == lists_.end() ? nullptr : &it->second;
}

std::vector<std::string> SageFxLibrary::systemNames() const {
    std::vector<std::string> out;
    for (const auto& t : templates_)
        out.push_back(t.second.name);
    return out;
}

std::shared_ptr<const SageFxLibrary> loadSageFx(const vfs::MountTable& table) {
    auto lib = std::make_shared<SageFxLibrary>();
    std::vector<std::pair<std::string, vfs::Hit>> files;
    table.forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
        if (hits.empty() || key.rfind("DATA/INI/", 0) != 0 || key.size() < 4 ||
            key.compare(key.size() - 4, 4, ".INI") != 0)
            return;
        const std::string name = key.substr(key.rfind('/') + 1);
        if (name.find("PARTICLE") == std::string::npos && name.find("FXLIST") == std::string::npos) return;
        files.emplace_back(key, hits.front());
    });
    for (const auto& f : files) {
        if (table.entry(f.second).size > budget::kMaxIniFileBytes) {
            lib->errors.push_back(f.first + ": larger than " + std::to_string(budget::kMaxIniFileBytes) +
                                  " bytes (budget kMaxIniFileBytes), not read");
            continue;
        }
        try {
            const vfs::EntryBytes b = table.read(f.second);
            lib->readFile(b.span, vfs::normalizePath(f.first), &table);
        } catch (const std::exception& e) {
            lib->errors.push_back(e.what());
        }
    }
    return lib;
}

} // namespace rs::objects
