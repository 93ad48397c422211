#!/bin/sh
# reference_stores.sh ROOFCAST SOURCE_DIR
# Writes through a reference or a builtin's pointer output (docs/import.md, "What a draft
# holds"): a reference that is not const, bound to an array element (float &r = a[i], or a[i]
# passed to an inlined __device__ function's float &), names the element: loaded where it is
# read, stored where it is written; sincosf(x, &a[i], &c) stores a[i] after the call, and
# nothing for the address of a local. A write the draft cannot say exactly (the element's
# index depends on data) is an unknown with its file:line message. A reference to a local
# (int &jr = j) reads and assigns the local. Each kernel's <work> is compared whole, with the
# import's exit status and its "not translated" lines.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/refs.cu" <<'CU'
__device__ void set_one(float &v) { v = 1.0f; }
__device__ void scale(float &v, float s) { v *= s; }
template <typename T> __device__ void put(T &d, T v) { d = v; }

__global__ void bound(float *a, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float &r = a[i];
    r = x[i];
    out[i] = r * 2.0f;
}
__global__ void device_param(float *out, float *a, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    set_one(out[i]);
    scale(a[i], 3.0f);
    for (int k = 0; k < n; k++)
        put(a[i + 32], x[k]);
}
__global__ void sincos_global(const float *x, float *s, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sincosf(x[i], &s[i], &c[i]);
}
__global__ void sincos_local(const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s, co;
    sincosf(x[i], &s, &co);
    float t = x[i + 1];
    float &l = t;
    l = s + co;
    out[i] = t;
}
__global__ void data_index(float *a, const int *idx, const float *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float &r = a[idx[i]];
    r = x[i];
    sincosf(x[i], &a[idx[i + 1]], &r);
}
__device__ void advance(int &k, int by) { k += by; }
__global__ void local_refs(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = i;
    int &jr = j;
    jr = 0;
    advance(j, 32);
    const float *p = x;
    const float *&pr = p;
    pr += 2;
    out[j] = *p;
    for (int k = 0; k < n; k++)
        p += 4;
    out[i] = *p;
    for (int k = 0; k < n; k++)
        advance(j, 1);
    out[j] = 1.0f;
}
CU

check() { # KERNEL STATUS EXPECTED-STDERR-UNKNOWNS EXPECTED-WORK (a complete draft must load)
    unknowns=$3 work=$4
    draft "$tmp/refs.cu" "$1" "$2" --grid 2 --block 32 --param n=4 --length a=128 \
        --length x=128 --length out=64 --length s=64 --length c=64 --length idx=128 || return
    got=$(grep ': not translated: ' "$tmp/err" | sed "s#^$tmp/##")
    if [ "$got" != "$unknowns" ]; then
        printf 'FAIL: %s: stderr says\n%s\nexpected\n%s\n' "$kernel" "$got" "$unknowns" >&2
        fail=1
    fi
    work_is "$kernel" "$work"
}

# r names a[i]: stored where it is written, loaded where it is read
check bound 0 '' '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="x" index="i"/>
    <store array="a" index="i"/>
    <load array="a" index="i"/>
    <flops count="1" fused="false"/>
    <store array="out" index="i"/>
  </work>'
# an inlined function's float & (a template's T & alike): set_one only writes, scale reads
# and writes, put writes in every iteration
check device_param 0 '' '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <store array="out" index="i"/>
    <load array="a" index="i"/>
    <flops count="1" fused="false"/>
    <store array="a" index="i"/>
    <loop var="k" from="0" to="n">
      <load array="x" index="k"/>
      <store array="a" index="i + 32"/>
    </loop>
  </work>'
# sincosf's outputs into elements: a store each, after the call reads x[i]
check sincos_global 0 '' '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="x" index="i"/>
    <store array="s" index="i"/>
    <store array="c" index="i"/>
  </work>'
# into locals, and a reference to a local: registers, no store
check sincos_local 0 '' '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="x" index="i"/>
    <load array="x" index="i + 1"/>
    <flops count="1" fused="false"/>
    <store array="out" index="i"/>
  </work>'
# the element's index is data: r keeps the value read where it is bound (an unknown load, as
# before), and each write through r or sincosf's pointer is an unknown, never dropped
check data_index 1 "refs.cu:38: data_index: not translated: a load: the index into 'a' depends on a value read from memory
refs.cu:39: data_index: not translated: a store through the reference 'r': the index into 'a' depends on a value read from memory
refs.cu:40: data_index: not translated: a store by sincosf through its argument 2: the index into 'a' depends on a value read from memory
refs.cu:40: data_index: not translated: a store by sincosf through its argument 3: the index into 'a' depends on a value read from memory" '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="idx" index="i"/>
    <!-- UNKNOWN (source line 38): a load: the index into '"'a'"' depends on a value read from memory -->
    <load array="x" index="i"/>
    <!-- UNKNOWN (source line 39): a store through the reference '"'r'"': the index into '"'a'"' depends on a value read from memory -->
    <load array="x" index="i"/>
    <load array="idx" index="i + 1"/>
    <!-- UNKNOWN (source line 40): a store by sincosf through its argument 2: the index into '"'a'"' depends on a value read from memory -->
    <!-- UNKNOWN (source line 40): a store by sincosf through its argument 3: the index into '"'a'"' depends on a value read from memory -->
  </work>'
# a reference to a local names it: j is 32 and p is x + 2 where they are used; a loop of
# one statement that moves p, or j through a reference param, changes them in every iteration
check local_refs 1 "refs.cu:59: local_refs: not translated: store: the index into 'out' depends on 'j' after the loop at source line 57" '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="x" index="2"/>
    <store array="out" index="32"/>
    <loop var="k" from="0" to="n">
    </loop>
    <load array="x" index="2 + max(0, (n - 0 + 1 - 1) / 1) * (4)"/>
    <store array="out" index="i"/>
    <loop var="k_2" from="0" to="n">
    </loop>
    <!-- UNKNOWN (source line 59): store: the index into '"'out'"' depends on '"'j'"' after the loop at source line 57 -->
  </work>'
exit $fail
