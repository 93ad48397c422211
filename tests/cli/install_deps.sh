#!/bin/sh
# install_deps.sh ROOFCAST SOURCE_DIR
# scripts/install-deps.sh, which the README's two commands and .ci/run
# call, run against stand-ins for dpkg-query, id, sudo and apt-get: as root
# it runs apt-get itself, as a user through sudo (DEBIAN_FRONTEND passed
# through sudo's reset environment), without sudo it says what to do; it
# installs only the missing packages, and the test packages only with
# --tests. (That the package names exist in Debian 12 is .ci/run's part.)
set -u
. "$(dirname "$0")/lib.sh"
setup "$1" "$2"
script=$src/scripts/install-deps.sh

# The stand-ins log their calls to $tmp/log. Only they, grep and env are on
# PATH, so no real apt-get or sudo can run.
stubs=$tmp/stubs
mkdir "$stubs"
ln -s "$(command -v grep)" "$stubs/grep"
ln -s "$(command -v env)" "$stubs/env"
cat >"$stubs/dpkg-query" <<'STUB'
#!/bin/sh
# dpkg-query -W -f=FORMAT PACKAGE: installed unless $MISSING names it.
for package; do :; done
for p in $MISSING; do [ "$p" = "$package" ] && exit 1; done
printf 'install ok installed'
STUB
cat >"$stubs/id" <<'STUB'
#!/bin/sh
echo "$UID_STUB"
STUB
cat >"$stubs/apt-get" <<'STUB'
#!/bin/sh
echo "apt-get $* (DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-})" >>"$LOG"
STUB
cat >"$stubs/sudo" <<'STUB'
#!/bin/sh
echo "sudo $*" >>"$LOG"
env -i PATH="$PATH" LOG="$LOG" "$@" # sudo resets the environment
STUB
chmod +x "$stubs"/dpkg-query "$stubs"/id "$stubs"/apt-get "$stubs"/sudo

# run UID MISSING ARGS...: the script as user UID with MISSING not installed.
run() {
    uid=$1 missing=$2; shift 2
    : >"$tmp/log"
    env -i PATH="$stubs" LOG="$tmp/log" UID_STUB="$uid" MISSING="$missing" \
        /bin/sh "$script" "$@" >"$tmp/out" 2>"$tmp/err"
    echo $? >"$tmp/status"
}
status_is() { [ "$(cat "$tmp/status")" -eq "$1" ] && ok || { bad "exit $(cat "$tmp/status"), want $1"; show "$tmp/err"; }; }

run 0 "" --tests
status_is 0
has "$tmp/out" "install-deps.sh: every package is installed"
[ ! -s "$tmp/log" ] && ok || bad "apt-get ran with every package installed: $(cat "$tmp/log")"

# As root (a container): apt-get itself, the missing packages only.
run 0 "tidy chromium cmake" --tests
status_is 0
has "$tmp/log" "apt-get update -q (DEBIAN_FRONTEND=)
apt-get install -y -q --no-install-recommends cmake tidy chromium (DEBIAN_FRONTEND=noninteractive)"
lacks "$tmp/log" "sudo"

# Without --tests, the test packages are not asked for.
run 0 "tidy chromium" 
status_is 0
has "$tmp/out" "install-deps.sh: every package is installed"
[ ! -s "$tmp/log" ] && ok || bad "the build packages alone installed test packages: $(cat "$tmp/log")"

# As a user: through sudo, DEBIAN_FRONTEND reaching apt-get.
run 1000 "libhpdf-dev pngcheck" --tests
status_is 0
has "$tmp/log" "sudo apt-get update -q
apt-get update -q (DEBIAN_FRONTEND=)
sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libhpdf-dev pngcheck
apt-get install -y -q --no-install-recommends libhpdf-dev pngcheck (DEBIAN_FRONTEND=noninteractive)"

# As a user without sudo: what is missing and what to do.
rm "$stubs/sudo"
run 1000 "cmake"
status_is 1
has "$tmp/err" "install-deps.sh: these packages are missing: cmake
install-deps.sh: run this script as root, or install sudo"
[ ! -s "$tmp/log" ] && ok || bad "apt-get ran without root or sudo"

run 0 "" --test
status_is 2
has "$tmp/err" "install-deps.sh: unknown argument '--test' (expected --tests or nothing)"

# The README's two commands and .ci/run call it.
contains README.md 'scripts/install-deps.sh && cmake -S . -B build'
contains README.md 'scripts/install-deps.sh --tests && tests/run-all.sh'
contains .ci/run 'scripts/install-deps.sh --tests'
lacks README.md 'sudo apt-get'

finish install_deps
