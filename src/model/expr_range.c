/* expr_range.c: what an expression's code says over ranges of slot values
 * (for the evaluator's boxes of indices) and whether it is affine in one
 * slot (for stepping an index along its loop). See expr.h.
 */
#include <stdbool.h>
#include <stdint.h>

#include "model/expr.h"
#include "model/expr_code.h"

/*
** {======================================================
** Evaluation over ranges (for the evaluator's boxes of indices)
** =======================================================
*/

typedef struct {
    int64_t lo, hi;
} range;

static range point(int64_t v) { return (range){v, v}; }

static bool range_is(range r, int64_t v) { return r.lo == v && r.hi == v; }

/* The four corner results of a binary operator that is monotone in each
 * operand over the ranges given; false if any corner fails. */
static bool corners(int op, range a, range b, range *r)
{
    int64_t v[4];
    if (arith(op, a.lo, b.lo, &v[0]) != A_OK || arith(op, a.lo, b.hi, &v[1]) != A_OK ||
        arith(op, a.hi, b.lo, &v[2]) != A_OK || arith(op, a.hi, b.hi, &v[3]) != A_OK)
        return false;
    r->lo = r->hi = v[0];
    for (int j = 1; j < 4; j++) {
        if (v[j] < r->lo) r->lo = v[j];
        if (v[j] > r->hi) r->hi = v[j];
    }
    return true;
}

/* One arithmetic operator over ranges; false when it may fail. */
static bool arith_range(int op, range a, range b, range *r)
{
    if (a.lo == a.hi && b.lo == b.hi) {
        int64_t v;
        if (arith(op, a.lo, b.lo, &v) != A_OK) return false;
        *r = point(v);
        return true;
    }
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MIN: case OP_MAX:
        /* monotone in both operands; overflow anywhere shows at a corner */
        if (op == OP_SUB) {
            int64_t lo, hi;
            if (__builtin_sub_overflow(a.lo, b.hi, &lo) ||
                __builtin_sub_overflow(a.hi, b.lo, &hi)) return false;
            *r = (range){lo, hi};
            return true;
        }
        return corners(op, a, b, r);
    case OP_MUL:
        /* bilinear: its extremes are at the corners */
        return corners(op, a, b, r);
    case OP_DIV:
        /* with the divisor's sign fixed, truncating division is monotone in
         * each operand */
        if (b.lo <= 0 && b.hi >= 0) return false;
        if (a.lo == INT64_MIN && b.lo <= -1 && b.hi >= -1) return false;
        return corners(op, a, b, r);
    case OP_MOD: {
        if (b.lo <= 0 && b.hi >= 0) return false;
        if (a.lo == INT64_MIN && b.lo <= -1 && b.hi >= -1) return false;
        /* |a % b| < |b| and a % b has the sign of a */
        int64_t m = b.lo > 0 ? b.hi - 1 : -(b.lo + 1);
        if (b.lo == b.hi && a.lo >= 0 && a.hi - a.lo < b.lo && a.lo % b.lo <= a.hi % b.lo) {
            *r = (range){a.lo % b.lo, a.hi % b.lo}; /* no wrap inside */
            return true;
        }
        r->lo = a.lo < 0 ? (a.lo < -m ? -m : a.lo) : 0;
        r->hi = a.hi > 0 ? (a.hi > m ? m : a.hi) : 0;
        return true;
    }
    case OP_SHL:
        if (b.lo < 0 || b.hi > 63 || a.lo < 0) return false;
        return corners(op, a, b, r);
    case OP_SHR:
        if (b.lo < 0 || b.hi > 63) return false;
        return corners(op, a, b, r);
    case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE: {
        /* decided when the ranges leave no choice */
        bool always, never;
        switch (op) {
        case OP_LT: always = a.hi < b.lo; never = a.lo >= b.hi; break;
        case OP_LE: always = a.hi <= b.lo; never = a.lo > b.hi; break;
        case OP_GT: always = a.lo > b.hi; never = a.hi <= b.lo; break;
        case OP_GE: always = a.lo >= b.hi; never = a.hi < b.lo; break;
        case OP_EQ: always = false; never = a.hi < b.lo || b.hi < a.lo; break;
        default: always = a.hi < b.lo || b.hi < a.lo; never = false; break;
        }
        *r = always ? point(1) : never ? point(0) : (range){0, 1};
        return true;
    }
    default: /* bitwise: any value */
        *r = (range){INT64_MIN, INT64_MAX};
        return true;
    }
}

bool rc_expr_eval_range(const rc_expr *e, const int64_t *lo, const int64_t *hi,
                        int64_t *out_lo, int64_t *out_hi)
{
    range stack[EVAL_STACK], top = {0, 0}, a, b;
    size_t sp = 0;
    const instr *code = e->code, *i = code;
    for (;;) {
        int op = i->op;
        if (IS_ARITH(op)) {
            switch (i->mode) {
            case M_STACK: a = stack[--sp]; b = top; break;
            case M_KR: a = top; b = point(i->k); break;
            case M_KL: a = point(i->k); b = top; break;
            case M_SR: a = top; b = (range){lo[i->arg], hi[i->arg]}; break;
            default: a = (range){lo[i->arg], hi[i->arg]}; b = top; break;
            }
            if (!arith_range(op, a, b, &top)) return false;
            i++;
            continue;
        }
        switch (op) {
        case OP_LOADK:
            stack[sp++] = top;
            top = point(i->k);
            break;
        case OP_LOADS:
            stack[sp++] = top;
            top = (range){lo[i->arg], hi[i->arg]};
            break;
        case OP_NEG:
            if (top.lo == INT64_MIN) return false;
            top = (range){-top.hi, -top.lo};
            break;
        case OP_NOT:
            top = range_is(top, 0) ? point(1) : (top.lo > 0 || top.hi < 0) ? point(0) : (range){0, 1};
            break;
        case OP_BNOT: top = (range){~top.hi, ~top.lo}; break;
        case OP_BOOL:
            top = range_is(top, 0) ? point(0) : (top.lo > 0 || top.hi < 0) ? point(1) : (range){0, 1};
            break;
        case OP_JMP: i = code + i->arg; continue;
        case OP_JZ: {
            range c = top;
            top = stack[--sp];
            if (range_is(c, 0)) { i = code + i->arg; continue; }
            if (c.lo <= 0 && c.hi >= 0) return false; /* both ways */
            break;
        }
        case OP_JZKEEP:
            if (range_is(top, 0)) { i = code + i->arg; continue; }
            if (top.lo <= 0 && top.hi >= 0) return false;
            top = stack[--sp];
            break;
        case OP_JNZKEEP:
            if (top.lo > 0 || top.hi < 0) { top = point(1); i = code + i->arg; continue; }
            if (!range_is(top, 0)) return false;
            top = stack[--sp];
            break;
        default: /* OP_END */
            *out_lo = top.lo;
            *out_hi = top.hi;
            return true;
        }
        i++;
    }
}

/* }====================================================== */


/*
** {======================================================
** Affine analysis (for stepping an index along its loop)
** =======================================================
*/

/* An operand of the affine analysis: coef x slot + rest, where rest does
 * not read the slot and is the constant k when isk. */
typedef struct {
    bool dep, isk;
    int64_t k, c;
} affine_val;

static bool affine_op(int op, affine_val a, affine_val b, affine_val *r)
{
    *r = (affine_val){false, false, 0, 0};
    switch (op) {
    case OP_ADD:
    case OP_SUB:
        r->dep = a.dep || b.dep;
        if (op == OP_ADD ? __builtin_add_overflow(a.c, b.c, &r->c) : __builtin_sub_overflow(a.c, b.c, &r->c))
            return false;
        r->isk = a.isk && b.isk && !(op == OP_ADD ? __builtin_add_overflow(a.k, b.k, &r->k)
                                                  : __builtin_sub_overflow(a.k, b.k, &r->k));
        return true;
    case OP_MUL:
        if (a.dep && b.dep)
            return false;
        if (a.dep || b.dep) {
            affine_val v = a.dep ? a : b, f = a.dep ? b : a;
            r->dep = true;
            return f.isk && !__builtin_mul_overflow(v.c, f.k, &r->c);
        }
        r->isk = a.isk && b.isk && !__builtin_mul_overflow(a.k, b.k, &r->k);
        return true;
    case OP_SHL:
        if (b.dep)
            return false;
        if (a.dep) {
            r->dep = true;
            return b.isk && b.k >= 0 && b.k < 62 && !__builtin_mul_overflow(a.c, (int64_t)1 << b.k, &r->c);
        }
        return true;
    default:
        return !a.dep && !b.dep; /* anything else of the slot is not affine */
    }
}

bool rc_expr_affine(const rc_expr *e, int slot, int64_t *coef)
{
    affine_val stack[EVAL_STACK], top = {false, false, 0, 0}, a, b;
    size_t sp = 0;
    for (const instr *i = e->code;; i++) {
        if (IS_ARITH(i->op)) {
            affine_val imm = i->mode == M_KR || i->mode == M_KL
                                 ? (affine_val){false, true, i->k, 0}
                                 : (affine_val){i->arg == slot, false, 0, i->arg == slot};
            switch (i->mode) {
            case M_STACK: a = stack[--sp]; b = top; break;
            case M_KR: case M_SR: a = top; b = imm; break;
            default: a = imm; b = top; break;
            }
            if (!affine_op(i->op, a, b, &top))
                return false;
            continue;
        }
        switch (i->op) {
        case OP_LOADK:
            stack[sp++] = top;
            top = (affine_val){false, true, i->k, 0};
            break;
        case OP_LOADS:
            stack[sp++] = top;
            top = (affine_val){i->arg == slot, false, 0, i->arg == slot};
            break;
        case OP_NEG:
            if (__builtin_sub_overflow(0, top.c, &top.c))
                return false;
            top.isk = top.isk && top.k != INT64_MIN;
            top.k = top.isk ? -top.k : 0;
            break;
        case OP_NOT: case OP_BNOT: case OP_BOOL:
            if (top.dep)
                return false;
            top.isk = false;
            break;
        case OP_END:
            *coef = top.dep ? top.c : 0;
            return true;
        default: /* jumps: && || ?: */
            return false;
        }
    }
}

/* }====================================================== */
