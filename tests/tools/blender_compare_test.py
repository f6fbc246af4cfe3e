#!/usr/bin/env python3
"""tools/blender_compare.py: joints matched by index when bone names repeat (the AT-AT's four `Crusher` bones
and two `B_Body`), the .glb tagging that carries the index through Blender's import. Plain python3."""
import json
import math
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import blender_compare as bc  # noqa: E402

NAMES = ["Root", "B_Body", "Crusher", "Crusher", "B_Body", "Crusher", "Crusher", "Gun"]


def pose(heads):
    return [{"name": n, "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0] + list(h) + [1]} for n, h in zip(NAMES, heads)]


def glb(names):
    doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
           "nodes": [{"name": "model", "children": list(range(1, len(names) + 1))}] +
                    [{"name": n} for n in names],
           "skins": [{"joints": list(range(1, len(names) + 1))}]}
    text = json.dumps(doc).encode("utf-8")
    text += b" " * (-len(text) % 4)
    binary = b"\0\0\0\0"
    total = 12 + 8 + len(text) + 8 + len(binary)
    return (struct.pack("<III", 0x46546C67, 2, total) + struct.pack("<II", len(text), 0x4E4F534A) + text +
            struct.pack("<II", len(binary), 0x004E4942) + binary)


def blender_import(data):
    """What Blender's importer names the bones (names made unique with .001, .002, ...), in node order."""
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + length])
    seen, out = {}, []
    for node in doc["skins"][0]["joints"]:
        n = doc["nodes"][node]["name"]
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else "%s.%03d" % (n, k))
    return out


HEADS = [(0, 0, 0), (0, 0, 5), (3, 4, 1), (-3, 4, 1), (0, -6, 5), (3, -4, 1), (-3, -4, 1), (0, 8, 6)]


class BlenderCompareTest(unittest.TestCase):
    def test_tagging_keeps_the_glb_valid_and_every_index(self):
        data = bc.tag_joints(glb(NAMES))
        self.assertEqual(struct.unpack_from("<I", data, 8)[0], len(data))
        self.assertEqual(len(data) % 4, 0)
        names = blender_import(data)
        self.assertEqual([bc.joint_index(n) for n in names], list(range(len(NAMES))))
        self.assertEqual(len(set(names)), len(NAMES))

    def test_repeated_names_compare_by_index(self):
        names = blender_import(bc.tag_joints(glb(NAMES)))
        heads = {n: [h[0] + 3e-6, h[1], h[2]] for n, h in zip(names, HEADS)}
        n, worst, size = bc.compare(pose(HEADS), heads)
        self.assertEqual(n, len(NAMES))
        self.assertAlmostEqual(worst, 3e-6)
        self.assertTrue(bc.matches(pose(HEADS), heads))

    def test_a_wrong_joint_among_repeated_names_is_found(self):
        names = blender_import(bc.tag_joints(glb(NAMES)))
        wrong = list(HEADS)
        wrong[2], wrong[3] = wrong[3], wrong[2]  # two Crusher bones swapped
        heads = {n: list(h) for n, h in zip(names, wrong)}
        _, worst, _ = bc.compare(pose(HEADS), heads)
        self.assertAlmostEqual(worst, 6.0)

    def test_the_rig_size_is_the_diagonal_of_the_heads_bounds(self):
        # HEADS span x -3..3, y -6..8, z 0..6.
        self.assertAlmostEqual(bc.rig_size(pose(HEADS)), (6 ** 2 + 14 ** 2 + 6 ** 2) ** 0.5)

    def test_float_noise_of_a_large_rig_passes(self):
        # The held-out AT-AT MOVE (issue 38): 94 bones, a largest head difference of 3.4e-5 of the rig's size
        # (2.08e-3 on a rig about 61 units across), the float32 glTF transforms composed along its bone chains.
        # It failed when judged against 1e-5 of the largest coordinate.
        names = blender_import(bc.tag_joints(glb(NAMES)))
        size = bc.rig_size(pose(HEADS))
        off = 3.4e-5 * size
        heads = {n: [h[0], h[1] + off, h[2]] for n, h in zip(names, HEADS)}
        n, worst, got_size = bc.compare(pose(HEADS), heads)
        self.assertAlmostEqual(worst, off)
        self.assertAlmostEqual(got_size, size)
        self.assertTrue(bc.within_tolerance(worst, got_size))
        self.assertTrue(bc.matches(pose(HEADS), heads))
        # Scaled up 100 times (a rig of 1,640 units): the same fraction still passes.
        big = [tuple(100 * c for c in h) for h in HEADS]
        heads = {n: [h[0] + 100 * off, h[1], h[2]] for n, h in zip(names, big)}
        self.assertTrue(bc.matches(pose(big), heads))

    def test_a_real_mismatch_fails(self):
        names = blender_import(bc.tag_joints(glb(NAMES)))
        size = bc.rig_size(pose(HEADS))
        # One joint 1e-3 of the rig off (ten times the tolerance), along all three axes.
        off = 1e-3 * size / 3 ** 0.5
        heads = {n: list(h) for n, h in zip(names, HEADS)}
        heads[names[7]] = [c + off for c in HEADS[7]]
        n, worst, _ = bc.compare(pose(HEADS), heads)
        self.assertAlmostEqual(worst, 1e-3 * size)
        self.assertFalse(bc.matches(pose(HEADS), heads))
        # Just over the tolerance fails, just under passes.
        heads[names[7]] = [HEADS[7][0] + 1.01e-4 * size, HEADS[7][1], HEADS[7][2]]
        self.assertFalse(bc.matches(pose(HEADS), heads))
        heads[names[7]] = [HEADS[7][0] + 0.99e-4 * size, HEADS[7][1], HEADS[7][2]]
        self.assertTrue(bc.matches(pose(HEADS), heads))

    def test_a_missing_joint_is_an_error(self):
        names = blender_import(bc.tag_joints(glb(NAMES)))
        heads = {n: list(h) for n, h in zip(names[:-1], HEADS)}
        with self.assertRaises(ValueError):
            bc.compare(pose(HEADS), heads)

    # ---- the round trip's comparison

    def test_untagging_gives_every_node_its_own_name_back(self):
        data = bc.untag_joints(bc.tag_joints(glb(NAMES)))
        self.assertEqual(struct.unpack_from("<I", data, 8)[0], len(data))
        length = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20:20 + length])
        self.assertEqual([n["name"] for n in doc["nodes"]], ["model"] + NAMES)

    def test_bones_match_by_name_the_kth_repeat_to_the_kth(self):
        orig = [{"name": n, "parent": -1} for n in NAMES]
        back = [{"name": "Armature", "parent": -1}] + [{"name": n.upper(), "parent": 0} for n in reversed(NAMES)]
        m = bc.match_bones(orig, back)
        self.assertEqual(len(set(m)), len(NAMES))
        self.assertEqual([back[i]["name"].lower() for i in m], [n.lower() for n in NAMES])
        # The first Crusher of the original to the first Crusher of `back` (Armature, Gun, Crusher...: index 2 there),
        # the second to the second (3).
        self.assertEqual(m[2], 2)
        self.assertEqual(m[3], 3)
        with self.assertRaises(ValueError):
            bc.match_bones(orig + [{"name": "Gun", "parent": 0}], back)

    def test_rotation_angle_and_local_translation(self):
        c, s_ = math.cos(0.25), math.sin(0.25)
        rot = [c, s_, 0, 0, -s_, c, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]  # 0.25 rad about Z, at (1, 2, 3)
        ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        self.assertAlmostEqual(bc.rotation_angle(ident, rot), 0.25, places=6)
        child = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1 + c, 2 + s_, 3, 1]  # (1, 0, 0) in rot's space
        t = bc.local_translation(child, rot)
        self.assertAlmostEqual(t[0], 1.0, places=6)
        self.assertAlmostEqual(t[1], 0.0, places=6)

    def test_quantisation_bounds_grow_along_the_chain(self):
        ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        def at(x):
            return ident[:12] + [x, 0, 0, 1]
        # Bone 1 (child of 0) moves 0..2 along x: half a step is 2 / 131070.
        frames = [[at(0), at(0)], [at(0), at(2)]]
        halves = bc.half_steps(frames, [-1, 0])
        self.assertAlmostEqual(halves[0], 0.0)
        self.assertAlmostEqual(halves[1], 2 / 131070.0)
        b = bc.pose_bounds([-1, 0], halves, 10.0)
        self.assertAlmostEqual(b[0], 1e-3 + 2e-3)
        self.assertAlmostEqual(b[1], 1e-3 + 2 * 2e-3 + 1.8 * 2 / 131070.0)
        self.assertAlmostEqual(bc.pose_bounds([-1, 0], halves, 10.0, 0.01)[1] - b[1], 2 * 0.1)
        # A frame within its bound passes (ratio < 1), one beyond fails, the rotation judged against 1e-3 rad.
        r = bc.compare_frame([at(0), at(2)], [at(0), at(2 + 0.5 * b[1])], [0, 1], b)
        self.assertAlmostEqual(r[0], 0.5)
        self.assertEqual(r[3], 1)
        r = bc.compare_frame([at(0), at(2)], [at(0), at(2 + 2 * b[1])], [0, 1], b)
        self.assertGreater(r[0], 1.0)


if __name__ == "__main__":
    unittest.main()
