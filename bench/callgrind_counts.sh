#!/usr/bin/env bash
# Instructions per byte parsed and per bone posed, counted by valgrind's callgrind: figures that do not depend on
# the machine's load (wall-clock MB/s on the shared 2-core machine swing by 1.5x between runs of the same build).
#
#   bench/callgrind_counts.sh [BENCH_BUILD_DIR] [PASSES]      (default build-bench, 2 passes)
#
# Runs bench_parse and bench_pose with --count=PASSES (bench/bench_common.h countWorkload: one warm-up pass, then
# PASSES passes between a zeroing of callgrind's counters and a named dump) and divides each dump's Ir (instructions
# executed) by the units of the workload:
#   parse: Parse/<set> over the corpus files of each set, as bench_parse times them (Resolver::read from memory)
#   pose:  FullPose/<rig>, 64 full poses (tracks + world + skin palette) a pass, as bench_pose times them
# One JSON object on stdout. Two runs of the same build give the same figures (to a few instructions per
# million: malloc's paths may differ); a figure that moves is a change of the code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build-bench}" && pwd)
passes=${2:-2}
export RIGSCOPE_CORPUS=${RIGSCOPE_CORPUS:-$here/../../shared/corpus}
command -v valgrind >/dev/null || { echo "callgrind_counts: valgrind not installed (tools/bootstrap.sh)" >&2; exit 2; }
for b in bench_parse bench_pose; do
  [ -x "$build/bin/$b" ] || { echo "callgrind_counts: $build/bin/$b not built (-DRIGSCOPE_BENCH=ON)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rows NAME: "<workload> <units per pass> <passes> <Ir>" per dump of the run named NAME
count() {
  local name=$1
  shift
  # A fixed environment and working folder: their size moves the initial stack, hence the alignment of stack
  # buffers and the paths memcpy takes (the counts moved by up to 2 % between a shell and tools/bench.sh without).
  (cd / && env -i PATH=/usr/bin:/bin RIGSCOPE_CORPUS="$RIGSCOPE_CORPUS" valgrind --tool=callgrind \
    --callgrind-out-file="$tmp/$name.%p.out" "$@" --count="$passes" >"$tmp/$name.txt" 2>"$tmp/$name.err") ||
    { cat "$tmp/$name.err" >&2; exit 1; }
  local f desc ir units
  for f in "$tmp/$name".*.out.*; do
    [ -f "$f" ] || continue
    desc=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
    ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$f")
    units=$(awk -v n="$desc" '$1 == "count" && $2 == n {print $3}' "$tmp/$name.txt")
    [ -n "$desc" ] && [ -n "$ir" ] && [ -n "$units" ] && echo "$desc $units $passes $ir"
  done
}

count parse "$build/bin/bench_parse" >"$tmp/parse.rows"
count pose "$build/bin/bench_pose" >"$tmp/pose.rows"

jq -n --rawfile p "$tmp/parse.rows" --rawfile q "$tmp/pose.rows" --arg vg "$(valgrind --version)" \
  --argjson passes "$passes" '
  def rows(s): s | split("\n") | map(select(length > 0) | split(" ") |
    {name: .[0], units: (.[1] | tonumber), passes: (.[2] | tonumber), ir: (.[3] | tonumber)});
  {tool: "valgrind --tool=callgrind", valgrind: $vg, passes: $passes,
   parse: [ rows($p)[] | {set: (.name | ltrimstr("Parse/")), bytes: .units, ir: .ir,
                          ir_per_byte: (.ir / (.units * .passes) * 1000 | round / 1000)} ],
   pose: [ rows($q)[] | {rig: (.name | ltrimstr("FullPose/")), bones: (.units / 64), ir: .ir,
                         ir_per_bone: (.ir / (.units * .passes) * 10 | round / 10)} ]}'
