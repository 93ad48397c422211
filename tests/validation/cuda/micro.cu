// Device microbenchmarks: DRAM, L2, L1 and shared-memory bandwidth, latency by pointer chase,
// launch cost, and the SM clock. FMA throughput is in validation.cu (section fma, kind micro).
#include "harness.cuh"

// ---------------------------------------------------------------- kernels
__global__ void m_copy(const float *in, float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
__global__ void m_copy4(const float4 *in, float4 *out, size_t n4)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n4)
        out[i] = in[i];
}
__global__ void m_triad(float *a, const float *b, const float *c, float s, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}
__global__ void m_init(float *a, float v, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = v;
}
// grid-stride triad: the launch's size sets the warps in flight, not the array
__global__ void m_triad_gs(float *a, const float *b, const float *c, float s, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}
// reads n4 float4 `passes` times through L2 (not L1), grid-stride; one store per thread
__global__ void m_read_l2(const float4 *p, size_t n4, int passes, float *out)
{
    float acc = 0.f;
    for (int k = 0; k < passes; k++)
        for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
             i += (size_t)gridDim.x * blockDim.x) {
            float4 v = __ldcg(p + i);
            acc += v.x + v.y + v.z + v.w;
        }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
// every block reads the same n4 float4 (a few KB) `iters` times through L1
__global__ void m_read_l1(const float4 *p, int n4, int iters, float *out)
{
    float acc = 0.f;
    int j = threadIdx.x;
    for (int k = 0; k < iters; k++) {
        float4 v = __ldca(p + j);
        acc += v.x + v.y + v.z + v.w;
        j += blockDim.x;
        if (j >= n4)
            j -= n4;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
// shared memory: a warp reads 32 consecutive float4 per request (four wavefronts, no conflict)
__global__ void m_read_shared(int iters, float *out)
{
    __shared__ float4 s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = make_float4(i, i + 1, i + 2, i + 3);
    __syncthreads();
    float acc = 0.f;
    int j = threadIdx.x;
    for (int k = 0; k < iters; k++) {
        float4 v = s[j];
        acc += v.x + v.y + v.z + v.w;
        j = (j + 32) & 1023;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void m_empty(void)
{
}

// pointer chase: each 128-byte line's first word holds the address of the next line
__global__ void m_chase_init(unsigned long long *a, size_t lines)
{
    // next(l) = (A l + C) mod lines: one cycle through every line (Hull-Dobell: lines a power of
    // two, A = 1 mod 4, C odd), with long pseudo-random jumps
    for (size_t l = blockIdx.x * (size_t)blockDim.x + threadIdx.x; l < lines;
         l += (size_t)gridDim.x * blockDim.x) {
        size_t next = (1664525ull * l + 1013904223ull) & (lines - 1);
        a[l * 16] = (unsigned long long)(a + next * 16);
    }
}
__device__ inline unsigned long long globaltimer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__global__ void m_chase(const unsigned long long *a, int warm, int steps, long long *result)
{
    const unsigned long long *q = a;
    for (int i = 0; i < warm; i++)
        q = (const unsigned long long *)*q;
    long long c0 = clock64();
    unsigned long long g0 = globaltimer_ns();
    for (int i = 0; i < steps; i++)
        q = (const unsigned long long *)*q;
    long long c1 = clock64();
    unsigned long long g1 = globaltimer_ns();
    result[0] = c1 - c0;
    result[1] = (long long)(g1 - g0);
    result[2] = (long long)(size_t)q;  // keeps the chase
}
__global__ void m_clock_spin(long long cycles, long long *result)
{
    long long c0 = clock64();
    unsigned long long g0 = globaltimer_ns();
    while (clock64() - c0 < cycles) {
    }
    result[0] = clock64() - c0;
    result[1] = (long long)(globaltimer_ns() - g0);
}

// atomics on a few hot lines: each warp request adds 1 to the 32 words of one 128-byte line,
// the lines taken round robin (as a privatised histogram's merge does); the result unused (RED)
__global__ void m_atomic_lines(unsigned *bins, int lines, int iters)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    for (int it = 0; it < iters; it++)
        atomicAdd(&bins[((warp + (unsigned)it) % (unsigned)lines) * 32 + lane], 1u);
}

// each lane adds 1 to a pseudo-random one of `words` words (a histogram of random values)
__global__ void m_atomic_random(unsigned *bins, int words, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int it = 0; it < iters; it++)
        atomicAdd(&bins[hash32((uint64_t)t * (uint64_t)iters + (uint64_t)it) % (unsigned)words], 1u);
}

// ---------------------------------------------------------------- helpers
static Row mrow(const char *kernel, const std::string &params, dim3 grid, dim3 block)
{
    Row r;
    r.kind = "micro";
    r.kernel = kernel;
    r.params = params;
    r.grid = grid;
    r.block = block;
    return r;
}
static unsigned nblocks(size_t n, unsigned b)
{
    return (unsigned)((n + b - 1) / b);
}
static std::string mib(size_t bytes)
{
    char b[64];
    if (bytes >= (1u << 20))
        snprintf(b, sizeof b, "bytes=%zu (%zu MiB)", bytes, bytes >> 20);
    else
        snprintf(b, sizeof b, "bytes=%zu (%zu KiB)", bytes, bytes >> 10);
    return b;
}

// ---------------------------------------------------------------- sections
void section_dram(void)
{
    const size_t n = (size_t)1 << 28;  // 1 GiB per array
    float *a, *b, *c;
    CK(cudaMalloc(&a, n * 4));
    CK(cudaMalloc(&b, n * 4));
    CK(cudaMalloc(&c, n * 4));
    fill_float(b, n, 31);
    fill_float(c, n, 32);
    const int modes = M_B2B | M_SINGLE;
    dim3 block(256), grid(nblocks(n, 256)), grid4(nblocks(n / 4, 256));
    std::string ps = "N=" + std::to_string(n) + " floats per array";
    Row r = mrow("dram_copy", ps, grid, block);
    r.bytes = 8.0 * n;
    measure(r, [&] { m_copy<<<grid, block>>>(b, a, n); }, modes);
    Row r4 = mrow("dram_copy_float4", ps, grid4, block);
    r4.bytes = 8.0 * n;
    measure(r4, [&] { m_copy4<<<grid4, block>>>((const float4 *)b, (float4 *)a, n / 4); }, modes);
    Row t = mrow("dram_triad", ps, grid, block);
    t.bytes = 12.0 * n;
    measure(t, [&] { m_triad<<<grid, block>>>(a, b, c, 3.0f, n); }, modes);
    Row w = mrow("dram_write", ps, grid, block);
    w.bytes = 4.0 * n;
    measure(w, [&] { m_init<<<grid, block>>>(a, 1.0f, n); }, modes);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
}

void section_occupancy(void)
{
    // 3 x 64 MiB: four times the L2, so the triad streams from DRAM
    const size_t n = (size_t)1 << 24;
    float *a, *b, *c;
    CK(cudaMalloc(&a, n * 4));
    CK(cudaMalloc(&b, n * 4));
    CK(cudaMalloc(&c, n * 4));
    fill_float(b, n, 33);
    fill_float(c, n, 34);
    struct Cfg {
        unsigned blocks, threads;
        const char *what;
    };
    std::vector<Cfg> cfgs = {
        {1, 1024, "1 block"},
        {8, 1024, "8 blocks"},
        {(unsigned)g_sms / 4, 1024, "a quarter of the SMs"},
        {(unsigned)g_sms / 2, 1024, "half the SMs"},
    };
    const unsigned per_sm[][2] = {{1, 32}, {1, 64}, {1, 128}, {1, 256}, {1, 512}, {1, 1024}, {2, 1024}};
    for (auto &ps : per_sm)
        cfgs.push_back({(unsigned)g_sms * ps[0], ps[1], "every SM"});
    for (const Cfg &cf : cfgs) {
        char params[160];
        unsigned sms = std::min(cf.blocks, (unsigned)g_sms);
        snprintf(params, sizeof params, "N=%zu;warps_per_sm=%u;sms=%u", n,
                 (cf.blocks + g_sms - 1) / g_sms * cf.threads / 32, sms);
        Row r = mrow("dram_triad_occupancy", params, dim3(cf.blocks), dim3(cf.threads));
        r.bytes = 12.0 * n;
        r.note = cf.what;
        measure(r, [&] { m_triad_gs<<<cf.blocks, cf.threads>>>(a, b, c, 3.0f, n); },
                M_B2B | M_SINGLE);
    }
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
}

void section_cache_bw(void)
{
    const size_t max_bytes = (size_t)512 << 20;
    float4 *buf;
    float *out;
    unsigned blocks = g_sms * 8, threads = 256;
    CK(cudaMalloc(&buf, max_bytes));
    CK(cudaMalloc(&out, (size_t)blocks * threads * 4));
    fill_float((float *)buf, max_bytes / 4, 35);
    // L2 (and past it, DRAM) read bandwidth against the size read
    const size_t mbs[] = {2, 4, 8, 16, 24, 32, 40, 48, 64, 128, 512};
    for (size_t mb : mbs) {
        size_t bytes = mb << 20, n4 = bytes / 16;
        int passes = (int)std::max<size_t>(1, ((size_t)4 << 30) / bytes);
        Row r = mrow("l2_read", mib(bytes) + ";passes=" + std::to_string(passes), dim3(blocks),
                     dim3(threads));
        r.bytes = (double)bytes * passes;
        r.note = "ld.global.cg (bypasses L1), grid-stride, the same lines per thread each pass";
        measure(r, [&] { m_read_l2<<<blocks, threads>>>(buf, n4, passes, out); }, M_B2B | M_SINGLE);
    }
    // L1: every block rereads the same 16 KiB
    {
        int n4 = 1024, iters = 8192;
        Row r = mrow("l1_read", "bytes=16384;iters=" + std::to_string(iters), dim3(blocks),
                     dim3(threads));
        r.bytes = 16.0 * iters * blocks * threads;
        r.note = "ld.global.ca, 16 B per thread per iteration, 8 blocks of 256 per SM";
        measure(r, [&] { m_read_l1<<<blocks, threads>>>(buf, n4, iters, out); }, M_B2B | M_SINGLE);
    }
    {
        int iters = 8192;
        Row r = mrow("shared_read", "bytes=16384;iters=" + std::to_string(iters), dim3(blocks),
                     dim3(threads));
        r.bytes = 16.0 * iters * blocks * threads;
        r.note = "16 B per thread per iteration, conflict-free, 8 blocks of 256 per SM";
        measure(r, [&] { m_read_shared<<<blocks, threads>>>(iters, out); }, M_B2B | M_SINGLE);
    }
    CK(cudaFree(buf));
    CK(cudaFree(out));
}

void section_latency(void)
{
    const int steps = 1 << 15;
    long long *res;
    CK(cudaMalloc(&res, 3 * sizeof(long long)));
    float *scratch;
    CK(cudaMalloc(&scratch, (size_t)g_sms * 8 * 256 * 4));
    for (int lg = 13; lg <= 30; lg++) {
        size_t bytes = (size_t)1 << lg, lines = bytes / 128;
        unsigned long long *a;
        CK(cudaMalloc(&a, bytes));
        m_chase_init<<<g_sms * 8, 256>>>(a, lines);
        CK(cudaGetLastError());
        int warm = (int)std::min<size_t>(lines, 4096);
        std::vector<double> cyc, ns;
        for (int k = 0; k < g_reps; k++) {
            // bring the buffer (or its last 50 MB) into L2 first, then chase on one SM
            m_read_l2<<<g_sms * 8, 256>>>((const float4 *)a, bytes / 16, 1, scratch);
            m_chase<<<1, 1>>>(a, warm, steps, res);
            CK(cudaGetLastError());
            long long h[3];
            CK(cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost));
            cyc.push_back((double)h[0] / steps);
            ns.push_back((double)h[1] / steps);
        }
        Timing tc = summarize(cyc, 1), tn = summarize(ns, 1);
        char params[96];
        snprintf(params, sizeof params, "%s;steps=%d;line=128", mib(bytes).c_str(), steps);
        Row r = mrow("pointer_chase", params, dim3(1), dim3(1));
        r.note = "dependent 8-byte loads (ld.global, L1 allowed) at pseudo-random 128-byte lines; "
                 "time: per load";
        char v[32];
        snprintf(v, sizeof v, "%.1f", tc.median_us);
        r.value = v;
        r.unit = "cycles";
        Timing t = tn;  // ns per load, written in us like every other time
        t.median_us /= 1000.0;
        t.min_us /= 1000.0;
        t.max_us /= 1000.0;
        emit(r, "in-kernel", t);
        CK(cudaFree(a));
    }
    CK(cudaFree(res));
    CK(cudaFree(scratch));
}

// per-launch time of `count` empty launches captured in one CUDA graph, replayed: the GPU's
// own cost per launch, without the host's launch calls
static void graph_launch(dim3 grid, dim3 block, const char *note)
{
    const int count = 1000;
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaEvent_t e0, e1;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < count; i++)
        m_empty<<<grid, block, 0, s>>>();
    CK(cudaStreamEndCapture(s, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    std::vector<double> v;
    for (int k = 0; k < g_reps; k++) {
        CK(cudaEventRecord(e0, s));
        CK(cudaGraphLaunch(exec, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        v.push_back(ms * 1000.0 / count);
    }
    Row r = mrow("empty", "", grid, block);
    r.note = note;
    emit(r, "graph", summarize(v, count));
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaStreamDestroy(s));
}

void section_launch(void)
{
    graph_launch(dim3(1), dim3(32), "empty kernel; 1000 launches in one CUDA graph, per launch");
    graph_launch(dim3(g_sms * 16), dim3(256),
                 "empty kernel, 16 blocks per SM; 1000 launches in one CUDA graph, per launch");
    Row r = mrow("empty", "", dim3(1), dim3(32));
    r.note = "empty kernel; b2b batch 1000";
    measure(r, [&] { m_empty<<<1, 32>>>(); }, M_ALL, 1000);
    unsigned g = g_sms * 16;
    Row f = mrow("empty", "", dim3(g), dim3(256));
    f.note = "empty kernel, 16 blocks per SM; b2b batch 1000";
    measure(f, [&] { m_empty<<<g, 256>>>(); }, M_ALL, 1000);
    Row h = mrow("empty", "", dim3(g_sms * 256), dim3(1024));
    h.note = "empty kernel, 256 blocks of 1024 per SM (128 waves); b2b batch 300";
    measure(h, [&] { m_empty<<<g_sms * 256, 1024>>>(); }, M_ALL, 300);
}

// The L2's rate for atomics on a few contended lines, against how many lines: the device figure
// that histogram-like kernels need (none was found published for Volta and later).
void section_atomics(void)
{
    const unsigned blocks = g_sms * 8, threads = 256;
    const int iters = 64;
    const double warps = (double)blocks * threads / 32;
    unsigned *bins;
    CK(cudaMalloc(&bins, (size_t)8192 * 128));
    CK(cudaMemset(bins, 0, (size_t)8192 * 128));
    const int line_counts[] = {1, 2, 4, 8, 32, 256, 8192};
    for (int lines : line_counts) {
        Row r = mrow("atomic_lines", "lines=" + std::to_string(lines) + ";iters=" +
                     std::to_string(iters), dim3(blocks), dim3(threads));
        r.bytes = 128.0 * warps * iters;
        r.note = "atomicAdd (RED) by 8 blocks of 256 per SM; each warp request: the 32 words of "
                 "one 128-byte line, lines round robin; bandwidth: 128 B per request";
        measure(r, [&] { m_atomic_lines<<<blocks, threads>>>(bins, lines, iters); },
                M_B2B | M_SINGLE);
    }
    const int random_lines[] = {8, 256};
    for (int lines : random_lines) {
        Row r = mrow("atomic_random", "words=" + std::to_string(lines * 32) + ";iters=" +
                     std::to_string(iters), dim3(blocks), dim3(threads));
        r.bytes = 4.0 * warps * 32 * iters;
        r.note = "atomicAdd (RED) by 8 blocks of 256 per SM, each lane to a pseudo-random word; "
                 "bandwidth: 4 B per atomic";
        measure(r, [&] { m_atomic_random<<<blocks, threads>>>(bins, lines * 32, iters); },
                M_B2B | M_SINGLE);
    }
    CK(cudaFree(bins));
}

void section_clock(void)
{
    long long *res;
    CK(cudaMalloc(&res, 2 * sizeof(long long)));
    const long long cycles = 20000000;  // about 10 ms
    std::vector<double> mhz, us;
    for (int k = 0; k < 5; k++) {
        m_clock_spin<<<g_sms, 32>>>(cycles, res);
        CK(cudaGetLastError());
        long long h[2];
        CK(cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost));
        mhz.push_back((double)h[0] / (double)h[1] * 1000.0);
        us.push_back((double)h[1] / 1000.0);
    }
    Timing tm = summarize(mhz, 1);
    Row r = mrow("sm_clock", "cycles=20000000", dim3(g_sms), dim3(32));
    char v[32];
    snprintf(v, sizeof v, "%.0f", tm.median_us);
    r.value = v;
    r.unit = "MHz";
    snprintf(v, sizeof v, "MHz %.0f-%.0f", tm.min_us, tm.max_us);
    r.check = v;
    r.note = "clock64 cycles over globaltimer ns while one warp per SM spins; time: the spin";
    emit(r, "in-kernel", summarize(us, 1));
    CK(cudaFree(res));
}
