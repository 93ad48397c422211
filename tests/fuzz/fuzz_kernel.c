/* fuzz_kernel.c: libFuzzer target: a kernel definition, through the whole
 * pipeline on the bundled titan-black. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0; /* larger inputs only slow the search down */
    rc_fuzz_pipeline((const char *)data, size, NULL, 0);
    return 0;
}
