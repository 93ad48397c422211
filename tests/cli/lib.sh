# lib.sh: what every tests/cli script shares. Source it first thing, before
# any cd:  . "$(dirname "$0")/lib.sh"; then `setup "$1" "$2"`.
#
# The tally: ok, bad MESSAGE, skip MESSAGE, and finish NAME at the end.
# The checks: expect STATUS CMD..., has FILE TEXT, contains FILE TEXT,
# lacks FILE TEXT. Each counts one ok or one bad and shows what it saw.
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
skip() { echo "SKIP: $*" >&2; skipped=$((skipped + 1)); }
# finish NAME: prints the tally; its status is the script's (0: none failed).
finish() {
    if [ "$skipped" -gt 0 ]; then
        echo "$1: $pass passed, $fail failed, $skipped skipped"
    else
        echo "$1: $pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
}

# setup ROOFCAST SOURCE_DIR: $roofcast and $src as absolute paths, $tmp a
# new directory removed on exit (even one a test made read-only), and the
# working directory $src, so the scripts name inputs as the README does.
setup() {
    roofcast=$1 src=$2
    case $roofcast in /*) ;; *) roofcast=$(pwd)/$roofcast ;; esac
    src=$(cd "$src" && pwd) || exit 1
    tmp=$(mktemp -d) || exit 1
    trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
    cd "$src" || exit 1
}

# show FILE: FILE indented under a failure.
show() { sed 's/^/  | /' "$1" >&2; }

# expect STATUS CMD...: runs CMD with stdout to $tmp/out and stderr to
# $tmp/err; its exit status must be STATUS.
expect() {
    want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "$* exited $got, want $want"; show "$tmp/err"; fi
}

# has FILE TEXT: TEXT stands in FILE as whole lines: a one-line TEXT is a
# line of FILE, a TEXT of several lines is that many consecutive lines.
# Carriage returns are ignored (CSV lines end in CRLF).
has() {
    if printf '%s\n' "$2" | tr -d '\r' | awk '
            NR == FNR { want[++n] = $0; next }
            { sub(/\r$/, "") }
            i < n && $0 == want[i + 1] { i++; next }
            i < n { i = ($0 == want[1]) }
            END { exit !(i == n) }' - "$1"; then
        ok
    else
        bad "$1 lacks the line(s): $2"; show "$1"
    fi
}

# contains FILE TEXT: TEXT is somewhere in FILE, within a line.
contains() {
    if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks: $2"; show "$1"; fi
}

# lacks FILE TEXT: TEXT is nowhere in FILE.
lacks() {
    if grep -qF -- "$2" "$1"; then bad "$1 holds: $2"; grep -nF -- "$2" "$1" | sed 's/^/  | /' >&2; else ok; fi
}
