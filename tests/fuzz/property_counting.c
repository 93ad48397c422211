/* property_counting.c: the seeded property test of counting by classes.
 *
 *   property_counting [COUNT [SEED]]
 *   property_counting --show I [SEED]   (prints the I-th kernel drawn)
 *
 * Draws COUNT (default 1000) random kernels from a fixed seed (default
 * 31) through counting_check.h - each counted by classes and by
 * enumeration, which must agree bit for bit - and fails on the first that
 * does not, printing it. It also fails when too few of the drawn kernels
 * load, count, or are counted by classes, so that a generator that
 * stopped reaching the classes could not pass unnoticed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "counting_check.h"

static uint64_t next(uint64_t *s)
{
    /* xorshift64*: fixed and portable, so a failure repeats everywhere */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

int main(int argc, char **argv)
{
    bool show = argc > 1 && strcmp(argv[1], "--show") == 0;
    if (show)
        argv++, argc--;
    long count = argc > 1 ? atol(argv[1]) : 1000;
    uint64_t state = argc > 2 ? strtoull(argv[2], NULL, 10) : 31;
    if (show)
        count++;
    if (state == 0)
        state = 1;
    long loaded = 0, counted = 0, classes = 0;
    static char report[20000];
    for (long i = 0; i < count; i++) {
        uint8_t bytes[160];
        size_t n = 8 + next(&state) % (sizeof bytes - 8);
        for (size_t j = 0; j < n; j++)
            bytes[j] = (uint8_t)(next(&state) >> 56);
        rc_counting_outcome o;
        if (show) {
            if (i == count - 1) {
                static char xml[16384];
                rc_counting_kernel(bytes, n, xml, sizeof xml);
                printf("%s\n", xml);
                return 0;
            }
            continue;
        }
        if (!rc_counting_check(bytes, n, &o, report, sizeof report)) {
            printf("property_counting: kernel %ld: the counts by classes differ from the "
                   "enumeration:\n%s", i, report);
            return 1;
        }
        loaded += o.loaded;
        counted += o.counted;
        classes += o.by_classes;
    }
    printf("property_counting: %ld kernels drawn, %ld loaded, %ld counted both ways, %ld of "
           "them by classes throughout; every count equal\n", count, loaded, counted, classes);
    /* Most drawn kernels load and count; a good share is counted by
     * classes, the rest by the enumeration for a stated reason. */
    if (loaded < count * 9 / 10 || counted < count / 2 || classes < count / 5) {
        printf("property_counting: too few kernels reached the comparison\n");
        return 1;
    }
    return 0;
}
