#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` makes rigscope_VERSION_ARCH.deb holding what `cmake --install` installs (under
# /usr, man pages compressed), with Depends worked out by dpkg-shlibdeps; unpacked into a temporary root, its programs
# run from there; lintian reports no errors.
# Usage: deb_test.sh BUILD_DIR VERSION
set -uo pipefail
build=$1 version=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

arch=$(dpkg --print-architecture)
deb=$tmp/out/rigscope_${version}_${arch}.deb
if ! (cd "$build" && cpack -G DEB -B "$tmp/out" > "$tmp/cpack.log" 2>&1); then
  cat "$tmp/cpack.log"
  echo "0 passed, 1 failed"
  exit 1
fi
[ -f "$deb" ] && ok "cpack made ${deb##*/}" || { bad "no $deb"; ls "$tmp/out"; echo "$pass passed, $failed failed"; exit 1; }

# Control fields: Depends from dpkg-shlibdeps names the Qt and libc libraries the binaries link.
dpkg-deb -f "$deb" Package Version Architecture Depends > "$tmp/control"
cat "$tmp/control"
grep -qx "Package: rigscope" "$tmp/control" && ok "Package" || bad "Package field"
grep -qx "Version: $version" "$tmp/control" && ok "Version $version" || bad "Version field"
depends=$(sed -n 's/^Depends: //p' "$tmp/control")
for lib in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqt63drender6 qt6-qpa-plugins; do
  echo "$depends" | sed 's/ *([^)]*)//g; s/, /\n/g' | grep -qxF "$lib" && ok "Depends names $lib" || bad "Depends lacks $lib: $depends"
done

# Contents: what `cmake --install` installs, under /usr (man pages as .gz), plus the Debian docs.
cmake --install "$build" --prefix "$tmp/inst/usr" > /dev/null
(cd "$tmp/inst" && find . -type f | sed 's|^\./|/|; s|\(/man/man1/.*\.1\)$|\1.gz|' | sort) > "$tmp/want"
printf '/usr/share/doc/rigscope/changelog.gz\n/usr/share/doc/rigscope/copyright\n' >> "$tmp/want"
sort -o "$tmp/want" "$tmp/want"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./|/|' | sort > "$tmp/got"
if diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
  ok "the package holds the $(wc -l < "$tmp/got") files cmake --install installs (+ Debian docs)"
else
  bad "package contents differ from cmake --install (< install only, > package only):"
  cat "$tmp/diff"
fi
dpkg-deb -c "$deb" | awk '{print $2}' | sort -u | grep -vx 'root/root' && bad "files not owned by root" ||
  ok "every file owned by root/root"

# Unpacked into a temporary root, the programs run from there.
dpkg-deb -x "$deb" "$tmp/root"
v=$(env -u DISPLAY -u WAYLAND_DISPLAY "$tmp/root/usr/bin/rigscope" --version 2>&1)
[ "$v" = "rigscope $version" ] && ok "rigscope --version: $v" || bad "rigscope --version: $v"
h=$("$tmp/root/usr/bin/rigscope-cli" --help 2>&1)
rc=$?
{ [ $rc -eq 0 ] && echo "$h" | grep -q '^Usage: rigscope-cli'; } && ok "rigscope-cli --help" ||
  bad "rigscope-cli --help (exit $rc): $(echo "$h" | head -3)"
env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 "$tmp/root/usr/bin/rigscope-thumbnailer" --demo -s 64 "$tmp/t.png" &&
  [ -s "$tmp/t.png" ] && ok "rigscope-thumbnailer --demo" || bad "rigscope-thumbnailer --demo"
for b in rigscope rigscope-cli rigscope-thumbnailer; do
  file -b "$tmp/root/usr/bin/$b" | grep -q 'not stripped' && bad "$b not stripped" || ok "$b stripped"
done

# lintian: no errors (warnings and notes are listed for reading).
lintian --tag-display-limit 0 "$deb" > "$tmp/lintian" 2>&1
cat "$tmp/lintian"
if grep -q '^E: ' "$tmp/lintian"; then bad "lintian reports errors"; else ok "lintian: no errors"; fi

echo "$pass passed, $failed failed"
[ $failed -eq 0 ]
