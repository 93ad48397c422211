#!/bin/sh
# valgrind_bad.sh VALGRIND ROOFCAST SOURCE_DIR
# The bad-input corpus under valgrind: no invalid access and no leak on any
# path that rejects an input. Three runs: every bad kernel with the bundled
# GPUs, every bad GPU definition, and a full run (all formats) that mixes
# bad inputs with good ones, so that the renderers see a <rejected> list.
# work-step-limit.xml and work-too-costly.xml are left out: they run to the
# evaluator's step limit on purpose, minutes under valgrind, and their paths
# hold nothing the others lack.
set -u
. "$(dirname "$0")/lib.sh"
valgrind=$1
setup "$2" "$3"
fail=0
vg() {
    "$valgrind" -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect "$roofcast" "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    # roofcast's own statuses are 0 to 3; 99 is valgrind's.
    if [ $status -eq 99 ] || grep -q '^==[0-9]*==' "$tmp/err"; then
        echo "FAIL: valgrind found errors in: roofcast $*" >&2
        grep '^==[0-9]*==' "$tmp/err" | head -40 >&2
        fail=$((fail + 1))
    fi
}
kernels=$(ls tests/bad/kernels/*.xml | grep -v -e '/work-step-limit\.xml$' -e '/work-too-costly\.xml$')
# shellcheck disable=SC2086
vg --check -q $kernels tests/bad/kernels/dir-duplicate-ids tests/bad/kernels/dir-no-xml
vg --check -q -s tests/bad/specs kernels/maximum_kernel.xml
vg -q -o "$tmp/out-dir" -s specs kernels tests/bad/kernels/expr-syntax.xml \
    tests/bad/kernels/doctype-billion-laughs.xml tests/bad/kernels/binary-png.xml \
    tests/bad/kernels/utf8-invalid-byte.xml tests/bad/kernels/id-path-traversal.xml
echo "valgrind_bad: 3 runs, $fail with errors"
[ $fail -eq 0 ]
