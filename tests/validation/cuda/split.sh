#!/bin/sh
# split.sh [NVCC [PTXAS [CUOBJDUMP]]]: what ptxas makes of a float4 load of which only .x and .w
# are used (split.cu, the shape of the TU102 table's 128-bit streams). Compiles split.cu to PTX
# with NVCC (sm_75; no GPU needed), assembles it for sm_75 with PTXAS and counts, in each
# kernel's disassembly by CUOBJDUMP, its shared or global loads: two 32-bit loads 12 B apart
# (no offset and +0xc) for each float4, none 128-bit. Each lane then steps 16 B, four bank
# passes a load, 32 B a clock at Turing's two clocks a pass (docs/architectures.md item 22,
# test_refine test_turing_bank_passes). Prints a line per kernel; exits 1 when the loads are
# not so split. Not run by ctest (CI has no CUDA toolkit).
. "$(dirname "$0")/toolkit.sh"
sass_for "$here/split.cu" "$tmp/s75.sass"
fail=0
while read -r kernel op; do
    counts=$(awk -v k="$kernel" -v op="$op" '
        /Function :/ { on = index($0, "_Z" length(k) k) > 0 }
        on && $0 ~ "[[:space:]]" op "[.[:space:]]" {
            if ($0 ~ /\.128/) wide++
            else if ($0 ~ /\+0xc\]/) twelve++
            else if ($0 ~ /\+0x[0-9a-f]+\]/) other++
            else plain++
        }
        END { printf "%d %d %d %d", plain, twelve, wide, other }' "$tmp/s75.sass")
    # shellcheck disable=SC2086 # counts is a list of words
    set -- $counts
    printf 'sm_75 %-10s %s: %s at +0, %s at +12, %s 128-bit, %s at other offsets\n' "$kernel" \
        "$op" "$1" "$2" "$3" "$4"
    [ "$1" -ge 8 ] && [ "$1" -eq "$2" ] && [ "$3" -eq 0 ] && [ "$4" -eq 0 ] || fail=1
done <<'LIST'
shared_xw LDS
global_xw LDG
LIST
exit $fail
