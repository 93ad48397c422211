/* bench_png.c: how long the PNG encoder (png_encode.h) takes on real
 * charts.
 *
 *   build/tests/bench_png [-n REPETITIONS] FILE.png...
 *
 * Reads each PNG with Cairo (as the painter's RGB24 surface holds it),
 * encodes it REPETITIONS times (default 20) with one encoder, as the
 * painter does, and prints the CPU milliseconds per image (the mean and
 * the fastest, less disturbed by other load), the bytes written and those
 * of the file read. Each encoding is read back with Cairo and compared
 * pixel by pixel with the image given: a difference exits 1. Timings are
 * for reading, never asserted. The charts of a run are what to give it,
 * e.g. k0000-roofline.png and k0000-time.png of gen_kernels' kernels. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cairo.h>

#include "paint/png_encode.h"

typedef struct {
    const unsigned char *data;
    size_t len, at;
} reader;

static cairo_status_t read_bytes(void *closure, unsigned char *data, unsigned int length)
{
    reader *r = closure;
    if (r->len - r->at < length)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->data + r->at, length);
    r->at += length;
    return CAIRO_STATUS_SUCCESS;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether the two surfaces hold the same RGB in every pixel. */
static bool same_pixels(cairo_surface_t *a, cairo_surface_t *b)
{
    int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
    if (cairo_image_surface_get_width(b) != w || cairo_image_surface_get_height(b) != h)
        return false;
    cairo_surface_flush(a);
    cairo_surface_flush(b);
    const unsigned char *pa = cairo_image_surface_get_data(a);
    const unsigned char *pb = cairo_image_surface_get_data(b);
    size_t sa = (size_t)cairo_image_surface_get_stride(a);
    size_t sb = (size_t)cairo_image_surface_get_stride(b);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t u, v;
            memcpy(&u, pa + (size_t)y * sa + 4 * (size_t)x, 4);
            memcpy(&v, pb + (size_t)y * sb + 4 * (size_t)x, 4);
            if ((u & 0xffffff) != (v & 0xffffff))
                return false;
        }
    return true;
}

/* Encodes the file's image `reps` times; prints one line; false when the
 * file cannot be read or the encoding does not read back the same. */
static bool bench_file(const char *path, int reps)
{
    cairo_surface_t *in = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(in) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "bench_png: %s: %s\n", path,
                cairo_status_to_string(cairo_surface_status(in)));
        cairo_surface_destroy(in);
        return false;
    }
    cairo_surface_flush(in);
    const unsigned char *px = cairo_image_surface_get_data(in);
    int w = cairo_image_surface_get_width(in), h = cairo_image_surface_get_height(in);
    size_t stride = (size_t)cairo_image_surface_get_stride(in);
    FILE *f = fopen(path, "rb");
    long file_bytes = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        file_bytes = ftell(f);
    if (f)
        fclose(f);

    rc_buffer b = {0};
    rc_png_encoder *e = rc_png_encoder_new();
    double ms = 0, best = 1e30;
    for (int i = 0; i < reps; i++) {
        free(b.data);
        b = (rc_buffer){0}; /* fresh, as each chart's is */
        double t0 = seconds();
        rc_png_encoder_encode(e, px, w, h, stride, &b);
        double t = (seconds() - t0) * 1e3;
        ms += t / reps;
        best = t < best ? t : best;
    }
    rc_png_encoder_free(e);
    reader r = {(const unsigned char *)b.data, b.len, 0};
    cairo_surface_t *back = cairo_image_surface_create_from_png_stream(read_bytes, &r);
    bool ok = !b.failed && cairo_surface_status(back) == CAIRO_STATUS_SUCCESS &&
              same_pixels(in, back);
    printf("%-28s %5d x %-5d %7.3f ms (fastest %7.3f) %8zu bytes (read: %ld)%s\n", path, w, h,
           ms, best, b.len, file_bytes, ok ? "" : "  PIXELS DIFFER");
    cairo_surface_destroy(back);
    cairo_surface_destroy(in);
    free(b.data);
    return ok;
}

int main(int argc, char **argv)
{
    int reps = 20, first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        reps = atoi(argv[2]);
        first = 3;
    }
    if (reps < 1 || first >= argc) {
        fprintf(stderr, "usage: bench_png [-n REPETITIONS] FILE.png...\n");
        return 2;
    }
    bool ok = true;
    for (int i = first; i < argc; i++)
        ok = bench_file(argv[i], reps) && ok;
    return ok ? 0 : 1;
}
