#!/usr/bin/env bash
# The relocatable folder for real: made by cmake/cli_folder.cmake, unpacked somewhere else, run with an empty
# environment; every library beyond glibc must come from the folder, and its answers must be the build's.
#   tests/tools/check_cli_folder.sh build/ci/app/rankscope-cli 0.1.0
set -euo pipefail
bin=$(realpath "$1")
version=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -DBINARY="$bin" -DVERSION="$version" -DOUT="$work/dist" -P "$root/cmake/cli_folder.cmake"
mkdir "$work/elsewhere"
tar xzf "$work"/dist/rankscope-cli-*.tar.gz -C "$work/elsewhere"
cli=$(echo "$work"/elsewhere/rankscope-cli-*/bin/rankscope-cli)
folder=$(dirname "$(dirname "$cli")")
echo "$(du -sh "$work"/dist/*.tar.gz | cut -f1) packed, $(du -sh "$folder" | cut -f1) unpacked: $(ls "$folder/lib" | tr '\n' ' ')"
# glibc's own libraries are the machine's; everything else from lib/ next to bin/.
outside=""
while read -r soname path; do
    case "$(realpath -m "$path")" in
    "$(realpath "$folder")"/lib/*) ;;
    *) outside+="$soname => $path"$'\n' ;;
    esac
done < <(ldd "$cli" | awk '/=>/ { print $1, $3 }' \
    | grep -Ev '^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil)[.-]')
if [ -n "$outside" ]; then
    echo "libraries found outside the folder:"
    echo "$outside"
    exit 1
fi
cp -r "$root/resources/examples" "$work/examples"
env -i "$cli" --version
env -i "$cli" info --json "$work/examples" >"$work/info.json"
env -i "$cli" diff --json "$work/examples" >"$work/diff.json"
"$bin" diff --json "$work/examples" >"$work/expected.json"
cmp "$work/diff.json" "$work/expected.json"
env -i "$cli" digest --out "$work/digests" "$work/examples"
env -i "$cli" diff --json "$work/digests" >"$work/digests.json"
grep -q '"kind": "burden_imbalance"' "$work/digests.json"
echo "the folder runs with an empty environment and gives the build's answers"
