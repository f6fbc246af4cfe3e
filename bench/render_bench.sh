#!/bin/sh
# Render benchmarks (software OpenGL under Xvfb):
#   1. cold start: wall time of `rigscope --screenshot` (process start -> PNG written) and the time to the
#      first captured frame as reported by the process itself (RIGSCOPE_TIMING=1);
#   2. playback: frames per second at 1280x720 while the clip advances every frame (--bench-fps), plus
#      CPU milliseconds per frame summed over all threads (Mesa's rasterizer threads included).
# usage: bench/render_bench.sh [BUILD_DIR] [MODEL [CLIP]]   (default: the largest corpus models, or the demo)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
bin=$build/bin/rigscope
[ -x "$bin" ] || { echo "render_bench: $bin not built" >&2; exit 2; }
corpus=${RIGSCOPE_CORPUS:-$here/../../shared/corpus}
run() { xvfb-run -a -s "-screen 0 1400x900x24" "$@"; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

bench_one() { # model clip
  model=$1; clip=${2:-}
  name=$(basename "${model:-demo}")
  set -- ; [ -n "$clip" ] && set -- --clip "$clip"
  start=$(date +%s%N)
  first=$(RIGSCOPE_TIMING=1 run "$bin" --screenshot "$out/cold.png" --size 1280x720 "$@" ${model:+"$model"} 2>&1 |
          sed -n 's/.*first frame captured after \([0-9]*\) ms.*/\1/p')
  end=$(date +%s%N)
  echo "$name: cold start to PNG $(( (end - start) / 1000000 )) ms incl. xvfb-run (first frame captured after ${first:-?} ms in-process)"
  run "$bin" --screenshot "$out/bench.png" --size 1280x720 --bench-fps 8 "$@" ${model:+"$model"} 2>/dev/null | sed "s|^bench:|$name:|"
}

if [ $# -ge 2 ]; then
  bench_one "$2" "${3:-}"
  exit 0
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
bench_one "" ""
m=$corpus/alamo/Delta730+Imperial_Civil_War/Data/Art/Models
u=$corpus/alamo/UEaWDevTeam+ultimate-empire-at-war/Data/Art/Models
[ -f "$m/EB_LIGHTFACTORY.ALO" ] && bench_one "$m/EB_LIGHTFACTORY.ALO" "$m/EB_LIGHTFACTORY_OPEN_00.ala"
[ -f "$u/VSF_DELTA7.alo" ] && bench_one "$u/VSF_DELTA7.alo" ""
[ -f "$m/EI_STORMTROOPER.ALO" ] && bench_one "$m/EI_STORMTROOPER.ALO" "$m/EI_STORMTROOPER_MOVE_00.ala"
exit 0
