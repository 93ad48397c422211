#!/bin/sh
# conversion.sh [NVCC [PTXAS [CUOBJDUMP]]]: which SASS instruction a 32-bit int-to-float
# conversion (PTX cvt.rn.f32.s32) becomes on each generation. Compiles conversion.cu to PTX with
# NVCC (sm_75; no GPU needed), assembles that PTX for sm_52 to sm_90 with PTXAS and counts the
# conversion opcodes in CUOBJDUMP's disassembly. An older PTXAS (the one that knows sm_52, e.g.
# CUDA 11.8's) may not read a newer NVCC's PTX version: the script rewrites the `.version`
# line to PTX_VERSION (default 7.8), and the `.target` to sm_52 so that every architecture
# may take it (the kernel uses nothing later). Prints a line per architecture; exits 1 when an
# architecture's count of I2F and I2FP differs from what docs/architectures.md records. Not run
# by ctest (CI has no CUDA toolkit).
. "$(dirname "$0")/toolkit.sh"
ptx_for "$here/conversion.cu" sm_52 "$tmp/c78.ptx"
"$PTXAS" --version | tail -1
fail=0
while read -r arch want; do
    "$PTXAS" -arch="sm_$arch" -O3 -o "$tmp/c$arch.cubin" "$tmp/c78.ptx" || exit 3
    sass=$("$CUOBJDUMP" -sass "$tmp/c$arch.cubin") || exit 3
    i2f=$(printf '%s\n' "$sass" | grep -cE '[[:space:]]I2F(\.F32\.S32)?[[:space:]]')
    i2fp=$(printf '%s\n' "$sass" | grep -cE '[[:space:]]I2FP\.F32\.S32[[:space:]]')
    got="I2F=$i2f I2FP=$i2fp"
    printf 'sm_%s: %s (want %s)\n' "$arch" "$got" "$want"
    [ "$got" = "$want" ] || fail=1
done <<'LIST'
52 I2F=16 I2FP=0
61 I2F=16 I2FP=0
70 I2F=16 I2FP=0
75 I2F=16 I2FP=0
80 I2F=16 I2FP=0
86 I2F=0 I2FP=16
89 I2F=0 I2FP=16
90 I2F=0 I2FP=16
LIST
exit $fail
