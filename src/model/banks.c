/* banks.c: see banks.h. */
#include "model/banks.h"

#define BANKS 32
#define LANES 32
#define MAX_WORDS (4 * LANES) /* 16-byte elements: 4 words a lane */

/* Sorts v[0..n) (n at most MAX_WORDS, usually already ascending) and keeps the distinct
 * values; returns their number. */
static int distinct(int64_t *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int64_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    int d = 0;
    for (int i = 0; i < n; i++)
        if (d == 0 || v[d - 1] != v[i])
            v[d++] = v[i];
    return d;
}

int rc_shared_passes(const int64_t *offset, uint32_t mask, int elem_bytes, rc_bank_mode mode,
                     bool atomic)
{
    int64_t keys[MAX_WORDS];
    int n = 0;
    for (int l = 0; l < LANES; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int64_t w = offset[l] / 4; w <= (offset[l] + elem_bytes - 1) / 4 && n < MAX_WORDS;
             w++)
            /* What takes a pass of its own in bank w % 32: the word itself, or (PAIR) the
             * 64-word segment it lies in; key % 32 stays the bank. */
            keys[n++] = atomic               ? w % BANKS
                        : mode == RC_BANKS_PAIR ? w / 64 * BANKS + w % BANKS
                                                : w;
    }
    /* Atomics: every lane's word counts in its bank, shared or not. */
    int d = atomic ? n : distinct(keys, n);
    int per_bank[BANKS] = {0}, most = 0;
    for (int i = 0; i < d; i++) {
        int b = (int)(keys[i] % BANKS);
        if (++per_bank[b] > most)
            most = per_bank[b];
    }
    return most;
}
