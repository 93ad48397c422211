/* expr.h: the integer expressions of a kernel's work model.
 *
 * C syntax and C integer semantics over signed 64-bit values: the CUDA
 * built-ins (threadIdx.x, blockIdx.y, blockDim.z, gridDim.x, ...), the
 * kernel's params, `let` names and loop variables. `and`, `or`, `not` may
 * stand for `&&`, `||`, `!`. `min(a, b)` and `max(a, b)` are the CUDA integer
 * functions. `/` and `%` truncate toward zero; overflow, division by zero and
 * out-of-range shifts are errors, never wraps or undefined behaviour.
 *
 * An expression is parsed once, against a resolver that binds every name to
 * either a constant (folded at parse time) or a slot (read at evaluation time
 * from an array of int64_t that the caller owns).
 */
#ifndef ROOFCAST_EXPR_H
#define ROOFCAST_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rc_expr rc_expr;

typedef enum {
    RC_NAME_UNKNOWN, /* the parser reports "unknown name 'x'" */
    RC_NAME_CONST,   /* value is folded into the expression */
    RC_NAME_SLOT     /* slot indexes the array given to rc_expr_eval */
} rc_name_kind;

typedef struct {
    rc_name_kind kind;
    int64_t value; /* RC_NAME_CONST */
    int slot;      /* RC_NAME_SLOT, 0 <= slot < the resolver's slot count */
} rc_name_binding;

/* Binds `name` (len bytes, not NUL-terminated; dotted built-ins such as
 * "threadIdx.x" arrive as one name). */
typedef rc_name_binding (*rc_name_resolver)(void *ctx, const char *name,
                                            size_t len);

/* Where and why parsing or evaluation failed. offset/length delimit the
 * offending token (or operator) in the expression's text, in bytes;
 * length >= 1 except at the end of the text, where offset == strlen and
 * length == 0. */
typedef struct {
    size_t offset;
    size_t length;
    char message[200];
} rc_expr_error;

/* Deepest nesting of parentheses and operators that parsing accepts. */
#define RC_EXPR_MAX_DEPTH 100

/* Parses `text`. Returns a new expression (the caller frees it with
 * rc_expr_free), or NULL with *err filled. Subexpressions whose operands are
 * all constants are folded; folding that divides by zero or overflows is a
 * parse error. */
rc_expr *rc_expr_parse(const char *text, rc_name_resolver resolve, void *ctx,
                       rc_expr_error *err);

void rc_expr_free(rc_expr *e);

/* True when the whole expression folded to a constant, stored in *value. */
bool rc_expr_is_const(const rc_expr *e, int64_t *value);

/* Evaluates `e` reading slot values from `slots`. Returns true with *out
 * set, or false with *err filled (the offset points at the operator). */
bool rc_expr_eval(const rc_expr *e, const int64_t *slots, int64_t *out,
                  rc_expr_error *err);

/* Evaluates `e` over ranges: every slot s holds some value in
 * [lo[s], hi[s]]. Returns true with [*out_lo, *out_hi] containing the value
 * the expression takes at every such point, or false when that cannot be
 * said without looking at single points: evaluation could fail somewhere
 * (division by zero, overflow) or a branch (&&, ||, ?:) goes both ways.
 * Sound, not always tight: the caller splits the ranges and tries again,
 * and at single points it agrees exactly with rc_expr_eval. */
bool rc_expr_eval_range(const rc_expr *e, const int64_t *lo, const int64_t *hi,
                        int64_t *out_lo, int64_t *out_hi);

/* True when `e` is coef x slots[slot] + terms that do not read that slot,
 * with *coef set (0 when it does not read it): then, with every other slot
 * fixed, e(v + d) = e(v) + coef x d wherever both evaluate. False when
 * that cannot be shown (a product of two slots, a division, a comparison
 * or a branch that reads the slot). */
bool rc_expr_affine(const rc_expr *e, int slot, int64_t *coef);

/* The number of instructions evaluation may run: a bound on the cost of
 * one rc_expr_eval, used to bound the evaluator's work. At least 1. */
size_t rc_expr_size(const rc_expr *e);

/* Sets reads[s] = true for every slot s that `e` may read (nslots is the
 * length of `reads`; slots outside it are ignored). */
void rc_expr_mark_reads(const rc_expr *e, bool *reads, int nslots);

#endif
