#!/bin/sh
# issue.sh [NVCC [PTXAS [CUOBJDUMP]]]: the SASS instructions of the loops of issue.cu's kernels,
# which the model counts only in part (docs/architectures.md, "What would change the model
# most", 21). Compiles issue.cu to PTX with NVCC (no GPU needed), assembles it for sm_75 and
# sm_86 with PTXAS (toolkit.sh), and for each loop of each kernel (a backward branch and the
# instructions from its target to it) prints its length and its loads, FP32 arithmetic and
# special-function instructions. Exits 1 when a count differs from what the document records.
# Not run by ctest (CI has no CUDA toolkit).
. "$(dirname "$0")/toolkit.sh"
ptx_for "$here/issue.cu" sm_75 "$tmp/i.ptx"
"$PTXAS" --version | tail -1
fail=0
for arch in 75 86; do
    "$PTXAS" -arch="sm_$arch" -O3 -o "$tmp/i$arch.cubin" "$tmp/i.ptx" || exit 3
    "$CUOBJDUMP" -sass "$tmp/i$arch.cubin" >"$tmp/i$arch.sass" || exit 3
    # One line per loop: kernel, first and last address, instructions, LDG, LDC, FP32 (FADD,
    # FMUL, FFMA), MUFU.
    awk -v arch="$arch" '
        function hex(h,   v, i) {
            v = 0
            for (i = 1; i <= length(h); i++)
                v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
            return v
        }
        /Function : / { fn = $NF; n = 0; next }
        $1 ~ /^\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\/$/ {
            a = hex(substr($1, 3, 4))
            op = $0; sub(/^ *\/\*[0-9a-f]*\*\/ */, "", op); sub(/ *;.*$/, "", op)
            n++; at[n] = a; ins[n] = op
            if (op ~ /BRA 0x[0-9a-f]+$/) {
                t = hex(substr(op, index(op, "0x") + 2))
                if (t < a) {
                    c = 0; ldg = 0; ldc = 0; fp = 0; mufu = 0
                    for (j = 1; j <= n; j++) if (at[j] >= t) {
                        c++
                        if (ins[j] ~ /LDG/) ldg++
                        if (ins[j] ~ /(^| )LDC/) ldc++
                        if (ins[j] ~ /(^| )(FADD|FMUL|FFMA)/) fp++
                        if (ins[j] ~ /MUFU/) mufu++
                    }
                    printf "sm_%s %s 0x%04x-0x%04x %d LDG=%d LDC=%d FP32=%d MUFU=%d\n", \
                        arch, fn, t, a, c, ldg, ldc, fp, mufu
                }
            }
        }' "$tmp/i$arch.sass"
done >"$tmp/loops"
cat "$tmp/loops"
# The loops the document counts from: the shortest loop of each kernel that holds FP32
# arithmetic, the convolutions' tap loop unrolled four times and the square-root loop.
while read -r arch kernel want; do
    [ -n "$arch" ] || continue
    got=$(awk -v a="sm_$arch" -v k="$kernel" '$1 == a && index($2, k) && $7 != "FP32=0" {
              print $4, $5, $6, $7, $8 }' "$tmp/loops" | sort -n | head -1)
    printf 'sm_%s %s: %s (want %s)\n' "$arch" "$kernel" "$got" "$want"
    [ "$got" = "$want" ] || fail=1
done <<'LIST'
75 conv2d_naive 45 LDG=8 LDC=0 FP32=4 MUFU=0
75 conv2d_constant 42 LDG=4 LDC=4 FP32=4 MUFU=0
75 sqrt_count 19 LDG=0 LDC=0 FP32=5 MUFU=1
86 conv2d_naive 45 LDG=8 LDC=0 FP32=4 MUFU=0
86 conv2d_constant 42 LDG=4 LDC=4 FP32=4 MUFU=0
86 sqrt_count 17 LDG=0 LDC=0 FP32=5 MUFU=1
LIST
exit $fail
