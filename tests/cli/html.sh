#!/bin/sh
# html.sh ROOFCAST SOURCE_DIR
# The HTML pages: valid for tidy (no errors), self-contained (no script, no
# stylesheet, font or image fetched: every src= is a data: URI and every
# href= a link to another generated page or within the page), their charts
# embedded as well-formed SVG, made for narrow screens and print, and the
# index linking to every report.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp

"$roofcast" -q -o "$out/o"
cd "$out/o"
pages=$(ls ./*.html)
[ -n "$pages" ] && ok || bad "no HTML written"
for k in getRestricted gpuKendall gpuMeans maximum_kernel index; do
    [ -s "$k.html" ] && ok || bad "$k.html was not written"
done
for p in $pages; do
    p=${p#./}
    # tidy: exit 1 is warnings only, 2 errors.
    st=0
    tidy -errors -quiet "$p" >/dev/null 2>"$out/tidy" || st=$?
    if [ "$st" -lt 2 ] && ! grep -q 'Error:' "$out/tidy"; then ok; else
        bad "$p: tidy reports errors:"; cat "$out/tidy" >&2; fi
    if grep -qi '<script' "$p"; then bad "$p has a <script"; else ok; fi
    if grep -qi -E '<(link|iframe|object|embed|base|frame)[ >]|@import|url\(' "$p"; then
        bad "$p loads something"; else ok; fi
    grep -q '<meta name="viewport"' "$p" && ok || bad "$p: no viewport for narrow screens"
    grep -q '@media print' "$p" && ok || bad "$p: no print style"
    grep -q 'overflow-x: auto' "$p" && ok || bad "$p: tables do not scroll on narrow screens"
    grep -o -E ' src="[^"]*"' "$p" | sed 's/^ src="//; s/"$//' > "$out/srcs" || true
    while IFS= read -r v; do
        case $v in
        data:image/svg+xml\;base64,*) ok ;;
        *) bad "$p: src is not a data: URI: $v" ;;
        esac
    done < "$out/srcs"
    grep -o -E ' href="[^"]*"' "$p" | sed 's/^ href="//; s/"$//' > "$out/hrefs" || true
    while IFS= read -r v; do
        case $v in
        '#'*) ok ;;
        *[!A-Za-z0-9_.-]*) bad "$p: link outside the generated pages: $v" ;;
        *.html) [ -f "$v" ] && ok || bad "$p: links to $v, which was not written" ;;
        *) bad "$p: link to something else than a page: $v" ;;
        esac
    done < "$out/hrefs"
    # Every embedded chart is a well-formed SVG.
    n=0
    for uri in $(grep -o -E 'src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]*"' "$p"); do
        n=$((n + 1))
        printf '%s' "$uri" | sed 's/^src="data:image\/svg+xml;base64,//; s/"$//' | base64 -d > "$out/chart.svg"
        xmllint --noout "$out/chart.svg" && ok || bad "$p: chart $n is not well-formed"
    done
    if [ "$p" = index.html ]; then want=1; else want=2; fi
    [ "$n" -eq "$want" ] && ok || bad "$p: $n charts embedded, expected $want"
    # A report's two charts have narrow layouts for a phone (issue 29 item 5): each a
    # <source> for narrow windows in the chart's <picture>, an SVG 270 pt wide.
    sources=$(grep -o -E '<picture><source media="\(max-width: 600px\)" srcset="data:image/svg' "$p" | wc -l)
    n=0
    for uri in $(grep -o -E 'srcset="data:image/svg\+xml;base64,[A-Za-z0-9+/=]*"' "$p"); do
        n=$((n + 1))
        printf '%s' "$uri" | sed 's/^.*base64,//; s/"$//' | base64 -d > "$out/narrow.svg"
        xmllint --noout "$out/narrow.svg" && ok || bad "$p: narrow chart $n is not well-formed"
        grep -q '<svg [^>]* width="270pt"' "$out/narrow.svg" && ok || bad "$p: narrow chart $n is not 270 pt wide"
    done
    if grep -q '</source>' "$p"; then bad "$p: an end tag for <source>, a void element"; else ok; fi
    if [ "$p" = index.html ]; then want=0; else want=2; fi
    [ "$n" -eq "$want" ] && [ "$sources" -eq "$want" ] && ok ||
        bad "$p: $n narrow charts, $sources in a <picture>, expected $want"
done
# The index: a row per kernel linking to its report, the fastest marked.
for k in getRestricted gpuKendall gpuMeans maximum_kernel; do
    grep -q "<a href=\"$k.html\">$k</a>" index.html && ok || bad "index.html does not link $k.html"
done
# The fastest by t_estimate, within 10 % of each kernel's fastest: 4 + 4 + 4 + 4 cells (issue 29).
[ "$(grep -o 'class="num fastest"' index.html | wc -l)" -eq 16 ] && ok || bad "index.html: not the 16 fastest cells"
grep -qF '<strong>1,020</strong><span class="tag" title="memory latency: 160 threads at work">latency</span>' index.html && ok ||
    bad "index.html: getRestricted on the L40S is not t_estimate and its limiter"
grep -qF 'The GPUs are in the order of their FP32 peak, lowest first.' index.html && ok || bad "index.html does not state the GPUs' order"
grep -qF 'id="totals-caption">Peak roofline: t_total per launch' index.html && ok || bad "index.html lacks the t_total table"
# A report leads with At a glance; the refined derivation is an appendix of closed details.
grep -qF '<section id="glance" class="glance"><h2>At a glance</h2>' getRestricted.html && ok || bad "getRestricted.html: no At a glance"
[ "$(grep -o '<details>' getRestricted.html | wc -l)" -eq 12 ] && ok || bad "getRestricted.html: not a closed <details> per GPU"
lacks getRestricted.html '<details open'

# A report: its sections, units in the table headers, the tree's numbers.
r=maximum_kernel.html
for s in 'id="configuration"' 'id="work"' 'id="gpus"' 'id="time"' 'id="interpretation"' \
         'id="conclusion"' 't_total (µs)' '<strong>240,000</strong>' \
         't_total 6.90 µs' 'Launch latency dominates on all 12 GPUs' \
         '<th scope="col" class="num">FP32 peak</th>' '<td class="num">5.12 TFLOP/s</td>'; do
    grep -qF -- "$s" "$r" && ok || bad "$r lacks: $s"
done
grep -qF 'id="assumptions"' gpuMeans.html && ok || bad "gpuMeans.html has no assumptions part"
if grep -qF 'id="assumptions"' "$r"; then bad "$r has an assumptions part"; else ok; fi

finish html
