// rigscope-cli for Alamo particle systems (.alo starting with chunk 0x900):
//   info [--json] FILE   system name, every emitter (chunk 0x700) with its properties, volumes, tracks, links,
//                        unknown fields (raw hex) and what the simulation ignores
//   particles --json FILE --time T [--seed N] [--no-skip]   the simulated live particles at T seconds (Alamo
//                        systems, SAGE systems from an INI with --system, W3D emitters (chunk 0x500) of a .w3d)
#include "commands.h"

#include "alamo/particle_reader.h"
#include "common/file_read.h"
#include "objects/sage_fx.h"
#include "particles/particle_sim.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

namespace rs::cli {

namespace {

const char* kParticlesUsage =
    "usage: rigscope-cli particles --json FILE --time SECONDS [--seed N] [--no-skip] [--max N]\n"
    "  Live particles of an Alamo particle system at a time (deterministic for a seed): per particle the emitter,\n"
    "  position, velocity, size (full quad width), colour rgba, rotation (radians), texture frame, age and life.\n"
    "  --no-skip   ignore the emitters' skip time (0x33) instead of pre-simulating it\n"
    "  --max N     write at most N particles (default 1000000); \"live\" still counts all\n"
    "  --system NAME  FILE is a SAGE INI (ParticleSystem.ini, FXParticleSystem.ini): simulate the system NAME as the\n"
    "              Generals / Zero Hour engine does (30 updates a second; format \"sage-particle\")\n"
    "  FILE a .w3d holding emitters (chunk 0x500): simulate one as ww3d2 does (format \"w3d-emitter\"), in its\n"
    "              bone's space; --system NAME picks it by name when the file holds several\n";

std::string hexBytes(const std::vector<uint8_t>& b) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t v : b) {
        s += d[v >> 4];
        s += d[v & 15];
    }
    return s;
}

const char* shapeName(ParticleVolume::Shape s) {
    switch (s) {
    case ParticleVolume::Shape::Point:
        return "point";
    case ParticleVolume::Shape::Box:
        return "box";
    case ParticleVolume::Shape::Cube:
        return "cube";
    case ParticleVolume::Shape::Sphere:
        return "sphere";
    case ParticleVolume::Shape::Cylinder:
        return "cylinder";
    default:
        return "unknown";
    }
}

const char* interpName(ParticleTrack::Interp i) {
    switch (i) {
    case ParticleTrack::Interp::Linear:
        return "linear";
    case ParticleTrack::Interp::Smooth:
        return "smooth";
    case ParticleTrack::Interp::Step:
        return "step";
    default:
        return "unknown";
    }
}

void volumeJson(Json& j, const ParticleVolume& v) {
    j.beginObject().kv("shape", shapeName(v.shape)).kv("raw_shape", v.rawShape);
    j.key("min").floats(&v.min.x, 3).key("max").floats(&v.max.x, 3);
    j.kv("side_length", v.sideLength).kv("sphere_radius", v.sphereRadius).kv("sphere_edge", v.sphereEdge);
    j.kv("cylinder_radius", v.cylinderRadius).kv("cylinder_edge", v.cylinderEdge);
    j.kv("cylinder_height", v.cylinderHeight).key("point").floats(&v.point.x, 3);
    j.endObject();
}

void trackJson(Json& j, const ParticleTrack& t) {
    j.beginObject().kv("interpolation", interpName(t.interp)).kv("raw_interpolation", t.rawInterp);
    j.key("keys").beginArray();
    for (const glm::vec2& k : t.keys)
        j.floats(&k.x, 2);
    j.endArray().endObject();
}

void propertiesJson(Json& j, const ParticleEmitterParams& p) {
    const auto* base = reinterpret_cast<const unsigned char*>(&p);
    j.beginObject();
    for (const alamo::ParticlePropertyDef& d : alamo::particlePropertyTable()) {
        const unsigned char* at = base + d.offset;
        j.key(d.name);
        switch (d.kind) {
        case alamo::ParticlePropertyDef::Kind::Bool: {
            bool b;
            std::memcpy(&b, at, sizeof b);
            j.value(b);
            break;
        }
        case alamo::ParticlePropertyDef::Kind::U32: {
            uint32_t v;
            std::memcpy(&v, at, 4);
            j.value(uint64_t(v));
            break;
        }
        case alamo::ParticlePropertyDef::Kind::I32: {
            int32_t v;
            std::memcpy(&v, at, 4);
            j.value(int64_t(v));
            break;
        }
        case alamo::ParticlePropertyDef::Kind::F32: {
            float v;
            std::memcpy(&v, at, 4);
            j.value(v);
            break;
        }
        case alamo::ParticlePropertyDef::Kind::Vec3:
        case alamo::ParticlePropertyDef::Kind::Vec4: {
            float v[4];
            const size_t n = d.kind == alamo::ParticlePropertyDef::Kind::Vec3 ? 3 : 4;
            std::memcpy(v, at, n * 4);
            j.floats(v, n);
            break;
        }
        }
    }
    j.endObject();
}

void unknownJson(Json& j, const std::vector<ParticleUnknown>& list) {
    j.beginArray();
    for (const ParticleUnknown& u : list) {
        j.beginObject().kv("chunk", hex(u.chunk));
        if (u.mini >= 0) j.kv("mini", hex(uint32_t(u.mini)));
        j.kv("offset", uint64_t(u.offset)).kv("bytes", hexBytes(u.bytes)).endObject();
    }
    j.endArray();
}

double number(const std::string& s, const char* what) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v)) throw UsageError{std::string("bad ") + what + ": " + s};
    return v;
}

} // namespace

void infoParticles(const Document& doc, Json& j) {
    const ParticleSystem& s = *doc.particles;
    j.beginObject().kv("format", "alo-particle").kv("name", s.name).kv("id", uint64_t(s.id));
    j.key("leave_particles");
    if (s.hasLeaveParticles)
        j.value(s.leaveParticles);
    else
        j.null();
    j.key("emitters").beginArray();
    ParticleSimulator sim(s);
    for (size_t i = 0; i < s.emitters.size(); ++i) {
        const ParticleEmitter& e = s.emitters[i];
        j.beginObject().kv("index", uint64_t(i)).kv("name", e.name);
        j.kv("color_texture", e.colorTexture).kv("bump_texture", e.bumpTexture);
        j.kv("blend", particleBlendName(e.blend)).kv("top_level", sim.topLevel(i));
        j.kv("spawn_on_death", int64_t(e.spawnOnDeath)).kv("spawn_during_life", int64_t(e.spawnDuringLife));
        j.key("properties");
        propertiesJson(j, e.params);
        j.key("velocity_volume");
        volumeJson(j, e.velocity);
        j.key("lifetime_volume");
        volumeJson(j, e.lifetimeGroup);
        j.key("position_volume");
        volumeJson(j, e.position);
        j.key("tracks").beginObject();
        const std::pair<const char*, const ParticleTrack*> tracks[] = {{"red", &e.red},
                                                                       {"green", &e.green},
                                                                       {"blue", &e.blue},
                                                                       {"alpha", &e.alpha},
                                                                       {"size", &e.size},
                                                                       {"frame", &e.frame},
                                                                       {"rotation_speed", &e.rotationSpeed}};
        for (const auto& [name, t] : tracks) {
            j.key(name);
            trackJson(j, *t);
        }
        j.endObject();
        j.key("unknown");
        unknownJson(j, e.unknown);
        j.key("not_simulated").beginArray();
        for (const std::string& n : e.notSimulated)
            j.value(n);
        j.endArray().endObject();
    }
    j.endArray().key("unknown");
    unknownJson(j, s.unknown);
    j.key("warnings").beginArray();
    for (const std::string& w : s.warnings)
        j.value(w);
    j.endArray().endObject();
}

void infoParticlesText(const Document& doc, std::string& text) {
    const ParticleSystem& s = *doc.particles;
    std::ostringstream o;
    o << doc.path << ": alo-particle \"" << s.name << "\", " << s.emitters.size() << " emitters\n";
    for (size_t i = 0; i < s.emitters.size(); ++i) {
        const ParticleEmitter& e = s.emitters[i];
        const ParticleEmitterParams& p = e.params;
        o << "  emitter " << i << " \"" << e.name << "\": " << particleBlendName(e.blend) << ", texture "
          << e.colorTexture << ", lifetime " << p.lifetime << " s, ";
        if (p.useBursts)
            o << p.particlesPerBurst << " per burst every " << p.burstDelay << " s ("
              << (p.burstCount > 0 ? std::to_string(p.burstCount) : std::string("unlimited")) << " bursts)";
        else
            o << p.particlesPerSecond << " per second";
        if (e.spawnDuringLife >= 0) o << ", spawns emitter " << e.spawnDuringLife << " during life";
        if (e.spawnOnDeath >= 0) o << ", spawns emitter " << e.spawnOnDeath << " on death";
        o << "\n";
    }
    for (const std::string& w : s.warnings)
        o << "  warning: " << w << "\n";
    text = o.str();
}

int cmdParticles(const std::vector<std::string>& args) {
    bool json = false, haveTime = false, skip = true;
    double time = 0;
    uint64_t seed = 1, max = 1000000;
    std::string file, systemName;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "--system") {
            systemName = next("--system");
            continue;
        }
        if (a == "--help" || a == "-h") {
            std::cout << kParticlesUsage;
            return 0;
        }
        if (a == "--json")
            json = true;
        else if (a == "--time") {
            time = number(next("--time"), "time");
            haveTime = true;
        } else if (a == "--seed") {
            const double v = number(next("--seed"), "seed");
            if (v < 0 || v != std::floor(v) || v > 9.0e15) throw UsageError{"bad seed: must be a whole number >= 0"};
            seed = static_cast<uint64_t>(v);
        } else if (a == "--max") {
            const double v = number(next("--max"), "max");
            if (v < 0 || v != std::floor(v) || v > 1.0e8) throw UsageError{"bad max: a whole number 0..100000000"};
            max = static_cast<uint64_t>(v);
        } else if (a == "--no-skip")
            skip = false;
        else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else if (file.empty())
            file = a;
        else
            throw UsageError{"more than one file given"};
    }
    if (!json) throw UsageError{"particles supports --json output only"};
    if (file.empty()) throw UsageError{"particles needs a FILE"};
    if (!haveTime) throw UsageError{"particles needs --time SECONDS"};
    std::shared_ptr<const ParticleSystem> held;
    std::vector<std::string> iniErrors;
    // W3D emitters: a file the registry reads as W3D whose model holds particle systems (BoneParticles).
    std::string format = "alo-particle";
    const BoneParticles* w3dSystem = nullptr;
    std::shared_ptr<const Model> w3dModel;
    std::vector<std::string> w3dNames;
    const bool w3dFile = file.size() >= 4 && iequals(file.substr(file.size() - 4), ".w3d");
    const bool iniSystem = !systemName.empty() && !w3dFile;
    if (iniSystem) {
        // A SAGE system from its INI file (its #includes are not followed: no game is mounted here).
        const std::vector<uint8_t> bytes = readFile(file, uint64_t(64) << 20, "SAGE INI");
        objects::SageFxLibrary lib;
        lib.readFile(ByteSpan(bytes.data(), bytes.size()), file);
        iniErrors = lib.errors;
        held = lib.find(systemName);
        if (!held) throw ParseError(file, {}, ParseError::kNoOffset, "no particle system " + systemName + " defined");
        format = "sage-particle";
    } else {
        Document doc = loadInput(file, GameMount{});
        if (doc.particles) {
            if (!systemName.empty())
                throw UsageError{"--system names a SAGE system in an INI file or a W3D emitter; " + file +
                                 " is an Alamo particle system"};
            held = doc.particles;
        } else if (doc.model && !doc.model->particles.empty()) {
            w3dModel = doc.model;
            for (const BoneParticles& bp : doc.model->particles) {
                w3dNames.push_back(bp.name);
                const size_t dot = bp.name.find('.');
                if (systemName.empty() ? doc.model->particles.size() == 1
                                       : (iequals(bp.name, systemName) ||
                                          (dot != std::string::npos && iequals(bp.name.substr(dot + 1), systemName))))
                    if (!w3dSystem && bp.system) w3dSystem = &bp;
            }
            if (!w3dSystem) {
                std::string names;
                for (const std::string& n : w3dNames)
                    names += (names.empty() ? "" : ", ") + n;
                if (systemName.empty())
                    throw UsageError{file + " holds " + std::to_string(w3dNames.size()) +
                                     " W3D emitters; pick one with --system NAME (" + names + ")"};
                throw ParseError(file, {}, ParseError::kNoOffset,
                                 "no W3D emitter " + systemName + " (the file holds " + names + ")");
            }
            held = w3dSystem->system;
            format = "w3d-emitter";
        } else {
            throw ParseError(file, {}, 0,
                             std::string("not a particle system and holds no W3D emitter (format ") +
                                 formatName(doc.format) + ")");
        }
    }
    const ParticleSystem& s = *held;
    ParticleSimulator sim(s);
    ParticleSimOptions opt;
    opt.seed = seed;
    opt.applySkipTime = skip;
    ParticleBuffer buf(max, s.emitters.size());
    sim.evaluate(time, opt, buf);
    Json j;
    j.beginObject().kv("format", format).kv("name", s.name).kv("time", time).kv("seed", seed);
    if (w3dSystem) {
        // Where the emitter sits: positions are in its bone's space (the model's bind pose places that bone).
        const int bone = w3dSystem->bone;
        j.kv("bone", int64_t(bone));
        j.kv("bone_name", bone >= 0 && size_t(bone) < w3dModel->skeleton.bones.size()
                              ? w3dModel->skeleton.bones[size_t(bone)].name
                              : std::string());
        j.key("systems_in_file").beginArray();
        for (const std::string& n : w3dNames)
            j.value(n);
        j.endArray();
    }
    if (iniSystem) {
        j.key("ini_errors").beginArray();
        for (const std::string& e : iniErrors)
            j.value(e);
        j.endArray();
    }
    if (iniSystem || w3dSystem) {
        j.key("not_simulated").beginArray();
        for (const ParticleEmitter& e : s.emitters)
            for (const std::string& n : e.notSimulated)
                j.value(e.name + ": " + n);
        j.endArray();
    }
    j.kv("live", uint64_t(buf.live)).kv("written", uint64_t(buf.count)).kv("truncated", buf.truncated);
    j.key("emitters").beginArray();
    for (size_t i = 0; i < s.emitters.size(); ++i)
        j.beginObject()
            .kv("index", uint64_t(i))
            .kv("name", s.emitters[i].name)
            .kv("count", uint64_t(buf.emitters[i].count))
            .kv("atlas_grid", uint64_t(sim.atlasGrid(i)))
            .endObject();
    j.endArray().key("particles").beginArray();
    for (size_t i = 0; i < buf.count; ++i) {
        const SimParticle& p = buf.particles[i];
        j.beginObject().kv("emitter", uint64_t(p.emitter));
        j.key("position").floats(&p.position.x, 3).key("velocity").floats(&p.velocity.x, 3);
        j.kv("size", p.size).key("color").floats(&p.color.x, 4);
        j.kv("rotation", p.rotation).kv("frame", uint64_t(p.frame)).kv("age", p.age).kv("life", p.life);
        j.endObject();
    }
    j.endArray().endObject();
    std::cout << j.out << "\n";
    return 0;
}

} // namespace rs::cli
