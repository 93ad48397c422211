/* painter.c: runs a painter over a canvas. See painter.h. */
#include "paint/painter.h"

#include <stdlib.h>

bool rc_paint(const rc_painter *painter, const rc_canvas *canvas, const rc_paint_target *target,
              char **bytes, size_t *len)
{
    char *none = NULL;
    size_t none_len = 0;
    if (!bytes)
        bytes = &none;
    if (!len)
        len = &none_len;
    *bytes = NULL;
    void *state = painter->begin(canvas, target);
    if (!state)
        return false;
    bool ok = true;
    for (size_t i = 0; ok && i < rc_canvas_count(canvas); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(canvas, i);
        switch (it->kind) {
        case RC_ITEM_PATH:
            ok = painter->path(state, it);
            break;
        case RC_ITEM_RECT:
            ok = painter->rect(state, it);
            break;
        case RC_ITEM_MARKER:
            ok = painter->marker(state, it);
            break;
        case RC_ITEM_TEXT:
            ok = painter->text(state, it);
            break;
        default:
            abort(); /* a kind no painter knows: ORDER RC_ITEM */
        }
    }
    ok = painter->end(state, ok, bytes, len) && ok;
    if (!ok) {
        free(*bytes);
        *bytes = NULL;
    }
    return ok;
}
