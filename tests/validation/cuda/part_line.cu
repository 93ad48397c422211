// part_line.cu: the shape of OpenCL-Benchmark's misaligned write (ProjectPhysX/OpenCL-Benchmark,
// kernel_misaligned_write), from which arch.c's part-line figures come: each thread stores 16
// consecutive floats, one store after another. Compiled (not run) by part_line.sh to read
// whether a compiler merges the stores into wider ones (which would change what each warp
// store writes). Written here from the benchmark's description; no code of it is copied.
__global__ void sixteen_floats(float *data)
{
    const unsigned n = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (unsigned i = 0; i < 16; i++)
        data[n * 16 + i] = 0.0f;
}
