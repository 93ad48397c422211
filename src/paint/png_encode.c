/* png_encode.c: PNG files of opaque images (png_encode.h).
 *
 * Why not libpng with zlib: at zlib's fastest level, deflate was most of
 * the time of painting a PNG chart, most of it spent hashing every byte of
 * the rows. After the Up filter a chart's rows are mostly zeros, and the
 * rest repeats the byte before it, the row above, or a recent stretch (the
 * same glyph, the same edge). This encoder tries just those three places at each byte,
 * the hash table only when the first two fall short, compares eight bytes
 * at a time, and codes the result with a Huffman code fitted to each
 * block (RFC 1951 dynamic blocks). Its memory is kept from one image to
 * the next (rc_png_encoder), as page faults on fresh memory cost as much
 * as the work. The file is a standard PNG (RFC 2083: IHDR, one IDAT,
 * IEND) that any decoder reads. What it gained, measured, is in
 * docs/benchmarks.md ("The PNG encoder"). */
#include "paint/png_encode.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h> /* crc32 */

#include "util/array.h"

#if defined(__SSE2__)
#include <emmintrin.h> /* part of every x86-64 compiler: SSE2 is in the base ISA */
#endif

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
/* A symbol of a block: a literal byte, or MATCH_FLAG with the match's
 * codes and extra bits as the block writes them, worked out once when
 * the match is found (MATCH_FLAG | length code << 26 | distance code << 21
 * | length extra << 13 | distance extra). */
#define MATCH_FLAG 0x80000000u

typedef struct {
    unsigned char *out; /* the zlib stream; kept from one image to the next */
    size_t len, cap;
    bool failed;
    uint64_t bits; /* pending bits, the first written in bit 0 */
    int nbits;
    size_t nsyms;
    uint32_t litlen_freq[LITLEN_CODES], dist_freq[DIST_CODES];
    /* Position + 1 of the latest 4 bytes with each hash, modulo 2^32: 0
     * (none) gives a distance past the window's start, and an entry 2^32
     * bytes old a distance whose bytes are checked like any other's. */
    uint32_t head[1u << HASH_BITS];
    size_t pos;                     /* the next byte to code */
    uint32_t syms[BLOCK_SYMBOLS];   /* last: a new image need not clear them */
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
    if (!RC_GROW(d->out, d->cap, d->len + more)) {
        d->failed = true;
        return false;
    }
    return true;
}

/* Appends the low `n` (at most 56) bits of `v`; room was reserved, with
 * 8 bytes to spare. Whole bytes leave at once, so at most 7 bits wait:
 * a match's four fields (48 bits at most) go out in one call. */
static inline void put_bits(deflater *d, uint64_t v, int n)
{
    d->bits |= v << d->nbits;
    d->nbits += n;
    int bytes = d->nbits >> 3;
#if LITTLE_ENDIAN_WORDS
    memcpy(d->out + d->len, &d->bits, 8);
#else
    for (int i = 0; i < bytes; i++)
        d->out[d->len + (size_t)i] = (unsigned char)(d->bits >> (8 * i));
#endif
    d->len += (size_t)bytes;
    d->bits >>= 8 * bytes; /* bytes < 8: 63 bits at most were pending */
    d->nbits &= 7;
}

/* Pads to a whole byte and writes out what is pending. */
static void flush_bits(deflater *d)
{
    if (d->nbits > 0)
        d->out[d->len++] = (unsigned char)d->bits;
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
            /* Two literals in a row (most, in antialiased lines and text)
             * go out in one call: 30 bits at most. */
            uint32_t t = i + 1 < d->nsyms ? d->syms[i + 1] : MATCH_FLAG;
            if (!(t & MATCH_FLAG)) {
                put_bits(d, lcode[s] | (uint64_t)lcode[t] << llen[s], llen[s] + llen[t]);
                i++;
            } else {
                put_bits(d, lcode[s], llen[s]);
            }
            continue;
        }
        unsigned lc = s >> 26 & 31, dc = s >> 21 & 31, l = 257 + lc;
        uint64_t dist_bits = dcode[dc] | (uint64_t)(s & 0x1fff) << dlen[dc];
        int len_n = llen[l] + length_extra[lc];
        put_bits(d, lcode[l] | (uint64_t)(s >> 13 & 0xff) << llen[l] | dist_bits << len_n,
                 len_n + dlen[dc] + dist_extra[dc]);
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
#if defined(__GNUC__) && LITTLE_ENDIAN_WORDS && defined(__SSE2__)
    /* Sixteen bytes a comparison: most matches are long runs of zeros. */
    while (n + 16 <= max) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + n));
        __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b + n));
        unsigned differ = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) ^ 0xffffu;
        if (differ)
            return n + (size_t)__builtin_ctz(differ);
        n += 16;
    }
#endif
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

static void add_literal(deflater *d, unsigned char c)
{
    d->litlen_freq[c]++;
    add_symbol(d, c);
}

static void add_match(deflater *d, unsigned len, unsigned dist)
{
    int lc = length_code(len), dc = dist_code(dist);
    d->litlen_freq[257 + lc]++;
    d->dist_freq[dc]++;
    add_symbol(d, MATCH_FLAG | (uint32_t)lc << 26 | (uint32_t)dc << 21 |
                      (len - length_base[lc]) << 13 | (dist - dist_base[dc]));
}

/* Takes the match at distance `c` when it is longer than the best so far. */
static inline void try_candidate(const unsigned char *p, size_t c, size_t reach, size_t max,
                                 uint32_t first, size_t *best, size_t *dist)
{
    if (c == 0 || c > WINDOW || c > reach || load4(p - c) != first)
        return; /* none, out of reach, or shorter than MIN_MATCH */
    size_t l = match_length(p, p - c, max);
    if (l > *best)
        *best = l, *dist = c;
}

/* The longest match at `p` (absolute position i, `reach` bytes of the
 * window before it, `max` bytes to code) among the byte before it, the
 * row above and the latest stretch with the same first four bytes; 0
 * when none reaches MIN_MATCH. The hash table is looked at (and kept up
 * to date) only when the first two give less than `max`: most bytes
 * after the Up filter are long runs of zeros, and the table's memory is
 * the slowest part of a search. */
static inline size_t longest_match(deflater *d, const unsigned char *p, size_t i, size_t reach,
                                   size_t max, size_t row, size_t *dist)
{
    uint32_t first = load4(p);
    size_t best = 0;
    try_candidate(p, 1, reach, max, first, &best, dist);
    if (best < max)
        try_candidate(p, row, reach, max, first, &best, dist);
    if (best < max) {
        uint32_t h = first * 2654435761u >> (32 - HASH_BITS);
        uint32_t seen = d->head[h];
        d->head[h] = (uint32_t)(i + 1);
        try_candidate(p, (uint32_t)(i + 1 - seen), reach, max, first, &best, dist);
    }
    return best;
}

/* LZ77 over the window's bytes from d->pos up to `end` (absolute
 * positions; the window holds `limit` bytes, so a match stops there). */
static void lz77(deflater *d, const window *w, size_t end, size_t limit, size_t row)
{
    size_t i = d->pos;
    while (i < end && !d->failed) {
        const unsigned char *p = w->data + (i - w->base);
        size_t max = limit - i < MAX_MATCH ? limit - i : MAX_MATCH, best = 0, dist = 0;
        if (max >= MIN_MATCH)
            best = longest_match(d, p, i, i - w->base, max, row, &dist);
        if (best >= MIN_MATCH) {
            add_match(d, (unsigned)best, (unsigned)dist);
            i += best;
        } else {
            add_literal(d, *p);
            i++;
        }
    }
    d->pos = i;
}

/* ---- the PNG ------------------------------------------------------------- */

#if LITTLE_ENDIAN_WORDS
/* Two pixels (xRGB words) as Up gives them, at o: each byte less the one
 * above, without borrows between bytes; then R, G, B of each in that
 * order, written as eight bytes of which the next pixels overwrite the
 * last two. Returns the RGB bits that differ from the pixels above. */
static inline uint64_t filter_two(const unsigned char *line, const unsigned char *above,
                                  unsigned char *o)
{
    const uint64_t rgb_bits = 0x00ffffff00ffffffu;
    uint64_t c, up = 0, rgb = 0;
    memcpy(&c, line, 8);
    if (above)
        memcpy(&up, above, 8);
    if ((c ^ up) & rgb_bits) { /* pixels as the ones above (most) skip the arithmetic */
        uint64_t d = ((c | 0x8080808080808080u) - (up & 0x7f7f7f7f7f7f7f7fu)) ^
                     ((c ^ ~up) & 0x8080808080808080u);
        rgb = (d >> 16 & 0xff) | (d & 0xff00) | (d & 0xff) << 16 | (d >> 24 & 0xff000000u) |
              (d & 0xff0000000000u) >> 8 | (d & 0xff00000000u) << 8;
    }
    memcpy(o, &rgb, 8);
    return (c ^ up) & rgb_bits;
}
#endif

#if LITTLE_ENDIAN_WORDS && defined(__SSE2__)
/* The RGB bits of four pixels that differ from the four above. */
static inline __m128i differ_four(const unsigned char *line, const unsigned char *above)
{
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)line);
    __m128i up = _mm_loadu_si128((const __m128i *)(const void *)above);
    return _mm_and_si128(_mm_xor_si128(c, up), _mm_set1_epi32(0x00ffffff));
}

/* Four pixels as Up gives them, at o (sixteen bytes written, twelve
 * kept), given differ_four of them. Returns the RGB bits that differ. */
static inline uint64_t filter_four(const unsigned char *line, const unsigned char *above,
                                   __m128i differ, unsigned char *o)
{
    __m128i zero = _mm_setzero_si128();
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(differ, zero)) == 0xffff) {
        _mm_storeu_si128((__m128i *)(void *)o, zero);
        return 0;
    }
    return filter_two(line, above, o) | filter_two(line + 8, above + 8, o + 6);
}
#endif

/* One row as PNG filter type 2 (Up) gives it: the filter byte, then each
 * RGB byte less the one above it (`above` NULL: the first row). `o` has
 * room for four bytes more than the row. Returns whether every byte after
 * the filter byte is 0 (the row repeats the one above, as a third of a
 * chart's rows do). */
static bool filter_up(const unsigned char *line, const unsigned char *above, int width,
                      unsigned char *o)
{
    *o++ = 2;
    int x = 0;
    uint64_t changed = 0; /* the RGB bits that differ from the row above */
#if LITTLE_ENDIAN_WORDS && defined(__SSE2__)
    /* Eight pixels, then four, at a time when all are as the ones above
     * (most pixels of a chart): one comparison, then zeros (written
     * sixteen bytes at a time, the next pixels overwriting the four too
     * many). Eight at a time take fewer instructions than four, and four
     * fewer than two (docs/benchmarks.md, "The PNG encoder"). */
    if (above) {
        __m128i zero = _mm_setzero_si128();
        for (; x + 8 <= width; x += 8, o += 24) {
            const unsigned char *l = line + 4 * (size_t)x, *u = above + 4 * (size_t)x;
            __m128i d0 = differ_four(l, u), d1 = differ_four(l + 16, u + 16);
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(d0, d1), zero)) == 0xffff) {
                _mm_storeu_si128((__m128i *)(void *)o, zero);
                _mm_storeu_si128((__m128i *)(void *)(o + 12), zero);
                continue;
            }
            changed |= filter_four(l, u, d0, o) | filter_four(l + 16, u + 16, d1, o + 12);
        }
        for (; x + 4 <= width; x += 4, o += 12)
            changed |= filter_four(line + 4 * (size_t)x, above + 4 * (size_t)x,
                                   differ_four(line + 4 * (size_t)x, above + 4 * (size_t)x), o);
    }
#endif
#if LITTLE_ENDIAN_WORDS
    for (; x + 2 <= width; x += 2, o += 6)
        changed |= filter_two(line + 4 * (size_t)x, above ? above + 4 * (size_t)x : NULL, o);
#endif
    for (; x < width; x++, o += 3) {
        uint32_t c, up = 0; /* xRGB, native-endian words */
        memcpy(&c, line + 4 * (size_t)x, 4);
        if (above)
            memcpy(&up, above + 4 * (size_t)x, 4);
        changed |= (c ^ up) & 0xffffff;
        o[0] = (unsigned char)((c >> 16) - (up >> 16));
        o[1] = (unsigned char)((c >> 8) - (up >> 8));
        o[2] = (unsigned char)(c - up);
    }
    return changed == 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* CRC-32 (zlib's) of n bytes more after `crc`. */
static uint32_t crc_of(uLong crc, const unsigned char *data, size_t n)
{
    while (n > 0) { /* crc32 takes a uInt */
        size_t part = n > (1u << 30) ? (1u << 30) : n;
        crc = crc32(crc, data, (uInt)part);
        data += part;
        n -= part;
    }
    return (uint32_t)crc;
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
    put_u32(b, crc_of(crc32(0L, (const Bytef *)type, 4), data, n));
    rc_buffer_put(out, (const char *)b, 4);
}

/* Adler-32 (RFC 1950) of the filtered rows, which are mostly zeros: a zero
 * leaves the first sum as it is and adds it to the second, so eight zero
 * bytes are one multiplication. */
static inline void adler8(uint32_t *a, uint32_t *b, const unsigned char *data)
{
#if LITTLE_ENDIAN_WORDS
    /* The first sum gains the eight bytes' total, the second 8 times the
     * first sum and each byte times the sums it enters (8 for the first,
     * 1 for the last). With the bytes in 16-bit lanes, four to a word,
     * one multiplication adds four of them up in its top lane (no lane
     * overflows into the next). Byte by byte, each added to the one before,
     * took a third of the filtering time. */
    uint64_t w;
    memcpy(&w, data, 8);
    uint64_t even = w & 0x00ff00ff00ff00ffu, odd = w >> 8 & 0x00ff00ff00ff00ffu;
    *b += 8 * *a + (uint32_t)(even * 0x0008000600040002u >> 48) +
          (uint32_t)(odd * 0x0007000500030001u >> 48);
    *a += (uint32_t)((even + odd) * 0x0001000100010001u >> 48);
#else
    for (int i = 0; i < 8; i++)
        *a += data[i], *b += *a;
#endif
}

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
            if (w == 0)
                b += 8 * a;
            else
                adler8(&a, &b, data);
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

/* Filters row y into the window, adds it to the Adler-32 sum, and codes
 * what is no longer within MAX_MATCH of the end. */
static void add_row(deflater *d, window *w, const unsigned char *line, size_t stride, int y,
                    int width, uint32_t *sum)
{
    size_t row = (size_t)width * 3 + 1;
    if (w->filled + row + 4 > w->cap) { /* keep what matches may still reach */
        size_t keep_from = d->pos - WINDOW;
        memmove(w->data, w->data + (keep_from - w->base), w->base + w->filled - keep_from);
        w->filled -= keep_from - w->base;
        w->base = keep_from;
    }
    unsigned char *o = w->data + w->filled;
    if (filter_up(line, y > 0 ? line - stride : NULL, width, o))
        adler_zeros(sum, 2, row - 1);
    else
        adler(sum, o, row);
    w->filled += row;
    size_t limit = w->base + w->filled;
    if (limit - d->pos > MAX_MATCH)
        lz77(d, w, limit - MAX_MATCH, limit, row);
}

struct rc_png_encoder {
    deflater d;
    window w;
};

rc_png_encoder *rc_png_encoder_new(void) { return calloc(1, sizeof(rc_png_encoder)); }

void rc_png_encoder_free(rc_png_encoder *e)
{
    if (e) {
        free(e->w.data);
        free(e->d.out);
    }
    free(e);
}

/* Empties the window for rows of `row` bytes, making it several times the
 * 32 KiB that matches may reach back to, so that it slides (a copy of
 * those 32 KiB) seldom. */
static bool reset_window(window *w, size_t row)
{
    size_t cap = 8 * (WINDOW + MAX_MATCH + row) + 4;
    if (w->cap < cap) {
        free(w->data);
        w->data = malloc(cap);
        w->cap = w->data ? cap : 0;
    }
    w->filled = w->base = 0;
    return w->data != NULL;
}

/* The zlib stream (RFC 1950) of the filtered rows, appended to d->out.
 * The rows pass through the window, so the filtered image is never held
 * whole. */
static bool deflate_rows(deflater *d, window *w, const unsigned char *pixels, int width,
                         int height, size_t stride)
{
    size_t row = (size_t)width * 3 + 1;
    uint32_t sum = 1;
    if (!reset_window(w, row) || !reserve(d, 1024))
        return false;
    d->out[d->len++] = 0x78; /* zlib: deflate, 32 KiB window */
    d->out[d->len++] = 0x01; /* fastest; (0x78 << 8 | 0x01) % 31 == 0 */
    for (int y = 0; y < height; y++)
        add_row(d, w, pixels + (size_t)y * stride, stride, y, width, &sum);
    lz77(d, w, w->base + w->filled, w->base + w->filled, row);
    flush_block(d, true);
    if (!reserve(d, 16))
        return false;
    flush_bits(d);
    put_u32(d->out + d->len, sum);
    d->len += 4;
    return !d->failed;
}

/* Makes the deflater ready for a new image, keeping its output memory. */
static void reset_deflater(deflater *d)
{
    unsigned char *kept = d->out;
    size_t cap = d->cap;
    memset(d, 0, offsetof(deflater, syms));
    d->out = kept, d->cap = cap;
}

/* The IDAT chunk of the image, appended to `out`. The stream is made in
 * the encoder's memory, then copied: memory that the deflater wrote into
 * fresh for each image (a third of a megabyte for a chart) cost a page
 * fault per 4 KB, more than the copy. */
static bool put_idat(rc_png_encoder *e, const unsigned char *pixels, int width, int height,
                     size_t stride, rc_buffer *out)
{
    deflater *d = &e->d;
    reset_deflater(d);
    if (!deflate_rows(d, &e->w, pixels, width, height, stride) || d->len > 0x7fffffff)
        return false;
    put_chunk(out, "IDAT", d->out, d->len);
    return !out->failed;
}

bool rc_png_encoder_encode(rc_png_encoder *e, const unsigned char *pixels, int width, int height,
                           size_t stride, rc_buffer *out)
{
    if (width <= 0 || height <= 0 || (size_t)width > 0x7fffffff / 4 || !pixels)
        return false;
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
    bool ok = put_idat(e, pixels, width, height, stride, out);
    if (ok)
        put_chunk(out, "IEND", NULL, 0);
    if (!ok)
        out->failed = true;
    return ok && !out->failed;
}

bool rc_png_encode_xrgb(const unsigned char *pixels, int width, int height, size_t stride,
                        rc_buffer *out)
{
    rc_png_encoder *e = rc_png_encoder_new();
    bool ok = e && rc_png_encoder_encode(e, pixels, width, height, stride, out);
    rc_png_encoder_free(e);
    if (!ok)
        out->failed = true;
    return ok;
}
