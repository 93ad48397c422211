#!/bin/sh
# Build and run the measurements of tests/validation/measured/ on a CUDA GPU.
#
#   tests/validation/cuda/run.sh build BIN_DIR          compile roofbench into BIN_DIR (needs nvcc)
#   tests/validation/cuda/run.sh run BIN_DIR OUT_DIR [SECTION...]
#                                                       run every section (or those named), each as
#                                                       its own process, into OUT_DIR/results.csv
#
# run also writes OUT_DIR/info.txt (roofbench --info, nvidia-smi -q before and after),
# OUT_DIR/clocks.csv (nvidia-smi sampled every 100 ms during the run) and OUT_DIR/sections.txt
# (each section's exit status and wall time). It changes no setting of the GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc

usage() {
    echo "usage: $0 build BIN_DIR | run BIN_DIR OUT_DIR [SECTION...]" >&2
    exit 2
}

[ $# -ge 2 ] || usage
verb=$1
bin=$2
shift 2

case $verb in
build)
    mkdir -p "$bin" || exit 3
    # -Xptxas -v: registers and shared memory per kernel, for the models' <resources>
    "$NVCC" -O3 -std=c++17 -arch=sm_90 -lineinfo -Xptxas -v -o "$bin/roofbench" \
        "$here/main.cu" "$here/bundled.cu" "$here/validation.cu" "$here/micro.cu" "$here/gaps.cu" \
        "$here/gaps_memory.cu" "$here/gaps_issue.cu" \
        >"$bin/ptxas.txt" 2>&1
    status=$?
    [ $status -eq 0 ] || { cat "$bin/ptxas.txt" >&2; exit $status; }
    echo "built $bin/roofbench (ptxas report in $bin/ptxas.txt)"
    ;;
run)
    [ $# -ge 1 ] || usage
    out=$1
    shift
    mkdir -p "$out" || exit 3
    rb="$bin/roofbench"
    [ -x "$rb" ] || { echo "$0: $rb is missing: run '$0 build $bin' first" >&2; exit 2; }
    sections=${*:-$("$rb" --list)}
    {
        echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        "$rb" --info
        echo
        nvidia-smi -q 2>&1
    } >"$out/info.txt"
    sampler=
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw,temperature.gpu \
            --format=csv,nounits -lms 100 >"$out/clocks.csv" 2>&1 &
        sampler=$!
    fi
    [ -f "$out/results.csv" ] || "$rb" --header >"$out/results.csv"
    : >>"$out/sections.txt"
    for s in $sections; do
        t0=$(date +%s)
        timeout 300 "$rb" "$s" "$out/results.csv"
        status=$?
        echo "$s exit=$status wall_s=$(($(date +%s) - t0))" >>"$out/sections.txt"
    done
    [ -z "$sampler" ] || kill "$sampler"
    { echo; echo "==== after the run: $(date -u '+%H:%M:%S UTC')"; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE 2>&1; } >>"$out/info.txt"
    cat "$out/sections.txt"
    ;;
*)
    usage
    ;;
esac
