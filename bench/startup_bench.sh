#!/usr/bin/env bash
# Cold start of `rigscope --screenshot` against F3D on the same triangles (issue 17, start-up goal <= 1.0x F3D).
#
#   bench/startup_bench.sh [BUILD_DIR] [MODEL] [RUNS]      (inside one X server: the script runs itself under
#                                                          xvfb-run when DISPLAY is unset)
#
# The model (default: the ATPT walker of the corpus) is exported to .glb with the project's own
# `rigscope-cli export` from a private copy of the file (no companion clips, so the .glb holds exactly the
# triangles rigscope draws: highest LOD, ALT 0, no shadow or collision meshes). Then, after one warm-up run of
# each (file cache, Mesa's shader cache), RUNS alternating runs of
#   rigscope --screenshot OUT.png --size 640x480 --no-grid MODEL      (F3D draws no grid either)
#   f3d --output OUT.png --resolution 640,480 MODEL.glb
# are timed (wall: process start to exit, PNG written; CPU: user + system of the process and its threads).
# Prints one JSON object: medians, minimums and the ratio rigscope / F3D of the medians, all from the same run.
# STARTUP_BASELINE=OTHER_BUILD_DIR adds a third contender (e.g. a build of an older commit) to the same rotation.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
corpus=${RIGSCOPE_CORPUS:-$here/../../shared/corpus}
model=${2:-$corpus/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/ATPT.ALO}
runs=${3:-9}
size=${STARTUP_SIZE:-640x480}

if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1400x900x24" "$0" "$build" "$model" "$runs"
fi
for b in "$build/bin/rigscope" "$build/bin/rigscope-cli"; do
  [ -x "$b" ] || { echo "startup_bench: $b not built" >&2; exit 2; }
done
command -v f3d >/dev/null || { echo "startup_bench: f3d not installed (apt-get install f3d)" >&2; exit 2; }
[ -f "$model" ] || { echo "startup_bench: no model $model" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
cp "$model" "$tmp/src/"
"$build/bin/rigscope-cli" export "$tmp/src/$(basename "$model")" -o "$tmp/model.glb" >"$tmp/export.txt" 2>/dev/null
triangles=$(sed -n 's/.* \([0-9]*\) triangles.*/\1/p' "$tmp/export.txt")

# one_run NAME CMD... : appends "wall_ms cpu_ms" to $tmp/NAME
one_run() {
  local name=$1; shift
  local s e
  s=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o "$tmp/time.txt" "$@" >/dev/null 2>"$tmp/err.txt" ||
    { echo "startup_bench: $name failed:" >&2; cat "$tmp/err.txt" >&2; exit 1; }
  e=$(date +%s%N)
  awk -v w=$(( (e - s) / 1000000 )) '{printf "%d %d\n", w, ($1 + $2) * 1000}' "$tmp/time.txt" >>"$tmp/$name"
}
rs() { one_run "$1" "$build/bin/rigscope" --screenshot "$tmp/rs.png" --size "$size" --no-grid "$model"; }
baseline=${STARTUP_BASELINE:-}
bl() { [ -z "$baseline" ] || one_run "$1" "$baseline/bin/rigscope" --screenshot "$tmp/bl.png" --size "$size" --no-grid "$model"; }
f3() { one_run "$1" f3d --output="$tmp/f3d.png" --resolution="${size/x/,}" "$tmp/model.glb"; }

rs warm; f3 warm; bl warm
for i in $(seq "$runs"); do
  if [ $((i % 2)) -eq 1 ]; then rs rigscope; f3 f3d; bl baseline; else bl baseline; f3 f3d; rs rigscope; fi
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
stat_of() { # file column
  printf '{"median": %s, "min": %s}' "$(cut -d' ' -f"$2" "$tmp/$1" | median)" "$(cut -d' ' -f"$2" "$tmp/$1" | sort -n | head -1)"
}
jq -n --arg model "$model" --arg size "$size" --argjson runs "$runs" --argjson tri "${triangles:-null}" \
  --argjson rw "$(stat_of rigscope 1)" --argjson rc "$(stat_of rigscope 2)" \
  --argjson fw "$(stat_of f3d 1)" --argjson fc "$(stat_of f3d 2)" \
  --argjson bw "$([ -n "$baseline" ] && stat_of baseline 1 || echo null)" \
  --argjson bc "$([ -n "$baseline" ] && stat_of baseline 2 || echo null)" --arg bdir "$baseline" \
  --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" --arg f3dv "$(f3d --version 2>&1 | head -1)" '
  {model: $model, size: $size, triangles: $tri, runs: $runs, load_average: $load, f3d: $f3dv,
   rigscope: {wall_ms: $rw, cpu_ms: $rc}, f3d_run: {wall_ms: $fw, cpu_ms: $fc},
   ratio_wall_median: (($rw.median / $fw.median) * 1000 | round / 1000),
   ratio_cpu_median: (($rc.median / $fc.median) * 1000 | round / 1000)}
  + (if $bw == null then {} else {baseline: {build: $bdir, wall_ms: $bw, cpu_ms: $bc,
       ratio_wall_median: (($bw.median / $fw.median) * 1000 | round / 1000),
       ratio_cpu_median: (($bc.median / $fc.median) * 1000 | round / 1000)}} end)'
