#!/bin/sh
# reports.sh ROOFCAST SOURCE_DIR
# What the reference reports derive is stated in ours, and none of their
# slips (../shared/seeds/README.md) is repeated.
set -eu
roofcast=$1 src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$src"
"$roofcast" -q -f md,csv -o "$out" --gpu titan-black,titan-x,titan-v,rtx-2080-ti,rtx-4070
pass=0 fail=0
has() { # has FILE TEXT
    if grep -qF -- "$2" "$out/$1"; then pass=$((pass + 1)); else
        echo "FAIL: $1 lacks: $2" >&2; fail=$((fail + 1)); fi
}
lacks() { # lacks TEXT: no report may contain it
    if grep -qF -- "$1" "$out"/*.md; then
        echo "FAIL: a report contains the slip: $1" >&2; grep -nF -- "$1" "$out"/*.md >&2
        fail=$((fail + 1)); else pass=$((pass + 1)); fi
}
# maximum_kernel: 80,000 iterations, 240,000 FLOPs, 640,000 bytes
has maximum_kernel.md "**80,000** iterations in total"
has maximum_kernel.md "3 to 4 iterations per thread, 3,200 per block"
has maximum_kernel.md "| FLOPs | 9 to 12 | 9,600 | **240,000** |"
has maximum_kernel.md "| Bytes moved | 24 to 32 | 25,600 | **640,000** (0.610 MiB) |"
has maximum_kernel.md "- GeForce GTX TITAN Black: **6.90 µs**"
has maximum_kernel.md "- GeForce RTX 4070: **6.27 µs**"
# gpuMeans: 100 iterations and 549 FLOPs per block
has gpuMeans.md "6 to 7 iterations per thread, 100 per block"
has gpuMeans.md "| FLOPs | 30 to 51 | 549 | **13,725** |"
has gpuMeans.md "| Bytes moved | 48 to 68 | 812 | **20,300** (0.0194 MiB) |"
# gpuKendall: 4,950 pairs per block
has gpuKendall.md "4,950 per block; **123,750** iterations in total"
has gpuKendall.md "**1,237,500**"
has gpuKendall.md "**1,980,000**"
# getRestricted: 160 active threads as modelled, 800 as launched
has getRestricted.md "| Active threads | 1 | 160 | 160 of 25,600 launched (0.625 %), in 1 of 25 blocks |"
has getRestricted.md "| Active threads | 160 | 800 |"
has getRestricted.md "as launched, 800 threads would work instead of 160"
has getRestricted.md "**31,824,000** (30.3 MiB)"
# every GPU's time in the conclusion equals the time table's
has getRestricted.md "| GeForce GTX TITAN Black | 1.35 | 94.7 | 94.7 | 5.00 | 99.7 | memory | 5.01 |"
# the slips
lacks "10^8"
lacks "10^7"
lacks "10^6"
lacks "7.5 µs"
lacks "1.38"
lacks "3.18 × 10"
lacks "1.99 × 10"
lacks "2.4 × 10"
# CSV: one row per kernel x GPU plus the header, exact values
rows=$(wc -l < "$out/estimates.csv")
if [ "$rows" -eq 21 ]; then pass=$((pass + 1)); else echo "FAIL: estimates.csv has $rows lines, want 21" >&2; fail=$((fail + 1)); fi
has estimates.csv "maximum_kernel,titan-black,240000,640000,0.375,0.046875,1.9047619047619047,1.9047619047619047,5,6.904761904761905,memory,assumed"
echo "reports: $pass passed, $fail failed"
[ $fail -eq 0 ]
