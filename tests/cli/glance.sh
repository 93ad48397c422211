#!/bin/sh
# glance.sh ROOFCAST SOURCE_DIR GEN_KERNELS
# Reports lead with the answer (issue 29): "At a glance" before section 1, its rows in the
# order of t_estimate, "fastest" by t_estimate with the no-meaningful-difference rule, and the
# length limits over all 12 GPUs (at most 2,000 words before the appendix, 5,000 in all) on
# the bundled kernels, on generated ones (GEN_KERNELS) and on the validation kernels.
set -eu
. "$(dirname "$0")/lib.sh"
gen_kernels=$3
case $gen_kernels in /*) ;; *) gen_kernels=$(pwd)/$gen_kernels ;; esac
setup "$1" "$2"
out=$tmp
"$roofcast" -q -f md,html,xml -o "$out" kernels
# words FILE [STOP]: the words of FILE up to the first line starting with STOP, counted as
# `wc -w` counts them: every whitespace-separated token (numbers and table cells included).
words() {
    awk -v stop="${2:-}" 'stop != "" && index($0, stop) == 1 {exit} {print}' "$1" | wc -w
}
# limits FILE: at most 2,000 words before the appendix and 5,000 in all.
limits() {
    n=$(words "$1" "## Appendix")
    if [ "$n" -le 2000 ]; then ok; else bad "$1: $n words before the appendix, want at most 2,000"; fi
    n=$(words "$1")
    if [ "$n" -le 5000 ]; then ok; else bad "$1: $n words, want at most 5,000"; fi
}
# The count is wc -w's: a table row's bars and numbers are words.
mkdir "$tmp/count"
printf '| a | 1.5 |\nb c\n## Appendix A\nd\n' > "$tmp/count/a.md"
[ "$(words "$tmp/count/a.md" "## Appendix")" -eq 7 ] && [ "$(words "$tmp/count/a.md")" -eq 11 ] &&
    ok || bad "words does not count as wc -w"
# Generated kernels (each of gen_kernels' five shapes twice) and the validation kernels, with
# the charts' image lines as a full run writes them (SVG, quicker to make than PNG: the
# same words).
mkdir "$tmp/gen"
"$gen_kernels" 10 "$tmp/gen" >/dev/null
"$roofcast" -q -f md,svg -o "$tmp/gen-out" "$tmp/gen"
# Every validation point's model, the `published` ones (issue 33) included, but gpu-stream's:
# they hold 40 to 99 KiB of shared memory a block to limit the blocks an SM holds, which the
# older bundled GPUs cannot launch (validate.sh runs each on its own GPU); nor amora's and
# cuda-stride-benchmark's sweeps, one kernel each at other launch shapes, whose 2^25 and 2^29
# elements would add seconds and no report the others do not make.
# shellcheck disable=SC2046 # one word per model path
"$roofcast" -q -f md,svg -o "$tmp/validation" \
    $(awk -F, 'NR > 1 && !index($4, "/models-gpu-stream/") && !index($4, "/models-amora/") &&
               !index($4, "/models-stride/") { print $4 }' \
          tests/validation/points.csv | sort -u)
for f in "$tmp"/gen-out/*.md "$tmp"/validation/*.md; do
    limits "$f"
done
# Section 1 lists the work model statement by statement where the whole report, list
# included, stays within its budgets; the RTX A6000's register-tiled SGEMM (about 430 words
# of statements) on the 13 bundled GPUs would not, and points to the HTML report and
# results.xml instead, which list them; the naive one (about 150) keeps its list. On its one
# GPU the register-tiled one's report has room, and keeps its list.
f=$tmp/validation/a6000-sgemm-5-2d-blocktiling.md
has "$f" "Its statements, each with its counts, are too many for this Markdown report: the HTML report (format html) and results.xml (format xml) list them."
lacks "$f" "- Loop \`for (bk = 0; bk < N; bk += 8)\`"
"$roofcast" -q -f md -o "$tmp/one-gpu" --specs tests/validation/specs --gpu rtx-a6000 \
    tests/validation/published/models-a6000/a6000-sgemm-5-2d-blocktiling.xml
f=$tmp/one-gpu/a6000-sgemm-5-2d-blocktiling.md
has "$f" "- Loop \`for (bk = 0; bk < N; bk += 8)\`: entered 262,144 times by 262,144 threads; 512 iterations per thread, 131,072 per block; **134,217,728** iterations in total."
lacks "$f" "are too many for this Markdown report"
limits "$f"
has "$tmp/validation/a6000-sgemm-1-naive.md" "- Loop \`for (i = 0; i < K; i += 1)\`: entered 16,777,216 times by 16,777,216 threads; 4,096 iterations per thread, 4,194,304 per block; **68,719,476,736** iterations in total."
lacks "$tmp/validation/a6000-sgemm-1-naive.md" "are too many for this Markdown report"
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
    limits "$f"
done
# Appendix B states each source once (issue 29.3): the sentence every GPU file opens with
# once for all, the device figures' sources once each, numbered as appendix A cites them.
f=$out/getRestricted.md
has "$f" "- Every GPU: NVIDIA's published figures (datasheet and architecture whitepaper) as reprinted by secondary sources."
n=$(grep -o "as reprinted by secondary sources" "$f" | wc -l)
[ "$n" -eq 1 ] && ok || bad "getRestricted.md: the shared source sentence $n times, want once"
has "$f" "| NVIDIA L4 | 255 GB/s (assumed) [16] | 254 ns (assumed) [14] | 1.60 µs (assumed) [15] |"
has "$f" "| GeForce RTX 4090 | 922 GB/s [26] | 252 ns (636 cycles) [27] | 1.60 µs (assumed) [15] |"
has "$f" "| NVIDIA L40S | 830 GB/s (assumed) [28] | 254 ns (assumed) [14] | 1.60 µs (assumed) [15] |"
has "$f" "- [15] Assumed: as measured on an L40 (Ada AD102) by te42kyfo/gpu-benches (RRZE-HPC) (gpu-small-kernels/l40.txt: a 64 kB SCALE kernel queued 10,000 times runs at 40 GB/s, 1.6 us a launch)"
listed=$(sed -n 's/^- \[\([0-9]*\)\] .*/\1/p' "$f")
[ "$listed" = "$(seq 1 28)" ] && ok || bad "getRestricted.md: appendix B's device sources are not 1 to 28"
[ -z "$(sed -n 's/^- \[[0-9]*\] //p' "$f" | sort | uniq -d)" ] && ok || bad "getRestricted.md: a device source listed twice"
cited=$(grep '^| .* \[[0-9]*\] |$' "$f" | grep -o '\[[0-9]*\]' | tr -d '[]' | sort -un)
[ "$cited" = "$(seq 1 28)" ] && ok || bad "getRestricted.md: appendix A does not cite sources 1 to 28"
# Nothing is lost: results.xml keeps what the Markdown leaves out (each term's inputs, each
# level's time, t_total as launched on each GPU).
n=$(grep -c '<term name=.* inputs=' "$out/results.xml")
[ "$n" -eq 244 ] && ok ||
    bad "results.xml: $n terms with their inputs, want 244 (5 on each of 12 GPUs and the TITAN V's blocks, 4 kernels)"
n=$(grep -c '<estimate gpu=.* t-l1=.* t-l2=.* t-dram=' "$out/results.xml")
[ "$n" -eq 48 ] && ok || bad "results.xml: $n estimates with each level's time, want 48"
n=$(sed -n '/<launch-estimates>/,/<\/launch-estimates>/p' "$out/results.xml" | grep -c '<estimate gpu=.* t-total=')
[ "$n" -eq 36 ] && ok || bad "results.xml: $n estimates as launched, want 36 (3 kernels with assumptions)"
# getRestricted: the refined estimate ranks the RTX 4090 and L40S first, t_total the H200
contains "$out/getRestricted.md" "| **GeForce RTX 4090** | **1,020** | memory latency: 160 threads at work | 6.35 | 36.6 |"
contains "$out/getRestricted.md" "| GeForce GTX TITAN Black | 1,370 | memory latency: 160 threads at work | 16.3 | 99.7 |"
contains "$out/getRestricted.md" "t\\_estimate ranges from 1,020 µs on the GeForce RTX 4090 to 1,640 µs on the NVIDIA A100 SXM4 80GB, 1.60 times as long. No meaningful difference between the GeForce RTX 4090, NVIDIA L40S, GeForce RTX 4070 and NVIDIA L4 (1,020 to 1,030 µs, within 10 % of the fastest)."
contains "$out/getRestricted.md" "On the NVIDIA H200 SXM 141GB t\\_estimate is 130 times t\\_total: the peak roofline moves its 31,824,000 bytes at the datasheet's 4.80 TB/s"
# gpuMeans: launch-bound everywhere, four Ada GPUs within 10 % (2.39 to 2.53 µs)
contains "$out/gpuMeans.md" "It is limited by the launch cost on all 12 GPUs."
contains "$out/gpuMeans.md" "No meaningful difference between the NVIDIA L40S, GeForce RTX 4070, GeForce RTX 4090 and NVIDIA L4 (2.39 to 2.53 µs, within 10 % of the fastest)"
contains "$out/gpuMeans.md" "On the NVIDIA L40S t\\_total is 2.10 times t\\_estimate: it counts 5.00 µs (assumed) for a launch and a synchronisation, where t\\_estimate counts 1.60 µs (assumed) for one queued back to back, and the body 0.793 µs."
# gpuKendall: the body alone would rank the H200 first; the launch cost decides (the H200's
# is measured, the L40S's assumed, and the sentence says which). maximum_kernel's bodies on
# the two, 0.32 and 0.345 µs, are within 10 %: no such sentence.
contains "$out/gpuKendall.md" "The launch cost decides the ranking: by the body alone the NVIDIA H200 SXM 141GB would be fastest (0.980 µs against 1.29 µs on the NVIDIA L40S), but a launch costs 2.50 µs on it against 1.60 µs (assumed) on the NVIDIA L40S."
lacks "$out/maximum_kernel.md" "The launch cost decides the ranking"
# "fastest" follows t_estimate: 4 + 4 + 4 + 4 GPUs within 10 % of each kernel's fastest
n=$(sed -n '/<estimates>/,/<\/estimates>/p' "$out/results.xml" | grep -c '<estimate gpu=.* fastest="yes"')
[ "$n" -eq 16 ] && ok || bad "results.xml: $n fastest estimates, want 16"
n=$(grep -c '<row gpu=.* fastest="yes"' "$out/results.xml")
[ "$n" -eq 16 ] && ok || bad "results.xml: $n fastest rows, want 16"
contains "$out/results.xml" '<row gpu="rtx-4090" gpu-name="GeForce RTX 4090" rank="1" t-estimate="0.001021989908183178" t-estimate-text="1,020"'
# Dependent loops (issue 33): the chain sets the estimate, in words with its numbers. The chase:
# 10,000 L1 hits of 40 cycles at 1980 MHz on the H100 SXM5, 202 µs, a floor (t_lower: 150 µs,
# at 1.35 x the clock); the TITAN V's l1 latency is assumed, so its chain bounds nothing. The
# recurrence: 100,000 FMAs of 4 cycles at 1455 MHz on the TITAN V, 275 µs.
"$roofcast" -q -f md,xml --gpu titan-v,h100-sxm5 -o "$tmp/dependent" tests/data/dependent
contains "$tmp/dependent/chase.md" "| **NVIDIA H100 SXM5 80GB** | **205** | latency: the longest thread's 10,000 dependent iterations | 150 | 5.38 |"
contains "$tmp/dependent/chase.md" "On the NVIDIA H100 SXM5 80GB the longest thread's 10,000 dependent iterations, each at least one L1 hit (40.0 cycles), take 202 µs: fewer dependent iterations a thread, or more chains each shorter, would make it faster."
contains "$tmp/dependent/recurrence.md" "It is limited by the longest thread's dependent chain on both GPUs."
contains "$tmp/dependent/results.xml" "<explanation>Limited by latency: the longest thread's 10,000 dependent iterations, each at least one L1 hit (30.0 cycles, assumed), take 206 µs."
contains "$tmp/dependent/results.xml" "<explanation>Limited by latency: the longest thread's 100,000 dependent iterations, each one dependent FMA instruction (4.00 cycles), take 275 µs."
contains "$tmp/dependent/results.xml" 'inputs="10,000 dependent iterations of the longest thread (the loop of line 9) x 40.0 cycles, one L1 hit each (the GPU'"'"'s l1 latency) / 1.98 GHz" lower="0.000202020202020202'
contains "$tmp/dependent/results.xml" 'note="p = next[p]" closed-form="yes" dependent="yes"'
# Plain stores to an array the atomics update wait in the same line's queue and are in its
# pairs (atomics.h): 64 blocks x 8 warps x (100 stores + 1 atomic) = 51,712 on one line. The
# sentences name both, not "atomics" alone.
"$roofcast" -q -f md,xml --gpu titan-v -o "$tmp/atomics" tests/data/atomics
contains "$tmp/atomics/store_and_atomic.md" "On the NVIDIA TITAN V its atomics and stores on 'flag' take 51,700 turns a line on 1 L2 line, one at a time:"
contains "$tmp/atomics/results.xml" "<explanation>Limited by atomics on few L2 lines: 'flag' takes 51,700 atomic and store (request, line) pairs on 1 line, 51,700 a line"
# A pipe whose every warp runs with all its lanes: 1,024 x 8 warps x 10,000 = 81,920,000 warp
# instructions of 32 lanes each. Guards could not make it faster, and the verdict offers none.
"$roofcast" -q -f md --gpu titan-v -o "$tmp/pipes" tests/data/pipes
contains "$tmp/pipes/all_lanes.md" "On the NVIDIA TITAN V its 81,900,000 warp instructions on the special function units take 1,760 µs: fewer of them would make it faster; fewer bytes would not."
# One FLOP an iteration is half an FMA by FLOPs / 2; the chain counts one instruction, and its
# inputs say why.
"$roofcast" -q -f xml --gpu titan-v -o "$tmp/one-flop" tests/data/chain-one-flop
contains "$tmp/one-flop/results.xml" 'x 1.00 FMA instructions each (its FLOPs / 2, at least one) x 4.00 cycles'
# Stores alone wait on no latency (architectures.md items 14 and 23): gpu-stream's init on the
# V100, 80 SMs of one block of 16 threads each storing 8 B, keep 10,240 B in flight over a
# thread's start and end, 223 ns: 45.9 GB/s, where read adds the DRAM's latency (540 ns).
gs=tests/validation/published/models-gpu-stream
"$roofcast" -q -f md,html,xml --specs tests/validation/specs --gpu tesla-v100 -o "$tmp/stores" \
    "$gs/gs-v100-init-b16x1.xml" "$gs/gs-v100-read-b16x1.xml"
contains "$tmp/stores/gs-v100-init-b16x1.md" "keep 10.2 kB in flight, which over the threads' start and end (no thread waits for its stores) move 45.9 GB/s of its sustained 814 GB/s (Little's law): more threads at work at once (more blocks, or more working threads per block) or more independent stores per thread would make it faster."
contains "$tmp/stores/gs-v100-init-b16x1.md" "all that 10.2 kB in flight reach over the threads' start and end (no thread waits for its stores; Little's law)."
contains "$tmp/stores/gs-v100-read-b16x1.md" "keep 10.2 kB in flight, which over the DRAM latency move 19.0 GB/s of its sustained 814 GB/s (Little's law):"
contains "$tmp/stores/results.xml" 'little = 10.2 kB in flight / 223 ns (the threads'"'"' start and end: only stores are in flight, and no thread waits for a store) = 45.9 GB/s'
n=$(grep -c 'latency-of="none"' "$tmp/stores/results.xml")
[ "$n" -eq 3 ] && ok || bad "results.xml: $n terms with latency-of=\"none\", want 3 (init's DRAM, L2 and L1)"
contains "$tmp/stores/gs-v100-init-b16x1.html" "(no latency where only stores are in flight: no thread waits for its store, which ends at the L2, and DRAM drains the lines at its sustained rate)"
lacks "$tmp/stores/gs-v100-read-b16x1.html" "no latency where only stores are in flight"
finish glance
