#!/bin/sh
# dependent.sh ROOFCAST SOURCE_DIR
# Loops drafted <loop dependent="true"> (docs/import.md, "Dependent chains"): a loop whose body
# touches no memory (no subscript, dereference, arrow or call), holds no loop of its own, and
# assigns one floating-point variable declared outside it, always from itself (s += x, a++,
# s = s * t + u). Each kernel's loop tags are compared with the expected ones, in order.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/dep.cu" <<'CU'
__global__ void count_up(float *x, int n)
{
    float a = 0;
    for (int m = 0; m < 1000; ++m)
        a++;
    x[threadIdx.x] = a;
}
__global__ void series(float *x)
{
    float s = 0.f;
    for (int t = 0; t < 128; ++t)
        s += 0.0001f * t;
    float p = 1.f;
    for (int t = 0; t < 16; ++t)
        p = p * 0.5f + 1.f;
    x[threadIdx.x] = s + p;
}
__global__ void chains(float *x)
{
    float a0 = 1, a1 = 2, a2 = 3, a3 = 4;
    for (int k = 0; k < 64; ++k) {
        a0 = a0 * 1.1f + 0.5f;
        a1 = a1 * 1.1f + 0.5f;
        a2 = a2 * 1.1f + 0.5f;
        a3 = a3 * 1.1f + 0.5f;
    }
    x[threadIdx.x] = a0 + a1 + a2 + a3;
}
__global__ void dot(const float *a, const float *b, float *out)
{
    float acc = 0;
    for (int k = 0; k < 32; ++k)
        acc += a[k] * b[k];
    out[threadIdx.x] = acc;
}
__global__ void reset(float *x)
{
    float s = 0;
    for (int k = 0; k < 8; ++k)
        s = 2.f;
    x[threadIdx.x] = s;
}
__global__ void nested(float *x)
{
    float s = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j)
            s += 1.f;
    x[threadIdx.x] = s;
}
__global__ void synced(float *x)
{
    float s = 0;
    for (int k = 0; k < 8; ++k) {
        s += 1.f;
        __syncthreads();
    }
    x[threadIdx.x] = s;
}
CU

loops_are() { # KERNEL EXPECTED-LOOP-TAGS (one per line)
    draft "$tmp/dep.cu" "$1" 0 --grid 1 --block 32 --param n=32 --length x=32 \
        --length a=32 --length b=32 --length out=32 || return
    got=$(grep -o '<loop [^>]*>' "$tmp/d/$name.xml")
    if [ "$got" != "$2" ]; then
        printf 'FAIL: %s: the loops are\n%s\nexpected\n%s\n' "$1" "$got" "$2" >&2
        fail=1
    fi
}

# a++ on a float, 1,000 times: each add needs the last (the K40c's and P100's `arithmetic`).
loops_are count_up '<loop var="m" from="0" to="1000" dependent="true">'
# s += 0.0001f * t and p = p * 0.5f + 1.f: one accumulator each.
loops_are series '<loop var="t" from="0" to="128" dependent="true">
<loop var="t_2" from="0" to="16" dependent="true">'
# Four accumulators are four independent chains: not one.
loops_are chains '<loop var="k" from="0" to="64">'
# An accumulator over independent loads: the loads are off the chain (docs/inputs.md).
loops_are dot '<loop var="k" from="0" to="32">'
# s = 2.f does not read s: no chain.
loops_are reset '<loop var="k" from="0" to="8">'
# Only the loop that carries the chain: the outer one holds a loop.
loops_are nested '<loop var="i" from="0" to="4">
<loop var="j" from="0" to="8" dependent="true">'
# A call (a barrier here) may touch memory: not a chain of arithmetic alone.
loops_are synced '<loop var="k" from="0" to="8">'

exit $fail
