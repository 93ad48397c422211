#!/bin/sh
# import.sh [BUILD_DIR]: how long `roofcast import` takes on a 2,000-line CUDA file (issue 32's
# target: under 2 s). The file is generated: tests/validation/cuda/harness.cuh's includes (the
# runtime, <vector>, <string>, <algorithm>, ...) and 2,000 lines of kernels, each a copy of
# validation.cu's conv2d or sgemm_tiled (16 x 16 tiles) under its own name. Two runs: every
# kernel (one draft each, counted at a small launch), and one kernel (--kernel), which shows
# what the parse alone costs. Wall and CPU time are printed, never asserted.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
roofcast=$build/roofcast
[ -x "$roofcast" ] || { echo "import.sh: build $roofcast first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/big.cu
cp tests/validation/cuda/harness.cuh "$tmp/"
: >"$src.part"
i=0
while [ "$(wc -l <"$src.part")" -lt 1990 ]; do
    i=$((i + 1))
    sed "s/_KERNEL_/$i/g" >>"$src.part" <<'CU'
__global__ void conv__KERNEL_(const float *in, const float *filt, float *out, int w, int h, int k)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int win = w + k - 1;
    float sum = 0.f;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            sum += filt[i * k + j] * in[(y + i) * win + (x + j)];
    out[y * w + x] = sum;
}

__global__ void sgemm__KERNEL_(const float *A, const float *B, float *C, int w)
{
    __shared__ float As[16][16], Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float sum = 0.f;
    for (int t = 0; t < w; t += 16) {
        As[ty][tx] = A[row * w + t + tx];
        Bs[ty][tx] = B[(t + ty) * w + col];
        __syncthreads();
        for (int k = 0; k < 16; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * w + col] = sum;
}

CU
done
{
    echo '#include "harness.cuh"'
    cat "$src.part"
    echo 'int main() { return 0; }'
} >"$src"
lines=$(wc -l <"$src")
kernels=$(grep -c '__global__' "$src")
echo "machine: $(nproc) processors, load average $(cut -d " " -f 1-3 /proc/loadavg) (wall time counts the other processes; user + sys is this one)"
echo "file: $lines lines, $kernels kernels, plus harness.cuh and the C++ library it includes"
run() { # LABEL ARGS...
    label=$1
    shift
    rm -rf "$tmp/out"
    start=$(date +%s.%N)
    /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$roofcast" import "$src" -o "$tmp/out" "$@" \
        >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    end=$(date +%s.%N)
    set -- $(cat "$tmp/time")
    printf '%-28s wall %.2f s, user %s s, sys %s s, peak %d MiB, %d drafts\n' "$label" \
        "$(echo "$end - $start" | bc)" "$1" "$2" $(($3 / 1024)) "$(ls "$tmp/out" | wc -l)"
}
run "every kernel" --grid 4,4 --block 16,16 --param w=64 --param h=64 --param k=3
run "one kernel (--kernel)" --kernel sgemm_1 --grid 4,4 --block 16,16 --param w=64
