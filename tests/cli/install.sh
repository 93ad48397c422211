#!/bin/sh
# install.sh BUILD_DIR SOURCE_DIR
# `cmake --install` gives a working roofcast under any prefix: run from
# another directory, the installed program finds its templates (and still
# does once the whole prefix is moved elsewhere), and writes the same
# Markdown and HTML as the build tree's program (changes.md too, from its
# template changes.xsl). A copy of the program
# alone finds the build tree's templates; with none anywhere, the error
# names every directory tried and the -t option.
set -u
. "$(dirname "$0")/lib.sh"
build=$(cd "$1" && pwd)
setup "$build/roofcast" "$2"

expect 0 cmake --install "$build" --prefix "$tmp/prefix"
[ -x "$tmp/prefix/bin/roofcast" ] && [ -s "$tmp/prefix/share/roofcast/templates/markdown.xsl" ] &&
    [ -s "$tmp/prefix/share/roofcast/templates/changes.xsl" ] && ok ||
    bad "cmake --install did not install bin/roofcast and share/roofcast/templates"

# The build tree's reports, to compare with, against a baseline on another GPU.
expect 0 "$roofcast" -q -f xml -o "$tmp/base" -s "$src/specs" --gpu l4 "$src/kernels/maximum_kernel.xml"
expect 0 "$roofcast" -q -f md,html -o "$tmp/want" -s "$src/specs" --gpu titan-black \
    --baseline "$tmp/base" "$src/kernels/maximum_kernel.xml"
has "$tmp/want/changes.md" "- GeForce GTX TITAN Black (titan-black)"

# installed_run PROGRAM NAME: runs PROGRAM from a directory of its own,
# which holds no templates, and compares its reports with the build tree's.
installed_run() {
    mkdir -p "$tmp/cwd-$2"
    (cd "$tmp/cwd-$2" && "$1" -q -f md,html -o out -s "$src/specs" --gpu titan-black \
        --baseline "$tmp/base" "$src/kernels/maximum_kernel.xml" >"$tmp/out" 2>"$tmp/err"
     echo $? >"$tmp/status")
    [ "$(cat "$tmp/status")" -eq 0 ] && ok || { bad "$2: exit $(cat "$tmp/status"), want 0"; show "$tmp/err"; }
    for f in maximum_kernel.md maximum_kernel.html index.html changes.md; do
        cmp -s "$tmp/want/$f" "$tmp/cwd-$2/out/$f" && ok || bad "$2: $f differs from the build tree's"
    done
}
installed_run "$tmp/prefix/bin/roofcast" installed
mv "$tmp/prefix" "$tmp/moved"
installed_run "$tmp/moved/bin/roofcast" moved
mkdir "$tmp/lone"
cp "$roofcast" "$tmp/lone/roofcast"
installed_run "$tmp/lone/roofcast" lone

# -t naming a directory without templates: the path and the option.
expect 3 "$roofcast" -q -f md -o "$tmp/t" -t "$tmp/no-templates" kernels/maximum_kernel.xml
has "$tmp/err" "roofcast: $tmp/no-templates/markdown.xsl: cannot read the template (is --templates right?)"

# No templates anywhere: the build tree's hidden in a mount namespace,
# the lone copy has none beside it, and nothing is installed at the
# configured prefix (skipped where it is).
in_namespace() {
    if [ "$(id -u)" -eq 0 ]; then unshare -m sh -c "$1"; else unshare -rm sh -c "$1"; fi
}
prefix_templates=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")/share/roofcast/templates
if [ -e "$prefix_templates" ]; then
    skip "templates are installed in $prefix_templates: the no-templates error cannot be provoked"
elif in_namespace "mount -t tmpfs tmpfs '$src/templates'" 2>/dev/null; then
    in_namespace "mount -t tmpfs tmpfs '$src/templates' && cd '$tmp' &&
        '$tmp/lone/roofcast' -q -f md -o no-output -s '$src/specs' '$src/kernels' >'$tmp/out' 2>'$tmp/err'
        echo \$? >'$tmp/status'"
    [ "$(cat "$tmp/status")" -eq 3 ] && ok || bad "no templates: exit $(cat "$tmp/status"), want 3"
    has "$tmp/err" "roofcast: no report templates (markdown.xsl) in $tmp/lone/templates, $tmp/lone/../share/roofcast/templates, $src/templates or $prefix_templates; give their directory with -t DIR"
else
    skip "no mount namespace (unshare -m): the no-templates error is not checked"
fi

# Without -s, from a directory with no specs/ of its own (issue 29.9): the installed program
# reads the installed GPU files (the source tree's hidden), found as the templates are; with
# none anywhere, the error names every place tried and the -s option.
[ -s "$tmp/moved/share/roofcast/specs/h100-sxm5.xml" ] && ok || bad "cmake --install did not install share/roofcast/specs"
prefix_specs=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")/share/roofcast/specs
if [ -e "$prefix_specs" ]; then
    skip "GPU files are installed in $prefix_specs: the bundled-specs checks cannot hide them"
elif in_namespace "mount -t tmpfs tmpfs '$src/specs'" 2>/dev/null; then
    in_namespace "mount -t tmpfs tmpfs '$src/specs' && cd '$tmp/cwd-moved' &&
        '$tmp/moved/bin/roofcast' -q --check '$src/kernels/maximum_kernel.xml' >'$tmp/out' 2>'$tmp/err'
        echo \$? >'$tmp/status'"
    [ "$(cat "$tmp/status")" -eq 0 ] && ok || { bad "installed, no -s: exit $(cat "$tmp/status"), want 0"; show "$tmp/err"; }
    [ "$(grep -c '^maximum_kernel ' "$tmp/out")" -eq 12 ] && ok || bad "installed, no -s: not the 12 bundled GPUs"
    in_namespace "mount -t tmpfs tmpfs '$src/specs' && cd '$tmp/cwd-lone' &&
        '$tmp/lone/roofcast' -q --check '$src/kernels/maximum_kernel.xml' >'$tmp/out' 2>'$tmp/err'
        echo \$? >'$tmp/status'"
    [ "$(cat "$tmp/status")" -eq 1 ] && ok || bad "no GPU files: exit $(cat "$tmp/status"), want 1"
    has "$tmp/err" "roofcast: no GPU files: none in specs/ in the current directory, $tmp/lone/specs, $tmp/lone/../share/roofcast/specs, $src/specs or $prefix_specs; give them with -s PATH"
else
    skip "no mount namespace (unshare -m): the bundled-specs lookup is not checked"
fi

finish install
