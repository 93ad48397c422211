/* array.h: one way to grow an array, in the spirit of git's ALLOC_GROW.
 *
 *   if (!RC_GROW(list->items, list->cap, list->count + 1))
 *       return false;               // out of memory: the array is as it was
 *   list->items[list->count++] = item;
 *
 * The array is a plain pointer and a size_t capacity kept by the caller;
 * the caller frees the pointer. Growth doubles the capacity (at least 8
 * elements, at least what is needed), so n appends cost O(n) copies.
 */
#ifndef ROOFCAST_ARRAY_H
#define ROOFCAST_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

/* Makes room for `need` elements in the array *ptr of capacity *cap, each
 * `size` bytes; ptr points to the array's pointer, whatever its type. False,
 * with nothing changed, when memory runs out or need * size overflows. */
bool rc_grow(void *ptr, size_t *cap, size_t need, size_t size);

#define RC_GROW(array, cap, need) \
    ((need) <= (cap) || rc_grow(&(array), &(cap), (need), sizeof *(array)))

#endif
