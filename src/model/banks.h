/* banks.h: how many passes (wavefronts) one warp's shared-memory request takes, by the bank
 * rules of a GPU generation, and how long a global request holds L1, whose data stage follows
 * the same banks. One function each for both counters (access.c's enumeration and
 * classes_warp.c's classes), so that the two agree.
 *
 *   RC_BANKS_WORD  compute capability 5.x and later: 32 banks, successive 32-bit words in
 *                  successive banks, each bank serving one 32-bit word a clock; lanes reading
 *                  the same word share it (broadcast). Passes = the most distinct 32-bit
 *                  words in one bank (NVIDIA CUDA C++ Programming Guide, compute capability
 *                  5.x, Shared Memory; 6.x and 7.x "behave the same way")
 *   RC_BANKS_PAIR  compute capability 3.x (Kepler): 32 banks of 64 bits a clock. In the
 *                  default 32-bit mode a bank holds words i and i + 32 of each 64-word
 *                  segment, and two such words of one segment are read in the same pass, as
 *                  are lanes reading the same word (Programming Guide, compute capability
 *                  3.x, Shared Memory, 32-bit mode; the 64-bit mode pairs words 2b and 2b + 1
 *                  of the segment in bank b, which gives the same count for the segments a
 *                  request touches). Passes = the most distinct 64-word segments in one bank.
 *                  A 32 x 32 float tile read down a column (word 32 x lane + k) is 16-way, not
 *                  32-way: lanes 2m and 2m + 1 share a segment.
 */
#ifndef ROOFCAST_BANKS_H
#define ROOFCAST_BANKS_H

#include <stdbool.h>
#include <stdint.h>

/* ORDER RC_BANK_MODE */
typedef enum { RC_BANKS_WORD, RC_BANKS_PAIR } rc_bank_mode;
#define RC_BANK_MODES 2

/* The passes of one request: offset[l] is lane l's byte offset in the shared array (at least
 * 0), for the lanes set in `mask`, each reading or writing elem_bytes (1 to 16) bytes. 0 when
 * no lane is active. Lanes reading one word share its pass (a broadcast). */
int rc_shared_passes(const int64_t *offset, uint32_t mask, int elem_bytes, rc_bank_mode mode);

/* The passes of one atomic request, in either bank mode: as rc_shared_passes, but a lane
 * stands for weight[l] threads (NULL: one each; the counting merges the threads of a warp
 * whose indices are the same, warp.h), and an atomic request shares nothing: each thread's
 * read-modify-write of a word is a pass of its own in that word's bank, so that k threads
 * updating one word take k passes. An
 * atomic function "performs a read-modify-write atomic operation on one 32-bit or 64-bit word
 * ... guaranteed to be performed without interference from other threads" (CUDA C++
 * Programming Guide, Atomic Functions); the updates of one word by the lanes of a warp "are
 * all serialized" (NVIDIA Nsight Visual Studio Edition, Memory Statistics - Atomics, said of
 * global memory; assumed alike for shared memory, and without Kepler's pairing). */
int64_t rc_shared_atomic_passes(const int64_t *offset, uint32_t mask, int elem_bytes,
                                const int64_t *weight);

/* What one warp's global request holds the L1 pipeline for, in quarter clocks, on SMs whose
 * load/store units take a request in one clock (*q1) and in two (*q2: 16 units an SM), from
 * Volta's unified L1 on. A load passes two stages: the data stage returns the 32 lanes' words
 * in one pass when they lie in different 4-byte banks, in n for an n-way conflict, as shared
 * memory does (offset[l]: lane l's byte offset from the array's start, 256-byte aligned); the
 * tag stage takes about four of its distinct 128-byte lines a clock. So a load takes the
 * largest of the units' clocks, its passes and (lines + 2) / 4 clocks. te42kyfo/gpu-benches'
 * gpu-strides (at 1c36d509, a100.txt, a40.txt, h200.txt: a warp's float loads hitting L1
 * against the stride between lanes and a 2-D block's shape, with Nsight Compute's data-stage
 * and tag-stage wavefronts) gives 1.02 clocks for one line, 3.03 for stride 9 (9 lines, one
 * pass), 8.8 for 32 lines and 8.0 for an 8-way conflict on an A100 and an H200, and on an A40
 * (GA102) 2.00 for one line and the A100's figures for the rest: the units' two clocks are a
 * floor, not a factor. A store or atomic keeps the rule the L1 level had: the larger of the
 * floor and its sectors' bytes at 128 B a clock (no store was timed).
 * *q2x2: as *q2 on SMs whose banks also take two clocks a pass (Turing: connollydavid/tu102
 * times 64-bit L1 and shared loads at 64.0 B a clock, two passes in four clocks, where GA10x
 * reaches 125; arch.c's Turing row). */
void rc_l1_request_quarters(bool load, const int64_t *offset, uint32_t mask, int elem_bytes,
                            int sectors, int lines, int64_t *q1, int64_t *q2, int64_t *q2x2);

#endif
