/* standin.c: the stand-in for the CUDA toolkit's headers (standin.h). */
#include "import/standin.h"

#include <stdlib.h>
#include <string.h>

/* Kept to declarations the importer needs to parse device code and the
 * usual host code around it (launches, cudaMalloc, dim3): a call the
 * importer does not know by name is an unknown, whatever is declared. */
static const char *const header[] = {
    "#ifndef __ROOFCAST_STANDIN__\n",
    "#define __ROOFCAST_STANDIN__ 1\n",
    "#define __CUDACC__ 1\n",
    "#define __NVCC__ 1\n",
    "#define CUDART_VERSION 11080\n",
    "#define __global__ __attribute__((global))\n",
    "#define __device__ __attribute__((device))\n",
    "#define __host__ __attribute__((host))\n",
    "#define __shared__ __attribute__((shared))\n",
    "#define __constant__ __attribute__((constant))\n",
    "#define __managed__ __attribute__((managed))\n",
    "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n",
    "#define __forceinline__ __inline__ __attribute__((always_inline))\n",
    "#define __noinline__ __attribute__((noinline))\n",
    "#define __restrict__ __restrict\n",
    "#define __align__(n) __attribute__((aligned(n)))\n",
    "#define __builtin_align__(n) __attribute__((aligned(n)))\n",
    "#define CUDART_INF_F __builtin_huge_valf()\n",
    "#define CUDART_INF __builtin_huge_val()\n",
    "#define CUDART_NAN_F __builtin_nanf(\"\")\n",
    "#define CUDART_PI_F 3.141592654f\n",
    "#define FLT_MAX __FLT_MAX__\n",
    "#define DBL_MAX __DBL_MAX__\n",
    "#define INT_MAX __INT_MAX__\n",
    "typedef __SIZE_TYPE__ size_t;\n",
    "typedef _Float16 __half;\n",
    "typedef _Float16 half;\n",
    "typedef unsigned short __nv_bfloat16;\n",
    "struct __half2 { __half x, y; };\n",
    "typedef struct __half2 half2;\n",
    "#define RC_VEC(T, N) \\\n",
    "  struct N##1 { T x; }; \\\n",
    "  struct __attribute__((aligned(sizeof(T) * 2))) N##2 { T x, y; }; \\\n",
    "  struct N##3 { T x, y, z; }; \\\n",
    "  struct __attribute__((aligned(sizeof(T) * 4 > 16 ? 16 : sizeof(T) * 4))) N##4 { T x, y, z, w; }; \\\n",
    "  __host__ __device__ N##1 make_##N##1(T); \\\n",
    "  __host__ __device__ N##2 make_##N##2(T, T); \\\n",
    "  __host__ __device__ N##3 make_##N##3(T, T, T); \\\n",
    "  __host__ __device__ N##4 make_##N##4(T, T, T, T);\n",
    "RC_VEC(signed char, char) RC_VEC(unsigned char, uchar) RC_VEC(short, short)\n",
    "RC_VEC(unsigned short, ushort) RC_VEC(int, int) RC_VEC(unsigned int, uint)\n",
    "RC_VEC(long, long) RC_VEC(unsigned long, ulong) RC_VEC(long long, longlong)\n",
    "RC_VEC(unsigned long long, ulonglong) RC_VEC(float, float) RC_VEC(double, double)\n",
    "#undef RC_VEC\n",
    "struct dim3 { unsigned int x, y, z;\n",
    "  __host__ __device__ dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1)\n",
    "    : x(x), y(y), z(z) {}\n",
    "  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {} };\n",
    "extern const __device__ uint3 threadIdx;\n",
    "extern const __device__ uint3 blockIdx;\n",
    "extern const __device__ dim3 blockDim;\n",
    "extern const __device__ dim3 gridDim;\n",
    "extern const __device__ int warpSize;\n",
    /* host side: enough for launches and the usual runtime calls */
    "typedef int cudaError_t;\n",
    "enum { cudaSuccess = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,\n",
    "       cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };\n",
    "typedef int cudaMemcpyKind;\n",
    "typedef struct CUstream_st *cudaStream_t;\n",
    "typedef struct CUevent_st *cudaEvent_t;\n",
    "extern \"C\" int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);\n",
    "extern \"C\" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);\n",
    "template <class T> cudaError_t cudaMalloc(T **, size_t);\n",
    "cudaError_t cudaMalloc(void **, size_t);\n",
    "cudaError_t cudaMallocManaged(void *, size_t, unsigned = 1);\n",
    "cudaError_t cudaMallocHost(void *, size_t);\n",
    "cudaError_t cudaFree(void *);\n",
    "cudaError_t cudaFreeHost(void *);\n",
    "cudaError_t cudaMemcpy(void *, const void *, size_t, int);\n",
    "cudaError_t cudaMemcpyAsync(void *, const void *, size_t, int, cudaStream_t = 0);\n",
    "cudaError_t cudaMemset(void *, int, size_t);\n",
    "template <class T> cudaError_t cudaMemcpyToSymbol(const T &, const void *, size_t,\n",
    "                                                  size_t = 0, int = 1);\n",
    "cudaError_t cudaDeviceSynchronize(void);\n",
    "cudaError_t cudaGetLastError(void);\n",
    "cudaError_t cudaPeekAtLastError(void);\n",
    "const char *cudaGetErrorString(cudaError_t);\n",
    "cudaError_t cudaEventCreate(cudaEvent_t *);\n",
    "cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);\n",
    "cudaError_t cudaEventSynchronize(cudaEvent_t);\n",
    "cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);\n",
    "cudaError_t cudaEventDestroy(cudaEvent_t);\n",
    "cudaError_t cudaSetDevice(int);\n",
    /* device side: barriers, fences, intrinsics, math, atomics */
    "__device__ void __syncthreads(void);\n",
    "__device__ int __syncthreads_count(int);\n",
    "__device__ int __syncthreads_and(int);\n",
    "__device__ int __syncthreads_or(int);\n",
    "__device__ void __syncwarp(unsigned = 0xffffffffu);\n",
    "__device__ void __threadfence(void);\n",
    "__device__ void __threadfence_block(void);\n",
    "__device__ void __threadfence_system(void);\n",
    "__device__ unsigned __activemask(void);\n",
    "#define RC_SHFL(T) \\\n",
    "  __device__ T __shfl_sync(unsigned, T, int, int = 32); \\\n",
    "  __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32); \\\n",
    "  __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32); \\\n",
    "  __device__ T __shfl_xor_sync(unsigned, T, int, int = 32); \\\n",
    "  __device__ T __shfl(T, int, int = 32); \\\n",
    "  __device__ T __shfl_up(T, unsigned, int = 32); \\\n",
    "  __device__ T __shfl_down(T, unsigned, int = 32); \\\n",
    "  __device__ T __shfl_xor(T, int, int = 32); \\\n",
    "  __device__ T __ldg(const T *);\n",
    "RC_SHFL(int) RC_SHFL(unsigned) RC_SHFL(long long) RC_SHFL(unsigned long long)\n",
    "RC_SHFL(float) RC_SHFL(double)\n",
    "#undef RC_SHFL\n",
    "__device__ float4 __ldg(const float4 *);\n",
    "__device__ float2 __ldg(const float2 *);\n",
    "__device__ unsigned __ballot_sync(unsigned, int);\n",
    "__device__ int __any_sync(unsigned, int);\n",
    "__device__ int __all_sync(unsigned, int);\n",
    "__device__ unsigned __ballot(int);\n",
    "__device__ int __any(int);\n",
    "__device__ int __all(int);\n",
    "__device__ unsigned __reduce_add_sync(unsigned, unsigned);\n",
    "__device__ int __popc(unsigned);\n",
    "__device__ int __popcll(unsigned long long);\n",
    "__device__ int __clz(int);\n",
    "__device__ int __ffs(int);\n",
    "__device__ unsigned __brev(unsigned);\n",
    "__device__ int __mul24(int, int);\n",
    "__device__ unsigned __umul24(unsigned, unsigned);\n",
    "__device__ long long clock64(void);\n",
    "__device__ int clock(void);\n",
    /* The C and C++ math libraries, callable from device code (as clang's
       own CUDA wrappers make them): the file's own #include <cmath> or
       <math.h> then finds them included. */
    "#pragma clang force_cuda_host_device begin\n",
    "#include <math.h>\n",
    "#include <stdlib.h>\n",
    "#include <cmath>\n",
    "#pragma clang force_cuda_host_device end\n",
    /* what CUDA adds to them */
    "#define RC_F1(name) static __device__ __inline__ float name##f(float); \\\n",
    "  static __device__ __inline__ double name(double);\n",
    "RC_F1(rsqrt) RC_F1(rcbrt) RC_F1(sinpi) RC_F1(cospi) RC_F1(normcdf) RC_F1(erfinv)\n",
    "#undef RC_F1\n",
    /* glibc declares __expf, __logf, __sinf, __cosf, __powf: included above */
    "__device__ float __log2f(float);\n",
    "__device__ float __fdividef(float, float);\n",
    "__device__ float __frcp_rn(float);\n",
    "__device__ float __fsqrt_rn(float);\n",
    "__device__ float __fmaf_rn(float, float, float);\n",
    "__device__ double __fma_rn(double, double, double);\n",
    "__device__ float __fadd_rn(float, float);\n",
    "__device__ float __fmul_rn(float, float);\n",
    "__device__ float __saturatef(float);\n",
    "#define RC_MINMAX(T) static __device__ __inline__ T min(T, T); \\\n",
    "  static __device__ __inline__ T max(T, T);\n",
    "RC_MINMAX(int) RC_MINMAX(unsigned) RC_MINMAX(long) RC_MINMAX(unsigned long)\n",
    "RC_MINMAX(long long) RC_MINMAX(unsigned long long) RC_MINMAX(float) RC_MINMAX(double)\n",
    "#undef RC_MINMAX\n",
    /* and CUDA's mixed overloads, so that min(x, 0.0) of a float x is the double one, as nvcc
       takes it, not an ambiguous call */
    "#define RC_MINMAX2(R, A, B) static __device__ __inline__ R min(A, B); \\\n",
    "  static __device__ __inline__ R max(A, B);\n",
    "RC_MINMAX2(double, float, double) RC_MINMAX2(double, double, float)\n",
    "RC_MINMAX2(unsigned, int, unsigned) RC_MINMAX2(unsigned, unsigned, int)\n",
    "RC_MINMAX2(unsigned long, long, unsigned long) RC_MINMAX2(unsigned long, unsigned long, long)\n",
    "RC_MINMAX2(unsigned long long, long long, unsigned long long)\n",
    "RC_MINMAX2(unsigned long long, unsigned long long, long long)\n",
    "#undef RC_MINMAX2\n",
    "static __device__ __inline__ unsigned umin(unsigned, unsigned);\n",
    "static __device__ __inline__ unsigned umax(unsigned, unsigned);\n",
    "__device__ float __int2float_rn(int);\n",
    "__device__ int __float2int_rn(float);\n",
    "__device__ int __float2int_rz(float);\n",
    "__device__ __half __float2half(float);\n",
    "__device__ float __half2float(__half);\n",
    "__device__ __half2 __floats2half2_rn(float, float);\n",
    "__device__ __half2 __float2half2_rn(float);\n",
    "__device__ float2 __half22float2(__half2);\n",
    "__device__ __half __hadd(__half, __half);\n",
    "__device__ __half __hsub(__half, __half);\n",
    "__device__ __half __hmul(__half, __half);\n",
    "__device__ __half __hdiv(__half, __half);\n",
    "__device__ __half __hfma(__half, __half, __half);\n",
    "__device__ __half2 __hadd2(__half2, __half2);\n",
    "__device__ __half2 __hsub2(__half2, __half2);\n",
    "__device__ __half2 __hmul2(__half2, __half2);\n",
    "__device__ __half2 __hfma2(__half2, __half2, __half2);\n",
    "#define RC_ATOMIC(T) \\\n",
    "  __device__ T atomicAdd(T *, T); __device__ T atomicSub(T *, T); \\\n",
    "  __device__ T atomicExch(T *, T); __device__ T atomicMin(T *, T); \\\n",
    "  __device__ T atomicMax(T *, T); __device__ T atomicCAS(T *, T, T); \\\n",
    "  __device__ T atomicAnd(T *, T); __device__ T atomicOr(T *, T); \\\n",
    "  __device__ T atomicXor(T *, T); __device__ T atomicInc(T *, T); \\\n",
    "  __device__ T atomicDec(T *, T); \\\n",
    "  __device__ T atomicAdd_block(T *, T); __device__ T atomicAdd_system(T *, T);\n",
    "RC_ATOMIC(int) RC_ATOMIC(unsigned) RC_ATOMIC(unsigned long long) RC_ATOMIC(long long)\n",
    "RC_ATOMIC(float) RC_ATOMIC(double) RC_ATOMIC(__half2)\n",
    "#undef RC_ATOMIC\n",
    /* cooperative groups: declared, so that kernels using them parse; a thread block's sync()
       is a barrier, a tile's none, another group's an unknown (tr_sync_of), and the rest
       unknowns */
    "namespace cooperative_groups {\n",
    "struct thread_group { __device__ void sync() const; __device__ unsigned thread_rank() const;\n",
    "  __device__ unsigned size() const; __device__ unsigned num_threads() const; };\n",
    "struct thread_block : thread_group { __device__ dim3 group_index() const;\n",
    "  __device__ dim3 thread_index() const; __device__ dim3 group_dim() const; };\n",
    "struct grid_group : thread_group { __device__ bool is_valid() const; };\n",
    "template <unsigned N> struct thread_block_tile : thread_group {\n",
    "  template <class T> __device__ T shfl(T, int) const;\n",
    "  template <class T> __device__ T shfl_down(T, unsigned) const;\n",
    "  template <class T> __device__ T shfl_up(T, unsigned) const;\n",
    "  template <class T> __device__ T shfl_xor(T, unsigned) const;\n",
    "  __device__ unsigned meta_group_rank() const; __device__ unsigned meta_group_size() const;\n",
    "  __device__ int any(int) const; __device__ int all(int) const;\n",
    "  __device__ unsigned ballot(int) const; };\n",
    "__device__ thread_block this_thread_block();\n",
    "__device__ grid_group this_grid();\n",
    "template <unsigned N, class P> __device__ thread_block_tile<N> tiled_partition(const P &);\n",
    "__device__ thread_group tiled_partition(const thread_group &, unsigned);\n",
    "template <class G> __device__ void sync(const G &);\n",
    "template <class G, class T, class Op> __device__ T reduce(const G &, T, Op);\n",
    "template <class T> struct plus { __device__ T operator()(T, T) const; };\n",
    "}\n",
    "extern \"C\" __host__ __device__ int printf(const char *, ...);\n",
    "extern \"C\" __host__ __device__ void __assert_fail(const char *, const char *, unsigned,\n",
    "                                                    const char *);\n",
    "#endif\n",
    NULL};

char *rc_standin_header(void)
{
    size_t n = 1;
    for (size_t i = 0; header[i]; i++)
        n += strlen(header[i]);
    char *text = malloc(n), *p = text;
    if (!text)
        return NULL;
    for (size_t i = 0; header[i]; i++) {
        size_t l = strlen(header[i]);
        memcpy(p, header[i], l);
        p += l;
    }
    *p = '\0';
    return text;
}

bool rc_standin_is_toolkit_header(const char *name)
{
    static const char *const exact[] = {
        "cuda.h", "device_launch_parameters.h", "device_functions.h", "vector_types.h",
        "vector_functions.h", "math_constants.h", "math_functions.h", "host_defines.h",
        "driver_types.h", "builtin_types.h", "channel_descriptor.h", "texture_types.h",
        "surface_types.h", "crt/host_defines.h", "mma.h", "nvrtc.h", "nvml.h",
        "device_atomic_functions.h", "sm_20_atomic_functions.h", "sm_60_atomic_functions.h",
        "sm_30_intrinsics.h", "sm_32_intrinsics.h"};
    static const char *const prefixes[] = {
        "cuda_", "cuda/", "cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn",
        "cooperative_groups", "cub/", "thrust/", "nvToolsExt", "nvtx3/", "helper_", "npp",
        "nvjpeg", "nccl", "cutlass/", "cute/"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(name, exact[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}
