/* counting_check.h: the differential test of counting by classes
 * (docs/counting.md), shared by the fuzz target fuzz_counting.c, its
 * regression driver and the seeded property test property_counting.c.
 *
 * From a string of bytes it draws a small kernel - affine and non-affine
 * indices, guards on thread and block indices, strides, nested, triangular
 * and geometric loops, lets, shared and global arrays of several element
 * sizes, partial warps, 1-D to 3-D launches - and counts it twice: by
 * the default path (classes where they apply) and with every array
 * enumerated. Every count must agree bit for bit, and where one fails the
 * other must fail with the same message.
 */
#ifndef ROOFCAST_COUNTING_CHECK_H
#define ROOFCAST_COUNTING_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Draws the kernel from data[size] into xml[xml_len] (always
 * NUL-terminated; a kernel that does not fit is cut short and fails to
 * load, which is no finding). */
void rc_counting_kernel(const uint8_t *data, size_t size, char *xml, size_t xml_len);

typedef struct {
    bool loaded;      /* the drawn kernel loaded (else nothing was compared) */
    bool counted;     /* both paths counted it */
    bool by_classes;  /* the default path counted every array by classes */
} rc_counting_outcome;

/* Counts the kernel both ways. Returns true when they agree; else false
 * with the difference in report[report_len]. */
bool rc_counting_check(const uint8_t *data, size_t size, rc_counting_outcome *outcome,
                       char *report, size_t report_len);

#endif
