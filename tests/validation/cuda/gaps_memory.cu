// Device microbenchmarks of four things the model of issue 33 assumes or lacks, for a session
// that is lent a GPU (section `gaps_memory`; not yet run on a GPU):
//   l2_read_blocks   L2 read bandwidth against the number of SMs that read (one block of 1,024
//                    threads an SM): refine.c gives a launch on few SMs the whole L2's sustained
//                    rate, where the K40c's one-block reductions ran at about their SMs' share
//                    (docs/validation.md); this row says which holds
//   store_lines      warp stores of 4-byte words spread over 1 to 32 lines of 128 bytes, in
//                    L2: refine.c charges each line a store request writes in part the
//                    generation's part-line figure (arch.c rc_part_line_bytes), measured with
//                    two written sectors a line (OpenCL-Benchmark's misaligned write); line
//                    touches per clock against lines a request, from one sector a line on
//   barrier_tree     a shared-memory tree (s[t] += s[t + o]; __syncthreads()) repeated in one
//                    block an SM: cycles a step, the barrier and the shared-memory round trip
//                    that the reductions' estimates leave out
//   l1_reuse         what L1 keeps, against the lines touched between two uses (l1sim.h runs a
//                    least-recently-used L1; gpu-benches' sweeps keep part of a stream past the
//                    L1's size: docs/architectures.md, "What would change the model most", 13):
//                    pattern `cycle`, each warp of one block an SM reading its own `lines` lines
//                    again and again (live lines: warps x lines); pattern `hot`, each warp
//                    reading its one hot line, then `lines` lines of a stream it never reads
//                    again, and so on (the hot line's reuse distance: warps x (lines + 1)
//                    lines). A least-recently-used L1 keeps the hot line exactly while that
//                    distance fits; a policy that shields old lines from a stream keeps it past
// Each row's params give the counts its figure is computed from; its note says what is timed.
#include "harness.cuh"

// Every block reads the whole buffer `passes` times through L2 only (ld.global.cg), float4 a
// load, four independent loads in flight a thread. The launch's dynamic shared memory, unused,
// keeps a second block off the SM.
__global__ void g_l2_read(const float4 *buf, size_t n4, int passes, float *out)
{
    float acc = 0.f;
    for (int p = 0; p < passes; p++)
        for (size_t i = threadIdx.x; i < n4; i += 4 * (size_t)blockDim.x) {
            float4 v[4];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                size_t j = i + (size_t)u * blockDim.x;
                if (j < n4)
                    asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                                 : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
                                 : "l"(buf + j));
                else
                    v[u] = make_float4(0.f, 0.f, 0.f, 0.f);
            }
#pragma unroll
            for (int u = 0; u < 4; u++)
                acc += v[u].x + v[u].y + v[u].z + v[u].w;
        }
    if (acc == 12345.f) // never: keeps the loads
        out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Each warp request stores 32 words spread over `lines` lines: lane l writes word l / lines of
// line l % lines of the request's group, a fresh group of lines each iteration (wrapping in a
// buffer that stays in L2; nlines a power of two, so the wrap is a mask, not a division that
// would cost more issue slots than the store).
__global__ void g_store_lines(unsigned *buf, size_t nlines, int lines, int iters)
{
    const unsigned lane = threadIdx.x & 31u;
    const size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 5;
    const size_t line_of_lane = lane % (unsigned)lines, word = lane / (unsigned)lines;
    for (int it = 0; it < iters; it++) {
        size_t group = (warp * (size_t)iters + (size_t)it) * (size_t)lines;
        size_t line = (group + line_of_lane) & (nlines - 1);
        buf[line * 32 + word] = (unsigned)it + lane;
    }
}

// `iters` shared-memory trees of blockDim.x floats, each halving step a barrier; thread 0 of
// each block writes the cycles of its loop (clock64).
__global__ void g_barrier_tree(int iters, float *out, long long *cycles)
{
    extern __shared__ float s[];
    const unsigned t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    long long c0 = clock64();
    for (int it = 0; it < iters; it++) {
        for (unsigned o = blockDim.x >> 1; o > 0; o >>= 1) {
            if (t < o)
                s[t] += s[t + o];
            __syncthreads();
        }
        s[t] = (float)(t ^ (unsigned)it); // a fresh tree, values bounded
        __syncthreads();
    }
    long long c1 = clock64();
    if (t == 0) {
        out[blockIdx.x] = s[0];
        cycles[blockIdx.x] = c1 - c0;
    }
}

// One warp request of one 128-byte line (lane l the word l), kept in L1 (ld.global.ca); each
// warp of the block makes `requests` of them, cycling through `lines` lines of its own
// (hot == 0) or alternating its hot line with the next `lines` lines of a stream (hot != 0).
// Thread 0 of each block writes the cycles of its loop (clock64).
__global__ void g_l1_reuse(const float *buf, size_t warp_floats, int lines, int hot,
                           int requests, float *out, long long *cycles)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const float *mine = buf + ((size_t)blockIdx.x * (blockDim.x >> 5) + warp) * warp_floats;
    float acc = 0.f;
    int next = 0; // the next line of the cycle, or of the stream
    __syncthreads();
    long long c0 = clock64();
    for (int r = 0; r < requests; r++) {
        size_t line;
        if (!hot) {
            line = (size_t)next;
            next = next + 1 == lines ? 0 : next + 1;
        } else if (r % (lines + 1) == 0) {
            line = 0; // the hot line
        } else {
            line = 1 + (size_t)next++; // the stream: fresh lines
        }
        float v;
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(mine + line * 32 + lane));
        acc += v;
    }
    __syncthreads();
    long long c1 = clock64();
    if (acc == 12345.f) // never: keeps the loads
        out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = c1 - c0;
}

// For each of g_reps launches (`launch` enqueues one, one block an SM, each block writing its
// loop's cycles to cycles[block]): the median block's cycles / per.
template <class F>
static std::vector<double> median_block_cycles(F launch, long long *cycles, double per)
{
    std::vector<double> out;
    for (int k = 0; k < g_reps; k++) {
        launch();
        CK(cudaGetLastError());
        std::vector<long long> h(g_sms);
        CK(cudaMemcpy(h.data(), cycles, g_sms * sizeof(long long), cudaMemcpyDeviceToHost));
        std::sort(h.begin(), h.end());
        out.push_back((double)h[g_sms / 2] / per);
    }
    return out;
}

static void gaps_l1_reuse(void)
{
    const unsigned threads = 256, warps = threads / 32;
    const int requests = 4096;
    // each warp's room: its cycle's lines, or its hot line and the stream's
    const size_t warp_floats = (size_t)(requests + 1) * 32;
    float *buf, *out;
    long long *cyc;
    CK(cudaMalloc(&buf, (size_t)g_sms * warps * warp_floats * sizeof(float)));
    fill_float(buf, (size_t)g_sms * warps * warp_floats, 83);
    CK(cudaMalloc(&out, (size_t)g_sms * threads * sizeof(float)));
    CK(cudaMalloc(&cyc, g_sms * sizeof(long long)));
    for (int hot = 0; hot <= 1; hot++)
        // live lines (cycle) or the hot line's distance (hot): warps x 4 to warps x 512 lines,
        // 4 KiB to 512 KiB: below and past every L1 (128 to 256 KiB)
        for (int lines = 4; lines <= 512; lines = lines < 64 ? lines * 2 : lines + lines / 4) {
            std::vector<double> per_request = median_block_cycles(
                [&] {
                    g_l1_reuse<<<g_sms, threads>>>(buf, warp_floats, hot ? lines - 1 : lines, hot,
                                                   requests, out, cyc);
                },
                cyc, requests);
            char p[160];
            snprintf(p, sizeof p, "pattern=%s;lines_a_warp=%d;warps=%u;live_bytes=%u;requests=%d",
                     hot ? "hot" : "cycle", lines, warps, warps * (unsigned)lines * 128, requests);
            Row r = row_of("micro", "l1_reuse", p, dim3(g_sms), dim3(threads),
                           "one block an SM; value: cycles a warp request (clock64, the median "
                           "block); live_bytes: the lines touched between two uses of a line");
            emit_cycles(r, per_request);
        }
    CK(cudaFree(buf));
    CK(cudaFree(out));
    CK(cudaFree(cyc));
}

static void gaps_l2_read_blocks(void)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    // a quarter of the L2, at most 4 MiB: resident in L2 on every GPU, larger than any L1
    size_t bytes = std::min((size_t)prop.l2CacheSize / 4, (size_t)4 << 20);
    bytes -= bytes % 64;
    size_t n4 = bytes / sizeof(float4);
    float4 *buf;
    float *out;
    CK(cudaMalloc(&buf, bytes));
    fill_float((float *)buf, bytes / sizeof(float), 71);
    const unsigned threads = 1024;
    CK(cudaMalloc(&out, (size_t)g_sms * threads * sizeof(float)));
    size_t spoil = prop.sharedMemPerMultiprocessor / 2 + 1024;
    spoil = std::min(spoil, (size_t)prop.sharedMemPerBlockOptin);
    CK(cudaFuncSetAttribute(g_l2_read, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)spoil));
    const int passes = 8;
    for (int blocks = 1;; blocks = std::min(blocks * 2, g_sms)) {
        char p[160];
        snprintf(p, sizeof p, "buffer_bytes=%zu;passes=%d;sms_reading=%d;shared_spoiler=%zu",
                 bytes, passes, blocks, spoil);
        Row r = row_of("micro", "l2_read_blocks", p, dim3(blocks), dim3(threads),
                       "each of sms_reading blocks (one an SM: the spoiler keeps a second off) "
                       "reads an L2-resident buffer passes times with ld.global.cg float4; "
                       "bandwidth of all of them, and / sms_reading per SM");
        r.bytes = (double)blocks * passes * (double)bytes;
        measure(r, [&] { g_l2_read<<<blocks, threads, spoil>>>(buf, n4, passes, out); },
                M_B2B | M_SINGLE);
        if (blocks == g_sms)
            break;
    }
    CK(cudaFree(buf));
    CK(cudaFree(out));
}

static void gaps_store_lines(void)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    size_t nlines = 1; // a power of two: at most half the L2, at most 8 MiB
    while (nlines * 2 * 128 <= std::min((size_t)prop.l2CacheSize / 2, (size_t)8 << 20))
        nlines *= 2;
    unsigned *buf;
    CK(cudaMalloc(&buf, nlines * 128));
    fill_zero(buf, nlines * 128);
    const unsigned blocks = g_sms * 8, threads = 256;
    const int iters = 256;
    const double requests = (double)blocks * threads / 32 * iters;
    for (int lines = 1; lines <= 32; lines *= 2) {
        char p[200];
        snprintf(p, sizeof p, "lines=%d;warp_requests=%.0f;line_touches=%.0f;buffer_bytes=%zu",
                 lines, requests, requests * lines, nlines * 128);
        Row r = row_of("micro", "store_lines", p, dim3(blocks), dim3(threads),
                       "each warp store writes 32 words (128 B) spread over `lines` lines of an "
                       "L2-resident buffer; line touches per clock: line_touches / (time x SM "
                       "clock of section clock)");
        r.bytes = requests * 128;
        measure(r, [&] { g_store_lines<<<blocks, threads>>>(buf, nlines, lines, iters); },
                M_B2B | M_SINGLE);
    }
    CK(cudaFree(buf));
}

static void gaps_barrier_tree(void)
{
    const int iters = 256;
    float *out;
    long long *cyc;
    CK(cudaMalloc(&out, g_sms * sizeof(float)));
    CK(cudaMalloc(&cyc, g_sms * sizeof(long long)));
    for (unsigned threads = 128; threads <= 1024; threads *= 2) {
        int steps = 0;
        for (unsigned o = threads >> 1; o > 0; o >>= 1)
            steps++;
        steps++; // the reset's barrier
        std::vector<double> per_step = median_block_cycles(
            [&] { g_barrier_tree<<<g_sms, threads, threads * sizeof(float)>>>(iters, out, cyc); },
            cyc, (double)iters * steps);
        char p[128];
        snprintf(p, sizeof p, "iters=%d;steps_a_tree=%d;blocks=%d", iters, steps, g_sms);
        Row r = row_of("micro", "barrier_tree", p, dim3(g_sms), dim3(threads),
                       "one block an SM: iters trees of s[t] += s[t + o] then __syncthreads() "
                       "a halving step; value: cycles a step (clock64, the median block); time "
                       "columns: the same in cycles");
        emit_cycles(r, per_step);
    }
    CK(cudaFree(out));
    CK(cudaFree(cyc));
}

void section_gaps_memory(void)
{
    gaps_l2_read_blocks();
    gaps_store_lines();
    gaps_barrier_tree();
    gaps_l1_reuse();
}
