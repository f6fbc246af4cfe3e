"""Joint-by-joint comparison for tools/blender_check.sh (plain python3, no Blender needed).

Bones are matched by joint index, never by name: real Alamo rigs repeat names (the AT-AT has four `Crusher`
bones and two `B_Body`), and Blender renames repeats (`Crusher.001`). rigscope writes skin joint k as the node
of skeleton bone k, the order `rigscope-cli pose` lists bones in; tag_joints() renames joint k's node to
joint_name(k, name) so that the Blender import keeps the index in the bone's name.
"""
import json
import math
import struct

_PREFIX = "J%04d "


def joint_name(index, name):
    """The node name written for joint `index` (Blender keeps at most 63 bytes of a bone name)."""
    return (_PREFIX % index) + name


def joint_index(bone_name):
    """The joint index in a tagged bone name, or None for a bone that is not a tagged joint."""
    if len(bone_name) < 6 or bone_name[0] != "J" or bone_name[5] != " " or not bone_name[1:5].isdigit():
        return None
    return int(bone_name[1:5])


def tag_joints(glb):
    """A copy of the .glb bytes whose skin-0 joint nodes are named joint_name(k, name)."""
    magic, version, _ = struct.unpack_from("<III", glb, 0)
    if magic != 0x46546C67:
        raise ValueError("not a .glb file")
    length, kind = struct.unpack_from("<II", glb, 12)
    if kind != 0x4E4F534A:
        raise ValueError("first .glb chunk is not JSON")
    doc = json.loads(glb[20:20 + length].decode("utf-8"))
    rest = glb[20 + length:]
    for k, node in enumerate(doc.get("skins", [{}])[0].get("joints", []) if doc.get("skins") else []):
        n = doc["nodes"][node]
        n["name"] = joint_name(k, n.get("name", ""))
    text = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + len(rest)
    return struct.pack("<III", magic, version, total) + struct.pack("<II", len(text), kind) + text + rest


def untag_joints(glb):
    """A copy of the .glb bytes with every node name tagged by tag_joints (as Blender exports it again) given its
    own name back ("J0003 B_Chest" -> "B_Chest"): the glTF as a user's round trip would hold it, for the importer
    to read naming conventions (Root, P_ proxies, _LOD) from."""
    magic, version, _ = struct.unpack_from("<III", glb, 0)
    if magic != 0x46546C67:
        raise ValueError("not a .glb file")
    length, kind = struct.unpack_from("<II", glb, 12)
    if kind != 0x4E4F534A:
        raise ValueError("first .glb chunk is not JSON")
    doc = json.loads(glb[20:20 + length].decode("utf-8"))
    rest = glb[20 + length:]
    for n in doc.get("nodes", []):
        if joint_index(n.get("name", "")) is not None:
            n["name"] = n["name"][6:]
    text = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + len(rest)
    return struct.pack("<III", magic, version, total) + struct.pack("<II", len(text), kind) + text + rest


# A pose matches when no joint's head is farther from Blender's than this fraction of the rig's size (the
# diagonal of the bounding box of the bone heads), as the project's other pose comparisons judge translations
# relative to the rig (tests/core/scene/engine_pose_test.cpp, tests/export/gltf_export_test.cpp: 1e-4). Float32
# glTF transforms composed along a long bone chain differ by a few 1e-5 of the rig from rigscope's own pose.
TOLERANCE = 1e-4


def rig_size(pose_bones):
    """The diagonal of the bounding box of the bone heads of a `rigscope-cli pose` bone list (at least 1e-6)."""
    if not pose_bones:
        return 1e-6
    heads = [b["world"][12:15] for b in pose_bones]
    lo = [min(h[i] for h in heads) for i in range(3)]
    hi = [max(h[i] for h in heads) for i in range(3)]
    return max(1e-6, sum((b - a) ** 2 for a, b in zip(lo, hi)) ** 0.5)


def compare(pose_bones, blender_heads):
    """Largest head difference between `rigscope-cli pose` bones (list of {"name", "world"[16]}, index order)
    and Blender's heads ({tagged bone name: [x, y, z]}), matched by joint index.

    Returns (bones compared, largest distance between a joint's two heads, rig size (rig_size)). Raises
    ValueError when a pose bone has no Blender bone of its index.
    """
    by_index = {}
    for name, head in blender_heads.items():
        k = joint_index(name)
        if k is not None:
            by_index[k] = head
    worst = 0.0
    for k, b in enumerate(pose_bones):
        if k not in by_index:
            raise ValueError("joint %d (%s) missing from the Blender import" % (k, b["name"]))
        t = b["world"][12:15]
        worst = max(worst, sum((x - y) ** 2 for x, y in zip(t, by_index[k])) ** 0.5)
    return len(pose_bones), worst, rig_size(pose_bones)


def within_tolerance(worst, size):
    """The verdict on compare()'s largest difference and rig size."""
    return worst <= TOLERANCE * size


def matches(pose_bones, blender_heads):
    """True when every joint's head is within TOLERANCE of the rig size of Blender's (see compare)."""
    _, worst, size = compare(pose_bones, blender_heads)
    return within_tolerance(worst, size)


# ---- the round trip (tools/blender_check.sh: rigscope glTF -> Blender -> glTF -> rigscope-cli import)
#
# The original and the re-imported model are compared through `rigscope-cli info --json` (bones, meshes) and
# `rigscope-cli pose --json` (world matrices, column-major), both read by the project's readers.

# Rotations: the largest angle between a bone's two world rotations (radians), as the import tests judge poses.
ROTATION_TOLERANCE = 1e-3
# Alamo .ala quantisation (import/gltf_import.h): each animated translation channel is stored as 16 bits with
# offset = minimum and scale = range / 65535 over the clip, so a component is off by at most half a step,
# range / 131070; a bone's translation by at most |range vector| / 131070. Rotations are 16-bit components
# (below 1e-4 rad per bone). The world position of bone b is then within
#     1e-4 x rig + sum over b and its ancestors a of (1.8 x halfstep(a) + 2e-4 x rig)
# of the original (the 2e-4 x rig per link covers a parent's rotation error swinging the child), the bound
# tests/import/import_test.cpp's corpus round trip uses. W3D clips written uncompressed hold floats: halfstep 0.
ALA_STEPS = 131070.0


def match_bones(orig, back):
    """Index of each original bone in `back` (lists of {"name", "parent"} from `rigscope-cli info --json`):
    matched by name, case-insensitive (W3D stores names upper case), the k-th bone of a repeated name to the
    k-th of that name. Raises ValueError naming the first original bone with no counterpart."""
    slots = {}
    for i, b in enumerate(back):
        slots.setdefault(b["name"].lower(), []).append(i)
    used = {}
    out = []
    for b in orig:
        key = b["name"].lower()
        k = used.get(key, 0)
        used[key] = k + 1
        if k >= len(slots.get(key, [])):
            raise ValueError("bone %r has no counterpart in the re-imported model" % b["name"])
        out.append(slots[key][k])
    return out


def _mat(world):
    """Column-major 16 floats -> rows [[r00, r01, r02, t0], ...] (3 x 4)."""
    return [[world[c * 4 + r] for c in range(4)] for r in range(3)]


def rotation_angle(wa, wb):
    """Angle (radians) of the rotation between two world matrices' orthonormalised rotation parts."""
    def unit_cols(w):
        cols = [w[0:3], w[4:7], w[8:11]]
        out = []
        for c in cols:
            n = sum(x * x for x in c) ** 0.5 or 1.0
            out.append([x / n for x in c])
        return out
    a, b = unit_cols(wa), unit_cols(wb)
    trace = sum(sum(a[k][i] * b[k][i] for i in range(3)) for k in range(3))  # trace(A^T B)
    return math.acos(max(-1.0, min(1.0, (trace - 1.0) / 2.0)))


def local_translation(world, parent_world):
    """The bone's translation in its parent's space (parent rotation assumed orthogonal up to scale)."""
    t = [world[12] - parent_world[12], world[13] - parent_world[13], world[14] - parent_world[14]]
    cols = [parent_world[0:3], parent_world[4:7], parent_world[8:11]]
    out = []
    for c in cols:
        n2 = sum(x * x for x in c) or 1.0
        out.append(sum(x * y for x, y in zip(c, t)) / n2)
    return out


def half_steps(frames, parents):
    """Per bone, |range of its local translation over the clip's frames| / ALA_STEPS: `frames` is a list of
    per-frame world matrix lists (one clip), `parents` the parent index of each bone."""
    lo = [None] * len(parents)
    hi = [None] * len(parents)
    for worlds in frames:
        for b, p in enumerate(parents):
            t = worlds[b][12:15] if p < 0 else local_translation(worlds[b], worlds[p])
            lo[b] = t if lo[b] is None else [min(x, y) for x, y in zip(lo[b], t)]
            hi[b] = t if hi[b] is None else [max(x, y) for x, y in zip(hi[b], t)]
    return [0.0 if lo[b] is None else sum((y - x) ** 2 for x, y in zip(lo[b], hi[b])) ** 0.5 / ALA_STEPS
            for b in range(len(parents))]


def pose_bounds(parents, halves, rig, scale=0.0):
    """Per bone, the translation bound of the comment above (halves: half_steps, or zeros); `scale`, the
    original's bone scale off 1 that the re-import cannot hold (W3D), adds scale x rig per link."""
    out = []
    for b in range(len(parents)):
        bound, a = 1e-4 * rig, b
        while a >= 0:
            bound += 1.8 * halves[a] + 2e-4 * rig + scale * rig
            a = parents[a]
        out.append(bound)
    return out


def compare_frame(orig_worlds, back_worlds, mapping, bounds):
    """(largest translation difference / its bone's bound, largest translation difference, largest rotation
    angle, index of the worst bone) between the original's bones and their counterparts (mapping)."""
    worst_ratio, worst_t, worst_r, worst_b = 0.0, 0.0, 0.0, -1
    for b, m in enumerate(mapping):
        wa, wb = orig_worlds[b], back_worlds[m]
        d = sum((x - y) ** 2 for x, y in zip(wa[12:15], wb[12:15])) ** 0.5
        r = rotation_angle(wa, wb)
        ratio = max(d / bounds[b], r / ROTATION_TOLERANCE)
        if ratio > worst_ratio:
            worst_ratio, worst_b = ratio, b
        worst_t, worst_r = max(worst_t, d), max(worst_r, r)
    return worst_ratio, worst_t, worst_r, worst_b
