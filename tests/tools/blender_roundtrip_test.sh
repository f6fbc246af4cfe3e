#!/usr/bin/env bash
# The Blender round trip (tools/blender_check.sh) on the corpus: an Alamo model with four clips (.alo + .ala) and
# a W3D skin with its hierarchy and clip (BFME two-bone skin). Exit 77 (ctest: SKIPPED) when blender is not
# installed (tools/bootstrap.sh deps blender) or the corpus files are absent.
#   blender_roundtrip_test.sh CORPUS_DIR RIGSCOPE_CLI
set -uo pipefail
corpus=$1
export RIGSCOPE_CLI=$2
cd "$(dirname "$0")/../.."
command -v blender >/dev/null 2>&1 || { echo "blender not installed: skipped"; exit 77; }
alamo=$corpus/alamo/Delta730+Imperial_Civil_War/Data/Art/Models
w3d=$corpus/w3d/sage-team+W3D-Tools/test
[ -f "$alamo/EI_STORMTROOPER.ALO" ] && [ -f "$w3d/gumaarms_skn.w3d" ] ||
  { echo "corpus files absent ($corpus): skipped"; exit 77; }
rc=0
echo "== $alamo/EI_STORMTROOPER.ALO"
tools/blender_check.sh "$alamo/EI_STORMTROOPER.ALO" "$alamo"/EI_STORMTROOPER_{IDLE,MOVE,ATTACK,DIE}_00.ala || rc=$?
[ $rc -eq 0 ] || { echo "Alamo round trip failed ($rc)"; exit 1; }
echo "== $w3d/gumaarms_skn.w3d"
tools/blender_check.sh "$w3d/gumaarms_skn.w3d" "$w3d/gumaarms_wlka.w3d" || rc=$?
[ $rc -eq 0 ] || { echo "W3D round trip failed ($rc)"; exit 1; }
