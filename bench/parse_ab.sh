#!/usr/bin/env bash
# Parse throughput of two (or more) bench_parse binaries, interleaved, as a ratio to memcpy of the same bytes in
# the same run (CPU time of the benchmark thread, so it holds on a shared machine):
#   bench/parse_ab.sh REPEATS LABEL=BENCH_PARSE_BINARY...
# Every binary runs every Parse/ and Memcpy/ benchmark (what tools/bench.sh runs), one after the other, REPEATS
# rounds; one line per run, then the median per label:
#   label  Parse/w3d MB/s  Memcpy/w3d MB/s  ratio  Parse/all MB/s  Memcpy/all MB/s  ratio  load average
# glibc's malloc returns freed memory to the kernel by heuristics that depend on what ran before in the process
# (the same binary gave 0.75 or 1.74 GB/s for Parse/w3d with different --benchmark_filter); to measure the
# parser with the allocator held steady, run with
#   GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432
set -euo pipefail
reps=$1
shift
export RIGSCOPE_CORPUS=${RIGSCOPE_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$reps"); do
  for lb in "$@"; do
    l=${lb%%=*} b=${lb#*=}
    "$b" --benchmark_filter='^(Parse|Memcpy)/' --benchmark_min_time=0.5 --benchmark_format=json 2>/dev/null >"$tmp/run.json"
    jq -r --arg l "$l" --arg load "$(cut -d' ' -f1 /proc/loadavg)" '[.benchmarks[] | {(.name): .bytes_per_second}]
      | add | [$l, (.["Parse/w3d"]/1e6|floor), (.["Memcpy/w3d"]/1e6|floor), (.["Parse/w3d"]/.["Memcpy/w3d"]*1e4|floor/1e4),
               (.["Parse/all"]/1e6|floor), (.["Memcpy/all"]/1e6|floor), (.["Parse/all"]/.["Memcpy/all"]*1e4|floor/1e4), $load]
      | @tsv' "$tmp/run.json" | tee -a "$tmp/all.tsv"
  done
done
echo "median:"
for lb in "$@"; do
  l=${lb%%=*}
  line=$l
  for c in 2 3 4 5 6 7; do
    line+=$'\t'$(awk -F'\t' -v l="$l" -v c=$c '$1 == l {print $c}' "$tmp/all.tsv" | sort -g |
      awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}')
  done
  echo "$line"
done
