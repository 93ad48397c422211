#!/bin/sh
# browser.sh ROOFCAST SOURCE_DIR PNG_INFO
# A real browser renders the pages: headless Chromium (Debian's chromium)
# opens a report and the index from file:// with no network, and takes a
# screenshot of each, which must be a valid 1200 x 1600 PNG that is not one
# flat colour and shows the charts' colours (the embedded SVGs drew).
# Chromium missing is a failure, not a skip: CI installs it.
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

finish browser
