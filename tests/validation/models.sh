#!/bin/sh
# The validation models stay loadable, generated, and in step with the measurements:
#   sh tests/validation/models.sh ROOFCAST SOURCE_DIR
# 1. generate.sh writes exactly the committed tests/validation/kernels/*.xml;
# 2. roofcast --check accepts every model (exit 0, one row per model on the H100 SXM5);
# 3. every validation row of tests/validation/measured/*.csv names a model that exists, and every
#    model has measured rows;
# 4. published/models/generate.sh writes exactly the committed published models and the
#    `published` rows of points.csv that name them;
# 5. the hand-written published models (published/models-k80/ for the tesla-k80,
#    published/models-a6000/ for the rtx-a6000, published/models-3080/ for the rtx-3080,
#    published/models-v100/ for the tesla-v100, published/models-2080ti/ for the bundled rtx-2080-ti,
#    published/models-k40c/ for the tesla-k40c, published/models-k2200/ for the quadro-k2200,
#    published/models-titanx/ for the bundled titan-x,
#    published/models-p100/ for the tesla-p100,
#    published/models-4090/ for the bundled rtx-4090, and published/models-3060ti/, -3070ti/,
#    -3060/, -2060/, -1650/ and -3060l/ for the rtx-3060-ti, rtx-3070-ti, rtx-3060, rtx-2060,
#    gtx-1650 and rtx-3060-laptop), published/models-gv100/ and -gp100/ for the quadro-gv100
#    and quadro-gp100, and published/models-h100/ for the bundled h100-sxm5, load on their GPU
#    of tests/validation/specs/ (specs/ for a bundled one), each has exactly one `published`
#    row in points.csv, and that row's time is the one kernels.csv gives for the configuration
#    naming the model (model=ID);
# 6. published/nvbench-models.sh writes exactly the committed models-gv100/ and models-gp100/ and
#    the points.csv rows that name them;
# 7. published/gpu-stream-models.sh likewise for models-gpu-stream/ and its `micro` rows, and
#    published/amora-models.sh for models-amora/, stride-models.sh for models-stride/ and
#    rohin-models.sh for models-k20m/, transpose-sample-models.sh for models-970/, -titan/ and
#    -k20m-transpose/, simveit-models.sh for models-h100-simveit/, and theirs; kernels.csv gives the time of each of their `published`
#    points.
set -u
roofcast=$1
src=$2
. "$src/tests/cli/lib.sh"
kdir=$src/tests/validation/kernels
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

sh "$kdir/generate.sh" "$tmp/gen" >/dev/null
if diff -r -x generate.sh "$kdir" "$tmp/gen" >"$tmp/diff" 2>&1 && [ -z "$(ls "$tmp/gen" | grep -v '\.xml$')" ]; then
    ok "generate.sh writes the committed models"
else
    bad "generate.sh writes the committed models (run it, read the diff, commit)"
    head -20 "$tmp/diff"
fi

# accepts DIR SPECS GPU WHAT: roofcast --check loads every model of DIR on GPU (from SPECS)
# with exit 0, no message and one row each. -q: no progress lines on a slow (sanitizer)
# build; warnings and errors still show.
accepts() {
    n=$(ls "$1"/*.xml | wc -l | tr -d ' ')
    "$roofcast" -q --check --specs "$2" --gpu "$3" "$1" >"$tmp/check" 2>"$tmp/err"
    status=$?
    rows=$(grep -c " $3 " "$tmp/check")
    if [ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$rows" -eq "$n" ]; then
        ok "roofcast --check accepts all $n $4"
    else
        bad "roofcast --check accepts all $n $4 (exit $status, $rows rows)"
        head -20 "$tmp/err"
    fi
}

models=$(ls "$kdir"/*.xml | wc -l | tr -d ' ')
accepts "$kdir" "$src/specs" h100-sxm5 models

for csv in "$src"/tests/validation/measured/h100-sxm5.csv "$src"/tests/validation/measured/h100-sxm5-repeat.csv; do
    # the model is the last field and never quoted; kind is the first
    awk -F, 'NR > 1 && $1 == "validation" { print $NF }' "$csv" | sort -u >"$tmp/named"
    ls "$kdir"/*.xml | sed 's|.*/||; s|\.xml$||' | sort >"$tmp/have"
    if [ -s "$tmp/named" ] && cmp -s "$tmp/named" "$tmp/have"; then
        ok "$(basename "$csv"): its validation rows name exactly the $models models"
    else
        bad "$(basename "$csv"): its validation rows name exactly the $models models"
        diff "$tmp/named" "$tmp/have" | head -10
    fi
done
pdir=$src/tests/validation/published/models
sh "$pdir/generate.sh" "$tmp/pub" >"$tmp/pub-rows"
if diff -r -x generate.sh "$pdir" "$tmp/pub" >"$tmp/diff" 2>&1; then
    ok "published/models/generate.sh writes the committed models"
else
    bad "published/models/generate.sh writes the committed models (run it, read the diff, commit)"
    head -20 "$tmp/diff"
fi
points=$src/tests/validation/points.csv
awk -F, '$2 == "published" && $4 !~ /\/models-[^/]*\//' "$points" >"$tmp/pub-have"
if cmp -s "$tmp/pub-rows" "$tmp/pub-have"; then
    ok "points.csv holds exactly the published rows generate.sh prints"
else
    bad "points.csv holds exactly the published rows generate.sh prints"
    diff "$tmp/pub-rows" "$tmp/pub-have" | head -10
fi
# hand FOLDER GPU [SPECS]: the hand-written models of published/FOLDER/, all on GPU, whose file
# is in SPECS (tests/validation/specs/ unless said; specs/ for a bundled GPU).
hand() {
    hdir=$src/tests/validation/published/$1
    accepts "$hdir" "${3:-$src/tests/validation/specs}" "$2" "hand-written published models on the $2"
    # point id, model file and time of each hand-written point; the same from kernels.csv, whose
    # source fields are quoted and may hold commas (the configuration, third, and the time,
    # fourth, come before them).
    awk -F, -v dir="/$1/" '$2 == "published" && index($4, dir) { print $1, $4, $5 + 0 }' \
        "$points" | sort >"$tmp/hand-points"
    ls "$hdir"/*.xml | sed 's|.*/||; s|\.xml$||' | sort >"$tmp/hand-have"
    awk -F, -v gpu="$2" -v dir="$1" 'NR > 1 && $1 == gpu && match($3, /(^|;)model=[^;]*/) {
        id = substr($3, RSTART, RLENGTH); sub(/.*model=/, "", id)
        if (index(id, "/") == 0)
            print id, "tests/validation/published/" dir "/" id ".xml", $4 + 0
    }' "$src/tests/validation/published/kernels.csv" | sort >"$tmp/hand-rows"
    if [ -s "$tmp/hand-points" ] && cmp -s "$tmp/hand-points" "$tmp/hand-rows" &&
       awk '{ print $1 }' "$tmp/hand-points" | cmp -s - "$tmp/hand-have"; then
        ok "points.csv holds one row per hand-written model of $1, with kernels.csv's time"
    else
        bad "points.csv holds one row per hand-written model of $1, with kernels.csv's time"
        diff "$tmp/hand-points" "$tmp/hand-rows" | head -10
        awk '{ print $1 }' "$tmp/hand-points" | diff - "$tmp/hand-have" | head -10
    fi
}
hand models-k80 tesla-k80
hand models-a6000 rtx-a6000
hand models-3080 rtx-3080
hand models-v100 tesla-v100
hand models-2080ti rtx-2080-ti "$src/specs"
hand models-k40c tesla-k40c
hand models-k2200 quadro-k2200
hand models-titanx titan-x "$src/specs"
hand models-p100 tesla-p100
hand models-4090 rtx-4090 "$src/specs"
hand models-3060ti rtx-3060-ti
hand models-3070ti rtx-3070-ti
hand models-3060 rtx-3060
hand models-2060 rtx-2060
hand models-1650 gtx-1650
hand models-3060l rtx-3060-laptop
hand models-gv100 quadro-gv100
hand models-gp100 quadro-gp100
hand models-h100 h100-sxm5 "$src/specs"
# generated SCRIPT FOLDER...: published/SCRIPT writes exactly the committed FOLDERs, and the
# points.csv rows that name them are exactly the ones it prints (items 6 and 7).
generated() {
    script=$1
    shift
    sh "$src/tests/validation/published/$script" "$tmp/gen-$script" >"$tmp/gen-rows"
    : >"$tmp/diff"
    : >"$tmp/gen-have"
    for folder in "$@"; do
        diff -r "$src/tests/validation/published/$folder" "$tmp/gen-$script/$folder" >>"$tmp/diff" 2>&1
        grep -F "/$folder/" "$points" >>"$tmp/gen-have"
    done
    if [ ! -s "$tmp/diff" ]; then
        ok "published/$script writes the committed $*"
    else
        bad "published/$script writes the committed $* (run it, read the diff, commit)"
        head -20 "$tmp/diff"
    fi
    if cmp -s "$tmp/gen-rows" "$tmp/gen-have"; then
        ok "points.csv holds exactly the rows $script prints"
    else
        bad "points.csv holds exactly the rows $script prints"
        diff "$tmp/gen-rows" "$tmp/gen-have" | head -10
    fi
}
generated nvbench-models.sh models-gv100 models-gp100
# gpu-benches' gpu-stream sweeps (kind `micro`)
generated gpu-stream-models.sh models-gpu-stream
# amora's injection-rate sweeps (kind `micro`)
generated amora-models.sh models-amora
# timed FOLDER [GPU]: the published points of published/FOLDER/ have the times kernels.csv gives
# the configurations that name their models (model=FOLDER/ID, or model=ID on GPU's rows).
timed() {
    awk -F, -v dir="/$1/" '$2 == "published" && index($4, dir) { print $1, $5 + 0 }' "$points" |
        sort >"$tmp/timed-points"
    awk -F, -v dir="$1" -v gpu="${2:-}" 'NR > 1 && match($3, /(^|;)model=[^;]*/) {
        id = substr($3, RSTART, RLENGTH); sub(/.*model=/, "", id)
        if (index(id, dir "/") == 1)
            print substr(id, length(dir) + 2), $4 + 0
        else if (index(id, "/") == 0 && $1 == gpu)
            print id, $4 + 0
    }' "$src/tests/validation/published/kernels.csv" | sort >"$tmp/timed-rows"
    if [ -s "$tmp/timed-points" ] && cmp -s "$tmp/timed-points" "$tmp/timed-rows"; then
        ok "kernels.csv names each published point of $1/ with its time"
    else
        bad "kernels.csv names each published point of $1/ with its time"
        diff "$tmp/timed-points" "$tmp/timed-rows" | head -10
    fi
}
# cuda-stride-benchmark's saxpy-grid sweeps at low occupancy and saxpy-mono in blocks of 64
# (kind `micro`), and its reduction-mono at 2^28 (kind `published`: kernels.csv names them as
# model=models-stride/ID, with the same times)
generated stride-models.sh models-stride
timed models-stride
# rohinarora/CUDA's stencils and vector adds on a Tesla K20m (kind `published`)
generated rohin-models.sh models-k20m
timed models-k20m tesla-k20m
# NVIDIA's transpose sample on a GTX 970, a GTX TITAN and a Tesla K20m (kind `published`;
# kernels.csv names the K20m's model=models-k20m-transpose/ID, beside models-k20m/'s model=ID)
generated transpose-sample-models.sh models-970 models-titan models-k20m-transpose
timed models-970 gtx-970
timed models-titan gtx-titan
timed models-k20m-transpose
# simveit/effective_reduction's sums on an H100 (kind `published`; kernels.csv names them
# model=models-h100-simveit/ID, beside models-h100/'s hand-written model=ID)
generated simveit-models.sh models-h100-simveit
timed models-h100-simveit
finish validation_models
