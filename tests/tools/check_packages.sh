#!/usr/bin/env bash
# The Debian packages for real (CI runs it; it needs root or sudo): built with cpack from BUILD_DIR, checked with
# lintian (no error, no warning), appstreamcli and desktop-file-validate, installed with apt-get, run, and removed.
#   tests/tools/check_packages.sh build/ci
set -euo pipefail
build=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
rm -rf "$build/packages"
(cd "$build" && cpack >/dev/null)
debs=("$build"/packages/*.deb)
for deb in "${debs[@]}"; do
    echo "== $(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"
    dpkg-deb -f "$deb" Package Version Installed-Size Depends
done
# Info tags are printed, not failed on: stripped binaries keep a .comment section (dh_strip would remove it) and are
# linked without -z now (bindnow trades start-up time for a read-only GOT; the build flags are the project's own).
lintian --fail-on error,warning --display-info "${debs[@]}"
appstreamcli validate --no-net "$root/resources/desktop/io.github.rankscope.RankScope.metainfo.xml"
desktop-file-validate "$root/resources/desktop/io.github.rankscope.RankScope.desktop"

$SUDO apt-get install -y "${debs[@]}"
work=$(mktemp -d)
remove() {
    $SUDO apt-get remove -y rankscope rankscope-cli >/dev/null
    rm -rf "$work"
}
trap remove EXIT
cp -r "$root/resources/examples" "$work/examples"
test -f /usr/share/man/man1/rankscope.1.gz && test -f /usr/share/man/man1/rankscope-cli.1.gz
test -f /usr/share/metainfo/io.github.rankscope.RankScope.metainfo.xml
/usr/bin/rankscope --version
/usr/bin/rankscope-cli diff --json "$work/examples" >"$work/diff.json"
grep -q '"kind": "burden_imbalance"' "$work/diff.json"
# The app's own dependencies are enough to draw (the platform plugin comes with qt6-qpa-plugins).
QT_QPA_PLATFORM=offscreen /usr/bin/rankscope export --out "$work/diff.png" "$work/examples"
test -s "$work/diff.png"
remove
trap - EXIT
if [ -e /usr/bin/rankscope ] || [ -e /usr/bin/rankscope-cli ]; then
    echo "the packages left their binaries behind"
    exit 1
fi
echo "both packages built, checked, installed, run and removed"
