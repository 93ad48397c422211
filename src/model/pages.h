/* pages.h: a sparse array of equal pages, found by page number.
 *
 * The memory model keeps one value per 32-byte sector of an array that
 * may span terabytes of addresses while a launch touches a few of them:
 * the sector bitmap of footprint unions (sectors.c) and the map of the
 * last class to touch each sector (access.c). Both keep those values in
 * pages, allocated zeroed on first touch, in one open-addressing table
 * that remembers the page found last (accesses are local).
 *
 * The table is the caller's struct; rc_pages_free frees the pages and
 * the table, not the struct. */
#ifndef ROOFCAST_PAGES_H
#define ROOFCAST_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int64_t page; /* the page number, or -1 when the slot is free */
    void *data;   /* page_bytes, zeroed when made */
} rc_page;

typedef struct {
    rc_page *table;    /* a power of two long, at most half full */
    size_t size, used;
    size_t page_bytes; /* the size of every page */
    rc_page *last;     /* the page found last */
} rc_pages;

/* An empty table of pages of page_bytes each. False when out of memory. */
bool rc_pages_init(rc_pages *m, size_t page_bytes);
/* Frees every page and the table. */
void rc_pages_free(rc_pages *m);
/* Page `page` (>= 0), or NULL when it was never made. */
void *rc_pages_find(rc_pages *m, int64_t page);
/* Page `page` (>= 0), made zeroed when new; NULL when out of memory. */
void *rc_pages_get(rc_pages *m, int64_t page);

#endif
