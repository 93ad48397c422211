# lib.sh: what the tests/import scripts share. Source it, then call import_setup "$@".

# import_setup ROOFCAST SOURCE_DIR: $bin and $src, a scratch $tmp removed on exit, fail=0.
import_setup() {
    bin=$1
    src=$2
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    fail=0
}

# draft FILE KERNEL STATUS [IMPORT OPTION]...: imports KERNEL of FILE into $tmp/d, its stderr
# in $tmp/err, and sets $name (the draft's name: the kernel without template arguments). An
# exit status other than STATUS fails and returns 1; with STATUS 0, a draft that does not
# load fails (and returns 0, so that its other checks still run).
draft() {
    file=$1 kernel=$2 want=$3 name=${2%%<*}
    shift 3
    rm -rf "$tmp/d"
    "$bin" import "$file" --kernel "$kernel" "$@" -o "$tmp/d" >/dev/null 2>"$tmp/err"
    st=$?
    if [ "$st" -ne "$want" ]; then
        echo "FAIL: $kernel: import exit $st, expected $want" >&2
        cat "$tmp/err" >&2
        fail=1
        return 1
    fi
    if [ "$want" -eq 0 ] &&
       ! "$bin" --check -s "$src/specs" "$tmp/d/$name.xml" >/dev/null 2>"$tmp/check-err"; then
        echo "FAIL: $kernel: the draft does not load:" >&2
        cat "$tmp/check-err" >&2
        fail=1
    fi
    return 0
}

# work_is KERNEL EXPECTED: the <work> of the last draft ($tmp/d/$name.xml), from <work> to
# </work>, is EXPECTED; otherwise it fails, printing both.
work_is() {
    got=$(sed -n '/<work>/,/<\/work>/p' "$tmp/d/$name.xml")
    if [ "$got" != "$2" ]; then
        printf 'FAIL: %s: the work is\n%s\nexpected\n%s\n' "$1" "$got" "$2" >&2
        fail=1
    fi
}
