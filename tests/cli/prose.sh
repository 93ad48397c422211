#!/bin/sh
# prose.sh ROOFCAST SOURCE_DIR
# What the reports say, sentence by sentence, where the golden files do not
# reach: every format (Markdown, HTML, PDF, CSV, results.xml) marks a figure
# that roofcast assumed rather than read from a GPU file.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp

# has FILE TEXT: FILE (under $out) holds TEXT, line breaks read as spaces
# (pdftotext breaks lines where the page does).
has() {
    if tr '\n' ' ' < "$out/$1" | grep -qF -- "$2"; then ok; else bad "$1 lacks: $2"; fi
}
lacks() {
    if tr '\n' ' ' < "$out/$1" | grep -qF -- "$2"; then bad "$1 holds: $2"; else ok; fi
}
# line FILE TEXT: FILE has a line that is exactly TEXT.
line() {
    if grep -qxF -- "$2" "$out/$1"; then ok; else bad "$1 has no line: $2"; fi
}

# Launch latency: given by two GPU files, assumed (5 µs) for the third.
"$roofcast" -q -s tests/data/latency/specs -o "$out/lat" kernels/maximum_kernel.xml
pdftotext "$out/lat/maximum_kernel.pdf" "$out/lat/maximum_kernel.txt" 2>/dev/null
line lat/estimates.csv "kernel,gpu,flops,bytes,intensity,t_compute_us,t_mem_us,t_body_us,t_launch_us,t_total_us,bound,requests,accessed_bytes,sector_bytes,footprint_bytes,shared_requests,shared_wavefronts,l2_bytes,dram_bytes,occupancy,waves,t_lower_us,t_estimate_us,limiter,t_launch_origin,cannot_launch$(printf '\r')"
line lat/estimates.csv "maximum_kernel,default-c,240000,640000,0.375,0.046875,1.9047619047619047,1.9047619047619047,5,6.904761904761905,memory,6400,640000,727040,4032,0,0,20800,20800,1,2,0.27434842249657065,4.197035747675602,launch,assumed,$(printf '\r')"
line lat/estimates.csv "maximum_kernel,given-a,240000,640000,0.375,0.01610738255033557,0.9803921568627451,0.9803921568627451,2,2.9803921568627447,memory,6400,640000,727040,4032,0,0,20800,20800,1,1,0.09496676163342829,3.1086519932513896,launch,published,$(printf '\r')"
line lat/maximum_kernel.md "| Test GPU C | Test | 5.12 TFLOP/s | 336 GB/s | 15.2 FLOP/byte | 5 µs (assumed) |"
line lat/maximum_kernel.md "| Test GPU A | Test | 14.9 TFLOP/s | 652.8 GB/s | 22.8 FLOP/byte | 2 µs |"
line lat/maximum_kernel.md "- Launch latency, 5 µs on Test GPU C, is assumed: roofcast's default, used where the GPU file gives no launch latency. It stands for one kernel launch followed by a synchronisation, as in the reference reports (5 to 10 µs in published microbenchmarks; launches queued back to back take about 1.6 to 2.6 µs)."
assumed_sentence="The launch latency of 5.00 µs is assumed on Test GPU C (its file gives the peak roofline none): it stands for a launch followed by a synchronisation, as in the reference reports. Queued back to back, a launch costs 2.50 µs (assumed)."
line lat/maximum_kernel.md "$assumed_sentence"
has lat/maximum_kernel.html '<td class="num">5 µs<span class="tag">assumed</span></td>'
has lat/maximum_kernel.html '<td class="num">2 µs</td>'
has lat/maximum_kernel.html "Launch latency, 5 µs on Test GPU C, is <strong>assumed</strong>: roofcast's default"
has lat/maximum_kernel.html "$assumed_sentence"
has lat/index.html '<td class="num">5 µs<span class="tag">assumed</span></td>'
has lat/index.html "Launch latency, 5 µs on Test GPU C, is <strong>assumed</strong>"
has lat/maximum_kernel.txt "The launch latency of 5.00 µs is assumed on Test GPU C (its file gives the peak roofline"
xpath() { xmllint --xpath "$1" "$out/lat/results.xml" 2>/dev/null || true; }
[ "$(xpath 'count(//gpu[@id="default-c"]/figure[@name="launch-latency"][@origin="assumed"][contains(@assumption, "launch followed by a synchronisation")])')" = 1 ] &&
    ok || bad "results.xml: default-c's launch latency is not marked assumed"
[ "$(xpath 'count(//gpu/figure[@origin="published"][@name="launch-latency"])')" = 2 ] &&
    ok || bad "results.xml: the given launch latencies are not marked published"
[ "$(xpath 'count(//gpu/figure[not(@origin) or not(@source)])')" = 0 ] &&
    ok || bad "results.xml: a figure without origin or source"
[ "$(xpath 'count(//estimate[@gpu="default-c"][@t-launch-origin="assumed"])')" = 1 ] &&
    ok || bad "results.xml: the estimate on default-c does not say its t_launch is assumed"

# Every bundled GPU assumes it: one item says so for all.
"$roofcast" -q -f md -o "$out/all" --gpu titan-black,rtx-4070 kernels/gpuMeans.xml
line all/gpuMeans.md "- Launch latency, 5 µs on every GPU, is assumed: roofcast's default, used where the GPU file gives no launch latency. It stands for one kernel launch followed by a synchronisation, as in the reference reports (5 to 10 µs in published microbenchmarks; launches queued back to back take about 1.6 to 2.6 µs)."
has all/gpuMeans.md "The launch latency of 5.00 µs is assumed on every GPU (no GPU file gives the peak roofline one):"
# (issue 29.6) the H100 SXM5's file gives a measured launch-and-synchronise figure: said, not denied
"$roofcast" -q -f md -o "$out/h100" --gpu titan-black,h100-sxm5 kernels/gpuMeans.xml
has h100/gpuMeans.md "The launch latency of 5.00 µs is assumed on every GPU (no GPU file gives the peak roofline one): it stands for a launch followed by a synchronisation, as in the reference reports; the NVIDIA H100 SXM5 80GB's file gives a measured 9.70 µs for that, unused here. Queued back to back, a launch costs 2.50 µs (assumed)."
lacks h100/gpuMeans.md "no GPU file gives one"
# (issue 29.6) launch 98.7 % to 99.9 % of t_total: the bound does not say how it "follows"
lacks all/gpuMeans.md "follows bandwidth"
"$roofcast" -q -f md -o "$out/restricted" --gpu l40s,h200-sxm kernels/getRestricted.xml
grep -qF "Being memory bound, it follows bandwidth rather than FP32 peak" "$out/restricted/getRestricted.md" &&
    ok || bad "getRestricted (the body outweighs the launch) does not say it follows bandwidth"
# (issue 29.6) a bandwidth limiter's sentence gives the rate reached beside the sustained one
# (the HTML's appendix A; the Markdown's gives the longest term's inputs)
# (the TITAN Black's L2: (547^-2 + 431^-2)^-1/2 = 338 GB/s)
"$roofcast" -q -f md,html -o "$out/kendall" --gpu titan-black kernels/gpuKendall.xml
has kendall/gpuKendall.html "<p>Limited by L2 bandwidth at 100 % occupancy: it reaches 338 GB/s of the 431 GB/s sustained.</p>"
line kendall/gpuKendall.md "- GeForce GTX TITAN Black: 2,730,000 bytes at L2; little = 141 kB in flight / 258 ns = 547 GB/s; sustained 431 GB/s; rate 338 GB/s; x 1.00"
lacks kendall/gpuKendall.md "338 GB/s sustained"
lacks kendall/gpuKendall.html "338 GB/s sustained"
# Where L1 caches only the read-only path: gpuMeans's inputs, never written but
# read-only-path="no", are not called read-only arrays that L1 keeps; on the L4 alone (whose L1
# caches every load) the sentence is not there
"$roofcast" -q -f md,html -o "$out/rop" --gpu titan-black kernels/gpuMeans.xml
has rop/gpuMeans.html "published L1 microbenchmarks; the L1 and L2 bandwidths are the GPU file's, marked there where assumed. Where L1 caches global loads only on the read-only path, it keeps only arrays read that way; the rest reach L2.</p>"
has rop/gpuMeans.md "a growing part of L2 traffic beyond. Where L1 caches only the read-only path, it keeps only arrays read that way."
lacks rop/gpuMeans.html "L1 keeps only read-only arrays"
"$roofcast" -q -f md -o "$out/rop-l4" --gpu l4 kernels/gpuMeans.xml
lacks rop-l4/gpuMeans.md "read-only path"
"$roofcast" -q -f md -o "$out/one" --gpu rtx-4070 kernels/gpuMeans.xml
line one/gpuMeans.md "- Launch latency, 5 µs on GeForce RTX 4070, is assumed: roofcast's default, used where the GPU file gives no launch latency. It stands for one kernel launch followed by a synchronisation, as in the reference reports (5 to 10 µs in published microbenchmarks; launches queued back to back take about 1.6 to 2.6 µs)."
has one/gpuMeans.md "The launch latency of 5.00 µs is assumed (the GPU file gives the peak roofline none):"

# The conclusion says what the figures are, not that they bound the launch
# (issue 14.3); the assumptions name the file their line is in (14.6); a
# header's unit is its cells' (14.5).
"$roofcast" -q -f md,html -o "$out/ref" --gpu titan-black,rtx-4070 kernels/getRestricted.xml
line ref/getRestricted.md "These are peak-roofline estimates from the declared work and the GPUs' figures, not measurements, and neither an upper nor a lower bound on the measured time."
lacks ref/getRestricted.md "bound what the launch can achieve"
lacks ref/getRestricted.html "bound what the launch can achieve"
has ref/getRestricted.html "not measurements, and neither an upper nor a lower bound on the measured time."
has ref/getRestricted.md "an assumption of the model (kernels/getRestricted.xml line 31):"
has ref/getRestricted.html "<li>kernels/getRestricted.xml line 31: only the blocks of one grid row"
has ref/getRestricted.html "an assumption of the model (kernels/getRestricted.xml line 31):"
has ref/getRestricted.html '<th scope="col" class="num">FLOPs / t_body</th><th scope="col" class="num">FLOPs / t_total</th>'
has ref/getRestricted.html '<th scope="col" class="num">Bandwidth</th>'
lacks ref/getRestricted.html '(FLOP/s)</th>'
lacks ref/getRestricted.html '(B/s)</th>'
lacks ref/getRestricted.html '(s)</th>'

# The overviews do not call every figure a datasheet's.
has lat/index.html "These are peak-roofline estimates from declared work and the GPUs' figures (assumed ones marked), not measurements."
has lat/maximum_kernel.txt "estimates from declared work and the GPUs' figures, not measurements"
lacks lat/maximum_kernel.txt "datasheet figures"
lacks lat/index.html "datasheet figures"

# A kernel with no work: no bound, no intensity to give, in every format.
"$roofcast" -q --gpu titan-black -o "$out/zero" tests/data/zero-work/kernels
pdftotext "$out/zero/zero_work.pdf" "$out/zero/zero_work.txt" 2>/dev/null
has zero/zero_work.txt "none: no FLOPs, no bytes"
lacks zero/zero_work.txt "0 FLOP/byte"
lacks zero/zero_work.txt "memory bound"
lacks zero/zero_work.txt "memory latency"
has zero/zero_work.html '<td class="num">none: no FLOPs, no bytes</td>'
line zero/estimates.csv "zero_work,titan-black,0,0,0,0,0,0,5,5,none,0,0,0,0,0,0,0,0,1,1,0,2.5,launch,assumed,$(printf '\r')"
has zero/results.xml 'bound="none"'
# One GPU is compared with none: nothing is called or marked fastest.
lacks zero/results.xml 'fastest="yes"'
lacks zero/index.html 'the fastest GPU of each kernel'
has zero/index.html 'Peak roofline: t_total per launch (µs), the body (bounded by compute or by memory) plus the launch latency of the reference reports'

# A model past the exact analysis budget is counted from a sample, and every
# format says so (issue 16: never silently).
"$roofcast" -q -f md,html,pdf,xml --gpu h100-sxm5 -o "$out/sampled" tests/data/sampled/kernels
pdftotext "$out/sampled/matmul_naive-N8192.pdf" "$out/sampled/matmul_naive-N8192.txt" 2>/dev/null
sample="These counts are estimated from a sample: 286 of the 1,024 blocks whose accesses differ, one drawn at random (seed 20261123) from each of as many equal strides, scaled to the whole launch; counting them all would pass the analysis budget."
has sampled/matmul_naive-N8192.md "$sample"
has sampled/matmul_naive-N8192.html "$sample"
has sampled/matmul_naive-N8192.txt "footprint 805,306,368 B (estimated from a sample of blocks)"
has sampled/results.xml 'sampled="yes"'

# Numbers and nouns agree in HTML as in Markdown (issue 14.7): one thread,
# one execution, one block, one GPU, one wave.
"$roofcast" -q -f md,html,pdf --gpu titan-black -o "$out/single" tests/data/one-thread/kernels
pdftotext "$out/single/one_thread.pdf" "$out/single/one_thread.txt" 2>/dev/null
has single/one_thread.txt "(1, 1, 1) → 1 block"
has single/one_thread.txt "(1, 1, 1) → 1 thread per block"
has single/one_thread.txt "in the one block"
has single/one_thread.txt "accessed in 1 request,"
lacks single/one_thread.txt "1 blocks"
lacks single/one_thread.txt "1 requests"
for f in single/one_thread.md single/one_thread.html; do
    has $f "It reads no thread or block index, and one thread is launched."
    has $f "1 per execution × 1 execution = "
    lacks $f "1 executions"
    lacks $f "(s)"
done
has single/one_thread.html "1 block on 15 SMs: 1 active, 1.00 warp on each, 1 wave, wave factor 1.00; each thread keeps 12.0 bytes in flight over 1.00 round"
has single/one_thread.html "<strong>1</strong> FLOP."
has single/one_thread.html "against the roof of the one GPU."
lacks single/one_thread.html "each of 1 GPUs"
"$roofcast" -q -f md,html --gpu titan-black -o "$out/waves" kernels/maximum_kernel.xml
has waves/maximum_kernel.html "25 blocks on 15 SMs: 15 active, 64.0 warps on each, 1 wave, wave factor 1.00; each thread keeps 8.00 bytes in flight over 3.13 rounds"
has waves/maximum_kernel.html "it was run over 4 ranges of those indices"

# Shared memory that the load/store units bound (16 an SM on GA10x: a request every 2 clocks)
# and that the banks bound (GA100: one wavefront a clock), said as the bound that set it.
# 32 warps x 1,000 conflict-free loads: 32,000 requests; 32,000 x 2 clocks at 1.8 GHz on one SM
# is 35.6 µs, 900 M wavefronts a second; on the A100 one clock each at 1.41 GHz (its 2,048
# threads an SM would hold two such blocks: 100 % of what the launch can use).
mkdir "$out/lsu"
cat > "$out/lsu/shm.xml" <<'XML'
<kernel id="shm" name="shm"><summary>Shared-memory reads only</summary>
<source language="cuda">__shared__ float s[1024]; for (r = 0; r &lt; 1000; r++) x += s[threadIdx.x];</source>
<launch grid="1" block="1024"/>
<array name="s" type="float" length="1024" space="shared"/>
<work><loop var="r" from="0" to="1000"><load array="s" index="threadIdx.x"/></loop></work>
</kernel>
XML
mkdir "$out/lsu/specs"
cp tests/validation/specs/rtx-a6000.xml specs/a100-sxm4-80gb.xml "$out/lsu/specs/"
"$roofcast" -q -f xml -s "$out/lsu/specs" -o "$out/lsu/out" "$out/lsu/shm.xml"
has lsu/out/results.xml "Limited by shared memory at 66.7 % occupancy: 32,000 requests, each holding an SM's load/store units 2.00 clocks (32,000 wavefronts, bank conflicts counted), 900 M wavefronts/s."
has lsu/out/results.xml "inputs=\"max(32,000 wavefronts / 1.00 a clock, 32,000 requests x 2.00 clocks) / (1 active SMs x 1.80 GHz); x 1.00\""
has lsu/out/results.xml "Limited by shared memory at 100 % occupancy: 32,000 wavefronts (bank conflicts counted), 1.00 an SM a clock, 1.41 G/s."
# Ada's 2 clocks a request are GA10x's, not measured on Ada: said assumed (2.48 GHz).
mkdir "$out/lsu/ada"
cp specs/rtx-4070.xml "$out/lsu/ada/"
"$roofcast" -q -f xml -s "$out/lsu/ada" -o "$out/lsu/ada-out" "$out/lsu/shm.xml"
has lsu/ada-out/results.xml "Limited by shared memory at 66.7 % occupancy: 32,000 requests, each holding an SM's load/store units 2.00 clocks (assumed; 32,000 wavefronts, bank conflicts counted), 1.24 G wavefronts/s."
has lsu/ada-out/results.xml "32,000 requests x 2.00 clocks (assumed)) / (1 active SMs x 2.48 GHz)"
# At a glance says so too where those clocks set the time; the A100's are measured.
"$roofcast" -q -f md -s "$out/lsu/ada" -o "$out/lsu/ada-md" "$out/lsu/shm.xml"
"$roofcast" -q -f md --gpu a100-sxm4-80gb -o "$out/lsu/a100-md" "$out/lsu/shm.xml"
line lsu/ada-md/shm.md "On the GeForce RTX 4070 its 32,000 shared-memory wavefronts (bank conflicts counted) take 25.9 µs (its request rate assumed): fewer conflicts or fewer shared-memory accesses would make it faster; fewer FLOPs would not."
has lsu/ada-md/shm.md "take 25.9 µs (its request rate assumed), where the peak roofline counts no shared-memory traffic."
line lsu/a100-md/shm.md "On the NVIDIA A100 SXM4 80GB its 32,000 shared-memory wavefronts (bank conflicts counted) take 22.7 µs: fewer conflicts or fewer shared-memory accesses would make it faster; fewer FLOPs would not."

# A compute-bound kernel whose FLOPs reach less than the peak share: every sentence gives the
# rate they reach (1e11 adds, 2e11 slot FLOPs, in 16-warp SMs at 4/9 issue and 2/3 single
# issue of the TITAN Black's file: 836 GFLOP/s), and names only the rules that apply.
mkdir "$out/issue"
cp specs/titan-black.xml "$out/issue/"
"$roofcast" -q -f md,xml -s "$out/issue" -o "$out/issue/out" \
    tests/validation/published/models-k40c/k40c-arithmetic-1e8-b32.xml
has issue/out/k40c-arithmetic-1e8-b32.md "the refined estimate at 836 GFLOP/s: 15 of its 15 SMs reach 5.12 TFLOP/s at this occupancy, less where adds or multiplies alone take an instruction each and where dependent chains issue one instruction a warp an arithmetic latency, without dual issue."
has issue/out/results.xml "Limited by FP32 compute at 25.0 % occupancy: 5.12 TFLOP/s in reach of the FP32 peak, of which its FLOPs reach 836 GFLOP/s (the compute term's inputs say why)."
mkdir "$out/issue-fused"
sed 's/ fused="false"//' tests/validation/published/models-k40c/k40c-arithmetic-1e8-b32.xml \
    >"$out/issue-fused/k.xml"
"$roofcast" -q -f md -s "$out/issue" -o "$out/issue/fused" "$out/issue-fused/k.xml"
has issue/fused/k40c-arithmetic-1e8-b32.md "the refined estimate at 1.67 TFLOP/s: 15 of its 15 SMs reach 5.12 TFLOP/s at this occupancy, less where dependent chains issue one instruction a warp an arithmetic latency, without dual issue."

# One thread's independent unfused adds: the per-thread floor counts each as an instruction
# (1,000,000 instructions at 2 cycles on the TITAN V's 16 FP32 lanes a scheduler, 1.455 GHz).
mkdir "$out/thread" "$out/thread/specs"
cp specs/titan-v.xml "$out/thread/specs/"
cat >"$out/thread/k.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<kernel id="one-thread-adds" name="one_thread_adds">
  <summary>One thread, a million independent float adds</summary>
  <source language="text">a test kernel</source>
  <launch grid="1" block="1"/>
  <work>
    <loop var="k" from="0" to="1000000"><flops count="1" fused="false"/></loop>
  </work>
</kernel>
EOF
"$roofcast" -q -f md,xml -s "$out/thread/specs" -o "$out/thread/out" "$out/thread/k.xml"
has thread/out/results.xml "Limited by latency: the longest thread's 1,000,000 FLOPs take 1,370 µs as 1,000,000 instructions (an FMA for two FLOPs, an unfused add or multiply for one) issued one every 2.00 cycles, longer than any shared resource needs."
has thread/out/results.xml 'inputs="1,000,000 instructions in the longest thread (its 1,000,000 FLOPs: an FMA for two, an unfused add or multiply for one) x 2.00 cycles an instruction / 1.46 GHz"'
line thread/out/one-thread-adds.md '- t_thread = the longest thread'"'"'s FLOPs / 2 × cycles an instruction / SM clock; fused="false" FLOPs count 2'

# An L1-limited launch: its requests' turns at L1 are not bytes moved, and both sentences say
# so. One block of 1,024 threads reads floats nine apart 1,000 times: 32,000 requests, each on
# 9 lines in 32 banks, (9 + 2) / 4 clocks, 352 bytes of the TITAN V's 128 B a clock
# (banks.h): 11,264,000 bytes; the traffic table's sectors are 1,024 B a request. In flight:
# 1,024 threads x 64 B x 11,264,000 / 4,096,000 requested = 180,224 B over 27.0 ns, far over
# the one SM's 181.9 GB/s sustained, which the rate all but reaches: 181.8 GB/s.
mkdir "$out/l1turns"
cat > "$out/l1turns/k.xml" <<'XML'
<kernel id="stride9" name="stride9"><summary>One block reads floats nine apart</summary>
<source language="cuda">for (r = 0; r &lt; 1000; r++) s += A[(threadIdx.x % 64) * 9];</source>
<launch grid="1" block="1024"/>
<array name="A" type="float" length="1024"/>
<work><loop var="r" from="0" to="1000"><load array="A" index="(threadIdx.x % 64) * 9"/></loop></work>
</kernel>
XML
"$roofcast" -q -f md --gpu titan-v -o "$out/l1turns/out" "$out/l1turns/k.xml"
line l1turns/out/stride9.md "On the NVIDIA TITAN V its requests take L1/shared as long as 11,300,000 bytes at 182 GB/s (assumed): fewer requests, lines or bank conflicts would make it faster; fewer FLOPs would not."
has l1turns/out/stride9.md "the refined estimate's requests take L1/shared as long as 11,300,000 bytes at 182 GB/s, the rate it sustains (assumed)."
lacks l1turns/out/stride9.md "moves 11,300,000 bytes"
# Little's law's sentence marks the figures it rests on where the GPU file assumes them: the
# latency, the sustained rate, or both (the TITAN Black's DRAM rate and latency are both the
# Kepler defaults; the TITAN X's rate is measured, its latency assumed; the validation's RTX
# 3060 Laptop GPU's latency measured, its rate another unit's, assumed); the A100's and the
# RTX 4090's are both measured.
for g in titan-black titan-x rtx-4090 a100-sxm4-80gb; do
    "$roofcast" -q -f md --gpu "$g" -o "$out/little/$g" kernels/getRestricted.xml
done
"$roofcast" -q -f md --specs tests/validation/specs --gpu rtx-3060-laptop \
    -o "$out/little/rtx-3060-laptop" kernels/getRestricted.xml
has little/titan-black/getRestricted.md "which over the DRAM latency move 23.3 GB/s of its sustained 281 GB/s (both assumed; Little's law)"
has little/titan-x/getRestricted.md "which over the DRAM latency (assumed) move 22.3 GB/s of its sustained 256 GB/s (Little's law)"
has little/rtx-3060-laptop/getRestricted.md "which over the DRAM latency move 26.0 GB/s of its sustained 281 GB/s (assumed; Little's law)"
has little/rtx-4090/getRestricted.md "which over the DRAM latency move 31.2 GB/s of its sustained 922 GB/s (Little's law)"
has little/a100-sxm4-80gb/getRestricted.md "which over the DRAM latency move 19.4 GB/s of its sustained 1.76 TB/s (Little's law)"
# Where a request holds more of the level than it asks for, the sentence says in what its bytes
# in flight are counted: one warp reads a float from each of 32 sectors, a loop to a kernel argument
# unrolled 4 times, so 32 threads x 16 B = 512 B asked for, 8 times as many whole sectors,
# 4,096 B over the TITAN V's DRAM latency, 316.7 ns x 1.3 + (223 ns - 316.7 ns x 0.3) / 1,024
# rounds = 411.8 ns: 9.95 GB/s.
"$roofcast" -q -f md --gpu titan-v -o "$out/sectors/out" tests/data/sector-walk/sectors.xml
has sectors/out/sectors.md "On the NVIDIA TITAN V, the 32.0 threads at work keep 4.10 kB of sectors in flight, which over the DRAM latency (assumed) move 9.95 GB/s of its sustained 610 GB/s (Little's law)"
# Where the share rounds to 1.00 (one block's float reads, 4 B a thread: a few sector bytes
# over the whole array's), no sentence, formula or attribute says so: the same threshold
# everywhere (glance.c rc_glance_share_shown).
"$roofcast" -q -f md,xml --gpu h100-sxm5 -o "$out/sectors/round" \
    tests/validation/kernels/one_block_sum-N1048576.xml
has sectors/round/results.xml "keep 1.02 kB in flight (4.00 B each), too few to use the bandwidth"
lacks sectors/round/results.xml "in whole sectors"
lacks sectors/round/results.xml "in-flight-share="
lacks sectors/round/one_block_sum-N1048576.md "(counted in the level's bytes)"
# The rule is gpu-strides' on GA100, GA102 and GH100, assumed on Volta: the L1 term says so.
"$roofcast" -q -f md,xml --gpu titan-v,a100-sxm4-80gb -o "$out/l1turns/both" "$out/l1turns/k.xml"
has l1turns/both/stride9.md "- NVIDIA TITAN V: 11,300,000 bytes at L1/shared (request clocks assumed); little"
has l1turns/both/results.xml 'l1-requests-origin="assumed"'
has l1turns/both/results.xml 'l1-requests-origin="measured"'

# The FP64 unit runs the 64-bit conversions and the FP64 arithmetic one after the other
# (refine.c pipes_time). 24 blocks of 1,024 threads on the GTX TITAN X, 50 rounds of 2
# conversions and an unfused max and min in double: 76,800 warp instructions, 2,457,600
# results at 4 a clock x 24 SMs x 1.075 GHz = 23.8 us; 4,915,200 FLOP slots at the file's
# 0.19 TFLOP/s = 25.9 us; 49.7 us together, t_lower the conversions' 23.8 / 1.35 = 17.6 us.
mkdir "$out/fp64unit"
cat > "$out/fp64unit/k.xml" <<'XML'
<kernel id="to_double" name="to_double"><summary>Each thread converts to double and back, with a max and a min</summary>
<source language="cuda">for (r = 0; r &lt; 50; r++) x = fmin(fmax((double)(float)x, 0.0), 1.0);</source>
<launch grid="24" block="1024"/>
<work><loop var="r" from="0" to="50"><instructions pipe="conversion64" count="2"/><flops count="2" precision="fp64" fused="false"/></loop></work>
</kernel>
XML
"$roofcast" -q -f md,xml --gpu titan-x -o "$out/fp64unit/out" "$out/fp64unit/k.xml"
line fp64unit/out/to_double.md "| GeForce GTX TITAN X | 52.2 | the FP64 unit at 100 % occupancy | 17.6 | 5.40 |"
line fp64unit/out/to_double.md "On the GeForce GTX TITAN X its 76,800 warp instructions of 64-bit conversions (23.8 µs) and its FP64 FLOPs (25.9 µs) take the FP64 unit one after the other (assumed): fewer of either would make it faster; fewer bytes would not."
has fp64unit/out/results.xml "Limited by the FP64 unit at 100 % occupancy: 76,800 warp instructions of conversions from and to 64-bit types, 32 results each, at 4.00 results an SM a clock, 103 Gresults/s, and then the FP64 FLOPs' 25.9 µs, which the same unit runs (assumed)."
has fp64unit/out/results.xml 'fp64-time-text="25.9"'
has fp64unit/out/to_double.md "; 64-bit conversions add the FP64 FLOPs' term (one unit: assumed)"

# From Volta on, special functions and conversions take the XU one after the other; the GTX
# TITAN X keeps them apart. 264 blocks of 256 threads, 100 rounds of 3 sines and a conversion:
# on the H100 SXM5 633,600 + 211,200 warp instructions at 16 a clock x 132 SMs x 1.98 GHz,
# 4.85 + 1.62 us. The 9.0 conversion rate is assumed (the Guide's 9.0 column was not found):
# the sentence says so of that part.
mkdir "$out/xu"
cat > "$out/xu/k.xml" <<'XML'
<kernel id="xu_mix" name="xu_mix"><summary>Each thread converts an int to float and takes a sine</summary>
<source language="cuda">for (r = 0; r &lt; 100; r++) x = __sinf((float)(i + r));</source>
<launch grid="264" block="256"/>
<work><loop var="r" from="0" to="100"><instructions pipe="conversion" count="1"/><instructions pipe="special" count="3"/></loop></work>
</kernel>
XML
"$roofcast" -q -f md,xml --gpu h100-sxm5,titan-x -o "$out/xu/out" "$out/xu/k.xml"
line xu/out/xu_mix.md "On the NVIDIA H100 SXM5 80GB its 634,000 warp instructions on the special function units (4.85 µs) and 211,000 on the conversion pipe (1.62 µs; rate assumed) take the XU one after the other: fewer of either would make it faster; fewer bytes would not."
has xu/out/xu_mix.md "| GeForce GTX TITAN X | 38.2 | the special function units at 100 % occupancy |"
has xu/out/results.xml "Limited by the XU at 100 % occupancy: 634,000 warp instructions on the special function units, 32 results each, at 16.0 results an SM a clock, 4.18 Tresults/s, and then the 211,000 warp instructions on the conversion pipe, 1.62 µs, which the same unit runs."
has xu/out/xu_mix.md "; special functions and conversions add up (one unit, the XU)"
# Conversions alone on the H100 SXM5: 844,800 warp instructions at the assumed 16 a clock,
# 6.46 us, and the sentence says the rate is assumed; on the GTX TITAN X the Guide's 5.2 rate
# (32 a clock) is published and nothing is said.
cat > "$out/xu/c.xml" <<'XML'
<kernel id="conv_only" name="conv_only"><summary>Each thread converts ints to floats</summary>
<source language="cuda">for (r = 0; r &lt; 100; r++) x += (float)(i + r);</source>
<launch grid="264" block="256"/>
<work><loop var="r" from="0" to="100"><instructions pipe="conversion" count="4"/></loop></work>
</kernel>
XML
"$roofcast" -q -f md --gpu h100-sxm5 -o "$out/xu/h100" "$out/xu/c.xml"
"$roofcast" -q -f md --gpu titan-x -o "$out/xu/titanx" "$out/xu/c.xml"
has xu/h100/conv_only.md "On the NVIDIA H100 SXM5 80GB its 845,000 warp instructions on the conversion pipe take"
has xu/h100/conv_only.md "µs (its rate assumed): fewer of them would make it faster"
has xu/titanx/conv_only.md "warp instructions on the conversion pipe take"
lacks xu/titanx/conv_only.md "(its rate assumed)"

# A launch that reads and then writes `out` (122,880 bytes): DRAM reads it in and writes it
# back, so the one wave's cap is the footprint (2,744,320 bytes) and those bytes again,
# 2,867,200; the reports say so where out is read and written, and not where it is only
# written (shared_read_one_wave, the same kernel otherwise).
"$roofcast" -q -f md,html,xml --gpu titan-black -o "$out/rw" tests/data/wave-cap/kernels
has rw/accumulate_one_wave.md "Of the footprint, 122,880 bytes are both read and written: DRAM moves them twice, read in and written back."
has rw/accumulate_one_wave.md "else at most one footprint, with the bytes both read and written again, a wave (assumed)"
has rw/accumulate_one_wave.html "Of the footprint, 122,880 bytes are both read and written: DRAM moves them twice, read in and written back."
has rw/accumulate_one_wave.html "otherwise at most the footprint, with the bytes both read and written again, once per wave"
has rw/accumulate_one_wave.html "DRAM moves 2,870,000 bytes, not the 144,000,000 of \"Memory traffic by level\": at most the footprint (2,740,000 bytes, 123,000 of them both read and written and so counted twice) once in the launch's one wave"
lacks rw/shared_read_one_wave.md "both read and written"
lacks rw/shared_read_one_wave.html "both read and written"
has rw/shared_read_one_wave.html "DRAM moves 2,740,000 bytes, not the 144,000,000 of \"Memory traffic by level\": at most the footprint (2,740,000 bytes) once in the launch's one wave"
rxpath() { xmllint --xpath "$1" "$out/rw/results.xml" 2>/dev/null || true; }
[ "$(rxpath 'string(//kernel[@id="accumulate_one_wave"]/counts[@basis="model"]/memory/@rewritten-bytes)')" = 122880 ] &&
    ok || bad "results.xml: accumulate_one_wave's memory does not give rewritten-bytes 122880"
[ "$(rxpath 'string(//kernel[@id="accumulate_one_wave"]/counts[@basis="model"]/memory/array[@name="in"]/@rewritten-bytes)')" = 0 ] &&
    ok || bad "results.xml: accumulate_one_wave's in (only read) has rewritten bytes"
[ "$(rxpath 'string(//kernel[@id="accumulate_one_wave"]//estimate[@gpu="titan-black"]//level-bytes/@rewritten)')" = 122880 ] &&
    ok || bad "results.xml: accumulate_one_wave's level-bytes do not give rewritten 122880"

# The share L1 keeps: from a run of one SM's L1 (l1sim.h) where it applies, the footprint rule
# where not. reread reads a word, writes it and reads it again: on the TITAN V (L1 caches
# every global access) 12 sector touches, 8 of them the block's own again, all held; on the
# TITAN Black (L1 keeps read-only data only) the array is not run. Each report says which
# rule gave which GPU's share.
"$roofcast" -q -f md,html,xml --gpu titan-v,titan-black -o "$out/l1run/both" tests/data/l1-run/kernels
"$roofcast" -q -f md,html --gpu titan-v -o "$out/l1run/v" tests/data/l1-run/kernels
"$roofcast" -q -f md,html --gpu titan-black -o "$out/l1run/black" tests/data/l1-run/kernels
run_rule="keeps what a block touches again while a run of one SM's L1 still holds it (warps in turn, LRU 128-byte lines)"
has l1run/both/reread.md "$run_rule; elsewhere, all while one block's touches (128 bytes) fit its L1 share, less beyond. L2 bytes"
has l1run/both/reread.html "(NVIDIA publishes neither the L1's associativity nor its replacement policy: assumed); results.xml gives each run's touches and hits. Where no such run applies, L1 keeps what a block reuses while the most one block touches (128 bytes)"
has l1run/v/reread.md "$run_rule. L2 bytes"
lacks l1run/v/reread.md "elsewhere"
lacks l1run/v/reread.html "while the most one block touches"
has l1run/black/reread.md "and keeps what a block reuses while the most one block touches (128 bytes)"
lacks l1run/black/reread.md "a run of one SM's L1"
lacks l1run/black/reread.html "a run of one SM's L1"
lxpath() { xmllint --xpath "$1" "$out/l1run/both/results.xml" 2>/dev/null || true; }
for a in touches:12 reuse:8 reuse-hits:8 blocks:1 warps:1 lines:1024 cut:no; do
    [ "$(lxpath "string(//estimate[@gpu=\"titan-v\"]/l1-run/@${a%%:*})")" = "${a#*:}" ] &&
        ok || bad "results.xml: the TITAN V's l1-run does not give ${a%%:*} ${a#*:}"
done
[ "$(lxpath 'count(//estimate[@gpu="titan-black"]/l1-run)')" = 0 ] &&
    ok || bad "results.xml: the TITAN Black has an l1-run for an array its L1 does not keep"
[ "$(lxpath 'string(//estimate[@gpu="titan-v"]/@l1-hit-percent)')" = 100 ] &&
    ok || bad "results.xml: the TITAN V does not keep 100 % of reread's reuse"

# The rate at which blocks start (arch.c, measured on 6.0 and 7.0 only): y = a x + y over 2^24
# floats in 262,144 blocks of 64 threads. On the TITAN V (1455 MHz) 262,144 / (0.47 x 1.455
# GHz) = 383 µs, longer than its DRAM term; the RTX 2080 Ti (7.5) has no such term, and its
# report no t_blocks line. 524,288 blocks of 32 threads with 2 FLOPs each: the TITAN V takes
# 524,288 / (0.47 x 1.455 GHz) = 767 µs, 106 times its peak-roofline t_total (7.25 µs), the
# P100 (1329 MHz) 524,288 / (0.45 x 1.329 GHz) = 877 µs.
mkdir "$out/blocks" "$out/blocks/specs"
cat >"$out/blocks/saxpy.xml" <<'EOF'
<kernel id="saxpy-b64" name="saxpy"><summary>y = a x + y, one element a thread</summary>
<source language="text">a test kernel</source>
<launch grid="(n - 1) / 64 + 1" block="64"/>
<param name="n" value="16777216"/>
<array name="x" type="float" length="n" read-only-path="no"/>
<array name="y" type="float" length="n"/>
<work><let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
<when test="i &lt; n"><load array="x" index="i"/><load array="y" index="i"/><flops count="2"/>
<store array="y" index="i"/></when></work>
</kernel>
EOF
"$roofcast" -q -f md,xml --gpu titan-v,rtx-2080-ti -o "$out/blocks/both" "$out/blocks/saxpy.xml"
"$roofcast" -q -f md --gpu rtx-2080-ti -o "$out/blocks/turing" "$out/blocks/saxpy.xml"
line blocks/both/saxpy-b64.md "| **NVIDIA TITAN V** | **386** | the rate at which blocks start: 262,144 blocks | 10.0 | 313 |"
line blocks/both/saxpy-b64.md "On the NVIDIA TITAN V its 262,144 blocks take 383 µs at the 0.470 blocks a clock the GPU starts: fewer, larger blocks (or a loop over several elements a thread) would make it faster; fewer bytes or FLOPs would not."
has blocks/both/results.xml "Limited by the rate at which blocks start: the GPU starts 0.470 blocks a clock across its SMs, so the grid's 262,144 blocks take 383 µs, longer than any other term."
has blocks/both/results.xml 'inputs="262,144 blocks / (0.470 blocks a clock (tdd11235813/cuda-stride-benchmark@4d26a2be'
line blocks/both/saxpy-b64.md "- t_blocks = the grid's blocks / (blocks the GPU starts a clock × SM clock), across all its SMs (measured on GP100 and GV100 only; not in t_lower)"
lacks blocks/turing/saxpy-b64.md "t_blocks"
# Where the term sets no estimate, the Markdown (5,000 words at most) leaves its formula out;
# the HTML and results.xml keep it.
"$roofcast" -q -f md,html,xml --gpu titan-v -o "$out/blocks/small" kernels/gpuMeans.xml
lacks blocks/small/gpuMeans.md "t_blocks"
has blocks/small/gpuMeans.html "t_blocks = the grid"
has blocks/small/results.xml '<term name="blocks"'

cp specs/titan-v.xml tests/validation/specs/tesla-p100.xml "$out/blocks/specs/"
printf '%s\n' '<kernel id="empty-b32" name="empty"><summary>2 FLOPs a thread</summary>' \
    '<source language="text">a test kernel</source><launch grid="524288" block="32"/>' \
    '<work><flops count="2"/></work></kernel>' >"$out/blocks/empty.xml"
"$roofcast" -q -f md -s "$out/blocks/specs" -o "$out/blocks/empty" "$out/blocks/empty.xml"
line blocks/empty/empty-b32.md "| Tesla P100 PCIe 16 GB | 879 | the rate at which blocks start: 524,288 blocks | 2.67 | 8.61 |"
line blocks/empty/empty-b32.md "On the NVIDIA TITAN V t\\_estimate is 106 times t\\_total: the GPU starts its 524,288 blocks at 0.470 a clock, 767 µs, where the peak roofline counts only FLOPs and bytes."

finish prose
