#!/bin/sh
# robustness.sh ROOFCAST SOURCE_DIR CACHE_EDIT
# What a run finds in its output directory and at --baseline (issue 30):
#  - a lock file that is a symbolic link, a FIFO or a directory: exit 3
#    with a message naming it, and the link's target untouched;
#  - a manifest or cache that is a FIFO, a directory or a symbolic link:
#    a warning naming it, never a hang, nothing removed; a manifest of
#    version 1 removes nothing; a cache cut before its header's end warns;
#  - an output file's name taken by a symbolic link: replaced by the
#    report, the link's target untouched;
#  - --baseline naming a FIFO (or a directory whose results.xml is one):
#    a warning, never a hang; a baseline with duplicate kernel ids: a
#    warning naming them;
#  - a cache entry whose CRC matches but whose piece (results.xml's text,
#    the CSV rows, the index row, the PDF pages) is not what it claims:
#    one warning, the kernel counted again, the overviews as a full run's,
#    and the next cache holds the good entry;
#  - a launch that cannot be resident on a GPU (255 registers x 1,024
#    threads; a GPU whose system reserve exceeds its shared memory): an
#    error for that pair, named in every format, excluded from rankings,
#    the other GPUs estimated, exit 1.
set -u
. "$(dirname "$0")/lib.sh"
cache_edit=$3
case $cache_edit in /*) ;; *) cache_edit=$(pwd)/$cache_edit ;; esac
setup "$1" "$2"

same() { # same WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok; else bad "$1: got [$2], want [$3]"; fi
}
# run STATUS ARGS...: roofcast under a time limit (a hang fails, exit 124).
run() {
    want=$1; shift
    expect "$want" timeout 20 "$roofcast" "$@"
}

mkdir "$tmp/k"
cp kernels/gpuMeans.xml kernels/gpuKendall.xml kernels/maximum_kernel.xml "$tmp/k"
args="-q --gpu titan-black,rtx-4070 -f md,csv,xml,pdf"
echo precious > "$tmp/victim"

# 1. The lock file a symbolic link: not followed, its target untouched.
out=$tmp/lock-link
mkdir "$out"
ln -s "$tmp/victim" "$out/.roofcast.lock"
run 3 $args -o "$out" "$tmp/k"
same "lock file a symbolic link" "$(cat "$tmp/err")" \
    "roofcast: $out/.roofcast.lock: is a symbolic link, which roofcast does not follow, not roofcast's lock file: nothing is written into $out/ (remove it, or choose another -o)"
same "the lock link's target" "$(cat "$tmp/victim")" "precious"
[ -f "$out/index.md" ] || [ -f "$out/results.xml" ] && bad "a run wrote beside a lock link" || ok

# 2, 3. The lock file a FIFO or a directory: exit 3 with a message.
out=$tmp/lock-fifo
mkdir "$out"
mkfifo "$out/.roofcast.lock"
run 3 $args -o "$out" "$tmp/k"
same "lock file a FIFO" "$(cat "$tmp/err")" \
    "roofcast: $out/.roofcast.lock: is a FIFO, not roofcast's lock file: nothing is written into $out/ (remove it, or choose another -o)"
out=$tmp/lock-dir
mkdir -p "$out/.roofcast.lock"
run 3 $args -o "$out" "$tmp/k"
same "lock file a directory" "$(cat "$tmp/err")" \
    "roofcast: $out/.roofcast.lock: is a directory, not roofcast's lock file: nothing is written into $out/ (remove it, or choose another -o)"

# 2, 3. The manifest a FIFO, a directory, a symbolic link: a warning, the
# run goes on, nothing removed; the next run is not locked out.
out=$tmp/o
run 0 $args -o "$out" "$tmp/k"
echo mine > "$out/notes.txt"
rm "$out/.roofcast-manifest"
mkfifo "$out/.roofcast-manifest"
run 0 $args -o "$out" "$tmp/k"
same "manifest a FIFO" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest: warning: is a FIFO, not roofcast's manifest: it is not read, and no earlier file is removed"
[ -p "$out/.roofcast-manifest" ] && bad "the FIFO was kept as the manifest" || ok
run 0 $args -o "$out" "$tmp/k"
same "the run after the FIFO" "$(cat "$tmp/err")" ""
rm "$out/.roofcast-manifest"
mkdir "$out/.roofcast-manifest"
run 3 $args -o "$out" "$tmp/k"
contains "$tmp/err" "$out/.roofcast-manifest: warning: is a directory, not roofcast's manifest: it is not read, and no earlier file is removed"
rmdir "$out/.roofcast-manifest"
printf 'roofcast-manifest 2\nfile notes.txt 5 0000000000000000\nend 1 %s\n' 0 > "$tmp/their-manifest"
ln -s "$tmp/their-manifest" "$out/.roofcast-manifest"
run 0 $args -o "$out" "$tmp/k"
same "manifest a symbolic link" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest: warning: is a symbolic link, which roofcast does not follow, not roofcast's manifest: it is not read, and no earlier file is removed"
[ -f "$out/notes.txt" ] && ok || bad "a linked manifest removed notes.txt"
[ -f "$tmp/their-manifest" ] && [ ! -L "$out/.roofcast-manifest" ] && ok ||
    bad "the manifest link was not replaced, or its target removed"

# 6. A manifest of version 1 (no checksum) removes nothing it lists.
printf 'roofcast-manifest 1\nfile notes.txt 5\n' > "$out/.roofcast-manifest"
run 0 $args -o "$out" "$tmp/k"
same "manifest of version 1" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest: warning: a manifest of an older roofcast (version 1, without a checksum): every file is made again and no earlier file is removed"
[ -f "$out/notes.txt" ] && ok || bad "a manifest of version 1 removed notes.txt"
run 0 $args -o "$out" "$tmp/k"
[ -f "$out/notes.txt" ] && ok || bad "the run after a manifest of version 1 removed notes.txt"

# An output file's name a symbolic link: replaced, its target untouched.
rm "$out/gpuMeans.md"
ln -s "$tmp/victim" "$out/gpuMeans.md"
run 0 $args -o "$out" "$tmp/k"
[ -f "$out/gpuMeans.md" ] && [ ! -L "$out/gpuMeans.md" ] && ok || bad "gpuMeans.md is still a link"
same "an output link's target" "$(cat "$tmp/victim")" "precious"

# The cache a FIFO or cut before its header's end: a warning, no hang.
change_means() { # change_means TEXT: edits gpuMeans.xml's summary
    sed "s/Means of pairs/$1/" kernels/gpuMeans.xml > "$tmp/k/gpuMeans.xml"
}
rm "$out/.roofcast-cache"
mkfifo "$out/.roofcast-cache"
change_means "Mean of two"
run 0 $args -o "$out" "$tmp/k"
same "cache a FIFO" "$(cat "$tmp/err")" \
    "$out/.roofcast-cache: warning: is a FIFO, not roofcast's cache: not read; every kernel is counted"
printf 'roofcast-ca' > "$out/.roofcast-cache"
change_means "Mean of pairs"
run 0 $args -o "$out" "$tmp/k"
same "cache cut before its header's end" "$(cat "$tmp/err")" \
    "$out/.roofcast-cache: warning: damaged (cut before its header's end, or not a roofcast cache): not read; every kernel is counted"
printf 'roofcast-cache 2' > "$out/.roofcast-cache"
change_means "Mean of two"
run 0 $args -o "$out" "$tmp/k"
same "cache cut before its header's newline" "$(cat "$tmp/err")" \
    "$out/.roofcast-cache: warning: damaged (cut before its header's end, or not a roofcast cache): not read; every kernel is counted"
printf 'roofcast-cache 1\nkernel ...\n' > "$out/.roofcast-cache"
change_means "Mean of pairs"
run 0 $args -o "$out" "$tmp/k"
same "cache of another version" "$(cat "$tmp/err")" ""

# 4. A cache entry whose CRC matches but whose piece is not what it
# claims: gpuKendall's, each piece in turn. One warning; the overviews
# equal a full run's; the next run takes the good entry from the cache.
printf 'rcpages1 not pages' > "$tmp/pdf"
printf '    <kernel id="gpuKendall"><estimates>\n' > "$tmp/xml"
printf 'gpuKendall,titan-black,1\r\n' > "$tmp/csv"
printf '<kernel id="gpuKendall">\001\377 &bogus;' > "$tmp/part"
for piece in pdf xml csv part; do
    out=$tmp/cache-$piece
    rm -rf "$out"
    change_means "Mean of two"
    run 0 $args -o "$out" "$tmp/k"
    if "$cache_edit" "$out/.roofcast-cache" gpuKendall "$piece" "$tmp/$piece"; then ok; else bad "cache_edit $piece failed"; fi
    cp "$out/summary.pdf" "$tmp/summary-before.pdf"
    change_means "Mean of pairs"
    run 0 $args -v -o "$out" "$tmp/k"
    has "$tmp/err" "roofcast: 1 kernel not counted: its shares of the overviews were read from $out/.roofcast-cache"
    has "$tmp/err" "$out/.roofcast-cache: warning: damaged: the kernels it holds no whole entry of are counted again"
    same "warnings with a bad $piece piece" "$(grep -c -v '^roofcast: ' "$tmp/err")" 1
    rm -rf "$tmp/full"
    "$roofcast" $args -o "$tmp/full" "$tmp/k" >/dev/null 2>&1
    for f in results.xml estimates.csv summary.pdf; do
        cmp -s "$tmp/full/$f" "$out/$f" && ok || bad "$f after a bad $piece piece differs from a full run's"
    done
    change_means "Mean of two"
    run 0 $args -v -o "$out" "$tmp/k"
    has "$tmp/err" "roofcast: 2 kernels not counted: their shares of the overviews were read from $out/.roofcast-cache"
    lacks "$tmp/err" "warning"
done

# 2. --baseline a FIFO, or a directory whose results.xml is one: a warning.
mkfifo "$tmp/fifo.xml"
run 0 $args -o "$tmp/b" --baseline "$tmp/fifo.xml" "$tmp/k"
same "baseline a FIFO" "$(cat "$tmp/err")" \
    "$tmp/fifo.xml: warning: the baseline is a FIFO, not a results.xml: nothing to compare with"
mkdir "$tmp/bd"
mkfifo "$tmp/bd/results.xml"
run 0 $args -o "$tmp/b" --baseline "$tmp/bd" "$tmp/k"
same "baseline directory with a FIFO" "$(cat "$tmp/err")" \
    "$tmp/bd/results.xml: warning: the baseline is a FIFO, not a results.xml: nothing to compare with"

# 6. A baseline with duplicate kernel ids: a warning naming them.
run 0 $args -f xml -o "$tmp/base" "$tmp/k"
awk '/^    <kernel id="gpuMeans"/ { keep = 1 } keep { copy = copy $0 "\n" }
     /^    <\/kernel>/ && keep { keep = 0 }
     { print } /^    <\/kernel>/ && copy != "" && !done { printf "%s", copy; done = 1 }' \
    "$tmp/base/results.xml" > "$tmp/dup.xml"
same "kernels in the duplicated baseline" "$(grep -c '^    <kernel id="gpuMeans"' "$tmp/dup.xml")" 2
run 0 $args -o "$tmp/b" --baseline "$tmp/dup.xml" "$tmp/k"
line=$(grep -n '^    <kernel id="gpuMeans"' "$tmp/dup.xml" | sed -n '2s/:.*//p')
same "baseline with a duplicate id" "$(cat "$tmp/err")" \
    "$tmp/dup.xml:$line: warning: the baseline holds kernel id 'gpuMeans' more than once: each is compared against its first <kernel>"

# 5. A launch that cannot be resident: 1,024 threads x 255 registers on
# every GPU; and a GPU (a copy of the RTX 4070) whose system reserve of
# shared memory per block exceeds its SM's shared memory, where no kernel
# can run. The other pairs are estimated; the exit status is 1.
mkdir "$tmp/k5" "$tmp/s5"
cp kernels/gpuMeans.xml "$tmp/k5"
sed 's|^  <work>$|  <resources registers="255"/>\n  <work>|' kernels/maximum_kernel.xml > "$tmp/k5/maximum_kernel.xml"
cp specs/gpu.xsd specs/rtx-4070.xml "$tmp/s5"
sed -e 's|id="rtx-4070" name="GeForce RTX 4070"|id="reserve" name="Reserve Test GPU"|' \
    -e 's|<shared-reserved>1 KiB</shared-reserved>|<shared-reserved>101 KiB</shared-reserved>|' \
    specs/rtx-4070.xml > "$tmp/s5/reserve.xml"
grep -q 'shared-reserved>101 KiB' "$tmp/s5/reserve.xml" && ok || bad "the reserve GPU was not made"
out=$tmp/o5
regs="1,024 threads x 255 registers need 261,120 of 65,536"
reserve="the system's reserve of 103,424 bytes of shared memory per block needs 103,424 of the SM's 102,400"
run 1 -s "$tmp/s5" -o "$out" "$tmp/k5"
same "stderr with launches that cannot run" "$(cat "$tmp/err")" \
"$tmp/k5/gpuMeans.xml:2: cannot launch on the Reserve Test GPU: $reserve
$tmp/k5/maximum_kernel.xml:2: cannot launch on the Reserve Test GPU: $regs
$tmp/k5/maximum_kernel.xml:2: cannot launch on the GeForce RTX 4070: $regs
roofcast: 2 kernels on 2 GPUs: 16 files written to $out/, 0 inputs rejected, 3 kernel x GPU pairs that cannot launch"
# results.xml: no estimate for those pairs, a <cannot-launch> each; the
# one GPU left for gpuMeans is not called fastest (compared with none),
# in its estimates and its launch's.
contains "$out/results.xml" "<cannot-launch gpu=\"rtx-4070\" gpu-name=\"GeForce RTX 4070\" reason=\"$regs\" message=\"cannot launch on the GeForce RTX 4070: $regs\"/>"
same "estimates of maximum_kernel" "$(sed -n '/<kernel id="maximum_kernel"/,/<\/kernel>/p' "$out/results.xml" | grep -c '<estimate ')" 0
same "estimates of gpuMeans" "$(sed -n '/<kernel id="gpuMeans"/,/<\/kernel>/p' "$out/results.xml" | grep -c '<estimate gpu="rtx-4070".*fastest="no"')" 2
lacks "$out/results.xml" '<estimate gpu="reserve"'
has "$out/estimates.csv" "maximum_kernel,rtx-4070,240000,640000,,,,,,,,6400,640000,727040,4032,0,0,,,,,,,,,\"cannot launch on the GeForce RTX 4070: $regs\""
same "estimates.csv rows" "$(grep -c '' "$out/estimates.csv")" 5
has "$out/maximum_kernel.md" "- GeForce RTX 4070: **cannot launch**: $regs; no estimate is made"
# A launch that runs on no GPU says so first, where At a glance stands.
same "maximum_kernel's first section" "$(sed -n '5,9p' "$out/maximum_kernel.md")" "## At a glance

This launch cannot run on any of the 2 GPUs, so nothing is estimated:

- Reserve Test GPU: $regs"
contains "$out/maximum_kernel.html" "<section id=\"glance\" class=\"glance\"><h2>At a glance</h2><p>This launch cannot run on any of the 2 GPUs, so nothing is estimated:</p><ul><li>Reserve Test GPU: $regs</li><li>GeForce RTX 4070: $regs</li></ul></section>"
has "$out/gpuMeans.md" "- Reserve Test GPU: **cannot launch**: $reserve; no estimate is made"
# At a glance leaves the pair out of its rows and says so in its verdict.
has "$out/gpuMeans.md" "It cannot launch on the Reserve Test GPU ($reserve): that GPU has no estimate and no rank."
same "Reserve Test GPU rows at a glance" "$(sed -n '/^## At a glance/,/^## Configuration/p' "$out/gpuMeans.md" | grep -c '^| Reserve Test GPU |')" 0
lacks "$out/maximum_kernel.md" "maximum_kernel-roofline"
contains "$out/maximum_kernel.html" "<li class=\"cannot-launch\">GeForce RTX 4070: <strong>cannot launch</strong>: $regs; no estimate is made</li>"
contains "$out/index.html" "<strong>cannot launch</strong><br><span class=\"muted\">$regs</span>"
if command -v pdftotext >/dev/null 2>&1; then
    pdftotext "$out/maximum_kernel.pdf" "$tmp/max.txt"
    pdftotext "$out/summary.pdf" "$tmp/summary.txt"
    contains "$tmp/max.txt" "cannot launch on the GeForce RTX 4070: $regs; no estimate is made"
    same "maximum_kernel.pdf's first heading" "$(sed -n '/^At a glance/p' "$tmp/max.txt")" \
        "At a glance: this launch cannot run on any of the GPUs, so nothing is estimated"
    # 3 pairs, in the t_estimate table and in the t_total table of page 1
    same "cannot launch in summary.pdf's tables" "$(grep -c '^cannot launch$' "$tmp/summary.txt")" 6
else
    skip "pdftotext is missing: the PDFs' text is not checked"
fi
# --check names the pairs too (stdout), with the same errors (stderr).
run 1 --check -s "$tmp/s5" "$tmp/k5"
has "$tmp/out" "maximum_kernel           rtx-4070         cannot launch: $regs"
same "--check's errors" "$(grep -c 'cannot launch on' "$tmp/err")" 3
# Against a baseline where the launch ran: an input change, and the gate fails.
cp "$tmp/k5/maximum_kernel.xml" "$tmp/max255.xml"
cp kernels/maximum_kernel.xml "$tmp/k5/maximum_kernel.xml"
run 0 -q -f xml -s "$tmp/s5" --gpu rtx-4070 -o "$tmp/o5-before" "$tmp/k5"
cp "$tmp/max255.xml" "$tmp/k5/maximum_kernel.xml"
run 4 -q -f md,xml -s "$tmp/s5" --gpu rtx-4070 -o "$tmp/o5-after" --baseline "$tmp/o5-before" --fail-on-change 50 "$tmp/k5"
has "$tmp/o5-after/changes.md" "- launch rtx-4070 launches on GeForce RTX 4070: yes → no: $regs"
has "$tmp/err" "roofcast: t_estimate of maximum_kernel on rtx-4070 changed since the baseline by no finite percentage (it moved from 0, or the launch cannot run now), more than --fail-on-change 50 % (which follows t_estimate)"
lacks "$tmp/o5-after/changes.md" "No changes"

# An incremental run says the same and exits 1 again.
run 1 -s "$tmp/s5" -o "$out" "$tmp/k5"
same "stderr of the incremental run" "$(grep -c 'cannot launch on' "$tmp/err")" 3

finish robustness
