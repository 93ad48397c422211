#!/bin/sh
# glance.sh ROOFCAST SOURCE_DIR
# Reports lead with the answer (issue 29): "At a glance" before section 1, its rows in the
# order of t_estimate, "fastest" by t_estimate with the no-meaningful-difference rule, and the
# length limits on the bundled kernels over all 12 GPUs.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp
"$roofcast" -q -f md,html,xml -o "$out"
# words FILE [STOP]: the words of FILE up to the first line starting with STOP. A word is a
# whitespace-separated token holding a letter: numbers and table rules are not words.
words() {
    awk -v stop="${2:-}" 'stop != "" && index($0, stop) == 1 {exit}
        {for (i = 1; i <= NF; i++) if ($i ~ /[[:alpha:]]/) n++} END {print n + 0}' "$1"
}
for f in "$out"/*.md; do
    # At a glance comes first: before the configuration and section 1
    glance=$(grep -n '^## At a glance$' "$f" | cut -d: -f1)
    config=$(grep -n '^## Configuration$' "$f" | cut -d: -f1)
    if [ -n "$glance" ] && [ -n "$config" ] && [ "$glance" -lt "$config" ] &&
       [ "$(grep -c '^## ' "$f")" -ge 1 ] && [ "$(grep '^## ' "$f" | head -1)" = "## At a glance" ]; then
        ok; else bad "$f: At a glance is not the first section"; fi
    # the rows' t_estimate never falls (fastest first)
    if awk -F' [|] ' '/^## At a glance/{on=1} on && /^\| .* \| .* \| .* \| .* \| .* \|$/ && !/GPU|---/ {
            t = $2; gsub(/[*,]/, "", t); if (seen && t + 0 < last + 0) exit 1; last = t; seen = 1 }
            on && /^## Configuration/ {exit}' "$f"; then ok; else bad "$f: At a glance is not ordered by t_estimate"; fi
    n=$(words "$f" "## Appendix")
    if [ "$n" -le 2000 ]; then ok; else bad "$f: $n words before the appendix, want at most 2,000"; fi
    n=$(words "$f")
    if [ "$n" -le 5000 ]; then ok; else bad "$f: $n words, want at most 5,000"; fi
done
# getRestricted: the refined estimate ranks the RTX 4090 and L40S first, t_total the H200
contains "$out/getRestricted.md" "| **NVIDIA L40S** | **1,020** | memory latency: 160 threads at work | 8.57 | 41.8 |"
contains "$out/getRestricted.md" "| GeForce GTX TITAN Black | 1,810 | memory latency: 160 threads at work | 33.8 | 99.7 |"
contains "$out/getRestricted.md" "t\\_estimate ranges from 1,020 µs on the NVIDIA L40S to 1,810 µs on the GeForce GTX TITAN Black, 1.78 times as long. No meaningful difference between the NVIDIA L40S, GeForce RTX 4090 and GeForce RTX 4070 (1,020 to 1,040 µs, within 10 % of the fastest): no ranking among them."
contains "$out/getRestricted.md" "On the NVIDIA H200 SXM 141GB t\\_estimate is 116 times t\\_total: the peak roofline moves its 31,824,000 bytes at the datasheet's 4.80 TB/s"
# gpuMeans: launch-bound everywhere, four Ada GPUs within 10 % (2.31 to 2.47 µs)
contains "$out/gpuMeans.md" "It is limited by the launch cost on all 12 GPUs."
contains "$out/gpuMeans.md" "No meaningful difference between the NVIDIA L40S, GeForce RTX 4070, GeForce RTX 4090 and NVIDIA L4 (2.31 to 2.47 µs, within 10 % of the fastest)"
contains "$out/gpuMeans.md" "On the NVIDIA L40S t\\_total is 2.18 times t\\_estimate: it counts 5.00 µs for a launch followed by a synchronisation, where t\\_estimate counts 1.60 µs for a launch queued back to back, and the body is 0.707 µs."
# maximum_kernel: the body alone would rank the H200 first; the launch cost decides
contains "$out/maximum_kernel.md" "The launch cost decides the ranking: by the body alone the NVIDIA H200 SXM 141GB would be fastest (0.168 µs against 0.224 µs on the NVIDIA L40S), but a launch costs 2.50 µs on it against 1.60 µs on the NVIDIA L40S."
# "fastest" follows t_estimate: 3 + 3 + 4 + 4 GPUs within 10 % of each kernel's fastest
n=$(sed -n '/<estimates>/,/<\/estimates>/p' "$out/results.xml" | grep -c '<estimate gpu=.* fastest="yes"')
[ "$n" -eq 14 ] && ok || bad "results.xml: $n fastest estimates, want 14"
n=$(grep -c '<row gpu=.* fastest="yes"' "$out/results.xml")
[ "$n" -eq 14 ] && ok || bad "results.xml: $n fastest rows, want 14"
contains "$out/results.xml" '<row gpu="l40s" gpu-name="NVIDIA L40S" rank="1" t-estimate="0.0010158015364958564" t-estimate-text="1,020"'
finish glance
