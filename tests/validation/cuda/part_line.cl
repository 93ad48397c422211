// part_line.cl: part_line.cu's kernel in OpenCL C, the benchmark's language, for clang's
// NVPTX target (part_line.sh).
kernel void sixteen_floats(global float *data)
{
    const uint n = get_global_id(0);
#pragma unroll
    for (uint i = 0; i < 16; i++)
        data[n * 16 + i] = 0.0f;
}
