#!/bin/sh
# instructions.sh ROOFCAST SOURCE_DIR
# Instructions on the arithmetic pipes (docs/import.md, "Counting conversions and special
# functions"). Type conversions as the compiler issues them: a cast, written or implicit,
# between a floating-point type and another floating-point or integer type is an instruction:
# <instructions pipe="conversion64"> when either side is a double or a 64-bit integer, else
# pipe="conversion". A literal's conversion is folded; a cast between integers, or to or from
# bool, is none; the conversion intrinsics (__int2float_rn, ...) count as casts. A min or a
# max of floats or doubles is an instruction of its own (fused="false"). The functions the
# Programming Guide's special-function row names (rsqrtf, __log2f, exp2f, __sinf, __cosf) are
# one instruction each on pipe="special" beside their FLOP; other math functions none. Each
# kernel's <work> is compared whole.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/conv.cu" <<'CU'
__global__ void clamp_double(const float *in, float *out)
{
    int i = threadIdx.x;
    out[i] = fmin(fmax((double)in[i], 0.0), 1.0);
}
#define clamp(x) (min(max((x), 0.0), 1.0))
__global__ void clamp_mixed(const float *in, float *out, const unsigned *u)
{
    int i = threadIdx.x;
    out[i] = clamp(in[i]);
    out[i + 32] = max(in[i], 2.0f);
    out[i + 64] = min(i, u[i]);
}
__global__ void kinds(const int *a, float *b, double *d, long long *q, float s)
{
    int i = threadIdx.x;
    b[i] = a[i] * s + 2;
    d[i] = b[i] * 0.5;
    q[i] = (long long)b[i];
    b[i + 32] = (float)i / 3.0f;
    q[i + 32] = a[i];
    bool t = b[i];
    q[i + 33] = t;
}
__global__ void intrinsics(const int *a, float *b)
{
    int i = threadIdx.x;
    b[i] = __int2float_rn(a[i]) + __int2float_rn(i) + __int2float_rn(3);
}
__global__ void sfu(const float *x, float *y)
{
    int i = threadIdx.x;
    y[i] = __sinf(x[i]) + rsqrtf(x[i]);
    y[i + 32] = exp2f(x[i]) * __log2f(2.0f);
    y[i + 64] = expf(x[i]);
}
CU

check() { # KERNEL EXPECTED-WORK (the draft must be complete and load)
    draft "$tmp/conv.cu" "$1" 0 --grid 1 --block 32 --length in=32 --length out=96 \
        --length u=32 --length a=32 --length b=64 --length d=32 --length q=65 --length x=32 \
        --length y=96 || return
    work_is "$1" "$2"
}

# The clamp in double: the float widened (one 64-bit conversion), fmax and fmin (two FP64
# instructions, 0.0 and 1.0 are literals), the result narrowed for the store (another).
check clamp_double '  <work>
    <load array="in" index="threadIdx.x"/>
    <flops count="2" precision="fp64" fused="false"/>
    <instructions pipe="conversion64" count="2"/>
    <store array="out" index="threadIdx.x"/>
  </work>'
# The PMPP book's clamp, min(max(x, 0.0), 1.0) of a float: CUDA's mixed max(float, double)
# (a call to the float or double one would be ambiguous) widens the float inside (one 64-bit
# conversion), then max and min in double and the narrowing for the store, as clamp_double;
# max of two floats one FP32 instruction; min(int, unsigned), CUDA's unsigned one, no FLOP,
# and its store into a float one conversion.
check clamp_mixed '  <work>
    <load array="in" index="threadIdx.x"/>
    <flops count="2" precision="fp64" fused="false"/>
    <instructions pipe="conversion64" count="2"/>
    <store array="out" index="threadIdx.x"/>
    <load array="in" index="threadIdx.x"/>
    <flops count="1" fused="false"/>
    <store array="out" index="threadIdx.x + 32"/>
    <load array="u" index="threadIdx.x"/>
    <instructions pipe="conversion" count="1"/>
    <store array="out" index="threadIdx.x + 64"/>
  </work>'
# a[i] * s + 2: the int converted to float (the conversion pipe), an FMA, the literal 2
# folded; b[i] * 0.5 in double: a 64-bit conversion and a multiply alone; (long long)b[i]: a
# 64-bit conversion; (float)i / 3.0f: a conversion and a division; q[i + 32] = a[i]: int to
# long long, no conversion; bool t = b[i] and its store: a compare and an integer widening,
# no conversion.
check kinds '  <work>
    <load array="a" index="threadIdx.x"/>
    <flops count="2"/>
    <instructions pipe="conversion" count="1"/>
    <store array="b" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <flops count="1" precision="fp64" fused="false"/>
    <instructions pipe="conversion64" count="1"/>
    <store array="d" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <instructions pipe="conversion64" count="1"/>
    <store array="q" index="threadIdx.x"/>
    <flops count="1"/>
    <instructions pipe="conversion" count="1"/>
    <store array="b" index="threadIdx.x + 32"/>
    <load array="a" index="threadIdx.x"/>
    <store array="q" index="threadIdx.x + 32"/>
    <load array="b" index="threadIdx.x"/>
    <store array="q" index="threadIdx.x + 33"/>
  </work>'

# The conversion intrinsics are conversions too: of a value read and of an index, one each;
# of a literal, none. The two adds are alone.
check intrinsics '  <work>
    <load array="a" index="threadIdx.x"/>
    <flops count="2" fused="false"/>
    <instructions pipe="conversion" count="2"/>
    <store array="b" index="threadIdx.x"/>
  </work>'
# __sinf + rsqrtf: a FLOP each (fused, the calls' convention) and two special-function
# instructions, the add alone; exp2f one of each, __log2f of a literal folded, the multiply
# alone; expf a FLOP and no instruction. rsqrtf must be declared for the draft to load.
check sfu '  <work>
    <load array="x" index="threadIdx.x"/>
    <flops count="2"/>
    <flops count="1" fused="false"/>
    <instructions pipe="special" count="2"/>
    <store array="y" index="threadIdx.x"/>
    <load array="x" index="threadIdx.x"/>
    <flops count="1"/>
    <flops count="1" fused="false"/>
    <instructions pipe="special" count="1"/>
    <store array="y" index="threadIdx.x + 32"/>
    <load array="x" index="threadIdx.x"/>
    <flops count="1"/>
    <store array="y" index="threadIdx.x + 64"/>
  </work>'

exit $fail
