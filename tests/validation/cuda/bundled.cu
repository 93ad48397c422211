// The four bundled kernels (kernels/*.xml), their elided parts completed as the gputools
// package writes them (see README.md: "What was completed"), launched as the reference reports
// launch them: grid 5 x 5, block 32 x 32, the XML's params.
//
// One change is needed to run that launch at all: gpuMeans and gpuKendall size their shared
// arrays for NUMTHREADS = 16 threads per dimension, and threadIdx.x / .y reach 31 in a 32 x 32
// block, which would index past the arrays. SH (the shared extent per dimension) is 32 for the
// reference launch and NUMTHREADS for the launch the code was written for; nothing else differs.
#include "harness.cuh"

#define NUMTHREADS 16     // gpuMeans, gpuKendall (XML param NUMTHREADS)
#define THREADSPERDIM 16  // getRestricted (XML param THREADSPERDIM)
#define NUM_THREADS 32    // maximum_kernel: its shared temp[] (blockDim.x of the launch)

// ---- maximum_kernel: d[y][x] = max over offset of |a[x][offset] - b[y][offset]| ----
__global__ void maximum_kernel(const float *vg_a, size_t pitch_a, size_t n_a, const float *vg_b,
                               size_t pitch_b, size_t n_b, size_t k, float *d, size_t pitch_d)
{
    size_t x = blockIdx.x, y = blockIdx.y;
    if (x >= n_a || y >= n_b)
        return;
    __shared__ float temp[NUM_THREADS];
    temp[threadIdx.x] = 0.0f;
    // the part shown in kernels/maximum_kernel.xml
    for (size_t offset = threadIdx.x; offset < k; offset += blockDim.x) {
        float t = abs(vg_a[x * pitch_a + offset] - vg_b[y * pitch_b + offset]);
        temp[threadIdx.x] = max(temp[threadIdx.x], t);
    }
    __syncthreads();
    for (size_t stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            temp[threadIdx.x] = max(temp[threadIdx.x], temp[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        d[y * pitch_d + x] = temp[0];
}

// ---- gpuMeans: means of vectsA[bx] and vectsB[by] over the pairs without NaN ----
template <int SH>
__global__ void gpuMeans(const float *vectsA, size_t na, const float *vectsB, size_t nb,
                         size_t dim, float *means, float *numPairs)
{
    size_t offset, stride, bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x;
    float a, b;
    __shared__ float threadSumsA[SH], threadSumsB[SH], count[SH];

    if ((bx >= na) || (by >= nb))
        return;
    threadSumsA[tx] = 0.f;
    threadSumsB[tx] = 0.f;
    count[tx] = 0.f;
    for (offset = tx; offset < dim; offset += NUMTHREADS) {
        a = vectsA[bx * dim + offset];
        b = vectsB[by * dim + offset];
        if (!(isnan(a) || isnan(b))) {
            threadSumsA[tx] += a;
            threadSumsB[tx] += b;
            count[tx] += 1.f;
        }
    }
    __syncthreads();
    // completed: tree reduction over NUMTHREADS entries, then thread 0 writes the means
    for (stride = NUMTHREADS >> 1; stride > 0; stride >>= 1) {
        if (tx < stride) {
            threadSumsA[tx] += threadSumsA[tx + stride];
            threadSumsB[tx] += threadSumsB[tx + stride];
            count[tx] += count[tx + stride];
        }
        __syncthreads();
    }
    if (tx == 0) {
        means[bx * nb * 2 + by * 2] = threadSumsA[0] / count[0];
        means[bx * nb * 2 + by * 2 + 1] = threadSumsB[0] / count[0];
        numPairs[bx * nb + by] = count[0];
    }
}

// ---- gpuKendall: Kendall's tau of row bx of a against row by of b ----
template <int SH>
__global__ void gpuKendall(const float *a, size_t na, const float *b, size_t nb,
                           size_t sampleSize, double *results)
{
    size_t i, j, tests, tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y,
                        rowa = bx * sampleSize, rowb = by * sampleSize;
    float discordant, concordant = 0.f, numer, denom;
    __shared__ float threadSums[SH * SH];

    for (i = tx; i < sampleSize; i += NUMTHREADS) {
        for (j = i + 1 + ty; j < sampleSize; j += NUMTHREADS) {
            tests = ((a[rowa + j] > a[rowa + i]) && (b[rowb + j] > b[rowb + i])) +
                    ((a[rowa + j] < a[rowa + i]) && (b[rowb + j] < b[rowb + i])) +
                    ((a[rowa + j] == a[rowa + i]) && (b[rowb + j] == b[rowb + i]));
            concordant = concordant + (float)tests;
        }
    }
    threadSums[tx * NUMTHREADS + ty] = concordant;
    __syncthreads();
    // completed: reduce along ty, then along tx, then thread (0, 0) writes tau
    for (i = NUMTHREADS >> 1; i > 0; i >>= 1) {
        if (ty < i)
            threadSums[tx * NUMTHREADS + ty] += threadSums[tx * NUMTHREADS + ty + i];
        __syncthreads();
    }
    for (i = NUMTHREADS >> 1; i > 0; i >>= 1) {
        if ((tx < i) && (ty == 0))
            threadSums[tx * NUMTHREADS] += threadSums[(tx + i) * NUMTHREADS];
        __syncthreads();
    }
    if ((tx == 0) && (ty == 0)) {
        concordant = threadSums[0];
        denom = (float)sampleSize;
        denom = (denom * (denom - 1.f)) / 2.f;
        discordant = denom - concordant;
        numer = concordant - discordant;
        results[by * na + bx] = ((double)numer) / ((double)denom);
    }
}

// ---- getRestricted: per thread m, a Gram-Schmidt QR of X (rows x cols) and the solve R b = Q^T y
__global__ void getRestricted(int countx, int county, int rows, int cols, float *mX, int mXdim,
                              float *vY, int vYdim, float *mQ, int mQdim, float *mR, int mRdim,
                              float *vectB, int vectBdim)
{
    int m = blockIdx.x * THREADSPERDIM + threadIdx.x, n, i, j, k;
    float sum, invnorm, *X, *Y, *Q, *R, *B, *coli, *colj, *colQ, *colX;

    if (m >= county)
        return;
    if (m == 1)
        n = 0;
    else
        n = 1;
    X = mX + (m * mXdim);
    // completed from here: the intercept column, Q = X, Gram-Schmidt, R = Q^T X, back-substitution
    for (i = 0; i < rows; i++)
        X[i] = 1.f;
    Y = vY + (m * countx + n) * vYdim;
    B = vectB + m * vectBdim;
    Q = mQ + m * mQdim;
    R = mR + m * mRdim;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            Q[i + j * rows] = X[i + j * rows];
    for (j = 0; j < cols; j++) {
        colj = Q + rows * j;
        for (i = 0; i < j; i++) {
            coli = Q + rows * i;
            sum = 0.f;
            for (k = 0; k < rows; k++)
                sum += coli[k] * colj[k];
            for (k = 0; k < rows; k++)
                colj[k] -= sum * coli[k];
        }
        sum = 0.f;
        for (i = 0; i < rows; i++)
            sum += colj[i] * colj[i];
        invnorm = 1.f / sqrtf(sum);
        for (i = 0; i < rows; i++)
            colj[i] *= invnorm;
    }
    for (i = cols - 1; i > -1; i--) {
        colQ = Q + i * rows;
        for (j = 0; j < cols; j++) {
            colX = X + j * rows;
            sum = 0.f;
            for (k = 0; k < rows; k++)
                sum += colQ[k] * colX[k];
            R[i + j * cols] = sum;
        }
        sum = 0.f;
        for (j = 0; j < rows; j++)
            sum += colQ[j] * Y[j];
        for (j = cols - 1; j > i; j--)
            sum -= R[i + j * cols] * B[j];
        B[i] = sum / R[i + i * cols];
    }
}

static Row bundled_row(const char *kernel, const char *params, dim3 grid, dim3 block,
                       const char *note)
{
    return row_of("bundled", kernel, params, grid, block, note);
}

static void run_maximum_kernel(void)
{
    const size_t n_a = 5, n_b = 5, k = 100;
    float *a, *b, *d;
    CK(cudaMalloc(&a, n_a * k * 4));
    CK(cudaMalloc(&b, n_b * k * 4));
    CK(cudaMalloc(&d, n_a * n_b * 4));
    fill_float(a, n_a * k, 1);
    fill_float(b, n_b * k, 2);
    dim3 grid(5, 5), block(32, 32);
    Row r = bundled_row("maximum_kernel", "k=100;n_a=5;n_b=5", grid, block,
                        "reference launch; the 32 threadIdx.y rows repeat the work");
    r.model = "maximum_kernel";
    measure(r, [&] { maximum_kernel<<<grid, block>>>(a, k, n_a, b, k, n_b, k, d, n_b); });
    // check: the reference launch computes the true maximum distance
    std::vector<float> got(n_a * n_b);
    CK(cudaMemcpy(got.data(), d, got.size() * 4, cudaMemcpyDeviceToHost));
    std::vector<double> want(n_a * n_b);
    for (size_t y = 0; y < n_b; y++)
        for (size_t x = 0; x < n_a; x++) {
            double m = 0;
            for (size_t o = 0; o < k; o++)
                m = std::max(m, (double)std::fabs(rand_float(x * k + o, 1) - rand_float(y * k + o, 2)));
            want[y * n_b + x] = m;
        }
    printf("maximum_kernel check: %s\n", check_close(got.data(), want.data(), got.size(), 1e-6).c_str());
    dim3 block1(32, 1);
    Row r1 = bundled_row("maximum_kernel", "k=100;n_a=5;n_b=5", grid, block1,
                         "one row of 32 threads per block (the work of the reference launch without the repeats)");
    measure(r1, [&] { maximum_kernel<<<grid, block1>>>(a, k, n_a, b, k, n_b, k, d, n_b); });
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(d));
}

static void run_gpuMeans(void)
{
    const size_t na = 5, nb = 5, dim = 100;
    float *va, *vb, *means, *pairs;
    CK(cudaMalloc(&va, na * dim * 4));
    CK(cudaMalloc(&vb, nb * dim * 4));
    CK(cudaMalloc(&means, na * nb * 2 * 4));
    CK(cudaMalloc(&pairs, na * nb * 4));
    fill_float(va, na * dim, 3);
    fill_float(vb, nb * dim, 4);
    dim3 grid(5, 5), block(32, 32), block16(NUMTHREADS, 1);
    Row r = bundled_row("gpuMeans", "NUMTHREADS=16;na=5;nb=5;dim=100", grid, block,
                        "reference launch; shared arrays sized 32 so threadIdx.x < 32 stays inside them");
    r.model = "gpuMeans";
    measure(r, [&] { gpuMeans<32><<<grid, block>>>(va, na, vb, nb, dim, means, pairs); });
    Row r16 = bundled_row("gpuMeans", "NUMTHREADS=16;na=5;nb=5;dim=100", grid, block16,
                          "the launch gputools makes: block (NUMTHREADS, 1)");
    measure(r16, [&] { gpuMeans<NUMTHREADS><<<grid, block16>>>(va, na, vb, nb, dim, means, pairs); });
    std::vector<float> got(na * nb * 2);
    CK(cudaMemcpy(got.data(), means, got.size() * 4, cudaMemcpyDeviceToHost));
    std::vector<double> want(na * nb * 2);
    for (size_t bx = 0; bx < na; bx++)
        for (size_t by = 0; by < nb; by++) {
            double sa = 0, sb = 0;
            for (size_t o = 0; o < dim; o++) {
                sa += rand_float(bx * dim + o, 3);
                sb += rand_float(by * dim + o, 4);
            }
            want[bx * nb * 2 + by * 2] = sa / dim;
            want[bx * nb * 2 + by * 2 + 1] = sb / dim;
        }
    printf("gpuMeans (16-thread launch) check: %s\n",
           check_close(got.data(), want.data(), got.size(), 1e-5).c_str());
    CK(cudaFree(va));
    CK(cudaFree(vb));
    CK(cudaFree(means));
    CK(cudaFree(pairs));
}

static void run_gpuKendall(void)
{
    const size_t na = 5, nb = 5, n = 100;
    float *a, *b;
    double *res;
    CK(cudaMalloc(&a, na * n * 4));
    CK(cudaMalloc(&b, nb * n * 4));
    CK(cudaMalloc(&res, na * nb * 8));
    fill_float(a, na * n, 5);
    fill_float(b, nb * n, 6);
    dim3 grid(5, 5), block(32, 32), block16(NUMTHREADS, NUMTHREADS);
    Row r = bundled_row("gpuKendall", "NUMTHREADS=16;na=5;nb=5;sampleSize=100", grid, block,
                        "reference launch; threadSums sized 32 x 32 so every tx * 16 + ty stays inside it");
    r.model = "gpuKendall";
    measure(r, [&] { gpuKendall<32><<<grid, block>>>(a, na, b, nb, n, res); });
    Row r16 = bundled_row("gpuKendall", "NUMTHREADS=16;na=5;nb=5;sampleSize=100", grid, block16,
                          "the launch gputools makes: block (NUMTHREADS, NUMTHREADS)");
    measure(r16, [&] { gpuKendall<NUMTHREADS><<<grid, block16>>>(a, na, b, nb, n, res); });
    std::vector<double> got(na * nb);
    CK(cudaMemcpy(got.data(), res, got.size() * 8, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (size_t bx = 0; bx < na; bx++)
        for (size_t by = 0; by < nb; by++) {
            double conc = 0;
            for (size_t i = 0; i < n; i++)
                for (size_t j = i + 1; j < n; j++) {
                    float ai = rand_float(bx * n + i, 5), aj = rand_float(bx * n + j, 5);
                    float bi = rand_float(by * n + i, 6), bj = rand_float(by * n + j, 6);
                    conc += ((aj > ai) && (bj > bi)) + ((aj < ai) && (bj < bi)) + ((aj == ai) && (bj == bi));
                }
            double denom = n * (n - 1) / 2.0, want = (conc - (denom - conc)) / denom;
            if (std::fabs(got[by * na + bx] - want) > 1e-6)
                bad++;
        }
    printf("gpuKendall (16 x 16 launch) check: %s\n", bad ? "FAIL" : "ok");
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(res));
}

static void run_getRestricted(void)
{
    const int countx = 5, county = 5, rows = 100, cols = 10;
    const int mXdim = rows * cols, vYdim = rows, mQdim = rows * cols, mRdim = cols * cols,
              vectBdim = cols;
    float *mX, *vY, *mQ, *mR, *vB;
    size_t ny = (size_t)(county * countx + 2) * vYdim;
    CK(cudaMalloc(&mX, (size_t)county * mXdim * 4));
    CK(cudaMalloc(&vY, ny * 4));
    CK(cudaMalloc(&mQ, (size_t)county * mQdim * 4));
    CK(cudaMalloc(&mR, (size_t)county * mRdim * 4));
    CK(cudaMalloc(&vB, (size_t)county * vectBdim * 4));
    fill_float(vY, ny, 8);
    fill_zero(mQ, (size_t)county * mQdim * 4);
    fill_zero(mR, (size_t)county * mRdim * 4);
    fill_zero(vB, (size_t)county * vectBdim * 4);
    // X is refilled before every launch would perturb the timing; the kernel overwrites only its
    // first column, so one fill keeps the same data for every launch.
    fill_float(mX, (size_t)county * mXdim, 7);
    dim3 grid(5, 5), block(32, 32), grid1(5, 1);
    auto launch = [&](dim3 g) {
        getRestricted<<<g, block>>>(countx, county, rows, cols, mX, mXdim, vY, vYdim, mQ, mQdim, mR,
                                    mRdim, vB, vectBdim);
    };
    Row r = bundled_row("getRestricted", "THREADSPERDIM=16;countx=5;county=5;rows=100;cols=10",
                        grid, block,
                        "reference launch: 800 threads work (m < 5), 160 on each m's data at once");
    r.model = "getRestricted";
    measure(r, [&] { launch(grid); });
    Row r1 = bundled_row("getRestricted", "THREADSPERDIM=16;countx=5;county=5;rows=100;cols=10",
                         grid1, block,
                         "one grid row (blockIdx.y = 0): the 160 working threads the model assumes");
    measure(r1, [&] { launch(grid1); });
    CK(cudaFree(mX));
    CK(cudaFree(vY));
    CK(cudaFree(mQ));
    CK(cudaFree(mR));
    CK(cudaFree(vB));
}

void section_bundled(void)
{
    run_maximum_kernel();
    run_gpuMeans();
    run_gpuKendall();
    run_getRestricted();
}
