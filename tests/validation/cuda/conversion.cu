// conversion.cu: one kernel whose loop converts its int counter to float 16 times, the
// published vector_add_divergent's even-thread loop (Debdeep23/test1, read, not copied; see
// tests/validation/published/README.md). conversion.sh compiles it for each generation and
// counts which SASS instruction carries cvt.rn.f32.s32: docs/architectures.md, "Arithmetic pipes".
__global__ void int_to_float_loop(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.f;
#pragma unroll 16
    for (int t = 0; t < 128; ++t)
        s += 0.0001f * t;
    out[i] = s;
}
