// One edit of a file's source tree (read, edit, write: docs/ARCHITECTURE.md): what the viewer's panels, the CLI's
// `edit` flags and a patch file (docs/EDITING.md) all express. Each format's `applyEdit` (alamo_source.cpp,
// w3d_source.cpp, bwm_source.cpp; the registry's `applyEdit` dispatches) maps the semantic value to the nodes it
// came from and sets their payloads; core/edit/edits.h adds files, companions, undo and patches on top.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rs {

struct EditOp {
    enum class Kind : uint8_t {
        RenameTexture,     // name: old texture (ASCII case ignored), value: new name
        SetShader,         // target: material/sub-mesh ("" = every); name: old shader ("" = any); value: new shader
        SetParam,          // target: material/sub-mesh ("" = every); name: parameter; value: new value (text)
        RenameBone,        // name: old bone name (ASCII case ignored), value: new name
        SetBoneVisible,    // target: bone; value: "1"/"0"                         (Alamo)
        SetBoneBillboard,  // target: bone; value: billboard mode number            (Alamo)
        SetMeshHidden,     // target: mesh; value: "1"/"0"                          (Alamo 0x402)
        SetMeshCollision,  // target: mesh; value: "1"/"0"                          (Alamo 0x402)
        SetProxyTarget,    // target: proxy name (as stored); value: new name       (Alamo 0x603 mini 5)
        SetProxyHidden,    // target: proxy name; value: "1"/"0"                    (Alamo 0x603 mini 7)
        SetLightColor,     // target: light; value: "R G B"                         (Alamo 0x1302)
        SetLightIntensity, // target: light; value: number                          (Alamo 0x1302)
        SetDazzleColor,    // target: dazzle name or index; value: "R G B"          (Alamo 0x604 mini 0)
        SetDazzleRate,     // target: dazzle name or index; value: frequency        (Alamo 0x604 mini 7)
        RenameClip,        // value: new clip name                                  (clip files)
        TrimClip,          // first..last: the frames kept                          (Alamo .ala)
        SetClipRate,       // value: frames per second                              (Alamo .ala)
        SetMeshTwoSided,   // target: mesh ("" = every); value: "1"/"0": back faces drawn (W3D 0x1F attributes,
                           // W3D_MESH_FLAG_TWO_SIDED 0x2000)
    };
    Kind kind = Kind::RenameTexture;
    // Which object: a mesh/sub-mesh ("MESH", "MESH#1" = its second sub-mesh, ASCII case ignored), a W3D
    // vertex material or shader material by name, a B&W2 material ("material 0"), a bone, a proxy, a light;
    // "" where the operation says "every".
    std::string target;
    std::string name;  // the parameter, or the old name/value a rename matches
    std::string value; // the new value as text (CP-1252 bytes for names): "0.5", "1 0.5 0", "1 0.5 0 1", "tex.dds"
    uint32_t first = 0, last = 0; // TrimClip: frames kept, inclusive
};

// An edit that cannot be made: the file, then what was not found or did not fit ("no material ROOF",
// "Diffuse takes 4 numbers, got 'red'"). Nothing is changed when it is thrown.
struct EditError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// "set MESH.PARAM = VALUE", "rename bone OLD -> NEW": the operation in words, for messages and the undo history.
std::string describeEdit(const EditOp& op);

// Helpers of the formats' applyEdit.
// `count` numbers from `value` (separated by spaces or commas; "#RRGGBB" / "#RRGGBBAA" give 3 / 4 numbers
// in 0..1); EditError "<file>: <what> takes N numbers, got '<value>'" otherwise (non-finite numbers refused).
std::vector<float> editNumbers(const std::string& value, size_t count, const std::string& file,
                               const std::string& what);
// A whole integer / a boolean ("1", "0", "true", "false", "yes", "no", "on", "off"), EditError otherwise.
int64_t editInteger(const std::string& value, const std::string& file, const std::string& what);
bool editBool(const std::string& value, const std::string& file, const std::string& what);
// Numbers as text ("0.5 1 0"), for Change::before/after.
std::string editText(const float* v, size_t count);
// Whether `target` ("MESH", "MESH#2", "") selects sub-mesh `index` of object `name` (ASCII case ignored; ""
// selects all).
bool editTargets(const std::string& target, const std::string& name, size_t index);

} // namespace rs
