/* png_info FILE [RRGGBB]...: prints "WIDTH HEIGHT COLOURS" for a PNG,
 * COLOURS being the number of distinct colours it holds (counted up to
 * 256), then for each RRGGBB given the number of pixels of exactly that
 * colour. Read back with Cairo; exits 1 if the file is not a PNG Cairo can
 * read. For the browser test: a screenshot that rendered is not one flat
 * colour, and shows the charts' colours. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: png_info FILE [RRGGBB]...\n");
        return 2;
    }
    cairo_surface_t *s = cairo_image_surface_create_from_png(argv[1]);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "png_info: %s: %s\n", argv[1], cairo_status_to_string(cairo_surface_status(s)));
        cairo_surface_destroy(s);
        return 1;
    }
    cairo_surface_flush(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    uint32_t seen[256];
    int n = 0;
    for (int y = 0; y < h && n < 256; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w && n < 256; x++) {
            int k = 0;
            while (k < n && seen[k] != row[x])
                k++;
            if (k == n)
                seen[n++] = row[x];
        }
    }
    printf("%d %d %d", w, h, n);
    for (int i = 2; i < argc; i++) {
        uint32_t want = (uint32_t)strtoul(argv[i], NULL, 16) & 0xFFFFFF;
        long count = 0;
        for (int y = 0; y < h; y++) {
            const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
            for (int x = 0; x < w; x++)
                count += (row[x] & 0xFFFFFF) == want;
        }
        printf(" %ld", count);
    }
    printf("\n");
    cairo_surface_destroy(s);
    return 0;
}
