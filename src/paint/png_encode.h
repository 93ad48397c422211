/* png_encode.h: PNG files of opaque images, with a DEFLATE encoder made for
 * charts: flat colours, long runs of equal bytes, rows much like the row
 * above. On such images it is faster than zlib's fastest level, for files
 * about as small (docs/benchmarks.md, "The PNG encoder", has the figures);
 * the pixels a decoder reads back are exactly the ones given. */
#ifndef ROOFCAST_PNG_ENCODE_H
#define ROOFCAST_PNG_ENCODE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buffer.h"

/* Appends to `out` a PNG (8-bit RGB, no alpha) of the image whose rows
 * start `stride` bytes apart at `pixels`, each of `width` native-endian
 * 32-bit xRGB words (Cairo's CAIRO_FORMAT_RGB24: the top byte unused).
 * false when memory ran out (`out` is then marked failed) or the size is
 * not a PNG's (a side of 0 or over 2^31 - 1). */
bool rc_png_encode_xrgb(const unsigned char *pixels, int width, int height, size_t stride,
                        rc_buffer *out);

/* An encoder's working memory (a few hundred KB), kept from one image to
 * the next, since fresh memory costs a page fault per 4 KB when first
 * touched, a large part of encoding a chart. One thread at a time. */
typedef struct rc_png_encoder rc_png_encoder;

/* NULL when memory ran out; the caller frees it with rc_png_encoder_free
 * (NULL is allowed). */
rc_png_encoder *rc_png_encoder_new(void);
void rc_png_encoder_free(rc_png_encoder *e);

/* rc_png_encode_xrgb with `e`'s memory: the same bytes. */
bool rc_png_encoder_encode(rc_png_encoder *e, const unsigned char *pixels, int width, int height,
                           size_t stride, rc_buffer *out);

#endif
