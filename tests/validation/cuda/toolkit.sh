# toolkit.sh: what conversion.sh, alias.sh, issue.sh, part_line.sh and split.sh share, sourced by
# them with their arguments NVCC, PTXAS and CUOBJDUMP (each also from the environment; default
# the names on PATH) and PTX_VERSION from the environment (default 7.8). Sets `here` (their
# folder) and `tmp` (a folder removed on exit), and defines `ptx_for SOURCE TARGET OUT`: SOURCE
# compiled to PTX by NVCC (-O3, sm_75), its `.version` line rewritten to PTX_VERSION and its
# `.target` to TARGET, so that an older PTXAS (CUDA 11.8's, whose cuobjdump CUDA 13.0 lacks here)
# reads it; and `sass_for SOURCE OUT`, SOURCE's sm_75 disassembly.
set -u
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${1:-${NVCC:-nvcc}}
PTXAS=${2:-${PTXAS:-ptxas}}
CUOBJDUMP=${3:-${CUOBJDUMP:-cuobjdump}}
PTX_VERSION=${PTX_VERSION:-7.8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptx_for() {
    "$NVCC" -O3 -arch=sm_75 -ptx "$1" -o "$tmp/nvcc.ptx" || exit 3
    sed "s/^\.version .*/.version $PTX_VERSION/; s/^\.target .*/.target $2/" "$tmp/nvcc.ptx" >"$3"
}
# sass_for SOURCE OUT: SOURCE's sm_75 disassembly in OUT (ptx_for, PTXAS, CUOBJDUMP), after the
# toolkit's versions.
sass_for() {
    ptx_for "$1" sm_75 "$tmp/sass_for.ptx"
    "$NVCC" --version | tail -1
    "$PTXAS" --version | tail -1
    "$PTXAS" -arch=sm_75 -O3 -o "$tmp/sass_for.cubin" "$tmp/sass_for.ptx" || exit 3
    "$CUOBJDUMP" -sass "$tmp/sass_for.cubin" >"$2" || exit 3
}
