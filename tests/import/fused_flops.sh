#!/bin/sh
# fused_flops.sh ROOFCAST SOURCE_DIR
# FLOPs as the compiler issues them (docs/import.md, "Counting FLOPs"): a floating-point + or -
# (+= and -= too) one of whose operands is a multiply of its precision is one FMA with it,
# as nvcc contracts them by default: two FLOPs, fused (<flops count>). Every other add,
# subtract or multiply, and ++ on a float, is an instruction of its own: <flops ...
# fused="false">. Divisions and math calls are counted fused, as before. The FLOPs of a
# statement are emitted before each access, so an FMA whose add reads memory after its
# multiply shows as two fused FLOPs on either side of the load. Each kernel's <work> is
# compared whole.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/fused.cu" <<'CU'
__global__ void saxpy(const float *x, float *y, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}
__global__ void dot(const float *x, float *out, int n)
{
    float s = 0.0f, t = 0.0f;
    for (int i = 0; i < n; i++) {
        s += x[i] * x[i];
        t += x[i];
    }
    out[threadIdx.x] = s - t;
}
__global__ void alone(const float *a, const float *b, float *c, float *d)
{
    int i = threadIdx.x;
    c[i] = a[i] + b[i];
    d[i] = a[i] * b[i];
    float v = c[i];
    v++;
    d[i + 32] = v;
}
__global__ void two_products(const float *a, const float *b, const float *c, const float *d,
                             float *out)
{
    int i = threadIdx.x;
    out[i] = (a[i] * b[i]) + (c[i] * d[i]);
}
__global__ void fp64(const double *x, double *y, double a, const float *f)
{
    int i = threadIdx.x;
    y[i] -= a * x[i];
    y[i + 32] = 1.0 - x[i] * a;
    y[i + 64] = (double)(f[i] * f[i]) + x[i];
}
__global__ void div_call(const float *a, const float *b, float *out)
{
    int i = threadIdx.x;
    out[i] = a[i] / b[i] + sqrtf(a[i]);
    out[i + 32] = __fadd_rn(a[i] * b[i], a[i]);
}
template <typename T> __global__ void axpy_t(const T *x, T *y, T a)
{
    int i = threadIdx.x;
    y[i] += a * x[i];
}
CU

check() { # KERNEL EXPECTED-WORK (the draft must be complete and load)
    draft "$tmp/fused.cu" "$1" 0 --grid 1 --block 32 --param n=64 --length x=64 --length y=96 \
        --length a=32 --length b=32 --length c=32 --length d=64 --length f=32 --length out=64 ||
        return
    work_is "$1" "$2"
}

# a * x[i] + y[i]: one FMA, its multiply counted before the load of y[i], its add after
check saxpy '  <work>
    <let name="i" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <load array="x" index="i"/>
    <flops count="1"/>
    <load array="y" index="i"/>
    <flops count="1"/>
    <store array="y" index="i"/>
  </work>'
# s += x[i] * x[i]: an FMA; t += x[i] (a statement of its own: x[i] read again) and s - t:
# adds alone
check dot '  <work>
    <loop var="i" from="0" to="n">
      <load array="x" index="i"/>
      <flops count="2"/>
      <load array="x" index="i"/>
      <flops count="1" fused="false"/>
    </loop>
    <flops count="1" fused="false"/>
    <store array="out" index="threadIdx.x"/>
  </work>'
# an add, a multiply and an increment, none fused
check alone '  <work>
    <load array="a" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <flops count="1" fused="false"/>
    <store array="c" index="threadIdx.x"/>
    <load array="a" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <flops count="1" fused="false"/>
    <store array="d" index="threadIdx.x"/>
    <load array="c" index="threadIdx.x"/>
    <flops count="1" fused="false"/>
    <store array="d" index="threadIdx.x + 32"/>
  </work>'
# (a * b) + (c * d): the left multiply and the add one FMA (2 fused), the right multiply alone
check two_products '  <work>
    <load array="a" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <flops count="1"/>
    <load array="c" index="threadIdx.x"/>
    <load array="d" index="threadIdx.x"/>
    <flops count="1"/>
    <flops count="1" fused="false"/>
    <store array="out" index="threadIdx.x"/>
  </work>'
# fp64: y -= a * x and 1.0 - x * a are FMAs; a float product converted to double and added
# is a float multiply and a double add, each alone, with the conversion between them (an
# instruction on the 64-bit conversion pipe: instructions.sh)
check fp64 '  <work>
    <load array="x" index="threadIdx.x"/>
    <flops count="1" precision="fp64"/>
    <load array="y" index="threadIdx.x"/>
    <flops count="1" precision="fp64"/>
    <store array="y" index="threadIdx.x"/>
    <load array="x" index="threadIdx.x"/>
    <flops count="2" precision="fp64"/>
    <store array="y" index="threadIdx.x + 32"/>
    <load array="f" index="threadIdx.x"/>
    <flops count="1" fused="false"/>
    <instructions pipe="conversion64" count="1"/>
    <load array="x" index="threadIdx.x"/>
    <flops count="1" precision="fp64" fused="false"/>
    <store array="y" index="threadIdx.x + 64"/>
  </work>'
# a division and a math call keep their fused FLOP; the add between them is alone; so is
# __fadd_rn's add, never contracted, and the multiply its operand
check div_call '  <work>
    <load array="a" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <flops count="2"/>
    <flops count="1" fused="false"/>
    <store array="out" index="threadIdx.x"/>
    <load array="a" index="threadIdx.x"/>
    <load array="b" index="threadIdx.x"/>
    <flops count="2" fused="false"/>
    <store array="out" index="threadIdx.x + 32"/>
  </work>'
# a template's operators on dependent operands: the same FMA
check 'axpy_t<double>' '  <work>
    <load array="x" index="threadIdx.x"/>
    <flops count="1" precision="fp64"/>
    <load array="y" index="threadIdx.x"/>
    <flops count="1" precision="fp64"/>
    <store array="y" index="threadIdx.x"/>
  </work>'

exit $fail
