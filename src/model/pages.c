/* pages.c: a sparse array of equal pages, found by page number. See
 * pages.h. */
#include "model/pages.h"

#include <stdlib.h>

static size_t slot_of(int64_t page, size_t size)
{
    return (size_t)(((uint64_t)page * 0x9E3779B97F4A7C15ULL) >> 20) & (size - 1);
}

static rc_page *empty_table(size_t size)
{
    rc_page *t = malloc(size * sizeof *t);
    for (size_t i = 0; t && i < size; i++)
        t[i] = (rc_page){-1, NULL};
    return t;
}

bool rc_pages_init(rc_pages *m, size_t page_bytes)
{
    m->size = 64;
    m->used = 0;
    m->page_bytes = page_bytes;
    m->last = NULL;
    m->table = empty_table(m->size);
    return m->table != NULL;
}

void rc_pages_free(rc_pages *m)
{
    for (size_t i = 0; m->table && i < m->size; i++)
        if (m->table[i].page >= 0)
            free(m->table[i].data);
    free(m->table);
    m->table = NULL;
    m->last = NULL;
}

/* The slot of `page`: where it is, or the free slot where it would go. */
static rc_page *slot(const rc_pages *m, int64_t page)
{
    size_t h = slot_of(page, m->size);
    while (m->table[h].page >= 0 && m->table[h].page != page)
        h = (h + 1) & (m->size - 1);
    return &m->table[h];
}

static bool grow(rc_pages *m)
{
    rc_pages bigger = {empty_table(m->size * 2), m->size * 2, m->used, m->page_bytes, NULL};
    if (!bigger.table)
        return false;
    for (size_t i = 0; i < m->size; i++)
        if (m->table[i].page >= 0)
            *slot(&bigger, m->table[i].page) = m->table[i];
    free(m->table);
    *m = bigger;
    return true;
}

void *rc_pages_find(rc_pages *m, int64_t page)
{
    if (m->last && m->last->page == page)
        return m->last->data;
    rc_page *s = slot(m, page);
    if (s->page != page)
        return NULL;
    m->last = s;
    return s->data;
}

void *rc_pages_get(rc_pages *m, int64_t page)
{
    void *found = rc_pages_find(m, page);
    if (found)
        return found;
    if (2 * (m->used + 1) > m->size && !grow(m))
        return NULL;
    void *data = calloc(1, m->page_bytes);
    if (!data)
        return NULL;
    rc_page *s = slot(m, page);
    *s = (rc_page){page, data};
    m->used++;
    m->last = s;
    return data;
}
