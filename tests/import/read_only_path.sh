#!/bin/sh
# read_only_path.sh ROOFCAST SOURCE_DIR
# The read-only-path a draft's <array> gets from the code (docs/import.md, "The read-only
# path"): "yes" for a __restrict__ pointer the kernel only reads (const or not, a template's
# or a typedef's), for loads through __ldg, and for an ordinary pointer only read where every
# array the kernel writes is a __restrict__ pointer; "no" for another ordinary pointer only read;
# nothing for an array the kernel writes (stored, updated, atomically or in a store the draft
# leaves unknown, passed to a call not inlined, bound to a reference that is not const, or
# given by a pointer to sincosf), for shared arrays, and for a restrict
# pointer when a store's array cannot be told. Each kernel's <array> lines are compared whole
# (each param on its own line: arrays are in line order).
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/rop.cu" <<'CU'
typedef float *__restrict__ restricted;
__device__ void opaque(float *p);

__global__ void restrict_read(const float *__restrict__ in,
                              float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void plain_read(const float *in,
                           float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void restrict_out(const float *in,
                             float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void ldg_read(const float *in,
                         float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __ldg(&in[i]) + in[i + 1];
}
__global__ void written(float *__restrict__ a,
                        const float *__restrict__ b,
                        int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] += b[i];
    atomicAdd(&count[0], 1);
}
template <typename T>
__global__ void templated(const T *__restrict__ x,
                          T *__restrict__ y,
                          restricted z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] * z[i];
}
__global__ void hidden_writes(float *__restrict__ a,
                              const int *__restrict__ idx,
                              float *b)
{
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = b[i];
    a[idx[i]] = s[63 - threadIdx.x];
    opaque(b);
}
__global__ void untold(const float *__restrict__ x,
                       const float *y,
                       float **pp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    pp[0][i] = x[i] + y[i];
}
__device__ void set_one(float &v) { v = 1.0f; }
__device__ float first(const float &v) { return v; }
__global__ void references(float *__restrict__ a,
                           float *__restrict__ b,
                           const float *__restrict__ x,
                           float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float &r = a[i];
    const float &k = x[i];
    float t = b[i];
    float &local = t;
    local = 2.0f;
    out[i] = r + first(b[i]) + k;
    r = 0.0f;
    set_one(out[i]);
}
__global__ void pointer_out(float *__restrict__ a,
                            float *__restrict__ b,
                            float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float t = b[i];
    float s, co;
    sincosf(a[i] + t, &a[i], &co);
    sincosf(t, &s, &co);
    out[i] = s + co;
}
CU

check() { # KERNEL STATUS EXPECTED-ARRAY-LINES
    lines=$3
    # a complete draft loads (draft checks it): no "yes" on an array it stores to
    draft "$tmp/rop.cu" "$1" "$2" --grid 2 --block 32 --length in=65 --length out=64 \
        --length a=64 --length b=64 --length count=1 --length x=64 --length y=64 \
        --length z=64 --length idx=64 || return
    got=$(grep '<array ' "$tmp/d/$name.xml")
    if [ "$got" != "$lines" ]; then
        printf 'FAIL: %s: the arrays are\n%s\nexpected\n%s\n' "$kernel" "$got" "$lines" >&2
        fail=1
    fi
}

check restrict_read 0 '  <array name="in" type="float" length="65" read-only-path="yes"/>
  <array name="out" type="float" length="64"/>'
check plain_read 0 '  <array name="in" type="float" length="65" read-only-path="no"/>
  <array name="out" type="float" length="64"/>'
# every array it writes is a restrict pointer: nothing can write what `in` reads
check restrict_out 0 '  <array name="in" type="float" length="65" read-only-path="yes"/>
  <array name="out" type="float" length="64"/>'
check ldg_read 0 '  <array name="in" type="float" length="65" read-only-path="yes"/>
  <array name="out" type="float" length="64"/>'
check written 0 '  <array name="a" type="float" length="64"/>
  <array name="b" type="float" length="64" read-only-path="yes"/>
  <array name="count" type="int" length="1"/>'
check 'templated<float>' 0 '  <array name="x" type="float" length="64" read-only-path="yes"/>
  <array name="y" type="float" length="64"/>
  <array name="z" type="float" length="64" read-only-path="yes"/>'
# a fixed-width integer type argument is its C type
check 'templated<uint32_t>' 0 '  <array name="x" type="unsigned int" length="64" read-only-path="yes"/>
  <array name="y" type="unsigned int" length="64"/>
  <array name="z" type="float" length="64" read-only-path="yes"/>'
# a's store has a data index and b goes to a call not inlined: both unknowns, both written
check hidden_writes 1 '  <array name="a" type="float" length="64"/>
  <array name="idx" type="int" length="64" read-only-path="yes"/>
  <array name="b" type="float" length="64"/>
  <array name="s" type="float" length="64" space="shared"/>'
# a store through a pointer read from memory may write any array: a restrict pointer's
# qualifier alone no longer says yes, an ordinary pointer's loads still take no read-only path
check untold 1 '  <array name="x" type="float" length="64"/>
  <array name="y" type="float" length="64" read-only-path="no"/>'
# stores through a reference (float &r = a[i], a device function's float &) or a builtin's
# pointer (sincosf's) keep a from read-only-path="yes" (reference_stores.sh checks their
# <store>s); a const reference, or a reference to a local, writes no array
check references 0 '  <array name="a" type="float" length="64"/>
  <array name="b" type="float" length="64" read-only-path="yes"/>
  <array name="x" type="float" length="64" read-only-path="yes"/>
  <array name="out" type="float" length="64"/>'
check pointer_out 0 '  <array name="a" type="float" length="64"/>
  <array name="b" type="float" length="64" read-only-path="yes"/>
  <array name="out" type="float" length="64"/>'
exit $fail
