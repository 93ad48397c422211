#!/bin/sh
# html_escape.sh ROOFCAST SOURCE_DIR
# Text from the inputs shows literally in the HTML: a kernel named
# <script>alert(1)</script>, and a note, summary, parameter, loop note and
# source holding &, <, > and quotes (tests/data/hostile). Text that repeats
# how the charts are marked (tests/data/chart-markers) cannot move them.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp

"$roofcast" -q -f html,svg -s specs -o "$out" tests/data/hostile/kernels
for p in "$out/hostile.html" "$out/index.html"; do
    n=$(basename "$p")
    if grep -qi -E '<script|<img src=x|<b>bold|<a href="javascript' "$p"; then
        bad "$n lets markup from the input through:"; grep -i -n -E '<script|<img src=x|<b>bold|<a href="javascript' "$p" | cut -c1-200 >&2
    else ok; fi
    st=0
    tidy -errors -quiet "$p" >/dev/null 2>"$out/tidy" || st=$?
    [ "$st" -lt 2 ] && ok || { bad "$n: tidy reports errors"; cat "$out/tidy" >&2; }
    grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$p" && ok || bad "$n does not show the kernel's name"
done
p=$out/hostile.html
for s in '<title>&lt;script&gt;alert(1)&lt;/script&gt;: execution time estimates</title>' \
         'Tom &amp; Jerry'"'"'s &lt;b&gt;bold&lt;/b&gt; "quoted" summary &lt;img src=x onerror=alert(2)&gt;.' \
         'A note with &amp;, &lt; and "quotes" and '"'"'apostrophes'"'"' &lt;/p&gt;&lt;script&gt;alert(7)&lt;/script&gt;' \
         'a &lt; b &amp;&amp; c &gt; d, "double" and '"'"'single'"'"' quotes' \
         '(&amp;amp; is not an entity here)' \
         'if (a &lt; b &amp;&amp; c &gt; d) { s = "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(4)&lt;/script&gt;"; }'; do
    grep -qF -- "$s" "$p" && ok || bad "hostile.html does not show literally: $s"
done
[ "$(grep -o '<pre>' "$p" | wc -l)" -eq 1 ] && [ "$(grep -o '</pre>' "$p" | wc -l)" -eq 1 ] && ok ||
    bad "the source closed its <pre>"
# The SVG charts carry the name as drawn glyphs, and stay well-formed.
xmllint --noout "$out/hostile-roofline.svg" && ok || bad "hostile-roofline.svg is not well-formed"

# Issue 15.1: a kernel whose texts hold the chart placeholder of old (the run
# aborted with a double free) and the chart marker of now, among the bundled
# kernels: exit 0, its page whole, and every other kernel's files as a run
# without it writes them.
m=$out/markers
mkdir -p "$m"
st=0
"$roofcast" -q -o "$m/with" kernels tests/data/chart-markers/markers.xml 2>"$m/err" || st=$?
[ "$st" -eq 0 ] && [ ! -s "$m/err" ] && ok || { bad "with chart markers in its text: exit $st"; cat "$m/err" >&2; }
"$roofcast" -q -o "$m/without" kernels
for f in "$m/without"/*; do
    f=$(basename "$f")
    case $f in index.* | summary.pdf | estimates.csv | results.xml) continue ;; esac
    cmp -s "$m/without/$f" "$m/with/$f" && ok || bad "$f differs when markers.xml is among the kernels"
done
for p in markers index; do
    n=$(grep -o 'src="data:image/svg+xml;base64,' "$m/with/$p.html" | wc -l)
    if [ $p = index ]; then want=1; else want=2; fi
    [ "$n" -eq "$want" ] && ok || bad "$p.html: $n charts, expected $want"
    if grep -q '<img data-roofcast-chart' "$m/with/$p.html"; then bad "$p.html: a chart marker is left"; else ok; fi
done
# Each page's charts are its SVG files, whether their data: URIs went in
# after serialization (maximum_kernel) or, the text repeating what stands for them there,
# into the tree (markers, index).
for p in markers maximum_kernel; do
    grep -o 'src="data:image/svg+xml;base64,[^"]*"' "$m/with/$p.html" | cut -d, -f2 | tr -d '"' \
        >"$m/uris"
    for k in 1 2; do
        c=$(if [ $k = 1 ]; then echo roofline; else echo time; fi)
        sed -n "${k}p" "$m/uris" | base64 -d >"$m/chart.svg" 2>/dev/null
        cmp -s "$m/chart.svg" "$m/with/$p-$c.svg" && ok || bad "$p.html: its $c chart is not $p-$c.svg"
    done
done
grep -o 'src="data:image/svg+xml;base64,[^"]*"' "$m/with/index.html" | cut -d, -f2 | tr -d '"' |
    base64 -d | cmp -s - "$m/with/index.svg" && ok || bad "index.html: its chart is not index.svg"
for s in '<p>roofcast-chart-time-placeholder and roofcast-chart-overview-placeholder, "roofcast-chart:overview"' \
         'src="roofcast-chart:roofline" and "roofcast-chart:time"' \
         '// &lt;img data-roofcast-chart="time"&gt;' \
         'data-roofcast-chart="time" roofcast-chart-time-placeholder'; do
    grep -qF -- "$s" "$m/with/markers.html" && ok || bad "markers.html does not show literally: $s"
done

finish html_escape
