#!/bin/sh
# atomic_operand.sh ROOFCAST SOURCE_DIR
# An atomic's operand (docs/import.md, the table of what becomes what): a constant (1, 1u,
# 2.0f) or an integer the same in every lane of a warp (blockIdx.x, a param, a let or loop
# variable made of those) leaves the <atomic> uniform, which nvcc combines per warp; any other
# operand (a value read from memory, anything mentioning threadIdx), and every
# compare-and-swap and exchange, makes it operand="per-lane", whose lanes on one address
# follow one another (docs/model.md, atomics). Each kernel's <work> is compared whole.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/atomics.cu" <<'CU'
__global__ void counters(int *c, unsigned *u, float *f)
{
    atomicAdd(c, 1);
    atomicAdd(&u[threadIdx.x], 1u);
    atomicAdd(f, 2.0f);
    atomicSub(c + 1, -3);
}
__global__ void per_lane(const float *x, float *acc, int *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(acc, x[i]);
    atomicMax(c, i);
    atomicAdd(c + 1, blockIdx.x);
    atomicCAS(c + 2, 0, 1);
    atomicExch(c + 3, 7);
}
__global__ void uniform(const float *x, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = blockIdx.x * 2 + n;
    int j = i / 32;
    atomicAdd(&c[0], blockIdx.x);
    atomicAdd(&c[0], n);
    atomicAdd(&c[1], b);
    atomicAdd(&c[1], j);
    atomicCAS(&c[2], 0, n);
    for (int k = 0; k < n; k++)
        atomicAdd(&c[3], k + b);
    for (int k = threadIdx.x; k < n; k += blockDim.x)
        atomicAdd(&c[3], k);
}
CU

check() { # KERNEL EXPECTED-WORK (the draft must be complete and load)
    draft "$tmp/atomics.cu" "$1" 0 --grid 2 --block 32 --length x=64 --length acc=1 \
        --length c=4 --length u=32 --length f=1 --param n=64 || return
    work_is "$1" "$2"
}

check counters '  <work>
    <atomic array="c" index="0"/>
    <atomic array="u" index="threadIdx.x"/>
    <atomic array="f" index="0"/>
    <atomic array="c" index="1"/>
  </work>'
# x[i] and i differ from lane to lane; blockIdx.x does not (uniform); CAS and Exch per-lane
check per_lane '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="x" index="i"/>
    <atomic array="acc" index="0" operand="per-lane"/>
    <atomic array="c" index="0" operand="per-lane"/>
    <atomic array="c" index="1"/>
    <atomic array="c" index="2" operand="per-lane"/>
    <atomic array="c" index="3" operand="per-lane"/>
  </work>'
# uniform without being constant: blockIdx.x, the param n, the let b of both, a loop
# variable from 0 (and k + b); per-lane: j (from i, which mentions threadIdx), a loop variable
# starting at threadIdx.x, and a compare-and-swap whatever its operand
check uniform '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <let name="b" value="blockIdx.x * 2 + n"/>
    <let name="j" value="i / 32"/>
    <atomic array="c" index="0"/>
    <atomic array="c" index="0"/>
    <atomic array="c" index="1"/>
    <atomic array="c" index="1" operand="per-lane"/>
    <atomic array="c" index="2" operand="per-lane"/>
    <loop var="k" from="0" to="n">
      <atomic array="c" index="3"/>
    </loop>
    <loop var="k_2" from="threadIdx.x" to="n" step="blockDim.x">
      <atomic array="c" index="3" operand="per-lane"/>
    </loop>
  </work>'

exit $fail
