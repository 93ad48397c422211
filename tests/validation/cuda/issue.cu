// issue.cu: two loop shapes of held-out points whose time the model's terms leave short, for
// issue.sh to count the SASS instructions of their loops (docs/architectures.md, "What would
// change the model most", 21). Written from reading the published kernels, not copied:
// - conv2d_naive: R100001/Programming-Massively-Parallel-Processors' 2-D convolution with the
//   mask in global memory (convolution_2D_basic_kernel, one channel): one output a thread and
//   channel, a guarded tap per mask point, the mask's size and the channels kernel arguments;
// - conv2d_constant: the same with the mask in constant memory
//   (convolution_2D_constant_memory_kernel);
// - sqrt_count: brucefan1983/CUDA-Programming's arithmetic kernel (05-prerequisites-for-speedup):
//   each thread counts a float up while its square root is below a bound.
// The names, layouts and argument orders are this file's own.
__constant__ float mask_c[121];

// one output a thread and channel; the mask from global memory, or from mask_c (`mask` unused)
template <bool CONSTANT_MASK>
__device__ __forceinline__ void conv2d_body(const float *in, const float *mask, float *out,
                                            int mask_w, int h, int w, int channels)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= h || col >= w)
        return;
    int r0 = row - mask_w / 2, c0 = col - mask_w / 2;
    for (int ch = 0; ch < channels; ++ch) {
        float acc = 0.f;
        for (int a = 0; a < mask_w; ++a)
            for (int b = 0; b < mask_w; ++b) {
                int r = r0 + a, c = c0 + b;
                if (r >= 0 && r < h && c >= 0 && c < w)
                    acc += in[(r * w + c) * channels + ch] *
                           (CONSTANT_MASK ? mask_c[a * mask_w + b] : mask[a * mask_w + b]);
            }
        out[(row * w + col) * channels + ch] = (float)fmin(fmax((double)acc, 0.0), 1.0);
    }
}

__global__ void conv2d_naive(const float *in, const float *mask, float *out, int mask_w, int h,
                             int w, int channels)
{
    conv2d_body<false>(in, mask, out, mask_w, h, w, channels);
}

__global__ void conv2d_constant(const float *in, float *out, int mask_w, int h, int w,
                                int channels)
{
    conv2d_body<true>(in, nullptr, out, mask_w, h, w, channels);
}

__global__ void sqrt_count(float *v, float bound, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = v[i];
    while (sqrtf(x) < bound)
        x += 1.f;
    v[i] = x;
}
