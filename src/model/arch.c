/* arch.c: see arch.h. */
#include "model/arch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB 1024

/* NVIDIA CUDA C++ Programming Guide, "Technical Specifications per Compute Capability" and
 * the sections "Compute Capability 5.x" to "9.0" (L1 and shared-memory sizes, carve-outs);
 * register and shared-memory allocation units from the CUDA Occupancy Calculator
 * (cuda_occupancy.h). fp32_lanes from the architecture whitepapers (FP32 cores per SM).
 * Sorted by compute capability. */
static const rc_arch archs[] = {
    /* cc    warp thr   blk regs   r/t  runit shared     per block  sunit res  l1       l1+shared fp32 */
    {"3.5", 32, 2048, 16, 65536, 255, 256, 48 * KIB, 48 * KIB, 256, 0, 48 * KIB, 64 * KIB, 192},
    {"3.7", 32, 2048, 16, 131072, 255, 256, 112 * KIB, 48 * KIB, 256, 0, 48 * KIB, 128 * KIB, 192},
    {"5.0", 32, 2048, 32, 65536, 255, 256, 64 * KIB, 48 * KIB, 256, 0, 24 * KIB, 88 * KIB, 128},
    {"5.2", 32, 2048, 32, 65536, 255, 256, 96 * KIB, 48 * KIB, 256, 0, 24 * KIB, 120 * KIB, 128},
    {"6.0", 32, 2048, 32, 65536, 255, 256, 64 * KIB, 48 * KIB, 256, 0, 24 * KIB, 88 * KIB, 64},
    {"6.1", 32, 2048, 32, 65536, 255, 256, 96 * KIB, 48 * KIB, 256, 0, 24 * KIB, 120 * KIB, 128},
    {"7.0", 32, 2048, 32, 65536, 255, 256, 96 * KIB, 96 * KIB, 256, 0, 128 * KIB, 128 * KIB, 64},
    {"7.5", 32, 1024, 16, 65536, 255, 256, 64 * KIB, 64 * KIB, 256, 0, 64 * KIB, 96 * KIB, 64},
    {"8.0", 32, 2048, 32, 65536, 255, 256, 164 * KIB, 163 * KIB, 128, KIB, 192 * KIB, 192 * KIB, 64},
    {"8.6", 32, 1536, 16, 65536, 255, 256, 100 * KIB, 99 * KIB, 128, KIB, 128 * KIB, 128 * KIB, 128},
    {"8.9", 32, 1536, 24, 65536, 255, 256, 100 * KIB, 99 * KIB, 128, KIB, 128 * KIB, 128 * KIB, 128},
    {"9.0", 32, 2048, 32, 65536, 255, 256, 228 * KIB, 227 * KIB, 128, KIB, 256 * KIB, 256 * KIB, 128},
};
#define NARCHS (sizeof archs / sizeof archs[0])

#define GUIDE "NVIDIA CUDA C++ Programming Guide, technical specifications of compute capability "

/* "8.9" as major * 100 + minor, or -1. */
static int cc_number(const char *cc)
{
    int major, minor;
    if (!cc || sscanf(cc, "%d.%d", &major, &minor) != 2 || major < 0 || minor < 0 ||
        major > 1000 || minor > 99)
        return -1;
    return major * 100 + minor;
}

const rc_arch *rc_arch_find(const char *cc, bool *exact)
{
    int want = cc_number(cc);
    const rc_arch *best = &archs[0];
    for (size_t i = 0; i < NARCHS; i++)
        if (cc_number(archs[i].cc) <= want)
            best = &archs[i];
    *exact = want >= 0 && cc_number(best->cc) == want;
    return best;
}

/* Shared memory, the L1's policy for global loads and issue, per generation.
 * PG-F: the CUDA C Programming Guide edition whose Appendix F covers compute capability 3.0
 * (F.5.1: the SMX's 4 schedulers, each issuing two independent instructions per issue time;
 * F.5.3: 32 banks of 64 bits a clock, 64-bit and 32-bit modes, the pairs a bank serves in
 * one pass). CUDA runtime API, cudaDeviceSetSharedMemConfig: the default bank size is four
 * bytes (32-bit mode). Programming Guide 12.x, compute capability 5.x: 4 schedulers each
 * issuing one instruction per issue time, 32 banks of 32 bits a clock, global loads cached
 * in L2 only (in the unified L1/texture cache only when read-only or with -dlcm=ca); 6.x
 * and 7.x "the same way as 5.x" for shared memory; 6.0: 2 schedulers. Pascal Tuning Guide
 * (quoted): GP100 caches global loads in L1 by default, GP104 like Kepler and Maxwell does
 * not. Volta on: one 128 KB (or larger) L1/shared array returning 128 B a clock (NVIDIA
 * developer forums, topic 77228), measured at 126 B per clock per SM for the L1 (V100, A100,
 * H100: gpu-benches gpu-cache) and one wavefront per clock for shared memory, n-way
 * conflicts n times as long (A100, V100: kzwrime/gpu_shm_microbench); Turing a pass every
 * two clocks (TU102: connollydavid/tu102, the row below). */
#define VOLTA_ON                                                                              \
    "CUDA C++ Programming Guide 12.x, compute capability 7.x to 9.0 (shared memory as 5.x, "  \
    "4 schedulers, unified L1/shared); 128 B a clock from L1/shared (NVIDIA developer "      \
    "forums, topic 77228); one shared wavefront per SM per clock and n-way conflicts n "      \
    "times as long measured on V100 and A100 (kzwrime/gpu_shm_microbench)"
#define GA106_SHARED                                                                          \
    "62.8 B a clock per SM with 32-bit words and 126.1 with 64-bit ones on an RTX 3060 Laptop " \
    "GPU, GA106 (YKTian-x2b/AmpereArchViaMicroBenchMark), 64 B a clock of 32-bit L1 loads on " \
    "an A40 (gpu-benches gpu-cache)"
/* A warp's own passes (warp_passes_per_clock): one warp alone, reading 4-byte words 4096 times
 * with c-way conflicts, takes 6.9, 7.0, 9.9, 17.7, 33.5 and 65.5 cycles an access for c = 1 to
 * 32 on an H100 and 6.9, 7.0, 9.5, 17.3, 33.3 and 65.3 on a V100 (hotneutron/amora@0e28102c
 * shared_memory.bank_stride, reports/nvidia/{hopper,volta}; MIT): two cycles a pass, where many
 * warps together reach one pass a clock (kzwrime/gpu_shm_microbench, above). Turing's chain
 * of conflicted loads grows two cycles a pass as well (mem.smem.lat), its SM's rate. GA100,
 * GA10x and Ada take the same, assumed; before Volta no such measurement was found, so no
 * limit. */
static const rc_sm_pipes sm_pipes[] = {
    {0, "Kepler", RC_BANKS_PAIR, 8, 1, 1, false, false, false, false, 4, 2,
     "PG-F F.5.1 and F.5.3 (compute capability 3.x: 32 banks of 64 bits a clock, 4 schedulers "
     "issuing two independent instructions each); default 32-bit bank mode "
     "(cudaDeviceSetSharedMemConfig); global loads cached in L2 only by default (Programming "
     "Guide, compute capability 3.x)", 0, false},
    {500, "Maxwell", RC_BANKS_WORD, 4, 1, 1, false, false, false, false, 4, 1,
     "CUDA C++ Programming Guide 12.x, compute capability 5.x (32 banks of 32 bits a clock, "
     "shared memory apart from the unified L1/texture cache, global loads in L2 only by "
     "default, 4 schedulers issuing one instruction each)", 0, false},
    {600, "Pascal GP100", RC_BANKS_WORD, 4, 1, 1, false, false, false, true, 2, 1,
     "CUDA C++ Programming Guide 12.x, compute capability 6.x (shared memory as 5.x, 2 "
     "schedulers on 6.0); Pascal Tuning Guide as quoted: GP100 caches global loads in L1",
     0, false},
    {601, "Pascal", RC_BANKS_WORD, 4, 1, 1, false, false, false, false, 4, 1,
     "CUDA C++ Programming Guide 12.x, compute capability 6.x (as 5.x); Pascal Tuning Guide "
     "as quoted: GP104 caches global loads in L2 only, like Kepler and Maxwell", 0, false},
    {700, "Volta", RC_BANKS_WORD, 4, 1, 1, false, true, true, true, 4, 1, VOLTA_ON, 0.5,
     false},
    {705, "Turing", RC_BANKS_WORD, 4, 0.5, 2, false, true, true, true, 4, 1,
     VOLTA_ON "; but a request every 2 clocks (16 load/store units an SM) and a 128-byte "
     "bank pass every 2 clocks: on a TU102 64.0 B a clock per SM of 32-bit shared loads and "
     "64.0 of 64-bit ones (two passes in four clocks; GA106 reaches 126), 63.9 and 64.0 of "
     "32- and 64-bit L1 loads, a c-way conflicted shared load's latency 20 + 2c cycles, and "
     "0.500 conflict-free shared atomic requests a clock (connollydavid/tu102 mem.smem.bw, "
     "mem.l1.bw, mem.smem.lat, atomics.shared.add.tput)", 0.5, false},
    {800, "Ampere GA100", RC_BANKS_WORD, 4, 1, 1, false, true, false, true, 4, 1, VOLTA_ON, 0.5,
     true},
    {806, "Ampere GA10x", RC_BANKS_WORD, 4, 1, 2, false, true, false, true, 4, 1,
     VOLTA_ON "; a request every 2 clocks: " GA106_SHARED, 0.5, true},
    {809, "Ada", RC_BANKS_WORD, 4, 1, 2, true, true, true, true, 4, 1,
     VOLTA_ON "; a request every 2 clocks, assumed as on GA10x (" GA106_SHARED "; 64 B a "
     "clock of 32-bit L1 loads on an L40, gpu-benches gpu-cache)", 0.5, true},
    {900, "Hopper", RC_BANKS_WORD, 4, 1, 1, false, true, false, true, 4, 1, VOLTA_ON, 0.5,
     false},
};
#define NSM_PIPES (sizeof sm_pipes / sizeof sm_pipes[0])

const rc_sm_pipes *rc_sm_pipes_for(const char *cc)
{
    int want = cc_number(cc);
    if (want < 0) /* no compute capability: the current generations' rules */
        return &sm_pipes[NSM_PIPES - 1];
    const rc_sm_pipes *best = &sm_pipes[0];
    for (size_t i = 0; i < NSM_PIPES; i++)
        if (sm_pipes[i].from_cc <= want)
            best = &sm_pipes[i];
    return best;
}

/* Results per clock per SM of the arithmetic pipes, by compute capability.
 * PG-10: the CUDA C Programming Guide edition (CUDA 10.x) whose table "Throughput of Native
 * Arithmetic Instructions" has the columns 3.0/3.2, 3.5/3.7, 5.0/5.2, 5.3, 6.0, 6.1, 6.2 and
 * 7.x; its rows: "All other type conversions" (conversion), "Type conversions from and to
 * 64-bit types" (conversion64), "32-bit floating-point reciprocal, reciprocal square root,
 * base-2 logarithm (__log2f), base 2 exponential (exp2f), sine (__sinf), cosine (__cosf)"
 * (special), "32-bit integer add, extended-precision add, subtract, extended-precision
 * subtract" and "32-bit bitwise AND, OR, XOR" (integer: the two rows agree in every column).
 * Its 32-bit floating-point add, multiply, multiply-add row is rc_arch.fp32_lanes (192,
 * 128, 64, 128, 64). The conversion64 figures of 3.5/3.7 (32) and 7.x (16) carry footnotes
 * whose text was not found: 3.5's is taken as printed; for 7.5, whose FP64 rate is 2 (not
 * 7.0's 32), the conversions are assumed at that rate, as on every other part with few FP64
 * units (refine.c pipes_time: they share the FP64 unit).
 * PG-11: the CUDA C++ Programming Guide edition of early 2022 (CUDA 11.6), whose Table 3 of
 * that name has the columns 3.5/3.7 to 8.6; read as the image of the table that
 * HeKun-NVIDIA/CUDA-Programming-Guide-in-Chinese carries (第5章性能指南/Throughput.png, commit
 * f0438a1, 2022-03-31). Its columns 8.0 and 8.6 give conversions 16, special 16, integer add
 * and bitwise 64 on both, and conversions from and to 64-bit types 16 (8.0) and 2 (8.6), none
 * with a footnote; its older columns agree with PG-10's.
 * PG-12: the 12.x guide's 9.0 column of that table as quoted in published hardware notes
 * (special 16, integer add and bitwise 64); its 8.9 column and its 9.0 conversion rows were
 * not found in a form that could be read, so those figures are assumed: 8.9 as 8.6 (the same
 * 128 FP32 lanes per SM and 64:1 FP32-to-FP64 ratio), 9.0's conversions as 7.x's.
 * xu_shared: from Volta on, one unit runs the special functions and the int-to-float and
 * float-to-int conversions (Nsight Compute Kernel Profiling Guide, "Pipelines": "xu -
 * Transcendental and Data Type Conversion Unit. The XU pipeline is responsible for special
 * functions such as sin, cos, and reciprocal square root. It is also responsible for
 * int-to-float, and float-to-int type conversions"; Nsight Compute profiles 7.0 on, so older
 * generations keep their terms apart).
 * 8.9's conversions: a measured round trip (float to int and back) at twice 7.x's rate, read as
 * one pipe for both conversions as on 7.x; were int-to-float (I2FP on sm_86 on) on another pipe,
 * the round trip would say only that it runs at least 16 a clock (docs/architectures.md,
 * "Arithmetic pipes"). */
#define PIPES_PG10 "CUDA C Programming Guide (CUDA 10.x), \"Throughput of Native Arithmetic " \
                   "Instructions\", column "
#define PIPES_PG11 "CUDA C++ Programming Guide (CUDA 11.6, 2022), Table 3 \"Throughput of " \
                   "Native Arithmetic Instructions\", column "
static const rc_pipe_rates pipe_rates[] = {
    /* cc   columns       conversion conv64 special integer   assumed   source   xu_shared */
    {300, "3.0, 3.2", {32, 8, 32, 160}, {false, false, false, false}, PIPES_PG10 "3.0, 3.2",
     false},
    {305, "3.5, 3.7", {32, 32, 32, 160}, {false, false, false, false},
     PIPES_PG10 "3.5, 3.7 (conversions from and to 64-bit types: 32, with a footnote)", false},
    {500, "5.0, 5.2", {32, 4, 32, 128}, {false, false, false, false}, PIPES_PG10 "5.0, 5.2",
     false},
    {503, "5.3", {32, 4, 32, 128}, {false, false, false, false}, PIPES_PG10 "5.3", false},
    {600, "6.0", {16, 16, 16, 64}, {false, false, false, false}, PIPES_PG10 "6.0", false},
    {601, "6.1", {32, 4, 32, 128}, {false, false, false, false}, PIPES_PG10 "6.1", false},
    {602, "6.2", {32, 4, 32, 128}, {false, false, false, false}, PIPES_PG10 "6.2", false},
    {700, "7.x", {16, 16, 16, 64}, {false, false, false, false}, PIPES_PG10 "7.x", true},
    {705, "7.x", {16, 2, 16, 64}, {false, true, false, false},
     PIPES_PG10 "7.x; conversions from and to 64-bit types assumed 2, 7.5's FP64 rate: the "
     "column's 16 carries a footnote, not found, and every column whose FP64 rate is a few "
     "results a clock (3.0, 5.x, 6.1, 6.2, 8.6) gives these conversions that rate", true},
    {800, "8.0", {16, 16, 16, 64}, {false, false, false, false}, PIPES_PG11 "8.0", true},
    {806, "8.6", {16, 2, 16, 64}, {false, false, false, false}, PIPES_PG11 "8.6", true},
    {809, "8.9", {32, 2, 16, 64}, {false, true, true, true},
     "conversions measured: a float-to-int and int-to-float round trip, 15.94 a clock per SM "
     "on an RTX 4070, 8.00 on a TITAN V and an RTX 2080 Ti, 16.1 on a GTX TITAN X, so two "
     "conversions 31.9, 16 and 32 a clock, the guide's 7.x and 5.x figures on the older two "
     "(TapiocaFox/GPU-Project@8c5fe621 src/microbenchmarking/ins_microbenchmark_*.csv, row "
     "CVT, ILP 2); the other rows assumed as compute capability 8.6 (" PIPES_PG11 "8.6), "
     "whose FP32 lanes per SM and FP32-to-FP64 ratio 8.9 shares; the 8.9 column of the 12.x "
     "guide's table was not found",
     true},
    {900, "9.0", {16, 16, 16, 64}, {true, true, false, false},
     "CUDA C++ Programming Guide 12.x, \"Throughput of Native Arithmetic Instructions\", "
     "column 9.0 as quoted (special 16, integer 64); conversions assumed as 7.x", true},
};
#define NPIPE_RATES (sizeof pipe_rates / sizeof pipe_rates[0])

const rc_pipe_rates *rc_pipe_rates_for(const char *cc, bool *exact)
{
    int want = cc_number(cc);
    const rc_pipe_rates *best = want < 0 ? &pipe_rates[NPIPE_RATES - 1] : &pipe_rates[0];
    for (size_t i = 0; want >= 0 && i < NPIPE_RATES; i++)
        if (pipe_rates[i].from_cc <= want)
            best = &pipe_rates[i];
    *exact = want >= 0 && best->from_cc / 100 == want / 100; /* a column covers its minors */
    return best;
}

#define GUIDE_LEVEL "NVIDIA CUDA C++ Programming Guide, Multiprocessor Level: "

/* One figure of a generation: it applies from `from_cc` (major * 100 + minor) on, up to the
 * next row's; a table of them is sorted by from_cc. */
typedef struct {
    int from_cc;
    double value;
    bool assumed;
    const char *source;
} generation_figure;

#define ROWS(table) (sizeof (table) / sizeof *(table))

/* The row of `table` (n rows) for compute capability `cc`, with *assumed and *source set; an
 * unreadable cc takes row `unknown`, assumed, with `unknown_source`. */
static double generation_figure_of(const generation_figure *table, size_t n, const char *cc,
                                   size_t unknown, const char *unknown_source, bool *assumed,
                                   const char **source)
{
    int want = cc_number(cc);
    size_t best = unknown;
    if (want >= 0)
        for (size_t i = 0; i < n; i++)
            if (table[i].from_cc <= want)
                best = i;
    *assumed = table[best].assumed || want < 0;
    *source = want < 0 ? unknown_source : table[best].source;
    return table[best].value;
}

/* The arithmetic latency by generation, for the dependent chain (chain.h): a dependent FMA's
 * as Arafa et al. measure it, "Low Overhead Instruction Latency Characterization for NVIDIA
 * GPGPUs" (arXiv 1905.08778), tabulated by its authors in PPT-GPU (lanl/PPT@d48f4965,
 * configs/arch_latencies_config.py, "fma": Kepler 9, Maxwell 6, Pascal 6, Volta 4, Turing 4),
 * the table whose memory latencies rate_defaults takes. The Programming Guide's "typically
 * about 11 clock cycles" for 3.x is an approximate figure above Kepler's measured 9, and its
 * "typically 4" for 7.x agrees with Volta's and Turing's; it gives none for 5.x, 6.x or 8.x
 * on. Ada's and Hopper's 4 are measured by other benchmarks (below), each of which gives the
 * older GPUs it also ran the figure above; 8.0 and 8.6 take Turing's 4, assumed. */
#define ARAFA "Arafa et al. (arXiv 1905.08778, in lanl/PPT), a dependent FMA: "
static const generation_figure arith_latencies[] = {
    {0, 9, true, "assumed: Kepler's, " ARAFA "9 cycles"},
    {300, 9, false, ARAFA "9 cycles on Kepler"},
    {500, 6, false, ARAFA "6 cycles on Maxwell"},
    {600, 6, false, ARAFA "6 cycles on Pascal"},
    {700, 4, false, ARAFA "4 cycles on Volta and Turing, as the Programming Guide gives 7.x"},
    {800, 4, true, "assumed: Turing's, " ARAFA "4 cycles"},
    /* Ada: a dependent FADD 4.03 and FMA 4.05 cycles on an RTX 4070, 4.02 and 4.04 on a TITAN
     * V (TapiocaFox/GPU-Project@8c5fe621 src/microbenchmarking/ins_microbenchmark_*.csv).
     * Hopper: amora's one-warp FMA chain (arithmetic_latency.dependent_chain) takes 4.377
     * cycles an FMA on an H100 and 4.376 on a V100, whose FMA takes 4. The sources are short:
     * every report that shows a chain prints them. */
    {809, 4, false, "TapiocaFox/GPU-Project@8c5fe621: a dependent FMA 4.05 cycles (RTX 4070)"},
    {900, 4, false, "hotneutron/amora@0e28102c: a dependent FMA 4.377 cycles (H100; V100 4.376)"},
};

double rc_arith_latency_cycles(const char *cc, bool *assumed, const char **source)
{
    return generation_figure_of(arith_latencies, ROWS(arith_latencies), cc, 4,
                                "assumed: 7.x's figure (" GUIDE_LEVEL "\"typically 4 clock "
                                "cycles\"); the GPU file gives no compute capability",
                                assumed, source);
}

/* A warp's atomic request that updates two or more addresses of one 128-byte line holds that
 * line far longer than a request of one address (atomics.h): the pairs one line serves a
 * clock. R100001/Programming-Massively-Parallel-Processors at a972fb50, NvBench "Histogram
 * Shared Bins (Different Grid and Block sizes)", 2^26 elements in blocks of 32 threads: each
 * of the 2^21 blocks adds its 512 shared bins to the global ones, 16 requests of 32 words, one
 * line each, so each of the 16 lines takes 2^21 pairs; the time follows the block count (it
 * halves from 32 to 64 threads a block) and not the SMs (14 to 68), so those pairs set it. A
 * pair took 11.11 and 11.43 ns on a GTX 1650 and an RTX 2060 (Turing: 0.0566 and 0.0521 a
 * clock at their 1590 and 1680 MHz, mean 0.054), 10.78 to 12.19 ns on an RTX 3080, 3060 Ti,
 * 3070 Ti, 3060 and 3060 Laptop GPU (GA10x: median 0.054, the 3080's). The time includes the
 * blocks' other work, so these rates are at least the line's. yencal/gpu-histogram-optimization
 * at b71f5c04 (H100 SXM, 2^30 random bytes into 256 bins, one global atomicAdd each: 276.13
 * ms): a warp's 32 random bins touch 7.89 of the 8 lines on average, 9.59e8 pairs a second,
 * 0.0605 a line a clock at 1980 MHz. */
#define HIST_SHARED "R100001 NvBench, Histogram Shared Bins: "
static const generation_figure atomic_multiword_rates[] = {
    {0, 0.054, true, "assumed: Turing's, " HIST_SHARED "11.1 ns a pair"},
    {705, 0.054, false, HIST_SHARED "11.1 ns a pair on a GTX 1650, 11.4 on an RTX 2060"},
    {800, 0.054, true, "assumed: GA10x's, " HIST_SHARED "10.8 ns a pair"},
    {806, 0.054, false, HIST_SHARED "10.8 ns a pair on an RTX 3080"},
    {809, 0.054, true, "assumed: GA10x's, " HIST_SHARED "10.8 ns a pair"},
    {900, 0.0605, false, "yencal/gpu-histogram-optimization: random bins on an H100 SXM"},
};

double rc_atomic_multiword_per_clock(const char *cc, bool *assumed, const char **source)
{
    return generation_figure_of(atomic_multiword_rates, ROWS(atomic_multiword_rates), cc, 1,
                                "assumed: Turing's (" HIST_SHARED "11.1 ns a pair); the GPU file "
                                "gives no compute capability",
                                assumed, source);
}

/* Lane by lane on one address (atomics.h), by generation, for adds of floats and of integers.
 *
 * Floats: ptheywood/atomicAddBench, 1,048,576 float adds of per-lane values to one address,
 * 1,048,576 / (time x boost clock); measured to Volta, the TITAN V's assumed after.
 *
 * Integers: R100001/Programming-Massively-Parallel-Processors at a972fb50, NvBench "Simple
 * Histogram (Different Grid and Block sizes)": 2^26 zeroes, atomicAdd(&bins[input[i]], 1),
 * every lane on bins[0], which nvcc cannot combine since the address is data; 2^21 requests
 * of 32 lanes, whatever the block size (32 to 1,024). With one operation a request at 0.77
 * a clock, the further 31 updates take the rest: 31 / (time x clock / 2^21 - 1 / 0.77).
 * Blocks of 512: GTX 1650 36.14 ms at 1590 MHz, 1.19 a clock; RTX 2060 38.05 ms at 1680 MHz,
 * 1.06 (Turing: mean 1.12); RTX 3060 1.05, 3060 Ti 1.13, 3070 Ti 1.05, 3080 36.16 ms at
 * 1710 MHz 1.10, 3060 Laptop GPU 1.31 (GA10x: median 1.10, the 3080's). Before Turing none was
 * found: the generation's float rate, assumed; GA100, Ada and Hopper take GA10x's, assumed. */
#define ADD_BENCH "atomicAddBench, float adds: "
#define SIMPLE_HIST "R100001 NvBench, Simple Histogram, integer adds: "
static const generation_figure float_lane_rates[] = {
    {0, 0.32, true, "assumed: Kepler's, " ADD_BENCH "a Tesla K80's"},
    {300, 0.32, false, ADD_BENCH "a Tesla K80's (Kepler), 3.76 ms at 875 MHz"},
    {500, 0.27, false, ADD_BENCH "a GTX TITAN X's (Maxwell), 3.58 ms at 1075 MHz"},
    {600, 0.33, false, ADD_BENCH "a TITAN X (Pascal)'s, 2.11 ms at 1531 MHz"},
    {700, 0.26, false, ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz"},
    {705, 0.26, true, "assumed: " ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz"},
};
static const generation_figure int_lane_rates[] = {
    {0, 0.32, true, "assumed: Kepler's float adds' (" ADD_BENCH "a Tesla K80's)"},
    {500, 0.27, true, "assumed: Maxwell's float adds' (" ADD_BENCH "a GTX TITAN X's)"},
    {600, 0.33, true, "assumed: Pascal's float adds' (" ADD_BENCH "a TITAN X (Pascal)'s)"},
    {700, 0.26, true, "assumed: Volta's float adds' (" ADD_BENCH "a TITAN V's)"},
    {705, 1.12, false, SIMPLE_HIST "a GTX 1650 and an RTX 2060 (Turing), 36.1 and 38.0 ms"},
    {800, 1.10, true, "assumed: GA10x's, " SIMPLE_HIST "an RTX 3080, 36.2 ms at 1710 MHz"},
    {806, 1.10, false, SIMPLE_HIST "an RTX 3080, 36.2 ms at 1710 MHz (median of five GA10x)"},
    {809, 1.10, true, "assumed: GA10x's, " SIMPLE_HIST "an RTX 3080, 36.2 ms at 1710 MHz"},
};

double rc_atomic_lane_per_clock(const char *cc, bool integer, bool *assumed, const char **source)
{
    /* An unreadable cc takes the table's last row: GA10x's integer rate, Volta's float rate. */
    if (integer)
        return generation_figure_of(int_lane_rates, ROWS(int_lane_rates), cc,
                                    ROWS(int_lane_rates) - 1,
                                    "assumed: GA10x's (" SIMPLE_HIST "an RTX 3080); the GPU "
                                    "file gives no compute capability",
                                    assumed, source);
    return generation_figure_of(float_lane_rates, ROWS(float_lane_rates), cc,
                                ROWS(float_lane_rates) - 1,
                                "assumed: Volta's (" ADD_BENCH "a TITAN V's); the GPU file gives "
                                "no compute capability",
                                assumed, source);
}

/* The part of the L2 that keeps a launch's data for the next launch of the same kernel, by
 * generation (refine.c's l2_resident): L2 read microbenchmarks keep their full rate up to it
 * and fall beyond. A100 and H100 split their L2 in two partitions that may both hold a line
 * their SMs read, and keep about three quarters; Ada's L2 is not split that way and keeps
 * 93 %. No microbenchmark of Kepler, Maxwell, Volta or Turing was found: three quarters is
 * assumed there. */
#define L2_AMPERE_HOPPER "te42kyfo/gpu-benches gpu-l2-cache: full read rate up to about 30 of " \
                         "the A100 80GB's 40 MB and 34 of the H100 PCIe's 50 MB; 7.5 TB/s up " \
                         "to 40 MiB of 50 MB, 5.8 TB/s at 48 MiB on an H100 SXM5 " \
                         "(tests/validation/measured)"
#define L2_ASSUMED "assumed: the A100's and H100's three quarters (" L2_AMPERE_HOPPER ")"
static const generation_figure l2_shares[] = {
    {0, 0.75, true, L2_ASSUMED "; no L2 microbenchmark of this generation was found"},
    {800, 0.75, false, L2_AMPERE_HOPPER},
    {806, 0.75, true, L2_ASSUMED},
    {809, 0.93, false, "Ada, measured on an L40: te42kyfo/gpu-benches gpu-l2-cache/l40.txt, "
                       "5.24 TB/s at 91,648 kB of its 96 MiB (93 %), 4.29 TB/s at 100,352 kB"},
    {810, 0.75, true, L2_ASSUMED},
    {900, 0.75, false, L2_AMPERE_HOPPER},
    /* Hopper's figure is measured for 9.x only: later generations are not Hopper */
    {1000, 0.75, true, L2_ASSUMED "; no L2 microbenchmark of this generation was found"},
};

double rc_l2_resident_share(const char *cc, bool *assumed, const char **source)
{
    return generation_figure_of(l2_shares, ROWS(l2_shares), cc, 0,
                                L2_ASSUMED "; the GPU file gives no compute capability",
                                assumed, source);
}

/* The bytes DRAM moves for a sector the L2 misses, by generation: 64, the sector with the other
 * half of its 64-byte half-line, where only the TU102 was measured. Its strided u8 loads over
 * 512 MiB reach 612 GB/s of sectors when a warp's sectors are adjacent (strides 18 and 32 B)
 * and 308 GB/s when each lies alone in its line (128 B): a lone sector costs two. The CUDA
 * driver's L2 fetch granularity limit (cudaLimitMaxL2FetchGranularity, "a hint") reads 64 B
 * where a user printed it, on a GPU not named. */
#define FETCH_TU102 "connollydavid/tu102@789ff42e table/tu102_ops.csv, mem.ldg.u8.stride.tput " \
    "(Quadro RTX 6000 at 1455 MHz, bench/mem/stride.cu): u8 loads over 512 MiB, 611.0 and " \
    "612.1 GB/s of 32-byte sectors with adjacent sectors (strides 18 and 32 B), 307.8 GB/s " \
    "with one sector a line (stride 128 B)"
#define FETCH_ASSUMED "assumed: the TU102's (" FETCH_TU102 "); the CUDA driver's " \
    "cudaLimitMaxL2FetchGranularity reads 64 B by default where printed (NVIDIA BioNeMo's " \
    "performance linter, GPU not named)"
static const generation_figure dram_fetch_bytes[] = {
    {0, 64, true, FETCH_ASSUMED},
    {705, 64, false, FETCH_TU102},
    {800, 64, true, FETCH_ASSUMED},
};

/* What the L2 spends on a 128-byte line a store or atomic request writes in part, in bytes at
 * its rate, by generation: the request's sectors in the line, or this figure if it is more.
 * ProjectPhysX/OpenCL-Benchmark's misaligned write (README at bde4e91 and a711f94,
 * kernel_misaligned_write in src/kernel.cpp): 2^24 work-items in groups of 64, each storing 16
 * consecutive floats one after another (scalar stores, as nvcc and clang 14 compile the loop:
 * tests/validation/cuda/part_line.sh), so each warp store writes 4 bytes in each of 32 sectors,
 * two sectors in each of 16 lines: 2^27 lines written in part for 1 GiB, host-timed, the best
 * of 256 runs. Its time x the GPU file's L2 rate / 2^27: a Tesla K40m (745 MHz, as its OpenCL
 * driver reports and the K40c file takes) 37.91 GB/s: 69.1 B; a TITAN Xp (GP102, 30 SMs at
 * 1582 MHz, 17.2 B a clock an SM: 816 GB/s) 104.66 GB/s: 62.4 B; an RTX 2080 Ti 156.57 GB/s:
 * 68.7 B; an A100 PCIe 40GB (the A100 file's 5.4 TB/s) 210.83 GB/s: 204.9 B; an H100 80GB HBM3
 * (the H100 SXM5 file's 7.58 TB/s) 314.25 GB/s: 193.0 B. Coalesced writes run at the read
 * rate (gpu-benches gpu-l2-stream on a GH200: 4,534 against 4,613 GB/s), so a line written
 * whole costs its sectors. About two sectors a line where the L2 is one pool, a line and a
 * half on GA100 and GH100, whose L2 is split in two partitions that may both hold a line
 * (rc_l2_resident_share). The rest take the figure of the nearest GPU measured with an L2 of
 * the same kind, assumed. */
#define PART_LINE_BENCH "ProjectPhysX/OpenCL-Benchmark misaligned write (each warp store " \
                        "writes 4 B in two sectors of each of 16 lines), time x the GPU " \
                        "file's L2 rate / lines: "
static const generation_figure part_line_bytes[] = {
    {0, 69.1, true, "assumed: Kepler's, " PART_LINE_BENCH "a Tesla K40m, 37.91 GB/s"},
    {300, 69.1, false, PART_LINE_BENCH "a Tesla K40m, 37.91 GB/s at 745 MHz"},
    {500, 69.1, true, "assumed: Kepler's, " PART_LINE_BENCH "a Tesla K40m, 37.91 GB/s"},
    {600, 62.4, true, "assumed: GP102's, " PART_LINE_BENCH "a TITAN Xp, 104.66 GB/s"},
    {601, 62.4, false, PART_LINE_BENCH "a TITAN Xp (GP102), 104.66 GB/s at 1582 MHz"},
    {700, 68.7, true, "assumed: TU102's, an L2 in one pool, " PART_LINE_BENCH
                      "an RTX 2080 Ti, 156.57 GB/s"},
    {705, 68.7, false, PART_LINE_BENCH "an RTX 2080 Ti, 156.57 GB/s"},
    {800, 204.9, false, PART_LINE_BENCH "an A100 PCIe 40GB, 210.83 GB/s"},
    {806, 68.7, true, "assumed: TU102's, an L2 in one pool, " PART_LINE_BENCH
                      "an RTX 2080 Ti, 156.57 GB/s"},
    {900, 193.0, false, PART_LINE_BENCH "an H100 80GB HBM3, 314.25 GB/s at 1980 MHz"},
    {1000, 193.0, true, "assumed: GH100's, " PART_LINE_BENCH "an H100, 314.25 GB/s"},
};

double rc_part_line_bytes(const char *cc, bool *assumed, const char **source)
{
    return generation_figure_of(part_line_bytes, ROWS(part_line_bytes), cc,
                                ROWS(part_line_bytes) - 2,
                                "assumed: GH100's (" PART_LINE_BENCH "an H100); the GPU file "
                                "gives no compute capability",
                                assumed, source);
}

double rc_dram_fetch_bytes(const char *cc, bool *assumed, const char **source)
{
    return generation_figure_of(dram_fetch_bytes, ROWS(dram_fetch_bytes), cc, 0,
                                FETCH_ASSUMED "; the GPU file gives no compute capability",
                                assumed, source);
}

/* One step between barriers, by generation: base + per_warp x warps cycles. hotneutron/amora
 * (MIT) times one block running 4,096 steps of `if (threadIdx.x == 0) s += 1;
 * __syncthreads();` on shared `s` (its SASS: LDS, IADD, STS, BAR a step), with clock64, the
 * median of 32 launches, in blocks of 64 to 1,024 threads: the lines through the 2- and
 * 32-warp figures are within 0.6 cycles of the 4-, 8- and 16-warp ones. The slope, about 2
 * cycles a warp, is the bare barrier's on a TU102 too (connollydavid/tu102: 22.3 cycles for one
 * warp, 84.3 for 32, one block on one SM at 1455 MHz), whose steps with the shared chain were
 * not timed. No barrier microbenchmark of Kepler, Maxwell, Pascal, Turing, Ampere or Ada was
 * found: they take the V100's, assumed. */
#define AMORA "hotneutron/amora@0e28102c "
#define AMORA_V100 AMORA "reports/nvidia/volta/probes-v100-32g.md, synchronization.barrier_latency " \
    "(Tesla V100-SXM2-32GB): 57.0, 61.0, 69.0, 85.9 and 119.5 cycles a step in blocks of 64, " \
    "128, 256, 512 and 1,024 threads, 52.8 + 2.08 a warp"
#define BARRIER_ASSUMED "assumed: the V100's (" AMORA_V100 "); no barrier microbenchmark of " \
    "this generation was found"
#define V100_STEP 52.84, 2.082 /* base, per_warp: the line through 57.0 and 119.46 */
#define H100_STEP 41.19, 2.039 /* through 45.27 and 106.44 */
static const struct {
    int from_cc;
    double base, per_warp;
    bool assumed;
    const char *source;
} barrier_steps[] = {
    {0, V100_STEP, true, BARRIER_ASSUMED},
    {700, V100_STEP, false, AMORA_V100},
    {705, V100_STEP, true, BARRIER_ASSUMED "; a TU102's bare barrier has the same slope, 22.3 "
                           "cycles for one warp and 84.3 for 32 (connollydavid/tu102)"},
    {800, V100_STEP, true, BARRIER_ASSUMED},
    {900, H100_STEP, false, AMORA "reports/nvidia/hopper/probes-h100-80g.md, "
                            "synchronization.barrier_latency (NVIDIA H100 80GB HBM3): 45.3, 49.3, "
                            "57.3, 74.3 and 106.4 cycles a step in blocks of 64 to 1,024 threads, "
                            "41.2 + 2.04 a warp"},
    /* Hopper's figure is measured for 9.x only */
    {1000, H100_STEP, true, "assumed: the H100's (" AMORA "reports/nvidia/hopper/"
                            "probes-h100-80g.md); no barrier microbenchmark of this generation "
                            "was found"},
};

double rc_barrier_step_cycles(const char *cc, double warps, bool *assumed, const char **source)
{
    int want = cc_number(cc);
    size_t best = 1; /* unknown: the V100's */
    if (want >= 0) {
        best = 0;
        for (size_t i = 0; i < ROWS(barrier_steps); i++)
            if (barrier_steps[i].from_cc <= want)
                best = i;
    }
    *assumed = barrier_steps[best].assumed || want < 0;
    *source = want < 0 ? BARRIER_ASSUMED "; the GPU file gives no compute capability"
                       : barrier_steps[best].source;
    return barrier_steps[best].base + barrier_steps[best].per_warp * warps;
}

/* The blocks a GPU starts a clock, across all its SMs, where a microbenchmark shows it.
 * cuda-stride-benchmark's saxpy-mono (tdd11235813/cuda-stride-benchmark@4d26a2be, BSD-2-Clause;
 * y[i] = a x[i] + y[i], one element a thread, the best of 5 launches between CUDA events, SM
 * clocks set for the runs) at 2^30 elements in blocks of 64 threads: 16,777,216 blocks in
 * 31.21 ms on a Tesla P100 PCIe at 1189 MHz, 28.54 ms on a Tesla V100 PCIe at 1245 MHz and
 * 27.15 ms on a Quadro GV100 at 1327 MHz, 0.452, 0.472 and 0.466 blocks a clock, where blocks
 * of 128 to 1,024 threads at the same occupancy (64 warps an SM) stream 1.29 to 1.84 times as
 * fast at the GPUs' DRAM rates. A GPU-wide rate, not an SM's: the P100's 56 SMs and the
 * V100s' 80 each start a block every 124 and 170 clocks, while the GPUs' rates agree within
 * 4 %. All three have six GPCs, so a rate per GPC cannot be told apart from it. No other
 * generation's rate was found, and Volta's is not assumed for them (0: no term): a K80's
 * 64-thread blocks (0.23 a clock) are bound by occupancy (16 blocks an SM), and gpu-benches'
 * gpu-stream `init` (te42kyfo/gpu-benches@1038c5d0, two blocks of 32 or 64 threads an SM)
 * starts at least 809 M blocks a second on an A100 80GB and 1,160 M on an H200, 0.57 and 0.59
 * a clock at 1410 and 1980 MHz, more than Volta's. */
#define SAXPY_MONO "tdd11235813/cuda-stride-benchmark@4d26a2be results/*/cuda-9.2.88/" \
    "saxpy-mono-*.csv, 2^30 elements in blocks of 64 threads: "
static const struct {
    int cc;
    double per_clock;
    const char *source;
} block_rates[] = {
    {600, 0.45, SAXPY_MONO "16,777,216 blocks in 31.21 ms on a Tesla P100 PCIe at 1189 MHz, "
                "0.452 a clock"},
    {700, 0.47, SAXPY_MONO "16,777,216 blocks in 28.54 ms on a Tesla V100 PCIe at 1245 MHz "
                "and in 27.15 ms on a Quadro GV100 at 1327 MHz, 0.472 and 0.466 a clock"},
};

double rc_block_rate_per_clock(const char *cc, const char **source)
{
    int want = cc_number(cc);
    for (size_t i = 0; i < ROWS(block_rates); i++)
        if (block_rates[i].cc == want) {
            *source = block_rates[i].source;
            return block_rates[i].per_clock;
        }
    *source = NULL;
    return 0;
}

const char *rc_origin_name(rc_origin origin)
{
    static const char *const names[] = {"published", "measured", "assumed"};
    return names[origin];
}

void rc_gpu_figure_clear(rc_gpu_figure *f)
{
    free(f->source);
    free(f->written);
    *f = (rc_gpu_figure){0};
}

static bool is_set(const rc_gpu_figure *f)
{
    return f->source != NULL;
}

/* Sets an unset figure; false when memory runs out. */
static bool fill(rc_gpu_figure *f, double value, rc_origin origin, const char *source)
{
    if (is_set(f))
        return true;
    f->value = value;
    f->origin = origin;
    f->source = strdup(source);
    return f->source != NULL;
}

/* A typical clock under load, for a GPU file that gives neither its SMs nor a clock. */
#define ASSUMED_CLOCK 1.5e9

/* The SM clock and the number of SMs. The clock: the file's <sm><clock>, else the GPU's
 * boost <clock>, else its base clock (assumed: under load the GPU runs at least that fast),
 * else derived from the FP32 peak and <sms>. The SMs: <sms>, else derived from the FP32 peak
 * and the clock. Without either, the clock is assumed. */
static bool fill_clock_and_sms(rc_gpu *g, const rc_arch *a)
{
    rc_gpu_figure *clock = &g->sm.clock, *count = &g->sm.count;
    double per_sm_clock = 2.0 * a->fp32_lanes; /* FLOPs per clock per SM */
    char src[300];
    bool ok = true;
    if (g->sms > 0)
        ok = fill(count, (double)g->sms, RC_ORIGIN_PUBLISHED, "the GPU's <sms>");
    if (g->clock_hz > 0 && g->clock_kind && strcmp(g->clock_kind, "boost") == 0)
        ok = ok && fill(clock, g->clock_hz, RC_ORIGIN_PUBLISHED, "the GPU's boost <clock>");
    else if (g->clock_hz > 0)
        ok = ok && fill(clock, g->clock_hz, RC_ORIGIN_ASSUMED,
                        "assumed: the GPU's base <clock> (under load it runs at least this fast)");
    if (!is_set(clock) && is_set(count)) {
        snprintf(src, sizeof src, "assumed: derived from the FP32 peak as peak / (%g SMs x %d "
                 "FP32 lanes x 2 FLOPs)", count->value, a->fp32_lanes);
        ok = ok && fill(clock, g->peak_fp32 / (count->value * per_sm_clock), RC_ORIGIN_ASSUMED,
                        src);
    }
    if (!is_set(clock))
        ok = ok && fill(clock, ASSUMED_CLOCK, RC_ORIGIN_ASSUMED,
                        "assumed: 1.5 GHz, a typical clock under load (the file gives neither "
                        "its SMs nor a clock)");
    if (ok && !is_set(count)) {
        double n = fmax(1.0, round(g->peak_fp32 / (clock->value * per_sm_clock)));
        snprintf(src, sizeof src, "assumed: derived from the FP32 peak as peak / (clock x %d "
                 "FP32 lanes x 2 FLOPs)", a->fp32_lanes);
        ok = fill(count, n, RC_ORIGIN_ASSUMED, src);
    }
    return ok;
}

static bool fill_sm(rc_gpu *g, const rc_arch *a, bool exact)
{
    char src[200];
    rc_origin o = exact ? RC_ORIGIN_PUBLISHED : RC_ORIGIN_ASSUMED;
    if (exact)
        snprintf(src, sizeof src, GUIDE "%s", a->cc);
    else
        snprintf(src, sizeof src, "assumed: the figures of compute capability %s (" GUIDE
                 "%s), the nearest the table holds", a->cc, a->cc);
    rc_sm_limits *s = &g->sm;
    return fill(&s->warp_size, a->warp_size, o, src) && fill(&s->threads, a->threads, o, src) &&
           fill(&s->blocks, a->blocks, o, src) && fill(&s->registers, a->registers, o, src) &&
           fill(&s->registers_per_thread, a->registers_per_thread, o, src) &&
           fill(&s->register_unit, a->register_unit, o, src) &&
           fill(&s->shared, a->shared, o, src) &&
           fill(&s->shared_per_block, a->shared_per_block, o, src) &&
           fill(&s->shared_unit, a->shared_unit, o, src) &&
           fill(&s->shared_reserved, a->shared_reserved, o, src) && fill(&s->l1, a->l1, o, src) &&
           fill(&s->l1_shared, a->l1_shared, o, src);
}

/* Documented architecture defaults for missing microbenchmark figures, all assumed.
 * Sustained DRAM bandwidth: stream triad reaches 74 to 93 % of the datasheet figure on the
 * GPUs measured (gpu-benches gpu-stream, BabelStream); 85 % is assumed. L2 and L1 bandwidth
 * per SM and clock, and latencies in cycles, are those measured on the nearest architecture
 * (gpu-benches gpu-l2-cache, gpu-cache, gpu-latency); DRAM's as the time they take at the
 * measurement's clock, where it is known. Launch costs: gpu-benches
 * gpu-small-kernels (1.6 to 2.6 us back to back) and the reference reports' 5 us. */
typedef struct {
    int from_cc;       /* major * 100 + minor: applies from this compute capability on */
    double l2_bpc;     /* L2 bytes per clock per SM */
    double l1_bpc;     /* L1 bytes per clock per SM */
    double lat_l1, lat_l2, lat_dram; /* cycles */
    const char *basis; /* which measurement the defaults follow */
    double lat_mhz;    /* the SM clock lat_dram was measured at; 0 where not known (then
                        * lat_dram counts this GPU's cycles) */
} rate_default;

static const rate_default rate_defaults[] = {
    /* Kepler: the L2 rate of a Tesla K80 GPU (GK210, 13 SMs): 333 GB/s read through L2
     * (gpumembench cachebench, ld.cg; ekondis/gpumembench issue 2), 29.3 B per clock per SM
     * at its 875 MHz boost clock. Volta's 20.6 would put a GTX TITAN Black's L2 (303 GB/s)
     * below its own DRAM (336 GB/s), which every DRAM byte passes through.
     * Kepler's and Maxwell's latencies: Arafa et al., "Low Overhead Instruction Latency
     * Characterization for NVIDIA GPGPUs" (arXiv 1905.08778), as its authors tabulate them
     * in PPT-GPU (lanl/PPT@d48f4965, configs/arch_latencies_config.py, classes Kepler and
     * Maxwell): L2 hit 188 and 225 cycles, global memory 331 and 379. The L1 level of this
     * model is, on Kepler, the read-only (texture) path that caches global loads
     * (traffic.c), so Kepler takes the table's texture-cache hit, 112 cycles, not its
     * ld.ca L1 hit (32); Maxwell's unified L1/texture cache hit is 82. The same table gives
     * a Volta 26 / 198 / 362 where gpu-benches measures a V100 at 29.9 / 215 / 437, so
     * these may read up to 17 % low beside the other generations' figures. */
    {0, 29.3, 64, 112, 188, 331, "L2 as measured on a Tesla K80 (gpumembench cachebench: 333 GB/s, "
                                 "13 SMs, 875 MHz); L1 at half Volta's rate; latencies as "
                                 "measured on Kepler by Arafa et al. (arXiv 1905.08778, in "
                                 "lanl/PPT)", 0},
    {500, 20.6, 64, 82, 225, 379, "L2 as measured on a V100 (gpu-benches); L1 at half Volta's "
                                  "rate; latencies as measured on Maxwell by Arafa et al. "
                                  "(arXiv 1905.08778, in lanl/PPT)", 0},
    /* GP100's latencies: the same table, class Pascal, which PPT-GPU pairs with a P100
     * (configs/GPU_config.py: 56 SMs): L1 hit 81, L2 hit 252, global memory 482 cycles; GP100
     * (6.0) caches global loads in L1. The 6.1 parts (GP102 to GP108) take a GP102's own: MT4G's
     * report of a Quadro P6000 (caps-tum/mt4g sample results: 30 SMs, 1645 MHz printed) gives
     * L2 reads 789.6 GiB/s, 17.2 B per clock per SM, and p-chase latencies of 136.0 cycles on
     * the read-only path (ld.global.nc, which is this model's L1 level on 6.1, as on Kepler
     * and Maxwell: global loads are cached in L2 only), 226.9 at L2 and 415.3 at DRAM. */
    {600, 20.6, 64, 81, 252, 482, "L2 as measured on a V100 (gpu-benches); L1 at half Volta's "
                                  "rate; latencies as measured on Pascal (a P100) by Arafa et "
                                  "al. (arXiv 1905.08778, in lanl/PPT)", 0},
    {601, 17.2, 64, 136, 227, 415, "L2 and latencies as measured on a Quadro P6000, GP102 (MT4G "
                                   "sample results, caps-tum/mt4g: L2 789.6 GiB/s on 30 SMs at "
                                   "1645 MHz; read-only path 136, L2 227, DRAM 415 cycles); L1 "
                                   "at half Volta's rate", 1645},
    {700, 20.6, 125, 30, 215, 437, "as measured on a V100 (gpu-benches gpu-cache, gpu-latency)",
     1380},
    /* Turing's L1: a TU102 (Quadro RTX 6000, clocks locked at 1455 MHz) streams 63.9 B a clock
     * per SM from L1 with 32-bit loads and 64.0 with 64-bit ones (connollydavid/tu102
     * mem.l1.bw), half Volta's 128. */
    {705, 12.8, 64, 66, 176, 496, "as measured on an RTX 2080 Ti (MT4G sample results, "
                                  "caps-tum/mt4g); L1 as measured on a TU102 (connollydavid/tu102 "
                                  "mem.l1.bw: 63.9 B per clock per SM with 32-bit loads)", 1545},
    {800, 35.5, 126, 36, 211, 571, "as measured on an A100 (gpu-benches gpu-l2-cache, "
                                   "gpu-cache, gpu-latency)", 1410},
    /* GA10x (8.6): an RTX 3060 Laptop GPU (GA106, 30 SMs, clocks up to 1702 MHz) measured
     * by YKTian-x2b/AmpereArchViaMicroBenchMark. Its L1 and shared memory give 63.6 and 62.8
     * B per clock per SM to 32-bit loads, 124.7 and 126.1 to 64-bit ones: 16 load/store
     * units, a warp's 32-bit access in two clocks, as the L40's and A40's 64 B per clock. */
    {806, 25.0, 64, 33, 219, 515, "as measured on an RTX 3060 Laptop GPU, GA106 "
                                  "(YKTian-x2b/AmpereArchViaMicroBenchMark@6f45ffd: L2 1276.2 "
                                  "GB/s on 30 SMs at 1702 MHz; L1 63.6 B per clock with 32-bit "
                                  "loads; latencies 33, 219 and about 515 cycles)", 1702},
    {809, 14.7, 64, 36, 276.5, 632, "as measured on an L40, Ada (gpu-benches gpu-l2-cache, "
                                    "gpu-cache, gpu-latency)", 2490},
    {900, 35.0, 126, 34, 265.5, 658, "as measured on an H100 PCIe (gpu-benches gpu-l2-cache, "
                                     "gpu-cache, gpu-latency)", 1755},
};
#define NRATE_DEFAULTS (sizeof rate_defaults / sizeof rate_defaults[0])

static const rate_default *rate_default_for(const char *cc)
{
    int want = cc_number(cc);
    const rate_default *best = &rate_defaults[0];
    for (size_t i = 0; i < NRATE_DEFAULTS; i++)
        if (rate_defaults[i].from_cc <= want)
            best = &rate_defaults[i];
    return best;
}

static bool fill_rates(rc_gpu *g)
{
    const rate_default *d = rate_default_for(g->compute_capability);
    double per_clock = g->sm.count.value * g->sm.clock.value;
    double cycle = 1.0 / g->sm.clock.value;
    char src[400];
    rc_gpu_rates *r = &g->rates;
    bool ok = fill(&r->dram_bandwidth, 0.85 * g->bandwidth, RC_ORIGIN_ASSUMED,
                   "assumed: 85 % of the datasheet bandwidth (stream triad reaches 74 to 93 % "
                   "on the GPUs measured in gpu-benches and BabelStream)");
    snprintf(src, sizeof src, "assumed: %g B per clock per SM, %s", d->l2_bpc,
             d->basis);
    ok = ok && fill(&r->l2_bandwidth, d->l2_bpc * per_clock, RC_ORIGIN_ASSUMED, src);
    snprintf(src, sizeof src, "assumed: %g B per clock per SM, %s", d->l1_bpc,
             d->basis);
    ok = ok && fill(&r->l1_bandwidth, d->l1_bpc * per_clock, RC_ORIGIN_ASSUMED, src);
    /* A DRAM round trip is the memory's, not the SM clock's: where the measurement's clock is
     * known, its time carries over to another GPU, not its cycles (docs/architectures.md,
     * "DRAM latencies carry over in time"). */
    double dram_latency = d->lat_dram * cycle;
    if (d->lat_mhz > 0) {
        dram_latency = d->lat_dram / (d->lat_mhz * 1e6);
        snprintf(src, sizeof src, "assumed: %g cycles at %g MHz, %s", d->lat_dram, d->lat_mhz,
                 d->basis);
    } else {
        snprintf(src, sizeof src, "assumed: %g cycles, %s", d->lat_dram, d->basis);
    }
    ok = ok && fill(&r->dram_latency, dram_latency, RC_ORIGIN_ASSUMED, src);
    snprintf(src, sizeof src, "assumed: %g cycles, %s", d->lat_l2, d->basis);
    ok = ok && fill(&r->l2_latency, d->lat_l2 * cycle, RC_ORIGIN_ASSUMED, src);
    snprintf(src, sizeof src, "assumed: %g cycles, %s", d->lat_l1, d->basis);
    ok = ok && fill(&r->l1_latency, d->lat_l1 * cycle, RC_ORIGIN_ASSUMED, src);
    ok = ok && fill(&r->launch_back_to_back, 2.5e-6, RC_ORIGIN_ASSUMED,
                    "assumed: 2.5 us, the upper end of the 1.6 to 2.6 us that gpu-benches "
                    "gpu-small-kernels measures for launches queued back to back");
    ok = ok && fill(&r->launch_sync, 5e-6, RC_ORIGIN_ASSUMED,
                    "assumed: 5 us, as the reference reports assume for a launch and a "
                    "synchronisation (5 to 10 us measured)");
    return ok;
}

/* What the figures must satisfy together, for occupancy to make sense. */
static bool check_sm(const rc_gpu *g, char *err, size_t errlen)
{
    const rc_sm_limits *s = &g->sm;
    if (s->threads.value < s->warp_size.value) {
        snprintf(err, errlen, "<sm>: %g threads per SM is fewer than one warp of %g",
                 s->threads.value, s->warp_size.value);
        return false;
    }
    if (s->shared_per_block.value > s->shared.value) {
        snprintf(err, errlen, "<sm>: shared memory per block (%g B) exceeds shared memory per "
                 "SM (%g B)", s->shared_per_block.value, s->shared.value);
        return false;
    }
    if (s->shared.value > s->l1_shared.value || s->l1.value > s->l1_shared.value) {
        snprintf(err, errlen, "<sm>: <l1-shared> (%g B) is smaller than <shared> (%g B) or "
                 "<l1> (%g B)", s->l1_shared.value, s->shared.value, s->l1.value);
        return false;
    }
    if (s->registers_per_thread.value * s->warp_size.value > s->registers.value) {
        snprintf(err, errlen, "<sm>: one warp at %g registers per thread needs more than the "
                 "SM's %g registers", s->registers_per_thread.value, s->registers.value);
        return false;
    }
    return true;
}

bool rc_gpu_complete(rc_gpu *g, char *err, size_t errlen)
{
    bool exact;
    const rc_arch *a = rc_arch_find(g->compute_capability, &exact);
    if (!fill_clock_and_sms(g, a) || !fill_sm(g, a, exact) || !fill_rates(g)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return check_sm(g, err, errlen);
}
