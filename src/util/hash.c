/* hash.c: see hash.h. */
#include "util/hash.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define FNV_PRIME UINT64_C(0x100000001b3)

uint64_t rc_hash_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= FNV_PRIME;
    }
    return h;
}

uint64_t rc_hash_str(uint64_t h, const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return rc_hash_bytes(h, s, n + 1);
}

uint64_t rc_hash_u64(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return rc_hash_bytes(h, b, sizeof b);
}

bool rc_hash_file(uint64_t *h, const char *path, size_t max_bytes)
{
    struct stat st;
    /* O_NONBLOCK: a FIFO put there since the stat must not hang the run. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uintmax_t)st.st_size > max_bytes) {
        close(fd);
        return false;
    }
    uint64_t k = rc_hash_str(*h, path);
    unsigned char chunk[65536];
    ssize_t n;
    size_t total = 0;
    while ((n = read(fd, chunk, sizeof chunk)) > 0 && total <= max_bytes) {
        k = rc_hash_bytes(k, chunk, (size_t)n);
        total += (size_t)n;
    }
    close(fd);
    if (n < 0 || total > max_bytes)
        return false;
    *h = rc_hash_u64(k, total);
    return true;
}
