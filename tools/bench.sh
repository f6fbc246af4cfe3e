#!/usr/bin/env bash
# Every figure docs/PERFORMANCE.md reports, from one run, into one JSON file with the machine's load beside them:
#   tools/bench.sh [--quick] [--out FILE] [--build DIR] [--gui-build DIR]
#     --out FILE       where the JSON goes (default docs/bench-YYYY-MM-DD.json); progress goes to stderr
#     --build DIR      a build with the benchmarks (-DRIGSCOPE_BENCH=ON or a test build); default: build-bench/,
#                      configured and built here (RelWithDebInfo like the default build, GUI off)
#     --gui-build DIR  the build whose bin/rigscope the start-up and playback figures run (default build/; those
#                      blocks are null without it)
#     --quick          tiny workloads (the JSON shape test, tests/setup/bench_json_test.sh): same keys, figures
#                      not meant to be read
# Blocks of the JSON:
#   machine          nproc, CPU model, Mesa version (libgl1-mesa-dri), load average before and after the run,
#                    date, commit; every wall-clock figure depends on that load, the instruction counts do not
#   parse, per_file  MB/s per corpus folder and overall (loadDocument from memory) and the ratio to memcpy of the
#                    same bytes in the same run; time per file against file size (least-squares line)
#   pose, instances1000  ns per bone of a full pose per rig and the ratio to a naive GLM loop; poses/s for 1,000
#   instructions     callgrind's instructions per byte parsed and per bone posed (bench/callgrind_counts.sh)
#   startup          cold start of `rigscope --screenshot` for the largest corpus model, peak RSS
#   startup_vs_f3d   bench/startup_bench.sh: the ATPT walker at 640x480 against F3D on the same triangles
#   playback         bench/playback_bench.sh: EB_LIGHTFACTORY + BUILD clip at 1280x720, 1920x1080, 2560x1440
#   particle_playback  bench/playback_bench.sh: UB_TLTower ALT3 with and without its particles, same sizes
#   fill_floor       bench/gui/fill_floor: ms per full-window fragment pass (constant colour, texelFetch, bilinear,
#                    a not-taken uniform branch) at the same sizes: the anchor of the particle composite's cost
#   objects          bench_objects: object database indexing per corpus mod
#   check            check_bench: rigscope-cli check's core on the largest corpus mod and a writer-made mod
#   thumbnails       bench/thumbnail_bench: pictures per second over every corpus model (1 and 2 threads) and
#                    frame times scrolling a 20,000-entry grid while pictures are made
#   sage             bench/sage_bench: W3X parse MB/s against the W3D reader on the same model (the corpus Lorien
#                    warrior written both ways) and SAGE particles' simulation ns per particle against the Alamo
#                    one, as ratios
#   import           bench/import_bench: glTF import of a generated 50,000-triangle, 100-joint, 20-clip GLB into
#                    the Alamo files (made and read back, in memory) against reading its bytes, the anchor, in the
#                    same run (best of 7 runs; 1 with --quick)
# Rates of core benchmarks use the CPU time of the benchmark thread; playback gives fps (wall clock, 60 Hz
# pacing) and CPU ms per frame over all threads.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
quick=0 out='' bbuild='' gbuild=build
while [ $# -gt 0 ]; do
  case $1 in
  --quick) quick=1 ;;
  --out) out=$2; shift ;;
  --build) bbuild=$2; shift ;;
  --gui-build) gbuild=$2; shift ;;
  *) echo "usage: tools/bench.sh [--quick] [--out FILE] [--build DIR] [--gui-build DIR]" >&2; exit 2 ;;
  esac
  shift
done
out=${out:-docs/bench-$(date +%F).json}
export RIGSCOPE_CORPUS=${RIGSCOPE_CORPUS:-$(cd .. && pwd)/shared/corpus}
for t in jq valgrind; do command -v $t >/dev/null || { echo "bench: $t not installed (tools/bootstrap.sh)" >&2; exit 2; }; done
load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before=$(load)

if [ -z "$bbuild" ]; then
  bbuild=build-bench
  cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGSCOPE_GUI=OFF -DRIGSCOPE_TESTS=OFF \
    -DRIGSCOPE_BENCH=ON >/dev/null
  # rigscope-cli too: the start-up figures below measure its parse-only peak RSS.
  cmake --build build-bench -j"$(nproc)" --target bench_parse bench_pose bench_objects check_bench sage_bench import_bench rigscope-cli >&2
fi
bin=$bbuild/bin
for b in bench_parse bench_pose bench_objects check_bench sage_bench import_bench rigscope-cli; do
  [ -x "$bin/$b" ] || { echo "bench: $bin/$b not built" >&2; exit 2; }
done
gui=''
[ -x "$gbuild/bin/rigscope" ] && command -v xvfb-run >/dev/null && gui=$(cd "$gbuild" && pwd)

if [ $quick = 1 ]; then
  mintime=0.01 parse_filter='Parse/|Memcpy/|PerFile/' passes=1 secs=1 repeat=1 sizes=1280x720 runs=1
else
  mintime=1 parse_filter='.' passes=2 secs=6 repeat=3 sizes='1280x720 1920x1080 2560x1440' runs=9
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# json_or FILE FALLBACK: FILE is left when it holds one JSON value, else FALLBACK is written to it (`jq -e .` alone
# accepts an empty file: it reads no value and exits 0).
json_or() { [ "$(jq -s length "$1" 2>/dev/null)" = 1 ] || echo "$2" >"$1"; }

echo "bench: parse, pose (Google Benchmark)" >&2
"$bin/bench_parse" --benchmark_min_time=$mintime --benchmark_filter="$parse_filter" --benchmark_format=json \
  >"$tmp/parse.json" 2>/dev/null || true
# Without the corpus bench_parse has no set to run and prints no JSON: an empty list keeps the report's shape.
json_or "$tmp/parse.json" '{"context": {}, "benchmarks": []}'
"$bin/bench_pose" --benchmark_min_time=$mintime --benchmark_format=json >"$tmp/pose.json" 2>/dev/null
echo "bench: instruction counts (bench/callgrind_counts.sh, $passes pass(es))" >&2
bench/callgrind_counts.sh "$bbuild" "$passes" >"$tmp/counts.json"
echo "bench: object indexing (bench_objects)" >&2
"$bin/bench_objects" --benchmark_min_time=$mintime --benchmark_format=json >"$tmp/objects.json" 2>/dev/null
json_or "$tmp/objects.json" '{"benchmarks": []}'
echo "bench: SAGE against W3D and Alamo (sage_bench)" >&2
if [ $quick = 1 ]; then "$bin/sage_bench" --repeat 1 --frames 4; else "$bin/sage_bench"; fi >"$tmp/sage.json"
json_or "$tmp/sage.json" '{"absent": "sage_bench output not understood"}'
echo "bench: glTF import against reading its bytes (import_bench)" >&2
"$bin/import_bench" "$([ $quick = 1 ] && echo 1 || echo 7)" >"$tmp/import.json" 2>/dev/null || true
json_or "$tmp/import.json" '{"absent": "import_bench output not understood"}'
echo "bench: mod check (check_bench)" >&2
if [ $quick = 1 ]; then "$bin/check_bench" --assets 200 --repeat 1; else "$bin/check_bench"; fi >"$tmp/check.txt"
# check_bench's text: a title line per data set, then "parse", "check 1 thread", "check 2 threads" lines and a
# "findings N; ... speed-up of 2 threads over 1: X.XXx" line.
awk '
  /^[^ ].*\(.*\)$/ { if (n++) printf ","; t = $0; sub(/ \(.*$/, "", t); printf "{\"set\":\"%s\",\"runs\":[", t; r = 0 }
  /^  (parse|check 1 thread|check 2 threads) / {
    line = $0; sub(/^  /, "", line); what = line; sub(/ +[0-9]+ files.*/, "", what)
    split(substr(line, length(what) + 1), f, " +")
    if (r++) printf ","
    printf "{\"what\":\"%s\",\"files\":%s,\"mb\":%s,\"seconds\":%s,\"files_per_s\":%s,\"mb_per_s\":%s}", what, f[2], f[4], f[6], f[8], f[10]
  }
  /^  findings/ { match($0, /findings [0-9]+/); fi = substr($0, RSTART + 9, RLENGTH - 9)
    match($0, /over 1: [0-9.]+x/); sp = substr($0, RSTART + 8, RLENGTH - 9)
    printf "],\"findings\":%s,\"speedup_2_threads\":%s}", fi, sp }
  BEGIN { printf "[" } END { printf "]" }' "$tmp/check.txt" >"$tmp/check.json"

startup='null' startup_f3d='null' playback='null' particles='null'
fill_floor='{"absent": "needs a GUI build with fill_floor and xvfb-run"}'
thumbnails='{"absent": "needs a GUI build with thumbnail_bench and xvfb-run"}'
largest=$(find "$RIGSCOPE_CORPUS" -type f \( -iname '*.alo' -o -iname '*.w3d' -o -iname '*.bwm' \) -printf '%s %p\n' \
  2>/dev/null | sort -n | tail -1 | cut -d' ' -f2- || true)
if [ -n "$gui" ] && [ -n "$largest" ]; then
  echo "bench: cold start of $largest" >&2
  xvfb() { xvfb-run -a -s "-screen 0 1400x900x24" "$@"; }
  # One warm-up run (file cache, Mesa shader cache), then timed runs of the rigscope process under Xvfb: median
  # wall time (process start to exit, PNG written), median in-process time to the first captured frame, peak RSS.
  walls=() firsts=() rss=0
  for i in $(seq 0 $((quick ? 1 : 3))); do
    RIGSCOPE_TIMING=1 xvfb /usr/bin/time -v -o "$tmp/time.txt" "$gui/bin/rigscope" --screenshot "$tmp/shot.png" \
      --size 1280x720 "$largest" >"$tmp/out.txt" 2>&1 || true
    [ "$i" -eq 0 ] && continue
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$tmp/time.txt")")
    firsts+=("$(sed -n 's/.*first frame captured after \([0-9]*\) ms.*/\1/p' "$tmp/out.txt" | head -1)")
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time.txt")
    [ "${r:-0}" -gt "$rss" ] && rss=$r
  done
  med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
  wall=$(med "${walls[@]}") first=$(med "${firsts[@]}")
  /usr/bin/time -v -o "$tmp/cli.txt" "$bin/rigscope-cli" info "$largest" >/dev/null
  clirss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/cli.txt")
  startup=$(jq -n --arg f "$largest" --argjson b "$(stat -c %s "$largest")" \
    --argjson wall "${wall:-null}" --argjson first "${first:-null}" --argjson rss "$rss" --argjson clirss "${clirss:-null}" \
    '{model: $f, size_bytes: $b, cold_start_wall_s_median: $wall, first_frame_ms_median: $first,
      peak_rss_kib: $rss, parse_only_peak_rss_kib: $clirss}')
  if command -v f3d >/dev/null; then
    echo "bench: start-up against F3D (bench/startup_bench.sh)" >&2
    startup_f3d=$(bench/startup_bench.sh "$gui" "" "$runs" 2>/dev/null || echo null)
  fi
  echo "bench: playback (bench/playback_bench.sh) at $sizes" >&2
  playback=$(PLAYBACK_SIZES="$sizes" PLAYBACK_REPEAT=$repeat bench/playback_bench.sh "$gui" "" "" "$secs" || echo null)
  models=$RIGSCOPE_CORPUS/alamo/Delta730+Imperial_Civil_War/Data/Art/Models
  tower=$RIGSCOPE_CORPUS/alamo/cch2319+UFoCP-EAW-Campaign/Data/Art/Models/UB_TLTower.alo
  if [ -x "$gui/bin/thumbnail_bench" ]; then
    echo "bench: thumbnails (thumbnail_bench)" >&2
    xvfb-run -a -s "-screen 0 1920x1080x24" "$gui/bin/thumbnail_bench" --repeat "$repeat" \
      --frames $((quick ? 60 : 600)) >"$tmp/thumbs.txt" 2>/dev/null || true
    # "  N thread(s): LO - HI pictures/s (D drawn, F cannot be drawn), R runs" and
    # "  run K making pictures|workers paused : frame ms p50 A p95 B p99 C max D, O of F frames over 16.7 ms, ..."
    thumbnails=$(awk '
      /^  [0-9]+ threads?:/ { n=$1; printf "%s{\"threads\": %s, \"pictures_per_s_min\": %s, \"pictures_per_s_max\": %s}", (t++ ? "," : ""), n, $3, $5 }
      /^  run [0-9]+ / { w = ($0 ~ /making pictures/); sub(/.*frame ms /, ""); gsub(/,/, "");
        g = g sprintf("%s{\"workers\": %s, \"p50_ms\": %s, \"p95_ms\": %s, \"p99_ms\": %s, \"max_ms\": %s, \"frames_over_16_7_ms\": %s, \"frames\": %s}",
                      (r++ ? "," : ""), (w ? "true" : "false"), $2, $4, $6, $8, $9, $11) }
      END { printf "], \"grid_scroll\": [%s]", g }' "$tmp/thumbs.txt")
    thumbnails="{\"corpus_models\": [$thumbnails}"
    echo "$thumbnails" | jq -e . >/dev/null 2>&1 || thumbnails='{"absent": "thumbnail_bench output not understood"}'
  fi
  if [ -x "$gui/bin/fill_floor" ]; then
    # The anchor of the fill figures: one full-window pass per fragment shader kind at each playback size.
    echo "bench: full-window fill floor (fill_floor)" >&2
    rows=()
    for size in $sizes; do
      rows+=("$(xvfb-run -a "$gui/bin/fill_floor" "$size" $((quick ? 4 : 60)) 2>/dev/null || echo null)")
    done
    fill_floor=$(printf '%s\n' "${rows[@]}" | jq -s -c '{runs: map(select(. != null))}' 2>/dev/null ||
      echo '{"absent": "fill_floor output not understood"}')
  fi
  if [ -f "$tower" ]; then
    echo "bench: particle playback (UB_TLTower ALT3, bench/playback_bench.sh)" >&2
    # Its systems (explosion, fire, smoke) are in the other mod's folder: found through --texture-dir.
    particles=$(PLAYBACK_SIZES="$sizes" PLAYBACK_REPEAT=$repeat PLAYBACK_ARGS="--alt 3 --texture-dir $models" \
      PLAYBACK_VARIANTS="particles: no_particles:ARGS=--no-particles" \
      bench/playback_bench.sh "$gui" "$tower" none "$secs" || echo null)
  fi
fi
load_after=$(load)

jq -n --slurpfile p "$tmp/parse.json" --slurpfile q "$tmp/pose.json" --slurpfile counts "$tmp/counts.json" \
  --slurpfile objects "$tmp/objects.json" --slurpfile check "$tmp/check.json" --slurpfile sage "$tmp/sage.json" \
  --slurpfile gltf_import "$tmp/import.json" \
  --argjson startup "$startup" --argjson startup_f3d "$startup_f3d" --argjson playback "$playback" \
  --argjson particles "$particles" --argjson fill "$fill_floor" --argjson thumbnails "$thumbnails" --arg before "$load_before" --arg after "$load_after" \
  --arg cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" --argjson nproc "$(nproc)" \
  --arg mesa "$(dpkg-query -W -f='${Version}' libgl1-mesa-dri 2>/dev/null || echo unknown)" \
  --arg commit "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  --arg date "$(date -u +%FT%TZ)" --argjson quick "$([ $quick = 1 ] && echo true || echo false)" '
  def rate(n): ([ $p[0].benchmarks[] | select(.name == n) | .bytes_per_second ][0]);
  {
    machine: {nproc: $nproc, cpu_model: $cpu, mesa: $mesa, load_average_before: $before, load_average_after: $after,
              date: $date, commit: $commit, quick: $quick, benchmark_mhz: $p[0].context.mhz_per_cpu},
    parse: [ $p[0].benchmarks[] | select(.name | startswith("Parse/")) | (.name | ltrimstr("Parse/")) as $set |
      { set: $set, files: .files, refused: .refused,
        mb_per_s: (.bytes_per_second / 1e6 | round),
        memcpy_mb_per_s: (rate("Memcpy/" + $set) / 1e6 | round),
        ratio_to_memcpy: ((.bytes_per_second / rate("Memcpy/" + $set)) * 1000 | round / 1000) } ],
    per_file: (([ $p[0].benchmarks[] | select(.name | startswith("PerFile/")) |
        { bucket_bytes: (.name | ltrimstr("PerFile/")), files: .files, avg_bytes: (.avg_bytes | round),
          us_per_file: (.us_per_file * 100 | round / 100),
          ns_per_byte: (.us_per_file * 1000 / .avg_bytes * 1000 | round / 1000) } ]) as $b |
      ([ $b[] | select(.bucket_bytes != "smallest-ala") ]) as $pts | ($pts | length) as $n |
      if $n < 2 then {buckets: $b, fit: null} else
      ($pts | map(.avg_bytes) | add / $n) as $mx | ($pts | map(.us_per_file) | add / $n) as $my |
      ($pts | map((.avg_bytes - $mx) * (.us_per_file - $my)) | add) as $sxy |
      ($pts | map((.avg_bytes - $mx) * (.avg_bytes - $mx)) | add) as $sxx |
      ($sxy / $sxx) as $slope | ($my - $slope * $mx) as $icept |
      { buckets: [ $b[] | . + { fit_us: (if .bucket_bytes == "smallest-ala" then null
                                         else (($icept + $slope * .avg_bytes) * 100 | round / 100) end) } ],
        fit: { us_per_file_constant: ($icept * 100 | round / 100), ns_per_byte: ($slope * 1e6 | round / 1000),
               r2: (($sxy * $sxy) / ($sxx * ($pts | map((.us_per_file - $my) * (.us_per_file - $my)) | add))
                    * 10000 | round / 10000) } } end),
    pose: [ $q[0].benchmarks[] | select(.name | startswith("FullPose/")) | (.name | ltrimstr("FullPose/")) as $rig |
      { rig: $rig, bones: .bones, animated_tracks: .tracks, palette: .palette,
        ns_per_pose: (.cpu_time | round), ns_per_bone: (.ns_per_bone * 10 | round / 10),
        naive_glm_ns_per_bone: ([ $q[0].benchmarks[] | select(.name == "NaivePose/" + $rig) | .ns_per_bone ][0]
                                | if . == null then null else (. * 10 | round / 10) end),
        ratio_to_naive_glm: ([ $q[0].benchmarks[] | select(.name == "NaivePose/" + $rig) | .ns_per_bone ][0] as $a
                             | if $a == null then null else (.ns_per_bone / $a * 1000 | round / 1000) end) } ],
    instances1000: [ $q[0].benchmarks[] | select(.name | startswith("Instances1000/")) |
      { rig: (.name | ltrimstr("Instances1000/")), bones: .bones, poses_per_s: (.items_per_second | round),
        ns_per_bone: (.ns_per_bone * 10 | round / 10) } ],
    instructions: $counts[0],
    startup: $startup,
    startup_vs_f3d: $startup_f3d,
    playback: $playback,
    particle_playback: $particles,
    fill_floor: $fill,
    objects: [ $objects[0].benchmarks[] | select(.name | startswith("Index/")) | (.name | ltrimstr("Index/")) as $m |
      { mod: $m, mb_per_s: (.bytes_per_second / 1e6 * 10 | round / 10),
        read_mb_per_s: ([ $objects[0].benchmarks[] | select(.name == "Read/" + $m) | .bytes_per_second / 1e6
                          * 10 | round / 10 ][0]) } ],
    check: $check[0],
    sage: $sage[0],
    "import": $gltf_import[0],
    thumbnails: $thumbnails
  }' >"$tmp/bench.json"
mkdir -p "$(dirname "$out")"
cp "$tmp/bench.json" "$out.tmp" && mv "$out.tmp" "$out"
echo "bench: wrote $out (load average $load_before -> $load_after)" >&2
