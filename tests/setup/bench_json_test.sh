#!/usr/bin/env bash
# tools/bench.sh --quick on a test build (which builds the benchmarks too): the JSON file it writes has every block
# docs/PERFORMANCE.md reads, with the machine's load beside the figures, and figures of the right kind (instruction
# counts per byte and per bone from callgrind, playback rows per size). Tiny workloads: the figures are not judged.
#   bench_json_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
for t in jq valgrind; do command -v $t >/dev/null || { echo "FAIL: $t not installed (tools/bootstrap.sh)"; exit 1; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/sub/bench.json
"$src/tools/bench.sh" --quick --out "$out" --build "$build" --gui-build "$build" 2>"$tmp/err.txt" || {
  cat "$tmp/err.txt"
  echo "FAIL: tools/bench.sh --quick failed (its messages above)"
  exit 1
}
[ -s "$out" ] || { echo "FAIL: no JSON written to $out"; exit 1; }
corpus=${RIGSCOPE_CORPUS:-$(cd "$src/.." && pwd)/shared/corpus}
have_corpus=false
[ -d "$corpus/alamo" ] && have_corpus=true
fail=0
check() { # check DESCRIPTION JQ_EXPRESSION (must be true)
  if [ "$(jq --argjson corpus "$have_corpus" "$2" "$out")" != true ]; then
    echo "FAIL: $1 ($2)"
    fail=1
  fi
}
check "machine block: cores, CPU, Mesa, load before and after, commit, quick" \
  '.machine | (.nproc | type == "number" and . >= 1) and (.cpu_model | length > 0) and (.mesa | length > 0)
   and (.load_average_before | test("^[0-9.]+ [0-9.]+ [0-9.]+$")) and (.load_average_after | test("^[0-9.]+ [0-9.]+ [0-9.]+$"))
   and (.commit | length > 0) and .quick == true'
check "every block is there" \
  '[ "parse", "per_file", "pose", "instances1000", "instructions", "startup", "startup_vs_f3d", "playback",
     "particle_playback", "fill_floor", "objects", "check", "thumbnails", "sage", "import" ] - keys == []'
check "full pose: the synthetic rigs at least, ns per bone and the naive anchor" \
  '[ .pose[] | select(.rig | startswith("synthetic")) | select(.ns_per_bone > 0 and .naive_glm_ns_per_bone > 0) ] | length >= 2'
check "instructions per bone from callgrind for the synthetic rigs (a full pose: 50-5000 instructions a bone)" \
  '.instructions.tool == "valgrind --tool=callgrind" and
   ([ .instructions.pose[] | select(.rig | startswith("synthetic")) | select(.ir_per_bone > 50 and .ir_per_bone < 5000) ] | length >= 2)'
check "instructions per byte parsed for every parse set" \
  '(.instructions.parse | map(.set) | sort) == (.parse | map(.set) | sort)
   and all(.instructions.parse[]; .ir_per_byte > 0 and .bytes > 0)'
check "parse sets with MB/s and the memcpy anchor (when the corpus is there)" \
  '($corpus | not) or ((.parse | length) >= 1 and all(.parse[]; .mb_per_s > 0 and .ratio_to_memcpy > 0))'
check "mod check on the writer-made mod: parse and two check runs" \
  'any(.check[]; .set == "writer-made Alamo mod" and (.runs | map(.what)) == ["parse", "check 1 thread", "check 2 threads"]
   and all(.runs[]; .files > 0) and .speedup_2_threads > 0)'
check "thumbnails: pictures/s on 1 and 2 threads and grid-scroll frame times (absent without the corpus)" \
  'if $corpus then (.thumbnails.corpus_models | length) == 2 and all(.thumbnails.corpus_models[]; .pictures_per_s_min > 0)
     and (.thumbnails.grid_scroll | length) >= 2 and all(.thumbnails.grid_scroll[]; .frames > 0 and .p50_ms > 0)
   else (.thumbnails.absent | type == "string" and length > 0) end'
check "playback rows per size with fps and CPU ms per frame (when the corpus is there)" \
  '($corpus | not) or (.playback.runs | length >= 1 and all(.[]; .size == "1280x720" and .fps_median > 0 and .cpu_ms_per_frame_median > 0))'
check "particle playback with and without particles (when the corpus is there)" \
  '($corpus | not) or ((.particle_playback.runs | map(.variant) | sort) == ["no_particles", "particles"])'
check "fill floor: ms per full-window pass for each shader kind, constant first (GUI build)" \
  'if .fill_floor.absent then (.fill_floor.absent | type == "string" and length > 0)
   else (.fill_floor.runs | length >= 1) and all(.fill_floor.runs[]; .ms_per_draw.constant > 0
     and .ms_per_draw.bilinear > 0 and .ratio_to_constant.constant == 1) end'
check "sage: SAGE particles against Alamo per particle; W3X parse against W3D on the same model (corpus)" \
  '(.sage.sage_vs_alamo.ratio_sage_to_alamo > 0 and .sage.sage_vs_alamo.sage_live > 1000)
   and (($corpus | not) or (.sage.w3x_vs_w3d.w3x_mb_per_s > 0 and .sage.w3x_vs_w3d.mb_per_s_ratio_w3x_to_w3d > 0))'
check "import: glTF import of the generated 50k-triangle, 100-joint, 20-clip model against reading its bytes" \
  '.import.triangles == 50000 and .import.files == 21 and .import.read_cpu_ms > 0 and .import.import_over_read > 1'
check "start-up block (when the corpus is there)" \
  '($corpus | not) or (.startup.cold_start_wall_s_median > 0 and .startup.peak_rss_kib > 0)'
[ $fail = 0 ] || { echo "--- JSON:"; cat "$out"; echo "--- stderr:"; cat "$tmp/err.txt"; exit 1; }
echo "bench JSON: every block and key present ($(jq -r '.machine.load_average_before' "$out") load before)"
