/* png_encode.c: PNG files of opaque images (png_encode.h).
 *
 * Why not libpng with zlib: at zlib's fastest level, deflate took 70 % of
 * painting a PNG chart, most of it hashing every byte of the rows. After
 * the Up filter a chart's rows are 90 % zeros, and the rest repeats the
 * byte before it, the row above, or a recent stretch (the same glyph, the
 * same edge). This encoder tries just those three places at each byte,
 * compares eight bytes at a time, and codes the result with a Huffman code
 * fitted to each block (RFC 1951 dynamic blocks). The file is a standard
 * PNG (RFC 2083: IHDR, one IDAT, IEND) that any decoder reads. */
#include "paint/png_encode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h> /* crc32 */

/* Whether words load and store bytes lowest first: the faster paths. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LITTLE_ENDIAN_WORDS 1
#else
#define LITTLE_ENDIAN_WORDS 0
#endif

#define MIN_MATCH 4
#define MAX_MATCH 258
#define WINDOW 32768
#define HASH_BITS 14
#define BLOCK_SYMBOLS 32768 /* symbols per Huffman block */
#define LITLEN_CODES 286
#define DIST_CODES 30
#define CODE_LENGTH_CODES 19
#define END_OF_BLOCK 256
#define MATCH_FLAG 0x80000000u /* a symbol: MATCH_FLAG | length << 16 | distance */

typedef struct {
    unsigned char *out; /* the zlib stream */
    size_t len, cap;
    bool failed;
    uint64_t bits; /* pending bits, the first written in bit 0 */
    int nbits;
    uint32_t syms[BLOCK_SYMBOLS];
    size_t nsyms;
    uint32_t litlen_freq[LITLEN_CODES], dist_freq[DIST_CODES];
    size_t head[1u << HASH_BITS]; /* position + 1 of the latest 4 bytes with each hash; 0: none */
    size_t pos;                   /* the next byte to code */
} deflater;

/* The filtered rows that matches can still reach: data[0] is the byte at
 * position `base` of the stream. */
typedef struct {
    unsigned char *data;
    size_t cap, filled, base;
} window;

static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                       33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static int floor_log2(unsigned v) /* v > 0 */
{
#if defined(__GNUC__)
    return 31 - __builtin_clz(v);
#else
    int b = 0;
    while (v >>= 1)
        b++;
    return b;
#endif
}

/* RFC 1951 3.2.5: the code (0..28, add 257) of a match length 3..258. */
static int length_code(unsigned len)
{
    if (len == 258)
        return 28;
    unsigned l = len - 3;
    if (l < 8)
        return (int)l;
    int b = floor_log2(l);
    return 4 * (b - 1) + (int)(l >> (b - 2) & 3);
}

/* RFC 1951 3.2.5: the code (0..29) of a distance 1..32768. */
static int dist_code(unsigned dist)
{
    if (dist <= 4)
        return (int)dist - 1;
    unsigned x = dist - 1;
    int b = floor_log2(x);
    return 2 * b + (int)(x >> (b - 1) & 1);
}

/* ---- bits ------------------------------------------------------------ */

static bool reserve(deflater *d, size_t more)
{
    if (d->failed)
        return false;
    if (d->len + more <= d->cap)
        return true;
    size_t cap = d->cap ? d->cap : 65536;
    while (cap < d->len + more)
        cap *= 2;
    unsigned char *p = realloc(d->out, cap);
    if (!p) {
        d->failed = true;
        return false;
    }
    d->out = p;
    d->cap = cap;
    return true;
}

/* Appends the low `n` (at most 32) bits of `v`; room was reserved. */
static inline void put_bits(deflater *d, uint32_t v, int n)
{
    d->bits |= (uint64_t)v << d->nbits;
    d->nbits += n;
    if (d->nbits >= 32) {
        for (int i = 0; i < 4; i++)
            d->out[d->len++] = (unsigned char)(d->bits >> (8 * i));
        d->bits >>= 32;
        d->nbits -= 32;
    }
}

/* Pads to a whole byte and writes out what is pending. */
static void flush_bits(deflater *d)
{
    while (d->nbits > 0) {
        d->out[d->len++] = (unsigned char)d->bits;
        d->bits >>= 8;
        d->nbits -= 8;
    }
    d->bits = 0;
    d->nbits = 0;
}

/* ---- Huffman codes ---------------------------------------------------- */

/* Code lengths of a Huffman code for `freq`, none longer than `limit`:
 * when the optimal code is too deep, the frequencies are halved (none
 * reaching 0) until it is not. At least two symbols get a code, so the
 * code is complete, as every inflater accepts. */
static void huffman_lengths(const uint32_t *freq, int n, int limit, uint8_t *len)
{
    uint32_t f[LITLEN_CODES];
    int sym[LITLEN_CODES], parent[2 * LITLEN_CODES];
    uint64_t w[2 * LITLEN_CODES];
    int depth[2 * LITLEN_CODES];
    int m = 0;
    for (int i = 0; i < n; i++)
        m += (f[i] = freq[i]) != 0;
    for (int i = 0; m < 2; i++)
        if (f[i] == 0)
            f[i] = 1, m++;
    for (;;) {
        /* The symbols in use, by frequency, then by value. */
        m = 0;
        for (int i = 0; i < n; i++) {
            if (f[i] == 0)
                continue;
            int k = m++;
            while (k > 0 && f[sym[k - 1]] > f[i]) {
                sym[k] = sym[k - 1];
                k--;
            }
            sym[k] = i;
        }
        /* Two queues: the leaves in order, then the merged nodes, which
         * come out in order of weight. */
        for (int k = 0; k < m; k++)
            w[k] = f[sym[k]];
        int leaf = 0, node = m;
        for (int next = m; next < 2 * m - 1; next++) {
            int pick[2];
            for (int j = 0; j < 2; j++)
                pick[j] = leaf < m && (node >= next || w[leaf] <= w[node]) ? leaf++ : node++;
            w[next] = w[pick[0]] + w[pick[1]];
            parent[pick[0]] = parent[pick[1]] = next;
        }
        depth[2 * m - 2] = 0;
        int deepest = 0;
        for (int k = 2 * m - 3; k >= 0; k--) {
            depth[k] = depth[parent[k]] + 1;
            if (k < m && depth[k] > deepest)
                deepest = depth[k];
        }
        if (deepest <= limit) {
            memset(len, 0, (size_t)n);
            for (int k = 0; k < m; k++)
                len[sym[k]] = (uint8_t)depth[k];
            return;
        }
        for (int i = 0; i < n; i++)
            if (f[i])
                f[i] = f[i] >> 1 | 1;
    }
}

/* RFC 1951 3.2.2: the canonical codes of the lengths, bit-reversed for
 * writing from bit 0. */
static void canonical_codes(const uint8_t *len, int n, uint16_t *code)
{
    int count[16] = {0}, next[16] = {0};
    for (int i = 0; i < n; i++)
        count[len[i]]++;
    count[0] = 0;
    for (int b = 1, c = 0; b < 16; b++)
        next[b] = c = (c + count[b - 1]) << 1;
    for (int i = 0; i < n; i++) {
        if (!len[i])
            continue;
        unsigned c = (unsigned)next[len[i]]++, r = 0;
        for (int b = 0; b < len[i]; b++, c >>= 1)
            r = r << 1 | (c & 1);
        code[i] = (uint16_t)r;
    }
}

/* ---- blocks ------------------------------------------------------------ */

typedef struct {
    uint8_t sym[LITLEN_CODES + DIST_CODES], extra[LITLEN_CODES + DIST_CODES];
    int n;
} code_length_runs;

/* The block's code lengths as RFC 1951 3.2.7 sends them: runs of zeros as
 * symbols 17 and 18, repeats of a length as 16. */
static void run_lengths(const uint8_t *lens, int n, code_length_runs *r, uint32_t *freq)
{
    r->n = 0;
    for (int i = 0; i < n;) {
        int v = lens[i], run = 1;
        while (i + run < n && lens[i + run] == v)
            run++;
        int sym = v, extra = 0, used = 1;
        if (v == 0 && run >= 3) {
            used = run > 138 ? 138 : run;
            sym = used >= 11 ? 18 : 17;
            extra = used - (used >= 11 ? 11 : 3);
        }
        r->sym[r->n] = (uint8_t)sym, r->extra[r->n++] = (uint8_t)extra;
        freq[sym]++;
        if (v != 0 && run >= 4) {
            int rep = run - 1 > 6 ? 6 : run - 1;
            r->sym[r->n] = 16, r->extra[r->n++] = (uint8_t)(rep - 3);
            freq[16]++;
            used += rep;
        }
        i += used;
    }
}

static void write_symbols(deflater *d, const uint16_t *lcode, const uint8_t *llen,
                          const uint16_t *dcode, const uint8_t *dlen)
{
    for (size_t i = 0; i < d->nsyms; i++) {
        uint32_t s = d->syms[i];
        if (!(s & MATCH_FLAG)) {
            put_bits(d, lcode[s], llen[s]);
            continue;
        }
        unsigned len = s >> 16 & 0x1ff, dist = s & 0xffff;
        if (dist == 0)
            dist = WINDOW; /* 32768 kept in 16 bits */
        int lc = length_code(len), dc = dist_code(dist);
        put_bits(d, lcode[257 + lc] | (len - length_base[lc]) << llen[257 + lc],
                 llen[257 + lc] + length_extra[lc]);
        put_bits(d, dcode[dc] | (dist - dist_base[dc]) << dlen[dc], dlen[dc] + dist_extra[dc]);
    }
    put_bits(d, lcode[END_OF_BLOCK], llen[END_OF_BLOCK]);
}

/* Writes the symbols gathered as one dynamic-Huffman block. */
static void flush_block(deflater *d, bool final)
{
    static const uint8_t order[CODE_LENGTH_CODES] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                     11, 4,  12, 3, 13, 2, 14, 1, 15};
    /* 6 bytes a symbol at most, and the header's few hundred. */
    if (!reserve(d, d->nsyms * 6 + 1024)) {
        d->nsyms = 0;
        return;
    }
    d->litlen_freq[END_OF_BLOCK]++;
    uint8_t lens[LITLEN_CODES + DIST_CODES], cl_len[CODE_LENGTH_CODES];
    uint16_t lcode[LITLEN_CODES], dcode[DIST_CODES], cl_code[CODE_LENGTH_CODES];
    huffman_lengths(d->litlen_freq, LITLEN_CODES, 15, lens);
    huffman_lengths(d->dist_freq, DIST_CODES, 15, lens + LITLEN_CODES);
    int hlit = LITLEN_CODES, hdist = DIST_CODES;
    while (hlit > 257 && lens[hlit - 1] == 0)
        hlit--;
    while (hdist > 1 && lens[LITLEN_CODES + hdist - 1] == 0)
        hdist--;
    uint8_t sent[LITLEN_CODES + DIST_CODES]; /* the lengths as sent: litlen's, then dist's */
    memcpy(sent, lens, (size_t)hlit);
    memcpy(sent + hlit, lens + LITLEN_CODES, (size_t)hdist);
    code_length_runs runs;
    uint32_t cl_freq[CODE_LENGTH_CODES] = {0};
    run_lengths(sent, hlit + hdist, &runs, cl_freq);
    huffman_lengths(cl_freq, CODE_LENGTH_CODES, 7, cl_len);
    int hclen = CODE_LENGTH_CODES;
    while (hclen > 4 && cl_len[order[hclen - 1]] == 0)
        hclen--;
    canonical_codes(cl_len, CODE_LENGTH_CODES, cl_code);
    canonical_codes(lens, LITLEN_CODES, lcode);
    canonical_codes(lens + LITLEN_CODES, DIST_CODES, dcode);

    put_bits(d, final ? 1 : 0, 1);
    put_bits(d, 2, 2); /* dynamic Huffman codes */
    put_bits(d, (uint32_t)(hlit - 257), 5);
    put_bits(d, (uint32_t)(hdist - 1), 5);
    put_bits(d, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++)
        put_bits(d, cl_len[order[i]], 3);
    static const uint8_t run_extra_bits[3] = {2, 3, 7}; /* symbols 16, 17, 18 */
    for (int i = 0; i < runs.n; i++) {
        int s = runs.sym[i];
        put_bits(d, cl_code[s], cl_len[s]);
        if (s >= 16)
            put_bits(d, runs.extra[i], run_extra_bits[s - 16]);
    }
    write_symbols(d, lcode, lens, dcode, lens + LITLEN_CODES);
    d->nsyms = 0;
    memset(d->litlen_freq, 0, sizeof d->litlen_freq);
    memset(d->dist_freq, 0, sizeof d->dist_freq);
}

/* ---- matching ------------------------------------------------------------ */

/* How many bytes from `a` equal those from `b`, up to `max`. */
static size_t match_length(const unsigned char *a, const unsigned char *b, size_t max)
{
    size_t n = 0;
#if defined(__GNUC__) && LITTLE_ENDIAN_WORDS
    while (n + 8 <= max) {
        uint64_t x, y;
        memcpy(&x, a + n, 8);
        memcpy(&y, b + n, 8);
        if (x != y)
            return n + (size_t)(__builtin_ctzll(x ^ y) >> 3);
        n += 8;
    }
#endif
    while (n < max && a[n] == b[n])
        n++;
    return n;
}

static uint32_t load4(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void add_symbol(deflater *d, uint32_t s)
{
    d->syms[d->nsyms++] = s;
    if (d->nsyms == BLOCK_SYMBOLS)
        flush_block(d, false);
}

/* LZ77 over the window's bytes from d->pos up to `end` (absolute
 * positions; the window holds `limit` bytes, so a match stops there): at
 * each byte the longest match of the byte before it, of the row above
 * (`row` bytes back) and of the latest stretch with the same first four
 * bytes; a literal when none reaches MIN_MATCH. */
static void lz77(deflater *d, const window *w, size_t end, size_t limit, size_t row)
{
    size_t i = d->pos;
    while (i < end && !d->failed) {
        const unsigned char *p = w->data + (i - w->base);
        size_t max = limit - i < MAX_MATCH ? limit - i : MAX_MATCH, best = 0, dist = 0;
        if (max >= MIN_MATCH) {
            size_t cand[3] = {1, row <= WINDOW ? row : 0, 0};
            uint32_t first = load4(p), h = first * 2654435761u >> (32 - HASH_BITS);
            if (d->head[h] && i - (d->head[h] - 1) <= WINDOW)
                cand[2] = i - (d->head[h] - 1);
            d->head[h] = i + 1;
            for (int k = 0; k < 3; k++) {
                if (cand[k] == 0 || cand[k] > i - w->base || load4(p - cand[k]) != first)
                    continue; /* outside the window, or shorter than MIN_MATCH */
                size_t l = match_length(p, p - cand[k], max);
                if (l > best)
                    best = l, dist = cand[k];
            }
        }
        if (best >= MIN_MATCH) {
            d->litlen_freq[257 + length_code((unsigned)best)]++;
            d->dist_freq[dist_code((unsigned)dist)]++;
            add_symbol(d, MATCH_FLAG | (uint32_t)best << 16 | (uint32_t)(dist & 0xffff));
            i += best;
        } else {
            d->litlen_freq[*p]++;
            add_symbol(d, *p);
            i++;
        }
    }
    d->pos = i;
}

/* ---- the PNG ------------------------------------------------------------- */

/* One row as PNG filter type 2 (Up) gives it: the filter byte, then each
 * RGB byte less the one above it (`above` NULL: the first row). `o` has
 * room for two bytes more than the row. */
static void filter_up(const unsigned char *line, const unsigned char *above, int width,
                      unsigned char *o)
{
    *o++ = 2;
    int x = 0;
#if LITTLE_ENDIAN_WORDS
    /* Two pixels at a time: each byte less the one above, without borrows
     * between bytes; then R, G, B of each in that order, written as eight
     * bytes of which the next pixels overwrite the last two. */
    for (; x + 2 <= width; x += 2, o += 6) {
        uint64_t c, up = 0;
        memcpy(&c, line + 4 * (size_t)x, 8);
        if (above)
            memcpy(&up, above + 4 * (size_t)x, 8);
        uint64_t d = ((c | 0x8080808080808080u) - (up & 0x7f7f7f7f7f7f7f7fu)) ^
                     ((c ^ ~up) & 0x8080808080808080u);
        uint64_t rgb = (d >> 16 & 0xff) | (d & 0xff00) | (d & 0xff) << 16 |
                       (d >> 24 & 0xff000000u) | (d & 0xff0000000000u) >> 8 |
                       (d & 0xff00000000u) << 8;
        memcpy(o, &rgb, 8);
    }
#endif
    for (; x < width; x++, o += 3) {
        uint32_t c, up = 0; /* xRGB, native-endian words */
        memcpy(&c, line + 4 * (size_t)x, 4);
        if (above)
            memcpy(&up, above + 4 * (size_t)x, 4);
        o[0] = (unsigned char)((c >> 16) - (up >> 16));
        o[1] = (unsigned char)((c >> 8) - (up >> 8));
        o[2] = (unsigned char)(c - up);
    }
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static void put_chunk(rc_buffer *out, const char *type, const unsigned char *data, size_t n)
{
    unsigned char b[8];
    put_u32(b, (uint32_t)n);
    memcpy(b + 4, type, 4);
    rc_buffer_put(out, (const char *)b, 8);
    if (n)
        rc_buffer_put(out, (const char *)data, n);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    size_t done = 0;
    while (done < n) { /* crc32 takes a uInt */
        size_t part = n - done > (1u << 30) ? (1u << 30) : n - done;
        crc = crc32(crc, data + done, (uInt)part);
        done += part;
    }
    put_u32(b, (uint32_t)crc);
    rc_buffer_put(out, (const char *)b, 4);
}

/* Adler-32 (RFC 1950) of the filtered rows, which are mostly zeros: a zero
 * leaves the first sum as it is and adds it to the second, so eight zero
 * bytes are one multiplication. */
static void adler(uint32_t *sum, const unsigned char *data, size_t n)
{
    enum { MOD = 65521, CHUNK = 5552 }; /* CHUNK: the most bytes before the sums could overflow */
    uint32_t a = *sum & 0xffff, b = *sum >> 16;
    while (n > 0) {
        size_t k = n < CHUNK ? n : CHUNK - CHUNK % 8;
        n -= k;
        for (; k >= 8; k -= 8, data += 8) {
            uint64_t w;
            memcpy(&w, data, 8);
            if (w == 0) {
                b += 8 * a;
                continue;
            }
            for (int i = 0; i < 8; i++)
                a += data[i], b += a;
        }
        for (; k > 0; k--)
            a += *data++, b += a;
        a %= MOD;
        b %= MOD;
    }
    *sum = b << 16 | a;
}

/* adler() of one byte `first` then `zeros` zero bytes. */
static void adler_zeros(uint32_t *sum, unsigned char first, size_t zeros)
{
    enum { MOD = 65521 };
    uint32_t a = ((*sum & 0xffff) + first) % MOD, b = ((*sum >> 16) + a) % MOD;
    b = (uint32_t)((b + (uint64_t)(zeros % MOD) * a) % MOD); /* each zero adds a to b */
    *sum = b << 16 | a;
}

/* The zlib stream (RFC 1950) of the filtered rows, into d->out. The rows
 * pass through a window that keeps the 32 KiB that matches may reach back
 * to, so the filtered image is never held whole. */
static bool deflate_rows(deflater *d, const unsigned char *pixels, int width, int height,
                         size_t stride)
{
    size_t row = (size_t)width * 3 + 1;
    window w = {.cap = 2 * (WINDOW + MAX_MATCH + row) + 2};
    w.data = malloc(w.cap);
    uint32_t sum = 1;
    if (!w.data || !reserve(d, 1024)) {
        free(w.data);
        return false;
    }
    d->out[d->len++] = 0x78; /* zlib: deflate, 32 KiB window */
    d->out[d->len++] = 0x01; /* fastest; (0x78 << 8 | 0x01) % 31 == 0 */
    for (int y = 0; y < height; y++) {
        if (w.filled + row + 2 > w.cap) { /* keep what matches may still reach */
            size_t keep_from = d->pos - WINDOW;
            memmove(w.data, w.data + (keep_from - w.base), w.base + w.filled - keep_from);
            w.filled -= keep_from - w.base;
            w.base = keep_from;
        }
        const unsigned char *line = pixels + (size_t)y * stride;
        unsigned char *o = w.data + w.filled;
        if (y > 0 && memcmp(line, line - stride, (size_t)width * 4) == 0) {
            /* As the row above (a third of a chart's rows): all zeros. */
            o[0] = 2;
            memset(o + 1, 0, row - 1);
            adler_zeros(&sum, 2, row - 1);
        } else {
            filter_up(line, y > 0 ? line - stride : NULL, width, o);
            adler(&sum, o, row);
        }
        w.filled += row;
        size_t limit = w.base + w.filled;
        if (limit - d->pos > MAX_MATCH)
            lz77(d, &w, limit - MAX_MATCH, limit, row);
    }
    lz77(d, &w, w.base + w.filled, w.base + w.filled, row);
    free(w.data);
    flush_block(d, true);
    if (!reserve(d, 16))
        return false;
    flush_bits(d);
    put_u32(d->out + d->len, sum);
    d->len += 4;
    return !d->failed;
}

bool rc_png_encode_xrgb(const unsigned char *pixels, int width, int height, size_t stride,
                        rc_buffer *out)
{
    if (width <= 0 || height <= 0 || (size_t)width > 0x7fffffff / 4 || !pixels)
        return false;
    deflater *d = calloc(1, sizeof *d);
    bool ok = false;
    if (!d || !deflate_rows(d, pixels, width, height, stride) || d->len > 0x7fffffff)
        goto end;

    static const unsigned char signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    unsigned char ihdr[13];
    put_u32(ihdr, (uint32_t)width);
    put_u32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;  /* bits per sample */
    ihdr[9] = 2;  /* RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering, one type per row */
    ihdr[12] = 0; /* not interlaced */
    rc_buffer_put(out, (const char *)signature, sizeof signature);
    put_chunk(out, "IHDR", ihdr, sizeof ihdr);
    put_chunk(out, "IDAT", d->out, d->len);
    put_chunk(out, "IEND", NULL, 0);
    ok = !out->failed;
end:
    if (d)
        free(d->out);
    free(d);
    if (!ok)
        out->failed = true;
    return ok;
}
