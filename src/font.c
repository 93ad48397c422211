/* font.c: see font.h. */
#include "font.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo-ft.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H

/* ORDER RC_FONT */
static const char *const font_files[RC_FONT_COUNT] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"};

static char font_paths[RC_FONT_COUNT][4096];
static pthread_once_t paths_once = PTHREAD_ONCE_INIT;

static void make_paths(void)
{
    const char *dir = getenv("ROOFCAST_FONT_DIR");
    if (!dir || !*dir)
        dir = RC_FONT_DIR;
    for (int i = 0; i < RC_FONT_COUNT; i++)
        snprintf(font_paths[i], sizeof font_paths[i], "%s/%s", dir, font_files[i]);
}

const char *rc_font_path(rc_font_role role)
{
    pthread_once(&paths_once, make_paths);
    return font_paths[role];
}

struct rc_fonts {
    FT_Library library;
    FT_Face measure[RC_FONT_COUNT]; /* for rc_fonts_width, under `lock` */
    cairo_font_face_t *cairo[RC_FONT_COUNT];
    pthread_mutex_t lock;
};

unsigned long rc_utf8_next(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    unsigned long c = s[0];
    int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
              : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0) {
        *p += 1;
        return 0xFFFD;
    }
    if (extra > 0)
        c &= 0x3Fu >> extra;
    for (int i = 1; i <= extra; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p += 1;
            return 0xFFFD;
        }
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    *p += 1 + extra;
    return c;
}

/* Cairo may keep a face after rc_fonts_free (its font caches hold recent
 * fonts), so each Cairo face owns a FreeType library and face of its own,
 * released when Cairo lets the face go. */
static const cairo_user_data_key_t face_key;

typedef struct {
    FT_Library library;
    FT_Face face;
} owned_face;

static void release_face(void *data)
{
    owned_face *o = data;
    FT_Done_Face(o->face);
    FT_Done_FreeType(o->library);
    free(o);
}

static cairo_font_face_t *make_cairo_face(const char *path)
{
    owned_face *o = malloc(sizeof *o);
    if (!o)
        return NULL;
    if (FT_Init_FreeType(&o->library) != 0) {
        free(o);
        return NULL;
    }
    if (FT_New_Face(o->library, path, 0, &o->face) != 0) {
        FT_Done_FreeType(o->library);
        free(o);
        return NULL;
    }
    /* No hinting: glyphs keep their design advances, the ones measured. */
    cairo_font_face_t *cf = cairo_ft_font_face_create_for_ft_face(o->face, FT_LOAD_NO_HINTING);
    if (cairo_font_face_status(cf) != CAIRO_STATUS_SUCCESS ||
        cairo_font_face_set_user_data(cf, &face_key, o, release_face) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(cf);
        release_face(o);
        return NULL;
    }
    return cf;
}

rc_fonts *rc_fonts_new(rc_diag *diag)
{
    rc_fonts *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    pthread_mutex_init(&f->lock, NULL);
    if (FT_Init_FreeType(&f->library) != 0) {
        rc_error_at(diag, NULL, 0, "cannot start FreeType to draw the charts");
        f->library = NULL;
        rc_fonts_free(f);
        return NULL;
    }
    for (int i = 0; i < RC_FONT_COUNT; i++) {
        const char *path = rc_font_path((rc_font_role)i);
        if (FT_New_Face(f->library, path, 0, &f->measure[i]) != 0) {
            f->measure[i] = NULL;
            rc_error_at(diag, path, 0,
                        "cannot load the charts' font (Debian ships it in fonts-dejavu-core)");
            rc_fonts_free(f);
            return NULL;
        }
        f->cairo[i] = make_cairo_face(path);
        if (!f->cairo[i]) {
            rc_error_at(diag, path, 0, "cannot make a Cairo font of the charts' font");
            rc_fonts_free(f);
            return NULL;
        }
    }
    return f;
}

void rc_fonts_free(rc_fonts *f)
{
    if (!f)
        return;
    for (int i = 0; i < RC_FONT_COUNT; i++) {
        if (f->cairo[i])
            cairo_font_face_destroy(f->cairo[i]);
        if (f->measure[i])
            FT_Done_Face(f->measure[i]);
    }
    if (f->library)
        FT_Done_FreeType(f->library);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

double rc_fonts_width(const rc_fonts *f, rc_font_role role, double size, const char *text)
{
    FT_Face face = f->measure[role];
    long units = 0;
    pthread_mutex_lock((pthread_mutex_t *)&f->lock);
    for (const char *p = text; *p;) {
        unsigned long c = rc_utf8_next(&p);
        FT_Fixed advance = 0;
        FT_UInt glyph = FT_Get_Char_Index(face, c);
        if (FT_Get_Advance(face, glyph, FT_LOAD_NO_SCALE, &advance) == 0)
            units += (long)advance;
    }
    pthread_mutex_unlock((pthread_mutex_t *)&f->lock);
    return (double)units * size / (double)face->units_per_EM;
}

double rc_fonts_ascent(const rc_fonts *f, rc_font_role role, double size)
{
    FT_Face face = f->measure[role];
    return (double)face->ascender * size / (double)face->units_per_EM;
}

double rc_fonts_descent(const rc_fonts *f, rc_font_role role, double size)
{
    FT_Face face = f->measure[role];
    return -(double)face->descender * size / (double)face->units_per_EM;
}

void *rc_fonts_cairo_face(const rc_fonts *f, rc_font_role role)
{
    return f->cairo[role];
}
