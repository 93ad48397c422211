#!/bin/sh
# reports.sh ROOFCAST SOURCE_DIR
# What the reference reports derive is stated in ours, and none of their
# slips (../shared/seeds/README.md) is repeated.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp
"$roofcast" -q -f md,csv -o "$out" --gpu titan-black,titan-x,titan-v,rtx-2080-ti,rtx-4070
# slip TEXT: no report may contain it, as a whole number ("7.5 µs" is not in "17.5 µs")
slip() {
    re="(^|[^0-9.,])$(printf '%s' "$1" | sed 's/[].[^$*+?(){}|\\/]/\\&/g')"
    for f in "$out"/*.md; do
        if grep -qE -- "$re" "$f"; then
            bad "$f holds the slip: $1"; grep -nE -- "$re" "$f" | sed 's/^/  | /' >&2
        else ok; fi
    done
}
# maximum_kernel: 80,000 iterations, 240,000 FLOPs, 640,000 bytes
contains "$out/maximum_kernel.md" "**80,000** iterations in total"
contains "$out/maximum_kernel.md" "3 to 4 iterations per thread, 3,200 per block"
contains "$out/maximum_kernel.md" "| FLOPs | 9 to 12 | 9,600 | **240,000** |"
contains "$out/maximum_kernel.md" "| Bytes moved | 24 to 32 | 25,600 | **640,000** (0.610 MiB) |"
has "$out/maximum_kernel.md" "- GeForce GTX TITAN Black: 6.90 µs"
has "$out/maximum_kernel.md" "- GeForce RTX 4070: 6.27 µs"
contains "$out/maximum_kernel.md" "compares GPUs on their datasheets as the reference reports do, memory bound on every GPU:"
# gpuMeans: 100 iterations and 549 FLOPs per block
contains "$out/gpuMeans.md" "6 to 7 iterations per thread, 100 per block"
contains "$out/gpuMeans.md" "| FLOPs | 30 to 51 | 549 | **13,725** |"
contains "$out/gpuMeans.md" "| Bytes moved | 48 to 68 | 812 | **20,300** (0.0194 MiB) |"
# gpuKendall: 4,950 pairs per block
contains "$out/gpuKendall.md" "4,950 per block; **123,750** iterations in total"
contains "$out/gpuKendall.md" "**1,237,500**"
contains "$out/gpuKendall.md" "**1,980,000**"
# getRestricted: 160 active threads as modelled, 800 as launched
contains "$out/getRestricted.md" "| Active threads | 1 | 160 | 160 of 25,600 launched (0.625 %), in 1 of 25 blocks |"
contains "$out/getRestricted.md" "as launched, 800 threads would work instead of 160"
contains "$out/getRestricted.md" "**31,824,000** (30.3 MiB)"
# every GPU's time in the conclusion equals the time table's
contains "$out/getRestricted.md" "| GeForce GTX TITAN Black | 1.35 | 94.7 | 94.7 | 5.00 | 99.7 | memory | 5.01 |"
# the slips
slip "10^8"
slip "10^7"
slip "10^6"
slip "7.5 µs"
# gpuMeans's F_total as the reference text misstates it (1.38 x 10^7); a ratio of 1.38 is no slip
slip "1.38 x 10"
slip "1.38 × 10"
slip "3.18 × 10"
slip "1.99 × 10"
slip "2.4 × 10"
# CSV: one row per kernel x GPU plus the header, exact values. t_estimate by hand: the 25
# blocks of 1,024 threads, 8 bytes each, keep 204,800 B in flight, which at L1 (6,400
# requests of 128 B, 819,200 B for the 640,000 asked) are 1.28 x as many, 262,144 B; over the
# L1's 209.0 ns a round (114.3 ns x 1.3 + (223 ns - 114.3 ns x 0.3) / 3.125 rounds) that is
# 1.254 TB/s, met with the 940.8 GB/s sustained 752.6 GB/s; 819,200 B take 1.0884 us, + 2.5
# us of launch = 3.5884 us.
rows=$(wc -l < "$out/estimates.csv")
if [ "$rows" -eq 21 ]; then ok; else bad "estimates.csv has $rows lines, want 21"; fi
has "$out/estimates.csv" "maximum_kernel,titan-black,240000,640000,0.375,0.046875,1.9047619047619047,1.9047619047619047,5,6.904761904761905,memory,6400,640000,727040,4032,0,0,20800,4032,1,1,0.2519526329050139,3.5883986405578607,launch,assumed,"
finish reports
