#!/bin/sh
# browser.sh ROOFCAST SOURCE_DIR PNG_INFO
# A real browser renders the pages: headless Chromium (Debian's chromium)
# opens a report and the index from file:// with no network, and takes a
# screenshot of each, which must be a valid 1200 x 1600 PNG that is not one
# flat colour and shows the charts' colours (the embedded SVGs drew). Then
# the index laid out in a frame 1280 and 390 px wide (a page of the test's
# own, whose script measures the index's boxes: the index runs none): at
# 1280 its table of 12 GPUs spreads past the 62rem column and needs no
# scrolling, at 390 it scrolls in its box; neither width makes the page
# itself scroll sideways, and the table's caption wraps within the window
# (outside the box, which would clip it). Chromium missing is a failure, not a skip: CI
# installs it.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
png_info=$3 out=$tmp

browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
    echo "FAIL: chromium is not installed (Debian package chromium)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
cd "$src"
"$roofcast" -q -f html -o "$out/o"
for page in maximum_kernel index; do
    rm -rf "$out/profile"
    HOME=$out timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --no-first-run --disable-component-update --disable-sync \
        --hide-scrollbars --force-device-scale-factor=1 --user-data-dir="$out/profile" \
        --screenshot="$out/$page.png" --window-size=1200,1600 "file://$out/o/$page.html" \
        >"$out/log" 2>&1 || true
    if [ ! -s "$out/$page.png" ]; then
        bad "$page.html: no screenshot"; tail -5 "$out/log" >&2; continue
    fi
    pngcheck -q "$out/$page.png" >/dev/null && ok || bad "$page.png fails pngcheck"
    # Okabe-Ito blue (0072B2) marks the first GPU in every chart.
    set -- $("$png_info" "$out/$page.png" 0072b2)
    [ "$1" -eq 1200 ] && [ "$2" -eq 1600 ] && ok || bad "$page.png is $1 x $2, expected 1200 x 1600"
    [ "$3" -ge 64 ] && ok || bad "$page.png has $3 colours: blank?"
    [ "$4" -ge 20 ] && ok || bad "$page.png has $4 pixels of the charts' blue: no chart drawn?"
done

# measure PAGE WIDTH: "PAGE_WIDTH LEFT RIGHT CLIENT SCROLL CAPTION" for PAGE
# shown in a frame WIDTH px wide: how wide the page's content is, where its
# first table's box is, how wide, how wide its content, and where the text
# of the table's caption ends on the right.
measure() {
    cat > "$out/o/measure.html" <<EOF
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="$1" style="border:0;width:$2px;height:900px"></iframe>
<script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, w = d.querySelector(".table-wrap"), b = w.getBoundingClientRect();
  var c = d.getElementById(w.querySelector("table").getAttribute("aria-labelledby")) ||
          w.querySelector("caption"), r = d.createRange();
  r.selectNodeContents(c);
  document.body.setAttribute("data-measured", [d.documentElement.scrollWidth, Math.round(b.left),
      Math.round(b.right), w.clientWidth, w.scrollWidth,
      Math.round(r.getBoundingClientRect().right)].join(" "));
};
</script></body></html>
EOF
    rm -rf "$out/profile"
    HOME=$out timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --no-first-run --disable-component-update --disable-sync \
        --hide-scrollbars --force-device-scale-factor=1 --user-data-dir="$out/profile" \
        --allow-file-access-from-files --window-size=1400,1000 --virtual-time-budget=10000 \
        --dump-dom "file://$out/o/measure.html" 2>"$out/log" |
        sed -n 's/.*data-measured="\([0-9 ]*\)".*/\1/p'
}
set -- $(measure index.html 1280)
if [ $# -ne 6 ]; then bad "index.html at 1280 px: not measured"; tail -5 "$out/log" >&2; else
    # The column is 62rem (992 px) less 2 x 1.25rem of padding.
    [ "$1" -le 1280 ] && ok || bad "index.html at 1280 px: the page is $1 px wide"
    [ $(($3 - $2)) -gt 952 ] && ok || bad "index.html at 1280 px: the table keeps to the column ($2 to $3)"
    [ "$5" -le "$4" ] && ok || bad "index.html at 1280 px: the table scrolls ($5 px in a box of $4)"
    [ "$6" -le 1280 ] && ok || bad "index.html at 1280 px: the table's caption ends at $6 px"
fi
set -- $(measure index.html 390)
if [ $# -ne 6 ]; then bad "index.html at 390 px: not measured"; tail -5 "$out/log" >&2; else
    [ "$1" -le 390 ] && ok || bad "index.html at 390 px: the page is $1 px wide"
    [ "$2" -ge 0 ] && [ "$3" -le 390 ] && ok || bad "index.html at 390 px: the table's box is at $2 to $3"
    [ "$5" -gt "$4" ] && ok || bad "index.html at 390 px: the table does not scroll ($5 px in a box of $4)"
    [ "$6" -le 390 ] && ok || bad "index.html at 390 px: the table's caption ends at $6 px, clipped"
fi

finish browser
