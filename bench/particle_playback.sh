#!/bin/sh
# Playback cost of particle systems on a model (software OpenGL under Xvfb): frames per second and CPU ms per frame
# of `rigscope --screenshot --bench-fps` for a model at an ALT level whose proxies name particle systems, with its
# particles and with --no-particles (goal: the frame time with particles within 20 % of the one without), and of a
# particle system alone.
# usage: bench/particle_playback.sh [BUILD_DIR] [SECONDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
secs=${2:-8}
bin=$build/bin/rigscope
[ -x "$bin" ] || { echo "particle_playback: $bin not built" >&2; exit 2; }
corpus=${RIGSCOPE_CORPUS:-$here/../../shared/corpus}
m=$corpus/alamo/Delta730+Imperial_Civil_War/Data/Art/Models
[ -f "$m/RV_T2BTANK.ALO" ] || { echo "particle_playback: corpus model RV_T2BTANK.ALO not found (set RIGSCOPE_CORPUS)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { xvfb-run -a -s "-screen 0 1400x900x24" "$@" 2>/dev/null; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for alt in 1 2; do
  for p in "" --no-particles; do
    printf 'RV_T2BTANK ALT%s %-14s ' "$alt" "${p:-particles}"
    run "$bin" --screenshot "$out/b.png" --size 1280x720 --alt "$alt" --time 0 $p --bench-fps "$secs" "$m/RV_T2BTANK.ALO" |
      sed 's/^bench: //'
  done
done
# UB_TLTower's systems (explosion, fire, smoke at ALT1..3) are in the other mod's folder: found through --texture-dir.
t=$corpus/alamo/cch2319+UFoCP-EAW-Campaign/Data/Art/Models/UB_TLTower.alo
if [ -f "$t" ]; then
  for p in "" --no-particles; do
    printf 'UB_TLTower ALT3 %-14s ' "${p:-particles}"
    run "$bin" --screenshot "$out/b.png" --size 1280x720 --alt 3 --texture-dir "$m" $p --bench-fps "$secs" "$t" |
      sed 's/^bench: //'
  done
fi
for f in P_FIRE_SMALL00 P_EXPLOSION_BIG00; do
  [ -f "$m/$f.ALO" ] || continue
  printf '%s alone ' "$f"
  run "$bin" --screenshot "$out/b.png" --size 1280x720 --bench-fps "$secs" "$m/$f.ALO" | sed 's/^bench: //'
done
