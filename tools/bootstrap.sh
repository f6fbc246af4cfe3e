#!/usr/bin/env bash
# Set-up for a fresh Debian 12 machine: installs missing packages (sudo when not root), builds, then
#   tools/bootstrap.sh run [ARGS...]   runs the viewer (the built-in demo model when no file is given)
#   tools/bootstrap.sh test            runs every test (main build under xvfb-run, core tests under ASan+UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
[ $# -gt 0 ] && shift

# Every Debian package the build, the tests and the programs need, by line: build; run (Qt platform plugins, the
# X cursor library the xcb plugin loads, Mesa's software OpenGL for GLX and EGL); tests (Catch2, a virtual X
# server, sanitizers and fuzzing, images, benchmarks, desktop-integration validators). tools/depcheck.sh, run by
# `test`, fails when the build or the programs use a package that is neither here nor in the closure of these
# without recommends.
packages=(
  build-essential cmake pkg-config qt6-base-dev libqt6opengl6-dev qt6-3d-dev libglm-dev libtinygltf-dev
  nlohmann-json3-dev libegl-dev libglu1-mesa-dev
  qt6-qpa-plugins libxcursor1 libgl1-mesa-dri libglx-mesa0 libegl-mesa0
  catch2 xvfb xauth clang libclang-rt-14-dev imagemagick libbenchmark-dev
  f3d  # bench/startup_bench.sh: the start-up anchor (F3D renders the same triangles, exported to .glb)
  libstb-dev nodejs npm desktop-file-utils appstream shared-mime-info libxml2-utils xdg-utils
  xdotool  # tools/gui_user.sh: drives the real window (keys, clicks) the way a user does
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
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
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRIGSCOPE_GUI=OFF -DRIGSCOPE_SANITIZE=ON >/dev/null
    cmake --build build-asan -j"$jobs"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    echo "== core tests under ASan+UBSan =="
    ctest --test-dir build-asan --output-on-failure
    unset ASAN_OPTIONS UBSAN_OPTIONS
    echo "== dependency check =="
    tools/depcheck.sh --build build
    echo "== all tests =="
    xvfb-run -a -s "-screen 0 1280x800x24" ctest --test-dir build --output-on-failure
    ;;
  *)
    echo "usage: tools/bootstrap.sh run [ARGS...] | test" >&2
    exit 2
    ;;
esac
