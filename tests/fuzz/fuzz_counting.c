/* fuzz_counting.c: libFuzzer target: the differential test of counting
 * by classes (counting_check.h). A kernel whose counts by classes differ
 * from its enumeration by one bit aborts, with the kernel and the first
 * count that differs on stderr. */
#include <stdio.h>
#include <stdlib.h>

#include "counting_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512)
        return 0;
    rc_counting_outcome outcome;
    static char report[20000];
    if (!rc_counting_check(data, size, &outcome, report, sizeof report)) {
        fprintf(stderr, "fuzz_counting: the counts by classes differ from the enumeration:\n%s",
                report);
        abort();
    }
    return 0;
}
