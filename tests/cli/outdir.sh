#!/bin/sh
# outdir.sh ROOFCAST SOURCE_DIR GEN_KERNELS
# The output directory across runs:
#  - the manifest (.roofcast-manifest) lists exactly the files a run wrote;
#  - a kernel renamed or deleted, or a format no longer asked for: the
#    files of the earlier run are removed, a file roofcast did not write is
#    kept, and a manifest naming paths outside the directory, or one of
#    version 1 (no checksum), removes nothing;
#  - kernel ids that would overwrite an overview (index, summary, changes,
#    in any case) are refused, the overviews and the other kernels' reports
#    intact; ids next to overview names that cannot collide are kept;
#  - a run killed by SIGTERM or SIGINT mid-way dies of the signal (143,
#    130), leaves no temporary file and the previous manifest as it was;
#    the temporary files a killed run left (made here by hand) are removed
#    by the next run, other hidden files are not; past the file-size
#    limit, a run reports the file it could not write and exits 3;
#  - a second run into a directory another run holds refuses (exit 3).
set -u
. "$(dirname "$0")/lib.sh"
gen=$3
case $gen in /*) ;; *) gen=$(pwd)/$gen ;; esac
setup "$1" "$2"

same() { # same WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok; else bad "$1: got [$2], want [$3]"; fi
}
listed() { sed -n 's/^file \([^ ]*\) [0-9]* [0-9a-f]\{16\}$/\1/p' "$1/.roofcast-manifest"; }
present() { ls "$1"; } # ls leaves out the hidden manifest

# The manifest lists every file written, with its size, and nothing else.
out=$tmp/o
expect 0 "$roofcast" -q -o "$out"
same "manifest header" "$(head -n 1 "$out/.roofcast-manifest")" "roofcast-manifest 2"
same "manifest end" "$(tail -n 1 "$out/.roofcast-manifest" | cut -d ' ' -f 1-2)" "end 34"
same "manifest names" "$(listed "$out")" "$(present "$out")"
same "manifest size of index.html" "$(sed -n 's/^file index.html \([0-9]*\) .*/\1/p' "$out/.roofcast-manifest")" \
    "$(wc -c < "$out/index.html" | tr -d ' ')"
same "files in a bundled run" "$(present "$out" | wc -l | tr -d ' ')" 34
cp "$out/.roofcast-manifest" "$tmp/first"
expect 0 "$roofcast" -q -o "$out"
if cmp -s "$tmp/first" "$out/.roofcast-manifest"; then ok; else bad "a second run changed the manifest"; fi
expect 0 "$roofcast" --check -o "$out"
if cmp -s "$tmp/first" "$out/.roofcast-manifest"; then ok; else bad "--check changed the manifest"; fi

# A kernel renamed: its old files go, files roofcast did not write stay.
mkdir "$tmp/k"
cp kernels/*.xml "$tmp/k"
sed 's/id="gpuMeans"/id="gpuMeansRenamed"/' kernels/gpuMeans.xml > "$tmp/k/gpuMeans.xml"
echo mine > "$out/notes.txt"
echo mine > "$out/gpuMeans-notes.md"
expect 0 "$roofcast" -o "$out" "$tmp/k"
same "message on removing" "$(head -n 1 "$tmp/err")" \
    "roofcast: removed 7 files that an earlier run wrote into $out/ and this run did not"
same "gpuMeans' files after the rename" "$(present "$out" | grep '^gpuMeans' | tr '\n' ' ')" \
    "gpuMeans-notes.md gpuMeansRenamed-roofline.png gpuMeansRenamed-roofline.svg gpuMeansRenamed-time.png gpuMeansRenamed-time.svg gpuMeansRenamed.html gpuMeansRenamed.md gpuMeansRenamed.pdf "
[ -f "$out/notes.txt" ] && ok || bad "notes.txt, not roofcast's, was removed"
same "manifest names after the rename" "$(listed "$out")" "$(present "$out" | grep -v notes)"

# A kernel deleted, the same inputs otherwise (the nightly case): its files go.
rm "$tmp/k/gpuMeans.xml"
expect 0 "$roofcast" -q -o "$out" "$tmp/k"
same "gpuMeans' files after its kernel file was deleted" \
    "$(present "$out" | grep '^gpuMeans' | tr '\n' ' ')" "gpuMeans-notes.md "
before=$(present "$out" | tr '\n' ' ')
# A run over some formats speaks for those only (issue 29.9): the other formats' files stay,
# and stay listed, so that a later run can still remove them.
expect 0 "$roofcast" -q -f md,csv -o "$out" "$tmp/k"
same "files after -f md,csv" "$(present "$out" | tr '\n' ' ')" "$before"
same "manifest names after -f md,csv" "$(listed "$out")" "$(present "$out" | grep -v notes)"
# A run naming a kernel file speaks for that kernel only: the other kernels' files stay.
expect 0 "$roofcast" -o "$out" "$tmp/k/maximum_kernel.xml"
same "files after a run of one kernel" "$(present "$out" | tr '\n' ' ')" "$before"
contains "$tmp/err" "of other kernels or formats, kept)"
# ... and a run over the directory again removes a deleted kernel's files in every format.
expect 0 "$roofcast" -q -o "$out" "$tmp/k"
same "files after a full run" "$(present "$out" | tr '\n' ' ')" "$before"
rm "$tmp/k/gpuKendall.xml"
expect 0 "$roofcast" -q -f md,csv -o "$out" "$tmp/k"
same "gpuKendall's files after its kernel file was deleted, -f md,csv" \
    "$(present "$out" | grep '^gpuKendall' | tr '\n' ' ')" \
    "gpuKendall-roofline.png gpuKendall-roofline.svg gpuKendall-time.png gpuKendall-time.svg gpuKendall.html gpuKendall.pdf "
expect 0 "$roofcast" -q -o "$out" "$tmp/k"
same "gpuKendall's files after a run of every format" "$(present "$out" | grep '^gpuKendall' | tr '\n' ' ')" ""
cp kernels/gpuKendall.xml "$tmp/k/"
expect 0 "$roofcast" -q -f md,csv -o "$out" "$tmp/k"

# A manifest is never a way to remove what roofcast did not write.
echo victim > "$tmp/victim"
mkdir "$out/sub"
printf 'roofcast-manifest 1\nfile ../victim 7\n' > "$out/.roofcast-manifest"
expect 0 "$roofcast" -q -f md -o "$out" "$tmp/k"
same "warning on a bad manifest" "$(cat "$tmp/err")" \
    "$out/.roofcast-manifest:2: warning: not a whole roofcast manifest of this version; every file is made again and no earlier file is removed"
[ -f "$tmp/victim" ] && ok || bad "a manifest removed a file outside the output directory"
[ -f "$out/estimates.csv" ] && ok || bad "a bad manifest still removed estimates.csv"
printf 'roofcast-manifest 1\nfile sub 0\nfile notes.txt 5\n' > "$out/.roofcast-manifest"
expect 0 "$roofcast" -q -f md -o "$out" "$tmp/k"
[ -d "$out/sub" ] && ok || bad "a directory the manifest named was removed"
# Version 1 has no checksum: what it lists is never removed (issue 30).
[ -f "$out/notes.txt" ] && ok || bad "notes.txt, listed in a manifest of version 1, was removed"

# Reserved ids: the overviews are never overwritten by a kernel's report.
# The 25 files: 7 for each kept id, 2 charts of maximum_kernel, estimates.csv
# and results.xml.
mkdir "$tmp/r"
cp kernels/*.xml "$tmp/r"
for id in index Summary changes results estimates maximum_kernel-roofline; do
    sed "s/id=\"maximum_kernel\"/id=\"$id\"/" kernels/maximum_kernel.xml > "$tmp/r/z-$id.xml"
done
expect 1 "$roofcast" -q -o "$tmp/ro" "$tmp/r"
same "reserved ids refused" "$(cat "$tmp/err")" \
"$tmp/r/z-Summary.xml:2: kernel id 'Summary' is reserved: its report Summary.pdf would overwrite summary.pdf, which covers every kernel; choose another id
$tmp/r/z-changes.xml:2: kernel id 'changes' is reserved: its report changes.md would overwrite changes.md, which covers every kernel; choose another id
$tmp/r/z-index.xml:2: kernel id 'index' is reserved: its report index.html would overwrite index.html, which covers every kernel; choose another id"
grep -q 'href="results.html"' "$tmp/ro/index.html" && ok || bad "index.html is not the overview listing the kernel 'results'"
grep -q '<roofcast-results' "$tmp/ro/results.xml" && ok || bad "results.xml is not the results tree"
same "files of the kept ids" "$(ls "$tmp/ro" | grep -c '^\(results\|estimates\|maximum_kernel-roofline\)[.-]')" 25
same "files in all" "$(ls "$tmp/ro" | wc -l | tr -d ' ')" 55

# Interrupted runs. The previous run wrote the bundled kernels; the next,
# of 300 generated kernels, is killed once it has written 20 reports.
temporaries() { find "$1" -name '.*' -type f ! -name .roofcast-manifest ! -name .roofcast-cache ! -name .roofcast.lock; }
mkdir "$tmp/g"
"$gen" 300 "$tmp/g" || bad "gen_kernels failed"
out=$tmp/s
expect 0 "$roofcast" -q -f md,html,csv,xml -o "$out"
cp "$out/.roofcast-manifest" "$tmp/before"
kill_mid_run() { # kill_mid_run SIGNAL WANT_STATUS [ENV_ARGS...]
    sig=$1 want=$2; shift 2
    env "$@" "$roofcast" -q -j 2 -f md,html,csv,xml -o "$out" "$tmp/g" 2>"$tmp/err" &
    pid=$!
    tries=0
    while [ "$(ls "$out" | grep -c '^k[0-9]*\.md$')" -lt 20 ] && [ $tries -lt 600 ]; do
        sleep 0.1; tries=$((tries + 1))
    done
    kill -s "$sig" $pid
    wait $pid
    got=$?
    same "status after SIG$sig" "$got" "$want"
    same "temporary files after SIG$sig" "$(temporaries "$out")" ""
    if cmp -s "$tmp/before" "$out/.roofcast-manifest"; then ok; else bad "SIG$sig: the manifest changed"; fi
    rm -f "$out"/k[0-9]*
}
kill_mid_run TERM 143
kill_mid_run INT 130 --default-signal=INT

# What a killed run left is removed, and nothing else hidden.
for f in .maximum_kernel.md.Ab3dE9 .results.xml.x0X0x0 .summary.pdf.scratch.q1W2e3 \
         ..roofcast-manifest.ZZ99zz ..roofcast-cache.Qq7Rr8 .notes.txt.abcdef .maximum_kernel.md.short .hidden; do
    echo x > "$out/$f"
done
expect 0 "$roofcast" -f md,html,csv,xml -o "$out"
same "message on leftovers" "$(head -n 1 "$tmp/err")" \
    "roofcast: removed 5 temporary files an interrupted run left in $out/"
same "hidden files kept" "$(temporaries "$out" | sed 's#.*/##' | sort | tr '\n' ' ')" \
    ".hidden .maximum_kernel.md.short .notes.txt.abcdef "
if cmp -s "$tmp/before" "$out/.roofcast-manifest"; then ok; else bad "the manifest after a whole run differs"; fi

# Past the file-size limit (ulimit -f counts 512-byte blocks in sh, 1024 in
# bash: either is far below a PNG chart).
rm -f "$out"/.[a-z]*
(ulimit -f 100; "$roofcast" -f png -o "$out" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/status")
same "status past the file-size limit" "$(cat "$tmp/status")" 3
grep -q "^roofcast: $out/[A-Za-z_]*-\(roofline\|time\)\.png: cannot write: File too large\$" "$tmp/err" && ok ||
    { bad "no 'File too large' message"; sed 's/^/  | /' "$tmp/err" >&2; }
same "temporary files past the file-size limit" "$(temporaries "$out")" ""

# One run at a time: while another holds the lock, a run refuses.
flock -o "$out/.roofcast.lock" sleep 30 &
holder=$!
sleep 0.3
expect 3 "$roofcast" -q -f md -o "$out"
same "message when locked" "$(cat "$tmp/err")" \
    "roofcast: $out: another roofcast run is writing into this directory (it holds .roofcast.lock); wait for it to end, or choose another -o"
kill $holder
wait $holder 2>/dev/null
expect 0 "$roofcast" -q -f md -o "$out"

finish outdir
