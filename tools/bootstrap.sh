#!/usr/bin/env bash
# Set-up for Debian 12: installs what is missing (sudo when not root), builds, then
#   tools/bootstrap.sh run [ARGS...]   runs the viewer (the built-in demo model when no file is given)
#   tools/bootstrap.sh test            runs every test (main build under xvfb-run, core tests under ASan+UBSan)
#   tools/bootstrap.sh web             builds the web viewer alone (core compiled to WebAssembly + the page) in build-web/
#   tools/bootstrap.sh deps run|test|web   only installs what `run`, `test` or `web` needs, builds nothing
#   tools/bootstrap.sh blender         optional, not part of `test`: installs Debian's Blender (3.4.1 on Debian 12)
#                                      and numpy for tools/blender_check.sh's round trip, builds rigscope-cli, and
#                                      runs the check on the model and clip given, if any (blender MODEL CLIP)
#
# `run` installs what building and running the viewer needs; `test` adds what the tests need (a user who only wants
# the viewer gets no clang, f3d, npm or validators). Libraries and headers are judged by their Debian package being
# installed. Programs that may come from elsewhere (node and npm from NodeSource, say) are judged by the command
# being there and working; only when one is missing is its Debian package installed. When apt cannot install the
# list, the script names which package conflicts with which installed one before apt's own message.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
[ $# -gt 0 ] && shift
deps_only=0
if [ "$mode" = deps ]; then
  deps_only=1
  mode=${1:-}
  [ $# -gt 0 ] && shift
fi
case "$mode" in
  run | test | web | blender) ;;
  *)
    echo "usage: tools/bootstrap.sh run [ARGS...] | test | web | blender [MODEL CLIP] | deps run|test|web|blender" >&2
    exit 2
    ;;
esac

# --- what is needed ---------------------------------------------------------------------------------------------
# (`blender` mode only) Blender and numpy for tools/blender_check.sh: about 70 packages, so never part of `test`.
blender_packages=(
  blender python3-numpy
)
# Debian packages judged by dpkg: build (compiler, CMake, Qt 6, Qt3D, GLM, tinygltf, JSON; dpkg-dev's
# dpkg-shlibdeps works out the .deb's Depends) and run (Qt platform plugins, the X cursor library the xcb plugin
# loads, Mesa's software OpenGL for GLX and EGL).
# tools/depcheck.sh, run by `test`, reads every `*packages=(...)` list below and fails when the build or the
# programs use a package that is neither listed nor in the closure of the lists without recommends.
run_packages=(
  build-essential dpkg-dev cmake pkg-config qt6-base-dev libqt6opengl6-dev qt6-3d-dev libglm-dev libtinygltf-dev
  nlohmann-json3-dev libstb-dev libegl-dev libglu1-mesa-dev libpugixml-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libwebp-dev # record/: video (H.264, VP9, GIF), WebP
  qt6-qpa-plugins libxcursor1 libgl1-mesa-dri libglx-mesa0 libegl-mesa0
  xvfb xauth  # `run` without a display renders the demo headless
  ccache      # rebuilds after a change, and builds of other checkouts of the same tree, reuse compiled objects
)
# Libraries and headers the tests build against.
test_packages=(
  catch2 libclang-rt-14-dev libbenchmark-dev
)
# Programs the tests call, as "command|package|probe": the probe must succeed for the program to count as there
# (`convert` may be a stand-in that is not ImageMagick). npm is probed on its own: a node from NodeSource brings
# its own npm, and Debian's npm conflicts with that node.
test_tools=(
  "clang|clang|clang --version"
  "convert|imagemagick|convert -version 2>/dev/null | grep -q '^Version: ImageMagick'"
  "f3d|f3d|f3d --version" # bench/startup_bench.sh: the start-up anchor
  "node|nodejs|node --version"
  "npm|npm|npm --version" # npm packages of the tests: gltf-validator (export_tests); @microsoft/jest-sarif and ajv (SARIF schema, app_tests)
  "desktop-file-validate|desktop-file-utils|desktop-file-validate --help"
  "appstreamcli|appstream|appstreamcli --version"
  "update-mime-database|shared-mime-info|update-mime-database -v"
  "xmllint|libxml2-utils|xmllint --version"
  "xdg-mime|xdg-utils|xdg-mime --version"
  "xdotool|xdotool|xdotool --version" # tools/gui_user.sh drives the real window
  "lintian|lintian|lintian --version" # the .deb is checked as Debian checks packages
  "dpkg-shlibdeps|dpkg-dev|dpkg-shlibdeps --version" # cpack works out the .deb's Depends
  "file|file|file --version" # the .deb test checks that the binaries are stripped
  "man|man-db|man --version" # install_test checks the man pages with man --warnings
  "python3|python3|python3 --version" # tools/blender_check.py's comparison is tested with plain python3
  "valgrind|valgrind|valgrind --version" # bench/callgrind_counts.sh: instructions per byte and per bone
  "jq|jq|jq --version" # tools/bench.sh writes its JSON with jq (tests/setup/bench_json_test.sh)
  "ffprobe|ffmpeg|ffprobe -version" # record tests: a second decoder's word on the recorded files
)

# The web viewer (web/, tools/build-web.sh): Emscripten compiles core to WebAssembly (it needs GLM's headers, from
# libglm-dev, and CMake); Chromium runs the page headless for the browser tests. npm packages come from
# web/package-lock.json (`npm ci`), never from a CDN.
web_packages=(
  cmake libglm-dev libtinygltf-dev nlohmann-json3-dev libstb-dev emscripten chromium
  dpkg-dev # dpkg-source unpacks pugixml's Debian source package for the WebAssembly build (tools/pugixml-source.sh)
)

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# Names, from the installed packages and from the candidates of the packages asked for, every Conflicts/Breaks
# that stands between them: "npm conflicts with the installed nodejs 20.20.2-1nodesource1 (its Conflicts: npm)".
explain_conflicts() {
  local want=" $* " p name rel field
  dpkg-query -W -f='${db:Status-Status}\t${Package}\t${Version}\t${Conflicts}, ${Breaks}\n' 2>/dev/null |
    awk -F'\t' '$1 == "installed"' | while IFS=$'\t' read -r _ ip iv rels; do
    IFS=',' read -ra parts <<<"$rels"
    for rel in "${parts[@]}"; do
      name=$(sed -E 's/^[[:space:]]*//; s/[[:space:](:].*//' <<<"$rel")
      [ -n "$name" ] && [ "${want#* "$name" }" != "$want" ] &&
        echo "bootstrap:   $name conflicts with the installed $ip $iv (its Conflicts/Breaks: $(sed -E 's/^[[:space:]]*//' <<<"$rel"))"
    done
  done
  for p in "$@"; do
    apt-cache show --no-all-versions "$p" 2>/dev/null | grep -E '^(Conflicts|Breaks):' | while IFS= read -r field; do
      IFS=',' read -ra parts <<<"${field#*:}"
      for rel in "${parts[@]}"; do
        name=$(sed -E 's/^[[:space:]]*//; s/[[:space:](:|].*//' <<<"$rel")
        if [ -n "$name" ] && installed "$name"; then
          echo "bootstrap:   $p conflicts with the installed $name $(dpkg-query -W -f='${Version}' "$name") ($p's ${field%%:*}: $(sed -E 's/^[[:space:]]*//' <<<"$rel"))"
        fi
      done
    done
  done
  return 0
}

missing=()
if [ "$mode" != web ]; then
  for p in "${run_packages[@]}"; do installed "$p" || missing+=("$p"); done
fi
if [ "$mode" = blender ]; then
  for p in "${blender_packages[@]}"; do installed "$p" || missing+=("$p"); done
fi
if [ "$mode" = web ] || [ "$mode" = test ]; then
  for p in "${web_packages[@]}"; do installed "$p" || missing+=("$p"); done
  if ! { command -v npm >/dev/null 2>&1 && npm --version >/dev/null 2>&1; }; then
    echo "bootstrap: npm is missing or does not work; installing Debian's npm"
    missing+=(npm)
  fi
fi
if [ "$mode" = test ]; then
  for p in "${test_packages[@]}"; do installed "$p" || missing+=("$p"); done
  for t in "${test_tools[@]}"; do
    IFS='|' read -r cmd pkg probe <<<"$t"
    if ! { command -v "$cmd" >/dev/null 2>&1 && bash -c "$probe" >/dev/null 2>&1; }; then
      echo "bootstrap: $cmd is missing or does not work; installing Debian's $pkg"
      missing+=("$pkg")
    fi
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
  echo "bootstrap: installing ${missing[*]}"
  $SUDO apt-get update -qq
  log=$(mktemp)
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    echo "bootstrap: apt could not install the list. What stands in the way:" >&2
    why=$(explain_conflicts "${missing[@]}" || true)
    if [ -n "$why" ]; then echo "$why" >&2; else echo "bootstrap:   no Conflicts/Breaks with installed packages; see apt's message above" >&2; fi
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
fi
[ "$deps_only" = 1 ] && { echo "bootstrap: everything $mode needs is installed"; exit 0; }

jobs=$(nproc)
# Objects are shared between checkouts of the tree at other paths (debug info then names paths relative to it).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# The web viewer: core compiled to WebAssembly (Debian's Emscripten) and the page, in build-web/site/ (serve it with
# tools/serve-web.sh or any static server). Emscripten finds Debian's node-acorn through NODE_PATH when node comes
# from NodeSource.
build_web() {
  export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
  emcmake cmake -S . -B build-web "${launcher[@]}" -DRIGSCOPE_WEB=ON -DRIGSCOPE_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
    -DRIGSCOPE_TESTS=ON >/dev/null
  cmake --build build-web -j"$jobs"
}
if [ "$mode" = web ]; then
  build_web
  echo "bootstrap: the web viewer is in build-web/site/; tools/serve-web.sh serves it at http://localhost:8080/"
  exit 0
fi
cmake -S . -B build "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGSCOPE_TESTS=$([ "$mode" = test ] && echo ON || echo OFF) >/dev/null
if [ "$mode" = blender ]; then
  cmake --build build -j"$jobs" --target rigscope-cli
  if [ $# -ge 2 ]; then exec tools/blender_check.sh "$1" "$2"; fi
  echo "bootstrap: blender $(blender -v 2>/dev/null | head -1 | cut -d' ' -f2) ready; tools/blender_check.sh MODEL CLIP runs the round trip"
  exit 0
fi
cmake --build build -j"$jobs"

case "$mode" in
  run)
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "bootstrap: no display; rendering one frame headless to rigscope-demo.png instead"
      exec xvfb-run -a -s "-screen 0 1280x800x24" build/bin/rigscope --screenshot rigscope-demo.png "$@"
    fi
    exec build/bin/rigscope "$@"
    ;;
  test)
    # Core tests and rigscope-cli again under AddressSanitizer + UndefinedBehaviorSanitizer (no Qt).
    cmake -S . -B build-asan "${launcher[@]}" -DCMAKE_BUILD_TYPE=Debug -DRIGSCOPE_GUI=OFF -DRIGSCOPE_SANITIZE=ON >/dev/null
    cmake --build build-asan -j"$jobs"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    echo "== core tests under ASan+UBSan =="
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
    unset ASAN_OPTIONS UBSAN_OPTIONS
    echo "== web viewer (WebAssembly core, page, browser tests' npm packages) =="
    build_web
    (cd web && npm ci --no-audit --no-fund)
    ctest --test-dir build-web --output-on-failure
    echo "== dependency check =="
    tools/depcheck.sh --build build
    echo "== all tests =="
    xvfb-run -a -s "-screen 0 1280x800x24 -noreset" ctest --test-dir build --output-on-failure -j"$jobs"
    ;;
esac
