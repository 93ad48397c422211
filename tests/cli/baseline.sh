#!/bin/sh
# baseline.sh ROOFCAST SOURCE_DIR
# --baseline and --fail-on-change: the comparison lists exactly what changed
# (one parameter, one GPU figure, one kernel added and one removed), says
# nothing when nothing changed, and copes with bad baselines.
set -u
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
lines() { n=$(grep -c -- "$2" "$1"); [ "$n" -eq "$3" ] && ok || bad "$1 has $n lines matching $2, want $3"; }

# Run A: the bundled inputs. Run B: k = 120 in maximum_kernel, the TITAN
# Black at 350 GB/s, gpuMeans removed and gpuMeans2 added.
mkdir -p "$tmp/kb" "$tmp/sb"
cp kernels/gpuKendall.xml kernels/getRestricted.xml "$tmp/kb/"
sed 's/name="k" value="100"/name="k" value="120"/' kernels/maximum_kernel.xml > "$tmp/kb/maximum_kernel.xml"
sed 's/id="gpuMeans"/id="gpuMeans2"/' kernels/gpuMeans.xml > "$tmp/kb/gpuMeans2.xml"
cp specs/*.xml "$tmp/sb/"
sed 's|336 GB/s|350 GB/s|' specs/titan-black.xml > "$tmp/sb/titan-black.xml"
expect 0 "$roofcast" -q -f md,csv,xml -o "$tmp/a"
expect 0 "$roofcast" -q -f md,csv,xml -o "$tmp/b" -s "$tmp/sb" --baseline "$tmp/a" "$tmp/kb"

c="$tmp/b/changes.csv"
has "$c" "kind,kernel,gpu,quantity,old,new,change_percent"
has "$c" "kernel-added,gpuMeans2,,,,,"
has "$c" "kernel-removed,gpuMeans,,,,,"
has "$c" "input-param,maximum_kernel,,k,100,120,"
has "$c" "input-count,maximum_kernel,,FLOPs,\"240,000\",\"288,000\","
has "$c" "input-gpu,maximum_kernel,titan-black,bandwidth,336 GB/s,350 GB/s,"
has "$c" "input-gpu,gpuKendall,titan-black,bandwidth,336 GB/s,350 GB/s,"
# 768,000 bytes / 350 GB/s + 5 us = 7.1942857... us; was 6.9047619... us
has "$c" "estimate,maximum_kernel,titan-black,t_total_us,6.904761904761905,7.194285714285715,4.193103448275857"
# 1,980,000 bytes: 5.892857... us -> 5.657142... us, -4 %
has "$c" "estimate,gpuKendall,titan-black,t_mem_us,5.892857142857143,5.6571428571428575,-3.9999999999999925"
# maximum_kernel moves on all 12 GPUs in 5 quantities (not t_launch; t_estimate
# too); the other two kernels only on the TITAN Black, in t_mem, t_body, t_total
# (their refined estimates use the TITAN Black's measured sustained bandwidth,
# which did not change).
lines "$c" "^estimate,maximum_kernel," 60
contains "$c" "estimate,maximum_kernel,titan-black,t_estimate_us,"
lines "$c" "^estimate,gpuKendall," 3
lines "$c" "^estimate,getRestricted," 3
lines "$c" "^estimate," 66
lines "$c" "^gpu-" 0
has "$tmp/b/changes.md" "- param k: 100 → 120"
has "$tmp/b/changes.md" "| GeForce GTX TITAN Black | t_total | 6.90 | 7.19 | +4.19 % |"
lacks "$tmp/b/changes.md" "t-total"
has "$tmp/b/maximum_kernel.md" "## Changes since the baseline"
has "$tmp/b/maximum_kernel.md" "- gpu titan-black bandwidth: 336 GB/s → 350 GB/s"

# The index has a "changes since" panel; each changed report its section.
expect 0 "$roofcast" -q -f html -o "$tmp/h" -s "$tmp/sb" --baseline "$tmp/a" "$tmp/kb"
grep -q '<section id="changes"><h2>Changes since the baseline</h2>' "$tmp/h/index.html" && ok || bad "index.html has no changes panel"
grep -q '66 estimate values changed; the largest move is 20.0 %.' "$tmp/h/index.html" && ok || bad "index.html panel summary"
# One value changed (the TITAN Black's FP32 peak moves only t_compute of a
# memory-bound kernel): the panel's noun agrees.
mkdir -p "$tmp/s1"
sed 's|5.12 TFLOP/s|5.2 TFLOP/s|' specs/titan-black.xml > "$tmp/s1/titan-black.xml"
expect 0 "$roofcast" -q -f xml --gpu titan-black -o "$tmp/one-a" kernels/maximum_kernel.xml
expect 0 "$roofcast" -q -f html,csv --gpu titan-black -s "$tmp/s1" -o "$tmp/one-b" --baseline "$tmp/one-a" kernels/maximum_kernel.xml
lines "$tmp/one-b/changes.csv" "^estimate," 1
contains "$tmp/one-b/index.html" ": 1 estimate value changed, by 1.54 %.</p>"
grep -q 'Kernel added: <a href="gpuMeans2.html">gpuMeans</a>' "$tmp/h/index.html" && ok || bad "index.html lacks the added kernel"
grep -q 'param k: 100 → 120' "$tmp/h/index.html" && ok || bad "index.html lacks the changed parameter"
contains "$tmp/h/index.html" "GeForce GTX TITAN Black 6.90 → 7.19 (+4.19 %)"
grep -q 'id="changes"' "$tmp/h/maximum_kernel.html" && ok || bad "maximum_kernel.html has no changes section"
grep -q 'id="changes"' "$tmp/h/gpuMeans2.html" && bad "an added kernel has a changes section" || ok

# The PDF summary of a changed kernel has the section too.
expect 0 "$roofcast" -q -f pdf -o "$tmp/p" -s "$tmp/sb" --baseline "$tmp/a" "$tmp/kb"
pdftotext "$tmp/p/maximum_kernel.pdf" "$tmp/p/max.txt" 2>/dev/null
grep -q "Changes since the baseline" "$tmp/p/max.txt" && ok || bad "maximum_kernel.pdf has no changes section"
grep -q "param k: 100 → 120" "$tmp/p/max.txt" && ok || bad "maximum_kernel.pdf lacks the changed parameter"
contains "$tmp/p/max.txt" "t_total (µs): GeForce GTX TITAN Black 6.90 → 7.19"
pdftotext "$tmp/p/gpuMeans2.pdf" - 2>/dev/null | grep -q "Changes since" && bad "an added kernel's PDF has a changes section" || ok

# The exit status: unchanged without --fail-on-change; 4 when t_total (the
# estimate a user tracks, per kernel x GPU) moved by more than the limit.
# maximum_kernel's t_mem moves by 20 % everywhere, its t_total by at most
# 5.98 %: on the L4, (768,000 - 640,000) B / 300 GB/s = 0.427 us on top of
# 2.133 + 5 us.
# (--fail-on-change-of t_total; the default follows t_estimate, below.)
tt="--fail-on-change-of t_total"
expect 0 "$roofcast" -q -f csv -o "$tmp/c" -s "$tmp/sb" --baseline "$tmp/a" --fail-on-change 10 $tt "$tmp/kb"
[ ! -s "$tmp/err" ] && ok || bad "--fail-on-change 10 passed with messages: $(cat "$tmp/err")"
expect 4 "$roofcast" -q -f csv -o "$tmp/c" -s "$tmp/sb" --baseline "$tmp/a" --fail-on-change 5.9 $tt "$tmp/kb"
has "$tmp/err" "roofcast: t_total of maximum_kernel on l4 moved by 5.98 % since the baseline, more than --fail-on-change 5.9 % (which follows t_total)"
expect 0 "$roofcast" -q -f csv -o "$tmp/c" -s "$tmp/sb" --baseline "$tmp/a" --fail-on-change 6 $tt "$tmp/kb"
# By default the gate follows t_estimate, and says so: the same change moves maximum_kernel's
# t_estimate by at most 1.62 % (on titan-black), so 5.9 % passes, and 0.13 % fails.
expect 0 "$roofcast" -f csv -o "$tmp/c" -s "$tmp/sb" --baseline "$tmp/a" --fail-on-change 5.9 "$tmp/kb"
contains "$tmp/err" "roofcast: --fail-on-change follows t_estimate (--fail-on-change-of t_total follows t_total); its largest move, t_estimate of maximum_kernel on titan-black by 1.62 %, is within 5.9 %"
expect 4 "$roofcast" -q -f csv -o "$tmp/c" -s "$tmp/sb" --baseline "$tmp/a" --fail-on-change 0.13 "$tmp/kb"
has "$tmp/err" "roofcast: t_estimate of maximum_kernel on titan-black moved by 1.62 % since the baseline, more than --fail-on-change 0.13 % (which follows t_estimate)"
# changes.* show both
contains "$tmp/c/changes.csv" ",t_total_us,"
contains "$tmp/c/changes.csv" ",t_estimate_us,"
expect 2 "$roofcast" -q --baseline "$tmp/a" --fail-on-change 5 --fail-on-change-of t_body
has "$tmp/err" "roofcast: --fail-on-change-of: 't_body' is neither t_estimate nor t_total
Try 'roofcast --help' for more information."
# The gate's figure is rounded as changes.md rounds it: a move of 25 % is
# "25.0 %" in both (it was "25" beside "+25.0 %").
awk '/<kernel id="maximum_kernel"/ { k = 1 } /<\/kernel>/ { k = 0 }
     k && /<estimate gpu="titan-black"/ { sub(/ t-total="[^"]*"/, " t-total=\"5.523809523809524e-06\"") }
     { print }' "$tmp/a/results.xml" > "$tmp/quarter.xml"
expect 4 "$roofcast" -q -f md,csv -o "$tmp/q" --baseline "$tmp/quarter.xml" --fail-on-change 24 $tt kernels/maximum_kernel.xml
has "$tmp/err" "roofcast: t_total of maximum_kernel on titan-black moved by 25.0 % since the baseline, more than --fail-on-change 24 % (which follows t_total)"
has "$tmp/q/changes.md" "| GeForce GTX TITAN Black | t_total | 5.52 | 6.90 | +25.0 % |"
expect 2 "$roofcast" -q --fail-on-change ten
has "$tmp/err" "roofcast: --fail-on-change: 'ten' is not a percentage (a number >= 0)"

# Identical runs: no changes, and the reports are byte for byte those of a
# run without a baseline.
expect 0 "$roofcast" -q -f md,csv,xml -o "$tmp/same" --baseline "$tmp/a/results.xml" --fail-on-change 0
has "$tmp/same/changes.md" "No changes: every kernel, GPU and estimate is as in the baseline."
lines "$tmp/same/changes.csv" "," 1
for f in maximum_kernel.md gpuMeans.md gpuKendall.md getRestricted.md estimates.csv; do
    cmp -s "$tmp/a/$f" "$tmp/same/$f" && ok || bad "$f differs with an identical baseline"
done
expect 0 "$roofcast" -q -f pdf,html -o "$tmp/same-a" kernels/maximum_kernel.xml
expect 0 "$roofcast" -q -f pdf,html -o "$tmp/same-b" --baseline "$tmp/a" kernels/maximum_kernel.xml
for f in maximum_kernel.pdf maximum_kernel.html; do
    cmp -s "$tmp/same-a/$f" "$tmp/same-b/$f" && ok || bad "$f differs with an identical baseline"
done

# A missing baseline: a warning, and the run still writes its reports.
expect 0 "$roofcast" -q -f md,csv -o "$tmp/m" --baseline "$tmp/nowhere"
has "$tmp/err" "$tmp/nowhere: warning: cannot read the baseline (No such file or directory): nothing to compare with"
[ -s "$tmp/m/maximum_kernel.md" ] && [ ! -e "$tmp/m/changes.md" ] && ok || bad "missing baseline: wrong outputs"

# With --fail-on-change, a baseline that cannot be read fails the gate: it
# cannot say that nothing moved. The reports are still written.
expect 4 "$roofcast" -q -f md,csv -o "$tmp/m" --baseline "$tmp/nowhere" --fail-on-change 5
has "$tmp/err" "$tmp/nowhere: warning: cannot read the baseline (No such file or directory): nothing to compare with
roofcast: the baseline could not be compared (see the warning): --fail-on-change cannot pass"
[ -s "$tmp/m/maximum_kernel.md" ] && ok || bad "unreadable baseline with the gate: no reports"
# The gate without a baseline is a usage error, not a silent pass.
expect 2 "$roofcast" -q -f csv -o "$tmp/m" --fail-on-change 5
has "$tmp/err" "roofcast: --fail-on-change needs --baseline (a previous run to compare with)
Try 'roofcast --help' for more information."

# A corrupt baseline (cut in half): a warning, reports still written.
head -c 3000 "$tmp/a/results.xml" > "$tmp/corrupt.xml"
expect 0 "$roofcast" -q -f md,csv -o "$tmp/k" --baseline "$tmp/corrupt.xml"
grep -q "^$tmp/corrupt.xml:[0-9]*: warning: the baseline is not a readable results.xml: nothing compared\$" "$tmp/err" && ok || bad "corrupt baseline message: $(cat "$tmp/err")"
[ -s "$tmp/k/maximum_kernel.md" ] && ok || bad "corrupt baseline: no reports"

expect 4 "$roofcast" -q -f csv -o "$tmp/k" --baseline "$tmp/corrupt.xml" --fail-on-change 0
has "$tmp/err" "roofcast: the baseline could not be compared (see the warning): --fail-on-change cannot pass"

# Not XML at all, and XML of another kind.
printf '\211PNG\r\n' > "$tmp/binary.xml"
expect 0 "$roofcast" -q -f csv -o "$tmp/n" --baseline "$tmp/binary.xml"
grep -q "warning: the baseline is not a readable results.xml: nothing compared" "$tmp/err" && ok || bad "binary baseline"
echo '<kernel id="x"/>' > "$tmp/other.xml"
expect 0 "$roofcast" -q -f csv -o "$tmp/n" --baseline "$tmp/other.xml"
has "$tmp/err" "$tmp/other.xml:1: warning: the baseline is not a roofcast results.xml (expected <roofcast-results> and no DOCTYPE): nothing compared"

# Baseline values that are not times (NaN, infinite, negative, not a
# number): a warning naming the file, line and kernel; the value is shown as
# not compared; a t_total among them fails --fail-on-change whatever the
# limit. maximum_kernel's lines: its TITAN Black t_total is nan, its TITAN X
# t_mem -1e999, its L4 t_total negative.
awk '/<kernel id="maximum_kernel"/ { k = 1 } /<\/kernel>/ { k = 0 }
     k && /<estimate gpu="titan-black"/ { sub(/ t-total="[^"]*"/, " t-total=\"nan\"") }
     k && /<estimate gpu="titan-x"/ { sub(/ t-mem="[^"]*"/, " t-mem=\"-1e999\"") }
     k && /<estimate gpu="l4"/ { sub(/ t-total="[^"]*"/, " t-total=\"-5e-06\"") }
     { print }' "$tmp/a/results.xml" > "$tmp/bad-times.xml"
line=$(grep -n '<estimate gpu="titan-black"[^>]* t-total="nan"' "$tmp/bad-times.xml" | cut -d: -f1)
expect 4 "$roofcast" -q -f md,csv -o "$tmp/bad-times" --baseline "$tmp/bad-times.xml" --fail-on-change 1000 $tt
has "$tmp/err" "$tmp/bad-times.xml:$line: warning: kernel 'maximum_kernel': the baseline's t_total on titan-black is 'nan', not a time (a finite number of seconds, 0 or more); 3 such values not compared, and --fail-on-change cannot pass
roofcast: 2 baseline values of t_total are missing or not times (see the warnings): --fail-on-change cannot pass"
# ... which the default gate, following t_estimate, does not follow: it passes
expect 0 "$roofcast" -q -f md,csv -o "$tmp/bad-times" --baseline "$tmp/bad-times.xml" --fail-on-change 1000
lacks "$tmp/err" "cannot pass"
has "$tmp/bad-times/changes.md" "| GeForce GTX TITAN Black | t_total | not a time | 6.90 | not compared |"
has "$tmp/bad-times/changes.md" "| GeForce GTX TITAN X | t_mem | not a time | 1.90 | not compared |"
lacks "$tmp/bad-times/changes.md" "nan"
# A refined t_estimate that is not a time fails the default gate, and the message names it.
awk '/<kernel id="maximum_kernel"/ { k = 1 } /<\/kernel>/ { k = 0 }
     k && /<estimate gpu="titan-black"/ { sub(/ t-estimate="[^"]*"/, " t-estimate=\"nan\"") }
     { print }' "$tmp/a/results.xml" > "$tmp/bad-estimate.xml"
expect 4 "$roofcast" -q -f csv -o "$tmp/bad-estimate" --baseline "$tmp/bad-estimate.xml" --fail-on-change 1000
has "$tmp/err" "roofcast: 1 baseline value of t_estimate is missing or not a time (see the warnings): --fail-on-change cannot pass"
has "$tmp/bad-times/changes.csv" "estimate,maximum_kernel,titan-black,t_total_us,nan,6.904761904761905,"
# Without --fail-on-change the warning alone; an untracked quantity (t_mem)
# that is not a time warns but does not fail the gate.
expect 0 "$roofcast" -q -f csv -o "$tmp/bad-times" --baseline "$tmp/bad-times.xml"
awk '/<kernel id="maximum_kernel"/ { k = 1 } /<\/kernel>/ { k = 0 }
     k && /<estimate gpu="titan-x"/ { sub(/ t-mem="[^"]*"/, " t-mem=\"-1e999\"") }
     { print }' "$tmp/a/results.xml" > "$tmp/bad-mem.xml"
expect 0 "$roofcast" -q -f csv -o "$tmp/bad-times" --baseline "$tmp/bad-mem.xml" --fail-on-change 1000
contains "$tmp/err" "warning: kernel 'maximum_kernel': the baseline's t_mem on titan-x is '-1e999', not a time (a finite number of seconds, 0 or more); 1 such value not compared"
lacks "$tmp/err" "cannot pass"

# A newer roofcast's results.xml: compared for what this version knows.
sed 's/ format-version="1"/ format-version="2"/' "$tmp/a/results.xml" > "$tmp/newer.xml"
expect 0 "$roofcast" -q -f csv -o "$tmp/newer" --baseline "$tmp/newer.xml" --fail-on-change 0
has "$tmp/err" "$tmp/newer.xml:2: warning: the baseline's format version is '2', and this roofcast writes version 1: comparing only what version 1 has (ids, parameters, launch, counts, GPU figures and the estimates t_total, t_body, t_compute, t_mem, t_launch); anything else in the baseline is ignored"
lines "$tmp/newer/changes.csv" "," 1

# An older roofcast's results.xml: no format version and no t-launch.
sed -e 's/ format-version="1"//' -e 's/ t-launch="[^"]*"//g' "$tmp/a/results.xml" > "$tmp/old.xml"
expect 0 "$roofcast" -q -f csv -o "$tmp/o" --baseline "$tmp/old.xml"
has "$tmp/err" "$tmp/old.xml:2: warning: the baseline has no format version (an older roofcast): comparing what it has"
has "$tmp/err" "$tmp/old.xml: warning: the baseline has no t_launch for its estimates (an older roofcast?): those values are not compared"
lines "$tmp/o/changes.csv" "," 1

finish baseline
