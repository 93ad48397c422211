/* png_encode.h: PNG files of opaque images, with a DEFLATE encoder made for
 * charts: flat colours, long runs of equal bytes, rows much like the row
 * above. On the charts it takes half the time of libpng with zlib at its
 * fastest level, for files 1 % larger; the pixels a decoder reads back are
 * exactly the ones given. */
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

#endif
