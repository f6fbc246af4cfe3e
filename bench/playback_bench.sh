#!/usr/bin/env bash
# Playback cost of the viewer in a real X window (Xvfb, Mesa llvmpipe): the clip advances every frame while
# Qt3D renders continuously (`rigscope --screenshot ... --bench-fps SECONDS`, window shown on the X server).
#
#   bench/playback_bench.sh [BUILD_DIR] [MODEL CLIP] [SECONDS]        (runs itself under xvfb-run without DISPLAY)
#   PLAYBACK_SIZES="1280x720 1920x1080"  sizes to measure (default: 1280x720 1920x1080 2560x1440)
#   PLAYBACK_ARGS="--alt 3 --texture-dir DIR"  more rigscope options for every run (CLIP "none": no clip)
#   PLAYBACK_VARIANTS="NAME:[VAR=VALUE[;VAR=VALUE]] ..."  runs, each with its environment (default "current:",
#       none); e.g. "none:RIGSCOPE_FILL_OFF=prepass,notexture,lightcount all: noshade:LP_PERF=no_shade" measures
#       what the fill-rate steps (render/mesh_materials.h) bring, and what shading costs, in the same run;
#       BENCH_BUILD=DIR in a variant runs DIR/bin/rigscope instead (a build of another commit, same rotation);
#       ARGS=OPT[,OPT] adds rigscope options to that variant's runs (e.g. "none:ARGS=--no-particles")
#
# Default model: EB_LIGHTFACTORY.ALO with EB_LIGHTFACTORY_BUILD_00.ala (the corpus' largest Alamo model).
# Per size and variant: fps (wall clock, depends on the machine's load), CPU milliseconds per frame summed over
# all threads (Mesa's rasterizer threads included: the robust figure on a shared machine), and that CPU time per
# megapixel of framebuffer (the fill anchor: cost that scales with the window size). One JSON object.
# Qt3D paces frames with a 60 Hz timer: fps never exceeds ~60, whatever the CPU time per frame.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
corpus=${RIGSCOPE_CORPUS:-$here/../../shared/corpus}
m=$corpus/alamo/Delta730+Imperial_Civil_War/Data/Art/Models
model=${2:-$m/EB_LIGHTFACTORY.ALO}
clip=${3:-$m/EB_LIGHTFACTORY_BUILD_00.ala}
[ "$clip" = none ] && clip=""
seconds=${4:-6}
sizes=${PLAYBACK_SIZES:-1280x720 1920x1080 2560x1440}
variants=${PLAYBACK_VARIANTS:-current:}

if [ -z "${DISPLAY:-}" ]; then
  # The screen holds the largest window measured (a window larger than the screen is not what a user sees).
  exec xvfb-run -a -s "-screen 0 2600x1500x24" "$0" "$build" "$model" "${clip:-none}" "$seconds"
fi
[ -x "$build/bin/rigscope" ] || { echo "playback_bench: $build/bin/rigscope not built" >&2; exit 2; }
[ -f "$model" ] || { echo "playback_bench: no model $model" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every (size, variant) runs PLAYBACK_REPEAT times (default 3), interleaved, so that load changes on a shared
# machine hit all variants alike; the JSON gives the median and the minimum of each figure.
repeat=${PLAYBACK_REPEAT:-3}
rows=()
for r in $(seq "$repeat"); do
  for size in $sizes; do
    for v in $variants; do
      name=${v%%:*}
      envs=${v#*:}
      IFS=';' read -r -a assignments <<<"$envs"
      bin=$build/bin/rigscope
      extra=()
      for a in "${assignments[@]}"; do
        case $a in
        BENCH_BUILD=*) bin=${a#BENCH_BUILD=}/bin/rigscope ;;
        ARGS=*) IFS=',' read -r -a extra <<<"${a#ARGS=}" ;;
        esac
      done
      line=$(env "${assignments[@]}" "$bin" --screenshot "$tmp/p.png" --size "$size" \
               --bench-fps "$seconds" ${clip:+--clip "$clip"} ${PLAYBACK_ARGS:-} "${extra[@]}" "$model" 2>/dev/null | grep '^bench:' || true)
      frames='' fps='' cpu=''
      read -r frames fps cpu < <(echo "$line" |
        sed -n 's/^bench: \([0-9]*\) frames in [0-9.]* s = \([0-9.]*\) fps at [0-9x]*, \([0-9.]*\) ms CPU.*/\1 \2 \3/p') || true
      echo "playback_bench: run $r $name $size: ${fps:-?} fps, ${cpu:-?} ms CPU/frame" >&2
      rows+=("$(jq -n --arg v "$name" --arg env "$envs" --arg size "$size" --argjson px "$(( ${size%x*} * ${size#*x} ))" \
        --argjson frames "${frames:-null}" --argjson fps "${fps:-null}" --argjson cpu "${cpu:-null}" \
        '{variant: $v, env: $env, size: $size, pixels: $px, frames: $frames, fps: $fps, cpu: $cpu}')")
    done
  done
done
printf '%s\n' "${rows[@]}" | jq -s --arg model "$model" --arg clip "$clip" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  --argjson cores "$(nproc)" --argjson repeat "$repeat" '
  def med: sort | if length == 0 then null else .[(length - 1) / 2 | floor] end;
  def r2: if . == null then null else (. * 100 | round / 100) end;
  {model: $model, clip: $clip, load_average_at_end: $load, cores: $cores, repeat: $repeat,
   runs: (group_by([.size, .variant]) | map(
     (map(.cpu | select(. != null))) as $c | (map(.fps | select(. != null))) as $f |
     {variant: .[0].variant, env: .[0].env, size: .[0].size, pixels: .[0].pixels,
      fps_median: ($f | med), cpu_ms_per_frame_median: ($c | med), cpu_ms_per_frame_min: ($c | min),
      cpu_ms_per_megapixel_min: (if ($c | length) == 0 then null else (($c | min) / (.[0].pixels / 1e6) | r2) end)}))
  }'
