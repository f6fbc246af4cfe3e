// The render layer's GLSL: the shared files of render/glsl/ (the same text the web page compiles, web/build.mjs),
// embedded at build time (render/glsl/embed_glsl.cmake -> rigscope_glsl.h). Programs that take no defines get the
// desktop's version line here; the others get it, then their defines, from their builders.
#include "shaders.h"

#define RS_GLSL_DESKTOP_PREFIX "#version 330 core\n"
#include "rigscope_glsl.h"

namespace rs::render::shaders {

const char* const desktopPrefix = RS_GLSL_DESKTOP_PREFIX;

const char* const meshVertex = glsl_mesh_vert_desktop;
const char* const meshFragment = glsl_mesh_frag;
const char* const depthFragment = glsl_depth_frag_desktop;
const char* const wireGeometry = glsl_wire_geom_desktop;
const char* const wireFragment = glsl_wire_frag_desktop;
const char* const lineVertex = glsl_line_vert_desktop;
const char* const lineFragment = glsl_line_frag_desktop;
const char* const dazzleVertex = glsl_dazzle_vert_desktop;
const char* const dazzleFragment = glsl_dazzle_frag_desktop;
const char* const labelVertex = glsl_label_vert_desktop;
const char* const labelFragment = glsl_label_frag_desktop;
const char* const particleVertex = glsl_particle_vert;
const char* const w3dPrimVertex = glsl_w3d_prim_vert;
const char* const w3dPrimFragment = glsl_w3d_prim_frag;
const char* const particleFragment = glsl_particle_frag;
const char* const particleCompositeVertex = glsl_particle_composite_vert_desktop;
const char* const particleCompositeFragment = glsl_particle_composite_frag_desktop;
const char* const alamoVertex = glsl_alamo_vert;
const char* const alamoFragment = glsl_alamo_frag;
const char* const w3dVertex = glsl_w3d_vert;
const char* const w3dFragment = glsl_w3d_frag;
const char* const w3dFxVertex = glsl_w3d_fx_vert;
const char* const w3dFxFragment = glsl_w3d_fx_frag;
const char* const w3xObjectsVertex = glsl_w3x_objects_vert;
const char* const w3xObjectsFragment = glsl_w3x_objects_frag;
const char* const w3xBasicVertex = glsl_w3x_basic_vert;
const char* const w3xBasicFragment = glsl_w3x_basic_frag;
const char* const w3xTiberiumVertex = glsl_w3x_tiberium_vert;
const char* const w3xTiberiumFragment = glsl_w3x_tiberium_frag;
const char* const w3xEffectsVertex = glsl_w3x_effects_vert;
const char* const w3xEffectsFragment = glsl_w3x_effects_frag;

} // namespace rs::render::shaders
