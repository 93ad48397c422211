#!/bin/sh
# runtime.sh ROOFCAST SOURCE_DIR
# What a draft says nvcc does not know when it compiles the kernel (docs/import.md, "Params
# and loops nvcc cannot unroll"): a param named after one of the kernel's parameters, given
# on the command line or read off the launch site, is <param runtime="yes">; a template
# argument is not; a loop whose variable is unsigned (unsigned, size_t) is
# <loop unsigned="true">, a signed one has no such attribute.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/rt.cu" <<'CU'
template <int TILE>
__global__ void sums(const float *a, float *out, int n, unsigned m)
{
    float s = 0;
    for (int i = threadIdx.x; i < n; i += TILE)
        s += a[i];
    for (unsigned j = threadIdx.x; j < m; j += 32)
        s += a[j];
    for (size_t k = 0; k < (size_t)n; ++k)
        s += a[k];
    out[threadIdx.x] = s;
}
void host(const float *a, float *out)
{
    sums<64><<<1, 64>>>(a, out, 4096, 1024);
}
CU

draft "$tmp/rt.cu" 'sums<64>' 0 --param m=512 --length a=4096 --length out=64 || exit 1
got=$(grep -o '<param [^>]*>' "$tmp/d/$name.xml")
want='<param name="m" value="512" runtime="yes"/>
<param name="n" value="4096" runtime="yes"/>
<param name="TILE" value="64" note="template argument"/>'
if [ "$got" != "$want" ]; then
    printf 'FAIL: the params are\n%s\nexpected\n%s\n' "$got" "$want" >&2
    fail=1
fi
got=$(grep -o '<loop [^>]*>' "$tmp/d/$name.xml")
want='<loop var="i" from="threadIdx.x" to="n" step="TILE">
<loop var="j" from="threadIdx.x" to="m" step="32" unsigned="true">
<loop var="k" from="0" to="n" unsigned="true">'
if [ "$got" != "$want" ]; then
    printf 'FAIL: the loops are\n%s\nexpected\n%s\n' "$got" "$want" >&2
    fail=1
fi
exit $fail
