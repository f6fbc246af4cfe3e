#!/usr/bin/env bash
# Issue 40's third-party acceptance, end to end: every glTF of the shared corpus (gltf/: a skinned walker, a rigid
# vehicle, a node-animated character) is imported by `rigscope-cli import`, drawn by the viewer and recorded
# (`rigscope --record`): with its first written clip when it has one, else as a turntable. Each recording must
#   - have frames (as ffprobe counts them: at least 2);
#   - move: its first and middle frames differ (PSNR below 50 dB);
#   - be what the viewer draws: frame k against `rigscope --screenshot --time k/fps` of the same files at the same
#     size, PSNR >= 33 dB (the H.264 bound of record_app_test.cpp; frame 0 and the middle frame).
# Exit 77 (ctest: SKIPPED) when the corpus or ffmpeg/ffprobe/xvfb-run are absent.
#   gltf_corpus_record_test.sh CORPUS_DIR RIGSCOPE_CLI RIGSCOPE
set -uo pipefail
corpus=$1 cli=$2 viewer=$3
for t in ffmpeg ffprobe xvfb-run; do command -v $t >/dev/null || { echo "$t not installed: skipped"; exit 77; }; done
[ -d "$corpus/gltf" ] || { echo "no $corpus/gltf: skipped"; exit 77; }
mapfile -t inputs < <(find "$corpus/gltf" -type f \( -iname '*.glb' -o -iname '*.gltf' \) | sort)
[ ${#inputs[@]} -ge 3 ] || { echo "FAIL: ${#inputs[@]} glTF files in $corpus/gltf, expected 3 or more"; exit 1; }
export QT3D_RENDERER=opengl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
view() { timeout 300 xvfb-run -a -s "-screen 0 1280x800x24 -noreset" "$viewer" "$@" >/dev/null 2>"$tmp/err.txt"; }
# psnr A B [select-frame-of-A]: the average PSNR (dB; "inf" when identical) of frame N of video A against image B.
psnr() {
  ffmpeg -v info -nostats -i "$1" -i "$2" -lavfi "[0:v]select=eq(n\,$3),setpts=PTS-STARTPTS[a];[a][1:v]psnr" \
    -frames:v 1 -f null - 2>&1 | sed -n 's/.*average:\([0-9.inf]*\).*/\1/p' | tail -1
}
below() { [ "$1" != inf ] && awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
fail=0
for in in "${inputs[@]}"; do
  name=$(basename "${in%.*}" | tr -c 'A-Za-z0-9\n' '_')
  dir=$tmp/$name
  mkdir -p "$dir"
  if ! "$cli" import "$in" -o "$dir/$name.alo" >"$dir/import.txt" 2>&1; then
    echo "FAIL $in: import: $(tail -3 "$dir/import.txt")"; fail=1; continue
  fi
  clip=$(find "$dir" -iname '*.ala' | sort | head -1)
  common=("$dir/$name.alo" --size 320x240)
  if [ -n "$clip" ]; then common+=(--clip "$clip"); how="clip $(basename "$clip")"; shot=(); else
    how="turntable 2 s"; shot=(--orbit); fi
  extra=(); [ -z "$clip" ] && extra=(--turntable 2)
  if ! view "${common[@]}" --record "$dir/out.mp4" --fps 10 "${extra[@]}"; then
    echo "FAIL $in: record: $(tail -3 "$tmp/err.txt")"; fail=1; continue
  fi
  frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 \
    "$dir/out.mp4")
  if [ "${frames:-0}" -lt 2 ]; then echo "FAIL $in: $frames frames recorded"; fail=1; continue; fi
  mid=$((frames / 2))
  ffmpeg -v error -y -i "$dir/out.mp4" -vf "select=eq(n\,0)" -frames:v 1 "$dir/first.png"
  moved=$(psnr "$dir/out.mp4" "$dir/first.png" $mid)
  line="$in ($how): $frames frames; first against middle $moved dB"
  below "$moved" 50 || { echo "FAIL $line: the recording does not move"; fail=1; }
  for k in 0 $mid; do
    t=$(awk -v k=$k 'BEGIN { printf "%.17g", k / 10 }')
    yaw=35
    [ -z "$clip" ] && yaw=$(awk -v t="$t" 'BEGIN { printf "%.17g", 35 + 360 * t / 2 }')
    if ! view "${common[@]}" "${shot[@]}" --screenshot "$dir/shot$k.png" --time "$t" --yaw "$yaw"; then
      echo "FAIL $in: screenshot at $t s: $(tail -3 "$tmp/err.txt")"; fail=1; continue
    fi
    p=$(psnr "$dir/out.mp4" "$dir/shot$k.png" $k)
    line="$line; frame $k against its screenshot $p dB"
    if [ "$p" != inf ] && below "${p:-0}" 33; then echo "FAIL $in: frame $k against its screenshot: $p dB"; fail=1; fi
  done
  echo "$line"
done
[ $fail = 0 ] && echo "all ${#inputs[@]} corpus glTF files imported, drawn and recorded"
exit $fail
