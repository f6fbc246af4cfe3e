#!/usr/bin/env bash
# Debian's pugixml source package, unpacked for the WebAssembly build (build-web/): Debian's libpugixml-dev ships
# the headers and a static library for the host only, not pugixml.cpp, so the web build compiles the same release
# from Debian's source package (apt-get source: signed archive index, checksummed .dsc, Debian's patches applied).
# The version is the installed libpugixml-dev's when there is one. apt's state for the source index is kept in a
# folder of its own under DEST: the system's apt configuration is not changed.
#   tools/pugixml-source.sh DEST      -> DEST/pugixml/src/pugixml.cpp (nothing done when it is already there)
set -euo pipefail
dest=${1:?usage: tools/pugixml-source.sh DEST}
[ -f "$dest/pugixml/src/pugixml.cpp" ] && exit 0
mkdir -p "$dest/apt/lists/partial" "$dest/apt/cache/archives/partial" "$dest/apt/sources" "$dest/dl"
dest=$(cd "$dest" && pwd)
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cat >"$dest/apt/sources/debian-src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$dest/apt/sources" -o "Dir::State::Lists=$dest/apt/lists"
  -o "Dir::Cache=$dest/apt/cache" -o APT::Sandbox::User=root -qq)
apt-get "${opts[@]}" update
want=pugixml
v=$(dpkg-query -W -f='${Version}' libpugixml-dev 2>/dev/null || true)
[ -n "$v" ] && want="pugixml=$v"
(cd "$dest/dl" && apt-get "${opts[@]}" source --download-only "$want")
rm -rf "$dest/pugixml"
dpkg-source -x "$(ls "$dest"/dl/pugixml_*.dsc | head -1)" "$dest/pugixml" >/dev/null
test -f "$dest/pugixml/src/pugixml.cpp"
echo "pugixml-source: $(basename "$(ls "$dest"/dl/pugixml_*.dsc | head -1)" .dsc) unpacked in $dest/pugixml"
