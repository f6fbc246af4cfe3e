#!/bin/sh
# Regenerates tests/render/golden/*.png with the project's own renderer.
# usage: tests/render/make_golden.sh [BUILD_DIR]   (default: build; runs under xvfb-run -a when DISPLAY is unset)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
bin=$build/bin/rigscope
[ -x "$bin" ] || { echo "make_golden: $bin not built" >&2; exit 2; }
run() { if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1280x800x24" "$@"; fi; }
grep -v '^#' "$here/golden_cases.txt" | while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  run "$bin" --screenshot "$here/golden/$name.png" $args
  echo "wrote golden/$name.png"
done
