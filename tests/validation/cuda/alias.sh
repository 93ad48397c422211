#!/bin/sh
# alias.sh [NVCC [PTXAS [CUOBJDUMP]]]: whether an unrolled loop's loads move above the stores
# of the copies before them. Compiles alias.cu to PTX with NVCC (sm_75; no GPU needed),
# assembles it for sm_75 and sm_86 with PTXAS and counts, in each kernel's disassembly by
# CUOBJDUMP, the global loads issued before its first global store: at most 3 where the next
# iteration's loads of the other array wait for the store (the first copy's two loads and the
# stored array's next one, which may come first: the same pointer at another offset), 8 or more
# where the unrolled copies' loads all come first. PTX keeps the source's order in every case;
# the reordering is ptxas's, so the check reads SASS. An older PTXAS (CUDA 11.8's, whose
# cuobjdump CUDA 13.0 lacks here) may not read a newer NVCC's PTX version: the script rewrites
# the `.version` line to PTX_VERSION (default 7.8) and the `.target` to sm_75. Prints a line per
# kernel and architecture; exits 1 when one is on the wrong side of what refine.c's
# loads_wait_for_stores assumes (docs/architectures.md item 19). Not run by ctest (CI has no
# CUDA toolkit).
. "$(dirname "$0")/toolkit.sh"
ptx_for "$here/alias.cu" sm_75 "$tmp/a78.ptx"
"$NVCC" --version | tail -1
"$PTXAS" --version | tail -1
fail=0
for arch in 75 86; do
    "$PTXAS" -arch="sm_$arch" -O3 -o "$tmp/a$arch.cubin" "$tmp/a78.ptx" || exit 3
    "$CUOBJDUMP" -sass "$tmp/a$arch.cubin" >"$tmp/a$arch.sass" || exit 3
    while read -r kernel side; do
        # the loads before the first store of the function whose mangled name holds the kernel's
        got=$(awk -v k="$kernel" '
            /Function :/ { on = index($0, "_Z" length(k) k) > 0; n = 0; done = 0 }
            on && !done && /[[:space:]]STG/ { done = 1; print n }
            on && !done && /[[:space:]]LDG/ { n++ }' "$tmp/a$arch.sass")
        if [ "$side" = waits ]; then [ "${got:-99}" -le 3 ]; else [ "${got:-0}" -ge 8 ]; fi ||
            fail=1
        printf 'sm_%s %-20s %3s loads before the first store (want: %s)\n' "$arch" "$kernel" \
            "${got:-none}" "$side"
    done <<'LIST'
add_plain waits
add_restrict first
copy_const waits
copy_const_restrict first
store_restrict first
scale_inplace first
LIST
done
exit $fail
