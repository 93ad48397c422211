#!/bin/sh
# barrier.sh ROOFCAST SOURCE_DIR
# __syncthreads() and its counting forms, and a cooperative group's sync() on a thread block,
# are drafted <barrier/> where the code waits, after what the statement computes before it
# (docs/import.md, "Barriers"); __syncwarp() and a tile's sync() are not a block's barrier,
# and a grid's sync() is an unknown. Each kernel's work is compared with the expected
# statements, in order.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/bar.cu" <<'CU'
__global__ void tree(const float *in, float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
__global__ void counted(const float *in, int *out)
{
    int n = __syncthreads_count(in[threadIdx.x] > 0.f);
    out[threadIdx.x] = n;
}
__global__ void warp_only(float *x)
{
    x[threadIdx.x] = 1.f;
    __syncwarp();
}
__global__ void groups(float *x)
{
    namespace cg = cooperative_groups;
    cg::thread_block cta = cg::this_thread_block();
    x[threadIdx.x] = 1.f;
    cg::sync(cta);
    cta.sync();
    x[threadIdx.x] = 2.f;
}
__global__ void grid_wide(float *x)
{
    x[threadIdx.x] = 1.f;
    cooperative_groups::sync(cooperative_groups::this_grid());
}
CU

work_is() { # KERNEL EXPECTED-WORK (the statements' opening tags, one per line)
    draft "$tmp/bar.cu" "$1" 0 --grid 4 --block 256 --length in=1024 --length out=1024 \
        --length x=256 || return
    got=$(sed -n '/<work>/,/<\/work>/p' "$tmp/d/$name.xml" | grep -o '<[a-z][^>]*>' |
          grep -v '^<work>$')
    if [ "$got" != "$2" ]; then
        printf 'FAIL: %s: the work is\n%s\nexpected\n%s\n' "$1" "$got" "$2" >&2
        fail=1
    fi
}

# The store to shared memory, then the barrier; one in each trip of the tree's loop (the
# compound assignment reads its right side first; its add is never part of an FMA).
work_is tree '<load array="in" index="blockIdx.x * 256 + threadIdx.x"/>
<store array="s" index="threadIdx.x"/>
<barrier/>
<loop var="st" from="128" while="st &gt; 0" step="&gt;&gt;= 1">
<when test="threadIdx.x &lt; st">
<load array="s" index="threadIdx.x + st"/>
<load array="s" index="threadIdx.x"/>
<flops count="1" fused="false"/>
<store array="s" index="threadIdx.x"/>
<barrier/>
<when test="threadIdx.x == 0">
<load array="s" index="0"/>
<store array="out" index="blockIdx.x"/>'
# The predicate's load comes before the barrier that counts it.
work_is counted '<load array="in" index="threadIdx.x"/>
<barrier/>
<store array="out" index="threadIdx.x"/>'
# A warp's barrier holds no block.
work_is warp_only '<store array="x" index="threadIdx.x"/>'
# A thread block's sync(), called either way, is one.
work_is groups '<store array="x" index="threadIdx.x"/>
<barrier/>
<barrier/>
<store array="x" index="threadIdx.x"/>'
# A grid's barrier is none the model has: an unknown, and the draft is refused.
draft "$tmp/bar.cu" grid_wide 1 --grid 4 --block 256 --length x=256
grep -q "the barrier of a cooperative group that is not a thread block or a tile of one" \
    "$tmp/err" || { echo "FAIL: grid_wide: no unknown for grid.sync()" >&2; cat "$tmp/err" >&2; fail=1; }

exit $fail
