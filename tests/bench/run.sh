#!/bin/sh
# run.sh [BUILD_DIR] [COUNT...]: the nightly-run benchmark.
#
# For each COUNT (default: 10 100 1000) it generates COUNT synthetic kernels
# (tests/bench/gen_kernels.c: loops, guards, nested and triangular loops,
# per-thread totals, 2-D stencils), reports them on every bundled GPU in
# every format with 1 worker and with one per processor, and prints
# roofcast's CPU time per stage, the wall time and the peak memory of each
# run, then a summary row per COUNT. It checks that the two runs wrote
# identical files. Then it reports 100 kernels (or the first COUNT) on 1,
# 3, 6 and 12 of the bundled GPUs, to show how cost grows with the GPUs.
# Timings are for reading, never asserted.
set -eu
build=${1:-build}
shift 2>/dev/null || true
counts=${*:-10 100 1000}
cd "$(dirname "$0")/../.."
roofcast=$build/roofcast
gen=$build/tests/gen_kernels
[ -x "$roofcast" ] && [ -x "$gen" ] ||
    { echo "run.sh: $gen is missing: build with the tests first (tests/run-all.sh $build)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpus=$(nproc)
summary=""
for n in $counts; do
    mkdir -p "$tmp/k$n"
    "$gen" "$n" "$tmp/k$n"
    for j in 1 "$cpus"; do
        out="$tmp/o$n-j$j"
        echo "== $n kernels, 12 GPUs, all formats, -j $j"
        "$roofcast" -q --timings -j "$j" -o "$out" "$tmp/k$n" 2> "$tmp/t"
        cat "$tmp/t"
        wall=$(sed -n 's/^wall \([0-9.]*\) s.*/\1/p' "$tmp/t")
        mem=$(sed -n 's/.*peak memory \([0-9.]*\) MiB/\1/p' "$tmp/t")
        files=$(ls "$out" | wc -l)
        summary="$summary$(printf '%6s %4s %9s %10s %9s %7s' "$n" "$j" "$wall" \
            "$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.2f", w * 1000 / n }')" "$mem" "$files")
"
        [ "$j" = 1 ] || diff -r "$tmp/o$n-j1" "$out" >/dev/null ||
            { echo "FAIL: -j 1 and -j $j differ" >&2; exit 1; }
    done
    rm -rf "$tmp/o$n-j1" "$tmp/o$n-j$cpus"
done
echo
echo "kernels jobs    wall_s ms/kernel  peak_MiB   files"
printf '%s' "$summary"

# The same kernels on more and more GPUs.
n=$(echo "$counts" | awk '{ for (i = 1; i <= NF; i++) if ($i == 100) { print 100; exit } print $1 }')
mkdir -p "$tmp/g"
"$gen" "$n" "$tmp/g"
gpus=$(sed -n 's/^<gpu id="\([^"]*\)".*/\1/p' specs/*.xml)
echo
echo "kernels GPUs jobs    wall_s ms/kernel  peak_MiB"
for g in 1 3 6 12; do
    ids=$(echo "$gpus" | head -n "$g" | paste -sd, -)
    [ "$(echo "$gpus" | head -n "$g" | wc -l)" -eq "$g" ] || continue
    rm -rf "$tmp/og"
    "$roofcast" -q --timings -j "$cpus" --gpu "$ids" -o "$tmp/og" "$tmp/g" 2> "$tmp/t"
    wall=$(sed -n 's/^wall \([0-9.]*\) s.*/\1/p' "$tmp/t")
    mem=$(sed -n 's/.*peak memory \([0-9.]*\) MiB/\1/p' "$tmp/t")
    printf '%6s %4s %4s %9s %9s %9s\n' "$n" "$g" "$cpus" "$wall" \
        "$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.2f", w * 1000 / n }')" "$mem"
done
"$build/tests/bench_eval" 100
