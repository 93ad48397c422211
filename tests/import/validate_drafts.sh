#!/bin/sh
# validate_drafts.sh ROOFCAST SOURCE_DIR
# The validation table (tests/validation/validate.sh: predicted against measured on the
# H100) from the drafts of validation.cu's kernels beside the hand models': each point's
# measured time, t_estimate from the hand model and from the draft, and both errors. The
# drafts are imported by validation.sh at every measured size (the histograms with the hand
# model's bin assumption in place of their one unknown); the bundled kernels and the
# microbenchmarks keep their models. Run by hand (it counts every launch twice: minutes).
set -u
bin=$1
src=$(cd "$2" && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$src/tests/import/validation.sh" "$bin" "$src" all "$tmp/tree/drafts" >"$tmp/counts.md" ||
    { cat "$tmp/counts.md"; echo "validate_drafts: a draft's counts differ from its hand model's" >&2; }
# a source tree whose points name the drafts
mkdir -p "$tmp/tree/tests/validation"
ln -s "$src/specs" "$tmp/tree/specs"
ln -s "$src/kernels" "$tmp/tree/kernels"
for d in models published specs; do # every other point's model and GPU, as they are
    ln -s "$src/tests/validation/$d" "$tmp/tree/tests/validation/$d"
done
awk -F, -v OFS=, 'NR > 1 && $4 ~ /^tests\/validation\/kernels\// { sub(/^tests\/validation\/kernels\//, "drafts/", $4) } { print }' \
    "$src/tests/validation/points.csv" >"$tmp/tree/tests/validation/points.csv"
sh "$src/tests/validation/validate.sh" "$bin" "$src" --markdown >"$tmp/hand.md" 2>&1
sh "$src/tests/validation/validate.sh" "$bin" "$tmp/tree" --markdown >"$tmp/draft.md" 2>&1
echo "| point | measured (µs) | t_estimate, hand model (µs) | error | t_estimate, draft (µs) | error |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
awk -F' [|] ' 'FNR == NR && /^\| [a-z]/ { h[$1] = $5 " | " $6; next }
     /^\| [a-z]/ && ($1 in h) && $2 == "kernel" { print $1 " | " $4 " | " h[$1] " | " $5 " | " $6 " |" }' \
    "$tmp/hand.md" "$tmp/draft.md"
echo
grep '^- kernel' "$tmp/hand.md" | sed 's/^- kernel/- hand models/'
grep '^- kernel' "$tmp/draft.md" | sed 's/^- kernel/- drafts/'
