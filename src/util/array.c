/* array.c: rc_grow, the one realloc behind every growing array (array.h). */
#include "util/array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool rc_grow(void *ptr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap < 4 ? 8 : *cap * 2;
    if (n < need)
        n = need;
    if (size && n > SIZE_MAX / size)
        return false;
    /* The array's pointer is read and written through memcpy so that any
     * element type's pointer can be passed as ptr. */
    void *old;
    memcpy(&old, ptr, sizeof old);
    void *p = realloc(old, n * size);
    if (!p)
        return false;
    memcpy(ptr, &p, sizeof p);
    *cap = n;
    return true;
}
