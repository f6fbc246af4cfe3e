#!/usr/bin/env bash
# Installs the build into a temporary prefix and checks the desktop integration the way desktops use it.
# Usage: install_test.sh SOURCE_DIR BUILD_DIR MIME_QUERY CORPUS_DIR
set -uo pipefail
src=$1 build=$2 mimeq=$3 corpus=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The thumbnailer stores into the freedesktop cache: the test's own, never the user's.
export XDG_CACHE_HOME="$tmp/cache"
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@" > "$tmp/out" 2>&1; then ok "$what"; else bad "$what"; cat "$tmp/out"; fi; }

p=$tmp/prefix
check "cmake --install" cmake --install "$build" --prefix "$p"
for b in rigscope rigscope-cli rigscope-thumbnailer; do check "bin/$b installed" test -x "$p/bin/$b"; done
check "desktop-file-validate" desktop-file-validate "$p/share/applications/rigscope.desktop"
grep -q '^MimeType=.*model/x-alamo;' "$p/share/applications/rigscope.desktop" && ok "desktop MimeType" || bad "desktop MimeType"
check "appstreamcli validate" appstreamcli validate --no-net "$p"/share/metainfo/*.metainfo.xml
check "xmllint MIME XML" xmllint --noout "$p/share/mime/packages/rigscope.xml"
for s in 16x16 22x22 24x24 32x32 48x48 64x64 128x128 256x256; do
  f=$p/share/icons/hicolor/$s/apps/rigscope.png
  [ "$(identify -format '%wx%h' "$f" 2>/dev/null)" = "$s" ] && ok "icon $s" || bad "icon $s ($f)"
done
check "scalable icon" test -s "$p/share/icons/hicolor/scalable/apps/rigscope.svg"

# MIME types: a database made from the installed package (plus the system's) recognises real files.
mkdir -p "$tmp/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$p/share/mime/packages/rigscope.xml" "$tmp/mime/packages/"
check "update-mime-database" update-mime-database "$tmp/mime"
expect_type() { # FILE TYPE
  local got; got=$(XDG_DATA_DIRS=$tmp XDG_DATA_HOME=$tmp/none "$mimeq" "$1" | cut -f2)
  [ "$got" = "$2" ] && ok "mime $2 for ${1##*/}" || bad "mime of $1: got '$got', expected $2"
}
# By content when the name says nothing (magic), and by name.
printf 'LiOnHeAdMODEL\0\0\0' > "$tmp/model.bin"; expect_type "$tmp/model.bin" model/x-bw2-bwm
printf 'BIGF\0\0\0\0' > "$tmp/archive.bin"; expect_type "$tmp/archive.bin" application/x-ea-big
printf 'AmBk\0\0\0\0' > "$tmp/bank.bin"; expect_type "$tmp/bank.bin" application/x-amos-bank
printf '\377\377\377\377\244\160\175\077' > "$tmp/meg.bin"; expect_type "$tmp/meg.bin" application/x-petroglyph-meg
if [ -d "$corpus" ]; then
  first() { find "$corpus" -type f -iname "$1" | sort | head -1; }
  for pair in "*.alo model/x-alamo" "*.ala application/x-alamo-animation" "*.w3d model/x-w3d" \
              "*.bwm model/x-bw2-bwm" "*.abk application/x-amos-bank" "*.amos application/x-amos-source" \
              "*.meg application/x-petroglyph-meg" "*.big application/x-ea-big"; do
    f=$(first "${pair% *}"); [ -n "$f" ] && expect_type "$f" "${pair#* }" || bad "no corpus file ${pair% *}"
  done
  # The thumbnailer: no display, a PNG of the requested size with the model drawn in it.
  model=$(find "$corpus" -type f -iname 'EB_LIGHTFACTORY.ALO' | head -1)
  [ -n "$model" ] || model=$(first "*.alo")
  start=$(date +%s%N)
  if env -u DISPLAY -u WAYLAND_DISPLAY "$p/bin/rigscope-thumbnailer" -s 96 "file://$model" "$tmp/thumb.png" 2> "$tmp/out"; then
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    dims=$(identify -format '%w %h' "$tmp/thumb.png")
    cover=$(convert "$tmp/thumb.png" -alpha extract -format '%[fx:mean]' info:)
    if [ "$(echo "$dims" | awk '{print ($1 == 96 || $2 == 96) && $1 <= 96 && $2 <= 96}')" = 1 ] &&
       awk -v c="$cover" 'BEGIN { exit !(c > 0.05) }'; then
      ok "thumbnailer: $dims PNG, ${cover} of it covered, ${ms} ms, no display"
    else
      bad "thumbnailer output $dims, coverage $cover"
    fi
  else
    bad "thumbnailer failed"; cat "$tmp/out"
  fi
else
  echo "skip: corpus not found at $corpus (corpus MIME and thumbnail checks)"
fi
# Bad input: an exit code within the time limit, no thumbnail.
head -c 4096 /dev/urandom > "$tmp/garbage.alo"
mkdir "$tmp/dir.alo"
for f in "$tmp/garbage.alo" "$tmp/dir.alo" "$tmp/missing.alo"; do
  start=$(date +%s)
  env -u DISPLAY timeout 15 "$p/bin/rigscope-thumbnailer" -s 64 "$f" "$tmp/bad.png" 2>/dev/null; rc=$?
  [ $rc -eq 1 ] && [ ! -e "$tmp/bad.png" ] && ok "thumbnailer refuses ${f##*/} (exit 1, $(( $(date +%s) - start )) s)" ||
    bad "thumbnailer on ${f##*/}: exit $rc"
  rm -f "$tmp/bad.png"
done

# Command line: help without a display lists every option; the man pages name them all.
help=$(env -u DISPLAY -u WAYLAND_DISPLAY "$p/bin/rigscope" --help); rc=$?
[ $rc -eq 0 ] && ok "rigscope --help without a display" || bad "rigscope --help exit $rc"
env -u DISPLAY "$p/bin/rigscope" --version | grep -q '^rigscope [0-9]' && ok "rigscope --version" || bad "rigscope --version"
opts=$(echo "$help" | grep -oE '^  --[a-z-]+' | sed 's/^  //')
[ "$(echo "$opts" | wc -l)" -ge 20 ] && ok "help lists $(echo "$opts" | wc -l) options" || bad "help lists too few options"
echo "$help" | grep -q -- '--screenshot OUT.png' && ok "help describes --screenshot" || bad "help lacks --screenshot"
man1=$p/share/man/man1
for o in $opts; do grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$man1/rigscope.1" || bad "rigscope.1 lacks $o"; done
cli=$("$p/bin/rigscope-cli" --help); rc=$?
[ $rc -eq 0 ] && ok "rigscope-cli --help on stdout, exit 0" || bad "rigscope-cli --help exit $rc"
for c in $(echo "$cli" | sed -n 's/^  rigscope-cli \([a-z]*\).*/\1/p'); do
  "$p/bin/rigscope-cli" "$c" --help | grep -q "^Usage: rigscope-cli $c" && ok "rigscope-cli $c --help" || bad "rigscope-cli $c --help"
  grep -q "fB$c" "$man1/rigscope-cli.1" || bad "rigscope-cli.1 lacks command $c"
done
for m in rigscope rigscope-cli rigscope-thumbnailer; do
  w=$(man --warnings -l "$man1/$m.1" 2>&1 >/dev/null); [ -z "$w" ] && ok "man page $m.1" || bad "man $m.1: $w"
done
comp=$p/share/bash-completion/completions
check "bash completion syntax" bash -n "$comp/rigscope"
check "bash completion for rigscope-cli" test -f "$comp/rigscope-cli"
out=$(bash -c "_init_completion() { return 0; }; source '$comp/rigscope'; complete -p rigscope rigscope-cli" 2>&1)
echo "$out" | grep -q '_rigscope_cli rigscope-cli' && ok "completion registers both commands" || bad "completion: $out"

echo "$pass passed, $failed failed"
[ $failed -eq 0 ]
