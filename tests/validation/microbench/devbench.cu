// devbench.cu: the device figures of specs/<gpu>.xml's <measured>, measured on the GPU at
// hand (roofcast never runs it; tests/validation/README.md says how its results were used).
//   triad:   A[i] = B[i] + s * C[i], float, 2^27 elements, block 256 (12 B per element),
//            and at occupancies from 1 to 32 warps per SM (one block per SM at a time);
//   latency: one thread chasing pointers through a buffer of the given size (L1, L2, DRAM),
//            once, cold (run twice, the second run finds the lines the first left in L2);
//   launch:  an empty kernel queued 10,000 times back to back; and launch + synchronise.
// Build: nvcc -O3 -arch=sm_90 -o devbench devbench.cu
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void triad(float *A, const float *__restrict__ B, const float *__restrict__ C, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) A[i] = B[i] + s * C[i];
}

__global__ void chase(const unsigned *next, unsigned start, int steps, unsigned *out, long long *cycles)
{
    unsigned p = start;
    for (int i = 0; i < 64; i++) p = next[p];          /* warm the path */
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) p = next[p];
    long long t1 = clock64();
    out[0] = p;
    cycles[0] = t1 - t0;
}

__global__ void empty(int *x) { if (x && threadIdx.x == 1234567) x[0] = 1; }

static float time_triad(int n, int block, int grid_limit, float *A, float *B, float *C)
{
    int grid = (n + block - 1) / block;
    (void)grid_limit;
    cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
    for (int i = 0; i < 10; i++) triad<<<grid, block>>>(A, B, C, 2.0f, n);
    cudaEventRecord(s);
    for (int i = 0; i < 50; i++) triad<<<grid, block>>>(A, B, C, 2.0f, n);
    cudaEventRecord(e); cudaEventSynchronize(e);
    float ms; cudaEventElapsedTime(&ms, s, e);
    return ms / 50;
}

int main()
{
    cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
    int clock_khz = 0; cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    printf("device %s, %d SMs, clock %d kHz\n", p.name, p.multiProcessorCount, clock_khz);
    const int n = 1 << 27;
    float *A, *B, *C;
    CHECK(cudaMalloc(&A, n * 4L)); CHECK(cudaMalloc(&B, n * 4L)); CHECK(cudaMalloc(&C, n * 4L));
    cudaMemset(A, 0, n * 4L); cudaMemset(B, 0, n * 4L); cudaMemset(C, 0, n * 4L);
    float ms = time_triad(n, 256, 0, A, B, C);
    printf("triad n=%d block=256 time_us=%.2f GBps=%.1f\n", n, ms * 1e3, n * 12.0 / ms / 1e6);
    /* Occupancy sweep: blocks of `b` threads, at most one per SM at a time, forced by a
       dynamic shared-memory allocation larger than half the SM's shared memory. */
    int smem = (int)(p.sharedMemPerMultiprocessor / 2 + 1024);
    CHECK(cudaFuncSetAttribute(triad, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    for (int b = 32; b <= 1024; b *= 2) {
        int grid = (n + b - 1) / b;
        cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
        triad<<<grid, b, smem>>>(A, B, C, 2.0f, n);
        cudaEventRecord(s);
        for (int i = 0; i < 5; i++) triad<<<grid, b, smem>>>(A, B, C, 2.0f, n);
        cudaEventRecord(e); cudaEventSynchronize(e);
        float t; cudaEventElapsedTime(&t, s, e); t /= 5;
        int occ = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, triad, b, smem);
        printf("triad-occupancy block=%d blocks_per_sm=%d warps_per_sm=%d GBps=%.1f\n", b, occ,
               occ * b / 32, n * 12.0 / t / 1e6);
    }
    CHECK(cudaGetLastError());
    cudaFree(A); cudaFree(B); cudaFree(C);
    /* Latency: a random cyclic permutation over lines of 128 B (one word per line used). */
    size_t sizes[] = {16 << 10, 4 << 20, 1L << 30};
    const char *names[] = {"l1", "l2", "dram"};
    for (int k = 0; k < 3; k++) {
        size_t lines = sizes[k] / 128;
        std::vector<unsigned> order(lines), next(sizes[k] / 4, 0);
        for (size_t i = 0; i < lines; i++) order[i] = (unsigned)i;
        srand(42);
        for (size_t i = lines - 1; i > 0; i--) std::swap(order[i], order[rand() % (i + 1)]);
        for (size_t i = 0; i < lines; i++) next[order[i] * 32] = order[(i + 1) % lines] * 32;
        unsigned *d_next, *d_out; long long *d_cyc;
        CHECK(cudaMalloc(&d_next, next.size() * 4)); CHECK(cudaMalloc(&d_out, 4));
        CHECK(cudaMalloc(&d_cyc, 8));
        CHECK(cudaMemcpy(d_next, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
        int steps = 20000;
        chase<<<1, 1>>>(d_next, order[0] * 32, steps, d_out, d_cyc); /* cold: one run */
        long long cyc; CHECK(cudaMemcpy(&cyc, d_cyc, 8, cudaMemcpyDeviceToHost));
        printf("latency %s buffer=%zu B cycles=%.1f\n", names[k], sizes[k], (double)cyc / steps);
        cudaFree(d_next); cudaFree(d_out); cudaFree(d_cyc);
    }
    /* Launch costs. */
    int *dx; cudaMalloc(&dx, 4);
    for (int i = 0; i < 100; i++) empty<<<1, 32>>>(dx);
    cudaDeviceSynchronize();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 10000; i++) empty<<<1, 32>>>(dx);
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("launch back-to-back us=%.3f\n", std::chrono::duration<double, std::micro>(t1 - t0).count() / 10000);
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 2000; i++) { empty<<<1, 32>>>(dx); cudaDeviceSynchronize(); }
    t1 = std::chrono::steady_clock::now();
    printf("launch synchronised us=%.3f\n", std::chrono::duration<double, std::micro>(t1 - t0).count() / 2000);
    /* Launch back to back as cudaEvents time it (the way kernel times are usually taken). */
    cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
    cudaEventRecord(s);
    for (int i = 0; i < 10000; i++) empty<<<1, 32>>>(dx);
    cudaEventRecord(e); cudaEventSynchronize(e);
    float evms; cudaEventElapsedTime(&evms, s, e);
    printf("launch back-to-back-events us=%.3f\n", evms * 1000 / 10000);
    return 0;
}
