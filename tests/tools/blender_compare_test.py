#!/usr/bin/env python3
"""tools/blender_compare.py: joints matched by index when bone names repeat (the AT-AT's four `Crusher` bones
and two `B_Body`), the .glb tagging that carries the index through Blender's import. Plain python3."""
import json
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
        self.assertLess(worst / size, 1e-5)

    def test_a_wrong_joint_among_repeated_names_is_found(self):
        names = blender_import(bc.tag_joints(glb(NAMES)))
        wrong = list(HEADS)
        wrong[2], wrong[3] = wrong[3], wrong[2]  # two Crusher bones swapped
        heads = {n: list(h) for n, h in zip(names, wrong)}
        _, worst, _ = bc.compare(pose(HEADS), heads)
        self.assertAlmostEqual(worst, 6.0)

    def test_a_missing_joint_is_an_error(self):
        names = blender_import(bc.tag_joints(glb(NAMES)))
        heads = {n: list(h) for n, h in zip(names[:-1], HEADS)}
        with self.assertRaises(ValueError):
            bc.compare(pose(HEADS), heads)


if __name__ == "__main__":
    unittest.main()
