#!/bin/sh
# pdf.sh ROOFCAST SOURCE_DIR
# The PDF summaries (<kernel>.pdf, summary.pdf): valid (qpdf), every font
# embedded (pdffonts), the numbers of the Markdown report in the text
# (pdftotext), one bookmark per kernel and every chart, byte-identical across
# runs, and text kept inside the page and off other text even for a kernel
# with a 120-character name and notes in Greek and Cyrillic
# (tests/data/long-names/kernels); a kernel page's text at the largest font
# scale that leaves room for its chart, on 1 to 12 GPUs; poppler reads
# every PDF without a word on stderr (pdftotext, pdftoppm). Needs qpdf and
# poppler-utils.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
out=$tmp
for tool in qpdf pdffonts pdftotext pdftoppm pdfinfo; do
    command -v "$tool" >/dev/null || { echo "pdf.sh: $tool is missing (qpdf, poppler-utils)" >&2; exit 1; }
done

"$roofcast" -q -f md,pdf -o "$out/a"
"$roofcast" -q -f md,pdf -o "$out/b"
"$roofcast" -q -f pdf -o "$out/long" tests/data/long-names/kernels 2>"$out/long.err" ||
    bad "the long-names run failed: $(cat "$out/long.err")"
# More kernels than the overview chart shows (20) on all 12 GPUs: its
# bands take more than a page, so summary.pdf sets it in parts.
mkdir "$out/many"
for i in 1 2 3 4 5 6; do
    for f in kernels/*.xml; do
        k=$(basename "$f" .xml)
        sed "s/<kernel id=\"$k\"/<kernel id=\"$k$i\"/" "$f" >"$out/many/$k$i.xml"
    done
done
"$roofcast" -q -f pdf -o "$out/many/out" "$out/many" || bad "the 24-kernel run failed"

kernels=$(cd kernels && ls *.xml | sed 's/\.xml$//')
nkernels=$(echo "$kernels" | wc -l)

for pdf in "$out"/a/*.pdf "$out"/long/*.pdf "$out"/many/out/summary.pdf; do
    name=${pdf#"$out"/}
    # qpdf: 0 is clean, 2 errors, 3 warnings
    if qpdf --check "$pdf" >/dev/null 2>&1; then ok; else bad "qpdf --check $name"; fi
    # poppler is silent: no "Syntax Warning" (libharu's ToUnicode CMap once
    # made one per font) and no error.
    for read in "pdftotext $pdf -" "pdftoppm -r 10 -png $pdf"; do
        $read >/dev/null 2>"$out/poppler.err" || bad "$read failed"
        if [ -s "$out/poppler.err" ]; then bad "${read%% *} $name printed:"; cat "$out/poppler.err" >&2; else ok; fi
    done
    # pdffonts: the "emb" column is the fifth from the end
    fonts=$(pdffonts "$pdf" 2>/dev/null | awk 'NR > 2')
    if [ -n "$fonts" ] && echo "$fonts" | awk '$(NF-4) != "yes" { exit 1 }'; then ok; else
        bad "$name has a font that is not embedded:"; echo "$fonts" >&2; fi
done

# No text under 6 pt at 100 % zoom, with all 12 GPUs, with one, and with
# long names: the size of every font set in every content stream (text
# is drawn with unscaled text matrices, so this is its size on the page).
"$roofcast" -q -f pdf --gpu titan-black -o "$out/one" || bad "the one-GPU run failed"
for pdf in "$out"/a/*.pdf "$out"/one/*.pdf "$out"/long/*.pdf "$out"/many/out/summary.pdf; do
    name=${pdf#"$out"/}
    qpdf --qdf --object-streams=disable "$pdf" "$out/qdf.pdf" 2>/dev/null
    sizes=$(awk '/ Tf$/ { print $(NF - 1) }' "$out/qdf.pdf" | sort -n)
    smallest=$(echo "$sizes" | head -n 1)
    if [ -z "$sizes" ]; then bad "$name: no font set in its content streams"
    elif awk -v s="$smallest" 'BEGIN { exit !(s >= 5.995) }'; then ok
    else bad "$name has text of $smallest pt (at least 6 wanted)"; fi
    # The font stays set from one text to the next: set again only where
    # it changes (a fifth of the texts in these), not for each text object.
    nbt=$(grep -c '^BT$' "$out/qdf.pdf"); ntf=$(grep -c ' Tf$' "$out/qdf.pdf")
    if [ "$((3 * ntf))" -lt "$nbt" ]; then ok; else bad "$name sets the font $ntf times for $nbt texts"; fi
done

# Every chart is in the PDFs, with one GPU and with all 12 (a dozen
# legends and per-launch points take a kernel's roofline to a second
# page), and nothing says a chart is left out.
for run in a one; do
    for k in $kernels; do
        pdftotext -enc UTF-8 "$out/$run/$k.pdf" "$out/$run-$k-chart.txt" 2>/dev/null
        contains "$out/$run-$k-chart.txt" "Roofline of $k"
        lacks "$out/$run-$k-chart.txt" "does not fit"
    done
    pdftotext -enc UTF-8 "$out/$run/summary.pdf" "$out/$run-summary-chart.txt" 2>/dev/null
    contains "$out/$run-summary-chart.txt" "Every kernel on every GPU: predicted time per launch"
    lacks "$out/$run-summary-chart.txt" "does not fit"
    for k in $kernels; do
        n=$(grep -cF "Roofline of $k" "$out/$run-summary-chart.txt" || true)
        if [ "$n" -eq 1 ]; then ok; else bad "$run/summary.pdf has the roofline of $k $n times"; fi
    done
done
pages=$(pdfinfo "$out/one/gpuKendall.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
if [ "$pages" -eq 1 ]; then ok; else bad "one GPU: gpuKendall.pdf has $pages pages, want 1"; fi
pages=$(pdfinfo "$out/a/gpuKendall.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
if [ "$pages" -eq 2 ]; then ok; else bad "12 GPUs: gpuKendall.pdf has $pages pages, want 2"; fi
pdftotext -enc UTF-8 -f 1 -l 1 "$out/a/gpuKendall.pdf" "$out/a-gpuKendall-1.txt" 2>/dev/null
contains "$out/a-gpuKendall-1.txt" "The roofline chart is on the next page."
contains "$out/a-gpuKendall-1.txt" "Page 1 of 2"
# The 20 slowest of 24 kernels: every band once, over several pages.
pdftotext -enc UTF-8 "$out/many/out/summary.pdf" "$out/many.txt" 2>/dev/null
contains "$out/many.txt" "The slowest kernels on every GPU: predicted time per launch"
parts=$(grep -c "The slowest kernels on every GPU: predicted time per launch" "$out/many.txt" || true)
if [ "$parts" -ge 2 ]; then ok; else bad "the 24-kernel overview chart is in $parts parts, want 2 or more"; fi
tr '\n' ' ' <"$out/many.txt" >"$out/many-joined.txt" # the subtitles wrap
contains "$out/many-joined.txt" "; here kernels 1 to "
contains "$out/many-joined.txt" " to 20 of 20"

# The memory levels' table is the Markdown and HTML reports' appendix A, not the PDF's page
# (issue 29: a kernel's PDF is 1 or 2 pages, At a glance on top); the page says where it is.
pdftotext -enc UTF-8 "$out/a/gpuKendall.pdf" "$out/a-gpuKendall-levels.txt" 2>/dev/null
tr '\n' ' ' <"$out/a-gpuKendall-levels.txt" >"$out/a-gpuKendall-joined.txt"
lacks "$out/a-gpuKendall-levels.txt" "t_L1 (µs)"
contains "$out/a-gpuKendall-joined.txt" "appendix A of the Markdown and HTML reports"

# With one GPU nothing is "fastest": no bold, and no sentence saying so.
pdftotext -enc UTF-8 "$out/one/summary.pdf" "$out/one-summary.txt" 2>/dev/null
tr '\n' ' ' <"$out/one-summary.txt" >"$out/one-summary-joined.txt"
contains "$out/one-summary-joined.txt" "4 kernels on 1 GPU: t_estimate per launch in µs, the refined estimate to plan with, then t_total, the peak roofline; from declared work and the GPUs' figures."
# summary.pdf page 1: the t_estimate table first, then t_total (issue 29)
pdftotext -enc UTF-8 -l 1 "$out/a/summary.pdf" "$out/summary-1.txt" 2>/dev/null
first=$(grep -n "t_estimate (µs) of every kernel on every GPU" "$out/summary-1.txt" | cut -d: -f1)
second=$(grep -n "Peak roofline: t_total (µs) of every kernel on every GPU" "$out/summary-1.txt" | cut -d: -f1)
[ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ] && ok || bad "summary.pdf page 1: not the t_estimate table first"
lacks "$out/one-summary.txt" "Bold:"
pdftotext -enc UTF-8 "$out/one/gpuMeans.pdf" "$out/one-gpuMeans.txt" 2>/dev/null
contains "$out/one-gpuMeans.txt" "Peak roofline, time per launch in µs: t_total = max(t_compute, t_mem) + t_launch"
lacks "$out/one-gpuMeans.txt" "(fastest in bold)"
lacks "$out/one-gpuMeans.txt" "(bold: fastest by t_estimate)"
lacks "$out/one-gpuMeans.txt" "(bold: the"
pdftotext -enc UTF-8 "$out/a/gpuMeans.pdf" "$out/a-gpuMeans.txt" 2>/dev/null
tr '\n' ' ' <"$out/a-gpuMeans.txt" >"$out/a-gpuMeans-joined.txt"
contains "$out/a-gpuMeans-joined.txt" "(bold: fastest by t_estimate)"
# At a glance tops page 1, before the launch's facts
head -n 4 "$out/a-gpuMeans.txt" | grep -qF "At a glance: time per launch in µs, fastest first by" && ok ||
    bad "gpuMeans.pdf: At a glance is not at the top of page 1"

# Byte-identical output for identical input.
for pdf in "$out"/a/*.pdf; do
    if cmp -s "$pdf" "$out/b/${pdf##*/}"; then ok; else bad "${pdf##*/} differs between two runs"; fi
done

# Each reference kernel's PDF shows its name, "µs" and every t_total of its
# Markdown report's conclusion ("- GPU: t_total 6.90 µs, ..."); so does its page
# in summary.pdf, whose drawing is moved out of memory once made.
pdftotext -enc UTF-8 "$out/a/summary.pdf" "$out/summary.txt" 2>/dev/null
for k in $kernels; do
    page=$(awk -v k="$k" 'BEGIN { RS = "\f" }
        index($0, k) && index($0, "time per launch in µs: t_total") { print NR; exit }' "$out/summary.txt")
    pdftotext -enc UTF-8 -f "${page:-1}" -l "${page:-1}" "$out/a/summary.pdf" "$out/$k.summary.txt" 2>/dev/null
    for t in $(sed -n 's/^- .*: t_total \([0-9.,]*\) µs, .*/\1/p' "$out/a/$k.md"); do
        if grep -qF -- "$t" "$out/$k.summary.txt"; then ok; else bad "summary.pdf page $page ($k) lacks t_total $t"; fi
    done
done
# Every page's footer, drawn after the page was moved out of memory.
npages=$(pdfinfo "$out/a/summary.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
i=1
while [ $i -le "$npages" ]; do
    if grep -qxF "Page $i of $npages" "$out/summary.txt"; then ok; else
        bad "summary.pdf lacks the footer Page $i of $npages"; fi
    i=$((i + 1))
done
for k in $kernels; do
    pdftotext -enc UTF-8 "$out/a/$k.pdf" "$out/$k.txt" 2>/dev/null
    if grep -qF -- "$k" "$out/$k.txt"; then ok; else bad "$k.pdf lacks its name"; fi
    if grep -qF -- "µs" "$out/$k.txt"; then ok; else bad "$k.pdf lacks µs"; fi
    # the conclusion's list, one GPU a line: "- GPU: 6.90 µs" (t_total, named in its lead-in)
    times=$(sed -n '/^## 5\. Conclusion/,/^## /s/^- [^:]*: \([0-9.,]*\) µs.*/\1/p' "$out/a/$k.md")
    [ "$(echo "$times" | wc -l)" -ge 1 ] && [ -n "$times" ] || bad "$k.md: no t_total in its conclusion"
    for t in $times; do
        if grep -qF -- "$t" "$out/$k.txt"; then ok; else bad "$k.pdf lacks t_total $t"; fi
    done
done

# summary.pdf: a bookmark per kernel, named after it; the overview pages,
# then each kernel's pages, as many as in its own PDF.
outlines=$(qpdf --json --json-key=outlines "$out/a/summary.pdf")
titles=$(echo "$outlines" | grep -c '"title":' || true)
if [ "$titles" -eq "$nkernels" ]; then ok; else bad "summary.pdf has $titles bookmarks, want $nkernels"; fi
for k in $kernels; do
    if echo "$outlines" | grep -qF "\"title\": \"$k\""; then ok; else bad "summary.pdf has no bookmark $k"; fi
done
kernel_pages=0
for k in $kernels; do
    pages=$(pdfinfo "$out/a/$k.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
    if [ "$pages" -ge 1 ] && [ "$pages" -le 2 ]; then ok; else bad "$k.pdf has $pages pages, want 1 or 2"; fi
    kernel_pages=$((kernel_pages + pages))
done
# The overview: the table and contents, and the chart on a page of its own.
pages=$(pdfinfo "$out/a/summary.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
if [ "$pages" -eq $((kernel_pages + 2)) ]; then ok; else
    bad "summary.pdf has $pages pages, want $((kernel_pages + 2))"; fi
info=$(pdfinfo "$out/a/summary.pdf" 2>/dev/null)
for field in Title Subject Producer; do
    if echo "$info" | grep -q "^$field: *[^ ]"; then ok; else bad "summary.pdf has no $field"; fi
done
if echo "$info" | grep -q '^CreationDate'; then bad "summary.pdf has a CreationDate"; else ok; fi
# Its subject says what it holds, true when a kernel takes two pages.
if echo "$info" | grep -qx "Subject: *t_total of $nkernels kernels on 12 GPUs, then each kernel's report"; then ok
else bad "summary.pdf's subject: $(echo "$info" | grep '^Subject')"; fi

# Text stays inside the page and no word overprints another (pdftotext
# gives each word's box; boxes may touch, by less than 0.5 pt).
fits() { # fits PDF
    pdftotext -bbox "$1" - 2>/dev/null | awk '
        /<page / { page++; n = 0
                   match($0, /width="[0-9.]+"/); w = substr($0, RSTART + 7, RLENGTH - 8)
                   match($0, /height="[0-9.]+"/); h = substr($0, RSTART + 8, RLENGTH - 9) }
        /<word / {
            split($0, a, "\"")
            x0 = a[2] + 0; y0 = a[4] + 0; x1 = a[6] + 0; y1 = a[8] + 0
            t = $0; sub(/.*">/, "", t); sub(/<\/word>.*/, "", t)
            if (x0 < 0 || y0 < 0 || x1 > w + 0 || y1 > h + 0) {
                printf "page %d: \"%s\" at (%g, %g)-(%g, %g) leaves the %g x %g page\n", page, t, x0, y0, x1, y1, w, h
                bad = 1
            }
            for (i = 0; i < n; i++)
                if (x0 < X1[i] - 0.5 && X0[i] < x1 - 0.5 && y0 < Y1[i] - 0.5 && Y0[i] < y1 - 0.5) {
                    printf "page %d: \"%s\" overprints \"%s\"\n", page, t, T[i]
                    bad = 1
                }
            X0[n] = x0; Y0[n] = y0; X1[n] = x1; Y1[n] = y1; T[n] = t; n++
        }
        END { exit bad }' >&2
}
for pdf in "$out"/long/*.pdf "$out"/a/*.pdf; do
    if fits "$pdf"; then ok; else bad "${pdf#"$out"/}: text leaves the page or overprints"; fi
done

# Greek, Cyrillic and the reports' symbols print as themselves; what the
# fonts lack prints as U+FFFD, with one warning per character.
pdftotext -enc UTF-8 "$out/long/long_names.pdf" "$out/long.txt" 2>/dev/null
for text in "Μέγιστη" "Максимальная" "µs" "×" "≈" "→" "–" "àéîõü"; do
    if grep -qF -- "$text" "$out/long.txt"; then ok; else bad "long_names.pdf lacks $text"; fi
done
pdftotext -enc UTF-8 "$out/long/missing_glyphs.pdf" "$out/missing.txt" 2>/dev/null
if grep -qF -- "� kernel" "$out/missing.txt"; then ok; else bad "missing_glyphs.pdf does not show U+FFFD"; fi
for c in U+5F52 U+7EA6 U+1F680; do
    n=$(grep -c "warning: $c .*cannot be shown in PDF output" "$out/long.err" || true)
    if [ "$n" -eq 1 ]; then ok; else bad "$n warnings for $c, want 1"; fi
done

# Hostile text: a note of every CJK ideograph (U+4E00 to U+9FFF, 20,992
# characters DejaVu lacks) four times over. Each is warned about once, and
# the cost stays linear in the text: a CPU-time limit that load does not
# consume (a scan of the earlier warnings per character took 50 s of CPU;
# the set takes 0.3 s).
{
    sed -n -e 's/id="one_thread" name="one_thread"/id="cjk" name="cjk"/' -e '1,/<\/work>/p' \
        tests/data/one-thread/kernels/one_thread.xml
    printf '  <note>'
    LC_ALL=C awk 'BEGIN { for (r = 0; r < 4; r++) for (c = 19968; c < 40960; c++)
        printf "%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64 }'
    printf '</note>\n</kernel>\n'
} > "$out/cjk-kernel.xml"
if (ulimit -t 20; exec "$roofcast" -q -f pdf --gpu titan-black -o "$out/cjk" "$out/cjk-kernel.xml") 2>"$out/cjk.err"; then ok; else
    bad "the CJK note's run failed or passed 20 s of CPU"; fi
n=$(grep -c "cannot be shown in PDF output" "$out/cjk.err" || true)
if [ "$n" -eq 20992 ]; then ok; else bad "$n warnings for the CJK note, want 20992 (one per character)"; fi
n=$(sort -u "$out/cjk.err" | wc -l)
if [ "$n" -eq 20992 ]; then ok; else bad "$n distinct lines among the CJK note's warnings, want 20992"; fi

# A note of 4 MB (the loader takes files up to 16 MiB) is cut with a
# notice, and the estimates stay on the page: every t_total of the
# Markdown report, and the interpretation. (Its cost is tested in
# test_pdf's long_text_costs_a_page, by counting the work.)
mkdir "$out/note"
yes 'a long note, repeated;' | head -c 4000000 | tr '\n' ' ' >"$out/note/text"
awk 'FNR == NR { note = $0; next }
     /<note>/ && !done { print "  <note>" note "</note>"; done = 1; next } { print }' \
    "$out/note/text" kernels/maximum_kernel.xml >"$out/note/maximum_kernel.xml"
"$roofcast" -q -f pdf -o "$out/note/out" "$out/note/maximum_kernel.xml" || bad "the long note's run failed"
pdftotext -enc UTF-8 "$out/note/out/maximum_kernel.pdf" "$out/note.txt" 2>/dev/null
for text in "a long note, repeated;" "The notes are cut here" "Interpretation" \
    $(sed -n 's/^- .*: t_total \([0-9.,]*\) µs, .*/\1/p' "$out/a/maximum_kernel.md"); do
    if grep -qF -- "$text" "$out/note.txt"; then ok; else bad "the long note's PDF lacks $text"; fi
done

# libharu's errors are caught and reported, never ignored: a copy of the
# font whose OS/2 fsType forbids embedding (FreeType still loads it, so
# only libharu objects) makes both PDFs fail with libharu's error number.
fonts=$out/fonts
mkdir "$fonts"
dejavu=${ROOFCAST_FONT_DIR:-/usr/share/fonts/truetype/dejavu}
cp "$dejavu/DejaVuSans.ttf" "$dejavu/DejaVuSans-Bold.ttf" "$fonts"
ttf=$fonts/DejaVuSans.ttf
byte() { od -A n -t u1 -j "$1" -N 1 "$ttf" | tr -d ' '; }
tables=$(( $(byte 4) * 256 + $(byte 5) )) i=0
while [ $i -lt "$tables" ]; do
    e=$((12 + 16 * i))
    if [ "$(dd if="$ttf" bs=1 skip=$e count=4 2>/dev/null)" = "OS/2" ]; then
        at=$(( (($(byte $((e + 8))) * 256 + $(byte $((e + 9)))) * 256 + $(byte $((e + 10)))) * 256 + $(byte $((e + 11))) ))
        printf '\000\002' | dd of="$ttf" bs=1 seek=$((at + 8)) conv=notrunc 2>/dev/null
    fi
    i=$((i + 1))
done
# A kernel page's text is set at the largest scale (1, 0.95, ... 0.8)
# that leaves room for the chart's smallest plot; where none does, the
# chart goes to the next page and the text takes the largest scale at
# which it fits alone. The scale is the page's title size over 17 pt; the
# chart's place is said on page 1. getRestricted on the first N GPUs of
# specs/, whose rows make the text longer: the scales that trying each in
# turn chose, and halving (d39d763) chooses (measured again when At a glance came to the
# top of page 1, issue 29, when its verdict and the interpretation grew shorter, and when the
# Little's-law sentences came to mark their assumed figures: 11 GPUs from 0.90 to 0.85).
want="1:0.90:same 2:0.85:same 3:0.80:same 4:0.80:same 5:0.80:same 6:0.95:next
7:0.95:next 8:0.90:next 9:0.90:next 10:0.90:next 11:0.85:next 12:0.85:next"
ids=$(sed -n 's/^<gpu id="\([^"]*\)".*/\1/p' specs/*.xml)
got=""
for n in 1 2 3 4 5 6 7 8 9 10 11 12; do
    "$roofcast" -q -f pdf --gpu "$(echo "$ids" | head -n "$n" | paste -sd, -)" -o "$out/scale$n" \
        kernels/getRestricted.xml || bad "the $n-GPU run failed"
    qpdf --qdf --object-streams=disable "$out/scale$n/getRestricted.pdf" "$out/scale.pdf" 2>/dev/null
    scale=$(awk '/^%% Contents for page 1/ { p = 1 } /^%% Page 2/ { p = 0 }
                 p && / Tf$/ && $(NF - 1) > m { m = $(NF - 1) } END { printf "%.2f", m / 17 }' "$out/scale.pdf")
    pdftotext -f 1 -l 1 "$out/scale$n/getRestricted.pdf" "$out/scale.txt"
    place=same
    grep -q "The roofline chart is on the next page." "$out/scale.txt" && place=next
    got="$got $n:$scale:$place"
done
if [ "$(echo $got)" = "$(echo $want)" ]; then ok; else bad "font scales and chart places: got$got, want $(echo $want)"; fi

if ROOFCAST_FONT_DIR=$fonts "$roofcast" -q -f pdf -o "$out/noembed" kernels/maximum_kernel.xml 2>"$out/noembed.err"; then
    bad "a font that forbids embedding was embedded"
else ok; fi
if grep -q "summary.pdf: cannot embed .*DejaVuSans.ttf: libharu error 0x105D (detail 0)" "$out/noembed.err"; then ok; else
    bad "no libharu error reported:"; cat "$out/noembed.err" >&2; fi
if ls "$out"/noembed/*.pdf >/dev/null 2>&1; then bad "a PDF was written despite the error"; else ok; fi

finish pdf
