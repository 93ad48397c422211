#!/bin/sh
# public.sh ROOFCAST SOURCE_DIR [-v]
# roofcast import on the public kernels of tests/import/public (origin and
# licence in its README.md), launched as kernels.txt says: each draft must be
# complete, or have unknowns at exactly the source lines kernels.txt lists.
# Prints a Markdown table and the share complete (the README's figure).
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"
verbose=${3:-}
dir=$src/tests/import/public
total=0 complete=0
printf '| file | kernel | draft |\n| --- | --- | --- |\n'
grep -v '^#' "$dir/kernels.txt" | grep -v '^ *$' | while IFS='|' read -r file kernel opts expect; do
    file=$(echo $file) kernel=$(echo $kernel) expect=$(echo $expect)
    rm -rf "$tmp/d"
    # shellcheck disable=SC2086 # opts is a list of words
    "$bin" import "$dir/$file" --kernel "$kernel" $opts -o "$tmp/d" >"$tmp/out" 2>"$tmp/err"
    st=$?
    lines=$(sed -n 's/.*(source lines\{0,1\} \([0-9, ]*\)).*/\1/p' "$tmp/out" | tr -d ' ')
    case $st in
    0) got=complete ;;
    1) if [ -n "$lines" ]; then got="unknown:$lines"; else got="failed"; fi ;;
    *) got="status $st" ;;
    esac
    why=$(grep ': not translated: ' "$tmp/err" | sed 's/.*: not translated: //' | sort -u | paste -sd ';' -)
    printf '| %s | %s | %s%s |\n' "$file" "$kernel" "$got" "${why:+ ($why)}"
    if [ "$got" != "$expect" ]; then
        echo "FAIL: $file $kernel: $got, expected $expect" >&2
        cat "$tmp/err" >&2
        echo fail >>"$tmp/failed"
    fi
    [ -n "$verbose" ] && cat "$tmp/err" >&2
    echo "$got" >>"$tmp/results"
done
total=$(wc -l <"$tmp/results")
complete=$(grep -c '^complete$' "$tmp/results")
echo
echo "$complete of $total drafts complete"
[ ! -f "$tmp/failed" ]
