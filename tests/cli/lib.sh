# lib.sh: the tally every tests/cli script keeps. Source it first thing,
# before any cd:  . "$(dirname "$0")/lib.sh"
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
