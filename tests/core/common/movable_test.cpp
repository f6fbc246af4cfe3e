// Model and clip types move without copying when vectors of them grow (GLM_FORCE_CTOR_INIT makes GLM's copy
// constructors user-provided and not noexcept; common/movable.h restores noexcept moves).
#include "scene/clip.h"
#include "scene/model.h"
#include "w3d/w3d_reader.h"

#include <catch2/catch.hpp>

#include <type_traits>

using namespace rs;

static_assert(std::is_nothrow_move_constructible_v<Bone> && std::is_nothrow_move_assignable_v<Bone>);
static_assert(std::is_nothrow_move_constructible_v<SubMesh> && std::is_nothrow_move_assignable_v<SubMesh>);
static_assert(std::is_nothrow_move_constructible_v<Mesh> && std::is_nothrow_move_assignable_v<Mesh>);
static_assert(std::is_nothrow_move_constructible_v<MaterialParam>);
static_assert(std::is_nothrow_move_constructible_v<Light> && std::is_nothrow_move_constructible_v<Dazzle>);
static_assert(std::is_nothrow_move_constructible_v<Marker>);
static_assert(std::is_nothrow_move_constructible_v<Model>);
static_assert(std::is_nothrow_move_constructible_v<BoneTrack> && std::is_nothrow_move_assignable_v<BoneTrack>);
static_assert(std::is_nothrow_move_constructible_v<ClipEvent> && std::is_nothrow_move_constructible_v<Clip>);
static_assert(std::is_nothrow_move_constructible_v<w3d::RawMesh> && std::is_nothrow_move_assignable_v<w3d::RawMesh>);
static_assert(std::is_nothrow_move_constructible_v<w3d::Pivot> && std::is_nothrow_move_constructible_v<w3d::Hierarchy>);
// Still aggregates with copies (the macro declares the copies too).
static_assert(std::is_aggregate_v<Bone> && std::is_copy_constructible_v<Mesh>);

TEST_CASE("model types: vector growth moves sub-meshes (buffers keep their address)", "[model]") {
    std::vector<SubMesh> v(1);
    v[0].positions.assign(1000, glm::vec3(1.0f));
    const glm::vec3* before = v[0].positions.data();
    v.resize(v.capacity() + 1); // reallocates
    REQUIRE(v[0].positions.data() == before);
    REQUIRE(v[0].positions.size() == 1000);
    Mesh m;
    m.subMeshes = v;
    Mesh copy = m; // copies still deep-copy
    REQUIRE(copy.subMeshes[0].positions.data() != before);
    REQUIRE(copy.subMeshes[0].positions == m.subMeshes[0].positions);
}
