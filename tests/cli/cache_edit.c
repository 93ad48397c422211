/* cache_edit.c: replaces one piece of one entry of an output directory's
 * .roofcast-cache and makes the entry's CRC match again, as a roofcast
 * that wrote a wrong piece would have left it (tests/cli/robustness.sh).
 *
 * Usage: cache_edit CACHE ID PIECE FILE   (PIECE: xml, csv, part or pdf;
 * FILE: the piece's new bytes). The format is kernel_cache.c's; the CRC
 * is computed as its share_check does. Exit 0 when the entry was edited.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    if (!f)
        return NULL;
    do {
        if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
            return NULL;
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

static uLong crc_u64(uLong c, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return crc32(c, b, 8);
}

int main(int argc, char **argv)
{
    static const char *const names[4] = {"xml", "csv", "part", "pdf"};
    int which = -1;
    for (int i = 0; argc == 5 && i < 4; i++)
        if (strcmp(argv[3], names[i]) == 0)
            which = i;
    size_t len = 0, new_len = 0;
    char *cache = which >= 0 ? slurp(argv[1], &len) : NULL;
    char *piece = cache ? slurp(argv[4], &new_len) : NULL;
    if (!piece) {
        fprintf(stderr, "usage: cache_edit CACHE ID xml|csv|part|pdf FILE\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "wb");
    const char *p = cache, *end = cache + len, *nl = memchr(p, '\n', len);
    if (!out || !nl)
        return 2;
    fwrite(p, 1, (size_t)(nl + 1 - p), out); /* the header */
    p = nl + 1;
    bool edited = false;
    while (p < end) {
        unsigned long long key, check;
        size_t l[4];
        char id[128];
        if (sscanf(p, "kernel %llx %zu %zu %zu %zu %llx %127s", &key, &l[0], &l[1], &l[2], &l[3],
                   &check, id) != 7 || !(nl = memchr(p, '\n', (size_t)(end - p))))
            return 2;
        const char *at[4];
        const char *q = nl + 1;
        for (int i = 0; i < 4; i++) {
            at[i] = q;
            q += l[i];
        }
        if (strcmp(id, argv[2]) == 0) {
            at[which] = piece;
            l[which] = new_len;
            uLong c = crc_u64(crc32(0, (const Bytef *)id, (uInt)strlen(id)), key);
            for (int i = 0; i < 4; i++)
                c = crc32(crc_u64(c, l[i]), (const Bytef *)at[i], (uInt)l[i]);
            check = c;
            edited = true;
        }
        fprintf(out, "kernel %016llx %zu %zu %zu %zu %016llx %s\n", key, l[0], l[1], l[2], l[3],
                check, id);
        for (int i = 0; i < 4; i++)
            fwrite(at[i], 1, l[i], out);
        p = q;
    }
    fclose(out);
    free(cache);
    free(piece);
    return edited ? 0 : 1;
}
