// split.cu: a float4 stream of which only .x and .w are used, the shape of connollydavid/tu102's
// mem.smem.bw and mem.l1.bw 128-bit rows (32.0 B a clock on a TU102), compiled (not run) by
// split.sh to read what ptxas makes of the float4 load. Written here from the table's
// description; no code of that repository is copied.

// Each thread strides the buffer by the block, adding .x and .w of each float4. Inlined into
// both kernels, so that the compiler sees which memory each buffer is in.
__device__ __forceinline__ float sum_xw(const float4 *buf, unsigned trips)
{
    float acc[4] = {0, 0, 0, 0};
    for (unsigned t = 0; t < trips; t++) {
#pragma unroll
        for (int u = 0; u < 8; u++) {
            float4 v = buf[(threadIdx.x + (t * 7 + u) * blockDim.x) & 511];
            acc[u & 3] += v.x + v.w;
        }
    }
    return acc[0] + acc[1] + acc[2] + acc[3];
}

// From shared memory: each thread fills its slot first.
__global__ void shared_xw(float *out, unsigned trips)
{
    __shared__ float4 buf[512];
    buf[threadIdx.x & 511] = make_float4(threadIdx.x, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    out[threadIdx.x] = sum_xw(buf, trips);
}

// From global memory (an L1-resident buffer when it runs).
__global__ void global_xw(const float4 *buf, float *out, unsigned trips)
{
    out[threadIdx.x] = sum_xw(buf, trips);
}
