#!/bin/sh
# run-all.sh [BUILD_DIR] [BUILD_TYPE]: configure with warnings as errors,
# build, and run every test with ctest. This is the README's test command.
set -eu
dir=${1:-build}
type=${2:-RelWithDebInfo}
cd "$(dirname "$0")/.."
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DROOFCAST_WERROR=ON -DBUILD_TESTING=ON
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
