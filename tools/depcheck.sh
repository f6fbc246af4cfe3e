#!/usr/bin/env bash
# Dependency check: every Debian package that owns a file the build or the programs use must be installed by
# tools/bootstrap.sh, i.e. be in its package lists (`*packages=(...)` and the packages of its "command|package|probe"
# entries) or in their dependency closure without recommends.
#
#   tools/depcheck.sh [--build DIR] [--list SCRIPT] [--no-run]
#
# Files checked:
#   configure  the package config files behind the *_DIR entries of DIR/CMakeCache.txt, and every FILEPATH/PATH
#              entry under /usr
#   compile    every system header in the compilers' dependency files (*.o.d, compiler_depend.make)
#   link       every system library on the link lines (link.txt)
#   run        every shared object the programs load at run time (LD_DEBUG=files): rigscope-cli, rigscope
#              --screenshot and --window-screenshot under xvfb-run, the thumbnailer with no display (Qt platform
#              and image plugins, Mesa drivers, ...). --no-run skips this part.
# Prints one line per missing package naming the file that needs it; exit 1 when any is missing, 0 otherwise,
# 2 when the check cannot run (no dpkg/apt-cache, no build).
set -uo pipefail
cd "$(dirname "$0")/.."
build=build
list=tools/bootstrap.sh
run=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --list) list=$2; shift 2 ;;
    --no-run) run=0; shift ;;
    *) echo "usage: tools/depcheck.sh [--build DIR] [--list SCRIPT] [--no-run]" >&2; exit 2 ;;
  esac
done
command -v dpkg-query >/dev/null && command -v apt-cache >/dev/null || { echo "depcheck: needs dpkg and apt-cache" >&2; exit 2; }
[ -f "$build/CMakeCache.txt" ] || { echo "depcheck: $build/CMakeCache.txt not found (build first)" >&2; exit 2; }
[ -f "$list" ] || { echo "depcheck: $list not found" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the package list and its closure ------------------------------------------------------------------------
# Every word inside a `packages=(...)` or `packages+=(...)` array of the set-up script.
sed 's/#.*//' "$list" | awk '/^[[:space:]]*[a-z_]*packages\+?=\(/{on=1} on{print} on&&/\)/{on=0}' |
  sed -E 's/[a-z_]*packages\+?=\(//; s/\)//' | tr ' \t' '\n\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | sort -u > "$tmp/list"
# Programs judged by their command: the package of every "command|package|probe" entry.
grep -oE '^[[:space:]]*"[^"|]+\|[a-z0-9][a-z0-9.+-]+\|' "$list" | sed -E 's/^[^|]*\|//; s/\|$//' >> "$tmp/list"
sort -u -o "$tmp/list" "$tmp/list"
[ -s "$tmp/list" ] || { echo "depcheck: no packages=(...) list in $list" >&2; exit 2; }
closure() {
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
    $(cat "$tmp/list") 2>/dev/null | grep -v '^ ' | grep -v '^<' | sed 's/:.*//' > "$tmp/closure"
}
closure
# Without apt's package lists (a new machine, or `apt-get clean` + lists removed) the closure is empty: refresh them.
if [ "$(wc -l < "$tmp/closure")" -le 20 ]; then
  echo "depcheck: apt's package lists are missing; running apt-get update" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq >&2 || { echo "depcheck: apt-get update failed" >&2; exit 2; }
  closure
fi
# Essential packages are on every Debian system without being depended on.
dpkg-query -W -f='${Package} ${Essential}\n' 2>/dev/null | awk '$2 == "yes" {print $1}' >> "$tmp/closure"
cat "$tmp/list" >> "$tmp/closure"
sort -u -o "$tmp/closure" "$tmp/closure"
[ "$(wc -l < "$tmp/closure")" -gt 20 ] || { echo "depcheck: apt-cache gave no dependency closure even after apt-get update" >&2; exit 2; }

# --- files used, as "file<TAB>why" ---------------------------------------------------------------------------
cache=$build/CMakeCache.txt
grep -E '_DIR:(PATH|INTERNAL|STRING)=/' "$cache" | sed 's/.*=//' | sort -u | while read -r d; do
  for f in "$d"/*Config.cmake "$d"/*-config.cmake; do [ -f "$f" ] && printf '%s\tconfigure\n' "$f"; done
done > "$tmp/files"
grep -E '^[A-Za-z0-9_]+:(FILEPATH|PATH)=/usr/' "$cache" | sed 's/.*=//' | tr ';' '\n' | while read -r f; do
  [ -e "$f" ] && printf '%s\tconfigure\n' "$f"
done >> "$tmp/files"
find "$build" \( -name '*.o.d' -o -name compiler_depend.make \) -print0 2>/dev/null | xargs -0 -r cat |
  tr ' \\' '\n\n' | sed 's/:$//' | grep -E '^/usr/' | sort -u | sed 's/$/\tcompile/' >> "$tmp/files"
find "$build" -name link.txt -print0 2>/dev/null | xargs -0 -r cat | tr ' ' '\n' > "$tmp/link"
grep -E '^/usr/' "$tmp/link" | sort -u | sed 's/$/\tlink/' >> "$tmp/files"
grep -E '^-l[A-Za-z0-9_+.-]+$' "$tmp/link" | sort -u | while read -r l; do
  f=$(${CXX:-c++} -print-file-name="lib${l#-l}.so" 2>/dev/null)
  [ "${f#/}" != "$f" ] && printf '%s\tlink\n' "$f"
done >> "$tmp/files"

if [ "$run" = 1 ]; then
  bin=$build/bin
  ld() { # ld NAME CMD...: run with the dynamic loader's file log in $tmp/ld.NAME.*
    local name=$1; shift
    env LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld.$name" "$@" >/dev/null 2>&1 || true
  }
  [ -x "$bin/rigscope-cli" ] && ld cli "$bin/rigscope-cli" info --json /dev/null
  if [ -x "$bin/rigscope" ] && command -v xvfb-run >/dev/null; then
    ld shot timeout 60 xvfb-run -a -s "-screen 0 640x480x24" "$bin/rigscope" --screenshot "$tmp/s.png" --size 64x64
    ld window timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" "$bin/rigscope" --window-screenshot "$tmp/w.png" \
      --size 640x480
  fi
  if [ -x "$bin/rigscope-thumbnailer" ]; then
    ld thumb env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 "$bin/rigscope-thumbnailer" --demo -s 64 "$tmp/t.png"
  fi
  cat "$tmp"/ld.* 2>/dev/null | sed -n 's/.*calling init: \(\/.*\)$/\1/p' | sort -u | grep -v "^$(cd "$build" && pwd)" |
    sed 's/$/\trun/' >> "$tmp/files"
fi

# --- owners -------------------------------------------------------------------------------------------------
# One dpkg-query per form (a query per file would take minutes). dpkg knows /lib/... for files installed before
# the /usr merge: try the path, then its /usr-less form, then its link target.
sort -u -t$'\t' -k1,1 "$tmp/files" > "$tmp/used"
owners() { # owners FORM: reads paths, writes "form-path<TAB>package" for those dpkg knows
  xargs -r -d '\n' dpkg-query -S 2>/dev/null | grep -v '^diversion' |
    sed -E 's/^([^:]+)(:[a-z0-9]+)?: (.*)$/\3\t\1/; s/,.*\t/\t/' | sed -E 's/\t([^,:]+)[,:].*/\t\1/'
}
cut -f1 "$tmp/used" | owners > "$tmp/own.path"
cut -f1 "$tmp/own.path" | sort -u > "$tmp/known"
cut -f1 "$tmp/used" | grep -vxF -f "$tmp/known" > "$tmp/unknown" || true
sed 's|^/usr/|/|' "$tmp/unknown" | owners > "$tmp/own.nousr"
xargs -r -d '\n' readlink -f < "$tmp/unknown" | sort -u | owners > "$tmp/own.real"
cut -f1 "$tmp/used" | while read -r f; do printf '%s\t%s\n' "$f" "$(readlink -f "$f")"; done > "$tmp/real"
awk -F'\t' -v closure="$tmp/closure" -v real="$tmp/real" -v p="$tmp/own.path" -v n="$tmp/own.nousr" -v r="$tmp/own.real" '
  BEGIN {
    while ((getline l < closure) > 0) inClosure[l] = 1
    while ((getline l < real) > 0) { split(l, a, "\t"); target[a[1]] = a[2] }
    while ((getline l < p) > 0) { split(l, a, "\t"); if (!(a[1] in byPath)) byPath[a[1]] = a[2] }
    while ((getline l < n) > 0) { split(l, a, "\t"); if (!(a[1] in byNoUsr)) byNoUsr[a[1]] = a[2] }
    while ((getline l < r) > 0) { split(l, a, "\t"); if (!(a[1] in byReal)) byReal[a[1]] = a[2] }
  }
  {
    f = $1; nousr = f; sub(/^\/usr\//, "/", nousr)
    o = (f in byPath) ? byPath[f] : (nousr in byNoUsr) ? byNoUsr[nousr] : (target[f] in byReal) ? byReal[target[f]] : ""
    if (o != "" && !(o in inClosure)) printf "%s\t%s (%s)\n", o, f, $2
  }' "$tmp/used" > "$tmp/missing"

if [ -s "$tmp/missing" ]; then
  echo "depcheck: packages used by the build or the programs but not installed by $list:"
  sort -u -t$'\t' -k1,1 "$tmp/missing" | while IFS=$'\t' read -r p f; do echo "  $p: needed by $f"; done
  exit 1
fi
echo "depcheck: ok ($(sort -u "$tmp/files" | wc -l) files from $(wc -l < "$tmp/list") listed packages and their closure)"
