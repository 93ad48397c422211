#!/bin/sh
# part_line.sh [NVCC [PTXAS [CUOBJDUMP]]]: whether the stores of OpenCL-Benchmark's misaligned
# write stay 4-byte stores (part_line.cu, part_line.cl). Compiles part_line.cu to PTX with NVCC
# (sm_75; no GPU needed), assembles it for sm_75 with PTXAS and counts the kernel's global
# stores in the disassembly by CUOBJDUMP; where clang is on PATH (CLANG), also compiles
# part_line.cl for clang's NVPTX OpenCL target and counts the PTX stores. Each must show 16
# 32-bit stores and no wider one: then each warp store writes 4 bytes in each of 32 sectors,
# two in each of 16 lines, as src/model/arch.c's part-line figures take it (NVIDIA's OpenCL
# compiler, which timed the benchmark, is not here; both compilers here keep the stores apart).
# Exits 1 otherwise. Not run by ctest (CI has no CUDA toolkit).
. "$(dirname "$0")/toolkit.sh"
sass_for "$here/part_line.cu" "$tmp/p75.sass"
fail=0
narrow=$(grep -c '[[:space:]]STG\.E\(\.SYS\)\?[[:space:]]' "$tmp/p75.sass")
wide=$(grep -c '[[:space:]]STG\.E\.\(64\|128\)' "$tmp/p75.sass")
printf 'nvcc, sm_75 SASS: %s 32-bit stores, %s wider\n' "$narrow" "$wide"
[ "$narrow" -eq 16 ] && [ "$wide" -eq 0 ] || fail=1
CLANG=${CLANG:-clang}
if command -v "$CLANG" >/dev/null 2>&1; then
    "$CLANG" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -O3 -S -o "$tmp/cl.ptx" \
        "$here/part_line.cl" || exit 3
    narrow=$(grep -c 'st\.global\.\(u32\|f32\|b32\)' "$tmp/cl.ptx")
    wide=$(grep -c 'st\.global\.v[24]' "$tmp/cl.ptx")
    printf '%s, OpenCL C to PTX: %s 32-bit stores, %s wider\n' \
        "$("$CLANG" --version | head -1)" "$narrow" "$wide"
    [ "$narrow" -eq 16 ] && [ "$wide" -eq 0 ] || fail=1
fi
exit $fail
