#!/bin/sh
# charts.sh ROOFCAST SOURCE_DIR
# The chart files: every kernel's roofline and time chart and the overview,
# as SVG (well-formed XML) and PNG (valid), byte-identical across runs and
# whatever other formats the run writes, and so are the HTML pages that
# embed them; without the fonts, a clear error.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp

"$roofcast" -q -f svg,png -o "$out/a"
"$roofcast" -q -f svg,png -o "$out/b"
"$roofcast" -q -o "$out/c"   # every format: other charts drawn in between
for k in getRestricted gpuKendall gpuMeans maximum_kernel; do
    for f in "$k-roofline.svg" "$k-roofline.png" "$k-time.svg" "$k-time.png"; do
        [ -s "$out/a/$f" ] && ok || bad "$f was not written"
    done
done
for f in "$out"/a/*.svg; do
    n=$(basename "$f")
    xmllint --noout "$f" && ok || bad "$n is not well-formed XML"
    grep -q '<svg' "$f" && ok || bad "$n is not an SVG"
    cmp -s "$f" "$out/b/$n" && ok || bad "$n differs between two runs"
    cmp -s "$f" "$out/c/$n" && ok || bad "$n differs when other formats are written too"
done
for f in "$out"/a/*.png; do
    n=$(basename "$f")
    pngcheck -q "$f" >/dev/null && ok || bad "$n fails pngcheck: $(pngcheck "$f" 2>&1 | tail -1)"
    cmp -s "$f" "$out/b/$n" && ok || bad "$n differs between two runs"
    cmp -s "$f" "$out/c/$n" && ok || bad "$n differs when other formats are written too"
done
[ -s "$out/a/index.svg" ] && [ -s "$out/a/index.png" ] && ok || bad "the overview chart was not written"
# The HTML pages embed the same SVGs: byte-identical across runs too.
"$roofcast" -q -f html -o "$out/e"
for f in "$out"/c/*.html; do
    n=$(basename "$f")
    cmp -s "$f" "$out/e/$n" && ok || bad "$n differs between two runs"
done
# No timestamps or generator noise that would change between runs.
if grep -l -i -E 'CreationDate|[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$out"/a/*.svg >/dev/null 2>&1; then
    bad "an SVG holds a date"; else ok; fi

# The fonts are named by file; without them roofcast says so and exits 3,
# and still writes the other formats.
st=0
ROOFCAST_FONT_DIR=/nonexistent "$roofcast" -q -f svg,csv -o "$out/d" 2>"$out/err" || st=$?
[ "$st" -eq 3 ] && ok || bad "missing fonts: exit $st, expected 3"
grep -q 'fonts-dejavu-core' "$out/err" && ok || bad "missing fonts: no hint of the package: $(cat "$out/err")"
[ -s "$out/d/estimates.csv" ] && ok || bad "missing fonts: estimates.csv not written"

finish charts
