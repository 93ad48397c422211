#!/bin/sh
# unroll.sh [NVCC]: compiles unroll.cu to PTX (-O3, sm_75; no GPU needed) and checks how many
# global loads each kernel holds against what refine.c's unrolled_trips assumes (docs/inputs.md,
# "Unrolling"): 5 = four unrolled copies and the remainder loop's one, 1 = not unrolled, 64 = in
# full. Prints each kernel's count; exits 1 when one differs. Not run by ctest (CI has no nvcc):
# run it when nvcc changes, as docs/architectures.md (item 9) records.
set -u
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${1:-${NVCC:-nvcc}}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -O3 -arch=sm_75 -ptx "$here/unroll.cu" -o "$tmp/unroll.ptx" || exit 3
"$NVCC" --version | tail -1
fail=0
while read -r kernel want; do
    # the entry's mangled name: _Z, the name's length, the name
    got=$(awk -v k="$kernel" '/^\.visible \.entry/ { on = index($0, "_Z" length(k) k) > 0 } on' \
              "$tmp/unroll.ptx" | grep -c 'ld\.global')
    printf '%-26s %3d global loads (want %d)\n' "$kernel" "$got" "$want"
    [ "$got" -eq "$want" ] || fail=1
done <<'LIST'
runtime_bound 5
runtime_bound_guarded 5
known_64 64
block_stride 1
block_stride_known_bound 1
grid_stride 1
signed_step_16 5
unsigned_step_16 1
size_t_step_1 5
outer_of_known 33
tiled_with_barriers 2
shift_loop 1
LIST
exit $fail
