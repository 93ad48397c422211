#!/bin/sh
# markdown_escape.sh ROOFCAST SOURCE_DIR
# Text from the inputs renders literally through a CommonMark + GFM
# renderer (cmark-gfm with tables): no emphasis, links, HTML, headings,
# lists or table cells made out of a kernel's names and notes.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
command -v cmark-gfm >/dev/null || { echo "FAIL: cmark-gfm is not installed" >&2; exit 1; }
"$roofcast" -q -f md -o "$tmp" --gpu titan-black tests/data/md-escape
cmark-gfm --extension table "$tmp/weird.md" > "$tmp/weird.html"
has "$tmp/weird.html" '<h1>*bold* _it_ &lt;b&gt;x&lt;/b&gt; [link](http://x) a|b `tick` &amp;amp; # h ~~s~~ ![i](j): execution time estimates on 1 GPU</h1>'
has "$tmp/weird.html" '<p>1. not a list &lt;script&gt;alert(1)&lt;/script&gt; **strong**.</p>'
# a parameter's note, on the configuration's line, breaks no table and makes no emphasis
has "$tmp/weird.html" '<p>Grid (1, 1, 1) → 1 block; block (32, 1, 1) → 32 threads per block; 32 threads launched. Parameters: <code>k</code> = 10 (| a cell | breaker | and _emphasis_).</p>'
has "$tmp/weird.html" '<li># not a heading</li>'
has "$tmp/weird.html" '<li>&lt;!-- not a comment --&gt; and &amp;lt; entity</li>'
has "$tmp/weird.html" '<pre><code class="language-cudax">int a = 1; // ``` a fence inside the code'
lacks "$tmp/weird.html" '<script'
lacks "$tmp/weird.html" '<em>'
lacks "$tmp/weird.html" '<del>'
lacks "$tmp/weird.html" '<a href'
lacks "$tmp/weird.html" '<ol'
finish markdown_escape
