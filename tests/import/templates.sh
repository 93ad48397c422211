#!/bin/sh
# templates.sh ROOFCAST SOURCE_DIR
# A kernel template's type argument, given with --kernel 'k<T>' (docs/import.md, "What a draft
# holds"): it sets the arrays' element types, fixed-width integer types (<cstdint>'s) included,
# and sizeof(T), which clang leaves unevaluated in the template, is its size. Each kernel's
# <work> and <array> lines are compared whole.
set -u
. "$(dirname "$0")/lib.sh"
import_setup "$@"

cat >"$tmp/t.cu" <<'CU'
#include <cstdint>
template <typename T>
__global__ void strided(T *x, char *bytes)
{
    int i = threadIdx.x;
    x[i * (8 / sizeof(T))] = 0;
    bytes[i * sizeof(T) + sizeof x[0]] = 1;
}
CU

check() { # KERNEL EXPECTED-ARRAYS EXPECTED-WORK
    draft "$tmp/t.cu" "$1" 0 --grid 1 --block 32 --length x=64 --length bytes=512 || return
    got=$(grep '<array ' "$tmp/d/$name.xml")
    if [ "$got" != "$2" ]; then
        printf 'FAIL: %s: the arrays are\n%s\nexpected\n%s\n' "$1" "$got" "$2" >&2
        fail=1
    fi
    work_is "$1" "$3"
}

# uint32_t is unsigned int, 4 bytes: x[i * 2], bytes[i * 4 + 4]
check 'strided<uint32_t>' '  <array name="x" type="unsigned int" length="64"/>
  <array name="bytes" type="char" length="512"/>' '  <work>
    <store array="x" index="threadIdx.x * (8 / 4)"/>
    <store array="bytes" index="threadIdx.x * 4 + 4"/>
  </work>'
# double, 8 bytes: x[i * 1], bytes[i * 8 + 8]
check 'strided<double>' '  <array name="x" type="double" length="64"/>
  <array name="bytes" type="char" length="512"/>' '  <work>
    <store array="x" index="threadIdx.x * (8 / 8)"/>
    <store array="bytes" index="threadIdx.x * 8 + 8"/>
  </work>'

exit $fail
