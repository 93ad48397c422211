/* warp_max.c: see warp_max.h. */
#include "model/warp_max.h"

int64_t rc_warp_max_box(int64_t *max, const int64_t block[3], const int64_t lo[3],
                        const int64_t hi[3], int64_t value)
{
    int64_t rows = 0;
    for (int64_t z = lo[2]; z <= hi[2]; z++)
        for (int64_t y = lo[1]; y <= hi[1]; y++) {
            int64_t row = (z * block[1] + y) * block[0];
            for (int64_t w = (row + lo[0]) / 32; w <= (row + hi[0]) / 32; w++)
                if (w < RC_WARP_MAX_WARPS && max[w] < value)
                    max[w] = value;
            rows++;
        }
    return rows;
}
