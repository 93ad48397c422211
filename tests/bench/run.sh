#!/bin/sh
# run.sh [BUILD_DIR] [COUNT...]: the nightly-run benchmark.
#
# For each COUNT (default: 10 100 1000) it generates COUNT synthetic kernels
# (tests/bench/gen_kernels.c: loops, guards, nested and triangular loops,
# per-thread totals, 2-D stencils) and reports them on every bundled GPU in
# every format:
#   full        into an empty directory, with 1 worker and with one per
#               processor (the two must write identical files);
#   unchanged   the same run again into the second directory: every file
#               up to date, none written (issue 18.1);
#   one changed one kernel file edited: its files and the overviews made,
#               the other kernels' shares of the overviews read from the
#               cache (.roofcast-cache); the directory must then equal a
#               full run's of the edited kernels, byte for byte;
#   replacing   --force into that directory: every file made again and
#               put in place of the one there (as after an upgrade).
# Each run prints roofcast's --timings table; the summary gives, per run,
# the wall time, kernels per second, peak memory, files written, the
# system's share of the process's CPU time (sys_s: making files, mostly)
# and the CPU milliseconds per kernel of each stage. Then it reports 100 kernels
# (or the first COUNT) on 1, 3, 6 and 12 of the bundled GPUs, to show how
# cost grows with the GPUs. Each timed run starts after `sync`. Timings are
# for reading, never asserted.
set -eu
build=${1:-build}
shift 2>/dev/null || true
counts=${*:-10 100 1000}
cd "$(dirname "$0")/../.."
roofcast=$build/roofcast
gen=$build/tests/gen_kernels
[ -x "$roofcast" ] && [ -x "$gen" ] ||
    { echo "run.sh: $gen is missing: build with the tests first (tests/run-all.sh $build)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpus=$(nproc)
echo "machine: $cpus processors ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
summary=""

# read_timings FILE: wall (s) and mem (peak MiB) from a --timings table.
read_timings() {
    wall=$(sed -n 's/^wall \([0-9.]*\) s.*/\1/p' "$1")
    mem=$(sed -n 's/.*peak memory \([0-9.]*\) MiB/\1/p' "$1")
}

# run_case N JOBS CASE OUT ARGS...: one run with --timings; its table is
# printed and a summary row kept.
run_case() {
    n=$1 j=$2 case=$3 out=$4; shift 4
    # What earlier runs wrote (some 1.3 GB for 1,000 kernels) reaches the
    # disk first, so that its writeback is not timed as this run's: a
    # nightly run does not follow another by seconds.
    sync
    echo "== $n kernels, 12 GPUs, all formats, -j $j, $case"
    "$roofcast" --timings -j "$j" -o "$out" "$@" 2> "$tmp/t"
    cat "$tmp/t"
    read_timings "$tmp/t"
    sys=$(sed -n 's/^process cpu: user [0-9.]* s, system \([0-9.]*\) s$/\1/p' "$tmp/t")
    written=$(sed -n 's/.*GPUs*: \([0-9]*\) files* written.*/\1/p' "$tmp/t")
    stages=$(awk '/^(load|evaluate|results tree|markdown|html|svg|png|pdf|overviews|write) / {
                      printf "%s%.1f", sep, $NF; sep = " " }' "$tmp/t")
    summary="$summary$(printf '%6s %4s %-11s %8s %9s %8s %7s %6s  %s' "$n" "$j" "$case" "$wall" \
        "$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.1f", (w > 0 ? n / w : 0) }')" "$mem" \
        "$written" "$sys" "$stages")
"
}

for n in $counts; do
    mkdir -p "$tmp/k$n"
    "$gen" "$n" "$tmp/k$n"
    for j in 1 "$cpus"; do
        run_case "$n" "$j" full "$tmp/o$n-j$j" "$tmp/k$n"
        [ "$j" = 1 ] || diff -r "$tmp/o$n-j1" "$tmp/o$n-j$j" >/dev/null ||
            { echo "FAIL: -j 1 and -j $j differ" >&2; exit 1; }
    done
    run_case "$n" "$cpus" unchanged "$tmp/o$n-j$cpus" "$tmp/k$n"
    sed 's/<summary>Synthetic benchmark kernel/<summary>Synthetic benchmark kernel, edited/' \
        "$tmp/k$n/k0000.xml" > "$tmp/edited" && mv "$tmp/edited" "$tmp/k$n/k0000.xml"
    run_case "$n" "$cpus" "one changed" "$tmp/o$n-j$cpus" "$tmp/k$n"
    "$roofcast" -q -j "$cpus" -o "$tmp/o$n-check" "$tmp/k$n"
    diff -r "$tmp/o$n-check" "$tmp/o$n-j$cpus" >/dev/null ||
        { echo "FAIL: the run with one kernel changed differs from a full run" >&2; exit 1; }
    # Every file made again over the last run's, as after an upgrade:
    # each replaced file's old copy is deleted as the run goes.
    run_case "$n" "$cpus" replacing "$tmp/o$n-j$cpus" --force "$tmp/k$n"
done
# Nothing is deleted before the last timed run (the trap does it): ext4
# makes files several times more slowly in the minutes after many were
# deleted, which would time the cleanup rather than roofcast. So 1,000
# kernels need some 4 GB in $TMPDIR (three output directories of 1.3 GB).
echo
echo "kernels jobs case         wall_s kernels/s peak_MiB written  sys_s  CPU ms per kernel: load eval tree md html svg png pdf overviews write"
printf '%s' "$summary"

# The same kernels on more and more GPUs.
n=$(echo "$counts" | awk '{ for (i = 1; i <= NF; i++) if ($i == 100) { print 100; exit } print $1 }')
mkdir -p "$tmp/g"
"$gen" "$n" "$tmp/g"
gpus=$(sed -n 's/^<gpu id="\([^"]*\)".*/\1/p' specs/*.xml)
echo
echo "kernels GPUs jobs    wall_s ms/kernel  peak_MiB"
for g in 1 3 6 12; do
    ids=$(echo "$gpus" | head -n "$g" | paste -sd, -)
    [ "$(echo "$gpus" | head -n "$g" | wc -l)" -eq "$g" ] || continue
    sync
    "$roofcast" -q --timings -j "$cpus" --gpu "$ids" -o "$tmp/og$g" "$tmp/g" 2> "$tmp/t"
    read_timings "$tmp/t"
    printf '%6s %4s %4s %9s %9s %9s\n' "$n" "$g" "$cpus" "$wall" \
        "$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.2f", w * 1000 / n }')" "$mem"
done
"$build/tests/bench_eval" 100
