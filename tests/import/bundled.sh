#!/bin/sh
# bundled.sh ROOFCAST SOURCE_DIR
# Imports the four bundled kernels from tests/validation/cuda/bundled.cu with the reference
# launch (grid 5 x 5, block 32 x 32, the kernels/*.xml params) and prints their counts beside
# the bundled models' (the table of docs/import.md). Drafts with unknowns are counted without
# the untranslated parts (their unknown comments and notes removed), which the table says.
# Fails when a draft's unknowns are not the ones docs/import.md explains.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"
cu=$src/tests/validation/cuda/bundled.cu

counts() { # kernel.xml -> "flops accessed sector footprint wavefronts"
    rm -rf "$tmp/o"
    "$bin" -q -f xml --gpu h100-sxm5 -s "$src/specs" -o "$tmp/o" "$1" >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; echo "- - - - -"; return; }
    f=$(grep -o '<flops total="[0-9]*"' "$tmp/o/results.xml" | head -1 | grep -o '[0-9]*')
    m=$(grep -o '<memory requests=[^>]*' "$tmp/o/results.xml" | head -1)
    get() { printf '%s\n' "$m" | grep -o " $1=\"[0-9]*\"" | grep -o '[0-9]*'; }
    echo "$f $(get accessed-bytes) $(get sector-bytes) $(get footprint-bytes) $(get shared-wavefronts)"
}

printf '| kernel | FLOPs (model / draft) | accessed B | sector B | footprint B | shared wavefronts | draft |\n'
printf '| --- | --- | --- | --- | --- | --- | --- |\n'
while read -r kernel expect args; do
    name=${kernel%%<*}
    rm -rf "$tmp/d"
    # shellcheck disable=SC2086 # args is a list of words
    "$bin" import "$cu" --kernel "$kernel" --grid 5,5 --block 32,32 $args -o "$tmp/d" >"$tmp/out" 2>"$tmp/imperr"
    lines=$(sed -n 's/.*(source lines\{0,1\} \([0-9, ]*\)).*/\1/p' "$tmp/out" | tr -d ' ')
    got=${lines:+unknown:$lines}
    got=${got:-complete}
    if [ "$got" != "$expect" ]; then
        echo "FAIL: $kernel: $got, expected $expect" >&2
        cat "$tmp/imperr" >&2
        fail=1
    fi
    sed -i -e '/<!-- UNKNOWN/d' -e '/<note unknown=/d' "$tmp/d/$name.xml"
    set -- $(counts "$src/kernels/$name.xml")
    h1=$1 h2=$2 h3=$3 h4=$4 h5=$5
    set -- $(counts "$tmp/d/$name.xml")
    state=complete
    [ "$got" = complete ] || state="unknowns at lines ${lines}, left out"
    printf '| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s |\n' "$name" \
        "$h1" "$1" "$h2" "$2" "$h3" "$3" "$h4" "$4" "$h5" "$5" "$state"
done <<'LIST'
maximum_kernel complete --param k=100 --param n_a=5 --param n_b=5 --param pitch_a=100 --param pitch_b=100 --param pitch_d=5
gpuMeans<32> unknown:56 --param na=5 --param nb=5 --param dim=100
gpuKendall<32> unknown:91,92,93 --param na=5 --param nb=5 --param sampleSize=100
getRestricted complete --param countx=5 --param county=5 --param rows=100 --param cols=10 --param mXdim=1000 --param vYdim=100 --param mQdim=1000 --param mRdim=100 --param vectBdim=10
LIST
exit $fail
