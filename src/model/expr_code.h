/* expr_code.h: the compiled form of an expression, shared by the parser
 * (expr_parse.c), the evaluator (expr_eval.c) and the range and affine
 * analyses (expr_range.c); private to src/model/. expr.h is the public face.
 *
 * An expression is a flat array of 16-byte instructions for a stack
 * machine, ended by OP_END; each instruction's dispatch key encodes both
 * the operator and where its operands come from, so the evaluator's one
 * switch costs a single indirect jump per instruction. The arithmetic is
 * defined once here, for folding, evaluation and ranges alike.
 */
#ifndef ROOFCAST_EXPR_CODE_H
#define ROOFCAST_EXPR_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"

/* Values live here during evaluation. The nesting limit keeps the height
 * near RC_EXPR_MAX_DEPTH; the parser refuses anything that would need more. */
#define EVAL_STACK (2 * RC_EXPR_MAX_DEPTH + 8)

/*
** {======================================================
** Instructions
** =======================================================
*/

/* ORDER OP: the arithmetic opcodes come first and in ORDER OPR, so that a
 * binary operator (other than && and ||) is its own opcode. */
typedef enum {
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
    OP_BAND, OP_BXOR, OP_BOR,
    OP_MIN, OP_MAX,  /* last arithmetic opcode */
    OP_LOADK,        /* push k */
    OP_LOADS,        /* push slots[arg] */
    OP_NEG, OP_NOT, OP_BNOT,
    OP_BOOL,         /* top = (top != 0) */
    OP_JMP,          /* pc = arg */
    OP_JZ,           /* pop; if zero, pc = arg */
    OP_JZKEEP,       /* &&: if top is zero, pc = arg (keeping it); else pop */
    OP_JNZKEEP,      /* ||: if top is non-zero, top = 1, pc = arg; else pop */
    OP_END           /* the result is on top */
} opcode;

#define IS_ARITH(op) ((op) <= OP_MAX)
#define IS_COMPARISON(op) ((op) >= OP_LT && (op) <= OP_NE)

/* Where the operands of an arithmetic instruction come from: both from the
 * stack, or the top of the stack and an immediate (constant k or slot arg)
 * on the right or on the left. The immediate forms save a push and a pop. */
typedef enum { M_STACK, M_KR, M_KL, M_SR, M_SL, NMODES } opmode;

/* What the evaluator switches on: one key per (arithmetic opcode, mode)
 * pair, then one per other opcode. */
#define KEY(op, mode) ((op) * NMODES + (mode))
#define KEY_OTHER(op) (KEY(OP_MAX + 1, 0) + ((op) - OP_LOADK))

_Static_assert(KEY_OTHER(OP_END) <= UINT8_MAX, "keys fit in a byte");

typedef struct {
    uint8_t key;  /* KEY or KEY_OTHER */
    uint8_t op;   /* opcode, for messages and rc_expr_mark_reads */
    uint8_t mode; /* opmode, for arithmetic opcodes */
    int32_t arg;  /* slot or jump target */
    int64_t k;    /* constant */
} instr;

/* A token's place in the text, for messages. Kept apart from the code
 * because evaluation only needs it when something fails. */
typedef struct {
    size_t off, len;
} span;

struct rc_expr {
    size_t ncode;
    bool isconst;
    int64_t value; /* when isconst */
    const span *pos; /* one per instruction, after code[] */
    instr code[];
};

/* }====================================================== */


/*
** {======================================================
** Arithmetic shared by folding and evaluation
** =======================================================
*/

typedef enum {
    A_OK, A_DIVZERO, A_MODZERO, A_OVERFLOW, A_SHIFTRANGE, A_SHLNEG
} arith_status;

/* One function per operator, shared by folding (through arith) and by
 * evaluation (directly, so that each inlines into its own case). */

static inline arith_status op_add(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_add_overflow(a, b, r) ? A_OVERFLOW : A_OK;
}

static inline arith_status op_sub(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_sub_overflow(a, b, r) ? A_OVERFLOW : A_OK;
}

static inline arith_status op_mul(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_mul_overflow(a, b, r) ? A_OVERFLOW : A_OK;
}

static inline arith_status op_div(int64_t a, int64_t b, int64_t *r)
{
    if (b == 0) return A_DIVZERO;
    if (a == INT64_MIN && b == -1) return A_OVERFLOW;
    *r = a / b;
    return A_OK;
}

static inline arith_status op_mod(int64_t a, int64_t b, int64_t *r)
{
    if (b == 0) return A_MODZERO;
    /* The result would be 0, but C leaves a % b undefined whenever a / b
     * overflows, so it is reported like the division. */
    if (a == INT64_MIN && b == -1) return A_OVERFLOW;
    *r = a % b;
    return A_OK;
}

static inline arith_status op_shl(int64_t a, int64_t b, int64_t *r)
{
    if (b < 0 || b > 63) return A_SHIFTRANGE;
    if (a < 0) return A_SHLNEG;
    if (a > (INT64_MAX >> b)) return A_OVERFLOW;
    *r = a << b;
    return A_OK;
}

static inline arith_status op_shr(int64_t a, int64_t b, int64_t *r)
{
    if (b < 0 || b > 63) return A_SHIFTRANGE;
    /* >> of a negative value is implementation-defined in C; this form is
     * arithmetic everywhere and compiles to one shift. */
    *r = a < 0 ? ~(~a >> b) : a >> b;
    return A_OK;
}

#define SIMPLE_OP(name, expr)                                            \
    static inline arith_status name(int64_t a, int64_t b, int64_t *r)   \
    {                                                                    \
        *r = (expr);                                                     \
        return A_OK;                                                     \
    }

SIMPLE_OP(op_lt, a < b)
SIMPLE_OP(op_le, a <= b)
SIMPLE_OP(op_gt, a > b)
SIMPLE_OP(op_ge, a >= b)
SIMPLE_OP(op_eq, a == b)
SIMPLE_OP(op_ne, a != b)
SIMPLE_OP(op_band, a & b)
SIMPLE_OP(op_bxor, a ^ b)
SIMPLE_OP(op_bor, a | b)
SIMPLE_OP(op_min, a < b ? a : b)
SIMPLE_OP(op_max, a > b ? a : b)

static inline arith_status arith(int op, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case OP_MUL: return op_mul(a, b, r);
    case OP_DIV: return op_div(a, b, r);
    case OP_MOD: return op_mod(a, b, r);
    case OP_ADD: return op_add(a, b, r);
    case OP_SUB: return op_sub(a, b, r);
    case OP_SHL: return op_shl(a, b, r);
    case OP_SHR: return op_shr(a, b, r);
    case OP_LT: return op_lt(a, b, r);
    case OP_LE: return op_le(a, b, r);
    case OP_GT: return op_gt(a, b, r);
    case OP_GE: return op_ge(a, b, r);
    case OP_EQ: return op_eq(a, b, r);
    case OP_NE: return op_ne(a, b, r);
    case OP_BAND: return op_band(a, b, r);
    case OP_BXOR: return op_bxor(a, b, r);
    case OP_BOR: return op_bor(a, b, r);
    case OP_MIN: return op_min(a, b, r);
    default: return op_max(a, b, r);
    }
}

/* }====================================================== */

/* Fills *err: the place `at` in the text and the formatted message. */
void rc_expr_set_error(rc_expr_error *err, span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The message for an arithmetic failure `st` of a op b at `at`:
 * "division by zero", "overflow in 9223372036854775807 + 1", ... */
void rc_expr_arith_error(rc_expr_error *err, span at, arith_status st, int op,
                         int64_t a, int64_t b);

/* The message for -a overflowing (a is INT64_MIN). */
void rc_expr_neg_error(rc_expr_error *err, span at, int64_t a);

#endif
