// The validation kernels: simple kernels whose time the model predicts, at a few sizes each.
// Each kernel is the textbook form; tests/validation/kernels/*.xml models the same code.
#include "harness.cuh"

// ---------------------------------------------------------------- kernels
__global__ void vcopy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void triad(float *a, const float *b, const float *c, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}

__global__ void strided_copy(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(size_t)i * stride];
}

// block (32, 8), each thread moves 4 elements of a 32 x 32 tile; n a multiple of 32
__global__ void transpose_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int PAD>
__global__ void transpose_tiled(const float *in, float *out, int n)
{
    __shared__ float tile[32][32 + PAD];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// block (16, 16); n a multiple of 16
__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float sum = 0.f;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

// block (32, 32), 32 x 32 tiles of A and B in shared memory; n a multiple of 32
__global__ void sgemm_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[32][32], Bs[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float sum = 0.f;
    for (int t = 0; t < n; t += 32) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < 32; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// one element per thread, tree with sequential addressing, one partial sum per block
__global__ void reduce_tree(const float *in, float *out, int n)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < (unsigned)n ? in[i] : 0.f;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__global__ void histogram_global(const unsigned *in, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] & 255u], 1u);
}

// privatised: 256 bins in shared memory per block, grid-stride over the input, then merged
__global__ void histogram_shared(const unsigned *in, unsigned *bins, int n)
{
    __shared__ unsigned s[256];
    s[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s[in[i] & 255u], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
}

// out (w x h) = in ((w + k - 1) x (h + k - 1)) correlated with a k x k filter; block (16, 16)
__global__ void conv2d(const float *in, const float *filt, float *out, int w, int h, int k)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int win = w + k - 1;
    float sum = 0.f;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            sum += filt[i * k + j] * in[(y + i) * win + (x + j)];
    out[y * w + x] = sum;
}

__global__ void daxpy(double a, const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// 8 independent FMA chains per thread: 16 FLOPs per iteration
template <typename T>
__global__ void fma_chains(T *out, int iters, T b, T c)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    T a0 = (T)threadIdx.x * (T)1e-3, a1 = a0 + (T)1, a2 = a0 + (T)2, a3 = a0 + (T)3,
      a4 = a0 + (T)4, a5 = a0 + (T)5, a6 = a0 + (T)6, a7 = a0 + (T)7;
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        a0 = fma(a0, b, c);
        a1 = fma(a1, b, c);
        a2 = fma(a2, b, c);
        a3 = fma(a3, b, c);
        a4 = fma(a4, b, c);
        a5 = fma(a5, b, c);
        a6 = fma(a6, b, c);
        a7 = fma(a7, b, c);
    }
    out[gid] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

// one block of 256 threads sums n floats: block-stride loop, then a shared-memory tree
__global__ void one_block_sum(const float *in, float *out, int n)
{
    __shared__ float s[256];
    float acc = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += in[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = s[0];
}

// ---------------------------------------------------------------- helpers
static Row vrow(const char *kernel, const std::string &params, dim3 grid, dim3 block)
{
    Row r;
    r.kind = "validation";
    r.kernel = kernel;
    r.params = params;
    r.grid = grid;
    r.block = block;
    return r;
}

static std::string p(const char *name, long long v)
{
    return std::string(name) + "=" + std::to_string(v);
}

template <typename T>
static std::vector<T> fetch(const T *d, size_t n)
{
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

static unsigned blocks_for(long long n, int b)
{
    return (unsigned)((n + b - 1) / b);
}

// ---------------------------------------------------------------- sections
void section_vector(void)
{
    const int LOGS[] = {10, 14, 18, 22, 26};
    for (int lg : LOGS) {
        int n = 1 << lg;
        float *a, *b, *c;
        CK(cudaMalloc(&a, (size_t)n * 4));
        CK(cudaMalloc(&b, (size_t)n * 4));
        CK(cudaMalloc(&c, (size_t)n * 4));
        fill_float(b, n, 11);
        fill_float(c, n, 12);
        dim3 grid(blocks_for(n, 256)), block(256);
        Row r = vrow("vector_copy", p("N", n), grid, block);
        std::vector<float> h;
        {
            vcopy<<<grid, block>>>(b, a, n);
            h = fetch(a, n);
            std::vector<double> want(n);
            for (int i = 0; i < n; i++)
                want[i] = rand_float(i, 11);
            r.check = check_close(h.data(), want.data(), n, 0);
        }
        measure(r, [&] { vcopy<<<grid, block>>>(b, a, n); });
        Row t = vrow("triad", p("N", n), grid, block);
        {
            triad<<<grid, block>>>(a, b, c, 3.0f, n);
            h = fetch(a, n);
            std::vector<double> want(n);
            for (int i = 0; i < n; i++)
                want[i] = rand_float(i, 11) + 3.0 * rand_float(i, 12);
            t.check = check_close(h.data(), want.data(), n, 1e-6);
        }
        measure(t, [&] { triad<<<grid, block>>>(a, b, c, 3.0f, n); });
        CK(cudaFree(a));
        CK(cudaFree(b));
        CK(cudaFree(c));
    }
}

void section_strided(void)
{
    const int n = 1 << 22;
    for (int stride = 1; stride <= 32; stride *= 2) {
        float *in, *out;
        CK(cudaMalloc(&in, (size_t)n * stride * 4));
        CK(cudaMalloc(&out, (size_t)n * 4));
        fill_float(in, (size_t)n * stride, 13);
        dim3 grid(blocks_for(n, 256)), block(256);
        Row r = vrow("strided_copy", p("N", n) + ";" + p("stride", stride), grid, block);
        strided_copy<<<grid, block>>>(in, out, n, stride);
        std::vector<float> h = fetch(out, n);
        std::vector<double> want(n);
        for (int i = 0; i < n; i++)
            want[i] = rand_float((uint64_t)i * stride, 13);
        r.check = check_close(h.data(), want.data(), n, 0);
        measure(r, [&] { strided_copy<<<grid, block>>>(in, out, n, stride); });
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
}

void section_transpose(void)
{
    const int NS[] = {1024, 2048, 4096};
    for (int n : NS) {
        size_t nn = (size_t)n * n;
        float *in, *out;
        CK(cudaMalloc(&in, nn * 4));
        CK(cudaMalloc(&out, nn * 4));
        fill_float(in, nn, 14);
        std::vector<double> want(nn);
        for (size_t y = 0; y < (size_t)n; y++)
            for (size_t x = 0; x < (size_t)n; x++)
                want[x * n + y] = rand_float(y * n + x, 14);
        dim3 grid(n / 32, n / 32), block(32, 8);
        struct Variant {
            const char *name;
            void (*kern)(const float *, float *, int);
        } variants[] = {
            {"transpose_naive", transpose_naive},
            {"transpose_tiled", transpose_tiled<0>},
            {"transpose_tiled_padded", transpose_tiled<1>},
        };
        for (const Variant &v : variants) {
            Row r = vrow(v.name, p("N", n), grid, block);
            fill_zero(out, nn * 4);
            v.kern<<<grid, block>>>(in, out, n);
            std::vector<float> h = fetch(out, nn);
            r.check = check_close(h.data(), want.data(), nn, 0);
            measure(r, [&] { v.kern<<<grid, block>>>(in, out, n); });
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
}

// 64 sampled entries of C = A B against a double-precision host product
static std::string check_matmul(const float *dC, int n)
{
    std::vector<float> got(64);
    std::vector<double> want(64);
    for (int s = 0; s < 64; s++) {
        int row = hash32(s * 2 + 1) % n, col = hash32(s * 2 + 2) % n;
        CK(cudaMemcpy(&got[s], dC + (size_t)row * n + col, 4, cudaMemcpyDeviceToHost));
        double acc = 0;
        for (int k = 0; k < n; k++)
            acc += (double)rand_float((uint64_t)row * n + k, 15) * rand_float((uint64_t)k * n + col, 16);
        want[s] = acc;
    }
    return check_close(got.data(), want.data(), 64, 1e-4);
}

void section_matmul(void)
{
    const int NS[] = {1024, 2048, 4096};
    for (int n : NS) {
        size_t nn = (size_t)n * n;
        float *A, *B, *C;
        CK(cudaMalloc(&A, nn * 4));
        CK(cudaMalloc(&B, nn * 4));
        CK(cudaMalloc(&C, nn * 4));
        fill_float(A, nn, 15);
        fill_float(B, nn, 16);
        dim3 g16(n / 16, n / 16), b16(16, 16);
        Row r = vrow("matmul_naive", p("N", n), g16, b16);
        r.flops = 2.0 * n * (double)nn;
        fill_zero(C, nn * 4);
        matmul_naive<<<g16, b16>>>(A, B, C, n);
        r.check = check_matmul(C, n);
        measure(r, [&] { matmul_naive<<<g16, b16>>>(A, B, C, n); });
        dim3 g32(n / 32, n / 32), b32(32, 32);
        Row s = vrow("sgemm_tiled", p("N", n), g32, b32);
        s.flops = 2.0 * n * (double)nn;
        fill_zero(C, nn * 4);
        sgemm_tiled<<<g32, b32>>>(A, B, C, n);
        s.check = check_matmul(C, n);
        measure(s, [&] { sgemm_tiled<<<g32, b32>>>(A, B, C, n); });
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C));
    }
}

void section_reduce(void)
{
    const int LOGS[] = {16, 20, 24, 26};
    for (int lg : LOGS) {
        int n = 1 << lg;
        unsigned nb = blocks_for(n, 256);
        float *in, *out;
        CK(cudaMalloc(&in, (size_t)n * 4));
        CK(cudaMalloc(&out, (size_t)nb * 4));
        fill_float(in, n, 17);
        Row r = vrow("reduce_tree", p("N", n), dim3(nb), dim3(256));
        reduce_tree<<<nb, 256>>>(in, out, n);
        std::vector<float> h = fetch(out, nb);
        std::vector<double> want(nb, 0.0);
        for (int i = 0; i < n; i++)
            want[i / 256] += rand_float(i, 17);
        r.check = check_close(h.data(), want.data(), nb, 1e-5);
        measure(r, [&] { reduce_tree<<<nb, 256>>>(in, out, n); });
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
}

static std::string check_hist(const unsigned *dbins, int n, uint32_t seed, long long launches)
{
    std::vector<unsigned> h = fetch(dbins, 256);
    std::vector<long long> want(256, 0);
    for (int i = 0; i < n; i++)
        want[hash32(i + ((uint64_t)seed << 40)) % 256]++;
    for (int b = 0; b < 256; b++)
        if ((long long)h[b] != want[b] * launches)
            return "FAIL(bin " + std::to_string(b) + ")";
    return "ok";
}

void section_histogram(void)
{
    const int LOGS[] = {20, 24};
    for (int lg : LOGS) {
        int n = 1 << lg;
        unsigned *in, *bins;
        CK(cudaMalloc(&in, (size_t)n * 4));
        CK(cudaMalloc(&bins, 256 * 4));
        fill_u32_mod(in, n, 18, 256);
        dim3 grid(blocks_for(n, 256)), block(256);
        Row r = vrow("histogram_global", p("N", n) + ";bins=256", grid, block);
        r.note = "uniform random bins";
        fill_zero(bins, 1024);
        histogram_global<<<grid, block>>>(in, bins, n);
        r.check = check_hist(bins, n, 18, 1);
        measure(r, [&] { histogram_global<<<grid, block>>>(in, bins, n); });
        dim3 gs(g_sms * 8);
        Row s = vrow("histogram_shared", p("N", n) + ";bins=256", gs, block);
        s.note = "uniform random bins; grid of 8 blocks per SM, grid-stride loop";
        fill_zero(bins, 1024);
        histogram_shared<<<gs, block>>>(in, bins, n);
        s.check = check_hist(bins, n, 18, 1);
        measure(s, [&] { histogram_shared<<<gs, block>>>(in, bins, n); });
        CK(cudaFree(in));
        CK(cudaFree(bins));
    }
}

void section_conv(void)
{
    struct Case {
        int w, k;
    } cases[] = {{2048, 3}, {2048, 5}, {2048, 7}, {4096, 5}};
    for (const Case &c : cases) {
        int w = c.w, h = c.w, k = c.k, win = w + k - 1;
        size_t nin = (size_t)win * (h + k - 1), nout = (size_t)w * h;
        float *in, *filt, *out;
        CK(cudaMalloc(&in, nin * 4));
        CK(cudaMalloc(&filt, (size_t)k * k * 4));
        CK(cudaMalloc(&out, nout * 4));
        fill_float(in, nin, 19);
        fill_float(filt, (size_t)k * k, 20);
        dim3 grid(blocks_for(w, 16), blocks_for(h, 16)), block(16, 16);
        Row r = vrow("conv2d", p("W", w) + ";" + p("H", h) + ";" + p("K", k), grid, block);
        conv2d<<<grid, block>>>(in, filt, out, w, h, k);
        std::vector<float> got(64);
        std::vector<double> want(64);
        for (int s = 0; s < 64; s++) {
            int x = hash32(s * 2 + 1) % w, y = hash32(s * 2 + 2) % h;
            CK(cudaMemcpy(&got[s], out + (size_t)y * w + x, 4, cudaMemcpyDeviceToHost));
            double acc = 0;
            for (int i = 0; i < k; i++)
                for (int j = 0; j < k; j++)
                    acc += (double)rand_float(i * k + j, 20) * rand_float((uint64_t)(y + i) * win + x + j, 19);
            want[s] = acc;
        }
        r.check = check_close(got.data(), want.data(), 64, 1e-5);
        measure(r, [&] { conv2d<<<grid, block>>>(in, filt, out, w, h, k); });
        CK(cudaFree(in));
        CK(cudaFree(filt));
        CK(cudaFree(out));
    }
}

void section_fp64(void)
{
    const int LOGS[] = {20, 24, 26};
    for (int lg : LOGS) {
        int n = 1 << lg;
        double *x, *y;
        CK(cudaMalloc(&x, (size_t)n * 8));
        CK(cudaMalloc(&y, (size_t)n * 8));
        fill_double(x, n, 21);
        fill_double(y, n, 22);
        dim3 grid(blocks_for(n, 256)), block(256);
        Row r = vrow("daxpy", p("N", n), grid, block);
        daxpy<<<grid, block>>>(0.5, x, y, n);
        std::vector<double> h = fetch(y, n);
        r.check = "ok";
        for (int i = 0; i < n; i++)
            if (h[i] != 0.5 * (double)rand_float(i, 21) + (double)rand_float(i, 22)) {
                r.check = "FAIL(at " + std::to_string(i) + ")";
                break;
            }
        // every timed launch updates y again; the values stay finite (|a| < 1)
        measure(r, [&] { daxpy<<<grid, block>>>(0.5, x, y, n); });
        CK(cudaFree(x));
        CK(cudaFree(y));
    }
}

template <typename T>
static void fma_case(const char *name, unsigned blocks, unsigned threads, int iters,
                     const char *kind)
{
    T *out;
    CK(cudaMalloc(&out, (size_t)blocks * threads * sizeof(T)));
    Row r;
    r.kind = kind;
    r.kernel = name;
    r.params = p("iters", iters);
    r.grid = dim3(blocks);
    r.block = dim3(threads);
    r.flops = 16.0 * iters * blocks * (double)threads;
    if (r.kind == "validation")
        r.model = r.kernel + "-iters" + std::to_string(iters) + "-" + std::to_string(blocks) + "x" +
                  std::to_string(threads);
    fma_chains<T><<<blocks, threads>>>(out, iters, (T)0.999999, (T)1e-7);
    std::vector<T> h = fetch(out, 1);
    r.check = std::isfinite((double)h[0]) ? "finite" : "FAIL(not finite)";
    measure(r, [&] { fma_chains<T><<<blocks, threads>>>(out, iters, (T)0.999999, (T)1e-7); });
    CK(cudaFree(out));
}

void section_fma(void)
{
    // full GPU: 8 blocks of 256 threads per SM (2048 threads, the SM's limit)
    fma_case<float>("fma_fp32", g_sms * 8, 256, 4096, "validation");
    fma_case<double>("fma_fp64", g_sms * 8, 256, 1024, "validation");
    // few warps: one block of 128 threads per SM (4 warps: one per scheduler)
    fma_case<float>("fma_fp32", g_sms, 128, 4096, "validation");
    fma_case<double>("fma_fp64", g_sms, 128, 1024, "validation");
    // throughput microbenchmark: the full-GPU case with enough work to hide the launch
    fma_case<float>("fma_fp32", g_sms * 8, 256, 32768, "micro");
    fma_case<double>("fma_fp64", g_sms * 8, 256, 8192, "micro");
}

void section_oneblock(void)
{
    const int LOGS[] = {16, 20};
    for (int lg : LOGS) {
        int n = 1 << lg;
        float *in, *out;
        CK(cudaMalloc(&in, (size_t)n * 4));
        CK(cudaMalloc(&out, 4));
        fill_float(in, n, 23);
        Row r = vrow("one_block_sum", p("N", n), dim3(1), dim3(256));
        one_block_sum<<<1, 256>>>(in, out, n);
        std::vector<float> h = fetch(out, 1);
        std::vector<double> want(1, 0.0);
        for (int i = 0; i < n; i++)
            want[0] += rand_float(i, 23);
        // relative to the sum of magnitudes: the sum itself is near zero
        double mag = 0;
        for (int i = 0; i < n; i++)
            mag += std::fabs(rand_float(i, 23));
        r.check = std::fabs(h[0] - want[0]) <= 1e-5 * mag ? "ok" : "FAIL";
        measure(r, [&] { one_block_sum<<<1, 256>>>(in, out, n); });
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
}
