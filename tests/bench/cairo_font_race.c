/* cairo_font_race [hold|nohold] [ITERATIONS]: reproduces the Cairo 1.16
 * race that rc_fonts_hold_scaled keeps roofcast out of (font.h says how it
 * goes). Four threads, each with fonts of its own (rc_fonts_new, as the
 * workers have), draw two letters at two alternating sizes into a small
 * surface, ITERATIONS times each (default 1,500,000). With `nohold`, the
 * way roofcast painted before, Cairo aborts in its assertion
 * "! scaled_font->cache_frozen" in some runs (2 of 4 on a 2-core machine,
 * some 11 s each); with `hold`, as paint_cairo.c paints, it runs to the
 * end. Not a ctest test: a race shows up by chance, so its absence in one
 * run proves nothing. Prints "finished" when no thread aborted. */
#include "paint/font.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

static bool hold;
static long iterations = 1500000;

static void *draw(void *arg)
{
    const rc_fonts *fonts = arg;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 64, 32);
    for (long i = 0; i < iterations; i++) {
        cairo_t *cr = cairo_create(s);
        cairo_set_font_face(cr, rc_fonts_cairo_face(fonts, RC_FONT_REGULAR));
        cairo_set_font_size(cr, 8 + (double)(i % 2));
        cairo_move_to(cr, 2, 20);
        cairo_show_text(cr, "ab");
        if (hold)
            rc_fonts_hold_scaled(fonts, cairo_get_scaled_font(cr));
        cairo_destroy(cr);
    }
    cairo_surface_destroy(s);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "hold") != 0 && strcmp(argv[1], "nohold") != 0)) {
        fprintf(stderr, "usage: cairo_font_race hold|nohold [ITERATIONS]\n");
        return 2;
    }
    hold = strcmp(argv[1], "hold") == 0;
    if (argc > 2)
        iterations = atol(argv[2]);
    enum { THREADS = 4 };
    rc_fonts *fonts[THREADS] = {0};
    pthread_t thread[THREADS];
    for (int t = 0; t < THREADS; t++)
        if (!(fonts[t] = rc_fonts_new(NULL)))
            return 1;
    for (int t = 0; t < THREADS; t++)
        pthread_create(&thread[t], NULL, draw, fonts[t]);
    for (int t = 0; t < THREADS; t++)
        pthread_join(thread[t], NULL);
    for (int t = 0; t < THREADS; t++)
        rc_fonts_free(fonts[t]);
    puts("finished");
    return 0;
}
