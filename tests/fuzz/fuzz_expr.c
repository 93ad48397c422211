/* fuzz_expr.c: libFuzzer target: an expression, parsed and evaluated on
 * its own, then through the whole pipeline inside a kernel's <work>. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    rc_fuzz_expression((const char *)data, size);
    return 0;
}
