#!/usr/bin/env bash
# tools/depcheck.sh must fail, naming the package and a file that needs it, when a package the build uses is taken
# out of the set-up list; and pass with the real list. Usage: depcheck_test.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
sed 's/ libqt6opengl6-dev//' "$src/tools/bootstrap.sh" > "$tmp/bootstrap.sh"
grep -q libqt6opengl6-dev "$tmp/bootstrap.sh" && fail "could not remove libqt6opengl6-dev from the copy"
out=$("$src/tools/depcheck.sh" --build "$build" --list "$tmp/bootstrap.sh" --no-run); rc=$?
echo "$out"
[ $rc -eq 1 ] || fail "depcheck exited $rc without libqt6opengl6-dev in the list (expected 1)"
echo "$out" | grep -Eq '^  libqt6opengl6-dev: needed by /usr/[^ ]*QtOpenGL' || fail "missing package or file not named"
out=$("$src/tools/depcheck.sh" --build "$build" --no-run); rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "depcheck exited $rc with the real list"
# Without apt's package lists depcheck refreshes them (apt-cache stubbed to know nothing until apt-get update ran).
mkdir -p "$tmp/bin"
printf '#!/bin/sh\n[ -f %s/updated ] || exit 0\nexec %s "$@"\n' "$tmp" "$(command -v apt-cache)" > "$tmp/bin/apt-cache"
printf '#!/bin/sh\n[ "$1" = update ] || [ "$2" = update ] && touch %s/updated\nexit 0\n' "$tmp" > "$tmp/bin/apt-get"
chmod +x "$tmp/bin/apt-cache" "$tmp/bin/apt-get"
out=$(PATH="$tmp/bin:$PATH" "$src/tools/depcheck.sh" --build "$build" --no-run 2>&1); rc=$?
echo "$out"
[ -f "$tmp/updated" ] || fail "depcheck did not run apt-get update when the package lists were missing"
[ $rc -eq 0 ] || fail "depcheck exited $rc after refreshing the package lists"
echo "2 passed, 0 failed"
