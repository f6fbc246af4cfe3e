#!/usr/bin/env bash
# The Blender round trip of a model and its clips (issue 40's acceptance), in two parts:
#  1. Heads: exports MODEL with its CLIPs to glTF, imports that into Blender (Debian's blender 3.4, headless, its
#     own glTF importer) and compares every bone's head at the first, middle and last frame of the first clip with
#     `rigscope-cli pose`, joint by joint index (tools/blender_compare.py: real rigs repeat bone names). A frame
#     passes when no joint's head is farther from Blender's than 1e-4 of the rig's size (the diagonal of the bone
#     heads' bounding box; blender_compare.TOLERANCE). Blender's axes are the games' (the importer turns glTF's
#     Y up into Z up), so positions compare as is.
#  2. Round trip: Blender exports what it imported to glTF again (its exporter's defaults); the joints get their
#     own names back (blender_compare.untag_joints) and `rigscope-cli import` converts it to the MODEL's format
#     (.alo + .ala for Alamo, --game foc; .w3d skin + clip files for W3D, --game bfme unless --game is given).
#     Compared with the original, through the project's readers (`rigscope-cli info` and `pose`):
#       - the skeleton: every bone by name (the k-th of a repeated name to the k-th), its parent, no bone added,
#         the bind pose (1e-4 of the rig size, 1e-3 rad);
#       - each bone's own default visibility and billboard mode (info), and every bone's effective visibility
#         at every frame of every clip (pose);
#       - the drawn triangles: as many as the glTF rigscope exported holds (the model's drawn variant), against
#         the re-imported model's meshes that are neither hidden nor shadow/collision;
#       - the pose at every frame of every clip: world translation within
#         1e-4 x rig + sum over the bone's chain of (1.8 x half a quantisation step + 2e-4 x rig) (Alamo: the .ala
#         stores each translation channel in 16 bits over its range, half a step = range / 131070; W3D's
#         uncompressed clips hold floats, no step, but no scale either: the original's own bone scale, when its
#         quaternions are off unit length, adds that scale x rig per link), rotation within 1e-3 rad.
#     Blender exports with its defaults and custom properties included (export_extras: rigscope's node and
#     material extras, the Alamo shaders, proxies and W3D boxes, survive only so).
#   tools/blender_check.sh [--game G] MODEL CLIP [CLIP...]   (needs build/bin/rigscope-cli, blender, python3-numpy)
# Exit status: 0 everything within bounds, 1 a difference or a failure, 2 usage, 77 blender (or numpy for its
# python) is not installed (tools/bootstrap.sh deps blender installs both; ctest reports SKIPPED).
set -euo pipefail
cd "$(dirname "$0")/.."
game=""
if [ "${1:-}" = --game ]; then
  game=$2
  shift 2
fi
if [ $# -lt 2 ]; then
  echo "usage: tools/blender_check.sh [--game G] MODEL CLIP [CLIP...]" >&2
  exit 2
fi
if ! command -v blender >/dev/null 2>&1; then
  echo "blender_check: blender is not installed (tools/bootstrap.sh deps blender): skipped"
  exit 77
fi
model=$1
shift
clips=("$@")
cli=${RIGSCOPE_CLI:-build/bin/rigscope-cli}
[ -x "$cli" ] || { echo "blender_check: $cli not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clipargs=()
for c in "${clips[@]}"; do clipargs+=(--clip "$c"); done
"$cli" export "$model" "${clipargs[@]}" -o "$tmp/out.glb" >/dev/null
read -r frames fps anim < <("$cli" info --json "${clips[0]}" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = d["clips"][0] if "clips" in d else d
print(c["frames"], c["fps"], c["name"])')
last=$((frames - 1))
list="0,$((last / 2)),$last"
for f in ${list//,/ }; do "$cli" pose --json "$model" --clip "${clips[0]}" --frame "$f" >"$tmp/pose_$f.json"; done
# Joints are compared by index (names repeat in real rigs): the imported copy names joint k "J<k> <name>".
python3 -c 'import sys; sys.path.insert(0, "tools"); import blender_compare as c
open(sys.argv[2], "wb").write(c.tag_joints(open(sys.argv[1], "rb").read()))' "$tmp/out.glb" "$tmp/tagged.glb"
if ! blender -b --factory-startup --python tools/blender_check.py -- "$tmp/tagged.glb" "$fps" "$list" "$anim" \
  "$tmp/blender.glb" >"$tmp/blender.log" 2>&1; then
  if grep -q "No module named 'numpy'" "$tmp/blender.log"; then
    echo "blender_check: numpy is missing for Blender's python (tools/bootstrap.sh deps blender): skipped"
    exit 77
  fi
  tail -20 "$tmp/blender.log"
  exit 1
fi
grep -q RESULT "$tmp/blender.log" || { tail -20 "$tmp/blender.log"; exit 1; }
echo "blender: $(blender -v 2>/dev/null | head -1)"
status=0
python3 - "$tmp" "$list" <<'PY' || status=1
import json, sys
sys.path.insert(0, "tools")
from blender_compare import compare, within_tolerance, TOLERANCE
tmp, frames = sys.argv[1], sys.argv[2].split(",")
bl = json.loads(open(tmp + "/blender.log").read().split("RESULT", 1)[1].splitlines()[0])
ok = True
for f in frames:
    pose = json.load(open("%s/pose_%s.json" % (tmp, f)))
    n, worst, size = compare(pose["bones"], bl["frames"][f])
    ok = within_tolerance(worst, size) and ok
    print("heads, %s frame %s: %d bones, largest head difference %.2e (%.1e of the rig size %.3g; tolerance %.0e)"
          % (bl["action"], f, n, worst, worst / size, size, TOLERANCE))
sys.exit(0 if ok else 1)
PY

# 2. The round trip: Blender's glTF, joints named as before, imported by rigscope-cli.
python3 -c 'import sys; sys.path.insert(0, "tools"); import blender_compare as c
open(sys.argv[2], "wb").write(c.untag_joints(open(sys.argv[1], "rb").read()))' "$tmp/blender.glb" "$tmp/user.glb"
stem=$(basename "$model")
stem=${stem%.*}
ext=$(tr '[:upper:]' '[:lower:]' <<<"${model##*.}")
mkdir -p "$tmp/rt"
if [ "$ext" = w3d ]; then
  # SAGE names a skin <NAME>_SKN and its clips <NAME>_<CLIP>: the re-import is <NAME>.w3d (its clips then keep
  # their names within W3D's 15 characters).
  stem=$(tr '[:lower:]' '[:upper:]' <<<"$stem")
  stem=${stem%_SKN}
  out="$tmp/rt/${stem:0:10}.w3d"
  gameargs=(--game "${game:-bfme}")
else
  out="$tmp/rt/$stem.alo"
  gameargs=(--game "${game:-foc}")
fi
if ! "$cli" import "$tmp/user.glb" -o "$out" "${gameargs[@]}" >"$tmp/import.out" 2>"$tmp/import.err"; then
  cat "$tmp/import.err"
  exit 1
fi
sed 's/^/import: /' "$tmp/import.err"
python3 - "$cli" "$model" "$out" "$tmp" "${clips[@]}" <<'PY' || status=1
import json, subprocess, sys
sys.path.insert(0, "tools")
import blender_compare as bc

cli, model, back, tmp, clips = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
def run(*args):
    return json.loads(subprocess.run([cli] + list(args), check=True, capture_output=True, text=True).stdout)
def pose(m, clip=None, frame=None, vis=None):
    a = ["pose", "--json", m] + (["--clip", clip, "--frame", str(frame)] if clip else [])
    bones = run(*a)["bones"]
    if vis is not None:
        vis.append([b.get("visible", True) for b in bones])
    return [b["world"] for b in bones]
ok = True
oi, bi = run("info", "--json", model), run("info", "--json", back)
ob, bb = oi["bones"], bi["bones"]
mapping = bc.match_bones(ob, bb)
parents = [b["parent"] for b in ob]
bad_parent = [b["name"] for k, b in enumerate(ob)
              if (b["parent"] < 0 and bb[mapping[k]]["parent"] >= 0) or
              (b["parent"] >= 0 and bb[mapping[k]]["parent"] != mapping[b["parent"]])]
extra = sorted(set(range(len(bb))) - set(mapping))
bind_o, bind_b = pose(model), pose(back)
rig = bc.rig_size([{"world": w} for w in bind_o])
bind = bc.compare_frame(bind_o, bind_b, mapping, [1e-4 * rig] * len(ob))
print("skeleton: %d bones, %d in the re-import (%s), parents differing: %s; bind pose: largest translation %.2e "
      "(%.1e of the rig size %.3g), rotation %.2e rad" %
      (len(ob), len(bb), "added: " + ", ".join(bb[i]["name"] for i in extra) if extra else "none added",
       ", ".join(bad_parent) or "none", bind[1], bind[1] / rig, rig, bind[2]))
ok = ok and not extra and not bad_parent and bind[0] <= 1.0
# Each bone's own default visibility and billboard mode, as stored.
flags = [b["name"] for k, b in enumerate(ob)
         if (b.get("visible", True), b.get("billboard", 0)) !=
            (bb[mapping[k]].get("visible", True), bb[mapping[k]].get("billboard", 0))]
print("default visibility and billboard: %d bones hidden, %d billboarded; differing: %s" %
      (sum(1 for b in ob if not b.get("visible", True)), sum(1 for b in ob if b.get("billboard", 0)),
       ", ".join(flags) or "none"))
ok = ok and not flags
# Proxies (Alamo): each by name on its bone's counterpart.
def proxies(info, bones):
    return sorted((p["name"].lower(), bones[p["bone"]]["name"].lower()) for p in info.get("proxies", []))
po, pb = proxies(oi, ob), proxies(bi, bb)
print("proxies: %d, %d in the re-import%s" % (len(po), len(pb), "" if po == pb else " (DIFFER: %s / %s)" % (po, pb)))
ok = ok and po == pb

# Drawn triangles: the glTF rigscope exported (the drawn variant) against the re-imported drawn meshes.
import struct
raw = open(tmp + "/out.glb", "rb").read()
doc = json.loads(raw[20:20 + struct.unpack_from("<I", raw, 12)[0]])
used = {}
def walk(n):
    node = doc["nodes"][n]
    if "mesh" in node:
        used[node["mesh"]] = used.get(node["mesh"], 0) + 1
    for ch in node.get("children", []):
        walk(ch)
for r in doc["scenes"][doc.get("scene", 0)]["nodes"]:
    walk(r)
exported = sum(used[m] * sum((doc["accessors"][p["indices"]]["count"] if "indices" in p else
                              doc["accessors"][p["attributes"]["POSITION"]]["count"]) // 3
                             for p in doc["meshes"][m]["primitives"] if p.get("mode", 4) == 4) for m in used)
def drawn(info):
    return sum(s["triangles"] for m in info["meshes"]
               if not m.get("hidden") and not m.get("shadow_or_collision") and not m.get("collision")
               for s in m["submeshes"])
print("triangles: %d drawn in the original's exported variant, %d drawn in the re-import" % (exported, drawn(bi)))
ok = ok and exported == drawn(bi)

# Clips: the re-imported clip of each original, by name (import prints "PATH: clip NAME, N frames").
written = {}
for line in open(tmp + "/import.out"):
    if ": clip " in line:
        path, rest = line.rstrip("\n").split(": clip ", 1)
        written[rest.rsplit(", ", 1)[0].lower()] = path
is_ala = back.lower().endswith(".alo")
for c in clips:
    ci = run("info", "--json", c)
    ci = ci["clips"][0] if "clips" in ci else ci
    name = ci["name"].lower()
    if name not in written:
        print("clip %s: not in the re-import (%s)" % (ci["name"], ", ".join(written)))
        ok = False
        continue
    bc_info = run("info", "--json", written[name])
    bc_info = bc_info["clips"][0] if "clips" in bc_info else bc_info
    if bc_info["frames"] != ci["frames"] or bc_info["fps"] != ci["fps"]:
        print("clip %s: %s frames at %s fps, re-imported %s at %s" %
              (ci["name"], ci["frames"], ci["fps"], bc_info["frames"], bc_info["fps"]))
        ok = False
        continue
    vis_o, vis_b = [], []
    orig_frames = [pose(model, c, f, vis_o) for f in range(ci["frames"])]
    back_frames = [pose(back, written[name], f, vis_b) for f in range(ci["frames"])]
    # Effective visibility of every bone at every frame (its own flag, its ancestors' and the clip's tracks).
    vis_diff = [(f, ob[k]["name"]) for f in range(ci["frames"]) for k in range(len(ob))
                if vis_o[f][k] != vis_b[f][mapping[k]]]
    print("clip %s: visibility at every frame: %d bone-frames hidden in the original, %d differ%s" %
          (ci["name"], sum(1 for v in vis_o for x in v if not x), len(vis_diff),
           " (first: bone %s, frame %d)" % (vis_diff[0][1], vis_diff[0][0]) if vis_diff else ""))
    ok = ok and not vis_diff
    back_parents = [b["parent"] for b in bb]
    halves_back = bc.half_steps(back_frames, back_parents) if is_ala else [0.0] * len(bb)
    halves = [halves_back[mapping[k]] for k in range(len(ob))]
    # W3D clips hold no scale: the original's own (a stock clip's quaternions off unit length scale its bones
    # in the engine's matrix form; the importer drops it and says so) widens the bound by that scale times the
    # rig size per link.
    scale = 0.0 if is_ala else max(abs(sum(x * x for x in w[4 * k:4 * k + 3]) ** 0.5 - 1.0)
                                   for ws in orig_frames for w in ws for k in range(3))
    bounds = bc.pose_bounds(parents, halves, rig, scale)
    ratio, dt, dr, wb, wf = 0.0, 0.0, 0.0, -1, -1
    for f in range(ci["frames"]):
        r = bc.compare_frame(orig_frames[f], back_frames[f], mapping, bounds)
        if r[0] >= ratio:
            ratio, wb, wf = r[0], r[3], f
        dt, dr = max(dt, r[1]), max(dr, r[2])
    worst = (ratio, dt, dr, wb, wf)
    if scale:
        print("clip %s: the original's bones scale up to %.2e off 1 (not held by W3D clips)" % (ci["name"], scale))
    print("clip %s: %d frames; largest translation difference %.2e (%.1e of the rig size), rotation %.2e rad; "
          "worst against its bound: %.2f of it (bone %s, frame %d; bound %.2e)" %
          (ci["name"], ci["frames"], worst[1], worst[1] / rig, worst[2], worst[0],
           ob[worst[3]]["name"] if worst[3] >= 0 else "-", worst[4], bounds[worst[3]] if worst[3] >= 0 else 0))
    ok = ok and worst[0] <= 1.0
print("round trip: " + ("within bounds" if ok else "DIFFERS"))
sys.exit(0 if ok else 1)
PY
exit $status
