/* png_encode.h: PNG files of opaque images, with a DEFLATE encoder made for
 * charts: flat colours, long runs of equal bytes, rows much like the row
 * above. On the charts it takes, filtering included, less than half the
 * time zlib's fastest level takes to compress the filtered rows alone
 * (8.8 ms against 19.7 for k0000's two charts of tests/bench/gen_kernels),
 * for files 1 % larger; the pixels a decoder reads back are exactly the
 * ones given. */
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
 * the next: fresh memory costs a page fault per 4 KB when first touched,
 * which came to a fifth of encoding a chart. One thread at a time. */
typedef struct rc_png_encoder rc_png_encoder;

/* NULL when memory ran out; the caller frees it with rc_png_encoder_free
 * (NULL is allowed). */
rc_png_encoder *rc_png_encoder_new(void);
void rc_png_encoder_free(rc_png_encoder *e);

/* rc_png_encode_xrgb with `e`'s memory: the same bytes. */
bool rc_png_encoder_encode(rc_png_encoder *e, const unsigned char *pixels, int width, int height,
                           size_t stride, rc_buffer *out);

#endif
