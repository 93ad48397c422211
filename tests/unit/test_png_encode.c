/* test_png_encode.c: the PNG encoder (png_encode.h) gives files whose
 * pixels, read back with zlib and the PNG filter rules, are exactly the
 * image given: flat charts, noise (literals only, several Huffman blocks),
 * a row longer than DEFLATE's 32 KiB window, a tall image that slides the
 * window many times, one pixel; one encoder kept for several images
 * gives each the bytes a fresh one does. Each chunk's CRC and the zlib stream's
 * Adler-32 are checked (zlib's inflate checks the latter). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "paint/png_encode.h"

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Reads the PNG back: asserts its structure and returns its pixels as xRGB
 * words (top byte 0), width x height of them. */
static uint32_t *decode(const unsigned char *png, size_t len, int width, int height)
{
    static const unsigned char signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    assert_true(len > 8);
    assert_memory_equal(png, signature, 8);
    size_t p = 8, idat_len = 0;
    unsigned char *idat = NULL;
    const char *types[3] = {"IHDR", "IDAT", "IEND"};
    for (int c = 0; c < 3; c++) {
        assert_true(p + 12 <= len);
        uint32_t n = be32(png + p);
        assert_true(p + 12 + n <= len);
        assert_memory_equal(png + p + 4, types[c], 4);
        uLong crc = crc32(crc32(0L, png + p + 4, 4), png + p + 8, n);
        assert_int_equal(be32(png + p + 8 + n), (uint32_t)crc);
        if (c == 0) {
            assert_int_equal(n, 13);
            assert_int_equal(be32(png + p + 8), (uint32_t)width);
            assert_int_equal(be32(png + p + 12), (uint32_t)height);
            static const unsigned char rest[5] = {8, 2, 0, 0, 0}; /* 8-bit RGB */
            assert_memory_equal(png + p + 16, rest, 5);
        } else if (c == 1) {
            idat = malloc(n);
            memcpy(idat, png + p + 8, n);
            idat_len = n;
        } else {
            assert_int_equal(n, 0);
        }
        p += 12 + n;
    }
    assert_int_equal(p, len);

    size_t row = (size_t)width * 3 + 1;
    uLongf raw_len = (uLongf)(row * (size_t)height);
    unsigned char *raw = malloc(raw_len + 1);
    uLongf got = raw_len + 1;
    assert_int_equal(uncompress(raw, &got, idat, (uLong)idat_len), Z_OK);
    assert_int_equal(got, raw_len);
    free(idat);

    uint32_t *px = calloc((size_t)width * (size_t)height, sizeof *px);
    for (int y = 0; y < height; y++) {
        const unsigned char *r = raw + (size_t)y * row;
        assert_int_equal(r[0], 2); /* Up */
        for (int x = 0; x < width; x++) {
            uint32_t above = y > 0 ? px[(size_t)(y - 1) * (size_t)width + (size_t)x] : 0, v = 0;
            for (int c = 0; c < 3; c++) {
                unsigned byte = (r[1 + 3 * x + c] + (above >> (16 - 8 * c) & 0xff)) & 0xff;
                v |= (uint32_t)byte << (16 - 8 * c);
            }
            px[(size_t)y * (size_t)width + (size_t)x] = v;
        }
    }
    free(raw);
    return px;
}

/* Encodes the image (rows `stride` bytes apart, the top byte of each word
 * set, as Cairo may leave it) and asserts that it reads back the same. */
static void round_trip(const uint32_t *image, int width, int height, size_t stride_words)
{
    rc_buffer b = {0};
    assert_true(rc_png_encode_xrgb((const unsigned char *)image, width, height,
                                   stride_words * sizeof *image, &b));
    assert_false(b.failed);
    uint32_t *px = decode((const unsigned char *)b.data, b.len, width, height);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            assert_int_equal(px[(size_t)y * (size_t)width + (size_t)x],
                             image[(size_t)y * stride_words + (size_t)x] & 0xffffff);
    free(px);
    free(b.data);
}

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

/* A chart-like image: white, grey grid lines, a coloured diagonal, a
 * patch of noise standing for antialiased text. */
static uint32_t *chart_like(int w, int h, size_t stride)
{
    uint32_t *im = malloc(stride * (size_t)h * sizeof *im), seed = 7;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t v = 0xffffffffu;
            if (x % 40 == 0 || y % 30 == 0)
                v = 0xffe0e0e0u;
            if (abs(x - 2 * y) < 2)
                v = 0xff1f77b4u;
            if (x > 10 && x < 60 && y > 5 && y < 20)
                v = 0xff000000u | (next_random(&seed) >> 8);
            im[(size_t)y * stride + (size_t)x] = v;
        }
    return im;
}

static void test_chart_like(void **state)
{
    (void)state;
    uint32_t *im = chart_like(300, 200, 304); /* rows padded, as Cairo pads them */
    round_trip(im, 300, 200, 304);
    free(im);
}

/* Rows compared with the row above eight and four pixels at a time: each
 * row changes one pixel of the row above, at every place in a group of
 * eight or four and in the tail (widths 4 to 27: groups of eight, then
 * of four, then up to three pixels), and one channel only (R, G or B);
 * the unused top byte differs from row to row and must not count as a
 * change. */
static void test_one_pixel_changes_per_row(void **state)
{
    (void)state;
    for (int w = 4; w <= 27; w++) {
        int h = 3 * w + 1;
        uint32_t *im = malloc((size_t)w * (size_t)h * sizeof *im);
        for (int x = 0; x < w; x++)
            im[x] = 0x00808080u;
        for (int y = 1; y < h; y++) {
            for (int x = 0; x < w; x++)
                im[(size_t)y * (size_t)w + (size_t)x] =
                    (im[(size_t)(y - 1) * (size_t)w + (size_t)x] & 0xffffffu) | (uint32_t)y << 24;
            im[(size_t)y * (size_t)w + (size_t)(y % w)] ^= 0x01u << (8 * (y % 3));
        }
        round_trip(im, w, h, (size_t)w);
        free(im);
    }
}

static void test_noise_several_blocks(void **state)
{
    (void)state;
    int w = 200, h = 150; /* 90,000 bytes of noise: literals, three blocks */
    uint32_t *im = malloc((size_t)w * (size_t)h * sizeof *im), seed = 1;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        im[i] = next_random(&seed);
    round_trip(im, w, h, (size_t)w);
    free(im);
}

static void test_row_longer_than_window(void **state)
{
    (void)state;
    int w = 12000, h = 4; /* 36,001 bytes a row: the row above is out of reach */
    uint32_t *im = chart_like(w, h, (size_t)w);
    round_trip(im, w, h, (size_t)w);
    free(im);
}

static void test_tall_image_slides_the_window(void **state)
{
    (void)state;
    int w = 37, h = 5000;
    uint32_t *im = chart_like(w, h, (size_t)w);
    round_trip(im, w, h, (size_t)w);
    free(im);
}

static void test_flat_and_tiny(void **state)
{
    (void)state;
    uint32_t one = 0xff123456u;
    round_trip(&one, 1, 1, 1);
    uint32_t two[6] = {0xffffffffu, 0xffffffffu, 0xff000000u, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    round_trip(two, 2, 3, 2);
    int w = 500, h = 400;
    uint32_t *im = malloc((size_t)w * (size_t)h * sizeof *im);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        im[i] = 0xffffffffu;
    round_trip(im, w, h, (size_t)w);
    free(im);
}

/* One encoder, kept from image to image as the painter keeps it, gives
 * each image the bytes a fresh one gives: a wide image, then a narrower
 * one (the window made for the wider is reused), then noise, then the
 * wide one again (nothing of the earlier images leaks into its matches,
 * hash table or Huffman codes). */
static void test_encoder_reused(void **state)
{
    (void)state;
    uint32_t seed = 3, *noise = malloc(64 * 64 * sizeof *noise);
    for (size_t i = 0; i < 64 * 64; i++)
        noise[i] = next_random(&seed);
    uint32_t *wide = chart_like(900, 300, 900), *narrow = chart_like(120, 700, 128);
    struct {
        const uint32_t *im;
        int w, h;
        size_t stride;
    } images[4] = {{wide, 900, 300, 900}, {narrow, 120, 700, 128}, {noise, 64, 64, 64},
                   {wide, 900, 300, 900}};
    rc_png_encoder *e = rc_png_encoder_new();
    assert_non_null(e);
    for (int k = 0; k < 4; k++) {
        rc_buffer fresh = {0}, kept = {0};
        const unsigned char *px = (const unsigned char *)images[k].im;
        size_t stride = images[k].stride * sizeof(uint32_t);
        assert_true(rc_png_encode_xrgb(px, images[k].w, images[k].h, stride, &fresh));
        assert_true(rc_png_encoder_encode(e, px, images[k].w, images[k].h, stride, &kept));
        assert_int_equal(kept.len, fresh.len);
        assert_memory_equal(kept.data, fresh.data, fresh.len);
        free(fresh.data);
        free(kept.data);
        round_trip(images[k].im, images[k].w, images[k].h, images[k].stride);
    }
    rc_png_encoder_free(e);
    free(wide);
    free(narrow);
    free(noise);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    uint32_t px = 0;
    rc_buffer b = {0};
    assert_false(rc_png_encode_xrgb((const unsigned char *)&px, 0, 1, 4, &b));
    assert_false(rc_png_encode_xrgb((const unsigned char *)&px, 1, 0, 4, &b));
    assert_false(rc_png_encode_xrgb(NULL, 1, 1, 4, &b));
    free(b.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chart_like),
        cmocka_unit_test(test_one_pixel_changes_per_row),
        cmocka_unit_test(test_noise_several_blocks),
        cmocka_unit_test(test_row_longer_than_window),
        cmocka_unit_test(test_tall_image_slides_the_window),
        cmocka_unit_test(test_flat_and_tiny),
        cmocka_unit_test(test_encoder_reused),
        cmocka_unit_test(test_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
