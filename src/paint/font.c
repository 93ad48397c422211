/* font.c: see font.h. */
#include "paint/font.h"

#include "util/array.h"
#include "util/buffer.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-ft.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include FT_OUTLINE_H

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

#define SPARES 16 /* objects kept per kind: more than threads render */

/* A character's glyph and advance, for 256 consecutive code points. */
typedef struct {
    uint16_t glyph[256];
    int32_t advance[256];
} char_page;

/* What one role's font maps the Basic Multilingual Plane to, read once by
 * rc_fonts_new and only read after that, so measuring takes no lock. A
 * page of code points the font has none of is NULL: all glyph 0. */
typedef struct {
    char_page *page[256];
    int32_t notdef_advance;
    unsigned units_per_em, glyph_count;
} char_map;

struct rc_fonts {
    FT_Library library;
    unsigned char *file[RC_FONT_COUNT]; /* each TTF, read once */
    size_t file_len[RC_FONT_COUNT];
    FT_Face measure[RC_FONT_COUNT]; /* faces of `file`, under `lock` after rc_fonts_new */
    cairo_font_face_t *cairo[RC_FONT_COUNT];
    char_map map[RC_FONT_COUNT];
    struct {
        void *obj;
        void (*drop)(void *);
    } spare[RC_SPARE_COUNT][SPARES]; /* under `lock` */
    size_t nspare[RC_SPARE_COUNT];
    char **outline[RC_FONT_COUNT]; /* glyph_count SVG path data each, made on demand, under `lock` */
    cairo_scaled_font_t *held[RC_FONTS_HELD_SCALED]; /* referenced, under `lock` */
    size_t nheld;
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

static long advance_of(FT_Face face, FT_UInt glyph)
{
    FT_Fixed advance = 0;
    return FT_Get_Advance(face, glyph, FT_LOAD_NO_SCALE, &advance) == 0 ? (long)advance : 0;
}

/* Reads the glyph and advance of every character of the BMP the font has. */
static bool read_char_map(FT_Face face, char_map *m)
{
    m->units_per_em = face->units_per_EM;
    m->glyph_count = (unsigned)face->num_glyphs;
    m->notdef_advance = (int32_t)advance_of(face, 0);
    FT_UInt glyph = 0;
    for (FT_ULong c = FT_Get_First_Char(face, &glyph); glyph != 0 && c <= 0xFFFF;
         c = FT_Get_Next_Char(face, c, &glyph)) {
        char_page **page = &m->page[c >> 8];
        if (!*page) {
            *page = malloc(sizeof **page);
            if (!*page)
                return false;
            for (int i = 0; i < 256; i++) {
                (*page)->glyph[i] = 0;
                (*page)->advance[i] = m->notdef_advance;
            }
        }
        (*page)->glyph[c & 0xFF] = (uint16_t)glyph;
        (*page)->advance[c & 0xFF] = (int32_t)advance_of(face, glyph);
    }
    return true;
}

/* The whole file at `path`, or false; a file over 64 MiB is no font of
 * ours and is refused. */
static bool read_file(const char *path, unsigned char **data, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return false;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    bool ok;
    do {
        ok = cap < ((size_t)64 << 20) && RC_GROW(buf, cap, n + ((size_t)1 << 20));
        if (ok)
            n += fread(buf + n, 1, cap - n, in);
    } while (ok && n == cap);
    ok = ok && !ferror(in);
    fclose(in);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *len = n;
    return true;
}

static void free_char_map(char_map *m)
{
    for (int i = 0; i < 256; i++)
        free(m->page[i]);
}

rc_fonts *rc_fonts_new(rc_diag *diag)
{
    rc_fonts *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    pthread_mutex_init(&f->lock, NULL);
    if (FT_Init_FreeType(&f->library) != 0) {
        rc_fault_at(diag, NULL, 0, "cannot start FreeType to draw the charts");
        f->library = NULL;
        rc_fonts_free(f);
        return NULL;
    }
    for (int i = 0; i < RC_FONT_COUNT; i++) {
        const char *path = rc_font_path((rc_font_role)i);
        if (!read_file(path, &f->file[i], &f->file_len[i]) ||
            FT_New_Memory_Face(f->library, f->file[i], (FT_Long)f->file_len[i], 0,
                               &f->measure[i]) != 0) {
            f->measure[i] = NULL;
            rc_fault_at(diag, path, 0,
                        "cannot load the charts' font (Debian ships it in fonts-dejavu-core)");
            rc_fonts_free(f);
            return NULL;
        }
        if (!read_char_map(f->measure[i], &f->map[i])) {
            rc_fault_at(diag, path, 0, "out of memory reading the charts' font");
            rc_fonts_free(f);
            return NULL;
        }
        f->cairo[i] = make_cairo_face(path);
        if (!f->cairo[i]) {
            rc_fault_at(diag, path, 0, "cannot make a Cairo font of the charts' font");
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
        free(f->file[i]);
        for (unsigned g = 0; f->outline[i] && g < f->map[i].glyph_count; g++)
            free(f->outline[i][g]);
        free(f->outline[i]);
        free_char_map(&f->map[i]);
    }
    for (size_t i = 0; i < f->nheld; i++)
        cairo_scaled_font_destroy(f->held[i]);
    rc_fonts_drop_spares(f);
    if (f->library)
        FT_Done_FreeType(f->library);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

void *rc_fonts_take(const rc_fonts *cf, rc_spare_kind kind)
{
    rc_fonts *f = (rc_fonts *)cf; /* the spares are not what `const` promises */
    void *obj = NULL;
    pthread_mutex_lock(&f->lock);
    if (f->nspare[kind] > 0)
        obj = f->spare[kind][--f->nspare[kind]].obj;
    pthread_mutex_unlock(&f->lock);
    return obj;
}

void rc_fonts_keep(const rc_fonts *cf, rc_spare_kind kind, void *obj, void (*drop)(void *))
{
    rc_fonts *f = (rc_fonts *)cf;
    if (!obj)
        return;
    pthread_mutex_lock(&f->lock);
    bool kept = f->nspare[kind] < SPARES;
    if (kept) {
        f->spare[kind][f->nspare[kind]].obj = obj;
        f->spare[kind][f->nspare[kind]++].drop = drop;
    }
    pthread_mutex_unlock(&f->lock);
    if (!kept)
        drop(obj);
}

void rc_fonts_drop_spares(const rc_fonts *cf)
{
    rc_fonts *f = (rc_fonts *)cf;
    pthread_mutex_lock(&f->lock);
    for (int k = 0; k < RC_SPARE_COUNT; k++) {
        for (size_t i = 0; i < f->nspare[k]; i++)
            f->spare[k][i].drop(f->spare[k][i].obj);
        f->nspare[k] = 0;
    }
    pthread_mutex_unlock(&f->lock);
}

rc_glyph rc_fonts_glyph(const rc_fonts *f, rc_font_role role, unsigned long c)
{
    const char_map *m = &f->map[role];
    if (c <= 0xFFFF) {
        const char_page *page = m->page[c >> 8];
        return page ? (rc_glyph){page->glyph[c & 0xFF], page->advance[c & 0xFF]}
                    : (rc_glyph){0, m->notdef_advance};
    }
    /* Beyond the BMP (rare): ask FreeType. */
    pthread_mutex_lock((pthread_mutex_t *)&f->lock);
    FT_UInt glyph = FT_Get_Char_Index(f->measure[role], c);
    rc_glyph g = {glyph, advance_of(f->measure[role], glyph)};
    pthread_mutex_unlock((pthread_mutex_t *)&f->lock);
    return g;
}

double rc_fonts_width(const rc_fonts *f, rc_font_role role, double size, const char *text)
{
    long units = 0;
    for (const char *p = text; *p;)
        units += rc_fonts_glyph(f, role, rc_utf8_next(&p)).advance;
    return (double)units * size / (double)f->map[role].units_per_em;
}

const unsigned char *rc_fonts_file(const rc_fonts *f, rc_font_role role, size_t *len)
{
    *len = f->file_len[role];
    return f->file[role];
}

unsigned rc_fonts_units_per_em(const rc_fonts *f, rc_font_role role)
{
    return f->map[role].units_per_em;
}

unsigned rc_fonts_glyph_count(const rc_fonts *f, rc_font_role role)
{
    return f->map[role].glyph_count;
}

double rc_fonts_ascent(const rc_fonts *f, rc_font_role role, double size)
{
    FT_Face face = f->measure[role]; /* ascender and descender are read-only */
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

/* FT_Outline_Decompose's callbacks: SVG path commands, integer font units. */
static void put_point(rc_buffer *b, char command, const FT_Vector *p)
{
    rc_buffer_printf(b, "%c%ld %ld", command, (long)p->x, (long)p->y);
}

static int outline_move(const FT_Vector *to, void *user)
{
    rc_buffer *b = user;
    if (b->len)
        rc_buffer_put(b, "Z", 1);
    put_point(b, 'M', to);
    return 0;
}

static int outline_line(const FT_Vector *to, void *user)
{
    put_point(user, 'L', to);
    return 0;
}

static int outline_conic(const FT_Vector *control, const FT_Vector *to, void *user)
{
    put_point(user, 'Q', control);
    put_point(user, ' ', to);
    return 0;
}

static int outline_cubic(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *user)
{
    put_point(user, 'C', c1);
    put_point(user, ' ', c2);
    put_point(user, ' ', to);
    return 0;
}

/* The path data of one glyph, or NULL; under the lock. */
static char *make_outline(FT_Face face, unsigned glyph)
{
    static const FT_Outline_Funcs funcs = {outline_move, outline_line, outline_conic,
                                           outline_cubic, 0, 0};
    if (FT_Load_Glyph(face, glyph, FT_LOAD_NO_SCALE) != 0 ||
        face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
        return NULL;
    rc_buffer b = {0};
    rc_buffer_put(&b, "", 0); /* "" for an empty outline */
    if (FT_Outline_Decompose(&face->glyph->outline, &funcs, &b) != 0) {
        free(b.data);
        return NULL;
    }
    if (b.len)
        rc_buffer_put(&b, "Z", 1);
    size_t len;
    return rc_buffer_take(&b, &len);
}

const char *rc_fonts_glyph_outline(const rc_fonts *cf, rc_font_role role, unsigned glyph)
{
    rc_fonts *f = (rc_fonts *)cf; /* the outlines are a cache: made once, then only read */
    if (glyph >= f->map[role].glyph_count)
        return NULL;
    pthread_mutex_lock(&f->lock);
    if (!f->outline[role])
        f->outline[role] = calloc(f->map[role].glyph_count, sizeof *f->outline[role]);
    char *o = NULL;
    if (f->outline[role]) {
        if (!f->outline[role][glyph])
            f->outline[role][glyph] = make_outline(f->measure[role], glyph);
        o = f->outline[role][glyph];
    }
    pthread_mutex_unlock(&f->lock);
    return o;
}

void rc_fonts_hold_scaled(const rc_fonts *cf, void *scaled_font)
{
    rc_fonts *f = (rc_fonts *)cf; /* the references are not what `const` promises */
    cairo_scaled_font_t *sf = scaled_font;
    if (!sf || cairo_scaled_font_status(sf) != CAIRO_STATUS_SUCCESS)
        return;
    pthread_mutex_lock(&f->lock);
    bool held = false;
    for (size_t i = 0; i < f->nheld && !held; i++)
        held = f->held[i] == sf;
    if (!held && f->nheld < RC_FONTS_HELD_SCALED)
        f->held[f->nheld++] = cairo_scaled_font_reference(sf);
    pthread_mutex_unlock(&f->lock);
}

size_t rc_fonts_held_scaled(const rc_fonts *cf)
{
    rc_fonts *f = (rc_fonts *)cf;
    pthread_mutex_lock(&f->lock);
    size_t n = f->nheld;
    pthread_mutex_unlock(&f->lock);
    return n;
}
