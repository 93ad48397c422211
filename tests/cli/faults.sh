#!/bin/sh
# faults.sh ROOFCAST SOURCE_DIR
# Hostile input and faults, end to end:
#  - an unreadable file and a FIFO among the inputs: reported, the rest is
#    still reported, nothing hangs;
#  - an id that would climb out of output/: rejected, nothing written
#    outside output/;
#  - the summary line and the results tree's <rejected> list;
#  - a template that tries to read /etc/passwd, fetch a URL and write a
#    file: refused, nothing leaked;
#  - a read-only output directory and a full disk: exit status 3, the path
#    and the reason reported, the previous outputs intact, no temporary
#    files left. These need a mount namespace (unshare -m, or unshare -rm
#    as a user); where the system allows none they are skipped with a
#    message, and tests/unit/test_output.c still covers them through the
#    write hook.
set -u
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
chmod 755 "$tmp"

table_has_kernel() { # the --check table reports kernel $1
    if grep -q "^$1 " "$tmp/out"; then ok; else bad "the table lacks $1"; sed 's/^/  | /' "$tmp/out" >&2; fi
}

# ---- unreadable inputs -----------------------------------------------------

mkdir "$tmp/in"
cp kernels/maximum_kernel.xml "$tmp/in/good.xml"
cp kernels/gpuMeans.xml "$tmp/in/secret.xml"
chmod 000 "$tmp/in/secret.xml"
# root reads anything: run as nobody when root, if the system lets us.
as_user=""
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null 2>&1 &&
       setpriv --reuid=65534 --regid=65534 --clear-groups "$roofcast" --version >/dev/null 2>&1; then
        as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    fi
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$as_user" ]; then
    expect 1 $as_user "$roofcast" --check -q "$tmp/in"
    has "$tmp/err" "$tmp/in/secret.xml: cannot read: Permission denied"
    table_has_kernel maximum_kernel
else
    skip "unreadable file: running as root without setpriv, which reads any file"
fi
chmod 644 "$tmp/in/secret.xml"
rm "$tmp/in/secret.xml"

# A FIFO named like a definition must not block the run.
if mkfifo "$tmp/in/fifo.xml" 2>/dev/null; then
    expect 1 timeout 20 "$roofcast" --check -q "$tmp/in"
    has "$tmp/err" "$tmp/in/fifo.xml: cannot read: not a regular file"
    table_has_kernel maximum_kernel
    rm "$tmp/in/fifo.xml"
else
    skip "FIFO: mkfifo is not available"
fi

# A file too large to be a definition is refused before it is read.
head -c 17000000 /dev/zero >"$tmp/in/huge.xml"
expect 1 "$roofcast" --check -q "$tmp/in"
has "$tmp/err" "$tmp/in/huge.xml: the file is too large (17000000 bytes; at most 16 MiB)"
rm "$tmp/in/huge.xml"

# ---- ids that would escape output/ ------------------------------------------

mkdir -p "$tmp/escape/work" "$tmp/escape/etc"
touch "$tmp/marker"
expect 1 "$roofcast" -q -f md,csv,xml -o "$tmp/escape/work/out" kernels/maximum_kernel.xml \
    tests/bad/kernels/id-path-traversal.xml tests/bad/kernels/id-slash.xml
has "$tmp/err" "tests/bad/kernels/id-path-traversal.xml:3: <kernel> id '../../etc/x' is not a safe name: use letters, digits, '_', '.' and '-', starting with a letter, digit or '_' (it names output files)"
# Every file the run made is in the output directory.
made=$(find "$tmp/escape" -newer "$tmp/marker" -type f | grep -v "^$tmp/escape/work/out/" | head -5)
[ -z "$made" ] && ok || bad "written outside the output directory: $made"
[ -z "$(find "$tmp/escape/work/out" -mindepth 1 -type d)" ] && ok || bad "subdirectories made in the output"
[ -s "$tmp/escape/work/out/maximum_kernel.md" ] && ok || bad "the good kernel was not written"

# ---- the summary line and the rejected list ---------------------------------

expect 1 "$roofcast" -f csv,xml -o "$tmp/sum" kernels/maximum_kernel.xml \
    tests/bad/kernels/expr-syntax.xml tests/bad/kernels/id-empty.xml tests/bad/kernels/doctype-xxe-file.xml
has "$tmp/err" "roofcast: 1 kernel on 12 GPUs: 2 files written to $tmp/sum/, 3 inputs rejected"
# results.xml lists each problem, its first line only (no caret display)
has "$tmp/sum/results.xml" "    <input file=\"tests/bad/kernels/expr-syntax.xml\" line=\"9\" line-text=\"9\" message=\"&lt;flops&gt; attribute 'count': unexpected '*' (expected a number, a name or '(')\"/>"
has "$tmp/sum/results.xml" "    <input file=\"tests/bad/kernels/doctype-xxe-file.xml\" line=\"3\" line-text=\"3\" message=\"a DOCTYPE is not allowed (DTDs and entities are refused)\"/>"
lacks "$tmp/sum/results.xml" "root:x:0:0"

# ---- a hostile template -------------------------------------------------------

mkdir "$tmp/tpl-cwd"
(cd "$tmp/tpl-cwd" && "$roofcast" -f md -t "$src/tests/data/hostile-templates" -s "$src/specs" \
    -o "$tmp/tpl" "$src/kernels/maximum_kernel.xml" >"$tmp/out" 2>"$tmp/err")
status=$?
[ $status -ne 0 ] && ok || bad "a template that read /etc/passwd succeeded"
grep -q "Local file read for /etc/passwd refused" "$tmp/err" && ok || bad "the refused read was not reported"
leaked=$(grep -rlF "root:x:0:0" "$tmp/tpl" "$tmp/tpl-cwd" "$tmp/out" 2>/dev/null)
[ -z "$leaked" ] && ok || bad "/etc/passwd leaked into $leaked"
[ ! -e "$tmp/tpl/maximum_kernel.md" ] && ok || bad "the failed template's report was written"
[ -z "$(find "$tmp/tpl" "$tmp/tpl-cwd" -name 'pwned*')" ] && ok || bad "the template wrote a file"
"$roofcast" -f md -t "$src/tests/data/hostile-templates/network" -o "$tmp/tpl-net" \
    kernels/maximum_kernel.xml >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] && ok || bad "a template that fetched a URL succeeded"
grep -q "Network file read for http://127.0.0.1:9/secret refused" "$tmp/err" && ok ||
    bad "the refused network read was not reported"
[ ! -e "$tmp/tpl-net/maximum_kernel.md" ] && ok || bad "the failed template's report was written"

# ---- read-only output directory and full disk -------------------------------

# in_namespace SCRIPT: runs sh -c SCRIPT in a private mount namespace.
in_namespace() {
    if [ "$(id -u)" -eq 0 ]; then unshare -m sh -c "$1"; else unshare -rm sh -c "$1"; fi
}
checksums() { (cd "$1" && find . -type f | sort | xargs sha256sum); }
no_temporaries() {
    if [ -z "$(find "$1" -name '.*' ! -name .roofcast-manifest ! -name .roofcast-cache ! -name .roofcast.lock -type f)" ]; then ok; else bad "temporary files left in $1"; fi
}

if in_namespace "mount -t tmpfs -o size=64k tmpfs '$tmp/in' && umount '$tmp/in'" 2>/dev/null; then
    # Read-only: a bind mount of the previous run's output, written again
    # (--force: else its files, up to date, would be kept).
    mkdir "$tmp/ro"
    expect 0 "$roofcast" -q -f md,csv,xml -o "$tmp/ro"
    checksums "$tmp/ro" >"$tmp/ro.sums"
    in_namespace "mount --bind '$tmp/ro' '$tmp/ro' && mount -o remount,ro,bind '$tmp/ro' &&
                  '$roofcast' --force -f md,csv,xml -o '$tmp/ro' >'$tmp/out' 2>'$tmp/err'; echo \$? >'$tmp/status'"
    [ "$(cat "$tmp/status")" -eq 3 ] && ok || bad "read-only output: exit $(cat "$tmp/status"), want 3"
    has "$tmp/err" "roofcast: $tmp/ro/maximum_kernel.md: cannot write: Read-only file system"
    has "$tmp/err" "roofcast: $tmp/ro/estimates.csv: cannot write: Read-only file system"
    has "$tmp/err" "roofcast: 4 kernels on 12 GPUs: 0 files written to $tmp/ro/, 0 inputs rejected"
    checksums "$tmp/ro" | cmp -s - "$tmp/ro.sums" && ok || bad "read-only output: the previous files changed"

    # Full: a 256 KiB tmpfs holding the previous run, filled up with a
    # ballast file, then written again (--force). Checked inside the namespace,
    # where the tmpfs lives.
    in_namespace "mount -t tmpfs -o size=256k tmpfs '$tmp/in' &&
        '$roofcast' -q -f md,csv -o '$tmp/in/out' &&
        (cd '$tmp/in/out' && find . -type f | sort | xargs sha256sum) >'$tmp/full.before' &&
        (head -c 1000000 /dev/zero >'$tmp/in/ballast' 2>/dev/null; true) &&
        '$roofcast' --force -f md,csv -o '$tmp/in/out' >'$tmp/out' 2>'$tmp/err'; echo \$? >'$tmp/status';
        (cd '$tmp/in/out' && find . -type f | sort | xargs sha256sum) >'$tmp/full.after';
        find '$tmp/in/out' -name '.*' ! -name .roofcast-manifest ! -name .roofcast-cache ! -name .roofcast.lock -type f >'$tmp/full.temporaries'"
    [ "$(cat "$tmp/status")" -eq 3 ] && ok || bad "full disk: exit $(cat "$tmp/status"), want 3"
    grep -q "^roofcast: $tmp/in/out/[A-Za-z_]*\.md: cannot write: No space left on device\$" "$tmp/err" && ok ||
        { bad "full disk: no 'No space left on device' message"; sed 's/^/  | /' "$tmp/err" >&2; }
    [ -s "$tmp/full.before" ] && cmp -s "$tmp/full.before" "$tmp/full.after" && ok ||
        bad "full disk: the previous files changed"
    [ ! -s "$tmp/full.temporaries" ] && ok || bad "full disk: temporary files left: $(cat "$tmp/full.temporaries")"
else
    skip "read-only output and full disk: no mount namespace here (unshare -m); tests/unit/test_output.c covers them through the write hook"
fi

finish faults
