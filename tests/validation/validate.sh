#!/bin/sh
# validate.sh ROOFCAST SOURCE_DIR [--markdown | --readme FILE]
# Predicted against measured: runs roofcast on the model of every point of
# tests/validation/points.csv (a kernel model and a GPU: specs/*.xml or
# tests/validation/specs/*.xml), and prints, per
# point, the measured time, t_estimate, its error, t_lower and whether t_lower
# stays below the measurement; then, per kind of point (and per kind and GPU
# where a kind spans several GPUs), the median absolute error, the points
# within 2x, the largest ratio either way and the count of t_lower violations;
# last the same per GPU generation (the first word of each GPU file's
# <architecture>), the held-out kinds `kernel` and `published` pooled: issue 33's
# goal is set per generation.
#
# Kinds: `kernel` are published or measured kernel times, held out: the model
# is tested on them, never fitted to them. `micro` are device microbenchmarks,
# from which device figures and rules may be calibrated: they show how well
# that worked, not how well the model predicts. `published` are kernel times
# published by others on the other GPU generations (published/kernels.csv),
# held out like `kernel`.
#
# --markdown prints the table as docs/validation.md shows it. --readme FILE prints the
# plain table and checks that FILE (relative to SOURCE_DIR) shows the
# Markdown one exactly, from its header row to the last summary line, so that
# a change to the model cannot leave that table behind.
#
# Exit status 1 when a t_lower exceeds a measurement (it must be a true lower
# bound), roofcast fails, or FILE's table differs; the error figures are
# reported, not enforced.
set -u
roofcast=$1 src=$2 format=${3:-} readme=
if [ "$format" = --readme ]; then
    readme=${4:?validate.sh: --readme needs a file}
    format=
fi
case $roofcast in /*) ;; *) roofcast=$(pwd)/$roofcast ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
points=tests/validation/points.csv

# The GPUs the points name (the models must have distinct ids).
gpus=$(awk -F, 'NR > 1 { print $3 }' "$points" | sort -u)
# The GPUs: the bundled specs/ and the ones only the validation uses (tests/validation/specs/,
# kept out of specs/ so that the bundled reports keep their GPUs), linked into one directory.
mkdir "$tmp/specs" || exit 1
# generation FILE: "Kepler" of <architecture>Kepler GK210</architecture>
generation() {
    sed -n 's:.*<architecture>\([A-Za-z]*\).*:\1:p' "$1" | head -1
}
for spec in specs/*.xml tests/validation/specs/*.xml; do
    ln -s "$(pwd)/$spec" "$tmp/specs/" || exit 1
    printf '%s,%s\n' "$(sed -n 's:.*<gpu id="\([^"]*\)".*:\1:p' "$spec" | head -1)" \
        "$(generation "$spec")" >>"$tmp/generations.csv"
done
# GPUs as a source's runs set their SM clock (tests/validation/specs/clocks.csv: id, the GPU
# file, the clock, where the clock is set): a copy of the GPU file with that SM clock, its id
# and its name (the GPU file must give the clock in <sm>; validate fails where it does not).
# What the file gives in cycles (latencies, rates a clock) follows the clock; so do its L1 and
# L2 rates in bytes a second, taken at the file's clock; DRAM's rate does not. The DRAM
# latency in cycles reads up to the clocks' ratio long, as part of it is DRAM time (12, 11,
# 23 and 6 % on the P100, V100, GV100 and K80 here).
tail -n +2 tests/validation/specs/clocks.csv | while IFS=, read -r id gpu mhz why; do
    base=tests/validation/specs/$gpu.xml
    [ -f "$base" ] || base=specs/$gpu.xml
    why=${why#\"}
    awk -v id="$id" -v gpu="$gpu" -v mhz="$mhz" -v why="${why%\"}" '
        sub("<gpu id=\"" gpu "\"", "<gpu id=\"" id "\"") { sub(/ name="[^"]*/, "& at " mhz " MHz") }
        /^  <sm[ >]/ { in_sm = 1 }
        /^  <\/sm>/ { in_sm = 0 }
        in_sm && /^    <clock / && match($0, />[0-9.]+ MHz</) {
            was = substr($0, RSTART + 1, RLENGTH - 6) + 0
            $0 = "    <clock source=\"the SM clock of " why "; the GPU file " gpu " takes " was \
                 " MHz\">" mhz " MHz</clock>"
        }
        /<bandwidth level="l[12]"/ && was > 0 && match($0, /">[0-9.]+ [GT]B\/s</) {
            figure = substr($0, RSTART + 2, RLENGTH - 3)
            unit = figure; sub(/^[0-9.]+ /, "", unit)
            $0 = substr($0, 1, RSTART - 1) \
                 sprintf("; x %d / %d MHz for this SM clock\">%.4g %s<", mhz, was, figure * mhz / was, unit) \
                 substr($0, RSTART + RLENGTH)
        }
        { print }
        END { if (!was) { print "validate: " FILENAME " has no SM clock to set" > "/dev/stderr"; exit 1 } }' \
        "$base" >"$tmp/specs/$id.xml" || exit 1
    printf '%s,%s\n' "$id" "$(generation "$base")" >>"$tmp/generations.csv"
done || exit 1
# Each GPU runs the models of its own points: some cannot launch on others (gpu-stream's hold
# more shared memory a block than older GPUs have). One estimates.csv holds them all.
mkdir "$tmp/out" || exit 1
for gpu in $gpus; do
    models=$(awk -F, -v gpu="$gpu" 'NR > 1 && $3 == gpu { print $4 }' "$points" | sort -u)
    # shellcheck disable=SC2086 # one word per model path
    if ! "$roofcast" -q -f csv -o "$tmp/out/$gpu" --specs "$tmp/specs" --gpu "$gpu" $models; then
        echo "validate: roofcast failed on $gpu" >&2
        exit 1
    fi
    if [ -s "$tmp/out/estimates.csv" ]; then
        tail -n +2 "$tmp/out/$gpu/estimates.csv" >>"$tmp/out/estimates.csv"
    else
        cat "$tmp/out/$gpu/estimates.csv" >"$tmp/out/estimates.csv"
    fi
done

# report FORMAT: the table and the summary lines, plain or --markdown.
report() {
awk -F, -v format="$1" '
{ sub(/\r$/, "") }
function abs(x) { return x < 0 ? -x : x }
# Median of the n values in a[1..n] (sorted here by insertion).
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FILENAME ~ /generations.csv$/ { generation[$1] = $2; next }
FNR == 1 && FILENAME ~ /estimates.csv$/ {
    for (i = 1; i <= NF; i++) col[$i] = i
    next
}
FILENAME ~ /estimates.csv$/ {
    key = $col["kernel"] "|" $col["gpu"]
    est[key] = $col["t_estimate_us"]; low[key] = $col["t_lower_us"]
    lim[key] = $col["limiter"]; tot[key] = $col["t_total_us"]
    next
}
FNR == 1 { next }
{
    # point,kind,gpu,model,measured_us,source (the source may hold commas)
    n++; point[n] = $1; kind[n] = $2; gpu[n] = $3; meas[n] = $5 + 0
    if (!($2 in seen)) { seen[$2] = 1; kinds[++nkinds] = $2 } # first seen first: "for (k in a)" has no order
    # The kernel id is the model file name without .xml.
    id = $4; sub(/.*\//, "", id); sub(/\.xml$/, "", id); kid[n] = id
}
END {
    if (format == "--markdown") {
        print "| point | kind | GPU | measured (µs) | t_estimate (µs) | error | t_lower (µs) | t_total (µs) | limiter |"
        print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
    } else
        printf "%-26s %-6s %-10s %12s %12s %8s %12s %12s  %s\n", "point", "kind", "gpu",
               "measured_us", "t_est_us", "error", "t_lower_us", "t_total_us", "limiter"
    bad = 0
    for (i = 1; i <= n; i++) {
        key = kid[i] "|" gpu[i]
        if (!(key in est)) { printf "validate: no estimate for %s on %s\n", kid[i], gpu[i] > "/dev/stderr"; bad = 1; continue }
        e = est[key] + 0; l = low[key] + 0; m = meas[i]
        err = (e - m) / m
        ok = l <= m ? "" : "  T_LOWER ABOVE MEASURED"
        if (l > m) { violations[kind[i]]++; bad = 1 }
        k = kind[i]; cnt[k]++; errs[k, cnt[k]] = abs(err)
        ratio = e > m ? e / m : m / e
        if (ratio > worst[k]) { worst[k] = ratio; worstp[k] = point[i] }
        if (ratio <= 2) within[k]++
        # the same per kind and GPU (one GPU per architecture in points.csv)
        g = k " on " gpu[i]
        if (!(g in gcnt)) groups[++ngroups] = g
        gcnt[g]++; gerrs[g, gcnt[g]] = abs(err)
        if (ratio > gworst[g]) { gworst[g] = ratio; gworstp[g] = point[i] }
        if (ratio <= 2) gwithin[g]++
        if (l > m) gviol[g]++
        # per generation, the held-out kinds pooled
        if (k != "micro") {
            a = generation[gpu[i]]
            acnt[a]++; aerrs[a, acnt[a]] = abs(err)
            if (!((a, gpu[i]) in agpu)) { agpu[a, gpu[i]] = 1; anames[a] = anames[a] (anames[a] == "" ? "" : ", ") gpu[i] }
            if (ratio > aworst[a]) { aworst[a] = ratio; aworstp[a] = point[i] }
            if (ratio <= 2) awithin[a]++
            if (l > m) aviol[a]++
        }
        if (format == "--markdown")
            printf "| %s | %s | %s | %.4g | %.4g | %+.0f %% | %.4g | %.4g | %s |\n", point[i], k,
                   gpu[i], m, e, 100 * err, l, tot[key] + 0, lim[key]
        else
            printf "%-26s %-6s %-10s %12.4g %12.4g %+7.1f%% %12.4g %12.4g  %s%s\n", point[i], k,
                   gpu[i], m, e, 100 * err, l, tot[key] + 0, lim[key], ok
    }
    print ""
    for (ki = 1; ki <= nkinds; ki++) {
        k = kinds[ki]
        if (!(k in cnt)) continue
        for (j = 1; j <= cnt[k]; j++) v[j] = errs[k, j]
        printf "%s%s: %d points, median |error| %.1f %%, %d within 2x, largest ratio %.2fx (%s), t_lower above the measurement: %d\n",
               format == "--markdown" ? "- " : "", k, cnt[k], 100 * median(v, cnt[k]), within[k],
               worst[k], worstp[k], violations[k] + 0
    }
    # Per GPU, where a kind spans more than one. The share within 2x is rounded down, so that a
    # set short of the 90 % issue 33 asks for (53 of 59 is 89.8 %) never prints as reaching it.
    for (gi = 1; gi <= ngroups; gi++) {
        g = groups[gi]; k = g; sub(/ on .*/, "", k)
        if (gcnt[g] == cnt[k]) continue
        for (j = 1; j <= gcnt[g]; j++) v[j] = gerrs[g, j]
        printf "%s%s: %d points, median |error| %.1f %%, %d within 2x (%d %%), largest ratio %.2fx (%s), t_lower above the measurement: %d\n",
               format == "--markdown" ? "- " : "", g, gcnt[g], 100 * median(v, gcnt[g]), gwithin[g],
               int(100 * gwithin[g] / gcnt[g]), gworst[g], gworstp[g], gviol[g] + 0
    }
    # Per generation, oldest first.
    na = split("Kepler Maxwell Pascal Volta Turing Ampere Ada Hopper Blackwell", order, " ")
    for (ai = 1; ai <= na; ai++) {
        a = order[ai]
        if (!(a in acnt)) continue
        for (j = 1; j <= acnt[a]; j++) v[j] = aerrs[a, j]
        printf "%sgeneration %s (%s): %d points, median |error| %.1f %%, %d within 2x (%d %%), largest ratio %.2fx (%s), t_lower above the measurement: %d\n",
               format == "--markdown" ? "- " : "", a, anames[a], acnt[a], 100 * median(v, acnt[a]),
               awithin[a], int(100 * awithin[a] / acnt[a]), aworst[a], aworstp[a], aviol[a] + 0
    }
    exit bad
}' "$tmp/generations.csv" "$tmp/out/estimates.csv" "$points"
}

report "$format"
status=$?
[ -z "$readme" ] && exit $status
# README's table: from its header row through the summary lines after it.
report --markdown > "$tmp/table.md" 2>/dev/null
awk '/^\| point \| kind \| GPU \|/ && !on { on = 1 }
     on == 1 && !/^\|/ { if ($0 != "") exit; on = 2; print; next }
     on == 2 && !/^- / { exit }
     on' "$readme" > "$tmp/readme.md"
if ! diff -u "$tmp/readme.md" "$tmp/table.md" >&2; then
    echo "validate: $readme's validation table differs from this build's (above: - README, + this build); paste in the output of validate.sh ROOFCAST SOURCE_DIR --markdown" >&2
    exit 1
fi
exit $status
