// Section gaps_issue: how an SM shares its time between the load/store units and instruction
// issue. The naive 2-D convolutions of the validation set issue about 11 instructions a tap
// beside their two L1-hit loads (issue.sh), and run slower than either the load/store units'
// time or the issue time alone, by 12-26 % (docs/architectures.md, "What would change the model
// most", 21). Each kernel here runs, per iteration of a loop, LOADS loads that hit L1 (or shared
// memory) in the convolutions' warp shape, 16 lanes along each of two rows a power of two
// apart, and ALU independent integer instructions; the cycles a warp-iteration per SM against
// ALU tell whether the two add (their sum), overlap (the larger) or something between.
// Compiled with nvcc 13.0 for sm_90, not yet run on a GPU.
#include "harness.cuh"

constexpr int MIX_ROWS_SHIFT = 10; // the two rows 1,024 floats apart: the same banks, two lines
constexpr int MIX_BLOCK = 1024;

// ALU integer instructions an iteration on four independent accumulators, adds and xors in
// turn so that ptxas cannot fold two into one (IADD3 takes three addends, LOP3 three inputs of
// logic, but neither both); `volatile` keeps nvcc from folding them before ptxas.
template <int ALU>
__device__ __forceinline__ void alu_ops(unsigned (&a)[4], unsigned i)
{
#pragma unroll
    for (int j = 0; j < ALU; j++) {
        if (j & 4)
            asm volatile("xor.b32 %0, %0, %1;" : "+r"(a[j & 3]) : "r"(i));
        else
            asm volatile("add.u32 %0, %0, %1;" : "+r"(a[j & 3]) : "r"(i));
    }
}

// LOADS loads an iteration from `window` (2 x 1,024 floats, 16 lanes a row), each at a column
// of its own (i x LOADS + l: no load of one iteration is another's, which the compiler would
// load once), and ALU integer instructions
template <int LOADS, int ALU>
__device__ __forceinline__ float mix_loop(const float *window, int iters)
{
    const int lane = threadIdx.x & 31;
    const float *p = window + ((lane >> 4) << MIX_ROWS_SHIFT) + (lane & 15);
    unsigned a[4] = {threadIdx.x, threadIdx.x * 3u, threadIdx.x * 5u, threadIdx.x * 7u};
    float acc = 0.f;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int l = 0; l < LOADS; l++)
            acc += p[(i * LOADS + l) & 511];
        alu_ops<ALU>(a, (unsigned)i);
    }
    return acc + (float)(a[0] ^ a[1] ^ a[2] ^ a[3]);
}

// the window in global memory, which every block reads (8 KiB: it stays in L1)
template <int LOADS, int ALU>
__global__ void g_mix_global(const float *buf, int iters, float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = mix_loop<LOADS, ALU>(buf, iters);
}

// the same from shared memory (each block fills its own copy of the window first)
template <int LOADS, int ALU>
__global__ void g_mix_shared(const float *buf, int iters, float *out)
{
    __shared__ float s[2 << MIX_ROWS_SHIFT];
    for (int k = threadIdx.x; k < (2 << MIX_ROWS_SHIFT); k += blockDim.x)
        s[k] = buf[k];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = mix_loop<LOADS, ALU>(s, iters);
}

template <int LOADS, int ALU, bool SHARED>
static void mix_row(const float *buf, float *out, unsigned blocks, int iters)
{
    const double warp_iters = (double)blocks * MIX_BLOCK / 32 * iters;
    char p[200];
    snprintf(p, sizeof p, "loads=%d;alu=%d;space=%s;iters=%d;warp_iterations=%.0f", LOADS, ALU,
             SHARED ? "shared" : "global", iters, warp_iters);
    Row r = row_of("micro", "issue_mix", p, dim3(blocks), dim3(MIX_BLOCK),
                   "per iteration LOADS L1-hit (or shared) float loads, 16 lanes on each of two "
                   "rows 4 KiB apart, and ALU independent integer adds and xors; cycles a "
                   "warp-iteration per SM: time x SM clock x SMs / warp_iterations (the SASS "
                   "per iteration: cuobjdump of the build)");
    if (SHARED)
        measure(r, [&] { g_mix_shared<LOADS, ALU><<<blocks, MIX_BLOCK>>>(buf, iters, out); },
                M_B2B | M_SINGLE);
    else
        measure(r, [&] { g_mix_global<LOADS, ALU><<<blocks, MIX_BLOCK>>>(buf, iters, out); },
                M_B2B | M_SINGLE);
}

void section_gaps_issue(void)
{
    const unsigned blocks = g_sms * 2; // two blocks of 1,024 threads: every warp an SM holds
    const int iters = 4096;
    float *buf, *out;
    CK(cudaMalloc(&buf, (2 << MIX_ROWS_SHIFT) * sizeof(float)));
    fill_float(buf, 2 << MIX_ROWS_SHIFT, 7);
    CK(cudaMalloc(&out, (size_t)blocks * MIX_BLOCK * sizeof(float)));
    mix_row<0, 8, false>(buf, out, blocks, iters);
    mix_row<0, 16, false>(buf, out, blocks, iters);
    mix_row<2, 0, false>(buf, out, blocks, iters);
    mix_row<2, 4, false>(buf, out, blocks, iters);
    mix_row<2, 8, false>(buf, out, blocks, iters);
    mix_row<2, 16, false>(buf, out, blocks, iters);
    mix_row<2, 0, true>(buf, out, blocks, iters);
    mix_row<2, 8, true>(buf, out, blocks, iters);
    mix_row<2, 16, true>(buf, out, blocks, iters);
    CK(cudaFree(buf));
    CK(cudaFree(out));
}
