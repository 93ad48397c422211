#!/bin/sh
# layers_test.sh CC: layers.sh can fail. It is run over the fixtures of
# tests/house/fixtures (each src/ compiled with CC into objects named as
# CMake names them): clean/ passes; upward/ (util including and calling
# model, which calls util back) fails with exactly its three problems; a
# copy of clean/ grown over 1,000 lines, with five realloc and a folder the
# layer order does not name fails on those; no objects cannot be checked.
set -u
cc=${1:-cc}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# build TREE OUT: compiles TREE/src/*/*.c into OUT/CMakeFiles/fixture.dir/src/.
build() {
    for c in "$1"/src/*/*.c; do
        rel=${c#"$1"/src/}
        mkdir -p "$2/CMakeFiles/fixture.dir/src/$(dirname "$rel")"
        "$cc" -c -I "$1/src" -o "$2/CMakeFiles/fixture.dir/src/$rel.o" "$c" ||
            { echo "FAIL: cannot compile $c"; exit 1; }
    done
}

# expect STATUS WANT_FILE TREE BUILD: layers.sh's status and output are exactly these.
expect() {
    sh "$here/layers.sh" "$3" "$4" >"$tmp/out" 2>&1
    status=$?
    [ "$status" -eq "$1" ] && ok || bad "$3: exit $status, want $1"
    if cmp -s "$2" "$tmp/out"; then ok; else
        bad "$3: output differs from what is wanted"
        diff "$2" "$tmp/out"
    fi
}

build "$here/fixtures/clean" "$tmp/clean-build"
build "$here/fixtures/upward" "$tmp/upward-build"

cat >"$tmp/want" <<'EOF'
layers: ok (5 files, 4 includes between folders, 2 calling pairs of files, 0 realloc)
EOF
expect 0 "$tmp/want" "$here/fixtures/clean/src" "$tmp/clean-build"

cat >"$tmp/want" <<'EOF'
src/util/str.c:3: includes model from util
src/util/str.c: calls model from util (rc_count in src/model/count.c)
src/model/count.c and src/util/str.c call each other (rc_str_len, rc_count)
layers: 3 problems
EOF
expect 1 "$tmp/want" "$here/fixtures/upward/src" "$tmp/upward-build"

# clean/ grown: a header over 1,000 lines, five realloc, a folder out of the order.
cp -r "$here/fixtures/clean" "$tmp/grown"
i=0
while [ $i -lt 1000 ]; do echo "/* line */"; i=$((i + 1)); done >>"$tmp/grown/src/util/str.h"
for n in 1 2 3 4 5; do echo "/* realloc($n) */" >>"$tmp/grown/src/model/count.c"; done
mkdir "$tmp/grown/src/extra"
echo 'int rc_extra;' >"$tmp/grown/src/extra/extra.c"
cat >"$tmp/want" <<'EOF'
src/extra: a folder the layer order (util model paint input import results render cli) does not name
src/util/str.h: 1002 lines, more than 1,000
realloc in 5 places, at most 4: src/model/count.c:9 src/model/count.c:10 src/model/count.c:11 src/model/count.c:12 src/model/count.c:13
layers: 3 problems
EOF
expect 1 "$tmp/want" "$tmp/grown/src" "$tmp/clean-build"

mkdir "$tmp/empty"
cat >"$tmp/want" <<EOF
layers: no object file of $here/fixtures/clean/src under $tmp/empty (build it first)
EOF
expect 2 "$tmp/want" "$here/fixtures/clean/src" "$tmp/empty"

echo "layers_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
