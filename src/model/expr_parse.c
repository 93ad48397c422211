/* expr_parse.c: the parser and constant folder of work-model expressions.
 *
 * Modeled on Lua's lparser.c/lcode.c: over a one-token-lookahead lexer
 * (expr_lex.c), a precedence-climbing parser whose operator priorities come
 * from a table, a nesting limit, and code generation during parsing (there
 * is no tree).
 * Each operand is described by an `expdesc` that is either a pending
 * constant, a pending slot, or a value already computed on the stack of the
 * evaluator; pending operands are emitted only when needed, so `i + 1` is
 * two instructions (LOADS i; ADD K 1) and constant operands fold away.
 *
 * The result is the code of expr_code.h, which expr_eval.c runs. The
 * nesting limit bounds the evaluator's stack height, which the parser also
 * measures and checks.
 *
 * Folding that fails (1 / 0, INT64_MAX + 1) is not reported at once: the
 * failing operation is emitted as code and remembered. If the code is later
 * dropped as dead (`0 && 1 / 0`, `K == 0 ? 0 : N / K` with K constant 0) so
 * is the failure; any failure left at the end is a parse error, since that
 * code could only ever fail.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "model/expr_code.h"
#include "model/expr_parser.h"
#include "util/array.h"

/* Jump targets and slots are int32_t. */
#define MAX_CODE ((size_t)INT32_MAX)

/*
** {======================================================
** Code generation
** =======================================================
*/

typedef enum { V_CONST, V_SLOT, V_STACK } expkind;

/* An operand: a constant or a slot not yet emitted, or a value already on
 * top of the evaluation stack. */
typedef struct {
    expkind k;
    bool isbool; /* V_STACK known to be 0 or 1 */
    int64_t val; /* V_CONST */
    int slot;    /* V_SLOT */
} expdesc;

static void init_const(expdesc *v, int64_t val)
{
    v->k = V_CONST;
    v->val = val;
    v->isbool = false;
}

static bool is_bool(const expdesc *v)
{
    return v->k == V_CONST ? (v->val == 0 || v->val == 1)
                           : v->k == V_STACK && v->isbool;
}

_Noreturn static void nomem(parser *p)
{
    rc_expr_error_at(p, p->tok.at, "out of memory");
}

static size_t emit(parser *p, int op, int mode, int32_t arg, int64_t k,
                   span at)
{
    if (p->ncode == p->capcode && p->ncode >= MAX_CODE)
        rc_expr_error_at(p, p->tok.at, "expression too long");
    if (!RC_GROW(p->code, p->capcode, p->ncode + 1) || !RC_GROW(p->pos, p->cappos, p->ncode + 1))
        nomem(p);
    p->code[p->ncode] = (instr){
        (uint8_t)(IS_ARITH(op) ? KEY(op, mode) : KEY_OTHER(op)), (uint8_t)op,
        (uint8_t)mode, arg, k};
    p->pos[p->ncode] = at;
    return p->ncode++;
}

static void push(parser *p)
{
    if (++p->sp > p->maxsp) {
        p->maxsp = p->sp;
        /* Unreachable while the nesting limit holds; kept so that a change
         * there can never overrun the evaluator's stack. */
        if (p->maxsp > EVAL_STACK)
            rc_expr_error_at(p, p->tok.at,
                             "expression nested too deeply (more than %d levels)",
                             RC_EXPR_MAX_DEPTH);
    }
}

static void patch(parser *p, size_t jump)
{
    p->code[jump].arg = (int32_t)p->ncode;
}

static mark getmark(const parser *p)
{
    mark m = {p->ncode, p->nfails, p->sp};
    return m;
}

/* Drops the code emitted since `m`: it belongs to a branch that constant
 * folding proved dead, and so do its folding failures. */
static void rollback(parser *p, const mark *m)
{
    p->ncode = m->ncode;
    p->nfails = m->nfails;
    p->sp = m->sp;
}

static void to_stack(parser *p, expdesc *v)
{
    static const span nowhere = {0, 0};
    if (v->k == V_CONST) {
        emit(p, OP_LOADK, 0, 0, v->val, nowhere);
        push(p);
        v->isbool = v->val == 0 || v->val == 1;
    } else if (v->k == V_SLOT) {
        emit(p, OP_LOADS, 0, v->slot, 0, nowhere);
        push(p);
        v->isbool = false;
    }
    v->k = V_STACK;
}

static void to_bool_stack(parser *p, expdesc *v, span at)
{
    bool wasbool = is_bool(v);
    to_stack(p, v);
    if (!wasbool) emit(p, OP_BOOL, 0, 0, 0, at);
    v->isbool = true;
}

static void add_failure(parser *p, const rc_expr_error *err)
{
    if (!RC_GROW(p->fails, p->capfails, p->nfails + 1)) nomem(p);
    p->fails[p->nfails].pc = p->ncode;
    p->fails[p->nfails].err = *err;
    p->nfails++;
}

/* v = v op v2, for the arithmetic opcodes. */
static void code_arith(parser *p, int op, expdesc *v, expdesc *v2, span at)
{
    bool isbool = IS_COMPARISON(op);
    if (v->k == V_CONST && v2->k == V_CONST) {
        int64_t r;
        arith_status st = arith(op, v->val, v2->val, &r);
        if (st == A_OK) {
            init_const(v, r);
            return;
        }
        /* Kept as code that fails when run; see the top of the file. */
        rc_expr_error err;
        rc_expr_arith_error(&err, at, st, op, v->val, v2->val);
        add_failure(p, &err);
    }
    if (v->k != V_STACK && v2->k != V_STACK) to_stack(p, v);
    if (v->k == V_STACK && v2->k == V_STACK) {
        emit(p, op, M_STACK, 0, 0, at);
        p->sp--;
    } else if (v2->k == V_CONST) {
        emit(p, op, M_KR, 0, v2->val, at);
    } else if (v2->k == V_SLOT) {
        emit(p, op, M_SR, v2->slot, 0, at);
    } else if (v->k == V_CONST) {
        emit(p, op, M_KL, 0, v->val, at);
    } else {
        emit(p, op, M_SL, v->slot, 0, at);
    }
    v->k = V_STACK;
    v->isbool = isbool;
}

/* }====================================================== */


/*
** {======================================================
** Parser
** =======================================================
*/

typedef enum {
    OPR_MINUS, OPR_PLUS, OPR_NOT, OPR_BNOT, OPR_NOUNOPR
} unopr;

/* ORDER OPR: the arithmetic operators are in ORDER OP. */
typedef enum {
    OPR_MUL, OPR_DIV, OPR_MOD, OPR_ADD, OPR_SUB, OPR_SHL, OPR_SHR,
    OPR_LT, OPR_LE, OPR_GT, OPR_GE, OPR_EQ, OPR_NE,
    OPR_BAND, OPR_BXOR, OPR_BOR,
    OPR_AND, OPR_OR,
    OPR_NOBINOPR
} binopr;

_Static_assert((int)OPR_MUL == (int)OP_MUL && (int)OPR_BOR == (int)OP_BOR,
               "the arithmetic binopr are opcodes");

/* C's priorities, ORDER OPR. All binary operators associate to the left,
 * so left == right; ?: (priority 0, right-associative) is handled by expr. */
static const struct {
    uint8_t left;  /* priority when the operator is on the left */
    uint8_t right; /* priority when it is on the right */
} priority[] = {
    {10, 10}, {10, 10}, {10, 10}, /* * / % */
    {9, 9}, {9, 9},               /* + - */
    {8, 8}, {8, 8},               /* << >> */
    {7, 7}, {7, 7}, {7, 7}, {7, 7}, /* < <= > >= */
    {6, 6}, {6, 6},               /* == != */
    {5, 5},                       /* & */
    {4, 4},                       /* ^ */
    {3, 3},                       /* | */
    {2, 2},                       /* && and */
    {1, 1}                        /* || or */
};

_Static_assert(sizeof(priority) / sizeof(priority[0]) == OPR_NOBINOPR,
               "priority is in ORDER OPR");

#define UNARY_PRIORITY 11 /* priority for unary operators */

static unopr getunopr(int t)
{
    switch (t) {
    case '-': return OPR_MINUS;
    case '+': return OPR_PLUS;
    case TK_NOT: return OPR_NOT;
    case '~': return OPR_BNOT;
    default: return OPR_NOUNOPR;
    }
}

static binopr getbinopr(int t)
{
    switch (t) {
    case '*': return OPR_MUL;
    case '/': return OPR_DIV;
    case '%': return OPR_MOD;
    case '+': return OPR_ADD;
    case '-': return OPR_SUB;
    case TK_SHL: return OPR_SHL;
    case TK_SHR: return OPR_SHR;
    case '<': return OPR_LT;
    case TK_LE: return OPR_LE;
    case '>': return OPR_GT;
    case TK_GE: return OPR_GE;
    case TK_EQ: return OPR_EQ;
    case TK_NE: return OPR_NE;
    case '&': return OPR_BAND;
    case '^': return OPR_BXOR;
    case '|': return OPR_BOR;
    case TK_AND: return OPR_AND;
    case TK_OR: return OPR_OR;
    default: return OPR_NOBINOPR;
    }
}

/* Every expr, unary operand and right operand is one level, so the C stack
 * (and the evaluation stack) stay bounded whatever the input. */
static void enterlevel(parser *p)
{
    if (++p->level > RC_EXPR_MAX_DEPTH)
        rc_expr_error_at(p, p->tok.at,
                         "expression nested too deeply (more than %d levels)",
                         RC_EXPR_MAX_DEPTH);
}

static void leavelevel(parser *p) { p->level--; }

_Noreturn static void error_expected(parser *p, span open,
                                     const char *what, const char *close,
                                     const char *opener)
{
    rc_expr_error_at(p, p->tok.at, "'%s' expected (to %s '%s' at column %zu)", what,
                     close, opener, open.off + 1);
}

static void expr(parser *p, expdesc *v);

/* NAME, bound by the resolver */
static void singlevar(parser *p, expdesc *v)
{
    char buf[QUOTE_MAX + 4];
    span at = p->tok.at;
    rc_name_binding b = {RC_NAME_UNKNOWN, 0, 0};
    if (p->resolve != NULL) b = p->resolve(p->ctx, p->text + at.off, at.len);
    switch (b.kind) {
    case RC_NAME_CONST:
        init_const(v, b.value);
        break;
    case RC_NAME_SLOT:
        if (b.slot < 0)
            rc_expr_error_at(p, at, "name '%s' is bound to slot %d",
                             rc_expr_tokentext(p, at, buf), b.slot);
        v->k = V_SLOT;
        v->slot = b.slot;
        v->isbool = false;
        break;
    default:
        rc_expr_error_at(p, at, "unknown name '%s'", rc_expr_tokentext(p, at, buf));
    }
    rc_expr_next(p);
}

/* funcall -> ('min' | 'max') '(' expr ',' expr ')' */
static void funcall(parser *p, expdesc *v)
{
    span name = p->tok.at, open;
    int op = p->tok.t == TK_MIN ? OP_MIN : OP_MAX;
    expdesc v2;
    rc_expr_next(p);
    open = p->tok.at; /* the lexer saw it: '(' */
    rc_expr_next(p);
    expr(p, v);
    if (p->tok.t != ',')
        rc_expr_error_at(p, p->tok.at, "',' expected (min and max take two arguments)");
    rc_expr_next(p);
    expr(p, &v2);
    if (p->tok.t != ')') error_expected(p, open, ")", "close", "(");
    rc_expr_next(p);
    code_arith(p, op, v, &v2, name);
}

/* primaryexp -> NUMBER | NAME | '(' expr ')' | funcall */
static void primaryexp(parser *p, expdesc *v)
{
    char buf[QUOTE_MAX + 4];
    switch (p->tok.t) {
    case TK_NUMBER:
        init_const(v, p->tok.num);
        rc_expr_next(p);
        return;
    case TK_NAME:
        singlevar(p, v);
        return;
    case '(': {
        span open = p->tok.at;
        rc_expr_next(p);
        expr(p, v);
        if (p->tok.t != ')') error_expected(p, open, ")", "close", "(");
        rc_expr_next(p);
        return;
    }
    case TK_MIN:
    case TK_MAX:
        funcall(p, v);
        return;
    case TK_EOS:
        rc_expr_error_at(p, p->tok.at, "unexpected end of expression "
                               "(expected a number, a name or '(')");
    default:
        rc_expr_error_at(p, p->tok.at,
                         "unexpected '%s' (expected a number, a name or '(')",
                         rc_expr_tokentext(p, p->tok.at, buf));
    }
}

static void prefix(parser *p, unopr op, expdesc *v, span at)
{
    switch (op) {
    case OPR_MINUS:
        if (v->k == V_CONST) {
            if (v->val != INT64_MIN) {
                v->val = -v->val;
                return;
            }
            rc_expr_error err;
            rc_expr_neg_error(&err, at, v->val);
            add_failure(p, &err);
        }
        to_stack(p, v);
        emit(p, OP_NEG, 0, 0, 0, at);
        v->isbool = false;
        return;
    case OPR_NOT:
        if (v->k == V_CONST) {
            v->val = !v->val;
            return;
        }
        to_stack(p, v);
        emit(p, OP_NOT, 0, 0, 0, at);
        v->isbool = true;
        return;
    case OPR_BNOT:
        if (v->k == V_CONST) {
            v->val = ~v->val;
            return;
        }
        to_stack(p, v);
        emit(p, OP_BNOT, 0, 0, 0, at);
        v->isbool = false;
        return;
    default: /* OPR_PLUS */
        return;
    }
}

/* What infix leaves for posfix while the right operand is parsed. */
typedef struct {
    mark m;      /* && || with a constant left: code of the right operand */
    size_t jump; /* && || otherwise: the jump over the right operand */
} pending;

static void infix(parser *p, binopr op, expdesc *v, pending *pd, span at)
{
    if (op != OPR_AND && op != OPR_OR) return; /* operands stay pending */
    if (v->k == V_CONST) {
        pd->m = getmark(p);
        return;
    }
    to_stack(p, v);
    pd->jump = emit(p, op == OPR_AND ? OP_JZKEEP : OP_JNZKEEP, 0, 0, 0, at);
    p->sp--; /* when it falls through */
}

static void posfix(parser *p, binopr op, expdesc *v, expdesc *v2,
                   const pending *pd, span at)
{
    if (op != OPR_AND && op != OPR_OR) {
        code_arith(p, (int)op, v, v2, at);
        return;
    }
    if (v->k == V_CONST) {
        if ((v->val != 0) == (op == OPR_OR)) { /* 0 && ..., 1 || ... */
            rollback(p, &pd->m);
            init_const(v, op == OPR_OR);
        } else if (v2->k == V_CONST) {
            init_const(v, v2->val != 0);
        } else {
            *v = *v2;
            to_bool_stack(p, v, at);
        }
        return;
    }
    to_bool_stack(p, v2, at);
    patch(p, pd->jump);
    v->k = V_STACK;
    v->isbool = true;
}

/* subexpr -> (unop subexpr | primaryexp) { binop subexpr }
 * where 'binop' is any binary operator with a priority higher than 'limit' */
static void subexpr(parser *p, expdesc *v, int limit)
{
    binopr op;
    unopr uop = getunopr(p->tok.t);
    if (uop != OPR_NOUNOPR) {
        span at = p->tok.at;
        rc_expr_next(p);
        enterlevel(p);
        subexpr(p, v, UNARY_PRIORITY);
        leavelevel(p);
        prefix(p, uop, v, at);
    } else {
        primaryexp(p, v);
    }
    /* expand while operators have priorities higher than 'limit' */
    op = getbinopr(p->tok.t);
    while (op != OPR_NOBINOPR && priority[op].left > limit) {
        span at = p->tok.at;
        expdesc v2;
        pending pd = {{0, 0, 0}, 0};
        rc_expr_next(p);
        infix(p, op, v, &pd, at);
        enterlevel(p);
        subexpr(p, &v2, priority[op].right);
        leavelevel(p);
        posfix(p, op, v, &v2, &pd, at);
        op = getbinopr(p->tok.t);
    }
}

/* The branches of a ?: whose condition folded: the other branch is parsed
 * (it must still be valid) and dropped. */
static void cond_const(parser *p, expdesc *v, span q)
{
    bool live = v->val != 0;
    expdesc t, f;
    mark m = getmark(p);
    expr(p, &t);
    if (!live) rollback(p, &m);
    if (p->tok.t != ':') error_expected(p, q, ":", "complete", "?");
    rc_expr_next(p);
    m = getmark(p);
    expr(p, &f);
    if (live) rollback(p, &m);
    *v = live ? t : f;
}

static void cond_runtime(parser *p, expdesc *v, span q)
{
    expdesc t, f;
    size_t jz, jmp;
    to_stack(p, v);
    jz = emit(p, OP_JZ, 0, 0, 0, q);
    p->sp--;
    expr(p, &t);
    to_stack(p, &t);
    jmp = emit(p, OP_JMP, 0, 0, 0, q);
    p->sp--; /* the else branch starts where the then branch did */
    patch(p, jz);
    if (p->tok.t != ':') error_expected(p, q, ":", "complete", "?");
    rc_expr_next(p);
    expr(p, &f);
    to_stack(p, &f);
    patch(p, jmp);
    v->k = V_STACK;
    v->isbool = t.isbool && f.isbool;
}

/* expr -> subexpr [ '?' expr ':' expr ] */
static void expr(parser *p, expdesc *v)
{
    enterlevel(p);
    subexpr(p, v, 0);
    if (p->tok.t == '?') {
        span q = p->tok.at;
        rc_expr_next(p);
        if (v->k == V_CONST) cond_const(p, v, q);
        else cond_runtime(p, v, q);
    }
    leavelevel(p);
}

/* Parses the whole text into p->code; false with *p->err on error. Kept
 * apart from rc_expr_parse so that no local of the function that calls
 * setjmp changes before a longjmp. */
static bool protected_parse(parser *p, bool *isconst, int64_t *value)
{
    expdesc v;
    char buf[QUOTE_MAX + 4];
    if (setjmp(p->jb) != 0) return false;
    rc_expr_next(p);
    if (p->tok.t == TK_EOS) rc_expr_error_at(p, p->tok.at, "empty expression");
    expr(p, &v);
    if (p->tok.t != TK_EOS)
        rc_expr_error_at(p, p->tok.at, "unexpected '%s' after the end of the expression",
                         rc_expr_tokentext(p, p->tok.at, buf));
    if (p->nfails > 0) {
        *p->err = p->fails[0].err;
        return false;
    }
    *isconst = v.k == V_CONST;
    *value = v.val;
    to_stack(p, &v);
    emit(p, OP_END, 0, 0, 0, p->tok.at);
    return true;
}

/* }====================================================== */


rc_expr *rc_expr_parse(const char *text, rc_name_resolver resolve, void *ctx,
                       rc_expr_error *err)
{
    parser p;
    rc_expr *e = NULL;
    bool isconst = false;
    int64_t value = 0;
    rc_expr_error scratch;
    memset(&p, 0, sizeof p);
    if (err == NULL) err = &scratch;
    memset(err, 0, sizeof *err);
    p.text = text != NULL ? text : "";
    p.resolve = resolve;
    p.ctx = ctx;
    p.err = err;
    if (protected_parse(&p, &isconst, &value)) {
        e = malloc(sizeof *e + p.ncode * (sizeof(instr) + sizeof(span)));
        if (e == NULL) {
            rc_expr_set_error(err, p.tok.at, "out of memory");
        } else {
            span *pos = (span *)(e->code + p.ncode);
            e->ncode = p.ncode;
            e->isconst = isconst;
            e->value = value;
            memcpy(e->code, p.code, p.ncode * sizeof(instr));
            memcpy(pos, p.pos, p.ncode * sizeof(span));
            e->pos = pos;
        }
    }
    free(p.code);
    free(p.pos);
    free(p.fails);
    return e;
}
