#!/bin/sh
# markdown_escape.sh ROOFCAST SOURCE_DIR
# Text from the inputs renders literally through a CommonMark + GFM
# renderer (cmark-gfm with tables): no emphasis, links, HTML, headings,
# lists or table cells made out of a kernel's names and notes.
set -eu
roofcast=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
command -v cmark-gfm >/dev/null || { echo "FAIL: cmark-gfm is not installed" >&2; exit 1; }
"$roofcast" -q -f md -o "$tmp" --gpu titan-black tests/data/md-escape
cmark-gfm --extension table "$tmp/weird.md" > "$tmp/weird.html"
pass=0 fail=0
has() {
    if grep -qxF -- "$1" "$tmp/weird.html"; then pass=$((pass + 1)); else
        echo "FAIL: no line: $1" >&2; fail=$((fail + 1)); fi
}
lacks() {
    if grep -qF -- "$1" "$tmp/weird.html"; then
        echo "FAIL: rendered markup: $1" >&2; fail=$((fail + 1)); else pass=$((pass + 1)); fi
}
has '<h1>*bold* _it_ &lt;b&gt;x&lt;/b&gt; [link](http://x) a|b `tick` &amp;amp; # h ~~s~~ ![i](j): execution time estimates on 1 GPU</h1>'
has '<p>1. not a list &lt;script&gt;alert(1)&lt;/script&gt; **strong**.</p>'
has '<td>10 (| a cell | breaker | and _emphasis_)</td>'
has '<li># not a heading</li>'
has '<li>&lt;!-- not a comment --&gt; and &amp;lt; entity</li>'
has '<pre><code class="language-cudax">int a = 1; // ``` a fence inside the code'
lacks '<script'
lacks '<em>'
lacks '<del>'
lacks '<a href'
lacks '<ol'
echo "markdown_escape: $pass passed, $fail failed"
[ $fail -eq 0 ]
