#!/bin/sh
# cli.sh ROOFCAST SOURCE_DIR
# The command line: help, version, exit statuses, --check, --gpu, and a
# directory where one kernel is broken and the others are still reported.
set -u
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"

expect 0 "$roofcast" --help
has "$tmp/out" "Usage: roofcast [OPTION]... [KERNEL_FILE_OR_DIR]..."
contains "$tmp/out" "Exit status: 0 everything written; 1 some input was rejected"
contains "$tmp/out" "Messages go to standard error: 'FILE:LINE: what is wrong' for a problem"
expect 0 "$roofcast" --version
has "$tmp/out" "roofcast 0.1.0"
expect 2 "$roofcast" --no-such-option
has "$tmp/err" "roofcast: unknown or ambiguous option '--no-such-option'
Try 'roofcast --help' for more information."
# Messages name the program "roofcast", never the path it was run by.
expect 2 "$roofcast" -x
has "$tmp/err" "roofcast: unknown option '-x'"
expect 2 "$roofcast" --check=yes
has "$tmp/err" "roofcast: --check takes no argument"
expect 2 "$roofcast" --output
has "$tmp/err" "roofcast: --output needs an argument"
expect 2 "$roofcast" -q -o
has "$tmp/err" "roofcast: -o needs an argument"
lacks "$tmp/err" "$roofcast:"

# An option's argument that looks like an option is a missing argument,
# unless attached with '='.
(cd "$tmp" && "$roofcast" --output -o -f csv -s "$src/specs" "$src/kernels" >out 2>err; echo $? >status)
[ "$(cat "$tmp/status")" -eq 2 ] && ok || bad "--output -o exited $(cat "$tmp/status"), want 2"
has "$tmp/err" "roofcast: --output needs an argument, and '-o' looks like an option (write --output=-o if it is meant as the argument)"
[ ! -e "$tmp/-o" ] && ok || bad "--output -o wrote into ./-o"
expect 2 "$roofcast" -o -q --check
has "$tmp/err" "roofcast: --output needs an argument, and '-q' looks like an option (write --output=-q if it is meant as the argument)"
expect 2 "$roofcast" --check --gpu --check
has "$tmp/err" "roofcast: --gpu needs an argument, and '--check' looks like an option (write --gpu=--check if it is meant as the argument)"
(cd "$tmp" && "$roofcast" -q --output=-o -f csv -s "$src/specs" "$src/kernels"; echo $? >status)
[ "$(cat "$tmp/status")" -eq 0 ] && [ -s "$tmp/-o/estimates.csv" ] && ok || bad "--output=-o did not write into ./-o"
expect 2 "$roofcast" --formats md,doc -o "$tmp/x"
has "$tmp/err" "roofcast: --formats: unknown format 'doc' (expected md, html, svg, png, pdf, csv or xml)"
expect 2 "$roofcast" --formats md,,csv -o "$tmp/x"
has "$tmp/err" "roofcast: --formats: unknown format '' (expected md, html, svg, png, pdf, csv or xml)"
# Like --gpu: spaces around names do not count, repeated options add up.
expect 0 "$roofcast" -q -f ' md , csv' -f xml -o "$tmp/formats" kernels/maximum_kernel.xml
[ "$(ls "$tmp/formats" | tr '\n' ' ')" = "estimates.csv maximum_kernel.md results.xml " ] && ok ||
    bad "-f ' md , csv' -f xml wrote: $(ls "$tmp/formats" | tr '\n' ' ')"
# results.xml says which params nvcc does not know: k, a kernel argument, and the pitches
# computed from it; none says runtime="no".
has "$tmp/formats/results.xml" '        <param name="k" value="100" value-text="100" expression="100" runtime="yes" note="loop upper bound: the row length, a kernel argument"/>'
has "$tmp/formats/results.xml" '        <param name="pitch_a" value="100" value-text="100" expression="k" runtime="yes" note="assumed: rows of vg_a packed, k floats apart"/>'
lacks "$tmp/formats/results.xml" 'runtime="no"'
expect 2 "$roofcast" --gpu no-such-gpu -o "$tmp/x"
has "$tmp/err" "roofcast: --gpu: no GPU with id 'no-such-gpu' (valid ids: a100-sxm4-80gb, h100-pcie, h100-sxm5, h200-sxm, l4, l40s, rtx-2080-ti, rtx-4070, rtx-4090, titan-black, titan-v, titan-x)"
[ ! -e "$tmp/x" ] && ok || bad "a usage error wrote $tmp/x"
expect 2 "$roofcast" --check --gpu x -s tests/data/cli/no-such-dir
has "$tmp/err" "roofcast: --gpu: no GPU with id 'x' (no GPU was loaded from tests/data/cli/no-such-dir)"
expect 2 "$roofcast" --check --gpu titan-black,,l4
has "$tmp/err" "roofcast: --gpu: an empty GPU id in 'titan-black,,l4' (expected ids separated by commas)"
# Repeated --gpu options add up; spaces around ids do not count.
expect 0 "$roofcast" --check --gpu titan-black --gpu ' l4 , titan-x ' kernels/maximum_kernel.xml
[ "$(cut -c26-41 "$tmp/out" | tr -d ' ' | tr '\n' ' ')" = "gpu titan-black titan-x l4 " ] && ok ||
    bad "--gpu titan-black --gpu ' l4 , titan-x ' did not report exactly those GPUs: $(cat "$tmp/out")"

# --check prints the table and writes nothing
expect 0 "$roofcast" --check -o "$tmp/check" --gpu titan-black
# t_estimate and what limits it first, then the peak roofline's t_total (issue 29)
has "$tmp/out" "kernel                   gpu                       flops          bytes  FLOP/byte t_estimate_us limiter         t_total_us bound   launch-dominated"
has "$tmp/out" "maximum_kernel           titan-black             240,000        640,000      0.375          3.59 launch                6.90 memory  yes"
[ ! -e "$tmp/check" ] && ok || bad "--check wrote $tmp/check"
# With nothing to estimate, --check prints the error alone, no empty table.
expect 1 "$roofcast" --check no-such-kernel.xml
[ ! -s "$tmp/out" ] && ok || bad "--check on a missing file printed: $(cat "$tmp/out")"
[ "$(cat "$tmp/err")" = "no-such-kernel.xml: cannot read: No such file or directory" ] && ok ||
    bad "--check on a missing file: stderr is not the error alone: $(cat "$tmp/err")"

# The default run from the repository root writes output/-like trees.
expect 0 "$roofcast" -q -f md,csv,xml -o "$tmp/all"
for f in maximum_kernel.md gpuMeans.md gpuKendall.md getRestricted.md estimates.csv results.xml; do
    [ -s "$tmp/all/$f" ] && ok || bad "missing $tmp/all/$f"
done
[ -z "$(ls -A "$tmp/all" | grep '^\.' | grep -v '^\.roofcast-manifest$\|^\.roofcast-cache$\|^\.roofcast\.lock$')" ] && ok || bad "temporary files left in the output"

# The Markdown links the chart files the run writes, and no other: PNG when
# png is among the formats, else SVG, else no image at all.
for formats in md md,svg md,png md,svg,png; do
    expect 0 "$roofcast" -q -f "$formats" -o "$tmp/links-$formats" kernels/maximum_kernel.xml
    links=$(sed -n 's/^!\[[^]]*\](\([^)]*\))$/\1/p' "$tmp/links-$formats/maximum_kernel.md" | tr '\n' ' ')
    case $formats in
    md) want="" ;;
    md,svg) want="maximum_kernel-roofline.svg maximum_kernel-time.svg " ;;
    *) want="maximum_kernel-roofline.png maximum_kernel-time.png " ;;
    esac
    [ "$links" = "$want" ] && ok || bad "-f $formats: the Markdown links [$links], want [$want]"
    for l in $links; do
        [ -s "$tmp/links-$formats/$l" ] && ok || bad "-f $formats: the Markdown links $l, which was not written"
    done
done
contains "$tmp/links-md,png/maximum_kernel.md" "](maximum_kernel-roofline.png)"

# One broken kernel among good ones: the good ones are written, exit 1,
# and each problem is reported as file:line: message.
expect 1 "$roofcast" -q -f md,csv -o "$tmp/mixed" tests/data/cli/mixed
# libxml2 gives an element the line where its start tag ends: here the
# line of the attribute at fault.
has "$tmp/err" "tests/data/cli/mixed/broken_expr.xml:9: <loop> attribute 'to': unexpected '*' (expected a number, a name or '(')
    k +* 2
       ^"
has "$tmp/err" "tests/data/cli/mixed/zero_step.xml:7: <loop> 'i' has step 0: the step must be positive, or the loop would never end"
[ -s "$tmp/mixed/maximum_kernel.md" ] && ok || bad "the good kernel was not reported"
[ ! -e "$tmp/mixed/broken_expr.md" ] && ok || bad "a rejected kernel was reported"
contains "$tmp/mixed/estimates.csv" "maximum_kernel,titan-black,240000,640000,"

# One broken kernel and three good ones: three reports, the broken one
# named in the index with its reason, exit 1.
mkdir -p "$tmp/four"
cp kernels/gpuMeans.xml kernels/gpuKendall.xml kernels/getRestricted.xml \
   tests/data/cli/mixed/broken_expr.xml "$tmp/four/"
expect 1 "$roofcast" -q -f md,html -o "$tmp/four-out" "$tmp/four"
for k in gpuMeans gpuKendall getRestricted; do
    [ -s "$tmp/four-out/$k.md" ] && [ -s "$tmp/four-out/$k.html" ] && ok || bad "$k was not reported"
done
[ ! -e "$tmp/four-out/broken_expr.md" ] && ok || bad "the broken kernel was reported"
contains "$tmp/four-out/index.html" "<h2>Rejected inputs</h2>"
contains "$tmp/four-out/index.html" "<td><code>$tmp/four/broken_expr.xml</code></td>"
contains "$tmp/four-out/index.html" "attribute 'to': unexpected '*' (expected a number, a name or '(')"

# A summary line counts what was written and rejected.
expect 1 "$roofcast" -f csv -o "$tmp/mixed2" tests/data/cli/mixed
has "$tmp/err" "roofcast: 1 kernel on 12 GPUs: 1 file written to $tmp/mixed2/, 2 inputs rejected"

# Bad GPU files are rejected with their reason; the good GPU is still used.
expect 1 "$roofcast" --check -s tests/data/cli/specs kernels/maximum_kernel.xml
has "$tmp/err" "tests/data/cli/specs/bad-unit.xml:8: <peak>: unknown unit 'TFLOPS' for a FLOP rate (expected FLOP/s with an optional k, M, G, T or P prefix)"
has "$tmp/err" "tests/data/cli/specs/neg-peak.xml:8: <peak>: FLOP rate must be positive, not '-5 TFLOP/s'"
has "$tmp/err" "tests/data/cli/specs/zero-bw.xml:11: <bandwidth>: bandwidth must be positive, not '0 GB/s'"
has "$tmp/out" "maximum_kernel           titan-black             240,000        640,000      0.375          3.69 launch                6.90 memory  yes"

# The output is the same whatever the number of worker threads, rejected
# inputs and their order in the index included; a log gets no progress line.
expect 1 "$roofcast" -j 1 -o "$tmp/j1" kernels tests/data/cli/mixed
cp "$tmp/err" "$tmp/err-j1"
expect 1 "$roofcast" -j 3 -o "$tmp/j3" kernels tests/data/cli/mixed
if diff -r "$tmp/j1" "$tmp/j3" >/dev/null; then ok; else bad "-j 1 and -j 3 wrote different files"; fi
if tr -d '\n' < "$tmp/err-j1" | grep -q "$(printf '\r')"; then bad "progress written to a non-terminal"; else ok; fi
expect 2 "$roofcast" -j 0
has "$tmp/err" "roofcast: --jobs: '0' is not a number of threads (1 to 1024)"

# Run where there is no specs/ directory and without -s: the bundled GPU files are found as
# the templates are (here the source tree's; install.sh checks an installed program's and the
# message when there are none); a specs/ where it runs comes first (issue 29.9).
mkdir "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$roofcast" -q --check "$src/kernels/maximum_kernel.xml" >out 2>err; echo $? >status)
[ "$(cat "$tmp/elsewhere/status")" = 0 ] && ok || bad "no specs/: exit $(cat "$tmp/elsewhere/status"), want 0"
[ "$(grep -c '^maximum_kernel ' "$tmp/elsewhere/out")" -eq 12 ] && ok || bad "no specs/: not the 12 bundled GPUs"
mkdir "$tmp/elsewhere/specs"
cp specs/l4.xml "$tmp/elsewhere/specs/"
(cd "$tmp/elsewhere" && "$roofcast" -q --check "$src/kernels/maximum_kernel.xml" >out 2>err; echo $? >status)
[ "$(grep -c '^maximum_kernel ' "$tmp/elsewhere/out")" -eq 1 ] && grep -q '^maximum_kernel  *l4 ' "$tmp/elsewhere/out" &&
    ok || bad "a specs/ where it runs is not the one read"

# An empty path (an unset variable) is a usage error, not a file without a
# name or the current directory.
expect 2 "$roofcast" -q -f csv -o "" kernels/maximum_kernel.xml
has "$tmp/err" "roofcast: --output: an empty path (an unset variable?)
Try 'roofcast --help' for more information."
expect 2 "$roofcast" -q --check -s "" kernels/maximum_kernel.xml
has "$tmp/err" "roofcast: --specs: an empty path (an unset variable?)"
expect 2 "$roofcast" -q --check --baseline= kernels/maximum_kernel.xml
has "$tmp/err" "roofcast: --baseline: an empty path (an unset variable?)"
expect 2 "$roofcast" -q --check -t "" kernels/maximum_kernel.xml
has "$tmp/err" "roofcast: --templates: an empty path (an unset variable?)"
expect 2 "$roofcast" -q --check ""
has "$tmp/err" "roofcast: a kernel file or directory: an empty path (an unset variable?)"

# --check on a kernel without work: no ratio to give, as the reports say.
expect 0 "$roofcast" --check --gpu titan-black tests/data/zero-work/kernels
has "$tmp/out" "zero_work                titan-black                   0              0       none          2.50 launch                5.00 none    yes"

# The summary counts each rejected file once, however many problems it has
# (counted as they are reported, not by comparing every pair of messages).
expect 1 "$roofcast" -f csv -o "$tmp/rej" -s tests/data/cli/specs tests/data/cli/mixed tests/bad/kernels/schema-many-problems.xml
has "$tmp/err" "roofcast: 1 kernel on 1 GPU: 1 file written to $tmp/rej/, 6 inputs rejected"

# A kernel file named twice, by the same path, another spelling or its
# directory, is read once where first named: not rejected as a duplicate
# of itself.
expect 0 "$roofcast" -v -f csv --gpu titan-black -o "$tmp/twice" kernels/gpuMeans.xml \
    ./kernels/gpuMeans.xml kernels kernels/gpuMeans.xml
has "$tmp/err" "roofcast: ./kernels/gpuMeans.xml: named more than once, read once"
has "$tmp/err" "roofcast: kernels/gpuMeans.xml: named more than once, read once"
lacks "$tmp/err" "duplicate kernel id"
has "$tmp/err" "roofcast: 4 kernels on 1 GPU: 1 file written to $tmp/twice/, 0 inputs rejected"
[ "$(grep -c '^gpuMeans,' "$tmp/twice/estimates.csv")" -eq 1 ] && ok ||
    bad "gpuMeans is not one row of $tmp/twice/estimates.csv"
# Two files with one id are still two kernels, and the second is rejected.
expect 1 "$roofcast" -q -f csv -o "$tmp/twins" tests/bad/kernels/dir-duplicate-ids
has "$tmp/err" "tests/bad/kernels/dir-duplicate-ids/b.xml:3: duplicate kernel id 'same' (also in tests/bad/kernels/dir-duplicate-ids/a.xml); ids name the output files"

# --timings: the stage table, then wall time and peak memory, then the
# process's CPU time split into user and system time (tests/bench/run.sh
# reads the last two lines).
expect 0 "$roofcast" -q --timings -f csv -o "$tmp/timed"
has "$tmp/err" "stage                 cpu_s  ms_per_kernel"
if grep -Eq '^wall [0-9]+\.[0-9]{3} s for 4 kernels \([0-9]+\.[0-9]{3} ms per kernel\); peak memory [0-9]+\.[0-9] MiB$' "$tmp/err"; then
    ok; else bad "no wall time and peak memory line"; show "$tmp/err"; fi
if tail -n 1 "$tmp/err" | grep -Eq '^process cpu: user [0-9]+\.[0-9]{3} s, system [0-9]+\.[0-9]{3} s$'; then
    ok; else bad "the last line is not the process's user and system time"; show "$tmp/err"; fi

# An output directory that cannot be made is exit 3.
: > "$tmp/file"
expect 3 "$roofcast" -q -f csv -o "$tmp/file/sub"
has "$tmp/err" "roofcast: $tmp/file/sub: cannot create the output directory: Not a directory"

finish cli
