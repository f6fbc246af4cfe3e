// Format-neutral particle system: what a reader decoded, what the simulation (particle_sim.h) and the
// renderer consume. Units: seconds, world units (the model's units), colours 0..1, rotations in revolutions
// (1 = a full turn) as the file stores them.
//
// Contract of the readers: every field below is either decoded from the file or left at the documented default
// when the file omits it; anything the reader does not understand lands in `unknown` (raw bytes), never in a
// typed field. `ParticleEmitter::notSimulated` lists the features of an emitter that the simulation ignores.
#pragma once

#include "common/format_id.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rs {

// Blend modes of the Alamo emitter property 0x04 (0..13); values past 13 stay Unknown (raw value kept).
enum class ParticleBlend : uint8_t {
    Opaque = 0,
    Additive,
    Alpha,
    Modulate,
    DepthAdditive,
    DepthAlpha,
    DepthModulate,
    DiffuseAlpha,
    StencilDarken,
    StencilDarkenBlur,
    Heat,
    Bump,
    DecalBump,
    AlphaScanlines,
    Unknown,
};
// "additive", "alpha", ... ; "unknown" for Unknown.
const char* particleBlendName(ParticleBlend b);

// A value over a particle's normalised life t = age / lifetime in [0, 1].
struct ParticleTrack {
    enum class Interp : uint8_t { Linear = 0, Smooth = 1, Step = 2, Unknown = 3 };
    Interp interp = Interp::Linear; // Unknown samples as Linear and is reported
    uint32_t rawInterp = 0;         // as stored
    // (t, value) keys, t non-decreasing in [0, 1]; the first key is at t = 0 and the last at t = 1.
    std::vector<glm::vec2> keys{{0.0f, 0.0f}, {1.0f, 0.0f}};

    // Value at t (clamped to [0, 1]). Smooth = cubic Hermite with zero end tangents between two keys.
    float sample(float t) const;
    // Integral of the track over [0, t] (t clamped to [0, 1]), exact for every interpolation.
    float integral(float t) const;
    bool constant() const;
};

// A random volume (Alamo "group", chunk 0x1101): where a value is drawn from when a particle is born.
struct ParticleVolume {
    enum class Shape : uint8_t { Point = 0, Box = 1, Cube = 2, Sphere = 3, Cylinder = 4, Unknown = 5 };
    Shape shape = Shape::Point; // Unknown samples as Point and is reported
    uint32_t rawShape = 0;
    glm::vec3 min{0.0f}, max{0.0f}; // Box
    float sideLength = 0.0f;        // Cube, centred
    float sphereRadius = 0.0f;      // Sphere, centred
    bool sphereEdge = false;        // on the surface only
    float cylinderRadius = 0.0f;    // Cylinder around +Z from z = 0 to cylinderHeight
    bool cylinderEdge = false;
    float cylinderHeight = 0.0f;
    glm::vec3 point{0.0f}; // Point
};

// The emitter's mini-chunk properties (Alamo chunk 0x700/0x02). Plain data (offsetof-able: the reader, writer and
// CLI walk it through one property table, alamo/particle_reader.h). Defaults apply when the file omits a mini.
struct ParticleEmitterParams {
    uint32_t blendMode = 1;               // 0x04 raw; see ParticleEmitter::blend
    uint32_t trianglesMinusOne = 1;       // 0x05 (every corpus emitter: 1 = a quad); not used by the simulation
    bool useBursts = false;               // 0x07
    bool linkToSystem = false;            // 0x08 particles follow the emitter's translation after birth
    float inwardSpeed = 0.0f;             // 0x09 != 0: birth velocity = value * direction(emitter -> particle)
    glm::vec3 acceleration{0.0f};         // 0x0A
    float inwardAcceleration = 0.0f;      // 0x0B positive pulls particles toward the emitter
    float gravity = 0.0f;                 // 0x0C acceleration along -Z (negative: particles rise)
    float lifetime = 1.0f;                // 0x0F seconds
    uint32_t textureFrames = 64;          // 0x10 frames in the texture atlas (grid ceil(sqrt(n)) squared)
    float randomScale = 0.0f;             // 0x12 fraction: size varies by +-randomScale/2, never above the track
    float randomLifetime = 0.0f;          // 0x13 fraction: lifetime * (1 + U(0, randomLifetime))
    uint32_t emitterIndex = 0;            // 0x14 the emitter's index as written by the editor
    float randomRotationVariance = 0.0f;  // 0x17 (absolute value used)
    bool randomRotationDirection = false; // 0x23 half of the particles turn the other way
    float initialDelay = 0.0f;            // 0x24 seconds before the first spawn
    float burstDelay = 1.0f;              // 0x25 seconds between bursts
    uint32_t particlesPerBurst = 1;       // 0x26
    int32_t burstCount = -1;              // 0x27 number of bursts; <= 0 (the editor writes -1): unlimited
    float parentLinkStrength = 0.0f;      // 0x28 share of the parent particle's velocity inherited (with 0x43)
    uint32_t particlesPerSecond = 1;      // 0x2A continuous rate when not bursting
    glm::vec4 randomColor{0.0f};          // 0x2C per channel: U(0, value) added at birth
    bool colorAddGrayscale = false;       // 0x2D one random value for r, g and b
    bool worldOriented = false;           // 0x2E quads lie in the world XY plane instead of facing the camera
    uint32_t groundBehavior = 0;          // 0x2F 0 none, 1 disappear, 2 bounce, 3 stick (no ground here: not simulated)
    float bounciness = 0.2f;              // 0x30
    bool affectedByWind = false;          // 0x31 not simulated (no wind)
    float freezeTime = 0.0f;              // 0x32 meaning unknown (every corpus emitter: 0); not simulated
    float skipTime = 0.0f;                // 0x33 seconds pre-simulated before the system is shown (our reading)
    uint32_t emitFromMesh = 0; // 0x34 0 off, 1 random vertex, 2 random surface, 3 every vertex (not simulated)
    bool objectSpaceAcceleration = false;  // 0x35 acceleration turns with the emitter
    bool heatParticle = false;             // 0x3B heat-distortion renderer
    float emitFromMeshOffset = 0.5f;       // 0x3C
    bool weatherParticle = false;          // 0x3D not simulated
    float weatherCubeSize = 500.0f;        // 0x3E
    float weatherFadeoutDistance = 100.0f; // 0x40
    bool hasTail = false;                  // 0x41 "kite" renderer: quads stretched along the velocity
    float tailSize = 50.0f;                // 0x42
    bool useLinkStrength = false;          // 0x43 enables 0x28
    bool noDepthTest = false;              // 0x46
    float weatherCubeDistance = 0.0f;      // 0x47
    bool randomRotation = false;           // 0x48 fixed random rotation instead of the rotation-speed track
};

// A field the reader kept without understanding it.
struct ParticleUnknown {
    uint32_t chunk = 0;  // chunk type it was found in (0x02 for emitter property minis)
    int mini = -1;       // mini-chunk id, -1 for a whole chunk
    uint64_t offset = 0; // absolute offset of its payload
    std::vector<uint8_t> bytes;
};

// SAGE (Generals, Zero Hour, BFME I/II): one INI particle system template (`ParticleSystem NAME` or BFME II's
// `FXParticleSystem NAME` with its module blocks) as the engine reads it (EA's Zero Hour source,
// GameClient/System/ParticleSys.cpp, ParticleSystemTemplate::m_fieldParseTable). Times are in frames of the
// engine's client update (kSageFramesPerSecond), sizes and distances in world units, velocities in units a frame,
// colours 0..1 (the file's 0..255 divided by 255), angles in radians.
inline constexpr double kSageFramesPerSecond = 30.0;

struct SageRange { // GameClientRandomVariable: a value drawn uniformly in [lo, hi] (lo when they are equal)
    float lo = 0.0f, hi = 0.0f;
    bool constant() const { return lo == hi; }
};

struct SageEmitterParams {
    enum class Shader : uint8_t { None, Additive, Alpha, AlphaTest, Multiply };
    enum class Type : uint8_t { Particle, Drawable, Streak, Volume, Unknown };
    enum class Velocity : uint8_t { None, Ortho, Spherical, Hemispherical, Cylindrical, Outward };
    enum class Volume : uint8_t { Point, Line, Box, Sphere, Cylinder };
    enum class Wind : uint8_t { Unused, PingPong, Circular };
    static constexpr int kKeys = 8; // MAX_KEYFRAMES
    struct AlphaKey {
        SageRange value;
        uint32_t frame = 0;
    };
    struct ColorKey {
        glm::vec3 rgb{0.0f};
        uint32_t frame = 0;
    };

    std::string priority;             // as written (not used: the viewer drops no particle for load)
    bool oneShot = false;             // IsOneShot (the engine's update does not read it either)
    Shader shader = Shader::Additive; // an FXParticleSystem without Shader: ADDITIVE (BFME II's default, our reading)
    Type type = Type::Particle;
    std::string particleName; // texture (or the drawable's object for Type::Drawable)
    SageRange angleZ, angularRateZ, angularDamping, velocityDamping;
    float gravity = 0.0f; // added to the z velocity every frame
    std::string slaveSystem;
    glm::vec3 slavePosOffset{0.0f};
    std::string attachedSystem;  // PerParticleAttachedSystem
    SageRange lifetime;          // frames; 0: lives until invisible
    uint32_t systemLifetime = 0; // frames of emission; 0: forever
    SageRange size, startSizeRate, sizeRate, sizeRateDamping;
    std::array<AlphaKey, kKeys> alpha{};
    std::array<ColorKey, kKeys> color{};
    SageRange colorScale; // as written (0..255 a frame); the engine divides by 255
    SageRange burstDelay, burstCount, initialDelay;
    glm::vec3 drift{0.0f};
    Velocity velocityType = Velocity::None;
    SageRange velOrtho[3], velSpherical, velHemispherical, velCylRadial, velCylNormal, velOutward, velOutwardOther;
    Volume volumeType = Volume::Point;
    glm::vec3 lineStart{0.0f}, lineEnd{0.0f}, boxHalfSize{0.0f};
    float sphereRadius = 0.0f, cylinderRadius = 0.0f, cylinderLength = 0.0f;
    bool hollow = false, groundAligned = false, emitAboveGroundOnly = false, upTowardsEmitter = false;
    Wind wind = Wind::Unused;
    float windAngleChangeMin = 0.15f, windAngleChangeMax = 0.45f;
    float windStartAngleMin = 0.0f, windStartAngleMax = 0.78539816f;
    float windEndAngleMin = 5.49778714f, windEndAngleMax = 6.28318531f;
    // Wind force (doWindMotion): strength * U(0.7, 1.3) a frame within fullDistance of the system, falling to 0 at
    // zeroDistance (Zero Hour's constants; BFME II's WindStrength / WindFullStrengthDist / WindZeroStrengthDist).
    float windStrength = 2.0f, windFullDistance = 75.0f, windZeroDistance = 200.0f;
    int slaveOf = -1; // index of the master emitter in the same ParticleSystem (a SlaveSystem), -1 for none
};
const char* sageShaderName(SageEmitterParams::Shader s);     // "none", "additive", "alpha", "alpha-test", "multiply"
const char* sageTypeName(SageEmitterParams::Type t);         // "particle", "drawable", "streak", "volume", "unknown"
const char* sageVelocityName(SageEmitterParams::Velocity v); // "none", "ortho", ...
const char* sageVolumeName(SageEmitterParams::Volume v);     // "point", "line", "box", "sphere", "cylinder"

// Westwood W3D emitters (Renegade, Generals, BFME: chunk 0x500) as ww3d2 simulates them (EA's released sources,
// ParticleEmitterClass / ParticleBufferClass): every `interval` seconds from the start (the first emission one
// interval in) `burst` particles are born at a point of the creation volume, with the base velocity plus a point of
// the velocity volume plus `outwardVelocity` along the birth offset (+X when it is zero), both turned by the emitter
// transform at the birth; they move as p0 + v0 a + acceleration a^2 / 2 (world axes) and die at age >= lifetime.
// Colour, opacity, size, rotation speed and texture frame follow keyframes over the particle's age in seconds (the
// first key is at age 0; linear between keys, held after the last), each plus a random per-particle offset drawn
// in [-random, random]; the orientation is the integral of the rotation speed plus the random initial orientation.
// Units: seconds, world units, colours 0..1, rotations in revolutions (1 = a full turn).
struct W3dEmitterParams {
    enum class Volume : uint8_t { Box = 0, Sphere = 1, HollowSphere = 2, Cylinder = 3, Unknown = 4 };
    struct Randomizer { // W3dVolumeRandomizerStruct
        Volume shape = Volume::Box;
        uint32_t rawClass = 0;
        glm::vec3 value{0.0f}; // Box: half extents; spheres: x = radius; Cylinder: x = height, y = radius
    };
    struct Key {
        float time = 0.0f; // age, seconds
        glm::vec3 value{0.0f};
    };
    double interval = 1.0;        // seconds between emissions (the engine's whole milliseconds: trunc(1000 / rate))
    uint32_t burst = 1;           // particles an emission (0 in the file: 1)
    int64_t maxParticles = 0;     // particles the emitter makes in all (0: no limit)
    float lifetime = 1.0f;        // seconds
    glm::vec3 velocity{0.0f};     // base velocity, emitter space, units a second
    glm::vec3 acceleration{0.0f}; // world space, units a second squared
    float outwardVelocity = 0.0f, inheritVelocity = 0.0f;
    Randomizer creation, velocityRandom;
    std::vector<Key> color;         // rgb 0..1; at least one key (the start, at age 0)
    std::vector<Key> opacity, size; // x
    std::vector<Key> rotation;      // x: revolutions a second (empty: no rotation)
    std::vector<Key> frame;         // x: texture frame (empty: frame 0)
    glm::vec3 colorRandom{0.0f};
    float opacityRandom = 0.0f, sizeRandom = 0.0f, rotationRandom = 0.0f, orientationRandom = 0.0f, frameRandom = 0.0f;
    uint32_t grid = 1;       // texture frame grid (FrameMode 0..4: 1, 2, 4, 8, 16)
    uint32_t renderMode = 0; // 0 triangles, 1 quads, 2 line, 3-4 line groups
    // Line groups (renderMode 3 tetrahedra, 4 prisms: LineGroupClass): each particle is a streak from its tail,
    // position - velocity * blur time, to its position, `size` wide. Blur time in seconds over the age (keys as
    // above, empty: 0), plus a random offset in [-blurTimeRandom, blurTimeRandom].
    std::vector<Key> blurTime;
    float blurTimeRandom = 0.0f;
    // Line mode (renderMode 2: SegLineRendererClass): one ribbon through the live particles in birth order, the start
    // size wide; the emitter's line properties (chunk 0x509) as read (flags: W3D_ELEMENT_* texture mapping and
    // merge bits).
    struct LineProperties {
        uint32_t flags = 0, subdivision = 0;
        float noise = 0.0f, mergeAbort = 0.0f, textureTile = 0.0f, uPerSec = 0.0f, vPerSec = 0.0f;
    } line;
};

struct ParticleEmitter {
    std::string name;         // 0x16
    std::string colorTexture; // 0x03
    std::string bumpTexture;  // 0x45 (empty when absent)
    ParticleBlend blend = ParticleBlend::Additive;
    ParticleEmitterParams params;
    // 0x29 volumes: birth velocity, a "lifetime" group (decoded, meaning unknown, not used) and birth position.
    ParticleVolume velocity, lifetimeGroup, position;
    // 0x01 tracks over the particle's life: colour channels 0..1, size (full quad width, world units), texture
    // frame index (rounded), rotation speed (revolutions per second).
    ParticleTrack red, green, blue, alpha, size, frame, rotationSpeed;
    // 0x36: index of the emitter whose instance starts when a particle of this one dies / is born (-1: none).
    int32_t spawnOnDeath = -1;
    int32_t spawnDuringLife = -1;
    bool hasSpawnLinks = false;
    std::vector<ParticleUnknown> unknown;
    std::vector<std::string> notSimulated; // features set in the file that particle_sim ignores
    // SAGE systems: the template as read (params, volumes and tracks above then hold only what the renderer uses:
    // blend, colorTexture, worldOriented = ground aligned, textureFrames = 1); the simulation follows these.
    std::optional<SageEmitterParams> sage;
    // W3D emitters (chunk 0x500): the emitter as ww3d2 simulates it (params above then hold the renderer's values:
    // blend, colorTexture, textureFrames = grid squared); the simulation follows these.
    std::optional<W3dEmitterParams> w3d;
};

struct ParticleSystem {
    std::string sourcePath;
    Format format = Format::AlamoParticles; // SAGE systems (INI definitions, not files): Format::Unknown
    std::string name;                       // 0x0000
    uint32_t id = 0;                        // 0x0001 (every corpus file: 0)
    bool leaveParticles = true;             // 0x0002: particles outlive a removed system
    bool hasLeaveParticles = false;
    std::vector<ParticleEmitter> emitters;
    std::vector<ParticleUnknown> unknown; // unknown top-level chunks
    std::vector<std::string> warnings;
};

// The reader's warning line for a feature of emitter `index` that the simulation ignores (an entry of its
// notSimulated), and the start of its line for emitter property mini-chunks it keeps raw: what rigscope does not
// read or simulate, not defects of the file (rigscope-cli check reports them as information).
std::string notSimulatedWarning(size_t index, const ParticleEmitter& e, const std::string& feature);
inline constexpr const char* kUnknownMiniChunksWarning = "emitter property mini-chunks not understood";

} // namespace rs
