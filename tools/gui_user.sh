#!/usr/bin/env bash
# Tries the viewer the way a user does: the real rigscope window on its own Xvfb screen, driven by xdotool
# (real X input events), screenshots of the whole screen to look at.
#   tools/gui_user.sh [-s WxH] [-b BUILD] OUTDIR [RIGSCOPE ARGS...] < STEPS
# STEPS, one a line (# comments): `click X Y` (screen pixels), `dclick X Y` (double-click), `drag X1 Y1 X2 Y2`
# (left button, in 10 moves as a hand makes them), `rdrag`/`mdrag X1 Y1 X2 Y2` (right/middle button), `wheel X Y N`
# (N notches, > 0 away from the user), `key KEYS` (xdotool names,
# e.g. space, ctrl+o), `type TEXT`, `wait SECONDS`, `shot NAME` (OUTDIR/NAME.png). The screen defaults to
# 1280x800 (a laptop); there is no window manager, so the window keeps the size and place rigscope gives it, and
# it takes keys only after a click into it (nothing activates it before).
# Exit status: rigscope's if it exited early, else 0. Needs Xvfb, xdotool and ImageMagick (tools/bootstrap.sh).
set -euo pipefail
size=1280x800
build=build
while [ $# -gt 0 ]; do
  case $1 in
    -s) size=$2; shift 2 ;;
    -b) build=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { sed -n 2,8p "$0"; exit 2; }
out=$1; shift
mkdir -p "$out"
display=:$((90 + RANDOM % 400))
Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=$display
# Xvfb takes a moment to accept clients: a client started before that fails with "could not connect to display".
for _ in $(seq 100); do
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  kill -0 $xvfb 2>/dev/null || { echo "gui_user: Xvfb $display did not start" >&2; exit 1; }
  sleep 0.1
done
"$build/bin/rigscope" "$@" >"$out/rigscope.log" 2>&1 &
app=$!
trap 'kill $app $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  xdotool search --onlyvisible --name rigscope >/dev/null 2>&1 && break
  kill -0 $app 2>/dev/null || { wait $app; exit $?; }
  sleep 0.1
done
sleep 1 # the first frames
while read -r cmd a b c d; do
  case $cmd in
    '' | '#'*) ;;
    click) xdotool mousemove "$a" "$b" click 1 ;;
    dclick) xdotool mousemove "$a" "$b" click --repeat 2 --delay 80 1 ;;
    drag | rdrag | mdrag)
      button=1
      [ "$cmd" = rdrag ] && button=3
      [ "$cmd" = mdrag ] && button=2
      xdotool mousemove "$a" "$b" mousedown "$button"
      for i in $(seq 10); do
        xdotool mousemove $((a + (c - a) * i / 10)) $((b + (d - b) * i / 10))
        sleep 0.03
      done
      xdotool mouseup "$button" ;;
    wheel)
      button=4
      [ "$c" -lt 0 ] && button=5
      xdotool mousemove "$a" "$b" click --repeat "${c#-}" --delay 60 "$button" ;;
    key) xdotool key "$a" ;;
    type) xdotool type -- "$a${b:+ $b}${c:+ $c}${d:+ $d}" ;;
    wait) sleep "$a" ;;
    shot) import -window root "$out/$a.png"; echo "$out/$a.png" ;;
    *) echo "gui_user: unknown step '$cmd'" >&2; exit 2 ;;
  esac
  kill -0 $app 2>/dev/null || { echo "gui_user: rigscope exited (log: $out/rigscope.log)" >&2; wait $app; exit $?; }
done
