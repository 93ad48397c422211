/* hash.h: a 64-bit content hash, to tell whether an output is up to date
 * with what it was made from (manifest.h).
 *
 * FNV-1a over 64 bits (Fowler, Noll, Vo; the parameters of
 * http://www.isthe.com/chongo/tech/comp/fnv/). None of roofcast's libraries
 * (libxml2, libxslt, Cairo, libharu, libpng, zlib) offers a general-purpose
 * hash, and a new dependency for a cache key is not worth it: the inputs
 * are small (a run hashes a few MB), and what is needed is that an edited
 * file gets a different key, which 64 bits give with a chance of 2^-64 per
 * edit. It is not cryptographic: a file crafted to collide only fools its
 * author's own cache, and `--force` re-renders everything regardless.
 */
#ifndef ROOFCAST_HASH_H
#define ROOFCAST_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RC_HASH_INIT UINT64_C(0xcbf29ce484222325) /* FNV-1a's offset basis */

/* `h` continued over the bytes. */
uint64_t rc_hash_bytes(uint64_t h, const void *data, size_t len);

/* `h` continued over the string and its terminating NUL, so that "ab","c"
 * and "a","bc" differ. */
uint64_t rc_hash_str(uint64_t h, const char *s);

/* `h` continued over the 8 bytes of v, least significant first. */
uint64_t rc_hash_u64(uint64_t h, uint64_t v);

/* `h` continued over the path and the contents of a regular file of at
 * most max_bytes. Returns false (h unchanged) when the file is not one or
 * cannot be read: the caller then treats what depends on it as unknown. A
 * FIFO or device is never opened. */
bool rc_hash_file(uint64_t *h, const char *path, size_t max_bytes);

#endif
