// Device microbenchmarks of what the model of issue 33 takes from elsewhere or assumes: atomics
// on one global address (the one-line rate of src/model/atomics.h is an RTX 4090's, assumed on
// other GPUs), a warp's atomics on one shared word (banks.h charges one pass a lane), a load
// after a store to the thread's own data (chain.h charges an L1 hit), and the conversion pipe
// (arch.c's rc_pipe_rates assume 16 a clock per SM on 8.9 and 9.0). Section `gaps`; each row's
// params give the counts a rate is computed from, its note what is timed.
#include "harness.cuh"

// every lane adds to one counter `iters` times, its result unused (RED): 1 (warp-uniform,
// which nvcc may aggregate per warp) or its lane number + 1 (not uniform)
__global__ void g_atomic_one(unsigned *ctr, int iters, int distinct)
{
    unsigned v = distinct ? (threadIdx.x & 31u) + 1u : 1u;
    for (int i = 0; i < iters; i++)
        atomicAdd(ctr, v);
}

// every lane of every warp of a block adds 1 to one shared word `iters` times; with `used`, the
// returned values are summed and written, so the atomic returns (ATOMS, not a reduction)
__global__ void g_shared_word(int iters, int used, unsigned *out)
{
    __shared__ unsigned s;
    if (threadIdx.x == 0)
        s = 0;
    __syncthreads();
    unsigned acc = 0;
    if (used)
        for (int i = 0; i < iters; i++)
            acc += atomicAdd(&s, 1u);
    else
        for (int i = 0; i < iters; i++)
            atomicAdd(&s, 1u);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
    if (used && acc == 0xffffffffu)
        out[gridDim.x + blockIdx.x] = acc;
}

// one thread: load a[i], store a[i + 1] = that + 1, the next step loads what was just stored.
// The PTX keeps both in memory (no forwarding in a register); `cg` loads through L2 only.
__global__ void g_store_load(float *a, int steps, int cg, long long *result)
{
    float v = 0.f;
    long long c0 = clock64();
    for (int i = 0; i < steps; i++) {
        if (cg)
            asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(a + i) : "memory");
        else
            asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(a + i) : "memory");
        asm volatile("st.global.f32 [%0], %1;" ::"l"(a + i + 1), "f"(v + 1.f) : "memory");
    }
    long long c1 = clock64();
    result[0] = c1 - c0;
    result[1] = (long long)v;
}

// int-to-float conversions: 8 independent chains a thread, each step one I2F and one FADD
// (i ^ k keeps the conversion from becoming a float induction variable)
__global__ void g_convert(int iters, float *out)
{
    float f[8] = {0.f};
    unsigned k = threadIdx.x * 2654435761u;
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            f[j] += (float)(int)(((unsigned)i * 8u + (unsigned)j) ^ k);
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 8; j++)
        s += f[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static void gaps_atomic_one(void)
{
    unsigned *ctr;
    CK(cudaMalloc(&ctr, 4));
    CK(cudaMemset(ctr, 0, 4));
    const unsigned blocks = g_sms * 8, threads = 256;
    const int iters = 64;
    const double requests = (double)blocks * threads / 32 * iters;
    for (int distinct = 0; distinct <= 1; distinct++) {
        char p[160];
        snprintf(p, sizeof p, "iters=%d;warp_requests=%.0f;lane_values=%s", iters, requests,
                 distinct ? "lane+1" : "1");
        Row r = row_of("micro", "atomic_one_address", p, dim3(blocks), dim3(threads),
                     "atomicAdd (RED) on one global word by every lane; rate: warp_requests / "
                     "time, and / the SM clock of section clock per clock");
        measure(r, [&] { g_atomic_one<<<blocks, threads>>>(ctr, iters, distinct); },
                M_B2B | M_SINGLE);
    }
    CK(cudaFree(ctr));
}

static void gaps_shared_word(void)
{
    unsigned *out;
    const unsigned blocks = g_sms, threads = 1024;
    CK(cudaMalloc(&out, 2 * blocks * sizeof(unsigned)));
    const int iters = 256;
    for (int used = 0; used <= 1; used++) {
        char p[160];
        snprintf(p, sizeof p, "iters=%d;lane_updates_per_sm=%d;returned=%s", iters,
                 (int)threads * iters, used ? "yes" : "no");
        Row r = row_of("micro", "shared_atomic_one_word", p, dim3(blocks), dim3(threads),
                     "one block of 1024 threads per SM, every lane atomicAdd(&s, 1) on one shared "
                     "word; cycles per lane update: time x SM clock / lane_updates_per_sm");
        measure(r, [&] { g_shared_word<<<blocks, threads>>>(iters, used, out); },
                M_B2B | M_SINGLE);
    }
    CK(cudaFree(out));
}

static void gaps_store_load(void)
{
    const int steps = 1 << 14;
    float *a;
    long long *res;
    CK(cudaMalloc(&a, (steps + 1) * sizeof(float)));
    CK(cudaMemset(a, 0, (steps + 1) * sizeof(float)));
    CK(cudaMalloc(&res, 2 * sizeof(long long)));
    for (int cg = 0; cg <= 1; cg++) {
        std::vector<double> cyc;
        for (int k = 0; k < g_reps; k++) {
            g_store_load<<<1, 1>>>(a, steps, cg, res);
            CK(cudaGetLastError());
            long long h[2];
            CK(cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost));
            cyc.push_back((double)h[0] / steps);
        }
        char p[96];
        snprintf(p, sizeof p, "steps=%d;load=%s", steps, cg ? "ld.global.cg" : "ld.global");
        Row r = row_of("micro", "store_then_load", p, dim3(1), dim3(1),
                     "one thread: load a[i], store a[i+1], load it the next step; value: cycles a "
                     "step (clock64); time columns: the same in cycles");
        emit_cycles(r, cyc);
    }
    CK(cudaFree(a));
    CK(cudaFree(res));
}

static void gaps_convert(void)
{
    const unsigned blocks = g_sms * 8, threads = 256;
    const int iters = 4096;
    float *out;
    CK(cudaMalloc(&out, (size_t)blocks * threads * sizeof(float)));
    char p[160];
    snprintf(p, sizeof p, "iters=%d;conversions=%.0f", iters, (double)blocks * threads * iters * 8);
    Row r = row_of("micro", "convert_i2f", p, dim3(blocks), dim3(threads),
                 "8 independent int-to-float conversions and adds a thread a step; results per "
                 "clock per SM: conversions / (time x SM clock x SMs)");
    measure(r, [&] { g_convert<<<blocks, threads>>>(iters, out); }, M_B2B | M_SINGLE);
    CK(cudaFree(out));
}

void section_gaps(void)
{
    gaps_atomic_one();
    gaps_shared_word();
    gaps_store_load();
    gaps_convert();
}
