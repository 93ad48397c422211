#!/bin/sh
# golden.sh ROOFCAST SOURCE_DIR [--update]
# The Markdown reports of the four reference kernels on the five reference
# GPUs must equal tests/golden/*.md byte for byte. After a deliberate change,
# run with --update, read `git diff tests/golden` line by line, then commit.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
mode=${3:-check} out=$tmp
# md,png: the Markdown as a full run writes it, its charts linked as PNG.
"$roofcast" -q -f md,png -o "$out" --gpu titan-black,titan-x,titan-v,rtx-2080-ti,rtx-4070 kernels
status=0
for k in maximum_kernel gpuMeans gpuKendall getRestricted; do
    if [ "$mode" = --update ]; then
        cp "$out/$k.md" "tests/golden/$k.md"
    elif ! diff -u "tests/golden/$k.md" "$out/$k.md"; then
        echo "FAIL: $k.md differs from tests/golden/$k.md" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "golden: 4 reports match"
exit $status
