// roofbench: measures the bundled kernels, the validation kernels and device microbenchmarks.
//
//   roofbench SECTION CSV_FILE [REPS]     append that section's rows to CSV_FILE
//   roofbench --header                    print the CSV header
//   roofbench --list                      print the section names
//   roofbench --info                      print the device's properties and versions
//
// run.sh runs every section as its own process.
#include "harness.cuh"

#include <cstring>

FILE *g_csv = nullptr;
int g_reps = 21;
int g_sms = 0;

static const char CSV_HEADER[] =
    "kind,kernel,params,grid,block,measure,time_us,min_us,max_us,reps,batch,value,unit,check,note,model";

struct Section {
    const char *name;
    void (*run)(void);
};
static const Section SECTIONS[] = {
    {"clock", section_clock},         {"bundled", section_bundled},
    {"vector", section_vector},       {"strided", section_strided},
    {"transpose", section_transpose}, {"matmul", section_matmul},
    {"reduce", section_reduce},       {"histogram", section_histogram},
    {"conv", section_conv},           {"fp64", section_fp64},
    {"fma", section_fma},             {"oneblock", section_oneblock},
    {"dram", section_dram},           {"occupancy", section_occupancy},
    {"cache_bw", section_cache_bw},   {"latency", section_latency},
    {"launch", section_launch},       {"atomics", section_atomics},
    {"gaps", section_gaps},           {"gaps_memory", section_gaps_memory},
    {"gaps_issue", section_gaps_issue},
};

// ---- inputs ----
__global__ void k_fill_float(float *p, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = rand_float(i, seed);
}
__global__ void k_fill_double(double *p, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (double)rand_float(i, seed);
}
__global__ void k_fill_u32_mod(unsigned *p, size_t n, uint32_t seed, unsigned mod)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = hash32(i + ((uint64_t)seed << 40)) % mod;
}

void fill_float(float *p, size_t n, uint32_t seed)
{
    k_fill_float<<<g_sms * 8, 256>>>(p, n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}
void fill_double(double *p, size_t n, uint32_t seed)
{
    k_fill_double<<<g_sms * 8, 256>>>(p, n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}
void fill_u32_mod(unsigned *p, size_t n, uint32_t seed, unsigned mod)
{
    k_fill_u32_mod<<<g_sms * 8, 256>>>(p, n, seed, mod);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}
void fill_zero(void *p, size_t bytes)
{
    CK(cudaMemset(p, 0, bytes));
    CK(cudaDeviceSynchronize());
}

// ---- stream helpers ----
__global__ void k_spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}
void spin_gpu(long long cycles)
{
    k_spin<<<1, 1>>>(cycles);
}

static unsigned *g_flush = nullptr;
static const size_t FLUSH_WORDS = (256u << 20) / 4;
__global__ void k_flush(unsigned *p, size_t n, unsigned v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}
void flush_l2(void)
{
    static unsigned round = 0;
    if (!g_flush)
        CK(cudaMalloc(&g_flush, FLUSH_WORDS * 4));
    k_flush<<<g_sms * 8, 512>>>(g_flush, FLUSH_WORDS, ++round);
}

// ---- output ----
std::string fmt_dim(dim3 d)
{
    char b[64];
    snprintf(b, sizeof b, "%ux%ux%u", d.x, d.y, d.z);
    return b;
}

static std::string csv_field(const std::string &s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"')
            q += '"';
        q += c;
    }
    return q + "\"";
}

// The model a row is predicted by: a validation kernel's is tests/validation/kernels/ID.xml with
// ID = kernel-params, '=' dropped and ';' turned into '-' (N=1024;stride=2 -> N1024-stride2);
// rows that set r.model (the bundled kernels' reference launches, the FMA chains) name their own.
std::string model_id(const Row &r)
{
    if (!r.model.empty() || r.kind != "validation")
        return r.model;
    std::string id = r.kernel + "-";
    for (char c : r.params)
        if (c == ';')
            id += '-';
        else if (c != '=')
            id += c;
    return id;
}

void emit(const Row &r, const char *measure, const Timing &t)
{
    char value[64] = "", unit[16] = "";
    if (!r.value.empty()) {
        snprintf(value, sizeof value, "%s", r.value.c_str());
        snprintf(unit, sizeof unit, "%s", r.unit.c_str());
    } else if (r.bytes > 0) {
        snprintf(value, sizeof value, "%.1f", r.bytes / (t.median_us * 1e-6) / 1e9);
        snprintf(unit, sizeof unit, "GB/s");
    } else if (r.flops > 0) {
        snprintf(value, sizeof value, "%.3f", r.flops / (t.median_us * 1e-6) / 1e12);
        snprintf(unit, sizeof unit, "TFLOP/s");
    }
    fprintf(g_csv, "%s,%s,%s,%s,%s,%s,%.3f,%.3f,%.3f,%d,%d,%s,%s,%s,%s,%s\n", r.kind.c_str(),
            csv_field(r.kernel).c_str(), csv_field(r.params).c_str(), fmt_dim(r.grid).c_str(),
            fmt_dim(r.block).c_str(), measure, t.median_us, t.min_us, t.max_us, t.reps, t.batch,
            value, unit, csv_field(r.check).c_str(), csv_field(r.note).c_str(),
            csv_field(model_id(r)).c_str());
    fflush(g_csv);
    printf("%-10s %-22s %-34s %-7s %12.3f us %s %s %s\n", r.kind.c_str(), r.kernel.c_str(),
           r.params.c_str(), measure, t.median_us, value, unit, r.check.c_str());
    fflush(stdout);
}

std::string check_close(const float *got, const double *want, size_t n, double rel_tol)
{
    double scale = 0;
    for (size_t i = 0; i < n; i++)
        scale = std::max(scale, std::fabs(want[i]));
    if (scale == 0)
        scale = 1;
    for (size_t i = 0; i < n; i++) {
        double err = std::fabs((double)got[i] - want[i]);
        if (!(err <= rel_tol * scale)) {
            char b[160];
            snprintf(b, sizeof b, "FAIL(at %zu: got %.9g want %.9g)", i, (double)got[i], want[i]);
            return b;
        }
    }
    return "ok";
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--header")) {
        puts(CSV_HEADER);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--info")) {
        int dev = 0, drv = 0, rt = 0;
        CK(cudaGetDevice(&dev));
        CK(cudaDriverGetVersion(&drv));
        CK(cudaRuntimeGetVersion(&rt));
        cudaDeviceProp pr;
        CK(cudaGetDeviceProperties(&pr, dev));
        int clk = 0, memclk = 0, bus = 0;
        CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev));
        CK(cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, dev));
        CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
        printf("name: %s\ncompute capability: %d.%d\nSMs: %d\nL2: %d bytes\n", pr.name, pr.major,
               pr.minor, pr.multiProcessorCount, pr.l2CacheSize);
        printf("global memory: %zu bytes\nshared memory per SM: %zu bytes (per block opt-in %zu)\n",
               pr.totalGlobalMem, pr.sharedMemPerMultiprocessor, pr.sharedMemPerBlockOptin);
        printf("registers per SM: %d\nmax threads per SM: %d\nmax blocks per SM: %d\n",
               pr.regsPerMultiprocessor, pr.maxThreadsPerMultiProcessor, pr.maxBlocksPerMultiProcessor);
        printf("max SM clock: %d kHz\nmemory clock: %d kHz\nmemory bus: %d bits\n", clk, memclk, bus);
        printf("driver API version: %d\nruntime version: %d\n", drv, rt);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--list")) {
        for (const Section &s : SECTIONS)
            puts(s.name);
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: %s SECTION CSV_FILE [REPS] | --header | --list | --info\n", argv[0]);
        return 2;
    }
    const Section *sec = nullptr;
    for (const Section &s : SECTIONS)
        if (!strcmp(s.name, argv[1]))
            sec = &s;
    if (!sec) {
        fprintf(stderr, "%s: unknown section '%s' (--list shows them)\n", argv[0], argv[1]);
        return 2;
    }
    if (argc >= 4) {
        g_reps = atoi(argv[3]);
        if (g_reps < 1 || g_reps > 1000) {
            fprintf(stderr, "%s: REPS must be 1..1000, not '%s'\n", argv[0], argv[3]);
            return 2;
        }
    }
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: no CUDA device: %s\n", argv[0], cudaGetErrorString(e));
        return 2;
    }
    CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
    g_csv = fopen(argv[2], "a");
    if (!g_csv) {
        perror(argv[2]);
        return 2;
    }
    sec->run();
    CK(cudaDeviceSynchronize());
    fclose(g_csv);
    return 0;
}
