#!/bin/sh
# readme.sh ROOFCAST SOURCE_DIR
# README.md is a user's guide (issue 29.8): at most 2,000 words, no commit hashes or dated
# logs, every docs/ page it links exists, and its first kernel is a working kernel file.
set -eu
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
n=$(wc -w < README.md)
[ "$n" -le 2000 ] && ok || bad "README.md has $n words, want at most 2,000"
contains README.md 'open `output/index.html`'
# no commit hashes (7 to 40 hex digits with a letter and a digit) and no dates
if grep -oE '\b[0-9a-f]{7,40}\b' README.md | grep '[a-f]' | grep -q '[0-9]'; then
    bad "README.md holds what looks like a commit hash: $(grep -oE '\b[0-9a-f]{7,40}\b' README.md | grep '[a-f]' | grep '[0-9]' | head -1)"
else ok; fi
if grep -qE '\b20[0-9]{2}-[0-9]{2}-[0-9]{2}\b' README.md; then bad "README.md holds a date"; else ok; fi
for f in $(grep -oE '\(docs/[a-z-]+\.md\)' README.md | tr -d '()'); do
    [ -s "$f" ] && ok || bad "README.md links $f, which does not exist"
done
# The first kernel, as the README shows it: written with arrays and indices, and it runs.
awk '/^```xml$/ { on = 1; next } /^```$/ && on { exit } on' README.md > "$tmp/saxpy.xml"
grep -q '<load array="x" index="i"/>' "$tmp/saxpy.xml" && ok || bad "README's first kernel does not index arrays"
lacks "$tmp/saxpy.xml" 'bytes="'
expect 0 "$roofcast" --check "$tmp/saxpy.xml"
[ "$(grep -c '^saxpy ' "$tmp/out")" -eq 12 ] && ok || bad "README's saxpy.xml: not 12 estimates"
# 2^20 threads, 2 FLOPs and 12 bytes each
grep -q '^saxpy  *titan-black  *2,097,152  *12,582,912 ' "$tmp/out" && ok || bad "README's saxpy.xml: wrong counts"
finish readme
