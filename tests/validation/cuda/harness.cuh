// Timing harness shared by the measurement sections (see README.md beside this file).
//
// Every measurement is one kernel configuration timed four ways (ORDER MEASURE):
//   b2b     per-launch time of a batch of back-to-back launches in one stream (events around
//           the batch, divided by its size); the stream is kept busy by a spin kernel before the
//           first event, so the host's first launch call is not counted
//   single  one launch between two events, the stream kept busy by a spin kernel before it,
//           so the time is the GPU's alone (launch processing and execution); data warm in L2
//   cold    as single, after a kernel that writes a 256 MiB scratch buffer (five times the L2),
//           so the launch finds its data in DRAM
//   sync    host wall-clock time of the launch call plus cudaDeviceSynchronize, on an idle GPU
// (and, for the launch microbenchmark only, graph: per launch of 1000 launches in a CUDA graph)
// Each is the median of g_reps repetitions (21 by default) after a warm-up.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(call)                                                                          \
    do {                                                                                  \
        cudaError_t ck_err_ = (call);                                                     \
        if (ck_err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                    cudaGetErrorString(ck_err_));                                         \
            exit(2);                                                                      \
        }                                                                                 \
    } while (0)

enum { M_B2B = 1, M_SINGLE = 2, M_COLD = 4, M_SYNC = 8, M_ALL = 15 };

struct Timing {
    double median_us = 0, min_us = 0, max_us = 0;
    int reps = 0, batch = 0;
};

// One row's identity; value/unit carry a derived figure (GB/s, TFLOP/s, cycles) where one applies.
struct Row {
    std::string kind, kernel, params;
    dim3 grid, block;
    std::string check = "", note = "";
    double bytes = 0;   // bytes the figure's bandwidth counts (0: no bandwidth figure)
    double flops = 0;   // FLOPs the figure's rate counts (0: no rate figure)
    std::string value, unit;  // a figure given directly (cycles, MHz): wins over bytes and flops
    std::string model;        // id of the model in tests/validation/kernels or kernels/ ("": none)
};

// A row of this kind, kernel, params, launch and note.
static inline Row row_of(const char *kind, const char *kernel, const std::string &params,
                         dim3 grid, dim3 block, const char *note)
{
    Row r;
    r.kind = kind;
    r.kernel = kernel;
    r.params = params;
    r.grid = grid;
    r.block = block;
    r.note = note;
    return r;
}

extern FILE *g_csv;
extern int g_reps;
extern int g_sms;

// ---- deterministic inputs: the same hash on host and device, so checks need no copy back ----
__host__ __device__ inline uint32_t hash32(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)x;
}
// uniform in [-1, 1)
__host__ __device__ inline float rand_float(uint64_t i, uint32_t seed)
{
    return (float)(hash32(i * 0x9e3779b97f4a7c15ULL + seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

void fill_float(float *p, size_t n, uint32_t seed);
void fill_double(double *p, size_t n, uint32_t seed);
void fill_u32_mod(unsigned *p, size_t n, uint32_t seed, unsigned mod);
void fill_zero(void *p, size_t bytes);

void spin_gpu(long long cycles);  // enqueue a one-thread kernel that spins that many cycles
void flush_l2(void);              // enqueue the 256 MiB scratch write

std::string fmt_dim(dim3 d);
void emit(const Row &r, const char *measure, const Timing &t);
std::string model_id(const Row &r);

static inline double now_us()
{
    using namespace std::chrono;
    return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

static inline Timing summarize(std::vector<double> v, int batch)
{
    Timing t;
    std::sort(v.begin(), v.end());
    t.reps = (int)v.size();
    t.batch = batch;
    t.min_us = v.front();
    t.max_us = v.back();
    size_t n = v.size();
    t.median_us = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return t;
}

// Emits r with `cycles` (in-kernel clock64 counts, one a repetition) summarised: value the
// median in cycles, and the time columns the same counts (not microseconds).
static inline void emit_cycles(Row r, const std::vector<double> &cycles)
{
    Timing t = summarize(cycles, 1);
    char v[32];
    snprintf(v, sizeof v, "%.1f", t.median_us);
    r.value = v;
    r.unit = "cycles";
    emit(r, "in-kernel", t);
}

static inline void check_launch(const Row &r, const char *what)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "%s %s (%s): %s: %s\n", r.kernel.c_str(), r.params.c_str(), what,
                cudaGetErrorString(e), "stopping this section");
        exit(3);
    }
}

const long long SPIN_CYCLES = 100000;  // about 50 us at 2 GHz: longer than a launch call

// Time `launch` (a callable that enqueues one launch on the default stream) as `modes` says,
// and write one CSV row per mode. batch_override > 0 fixes the b2b batch size.
template <class F>
void measure(const Row &r, F launch, int modes = M_ALL, int batch_override = 0)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float ms = 0;

    // warm-up: module load, first touch, caches
    for (int i = 0; i < 2; i++)
        launch();
    check_launch(r, "warm-up");

    std::vector<double> est;
    for (int i = 0; i < 3; i++) {
        spin_gpu(SPIN_CYCLES);
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        est.push_back(ms * 1000.0);
    }
    double t_est = summarize(est, 1).median_us;
    int batch = batch_override > 0 ? batch_override
                                   : (int)std::min(300.0, std::max(3.0, std::ceil(3000.0 / t_est)));
    check_launch(r, "estimate");

    if (modes & M_B2B) {
        std::vector<double> v;
        for (int k = 0; k < g_reps; k++) {
            spin_gpu(SPIN_CYCLES);
            CK(cudaEventRecord(e0));
            for (int i = 0; i < batch; i++)
                launch();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            v.push_back(ms * 1000.0 / batch);
        }
        check_launch(r, "b2b");
        emit(r, "b2b", summarize(v, batch));
    }
    if (modes & M_SINGLE) {
        std::vector<double> v;
        for (int k = 0; k < g_reps; k++) {
            spin_gpu(SPIN_CYCLES);
            CK(cudaEventRecord(e0));
            launch();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            v.push_back(ms * 1000.0);
        }
        check_launch(r, "single");
        emit(r, "single", summarize(v, 1));
    }
    if (modes & M_COLD) {
        std::vector<double> v;
        for (int k = 0; k < g_reps; k++) {
            flush_l2();
            CK(cudaEventRecord(e0));
            launch();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            v.push_back(ms * 1000.0);
        }
        check_launch(r, "cold");
        emit(r, "cold", summarize(v, 1));
    }
    if (modes & M_SYNC) {
        std::vector<double> v;
        for (int k = 0; k < g_reps; k++) {
            CK(cudaDeviceSynchronize());
            double t0 = now_us();
            launch();
            CK(cudaDeviceSynchronize());
            v.push_back(now_us() - t0);
        }
        check_launch(r, "sync");
        emit(r, "sync", summarize(v, 1));
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

// Section entry points (one process per section, so that a fault in one cannot spoil another).
void section_bundled(void);
void section_vector(void);
void section_strided(void);
void section_transpose(void);
void section_matmul(void);
void section_reduce(void);
void section_histogram(void);
void section_conv(void);
void section_fp64(void);
void section_gaps(void);
void section_gaps_memory(void);
void section_gaps_issue(void);
void section_fma(void);
void section_oneblock(void);
void section_dram(void);
void section_occupancy(void);
void section_cache_bw(void);
void section_latency(void);
void section_launch(void);
void section_clock(void);
void section_atomics(void);

// Host-side result checks: "ok" or "FAIL(...)".
std::string check_close(const float *got, const double *want, size_t n, double rel_tol);
