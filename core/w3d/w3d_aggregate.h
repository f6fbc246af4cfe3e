// Sub-objects that a W3D aggregate (0x600) or an HLOD aggregate array (0x705) names and its file does not hold, found
// as ww3d2 finds them: WW3DAssetManager::Create_Render_Obj loads "<name up to its first '.'>.w3d" on demand
// (AggregateDefClass::Create_Render_Object, Load_Assets). The reader leaves such sub-objects as markers of kind
// "aggregate" at their bone; the resolver (resolve/resolver.cpp) finds the file beside the model, in its archive or in
// the mounted folders, reads it and attaches it here.
#pragma once

#include "scene/model.h"

#include <string>

namespace rs::w3d {

// "GUN.BARREL" -> "GUN.w3d", "TURRET" -> "TURRET.w3d"; "" for an empty name or one starting with '.'.
std::string objectFileName(const std::string& objectName);

// Attaches `object` from `part` (a model read from objectFileName(object)) to bone `bone` of `m` (-1: the model
// origin), as HLodClass::Add_Sub_Object_To_Bone does: a name with a dot ("CONT.MESH") takes the mesh named after the
// dot; a name without one takes the whole model. part's bones are appended to m's skeleton (named
// "<object>/<bone>", its roots parented to `bone`, bind poses kept: they are not animated by m's clips), and its
// meshes, markers, particles, proxies, dazzles and lights follow with their bone indices moved. Returns false (m
// unchanged) when part holds no such object.
bool attachPart(Model& m, const Model& part, const std::string& object, int bone);

} // namespace rs::w3d
