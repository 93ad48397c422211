#!/bin/sh
# layers.sh: the house rules of src/ (issue 28), checked on the source and
# on the object files of a build.
#
#   tests/house/layers.sh SRC_DIR BUILD_DIR
#
# SRC_DIR is a src/ tree (the program's, or a fixture's); BUILD_DIR holds
# its object files as CMake names them (.../src/LAYER/FILE.c.o, found at any
# depth; an object whose source is no longer in SRC_DIR is ignored). The
# rules, each problem printed on a line of its own:
#
#   includes  every #include "LAYER/..." points to the file's own folder or
#             a lower one in util < model < paint < input < import < results
#             < render < cli:    FILE:LINE: includes HIGHER from LOWER
#   calls     a file calls functions (and reads data) of its own layer or
#             lower ones only:   FILE: calls HIGHER from LOWER (SYMBOL in FILE2)
#   pairs     no two .c files call each other:
#                                FILE1 and FILE2 call each other (SYMBOL, SYMBOL)
#   size      no file over 1,000 lines:  FILE: N lines, more than 1,000
#   realloc   realloc( in at most 4 places of SRC_DIR (util/array.c's rc_grow
#             and util/buffer.c's buffer are meant to be two of them):
#                                realloc in N places, at most 4: FILE:LINE ...
#
# Exit status 0 and "layers: ok (...)" when every rule holds, else 1 and
# "layers: N problems" last; 2 when it cannot check (no object files).
# NM names the nm to use (default nm).
set -u
LAYERS="util model paint input import results render cli"
MAX_LINES=1000
MAX_REALLOC=4

[ $# -eq 2 ] || { echo "usage: layers.sh SRC_DIR BUILD_DIR" >&2; exit 2; }
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
nm=${NM:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The layer's rank (1 for util), 0 for a name not in LAYERS.
rank() {
    i=0
    for l in $LAYERS; do
        i=$((i + 1))
        [ "$l" = "$1" ] && { echo $i; return; }
    done
    echo 0
}

# Every source file, as LAYER/NAME, sorted so that the messages' order is fixed.
(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' \) | sed 's#^\./##' | LC_ALL=C sort) \
    >"$tmp/files"
: >"$tmp/problems"

# A folder of src/ the layer order does not name has no place in it.
for d in $(sed 's#/.*##' "$tmp/files" | LC_ALL=C sort -u); do
    [ "$(rank "$d")" -gt 0 ] ||
        echo "src/$d: a folder the layer order ($LAYERS) does not name" >>"$tmp/problems"
done

# ---- includes ----------------------------------------------------------------
ranks=$(for l in $LAYERS; do printf '%s=%s ' "$l" "$(rank "$l")"; done)
while IFS= read -r f; do
    awk -v file="src/$f" -v ranks="$ranks" '
        BEGIN {
            n = split(ranks, kv, " ")
            for (i = 1; i <= n; i++) { split(kv[i], p, "="); r[p[1]] = p[2] }
            split(file, parts, "/"); own = parts[2]
        }
        /^[ \t]*#[ \t]*include[ \t]*"/ {
            inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
            if (index(inc, "/") == 0) next
            layer = inc; sub(/\/.*/, "", layer)
            if (!(layer in r)) next
            print "INCLUDE"
            if (r[layer] > r[own])
                printf "%s:%d: includes %s from %s\n", file, FNR, layer, own
        }' "$src/$f"
done <"$tmp/files" >"$tmp/includes"
includes=$(grep -c '^INCLUDE$' "$tmp/includes")
grep -v '^INCLUDE$' "$tmp/includes" >>"$tmp/problems"

# ---- calls, from the object files ----------------------------------------------
# Each object's source, LAYER/NAME.c, when that source is in SRC_DIR.
find "$build" -type f -path '*/src/*/*.c.o' | LC_ALL=C sort >"$tmp/objects"
: >"$tmp/symbols"
nobj=0
while IFS= read -r o; do
    s=${o##*/src/}
    s=${s%.o}
    grep -qxF "$s" "$tmp/files" || continue
    # One object per source (a test may compile a source of src/ again).
    grep -q "^[DU] src/$s " "$tmp/symbols" && continue
    nobj=$((nobj + 1))
    "$nm" "$o" | awk -v f="src/$s" '
        NF == 3 && $2 ~ /^[TDBRGS]$/ { print "D", f, $3 }
        NF == 2 && $1 == "U" { print "U", f, $2 }' >>"$tmp/symbols"
done <"$tmp/objects"
if [ "$nobj" -eq 0 ]; then
    echo "layers: no object file of $src under $build (build it first)" >&2
    exit 2
fi
# Edges FROM TO SYMBOL: FROM uses SYMBOL, which TO defines.
awk '$1 == "D" { def[$3] = $2; next }
     $1 == "U" && ($3 in def) && def[$3] != $2 { print $2, def[$3], $3 }' \
    "$tmp/symbols" "$tmp/symbols" | LC_ALL=C sort -u >"$tmp/edges"
calls=$(awk '{ print $1, $2 }' "$tmp/edges" | LC_ALL=C sort -u | wc -l)
awk -v ranks="$ranks" '
    BEGIN { n = split(ranks, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "="); r[p[1]] = p[2] } }
    {
        split($1, a, "/"); split($2, b, "/")
        if (r[b[2]] > r[a[2]] && !seen[$1 " " $2]++)
            printf "%s: calls %s from %s (%s in %s)\n", $1, b[2], a[2], $3, $2
    }' "$tmp/edges" >>"$tmp/problems"
awk '{ if (!(($1 " " $2) in first)) first[$1 " " $2] = $3 }
     END {
        for (k in first) {
            split(k, e, " ")
            back = e[2] " " e[1]
            if ((back in first) && e[1] < e[2])
                printf "%s and %s call each other (%s, %s)\n", e[1], e[2], first[k], first[back]
        }
     }' "$tmp/edges" | LC_ALL=C sort >>"$tmp/problems"

# ---- sizes -------------------------------------------------------------------
while IFS= read -r f; do
    n=$(wc -l <"$src/$f")
    [ "$n" -le $MAX_LINES ] || echo "src/$f: $n lines, more than 1,000" >>"$tmp/problems"
done <"$tmp/files"

# ---- realloc -----------------------------------------------------------------
while IFS= read -r f; do
    grep -n 'realloc[ \t]*(' "$src/$f" | sed "s#^\([0-9]*\):.*#src/$f:\1#"
done <"$tmp/files" >"$tmp/reallocs"
nrealloc=$(wc -l <"$tmp/reallocs")
[ "$nrealloc" -le $MAX_REALLOC ] ||
    echo "realloc in $nrealloc places, at most $MAX_REALLOC: $(tr '\n' ' ' <"$tmp/reallocs" | sed 's/ $//')" \
        >>"$tmp/problems"

n=$(wc -l <"$tmp/problems")
if [ "$n" -gt 0 ]; then
    cat "$tmp/problems"
    echo "layers: $n problem$([ "$n" -eq 1 ] || echo s)"
    exit 1
fi
echo "layers: ok ($(wc -l <"$tmp/files") files, $includes includes between folders, $calls calling pairs of files, $nrealloc realloc)"
