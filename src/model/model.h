/* model.h: the loaded inputs, as plain C structs.
 *
 * The loader (src/input/) builds these from specs/<id>.xml and kernels/<id>.xml; the
 * evaluator (eval.c) and the results builder (results.c) only read them.
 * Every string is owned by the struct that holds it and freed by its _free.
 */
#ifndef ROOFCAST_MODEL_H
#define ROOFCAST_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"

/* The launch latency assumed where a GPU file gives none: one kernel launch
 * followed by a synchronisation, as the reference reports assume (5 to 10 us
 * in published microbenchmarks). */
#define RC_DEFAULT_LAUNCH_LATENCY 5e-6

/* Where a GPU figure comes from; the results tree says it beside each
 * figure (origin="published|measured|assumed") and every renderer marks the
 * assumed ones. ORDER RC_ORIGIN */
typedef enum {
    RC_ORIGIN_PUBLISHED, /* a datasheet figure, given in the GPU file */
    RC_ORIGIN_MEASURED,  /* a microbenchmark's result, given in the GPU file */
    RC_ORIGIN_ASSUMED    /* roofcast's default, where the GPU file gives none */
} rc_origin;

/* One figure of the execution model with where it comes from. After
 * loading every figure is set: from the GPU file, or from the
 * architecture's defaults (arch.c), never 0. */
typedef struct {
    double value;   /* base units: B, B/s, s, Hz, or a plain count */
    rc_origin origin;
    char *source;   /* owned; says where the figure comes from */
    char *written;  /* owned; as the GPU file writes it ("657 cycles"), or NULL */
} rc_gpu_figure;

/* Per-SM limits, as the CUDA programming guide's table of compute
 * capabilities gives them; they decide how many blocks an SM holds. */
typedef struct {
    rc_gpu_figure count;           /* SMs: <sms>, or derived from the FP32 peak (assumed) */
    rc_gpu_figure clock;           /* Hz: the SM clock under load (rated boost) */
    rc_gpu_figure warp_size;       /* threads */
    rc_gpu_figure threads;         /* resident threads per SM */
    rc_gpu_figure blocks;          /* resident blocks per SM */
    rc_gpu_figure registers;       /* 32-bit registers per SM */
    rc_gpu_figure registers_per_thread; /* at most */
    rc_gpu_figure register_unit;   /* registers are allocated per warp in units of this */
    rc_gpu_figure shared;          /* B: shared memory per SM, at most */
    rc_gpu_figure shared_per_block; /* B: at most, per block */
    rc_gpu_figure shared_unit;     /* B: shared memory is allocated in units of this */
    rc_gpu_figure shared_reserved; /* B: the system's share per block (8.0 and later); may be 0 */
    rc_gpu_figure l1;              /* B: L1 data cache per SM, at most */
    rc_gpu_figure l1_shared;       /* B: L1 and shared memory together per SM (their sum
                                      where they are separate, as on Maxwell) */
} rc_sm_limits;

/* Device figures from microbenchmarks (or assumed architecture defaults). */
typedef struct {
    rc_gpu_figure dram_bandwidth; /* B/s, sustained (stream triad) */
    rc_gpu_figure l2_bandwidth;   /* B/s, whole GPU */
    rc_gpu_figure l1_bandwidth;   /* B/s, whole GPU, L1 / shared memory */
    rc_gpu_figure dram_latency, l2_latency, l1_latency; /* s, one load's round trip */
    rc_gpu_figure launch_back_to_back; /* s per launch queued back to back in a stream */
    rc_gpu_figure launch_sync;    /* s: one launch and a synchronisation */
} rc_gpu_rates;

/* A GPU definition. Optional figures are 0 (or NULL) when absent. */
typedef struct rc_gpu {
    char *id;           /* checked: [a-z0-9][a-z0-9._-]*, used in file names */
    char *name;
    char *architecture;
    char *compute_capability; /* "8.9", or NULL */
    long sms;
    char *memory_type;  /* "GDDR6X", or NULL */
    double memory_bytes;
    double l2_bytes;
    double peak_fp32;   /* FLOP/s, > 0 */
    double peak_fp64;   /* FLOP/s; 0 when absent */
    double peak_fp16;   /* FLOP/s without tensor cores; 0 when absent */
    char *clock_kind;   /* "base" or "boost", or NULL */
    double clock_hz;
    double bandwidth;   /* B/s, > 0 */
    double launch_latency; /* s, >= 0; RC_DEFAULT_LAUNCH_LATENCY when the file gives none */
    rc_origin launch_latency_origin; /* RC_ORIGIN_ASSUMED when the file gives none */
    char *source;       /* where the figures come from */
    rc_sm_limits sm;    /* every figure set after loading */
    rc_gpu_rates rates; /* every figure set after loading */
    char *file;         /* the file it was read from, for messages */
    int line;
} rc_gpu;

void rc_gpu_free(rc_gpu *gpu);

/* The work model: a small per-thread program. ORDER RC_WORK */
typedef enum {
    RC_WORK_LET,     /* name = a */
    RC_WORK_WHEN,    /* if (a) { children } */
    RC_WORK_LOOP,    /* for (var = a; var < b; var += c) { children } */
    RC_WORK_FLOPS,   /* a FLOPs */
    RC_WORK_LOAD,    /* a loads of b bytes */
    RC_WORK_STORE,   /* a stores of b bytes */
    RC_WORK_TRAFFIC, /* a bytes moved, not split into loads and stores */
    RC_WORK_ATOMIC,  /* one read-modify-write of array[index] */
    RC_WORK_INSTRUCTIONS, /* a instructions of one pipe (rc_pipe) other than FLOPs and
                             memory accesses */
    RC_WORK_BARRIER       /* __syncthreads(): every thread of the block waits for the rest */
} rc_work_kind;
#define RC_WORK_LAST RC_WORK_BARRIER

/* How a loop's variable moves from one iteration to the next: the third
 * clause of a C for statement. ORDER RC_STEP */
typedef enum {
    RC_STEP_ADD, /* var += step (a plain step="c" means this) */
    RC_STEP_SUB, /* var -= step */
    RC_STEP_MUL, /* var *= step */
    RC_STEP_DIV, /* var /= step */
    RC_STEP_SHL, /* var <<= step */
    RC_STEP_SHR  /* var >>= step */
} rc_step_op;

/* The precision of a <flops> statement's arithmetic; FP32 unless it says.
 * ORDER RC_PRECISION */
typedef enum {
    RC_PRECISION_FP16, RC_PRECISION_FP32, RC_PRECISION_FP64, RC_PRECISIONS
} rc_precision;

/* "fp16", "fp32", "fp64": the attribute's values and the names outputs use
 * (names.c, with the other enums' names of names.h). */
const char *rc_precision_name(rc_precision p);

/* The arithmetic pipe of an <instructions> statement: the CUDA C++ Programming Guide's rows
 * of "Throughput of Native Arithmetic Instructions" that each stands for (arch.c holds each
 * compute capability's results per clock per SM). ORDER RC_PIPE */
typedef enum {
    RC_PIPE_CONVERSION,   /* "All other type conversions": int <-> float, float <-> half */
    RC_PIPE_CONVERSION64, /* "Type conversions from and to 64-bit types" */
    RC_PIPE_SPECIAL,      /* 32-bit reciprocal, reciprocal square root, __log2f, exp2f,
                             __sinf, __cosf: the special function units */
    RC_PIPE_INTEGER,      /* 32-bit integer add, subtract and bitwise AND, OR, XOR */
    RC_PIPES
} rc_pipe;

/* "conversion", "conversion64", "special", "integer": the attribute's values and the names
 * outputs use (names.c). */
const char *rc_pipe_name(rc_pipe p);

/* Where an array lives. ORDER RC_SPACE */
typedef enum {
    RC_SPACE_GLOBAL, RC_SPACE_SHARED, RC_SPACE_CONSTANT, RC_SPACE_LOCAL
} rc_space;

/* How an <array> says its loads travel on GPUs whose L1 caches only read-only data
 * (compute capability 3.x, 5.x, 6.1): read-only-path="yes" (a const __restrict__ pointer or
 * __ldg: the read-only or texture path, which keeps reuse), "no" (an ordinary pointer: every
 * load goes to L2), or not said (yes when the kernel never writes the array, assumed). */
typedef enum {
    RC_READ_ONLY_PATH_ASSUMED, RC_READ_ONLY_PATH_YES, RC_READ_ONLY_PATH_NO
} rc_read_only_path;

/* A declared array: <array name type length [space] [read-only-path]>. Arrays start at
 * 256-byte aligned addresses and do not overlap. */
typedef struct {
    char *name;
    char *type;         /* the C type as written: "float", "float4", ... */
    int elem_bytes;     /* the type's size in bytes */
    int64_t length;     /* elements, > 0 */
    char *length_text;  /* as written */
    rc_space space;
    rc_read_only_path read_only_path;
    char *note;         /* may be NULL */
    int line;
} rc_array;

#define RC_WORK_EXPRS 3

typedef struct rc_work rc_work;
struct rc_work {
    rc_work_kind kind;
    int line;
    int index;        /* preorder position; indexes rc_counts.work[] */
    char *name;       /* LET name or LOOP variable; else NULL */
    int slot;         /* LET (unless constant) and LOOP: the value's slot; else -1 */
    rc_expr *expr[RC_WORK_EXPRS];  /* see rc_work_kind; unused ones NULL */
    char *text[RC_WORK_EXPRS];     /* the attributes as written */
    const char *attr[RC_WORK_EXPRS]; /* their attribute names (static) */
    /* LOOP: expr[1] is the `while` condition (reading the variable) when
     * loop_while, else the bound `to` (var < to); step_op says how expr[2]
     * moves the variable. */
    bool loop_while;
    rc_step_op step_op;
    /* LOOP: dependent="true": each iteration needs the one before it (a recurrence, a
     * pointer chase, a load of what the thread stored), so a thread runs them one after
     * another: the per-thread chain floor (chain.h). */
    bool loop_dependent;
    /* LOOP: whether from or to, and step, read a value nvcc does not know when it compiles
     * the kernel (a runtime param, blockDim/gridDim, threadIdx/blockIdx, a let or loop
     * variable that does): how far it unrolls the loop (refine.c unrolled_trips). */
    bool loop_bounds_runtime, loop_step_runtime;
    /* LOOP: unsigned="true": the variable is unsigned (unsigned, size_t), whose wrap nvcc
     * must allow for: it then unrolls a loop of unknown bounds only when the step is 1. */
    bool loop_unsigned;
    /* LOAD, STORE, ATOMIC on a declared array: its position in
     * rc_kernel.arrays and the index in elements; else array = -1. Then
     * expr[0] is the constant 1 and expr[1] the element size (0 for a
     * shared array, whose accesses are not memory traffic). */
    int array;
    rc_expr *index_expr;
    char *index_text;
    rc_precision precision; /* FLOPS: the arithmetic's precision */
    /* FLOPS: fused="false": adds or multiplies alone, each FLOP an instruction that takes a
     * fused multiply-add's slot (the Programming Guide's throughput table counts add,
     * multiply and multiply-add alike); else FMAs, two FLOPs an instruction. */
    bool flops_unfused;
    rc_pipe pipe;     /* INSTRUCTIONS: the pipe they run on */
    /* ATOMIC: operand="per-lane": each lane updates with its own value, so the lanes of a
     * request that update one address cannot be combined into one operation (atomics.h);
     * false (operand="uniform", the default): the same value in every lane. */
    bool per_lane_operand;
    char *note;       /* may be NULL */
    char *assumption; /* WHEN only: set when the guard states an assumption of
                         the model that the kernel's code does not make */
    bool body_reads_var; /* LOOP: false lets the evaluator count the body
                            once and multiply by the trip count */
    rc_work *children; /* first child */
    rc_work *next;     /* next sibling */
};

/* The FLOPs a <flops> statement's FLOP counts as where an instruction slot holds two (an FMA):
 * 2 for an unfused add or multiply (fused="false"), 1 otherwise. The compute term, the
 * per-thread floor and the dependent chain all count slots by it. */
static inline int rc_flop_slots(const rc_work *w)
{
    return w->flops_unfused ? 2 : 1;
}

typedef struct {
    char *name;
    int64_t value;
    char *text;  /* as written */
    char *note;
    /* runtime="yes": the kernel learns the value only when it runs (a kernel argument, or
     * blockDim written as a param), so nvcc compiles it without knowing it; "no" or not
     * said: a compile-time constant (a macro, a template argument). runtime: said so, or the
     * value reads a runtime param or blockDim/gridDim, which nvcc does not know either. */
    bool runtime_said;
    bool runtime;
} rc_param;

/* The six slots every kernel has, before its lets and loop variables.
 * ORDER RC_SLOT */
enum {
    RC_SLOT_TID_X, RC_SLOT_TID_Y, RC_SLOT_TID_Z,
    RC_SLOT_BID_X, RC_SLOT_BID_Y, RC_SLOT_BID_Z,
    RC_SLOT_FIRST_FREE
};

typedef struct rc_kernel {
    char *id;       /* checked like rc_gpu.id */
    char *name;
    char *summary;
    char *source_language;
    char *source_code;
    int64_t grid[3];
    int64_t block[3];
    char *grid_text, *block_text; /* as written */
    rc_param *params;
    size_t nparams;
    rc_array *arrays;
    size_t narrays;
    int64_t registers;    /* <resources registers>: per thread; 0 when not given */
    int64_t shared_bytes; /* <resources shared-bytes>: per block; 0 when not given */
    rc_work *work;  /* first top-level node; may be NULL (no work) */
    int nwork;      /* number of nodes */
    int nslots;     /* RC_SLOT_FIRST_FREE + lets and loop variables */
    bool has_assumptions;
    char **notes;
    size_t nnotes;
    char *file;
    int line;
} rc_kernel;

void rc_kernel_free(rc_kernel *kernel);

/* Launched counts; the loader refuses launches whose threads overflow. */
int64_t rc_kernel_blocks(const rc_kernel *k);
int64_t rc_kernel_threads_per_block(const rc_kernel *k);

#endif
