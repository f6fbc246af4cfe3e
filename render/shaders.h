// GLSL sources of the render layer's shader families (OpenGL 3.3 core; Qt3D OpenGL backend). The text lives in
// render/glsl/ (shared with the web page, which compiles it as GLSL ES 3.00) and is embedded at build time.
//
// Shared uniforms (set on the frame graph's pass filters, so every entity sees them):
//   uniform block BonePalette { mat4 bones[kMaxPalette]; } (std140, one buffer shared by all passes)
//                             palette: [0,N) bone world, [N,2N) world*inverseBind, 2N identity
//   vec4 lightPosition[4]     xyz = position (w=1) or direction the light travels (w=0)
//   vec4 lightColor[4]        rgb * intensity, a = 1 / range (0 = infinite); unused lights are black
//   int rigLightCount (lights in use, the first slots; Qt3D owns "lightCount"); vec3 ambientColor; vec4 factionColor;
//   int highlightBone
#pragma once

namespace rs::render::shaders {

constexpr int kMaxPalette = 512; // mat4 entries; keep in sync with the GLSL below

extern const char* const desktopPrefix; // "#version 330 core\n": what the bodies below that lack it take first
extern const char* const meshVertex;
extern const char* const meshFragment;  // body without #version: prepend desktopPrefix + defines
extern const char* const depthFragment; // depth-only pre-pass (meshVertex)
extern const char* const wireGeometry;
extern const char* const wireFragment;
// Alamo .fx implementations (glsl/alamo.vert): bodies without #version; prepend desktopPrefix and one of
// BUMP_COLORIZE, GLOSS, GLOSS_COLORIZE, ALPHA, ADDITIVE, SHIELD, SKYDOME, PLANET, DEFAULT.
// Extra shared uniforms: vec3 sunToward, sunDiffuse, sunSpecular; vec4 sphAll[12], sphFill[12]; float alamoTime.
extern const char* const alamoVertex;
extern const char* const alamoFragment;
// W3D passes (glsl/w3d.vert): bodies without #version; prepend desktopPrefix and the switches listed there.
extern const char* const w3dVertex;
extern const char* const w3dFragment;
// BFME's NormalMapped.fx (glsl/w3d_fx.vert): bodies without #version; prepend desktopPrefix and ALPHA_TEST.
extern const char* const w3dFxVertex;
extern const char* const w3dFxFragment;
// C&C 3's Objects*.fx (glsl/w3x_objects.vert): bodies without #version; prepend desktopPrefix and the switches listed
// there.
extern const char* const w3xObjectsVertex;
extern const char* const w3xObjectsFragment;
// C&C 3's Infantry/BasicW3D/Tree.fx and DefaultW3D.fx (glsl/w3x_basic.vert): the same, switches in its header.
extern const char* const w3xBasicVertex;
extern const char* const w3xBasicFragment;
// C&C 3's Tiberium.fx (glsl/w3x_tiberium.vert).
extern const char* const w3xTiberiumVertex;
extern const char* const w3xTiberiumFragment;
// C&C 3's AlienShield/MuzzleFlash/DistortingObject/ShieldDistortion.fx (glsl/w3x_effects.vert).
extern const char* const w3xEffectsVertex;
extern const char* const w3xEffectsFragment;
extern const char* const lineVertex;
extern const char* const lineFragment;
extern const char* const dazzleVertex;
extern const char* const dazzleFragment;
extern const char* const labelVertex;
extern const char* const labelFragment;
// Particle quads (glsl/particle.vert): bodies without #version; prepend desktopPrefix and the defines listed there.
extern const char* const particleVertex;
extern const char* const particleFragment;
// W3D spheres and rings (glsl/w3d_prim.vert): bodies without #version; prepend desktopPrefix and the defines listed
// there.
extern const char* const w3dPrimVertex;
extern const char* const w3dPrimFragment;
// The low-resolution particle target over the window (glsl/particle_composite.vert), with the version line.
extern const char* const particleCompositeVertex;
extern const char* const particleCompositeFragment;

} // namespace rs::render::shaders
