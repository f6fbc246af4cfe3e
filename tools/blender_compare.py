"""Joint-by-joint comparison for tools/blender_check.sh (plain python3, no Blender needed).

Bones are matched by joint index, never by name: real Alamo rigs repeat names (the AT-AT has four `Crusher`
bones and two `B_Body`), and Blender renames repeats (`Crusher.001`). rigscope writes skin joint k as the node
of skeleton bone k, the order `rigscope-cli pose` lists bones in; tag_joints() renames joint k's node to
joint_name(k, name) so that the Blender import keeps the index in the bone's name.
"""
import json
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
