// unroll.cu: loops of the shapes the work model distinguishes, compiled (not run) by unroll.sh
// to read how far nvcc unrolls each: the global loads each kernel's PTX holds (the unrolled
// loop's copies, plus the remainder loop's one). The expected counts are unroll.sh's; the rule
// they support is refine.c's unrolled_trips (docs/inputs.md, "Unrolling").
#define TILE 32

// A bound nvcc does not know, step 1: four copies and a remainder loop.
__global__ void runtime_bound(const float *a, float *out, int n)
{
    float s = 0;
    for (int i = 0; i < n; ++i)
        s += a[i * 32 + threadIdx.x];
    out[threadIdx.x] = s;
}

// The same under a guard, as the one-block reductions read (n < N): four predicated copies.
__global__ void runtime_bound_guarded(const float *a, float *out, int N, int rounds)
{
    float s = 0;
    for (int r = 0; r < rounds; ++r) {
        int n = threadIdx.x + r * 1024;
        if (n < N)
            s += a[n];
    }
    out[threadIdx.x] = s;
}

// A known trip count: in full (64 copies).
__global__ void known_64(const float *a, float *out)
{
    float s = 0;
    for (int i = 0; i < 64; ++i)
        s += a[i * 32 + threadIdx.x];
    out[threadIdx.x] = s;
}

// A step of blockDim.x: not unrolled, even to a known bound.
__global__ void block_stride(const float *a, float *out, int n)
{
    float s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += a[i];
    out[threadIdx.x] = s;
}

__global__ void block_stride_known_bound(const float *a, float *out)
{
    float s = 0;
    for (int i = threadIdx.x; i < 1000; i += blockDim.x)
        s += a[i];
    out[threadIdx.x] = s;
}

// A grid stride: not unrolled.
__global__ void grid_stride(const float *a, float *out, int n)
{
    float s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        s += a[i];
    out[threadIdx.x] = s;
}

// A known step above 1 from threadIdx.x: four copies for a signed variable, none for an
// unsigned one (its trip count could wrap), four again for an unsigned one stepping by 1.
__global__ void signed_step_16(const float *a, float *out, int n)
{
    float s = 0;
    for (int i = threadIdx.x; i < n; i += 16)
        s += a[i];
    out[threadIdx.x] = s;
}

__global__ void unsigned_step_16(const float *a, float *out, unsigned n)
{
    float s = 0;
    for (unsigned i = threadIdx.x; i < n; i += 16)
        s += a[i];
    out[threadIdx.x] = s;
}

__global__ void size_t_step_1(const float *a, float *out, size_t n)
{
    float s = 0;
    for (size_t i = 0; i < n; ++i)
        s += a[i * 32 + threadIdx.x];
    out[threadIdx.x] = s;
}

// A loop with a loop inside (the inner one known, so unrolled in full): the outer one is not
// unrolled, with or without barriers (one tile's loads, 33 and 2).
__global__ void outer_of_known(const float *A, const float *B, float *C, int N)
{
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < N; t += 32) {
        float a = A[row * N + t + threadIdx.x];
        for (int k = 0; k < 32; ++k)
            acc += a * B[(t + k) * N + col];
    }
    C[row * N + col] = acc;
}

__global__ void tiled_with_barriers(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// A shift loop (a reduction tree's): not unrolled.
__global__ void shift_loop(const float *a, float *out)
{
    float s = 0;
    for (int o = blockDim.x / 2; o > 0; o >>= 1)
        s += a[o + threadIdx.x];
    out[threadIdx.x] = s;
}
