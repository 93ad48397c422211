#!/bin/sh
# validation.sh ROOFCAST SOURCE_DIR [all [KEEP_DIR]]
# Imports every kernel of tests/validation/cuda/validation.cu with the launch
# of its hand model in tests/validation/kernels, and prints, per model, the
# counts of the hand model and of the draft side by side: FLOPs, accessed,
# sector and footprint bytes, shared wavefronts. Without `all`, the smallest
# size of each kernel (the ctest); with it, every measured size (the table in
# docs/import.md). Fails when a complete draft's counts differ from its hand
# model's by more than 1 %, or a draft expected complete has unknowns.
# The histograms' bins depend on the data: their drafts have one unknown
# each (the bin index), which this script replaces with the hand model's
# assumption before counting, and says so: element i in bin i * 97 % 256 for
# the global histogram (a warp's 32 bins spread over the 8 lines, as random
# values nearly are), i % 256 for the shared one (the same banks either way).
# With KEEP_DIR, each draft is kept there as ID.xml, ID its hand model's id
# (validate_drafts.sh runs the validation table on them).
set -u
bin=$1
src=$2
all=${3:-}
keep=${4:-}
cu=$src/tests/validation/cuda/validation.cu
models=$src/tests/validation/kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

counts() { # results.xml -> "flops accessed sector footprint wavefronts"
    f=$(grep -o '<flops total="[0-9]*"' "$1" | head -1 | grep -o '[0-9]*')
    m=$(grep -o '<memory requests=[^>]*' "$1" | head -1)
    get() { printf '%s\n' "$m" | grep -o " $1=\"[0-9]*\"" | grep -o '[0-9]*'; }
    echo "$f $(get accessed-bytes) $(get sector-bytes) $(get footprint-bytes) $(get shared-wavefronts)"
}

run_counts() { # kernel.xml -> counts
    rm -rf "$tmp/o"
    "$bin" -q -f xml --gpu h100-sxm5 -s "$src/specs" -o "$tmp/o" "$1" >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; echo "- - - - -"; return; }
    counts "$tmp/o/results.xml"
}

printf '| model | FLOPs (hand / draft) | accessed B | sector B | footprint B | shared wavefronts | draft |\n'
printf '| --- | --- | --- | --- | --- | --- | --- |\n'
for model in "$models"/*.xml; do
    id=$(basename "$model" .xml)
    num() { printf '%s\n' "$id" | sed -n "s/.*-$1\([0-9]*\).*/\1/p"; }
    n=$(num N)
    case $id in
    vector_copy*) args="--kernel vcopy --grid (n+255)/256 --block 256 --param n=$n"; small=1024 ;;
    triad*) args="--kernel triad --grid (n+255)/256 --block 256 --param n=$n"; small=1024 ;;
    strided_copy*) args="--kernel strided_copy --grid (n+255)/256 --block 256 --param n=$n --param stride=$(num stride)"; small=$n ;;
    transpose_naive*) args="--kernel transpose_naive --grid n/32,n/32 --block 32,8 --param n=$n"; small=1024 ;;
    transpose_tiled_padded*) args="--kernel transpose_tiled<1> --grid n/32,n/32 --block 32,8 --param n=$n"; small=1024 ;;
    transpose_tiled*) args="--kernel transpose_tiled<0> --grid n/32,n/32 --block 32,8 --param n=$n"; small=1024 ;;
    matmul_naive*) args="--kernel matmul_naive --grid n/16,n/16 --block 16,16 --param n=$n"; small=1024 ;;
    sgemm_tiled*) args="--kernel sgemm_tiled --grid n/32,n/32 --block 32,32 --param n=$n"; small=1024 ;;
    reduce_tree*) args="--kernel reduce_tree --grid (n+255)/256 --block 256 --param n=$n"; small=65536 ;;
    histogram_global*) args="--kernel histogram_global --grid (n+255)/256 --block 256 --param n=$n --length bins=256"; small=1048576 ;;
    histogram_shared*) args="--kernel histogram_shared --grid 1056 --block 256 --param n=$n --length bins=256"; small=1048576 ;;
    conv2d*) w=$(num W); h=$(num H); k=$(num K); n=$w$k
             args="--kernel conv2d --grid (w+15)/16,(h+15)/16 --block 16,16 --param w=$w --param h=$h --param k=$k"; small=20483 ;;
    daxpy*) args="--kernel daxpy --grid (n+255)/256 --block 256 --param n=$n"; small=1048576 ;;
    fma_fp32*) args="--kernel fma_chains<float> --grid $(num iters | sed 's/.*//')1056 --block 256 --param iters=4096"
               case $id in *132x128) args="--kernel fma_chains<float> --grid 132 --block 128 --param iters=4096" ;; esac
               n=x; small=x ;;
    fma_fp64*) args="--kernel fma_chains<double> --grid 1056 --block 256 --param iters=1024"
               case $id in *132x128) args="--kernel fma_chains<double> --grid 132 --block 128 --param iters=1024" ;; esac
               n=x; small=x ;;
    one_block_sum*) args="--kernel one_block_sum --grid 1 --block 256 --param n=$n"; small=65536 ;;
    *) continue ;;
    esac
    case $id in *132x128) [ -n "$all" ] || continue ;; esac
    [ -n "$all" ] || [ "$n" = "$small" ] || continue
    rm -rf "$tmp/d"
    # shellcheck disable=SC2086 # args is a list of words
    "$bin" import "$cu" -o "$tmp/d" --id draft $args >"$tmp/imp" 2>"$tmp/imperr"
    st=$?
    state=complete
    case $id in histogram*)
        # the bin index in[i] & 255 is data: the hand model's assumption in its place
        bin_index="i % 256"
        case $id in histogram_global*) bin_index="i * 97 % 256" ;; esac
        state="bin index: $bin_index assumed"
        sed -i -e 's#<!-- UNKNOWN (source line [0-9]*): atomicAdd: the index into .\(s\|bins\). depends on a value read from memory -->#<atomic array="\1" index="'"$bin_index"'"/>#' \
               -e '/<note unknown=/d' "$tmp/d/draft.xml" 2>/dev/null
        [ $st -eq 1 ] && st=0 ;;
    esac
    if [ $st -ne 0 ] || grep -q 'UNKNOWN\|unknown=' "$tmp/d/draft.xml" 2>/dev/null; then
        state="import status $st"
        cat "$tmp/imperr" >&2
        fail=1
    fi
    [ -n "$keep" ] && mkdir -p "$keep" && sed "s/<kernel id=\"draft\"/<kernel id=\"$id\"/" "$tmp/d/draft.xml" >"$keep/$id.xml"
    set -- $(run_counts "$model")
    h1=$1 h2=$2 h3=$3 h4=$4 h5=$5
    set -- $(run_counts "$tmp/d/draft.xml")
    printf '| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s |\n' "$id" \
        "$h1" "$1" "$h2" "$2" "$h3" "$3" "$h4" "$4" "$h5" "$5" "$state"
    # within 1 %: |hand - draft| * 100 <= hand
    for pair in "$h1 $1" "$h2 $2" "$h3 $3" "$h4 $4" "$h5 $5"; do
        # shellcheck disable=SC2086
        set -- $pair
        case "$1$2" in *-*) fail=1; continue ;; esac
        d=$(( $1 > $2 ? $1 - $2 : $2 - $1 ))
        if [ $((d * 100)) -gt "$1" ]; then
            echo "FAIL: $id: hand $1, draft $2 (more than 1 % apart)" >&2
            fail=1
        fi
    done
done
exit $fail
