#!/usr/bin/env bash
# Exports MODEL with CLIP, imports the .glb into Blender (Debian's blender, headless, its own glTF importer) and
# compares every bone's head position at the first, middle and last frame with `rigscope-cli pose`, joint by
# joint index (tools/blender_compare.py: real rigs repeat bone names). A frame passes when no joint's head is farther
# from Blender's than 1e-4 of the rig's size (the diagonal of the bone heads' bounding box; blender_compare.TOLERANCE).
# Blender's axes are the games' (glTF Y-up is converted back to Z-up by the importer), so positions compare as is.
#   tools/blender_check.sh MODEL CLIP        (needs build/bin/rigscope-cli, blender and python3-numpy)
set -euo pipefail
cd "$(dirname "$0")/.."
model=$1 clip=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cli=build/bin/rigscope-cli
"$cli" export "$model" --clip "$clip" -o "$tmp/out.glb" >/dev/null
read -r frames fps < <("$cli" info --json "$clip" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = d["clips"][0] if "clips" in d else d
print(c["frames"], c["fps"])')
last=$((frames - 1))
list="0,$((last / 2)),$last"
for f in ${list//,/ }; do "$cli" pose --json "$model" --clip "$clip" --frame "$f" >"$tmp/pose_$f.json"; done
# Joints are compared by index (names repeat in real rigs): the imported copy names joint k "J<k> <name>".
python3 -c 'import sys; sys.path.insert(0, "tools"); import blender_compare as c
open(sys.argv[2], "wb").write(c.tag_joints(open(sys.argv[1], "rb").read()))' "$tmp/out.glb" "$tmp/tagged.glb"
blender -b --factory-startup --python tools/blender_check.py -- "$tmp/tagged.glb" "$fps" "$list" >"$tmp/blender.log" 2>&1 ||
  { tail -20 "$tmp/blender.log"; exit 1; }
python3 - "$tmp" "$list" <<'PY'
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
    print("frame %s: %d bones, largest head difference %.2e (%.1e of the rig size %.3g; tolerance %.0e)"
          % (f, n, worst, worst / size, size, TOLERANCE))
sys.exit(0 if ok else 1)
PY
