#!/bin/sh
# install-deps.sh [--tests]: installs with apt-get (Debian 12) the packages
# roofcast needs to build and run; with --tests, also those its tests need
# (tests/run-all.sh). Only missing packages are installed, so a second run
# does nothing. As root it runs apt-get itself (a container has no sudo);
# as any other user it asks sudo.
set -eu

build_packages="build-essential cmake pkg-config libxml2-dev libxslt1-dev libcairo2-dev
  libfreetype-dev zlib1g-dev libhpdf-dev fonts-dejavu-core libclang-dev"
test_packages="libcmocka-dev valgrind libxml2-utils qpdf poppler-utils tidy cmark-gfm pngcheck
  chromium"

case ${1:-} in
"") packages=$build_packages ;;
--tests) packages="$build_packages $test_packages" ;;
-h | --help)
    echo "Usage: scripts/install-deps.sh [--tests]"
    echo "Installs the Debian packages roofcast needs to build (with --tests: and to test)."
    exit 0 ;;
*)
    echo "install-deps.sh: unknown argument '$1' (expected --tests or nothing)" >&2
    exit 2 ;;
esac
[ $# -le 1 ] || { echo "install-deps.sh: one argument at most (--tests)" >&2; exit 2; }

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps.sh: every package is installed"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "install-deps.sh: these packages are missing:$missing" >&2
    echo "install-deps.sh: run this script as root, or install sudo" >&2
    exit 1
fi
echo "install-deps.sh: installing$missing"
# sudo resets the environment: env passes DEBIAN_FRONTEND through it.
# shellcheck disable=SC2086 # $as_root and $missing are lists of words
$as_root apt-get update -q
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
