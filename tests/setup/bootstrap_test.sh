#!/usr/bin/env bash
# tools/bootstrap.sh's choice of what to install, on machines of three kinds, with apt, dpkg and the programs stubbed:
#   1. the image: node and npm from NodeSource (dpkg's nodejs conflicts with Debian's npm), every package installed:
#      `deps test` installs nothing and succeeds;
#   2. the same image with a command missing: `deps run` does not ask for test tools; `deps test` installs Debian's
#      package for the missing command only, judged by the command working (a `convert` that is not ImageMagick
#      counts as missing);
#   3. npm missing beside NodeSource's nodejs: apt refuses, and bootstrap names the conflict (npm vs the installed
#      nodejs and its version) before failing.
# Usage: bootstrap_test.sh SOURCE_DIR
set -uo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# A copy of the repository's tools/ so that bootstrap's `cd ..` lands in the temporary tree.
mkdir -p "$tmp/repo/tools"
cp "$src/tools/bootstrap.sh" "$tmp/repo/tools/"

# bin/: the only programs on PATH. Basic utilities link to the real ones; the rest are stubs.
bin=$tmp/bin
mkdir -p "$bin"
for u in bash sh sed awk grep mktemp cat rm dirname id tr sort env head cut; do
  ln -s "$(command -v "$u")" "$bin/$u"
done
stub() { # stub NAME BODY
  printf '#!%s\n%s\n' "$(command -v bash)" "$2" > "$bin/$1"
  chmod +x "$bin/$1"
}
# dpkg-query: every package installed except those in $tmp/absent; the status database lists NodeSource's nodejs.
stub dpkg-query '
case "$*" in
  *db:Status-Status*)
    printf "installed\tnodejs\t20.20.2-1nodesource1\tnodejs-dev, nodejs-doc, nodejs-legacy, npm, \n"
    printf "installed\tlibc6\t2.36-9\t, \n" ;;
  *"\${Status}"*)
    pkg=${@: -1}
    grep -qx "$pkg" '"$tmp"'/absent 2>/dev/null && exit 1
    printf "install ok installed" ;;
  *"\${Version}"*) printf "20.20.2-1nodesource1" ;;
esac'
stub apt-cache 'exit 0'
# apt-get: records what it was asked to install; refuses npm the way apt does beside NodeSource'"'"'s nodejs.
stub apt-get '
[ "$1" = update ] && exit 0
echo "$*" >> '"$tmp"'/apt.log
case " $* " in
  *" npm "*) echo "The following packages have unmet dependencies:"; echo " nodejs : Conflicts: npm";
             echo "E: Unable to correct problems, you have held broken packages." >&2; exit 100 ;;
esac
exit 0'
# Every program of bootstrap's test_tools list works (the first field of each "command|package|probe").
for t in $(sed -n '/^test_tools=(/,/^)/p' "$src/tools/bootstrap.sh" | sed -n 's/^  "\([^|]*\)|.*/\1/p'); do
  stub "$t" 'echo "$0 1.0"'
done
stub convert 'echo "Version: ImageMagick 6.9.11-60 Q16 x86_64"'

run() { # run ARGS...: bootstrap with the stubs only; output in $tmp/out, exit code in $rc
  : > "$tmp/apt.log"
  env -i PATH="$bin" HOME="$tmp" bash "$tmp/repo/tools/bootstrap.sh" "$@" > "$tmp/out" 2>&1
  rc=$?
}

# 1. The image as it comes: nothing to install.
run deps test
{ [ $rc -eq 0 ] && [ ! -s "$tmp/apt.log" ]; } && ok "image with NodeSource node and npm: nothing installed" ||
  { bad "image: rc=$rc, apt asked for: $(cat "$tmp/apt.log")"; cat "$tmp/out"; }

# 2. Commands missing or not working, and a Debian package missing.
rm "$bin/xdotool"
stub convert 'echo "convert: ImageMagick is not installed here, this is a stand-in" >&2; exit 1'
echo qt6-3d-dev > "$tmp/absent"
run deps run
{ [ $rc -eq 0 ] && grep -q 'install.* qt6-3d-dev' "$tmp/apt.log" && ! grep -qE 'xdotool|imagemagick|clang' "$tmp/apt.log"; } &&
  ok "deps run: installs the missing library, no test tools" || { bad "deps run: rc=$rc apt: $(cat "$tmp/apt.log")"; cat "$tmp/out"; }
run deps test
{ [ $rc -eq 0 ] && grep -q 'install.* qt6-3d-dev' "$tmp/apt.log" && grep -q ' xdotool' "$tmp/apt.log" &&
  grep -q ' imagemagick' "$tmp/apt.log" && ! grep -qE ' (npm|nodejs|clang|f3d)( |$)' "$tmp/apt.log"; } &&
  ok "deps test: installs Debian's packages for the missing and broken commands only" ||
  { bad "deps test: rc=$rc apt: $(cat "$tmp/apt.log")"; cat "$tmp/out"; }
stub xdotool 'echo "xdotool version 3"'
stub convert 'echo "Version: ImageMagick 6.9.11-60 Q16 x86_64"'
: > "$tmp/absent"

# 3. npm missing beside NodeSource's nodejs: the conflict is named.
rm "$bin/npm"
run deps test
if [ $rc -ne 0 ] && grep -q 'npm conflicts with the installed nodejs 20.20.2-1nodesource1' "$tmp/out"; then
  ok "npm beside NodeSource's nodejs: the conflict is named"
else
  bad "npm conflict: rc=$rc"
  cat "$tmp/out"
fi

# Usage errors.
run frobnicate
[ $rc -eq 2 ] && ok "unknown mode: exit 2" || bad "unknown mode: rc=$rc"

echo "$pass passed, $failed failed"
[ $failed -eq 0 ]
