#!/bin/sh
# instructions.sh [BUILD_DIR] [COUNT]: the work of a full run counted in
# instructions, which do not move from one run to the next as wall and CPU
# times do on a shared machine (a third, on the 2-core CI kind).
#
# Generates COUNT synthetic kernels (default 20; tests/bench/gen_kernels.c),
# reports them on every bundled GPU in every format with one worker under
# valgrind's callgrind, and prints the instructions per kernel in all and
# in the functions that stand for the stages, each counted with what it
# calls (evaluation, small since 423498a, is not listed: `roofcast
# --timings` gives it). Compare two commits with the same COUNT: the
# kernels are the same for the same COUNT. Slow (about 50 times a plain
# run): 20 kernels take about a minute. Never asserted.
set -eu
build=${1:-build}
count=${2:-20}
cd "$(dirname "$0")/../.."
roofcast=$build/roofcast
gen=$build/tests/gen_kernels
[ -x "$roofcast" ] && [ -x "$gen" ] ||
    { echo "instructions.sh: $gen is missing: build with the tests first (tests/run-all.sh $build)" >&2; exit 1; }
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
    { echo "instructions.sh: valgrind and callgrind_annotate are needed (apt-get install valgrind)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/k"
"$gen" "$count" "$tmp/k"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
    "$roofcast" -q -j 1 -o "$tmp/o" "$tmp/k" > /dev/null 2> "$tmp/log" ||
    { cat "$tmp/log" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" > "$tmp/a"
echo "$count kernels, the bundled GPUs, every format, -j 1, $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "millions of instructions per kernel (each function with what it calls):"
# what, the function callgrind names (a stage's entry point)
while read -r what fn; do
    awk -v fn="$fn" -v what="$what" -v n="$count" '
        $0 ~ "[?][?][?]:" fn " \\[" || (fn == "TOTAL" && /PROGRAM TOTALS/) {
            gsub(",", "", $1); printf "  %-22s %8.1f\n", what, $1 / n / 1e6; exit }' "$tmp/a"
done <<EOF
all TOTAL
results-tree rc_results_add_kernel
gpus-of-each-tree rc_results_new
markdown rc_render_template
html rc_render_html
svg+png rc_render_chart_paint
png-encoding rc_png_encoder_encode
pdf rc_render_pdf_kernel
overviews run_render_overviews
EOF
