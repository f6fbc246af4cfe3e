// W3D texture mapper arguments: the key=value text stored in VERTEX_MAPPER_ARGS0/1 (0x2E/0x2F), read as ww3d2 does
// (vertmaterial.cpp wraps it in an [Args] INI section; mapper.cpp reads each key with a default).
#pragma once

#include "scene/model.h"

#include <string>
#include <utility>
#include <vector>

namespace rs::w3d {

// The entries of the text: one per line ("Key=Value", whitespace around both trimmed; ';' starts a comment; lines
// without '=' and empty keys ignored). Keys as written, in order; a later duplicate wins in lookups.
std::vector<std::pair<std::string, std::string>> parseMapperEntries(const std::string& text);

// A mapper of type `type` (W3DVERTMAT_STAGEn_MAPPING_* >> shift) with its arguments: keys are case-insensitive,
// numbers read like atof/atoi (leading number, rest ignored; none: 0), booleans true when the value starts with
// 'T', 'Y' or '1' (INIClass::Get_Bool); missing keys take mapper.cpp's defaults (FPS 1 for grids, 0 for random).
W3dMapper parseMapper(int type, const std::string& args);

// Name of a mapper type ("LinearOffset", "Grid", ...; "Mapper<n>" for unknown values).
const char* mapperName(int type);

} // namespace rs::w3d

namespace rs::w3d {

// How one pass uses the mesh's vertex colour array (DCG, with DIG multiplied in), after ww3d2's
// MeshMatDescClass::Post_Load_Process (Generals): with a colour array, a pass whose vertex material uses only the
// diffuse colour (non-zero), diffuse and ambient, only ambient, or only emissive gets the array premultiplied by
// that colour (rgb) and the opacity (a) and takes its diffuse (and ambient) from it; emissive-only passes are drawn
// unlit when every pass is; otherwise the diffuse comes from the array unchanged.
struct ColorRule {
    bool useColor = false;         // the pass reads the colour array
    glm::vec4 scale{1.0f};         // array * scale
    bool diffuseFromColor = false; // D3DRS_DIFFUSEMATERIALSOURCE = COLOR1
    bool ambientFromColor = false; // D3DRS_AMBIENTMATERIALSOURCE = COLOR1
    bool lighting = true;          // D3DRS_LIGHTING
    // The vertex material colour that `scale` holds (meshmatdesc's premultiplication): with lighting off it is the
    // only colour of the material that changes the picture (with Opacity, in scale.a).
    enum class From : uint8_t { None, Diffuse, Ambient, Emissive } scaleFrom = From::None;
};
ColorRule colorRule(const std::vector<W3dPassState>& passes, size_t pass);

} // namespace rs::w3d
