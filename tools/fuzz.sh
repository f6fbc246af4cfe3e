#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, core instrumented too) in build-fuzz/ and runs each for
# SECONDS (default 60), seeded with the project's synthetic fixtures (fuzz/make_seeds) and, when present, the
# corpus files of that format (../shared/corpus, linked, never copied into the repository).
#   tools/fuzz.sh [SECONDS] [TARGET...]      targets: alamo_model alamo_clip alamo_particles w3d w3x bwm al amal amal_program meg big stuff dds tga eaw_xml
#                                            sage_ini sage_particles rewrite gltf_import (default: all)
#   tools/fuzz.sh --long [EXECS] [TARGET...] long mode (not for CI): each target runs until its executions over
#                                            all runs reach EXECS (default 10,000,000; FUZZ_LONG_SECONDS caps the
#                                            time per target), its work corpus is minimised into
#                                            fuzz-out/<target>/min, and a table of executions (this run and in
#                                            total), coverage, corpus size and findings is printed and written to
#                                            fuzz-out/long-run.md (docs/HARDENING.md records the last long run).
# Every run (both modes) appends its executions to fuzz-out/<target>/ledger.tsv (UTC time, commit, executions,
# findings); long mode runs a target only for what the ledger says it still owes, so interrupted or time-capped
# runs are continued by the next `--long`. A run that is killed adds nothing (its executions are not counted).
# Work corpora and crash artifacts go to fuzz-out/<target>/ (git-ignored). Exit status 1 when a target crashed;
# every crash input found must become a tests/core/<format>/regress_*_test.cpp case.
# Environment: FUZZ_MAX_LEN (default 262144; long mode: the largest seed, at most 4 MiB, so that large real seeds
# are fuzzed whole), FUZZ_JOBS (fuzzer processes per target, default 1: one per core for one slow target),
# RIGSCOPE_CORPUS. A fuzzer stopped with SIGINT ends its target's run, and what it executed is counted.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
long=0
execs=10000000
if [ $# -gt 0 ] && [ "$1" = --long ]; then
  long=1; shift
  if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then execs=$1; shift; fi
elif [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  seconds=$1; shift
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(alamo_model alamo_clip alamo_particles w3d w3x bwm al amal amal_program meg big stuff dds tga eaw_xml sage_ini sage_particles rewrite gltf_import)
corpus=${RIGSCOPE_CORPUS:-$(cd .. && pwd)/shared/corpus}  # as CMake: ../shared/corpus
maxlen_default=262144
# Per-input time limit: 10 s; long runs share the machine, 60 s (FUZZ_TIMEOUT overrides).
timeout=${FUZZ_TIMEOUT:-$([ $long = 1 ] && echo 60 || echo 10)}
jobs=${FUZZ_JOBS:-1} # fuzzer processes per target

cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGSCOPE_FUZZ=ON \
  -DRIGSCOPE_GUI=OFF -DRIGSCOPE_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target make_seeds $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

out=fuzz-out
mkdir -p "$out"
build-fuzz/bin/make_seeds "$out/seeds" >/dev/null

# Corpus files for a target: folder and extensions (case-insensitive).
corpus_glob() {
  case $1 in
    alamo_model) echo "alamo alo" ;;
    alamo_clip) echo "alamo ala" ;;
    alamo_particles) echo "alamo alo" ;;
    w3d) echo "w3d w3d" ;;
    w3x) echo "w3x w3x" ;;
    stuff) echo "archives stuff" ;;
    bwm) echo "bw2 bwm" ;;
    al) echo "bw2 al" ;;
    amal) echo "amal abk amos" ;;
    amal_program) echo "amal amal" ;;
    meg) echo "archives meg" ;;
    big) echo "archives big" ;;
    dds) echo ". dds" ;;
    tga) echo ". tga" ;;
    eaw_xml) echo "games xml" ;;
    sage_ini) echo "games ini inc" ;;
    sage_particles) echo "sage-fx ini" ;;
    rewrite) echo ". alo ala w3d bwm abk meg big" ;;
    gltf_import) echo "gltf glb gltf" ;;
  esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
table="| target | executions | seconds | exec/s | coverage (cov / ft) | corpus (min) | max_len | findings | total (ledger) |
|---|---:|---:|---:|---|---:|---:|---|---:|"
# Executions recorded for a target over all runs (third column of its ledger).
ledger_total() { awk -F'\t' '$3 ~ /^[0-9]+$/ { s += $3 } END { print s + 0 }' "$out/$1/ledger.tsv" 2>/dev/null || echo 0; }

for t in "${targets[@]}"; do
  bin=build-fuzz/bin/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz: no target fuzz_$t" >&2; status=1; continue; }
  work=$out/$t/corpus; seeds=$out/$t/seeds
  mkdir -p "$work" "$seeds"
  prior=$(ledger_total "$t")
  if [ $long = 1 ] && [ "$prior" -ge "$execs" ]; then
    echo "== fuzz_$t: $prior executions recorded in $out/$t/ledger.tsv, nothing owed"
    table+="
| $t | 0 | 0 | - | - | - | - | 0 | $prior |"
    continue
  fi
  rm -f "$seeds"/*
  [ -d "$out/seeds/$t" ] && cp -f "$out/seeds/$t"/* "$seeds"/ 2>/dev/null || true
  read -r sub exts <<<"$(corpus_glob "$t")"
  if [ -d "$corpus/$sub" ]; then
    for e in $exts; do
      find "$corpus/$sub" -type f -iname "*.$e" -print0 | while IFS= read -r -d '' f; do
        ln -sf "$f" "$seeds/$(echo "$f" | md5sum | cut -c1-12)-$(basename "$f")"
      done
    done
  fi
  maxlen=${FUZZ_MAX_LEN:-$maxlen_default}
  if [ $long = 1 ]; then
    biggest=$(find -L "$seeds" "$work" -type f -printf '%s\n' 2>/dev/null | sort -n | tail -1)
    maxlen=${FUZZ_MAX_LEN:-$(( ${biggest:-4096} < 4194304 ? ${biggest:-4096} : 4194304 ))}
    [ "$maxlen" -lt 4096 ] && maxlen=4096
    limit=()  # set per round below
    echo "== fuzz_$t: $(( execs - prior )) executions owed ($prior of $execs recorded), $(ls "$seeds" | wc -l) seeds, $(ls "$work" | wc -l) in work corpus, max_len $maxlen"
  else
    limit=(-max_total_time="$seconds")
    echo "== fuzz_$t: ${seconds}s, $(ls "$seeds" | wc -l) seeds, $(ls "$work" | wc -l) in work corpus"
  fi
  before=$(ls "$out/$t" | grep -cE '^(crash|timeout|oom|leak)-' || true)
  start=$(date +%s)
  # A timeout is libFuzzer's wall clock: on a loaded machine a 3 ms input can be starved for seconds. In long mode a
  # timeout input is run again alone; when it then finishes well within the limit it is renamed unconfirmed-* (kept,
  # not a finding) and the run resumes for the executions still owed. Crashes, leaks and OOMs always count.
  runs=0; round=0
  : >"$out/$t/log.txt"
  while :; do
    round=$((round + 1))
    # FUZZ_JOBS processes share the work corpus (libFuzzer picks up each other's new inputs); in long mode they
    # split the executions owed.
    rc=0; pids=()
    if [ $long = 1 ]; then
      owed=$(( execs - prior - runs ))
      left=$(( ${FUZZ_LONG_SECONDS:-0} > 0 ? ${FUZZ_LONG_SECONDS:-0} - ($(date +%s) - start) : 0 ))
    fi
    for j in $(seq "$jobs"); do
      [ $long = 1 ] && limit=(-runs="$(( owed / jobs + (j == 1 ? owed % jobs : 0) ))" -max_total_time="$left")
      dict=(); [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict") # a target's dictionary (fuzz/<target>.dict)
      "$bin" "$work" "$seeds" "${limit[@]}" "${dict[@]}" -max_len="$maxlen" -timeout="$timeout" -rss_limit_mb=2048 \
        -malloc_limit_mb=512 -artifact_prefix="$out/$t/" -print_final_stats=1 >"$out/$t/log.$round.$j.txt" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
    for j in $(seq "$jobs"); do
      r=$(grep -oP '^stat::number_of_executed_units:\s*\K[0-9]+' "$out/$t/log.$round.$j.txt" || echo 0)
      runs=$(( runs + r ))
      cat "$out/$t/log.$round.$j.txt"
      rm -f "$out/$t/log.$round.$j.txt"
    done >"$out/$t/log.$round.txt"
    cat "$out/$t/log.$round.txt" >>"$out/$t/log.txt"
    [ $rc = 0 ] && break
    # SIGINT to a fuzzer (libFuzzer's exit code 72): stopped by hand; what it ran counts, nothing was found.
    if [ $rc = 72 ] && grep -q "libFuzzer: run interrupted" "$out/$t/log.$round.txt"; then
      echo "fuzz_$t: interrupted"; break
    fi
    spurious=0
    if [ $long = 1 ] && grep -q "ERROR: libFuzzer: timeout" "$out/$t/log.$round.txt"; then
      for tf in "$out/$t"/timeout-*; do
        [ -e "$tf" ] || continue
        if timeout -k 1 $(( timeout / 2 )) "$bin" "$tf" >/dev/null 2>&1; then
          mv "$tf" "$out/$t/unconfirmed-$(basename "$tf")"; spurious=1
          echo "fuzz_$t: timeout input $(basename "$tf") finishes alone within $(( timeout / 2 )) s: load, not a hang; resuming"
        fi
      done
    fi
    if [ $spurious = 1 ] && [ $round -lt 20 ] && [ $(( prior + runs )) -lt $execs ] &&
       { [ "${FUZZ_LONG_SECONDS:-0}" = 0 ] || [ $(( $(date +%s) - start )) -lt "${FUZZ_LONG_SECONDS:-0}" ]; }; then
      continue
    fi
    if [ $spurious = 0 ]; then
      echo "fuzz_$t: FOUND A PROBLEM, see $out/$t/log.txt and $out/$t/crash-* / timeout-* / oom-*"
      grep -m3 -E "ERROR|runtime error|contract violation" "$out/$t/log.$round.txt" || true
      status=1
    fi
    break
  done
  elapsed=$(( $(date +%s) - start ))
  found=$(( $(ls "$out/$t" | grep -cE '^(crash|timeout|oom|leak)-' || true) - before ))
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u '+%Y-%m-%d %H:%M')" "$(git rev-parse --short HEAD)" "$runs" "$found" \
    "$([ $long = 1 ] && echo long || echo "${seconds}s")" >>"$out/$t/ledger.tsv"
  echo "executions: $runs ($round round(s)); $(ledger_total "$t") in total"; grep -E "^stat::peak_rss_mb" "$out/$t/log.txt" | tail -1
  tail -n 20 "$out/$t/log.txt" | grep -E "^#[0-9]+.*(DONE|cov:)" | tail -1 || true
  if [ $long = 1 ]; then
    mkdir -p "$out/$t/min"
    "$bin" -merge=1 -max_len="$maxlen" "$out/$t/min" "$work" "$seeds" >"$out/$t/merge.txt" 2>&1 || true
    last=$(grep -E "^#[0-9]+.*cov:" "$out/$t/log.txt" | tail -1)
    cov=$(echo "$last" | grep -oP 'cov: \K[0-9]+' || echo ?)
    ft=$(echo "$last" | grep -oP 'ft: \K[0-9]+' || echo ?)
    rate=$(( elapsed > 0 ? runs / elapsed : runs ))
    table+="
| $t | $runs | $elapsed | $rate | $cov / $ft | $(ls "$out/$t/min" | wc -l) | $maxlen | $found | $(ledger_total "$t") |"
  fi
done
if [ $long = 1 ]; then
  { echo "fuzz.sh --long $execs on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, commit $(git rev-parse --short HEAD)"
    echo; echo "$table"; } | tee "$out/long-run.md"
fi
exit $status
