#!/bin/sh
# golden.sh ROOFCAST SOURCE_DIR [--update]
# The Markdown reports must equal the golden files byte for byte: the four
# reference kernels on the five reference GPUs (tests/golden/*.md), and
# each case in a directory of its own (tests/golden/CASE/*.md), run with
# the arguments in tests/golden/CASE/args (one GPU, zero work, one thread,
# few threads working over many waves, mixed and compute-bound results, GPU
# files that give their own launch latency). After a deliberate change, run with --update, read
# `git diff tests/golden` line by line, then commit.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
mode=${3:-check}
status=0 n=0
# compare DIR OUT: every report in OUT against DIR's golden copy.
compare() {
    if [ "$mode" = --update ]; then
        for f in "$2"/*.md; do cp "$f" "$1/"; done
    fi
    for f in "$1"/*.md; do
        n=$((n + 1))
        if ! diff -u "$f" "$2/${f##*/}"; then
            echo "FAIL: ${f##*/} differs from $f" >&2
            status=1
        fi
    done
}
mkdir "$tmp/reference"
# md,png: the Markdown as a full run writes it, its charts linked as PNG.
"$roofcast" -q -f md,png -o "$tmp/reference" --gpu titan-black,titan-x,titan-v,rtx-2080-ti,rtx-4070 kernels
compare tests/golden "$tmp/reference"
for dir in tests/golden/*/; do
    dir=${dir%/} case=${dir##*/}
    mkdir "$tmp/$case"
    # shellcheck disable=SC2046 # the arguments are words, split on purpose
    "$roofcast" -q -f md,png -o "$tmp/$case" $(cat "$dir/args")
    [ "$mode" = --update ] && rm -f "$dir"/*.md
    compare "$dir" "$tmp/$case"
done
[ $status -eq 0 ] && echo "golden: $n reports match"
exit $status
