#!/bin/sh
# incremental.sh ROOFCAST SOURCE_DIR
# Incremental runs (issue 18.1): a file whose inputs are unchanged since the
# run that made it is kept, untouched; the rest is made again, and the
# directory ends byte for byte as a full run into an empty one leaves it:
#  - a re-run with nothing changed rewrites no file (modification times
#    kept) and says how many files it kept;
#  - one kernel changed: its files and the overviews only; an output file
#    deleted by hand: that file's kernel only;
#  - a GPU file, a template, the formats changed, and --force: every file;
#  - a rejected input added: the overviews, no kernel's files;
#  - with --baseline and --fail-on-change, the gate still holds when every
#    file is up to date;
#  - a manifest altered or cut short: a warning, and a full run that removes
#    nothing; a manifest of version 1: a warning, and a full run that
#    removes nothing it lists (issue 30);
#  - a run killed midway (the lock file still says "running"): every file
#    made again, even one it replaced with a file of the same size.
set -u
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"

same() { # same WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok; else bad "$1: got [$2], want [$3]"; fi
}
# Every file but the lock is set to an old time; `touched DIR` lists, by
# name, the files written since.
age() { find "$1" -type f ! -name .roofcast.lock -exec touch -d '2001-01-01 00:00' {} +; }
touched() { find "$1" -type f ! -name .roofcast.lock -newermt '2001-01-02' -printf '%P\n' | sort | tr '\n' ' '; }
# full NAME ARGS...: a full run of the same inputs into an empty directory,
# which the incremental directory must equal byte for byte.
full() {
    name=$1; shift
    rm -rf "$tmp/full"
    "$roofcast" -q -o "$tmp/full" "$@" >/dev/null 2>&1
    if diff -r "$tmp/full" "$out" >"$tmp/diff" 2>&1; then ok; else bad "$name: differs from a full run"; show "$tmp/diff"; fi
}

mkdir "$tmp/k" "$tmp/s"
cp kernels/*.xml "$tmp/k"
cp specs/*.xml specs/*.xsd "$tmp/s" 2>/dev/null
cp -r templates "$tmp/t"
out=$tmp/o
args="-s $tmp/s -t $tmp/t"
all=$(printf '%s ' .roofcast-cache .roofcast-manifest estimates.csv \
    getRestricted-roofline.png getRestricted-roofline.svg getRestricted-time.png getRestricted-time.svg getRestricted.html getRestricted.md getRestricted.pdf \
    gpuKendall-roofline.png gpuKendall-roofline.svg gpuKendall-time.png gpuKendall-time.svg gpuKendall.html gpuKendall.md gpuKendall.pdf \
    gpuMeans-roofline.png gpuMeans-roofline.svg gpuMeans-time.png gpuMeans-time.svg gpuMeans.html gpuMeans.md gpuMeans.pdf \
    index.html index.png index.svg \
    maximum_kernel-roofline.png maximum_kernel-roofline.svg maximum_kernel-time.png maximum_kernel-time.svg maximum_kernel.html maximum_kernel.md maximum_kernel.pdf \
    results.xml summary.pdf)
overviews=".roofcast-cache .roofcast-manifest estimates.csv index.html index.png index.svg results.xml summary.pdf"
means="gpuMeans-roofline.png gpuMeans-roofline.svg gpuMeans-time.png gpuMeans-time.svg gpuMeans.html gpuMeans.md gpuMeans.pdf"

# A first run writes everything; a second with nothing changed, nothing.
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "files of a first run" "$(touched "$out")" "$all"
age "$out"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "files rewritten by an unchanged run" "$(touched "$out")" ""
has "$tmp/err" "roofcast: 4 kernels on 12 GPUs: 0 files written to $out/ (34 up to date, kept), 0 inputs rejected"
full "unchanged run" $args "$tmp/k"

# One kernel changed: its files and the overviews.
sed 's/Means of pairs/Mean of pairs/' kernels/gpuMeans.xml > "$tmp/k/gpuMeans.xml"
cmp -s kernels/gpuMeans.xml "$tmp/k/gpuMeans.xml" && bad "the edit of gpuMeans.xml changed nothing"
age "$out"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "files rewritten after one kernel changed" "$(touched "$out")" \
    "$(printf '%s\n' $overviews $means | sort | tr '\n' ' ')"
has "$tmp/err" "roofcast: 4 kernels on 12 GPUs: 13 files written to $out/ (21 up to date, kept), 0 inputs rejected"
full "one kernel changed" $args "$tmp/k"

# The overviews' cache: with one kernel changed, the others' shares of the
# overviews (their text of results.xml, rows of estimates.csv, index rows,
# and their pages of summary.pdf as drawn in their own PDFs) come from
# .roofcast-cache rather than from counting them again, and give the same
# bytes.
change_means() { # change_means TEXT: edits gpuMeans.xml's summary
    sed "s/Means of pairs/$1/" kernels/gpuMeans.xml > "$tmp/k/gpuMeans.xml"
}
change_means "Mean of two"
expect 0 "$roofcast" -v $args -o "$out" "$tmp/k"
has "$tmp/err" "roofcast: 3 kernels not counted: their shares of the overviews were read from $out/.roofcast-cache"
full "one kernel changed, the others from the cache" $args "$tmp/k"
# A damaged entry (gpuKendall's, its id altered): that kernel is counted
# again, with a warning.
sed -i 's/<kernel id="gpuKendall"/<kernel id="gpuKendalX"/' "$out/.roofcast-cache"
change_means "Mean of pairs"
expect 0 "$roofcast" -v $args -o "$out" "$tmp/k"
has "$tmp/err" "roofcast: 2 kernels not counted: their shares of the overviews were read from $out/.roofcast-cache"
has "$tmp/err" "$out/.roofcast-cache: warning: damaged: the kernels it holds no whole entry of are counted again"
full "a damaged entry in the cache" $args "$tmp/k"
# Cut short inside its first entry: every kernel counted.
head -c 3000 "$out/.roofcast-cache" > "$tmp/c" && mv "$tmp/c" "$out/.roofcast-cache"
change_means "Mean of two"
expect 0 "$roofcast" -v $args -o "$out" "$tmp/k"
lacks "$tmp/err" "shares of the overviews were read"
has "$tmp/err" "$out/.roofcast-cache: warning: damaged: the kernels it holds no whole entry of are counted again"
full "a cache cut short" $args "$tmp/k"
# Missing: every kernel counted, without a word.
rm "$out/.roofcast-cache"
change_means "Mean of pairs"
expect 0 "$roofcast" -v $args -o "$out" "$tmp/k"
lacks "$tmp/err" "roofcast-cache"
full "no cache" $args "$tmp/k"
# --force does not read it: no warning on a damaged one, which it replaces.
sed -i 's/<kernel id="gpuKendall"/<kernel id="gpuKendalX"/' "$out/.roofcast-cache"
expect 0 "$roofcast" -v --force $args -o "$out" "$tmp/k"
lacks "$tmp/err" "roofcast-cache"
full "--force with a damaged cache" $args "$tmp/k"
change_means "Mean of pairs"

# An output file deleted by hand: made again, with nothing else.
rm "$out/gpuKendall.pdf"
age "$out"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "files rewritten after one was deleted" "$(touched "$out")" \
    "gpuKendall-roofline.png gpuKendall-roofline.svg gpuKendall-time.png gpuKendall-time.svg gpuKendall.html gpuKendall.md gpuKendall.pdf "
full "a deleted report" $args "$tmp/k"

# A GPU file, a template, the formats, --force: every file.
sed 's/<source>/<source>Edited: /' specs/l4.xml > "$tmp/s/l4.xml"
age "$out"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "files rewritten after a GPU file changed" "$(touched "$out")" "$all"
full "a GPU file changed" $args "$tmp/k"
printf '<!-- edited -->\n' >> "$tmp/t/markdown.xsl"
age "$out"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "files rewritten after a template changed" "$(touched "$out")" "$all"
age "$out"
expect 0 "$roofcast" $args --force -o "$out" "$tmp/k"
same "files rewritten with --force (the manifest the same)" "$(touched "$out")" "$(echo "$all" | sed 's/\.roofcast-manifest //')"
full "--force" $args "$tmp/k"
age "$out"
expect 0 "$roofcast" $args -f md,csv -o "$out" "$tmp/k"
same "files after the formats changed" "$(touched "$out")" \
    ".roofcast-cache .roofcast-manifest estimates.csv getRestricted.md gpuKendall.md gpuMeans.md maximum_kernel.md "
# The other formats' files stay (issue 29.9: a run speaks for its formats only); those of the
# formats asked for are a full run's.
[ -f "$out/gpuMeans.pdf" ] && [ -f "$out/index.html" ] && ok || bad "files of other formats were removed"
rm -rf "$tmp/full"
"$roofcast" -q -o "$tmp/full" $args -f md,csv "$tmp/k" >/dev/null 2>&1
for f in $(ls "$tmp/full"); do
    cmp -s "$tmp/full/$f" "$out/$f" && ok || bad "the formats changed: $f differs from a full run's"
done

# A rejected input: the overviews list it; no kernel's files are made.
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
printf '<kernel id="broken">\n' > "$tmp/k/zz-broken.xml"
age "$out"
expect 1 "$roofcast" $args -o "$out" "$tmp/k"
same "files rewritten after a rejected input came" "$(touched "$out")" "$overviews "
full "a rejected input" $args "$tmp/k"
rm "$tmp/k/zz-broken.xml"

# Formats without files of each kernel's own (-f csv): nothing says a kernel
# was counted without error, so each is counted every time, and one that
# cannot be is still rejected.
expect 1 "$roofcast" -q -f csv -o "$tmp/csv" tests/data/cli/mixed
expect 1 "$roofcast" -q -f csv -o "$tmp/csv" tests/data/cli/mixed
contains "$tmp/err" "tests/data/cli/mixed/zero_step.xml:7: <loop> 'i' has step 0"

# --baseline: the comparison and its gate (here on t_total, which the L4's bandwidth moves
# more than 1 %) hold when every file is kept.
cp -r "$out" "$tmp/before"
sed 's/<bandwidth>300 GB\/s/<bandwidth>250 GB\/s/' "$tmp/s/l4.xml" > "$tmp/l4" && mv "$tmp/l4" "$tmp/s/l4.xml"
expect 4 "$roofcast" $args --baseline "$tmp/before" --fail-on-change 1 --fail-on-change-of t_total -o "$out" "$tmp/k"
[ -f "$out/changes.md" ] && ok || bad "no changes.md with --baseline"
age "$out"
expect 4 "$roofcast" $args --baseline "$tmp/before" --fail-on-change 1 --fail-on-change-of t_total -o "$out" "$tmp/k"
same "files rewritten by an unchanged run with --baseline" "$(touched "$out")" ""
contains "$tmp/err" "moved by"
full "with --baseline" $args --baseline "$tmp/before" "$tmp/k"

# A manifest altered, cut short or of version 1: a full run, nothing removed.
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
echo mine > "$out/mine.txt"
# The key's first digit changed whatever it was (the key hashes roofcast's
# own executable, so any digit can come).
sed -i -e 's/^\(file gpuMeans.md [0-9]* \)f/\1X/' -e 's/^\(file gpuMeans.md [0-9]* \)[0-9a-e]/\1f/' \
    -e 's/^\(file gpuMeans.md [0-9]* \)X/\10/' "$out/.roofcast-manifest"
age "$out"
expect 0 "$roofcast" -q $args -o "$out" "$tmp/k"
same "warning on an altered manifest" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest:36: warning: not a whole roofcast manifest of this version; every file is made again and no earlier file is removed"
same "files rewritten after the manifest was altered" "$(touched "$out")" "$all"
[ -f "$out/mine.txt" ] && ok || bad "mine.txt, not roofcast's, was removed"
head -n 10 "$out/.roofcast-manifest" > "$tmp/m" && cp "$tmp/m" "$out/.roofcast-manifest"
age "$out"
expect 0 "$roofcast" -q $args -o "$out" "$tmp/k"
same "warning on a manifest cut short" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest:11: warning: not a whole roofcast manifest of this version; every file is made again and no earlier file is removed"
same "files rewritten after the manifest was cut short" "$(touched "$out")" "$all"
head -c 100 "$out/.roofcast-manifest" > "$tmp/m" && cp "$tmp/m" "$out/.roofcast-manifest"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
contains "$tmp/err" "warning: not a whole roofcast manifest"
sed -n 's/^file \([^ ]*\) \([0-9]*\) [0-9a-f]*$/file \1 \2/p' "$out/.roofcast-manifest" > "$tmp/m"
{ echo 'roofcast-manifest 1'; cat "$tmp/m"; } > "$out/.roofcast-manifest"
age "$out"
expect 0 "$roofcast" -q $args -o "$out" "$tmp/k"
same "messages with a manifest of version 1" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest: warning: a manifest of an older roofcast (version 1, without a checksum): every file is made again and no earlier file is removed"
same "files rewritten with a manifest of version 1" "$(touched "$out")" "$all"
rm "$out/mine.txt"
full "after a manifest of version 1" $args "$tmp/k"

# A run killed midway leaves "running" in the lock file, and may have
# replaced a file under its old manifest entry: here gpuMeans.md, by one of
# the same size, as a run of an edited kernel would before its inputs were
# put back. The next run trusts no file. A whole run leaves the lock empty.
same "lock file after a whole run" "$(cat "$out/.roofcast.lock")" ""
tr 'a-z' 'b-za' < "$out/gpuMeans.md" > "$tmp/m" && cp "$tmp/m" "$out/gpuMeans.md"
echo running > "$out/.roofcast.lock"
age "$out"
expect 0 "$roofcast" $args -o "$out" "$tmp/k"
same "message after a killed run" "$(head -n 1 "$tmp/err")" \
    "roofcast: the last run into $out/ was interrupted: every file is made again"
same "files rewritten after a killed run" "$(touched "$out")" "$(echo "$all" | sed 's/\.roofcast-manifest //')"
full "after a killed run" $args "$tmp/k"
same "lock file after the run that followed" "$(cat "$out/.roofcast.lock")" ""

finish incremental
