/* expr_eval.c: evaluating an expression's code at one point, and what the
 * other files ask of the code (its size, the slots it reads).
 *
 * Evaluation is one loop and one switch over the instructions, with the top
 * of the stack in a local and the rest in a fixed-size array in the
 * caller's frame: no allocation, no recursion. The parser's nesting limit
 * bounds the stack height (EVAL_STACK), which it also measures and checks.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/expr.h"
#include "model/expr_code.h"

/* ORDER OP, arithmetic opcodes only. */
static const char *const opnames[] = {
    "*", "/", "%", "+", "-", "<<", ">>",
    "<", "<=", ">", ">=", "==", "!=",
    "&", "^", "|", "min", "max"
};

_Static_assert(sizeof(opnames) / sizeof(opnames[0]) == OP_MAX + 1,
               "opnames is in ORDER OP");

void rc_expr_set_error(rc_expr_error *err, span at, const char *fmt, ...)
{
    va_list ap;
    err->offset = at.off;
    err->length = at.len;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void rc_expr_arith_error(rc_expr_error *err, span at, arith_status st, int op,
                         int64_t a, int64_t b)
{
    switch (st) {
    case A_DIVZERO:
        rc_expr_set_error(err, at, "division by zero");
        break;
    case A_MODZERO:
        rc_expr_set_error(err, at, "modulo by zero");
        break;
    case A_SHIFTRANGE:
        rc_expr_set_error(err, at, "shift count %" PRId64 " is out of range (0 to 63)", b);
        break;
    case A_SHLNEG:
        rc_expr_set_error(err, at, "left shift of negative value %" PRId64, a);
        break;
    default: /* A_OVERFLOW */
        rc_expr_set_error(err, at, "overflow in %" PRId64 " %s %" PRId64, a, opnames[op], b);
        break;
    }
}

void rc_expr_neg_error(rc_expr_error *err, span at, int64_t a)
{
    rc_expr_set_error(err, at, "overflow in -(%" PRId64 ")", a);
}

void rc_expr_free(rc_expr *e) { free(e); }

bool rc_expr_is_const(const rc_expr *e, int64_t *value)
{
    if (!e->isconst) return false;
    if (value != NULL) *value = e->value;
    return true;
}

/* The five cases of one arithmetic operator: fetch the operands where the
 * mode says, then share the operator's code. */
#define ARITH_CASES(opc, fn)                                              \
    case KEY(opc, M_STACK): a = stack[--sp]; b = top; goto fn##_;        \
    case KEY(opc, M_KR): a = top; b = i->k; goto fn##_;                  \
    case KEY(opc, M_KL): a = i->k; b = top; goto fn##_;                  \
    case KEY(opc, M_SR): a = top; b = slots[i->arg]; goto fn##_;         \
    case KEY(opc, M_SL): a = slots[i->arg]; b = top;                     \
    fn##_:                                                               \
        if ((st = fn(a, b, &top)) != A_OK) goto fail;                    \
        i++;                                                             \
        continue;

bool rc_expr_eval(const rc_expr *e, const int64_t *slots, int64_t *out,
                  rc_expr_error *err)
{
    int64_t stack[EVAL_STACK]; /* the values below top */
    int64_t top = 0, a, b;
    size_t sp = 0;
    const instr *code = e->code, *i = code;
    arith_status st;
    for (;;) {
        switch (i->key) {
        ARITH_CASES(OP_MUL, op_mul)
        ARITH_CASES(OP_DIV, op_div)
        ARITH_CASES(OP_MOD, op_mod)
        ARITH_CASES(OP_ADD, op_add)
        ARITH_CASES(OP_SUB, op_sub)
        ARITH_CASES(OP_SHL, op_shl)
        ARITH_CASES(OP_SHR, op_shr)
        ARITH_CASES(OP_LT, op_lt)
        ARITH_CASES(OP_LE, op_le)
        ARITH_CASES(OP_GT, op_gt)
        ARITH_CASES(OP_GE, op_ge)
        ARITH_CASES(OP_EQ, op_eq)
        ARITH_CASES(OP_NE, op_ne)
        ARITH_CASES(OP_BAND, op_band)
        ARITH_CASES(OP_BXOR, op_bxor)
        ARITH_CASES(OP_BOR, op_bor)
        ARITH_CASES(OP_MIN, op_min)
        ARITH_CASES(OP_MAX, op_max)
        case KEY_OTHER(OP_LOADK):
            stack[sp++] = top;
            top = i->k;
            i++;
            continue;
        case KEY_OTHER(OP_LOADS):
            stack[sp++] = top;
            top = slots[i->arg];
            i++;
            continue;
        case KEY_OTHER(OP_NEG):
            if (top == INT64_MIN) {
                if (err != NULL) rc_expr_neg_error(err, e->pos[i - code], top);
                return false;
            }
            top = -top;
            i++;
            continue;
        case KEY_OTHER(OP_NOT): top = !top; i++; continue;
        case KEY_OTHER(OP_BNOT): top = ~top; i++; continue;
        case KEY_OTHER(OP_BOOL): top = top != 0; i++; continue;
        case KEY_OTHER(OP_JMP): i = code + i->arg; continue;
        case KEY_OTHER(OP_JZ): {
            int64_t c = top;
            top = stack[--sp];
            i = c == 0 ? code + i->arg : i + 1;
            continue;
        }
        case KEY_OTHER(OP_JZKEEP):
            if (top == 0) {
                i = code + i->arg;
            } else {
                top = stack[--sp];
                i++;
            }
            continue;
        case KEY_OTHER(OP_JNZKEEP):
            if (top != 0) {
                top = 1;
                i = code + i->arg;
            } else {
                top = stack[--sp];
                i++;
            }
            continue;
        default: /* OP_END */
            *out = top;
            return true;
        }
    }
fail:
    if (err != NULL) rc_expr_arith_error(err, e->pos[i - code], st, i->op, a, b);
    return false;
}

#undef ARITH_CASES

size_t rc_expr_size(const rc_expr *e) { return e->ncode > 0 ? e->ncode : 1; }

void rc_expr_mark_reads(const rc_expr *e, bool *reads, int nslots)
{
    size_t pc;
    for (pc = 0; pc < e->ncode; pc++) {
        const instr *i = &e->code[pc];
        bool slot = i->op == OP_LOADS ||
                    (IS_ARITH(i->op) && (i->mode == M_SR || i->mode == M_SL));
        if (slot && i->arg >= 0 && i->arg < nslots) reads[i->arg] = true;
    }
}
