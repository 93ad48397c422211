#!/bin/sh
# bad_inputs.sh ROOFCAST SOURCE_DIR [--update]
# The corpus of bad inputs. Each entry of tests/bad/kernels/ (a file or a
# directory) is given to `roofcast --check` with the bundled GPUs, and
# each entry of tests/bad/specs/ as the GPU definitions for the bundled
# maximum_kernel. Its sibling NAME.expected holds the exit status on its
# first line ("exit N") and then stderr exactly. Inputs whose name starts
# with "doctype-" (XXE, billion laughs, quadratic blowup, external DTDs)
# must be refused before any entity is expanded or fetched: not a timing
# bound (those belong in tests/bench, and a loaded machine breaks them), but
# resource limits that load does not consume. Each runs with at most 5 s of
# CPU time (past it, SIGXCPU kills it and its exit status no longer
# matches), and where /usr/bin/time exists its peak resident memory must
# stay under 512 MiB: the blowups would expand to 1 GB and 3 GB.
#
# After a deliberate change to the messages: run with --update, read
# `git diff tests/bad`, and commit.
set -u
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
update=${3:-}

# limited CMD...: CMD under the CPU-time limit, its peak resident memory in
# KiB in $tmp/rss (empty without /usr/bin/time).
limited() {
    : >"$tmp/rss"
    if [ -x /usr/bin/time ]; then
        (ulimit -t 5; exec /usr/bin/time -q -f %M -o "$tmp/rss" "$@")
    else
        (ulimit -t 5; exec "$@")
    fi
}

# check INPUT EXPECTED CMD...: runs CMD and compares with EXPECTED
check() {
    input=$1 expected=$2; shift 2
    case ${input##*/} in
    doctype-*) limited "$@" >"$tmp/out" 2>"$tmp/err" ;;
    *) "$@" >"$tmp/out" 2>"$tmp/err" ;;
    esac
    status=$?
    { echo "exit $status"; cat "$tmp/err"; } >"$tmp/got"
    if [ "$update" = --update ]; then
        cp "$tmp/got" "$expected"
        return
    fi
    if [ ! -f "$expected" ]; then
        bad "$input: no $expected (run with --update, then review it)"
    elif ! cmp -s "$tmp/got" "$expected"; then
        bad "$input: stderr or exit status differs from $expected:"
        diff "$expected" "$tmp/got" | sed 's/^/  | /' >&2
    else
        ok
    fi
    case ${input##*/} in
    doctype-*)
        rss=$(cat "$tmp/rss")
        if [ -z "$rss" ] || [ "$rss" -lt 524288 ]; then ok; else bad "$input: peak memory $rss KiB to refuse (at most 512 MiB)"; fi
        ;;
    esac
}

count=0
for input in tests/bad/kernels/*; do
    case $input in *.expected) continue ;; esac
    count=$((count + 1))
    check "$input" "${input%.xml}.expected" "$roofcast" --check -q "$input"
done
for input in tests/bad/specs/*; do
    case $input in *.expected) continue ;; esac
    count=$((count + 1))
    check "$input" "${input%.xml}.expected" "$roofcast" --check -q -s "$input" kernels/maximum_kernel.xml
done

# An empty directory (git keeps none, so it is made here).
mkdir "$tmp/empty"
printf 'exit 1\n%s/empty: no kernel definitions (*.xml) in this directory\n' "$tmp" >"$tmp/empty.expected"
[ "$update" = --update ] || check "$tmp/empty" "$tmp/empty.expected" "$roofcast" --check -q "$tmp/empty"
count=$((count + 1))

if [ "$update" = --update ]; then
    echo "bad_inputs: $count expected files written; review them with git diff"
    exit 0
fi
finish "bad_inputs ($count inputs)"
