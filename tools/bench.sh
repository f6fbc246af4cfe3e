#!/usr/bin/env bash
# Builds the benchmarks (build-bench/, RelWithDebInfo like the default build, GUI off) and prints one JSON
# object on stdout with every figure docs/PERFORMANCE.md reports:
#   tools/bench.sh [--quick]
#   parse:  MB/s per corpus folder and overall (loadDocument from memory) and the ratio to memcpy of the
#           same bytes in the same run
#   per_file: time per file against file size (size buckets), a least-squares line time = a + b * size (a: the
#           constant per file, b: ns per byte, r2), and the smallest .ala alone
#   pose:   ns per bone of a full pose (tracks + world + skin palette) per rig (rigid mechanical rigs labelled
#           "rigid:") and the ratio to a naive GLM pose loop over the same rig in the same run;
#           poses/s for 1,000 instances
#   startup (when build/bin/rigscope exists): cold start of `rigscope --screenshot` for the largest corpus
#           model (wall time and in-process time to the first captured frame), its peak RSS, the parse-only
#           peak RSS (rigscope-cli info)
#   startup_vs_f3d (build/bin/rigscope and f3d): bench/startup_bench.sh, the ATPT walker at 640x480 against F3D
#           on the same triangles, ratio of the medians
#   playback (build/bin/rigscope): bench/playback_bench.sh, EB_LIGHTFACTORY + BUILD clip, CPU ms per frame and
#           per megapixel at 640x360 and 1280x720 under Xvfb
# Rates use CPU time of the benchmark thread (robust on a shared machine); progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
mintime=1
[ "${1:-}" = "--quick" ] && mintime=0.2
export RIGSCOPE_CORPUS=${RIGSCOPE_CORPUS:-$(cd .. && pwd)/shared/corpus}

cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGSCOPE_GUI=OFF -DRIGSCOPE_TESTS=OFF \
  -DRIGSCOPE_BENCH=ON >/dev/null
# rigscope-cli too: the start-up figures below measure its parse-only peak RSS (a fresh clone has no other build).
cmake --build build-bench -j"$(nproc)" --target bench_parse bench_pose rigscope-cli >&2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build-bench/bin/bench_parse --benchmark_min_time=$mintime --benchmark_format=json >"$tmp/parse.json" 2>/dev/null
build-bench/bin/bench_pose --benchmark_min_time=$mintime --benchmark_format=json >"$tmp/pose.json" 2>/dev/null

startup='null' startup_f3d='null' playback='null'
largest=$(find "$RIGSCOPE_CORPUS" -type f \( -iname '*.alo' -o -iname '*.w3d' -o -iname '*.bwm' \) -printf '%s %p\n' \
  2>/dev/null | sort -n | tail -1 | cut -d' ' -f2- || true)
if [ -x build/bin/rigscope ] && [ -n "$largest" ] && command -v xvfb-run >/dev/null; then
  echo "bench: cold start and playback of $largest" >&2
  xvfb() { xvfb-run -a -s "-screen 0 1400x900x24" "$@"; }
  # One warm-up run (file cache, Mesa shader cache), then three timed runs of the rigscope process under
  # Xvfb: median wall time (process start to exit, PNG written), median in-process time to the first captured
  # frame, peak RSS.
  walls=(); firsts=(); rss=0
  for i in 0 1 2 3; do
    RIGSCOPE_TIMING=1 xvfb /usr/bin/time -v -o "$tmp/time.txt" build/bin/rigscope --screenshot "$tmp/shot.png" \
      --size 1280x720 "$largest" >"$tmp/out.txt" 2>&1 || true
    [ $i -eq 0 ] && continue
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$tmp/time.txt")")
    firsts+=("$(sed -n 's/.*first frame captured after \([0-9]*\) ms.*/\1/p' "$tmp/out.txt" | head -1)")
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time.txt")
    [ "${r:-0}" -gt "$rss" ] && rss=$r
  done
  wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 2p)
  first=$(printf '%s\n' "${firsts[@]}" | sort -n | sed -n 2p)
  # Parse-only peak RSS of the same file (rigscope-cli info).
  /usr/bin/time -v -o "$tmp/cli.txt" build-bench/bin/rigscope-cli info "$largest" >/dev/null
  clirss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/cli.txt")
  startup=$(jq -n --arg f "$largest" --argjson b "$(stat -c %s "$largest")" \
    --argjson wall "${wall:-null}" --argjson first "${first:-null}" --argjson rss "$rss" --argjson clirss "${clirss:-null}" \
    '{model: $f, size_bytes: $b, cold_start_wall_s_median: $wall, first_frame_ms_median: $first,
      peak_rss_kib: $rss, parse_only_peak_rss_kib: $clirss}')
  # Start-up against F3D on the same triangles (the issue 17 anchor), when F3D is installed (tools/bootstrap.sh).
  if command -v f3d >/dev/null; then
    echo "bench: start-up against F3D (bench/startup_bench.sh)" >&2
    startup_f3d=$(bench/startup_bench.sh build "" "$([ "$mintime" = 1 ] && echo 9 || echo 5)" || echo null)
  fi
  # Playback of EB_LIGHTFACTORY + BUILD at 640x360 and 1280x720: CPU ms per frame and per megapixel.
  echo "bench: playback (bench/playback_bench.sh)" >&2
  playback=$(PLAYBACK_REPEAT=$([ "$mintime" = 1 ] && echo 3 || echo 1) bench/playback_bench.sh build "" "" 4 || echo null)
fi

jq -n --slurpfile p "$tmp/parse.json" --slurpfile q "$tmp/pose.json" --argjson startup "$startup" \
  --argjson startup_f3d "$startup_f3d" --argjson playback "$playback" '
  def rate(n): ($p[0].benchmarks[] | select(.name == n) | .bytes_per_second);
  {
    machine: {cpus: $p[0].context.num_cpus, mhz: $p[0].context.mhz_per_cpu, date: $p[0].context.date},
    parse: [ $p[0].benchmarks[] | select(.name | startswith("Parse/")) | (.name | ltrimstr("Parse/")) as $set |
      { set: $set, files: .files, refused: .refused,
        mb_per_s: (.bytes_per_second / 1e6 | round),
        memcpy_mb_per_s: (rate("Memcpy/" + $set) / 1e6 | round),
        ratio_to_memcpy: ((.bytes_per_second / rate("Memcpy/" + $set)) * 1000 | round / 1000) } ],
    per_file: (([ $p[0].benchmarks[] | select(.name | startswith("PerFile/")) |
        { bucket_bytes: (.name | ltrimstr("PerFile/")), files: .files, avg_bytes: (.avg_bytes | round),
          us_per_file: (.us_per_file * 100 | round / 100),
          ns_per_byte: (.us_per_file * 1000 / .avg_bytes * 1000 | round / 1000) } ]) as $b |
      ([ $b[] | select(.bucket_bytes != "smallest-ala") ]) as $pts |
      ($pts | length) as $n | ($pts | map(.avg_bytes) | add / $n) as $mx | ($pts | map(.us_per_file) | add / $n) as $my |
      ($pts | map((.avg_bytes - $mx) * (.us_per_file - $my)) | add) as $sxy |
      ($pts | map((.avg_bytes - $mx) * (.avg_bytes - $mx)) | add) as $sxx |
      ($sxy / $sxx) as $slope | ($my - $slope * $mx) as $icept |
      { buckets: [ $b[] | . + { fit_us: (if .bucket_bytes == "smallest-ala" then null
                                         else (($icept + $slope * .avg_bytes) * 100 | round / 100) end) } ],
        fit: { us_per_file_constant: ($icept * 100 | round / 100), ns_per_byte: ($slope * 1e6 | round / 1000),
               r2: (($sxy * $sxy) / ($sxx * ($pts | map((.us_per_file - $my) * (.us_per_file - $my)) | add))
                    * 10000 | round / 10000) } }),
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
    startup: $startup,
    startup_vs_f3d: $startup_f3d,
    playback: $playback
  }'
