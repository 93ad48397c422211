#!/bin/sh
# same_output.sh: the restructuring check of issue 28. Runs two builds of
# roofcast on the same inputs and fails unless every output file, the
# standard error and the exit status are byte-identical.
#
#   tests/house/same_output.sh OLD_ROOFCAST NEW_ROOFCAST GEN_KERNELS [WORKDIR]
#
# OLD_ROOFCAST is usually an install tree of the commit before a change
# (cmake --install build --prefix DIR; DIR/bin/roofcast finds its own
# templates and GPU files). The inputs: the bundled kernels and GPUs in
# every format; 100 generated kernels (gen_kernels, fixed seed); a baseline
# comparison with one kernel changed (changes.md, changes.csv); --check; the
# bad-input set in tests/bad; and an import of the public CUDA kernels when
# both builds have the importer.
set -u
old=$(realpath "$1") new=$(realpath "$2") gen=$(realpath "$3")
src=$(cd "$(dirname "$0")/../.." && pwd)
work=${4:-$(mktemp -d)}
rm -rf "$work/old" "$work/new"
fail=0

run() { # run SIDE NAME ARGS...: output in $work/SIDE/NAME, stderr and status beside it
    side=$1 name=$2; shift 2
    bin=$old; [ "$side" = new ] && bin=$new
    mkdir -p "$work/$side/$name"
    (cd "$work/$side" && "$bin" "$@" >"$name.stdout" 2>"$name.stderr"; echo $? >"$name.status")
}

mkdir -p "$work/gen"
"$gen" 100 "$work/gen" >/dev/null || { echo "same_output: gen_kernels failed" >&2; exit 2; }
mkdir -p "$work/changed"
cp "$src"/kernels/*.xml "$work/changed/"
# One kernel changed for the baseline comparison: getRestricted on a larger grid.
sed -i 's/<launch grid="5,5,1"/<launch grid="50,5,1"/' "$work/changed/getRestricted.xml"

for side in old new; do
    run $side bundled -j2 --force -s "$src/specs" -o bundled "$src/kernels"
    run $side generated -j2 --force -s "$src/specs" -o generated "$work/gen"
    cp -r "$work/$side/bundled" "$work/$side/base"
    run $side changes -j2 --force -s "$src/specs" -o base --baseline bundled "$work/changed"
    run $side check --check -s "$src/specs" "$src/kernels"
    run $side bad -j1 --force -s "$src/specs" -o bad "$src/tests/bad/kernels"
    run $side badspecs -j1 --force -s "$src/tests/bad/specs" -o badspecs "$src/kernels"
    # Drafts of the public CUDA kernels, with the launches of kernels.txt.
    i=0
    grep -v '^#' "$src/tests/import/public/kernels.txt" | grep -v '^ *$' |
    while IFS='|' read -r file kernel opts expect; do
        i=$((i + 1)) file=$(echo $file) kernel=$(echo $kernel)
        # shellcheck disable=SC2086 # opts is a list of words
        run $side "import$i" import "$src/tests/import/public/$file" --kernel "$kernel" $opts -o "import$i"
    done
    rm -rf "$work/$side/base/.roofcast-cache" "$work/$side/bundled/.roofcast-cache" \
           "$work/$side/generated/.roofcast-cache" "$work/$side/bad/.roofcast-cache" \
           "$work/$side/badspecs/.roofcast-cache"
done
# The manifests differ by design: they hash the program. The bad inputs run
# with one worker because counting errors and load errors interleave on
# stderr in the order the workers meet them.
if ! diff -rq -x .roofcast-manifest "$work/old" "$work/new" >"$work/diff.txt" 2>&1; then
    echo "same_output: outputs differ (first lines of $work/diff.txt):" >&2
    head -n 20 "$work/diff.txt" >&2
    fail=1
fi
n=$(find "$work/new" -type f | wc -l)
[ "$fail" = 0 ] && echo "same_output: $n files byte-identical"
exit $fail
