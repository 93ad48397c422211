/* fuzz_gpu.c: libFuzzer target: a GPU definition, through the whole
 * pipeline with the bundled maximum_kernel. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    rc_fuzz_pipeline(NULL, 0, (const char *)data, size);
    return 0;
}
