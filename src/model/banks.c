/* banks.c: see banks.h. */
#include "model/banks.h"

#include "model/warp.h"

#define BANKS 32
#define MAX_WORDS (4 * RC_WARP) /* 16-byte elements: 4 words a lane */

int rc_shared_passes(const int64_t *offset, uint32_t mask, int elem_bytes, rc_bank_mode mode)
{
    int64_t keys[MAX_WORDS];
    int n = 0;
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int64_t w = offset[l] / 4; w <= (offset[l] + elem_bytes - 1) / 4 && n < MAX_WORDS;
             w++)
            /* What takes a pass of its own in bank w % 32: the word itself, or (PAIR) the
             * 64-word segment it lies in; key % 32 stays the bank. */
            keys[n++] = mode == RC_BANKS_PAIR ? w / 64 * BANKS + w % BANKS : w;
    }
    int d = rc_warp_distinct(keys, n);
    int per_bank[BANKS] = {0}, most = 0;
    for (int i = 0; i < d; i++) {
        int b = (int)(keys[i] % BANKS);
        if (++per_bank[b] > most)
            most = per_bank[b];
    }
    return most;
}

int64_t rc_shared_atomic_passes(const int64_t *offset, uint32_t mask, int elem_bytes,
                                const int64_t *weight)
{
    /* Every thread's word counts in its bank, shared or not. */
    int64_t per_bank[BANKS] = {0}, most = 0;
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int64_t w = offset[l] / 4; w <= (offset[l] + elem_bytes - 1) / 4; w++) {
            int b = (int)(w % BANKS);
            per_bank[b] += weight ? weight[l] : 1;
            if (per_bank[b] > most)
                most = per_bank[b];
        }
    }
    return most;
}

void rc_l1_request_quarters(bool load, const int64_t *offset, uint32_t mask, int elem_bytes,
                            int sectors, int lines, int64_t *q1, int64_t *q2, int64_t *q2x2)
{
    int64_t cost = sectors; /* quarter clocks: a 32-byte sector of a 128-byte clock */
    int64_t slow = sectors; /* the same with two clocks a bank pass */
    if (load) {
        int64_t passes = 4 * (int64_t)rc_shared_passes(offset, mask, elem_bytes, RC_BANKS_WORD);
        cost = passes > lines + 2 ? passes : lines + 2;
        slow = 2 * passes > lines + 2 ? 2 * passes : lines + 2;
    }
    *q1 = mask == 0 ? 0 : cost > 4 ? cost : 4;
    *q2 = mask == 0 ? 0 : cost > 8 ? cost : 8;
    *q2x2 = mask == 0 ? 0 : slow > 8 ? slow : 8;
}
