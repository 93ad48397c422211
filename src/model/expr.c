/* expr.c: parser, constant folder and evaluator of work-model expressions.
 *
 * Modeled on Lua's lparser.c/lcode.c: a one-token-lookahead lexer, a
 * precedence-climbing parser whose operator priorities come from a table,
 * a nesting limit, and code generation during parsing (there is no tree).
 * Each operand is described by an `expdesc` that is either a pending
 * constant, a pending slot, or a value already computed on the stack of the
 * evaluator; pending operands are emitted only when needed, so `i + 1` is
 * two instructions (LOADS i; ADD K 1) and constant operands fold away.
 *
 * The result is a flat array of 16-byte instructions for a stack machine,
 * ended by OP_END. Evaluation is one loop and one switch over that array,
 * with the top of the stack in a local and the rest in a fixed-size array
 * in the caller's frame: no allocation, no recursion. Each arithmetic
 * instruction's dispatch key encodes both the operator and where its
 * operands come from, so it costs a single indirect jump. The nesting limit
 * bounds the stack height, which the parser also measures and checks.
 *
 * Folding that fails (1 / 0, INT64_MAX + 1) is not reported at once: the
 * failing operation is emitted as code and remembered. If the code is later
 * dropped as dead (`0 && 1 / 0`, `K == 0 ? 0 : N / K` with K constant 0) so
 * is the failure; any failure left at the end is a parse error, since that
 * code could only ever fail.
 */
#include "model/expr.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values live here during evaluation. The nesting limit keeps the height
 * near RC_EXPR_MAX_DEPTH; the parser refuses anything that would need more. */
#define EVAL_STACK (2 * RC_EXPR_MAX_DEPTH + 8)

/* Longest token text quoted in a message. */
#define QUOTE_MAX 40

/* Jump targets and slots are int32_t. */
#define MAX_CODE ((size_t)INT32_MAX)

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

/* ORDER OP, arithmetic opcodes only. */
static const char *const opnames[] = {
    "*", "/", "%", "+", "-", "<<", ">>",
    "<", "<=", ">", ">=", "==", "!=",
    "&", "^", "|", "min", "max"
};

_Static_assert(sizeof(opnames) / sizeof(opnames[0]) == OP_MAX + 1,
               "opnames is in ORDER OP");

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

static arith_status arith(int op, int64_t a, int64_t b, int64_t *r)
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

static void set_error(rc_expr_error *err, span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(rc_expr_error *err, span at, const char *fmt, ...)
{
    va_list ap;
    err->offset = at.off;
    err->length = at.len;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static void arith_error(rc_expr_error *err, span at, arith_status st, int op,
                        int64_t a, int64_t b)
{
    switch (st) {
    case A_DIVZERO:
        set_error(err, at, "division by zero");
        break;
    case A_MODZERO:
        set_error(err, at, "modulo by zero");
        break;
    case A_SHIFTRANGE:
        set_error(err, at, "shift count %" PRId64 " is out of range (0 to 63)",
                  b);
        break;
    case A_SHLNEG:
        set_error(err, at, "left shift of negative value %" PRId64, a);
        break;
    default: /* A_OVERFLOW */
        set_error(err, at, "overflow in %" PRId64 " %s %" PRId64, a,
                  opnames[op], b);
        break;
    }
}

static void neg_error(rc_expr_error *err, span at, int64_t a)
{
    set_error(err, at, "overflow in -(%" PRId64 ")", a);
}

/* }====================================================== */


/*
** {======================================================
** Lexer
** =======================================================
*/

/* Single-character tokens are their own character; the others follow. */
#define FIRST_RESERVED 257

enum reserved {
    TK_AND = FIRST_RESERVED, /* && and */
    TK_OR,                   /* || or */
    TK_NOT,                  /* ! not */
    TK_MIN, TK_MAX,          /* min max, only when followed by '(' */
    TK_SHL, TK_SHR, TK_LE, TK_GE, TK_EQ, TK_NE,
    TK_NUMBER, TK_NAME, TK_EOS
};

typedef struct {
    int t;
    span at;
    int64_t num; /* TK_NUMBER */
} token;

typedef struct {
    size_t ncode, nfails, sp;
} mark;

typedef struct {
    size_t pc; /* first instruction of the failing operation */
    rc_expr_error err;
} foldfail;

typedef struct {
    const char *text;
    size_t cur; /* lexer position in text */
    token tok;  /* current token */
    rc_name_resolver resolve;
    void *ctx;
    int level; /* nesting depth, see enterlevel */
    instr *code;
    span *pos;
    size_t ncode, capcode;
    size_t sp, maxsp; /* evaluation stack height after the code so far */
    foldfail *fails;
    size_t nfails, capfails;
    rc_expr_error *err;
    jmp_buf jb;
} parser;

_Noreturn static void error_at(parser *p, span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

_Noreturn static void error_at(parser *p, span at, const char *fmt, ...)
{
    va_list ap;
    p->err->offset = at.off;
    p->err->length = at.len;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    longjmp(p->jb, 1);
}

/* Token text for a message, cut to QUOTE_MAX bytes. */
static const char *tokentext(const parser *p, span at,
                             char buf[QUOTE_MAX + 4])
{
    size_t n = at.len > QUOTE_MAX ? QUOTE_MAX : at.len;
    memcpy(buf, p->text + at.off, n);
    strcpy(buf + n, at.len > QUOTE_MAX ? "..." : "");
    return buf;
}

static bool isdigit_(int c) { return c >= '0' && c <= '9'; }
static bool isalpha_(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isalnum_(int c) { return isalpha_(c) || isdigit_(c); }
static bool isblank_(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}
static int hexvalue(int c)
{
    if (isdigit_(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool matchword(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* "e5", "E-3", "e+10": the exponent of a floating-point constant. */
static bool is_exponent(const unsigned char *s, const unsigned char *end)
{
    if (s == end || (*s != 'e' && *s != 'E'))
        return false;
    s++;
    if (s < end && (*s == '+' || *s == '-'))
        s++;
    if (s == end)
        return false;
    while (s < end && isdigit_(*s))
        s++;
    return s == end;
}

/* NUMBER -> digits | '0' ('x' | 'X') hexdigits
 * The token is the whole run of letters, digits, '_' and '.', so that the
 * message shows "100u" or "1.5" rather than the first piece. */
static void readnumber(parser *p, token *t)
{
    const unsigned char *s = (const unsigned char *)p->text;
    size_t start = p->cur, end = start, i = start, digits;
    int base = 10;
    int64_t v = 0;
    char buf[QUOTE_MAX + 4];
    while (isalnum_(s[end]) || s[end] == '.') end++;
    t->t = TK_NUMBER;
    t->at.off = start;
    t->at.len = end - start;
    p->cur = end;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
    }
    digits = i;
    while (i < end && (base == 16 ? hexvalue(s[i]) >= 0 : isdigit_(s[i])))
        i++;
    if (i == digits) /* "0x" */
        error_at(p, t->at, "malformed number '%s'",
                 tokentext(p, t->at, buf));
    if (i < end && base == 10 && (s[i] == '.' || is_exponent(s + i, s + end)))
        error_at(p, t->at, "'%s' is not an integer: counts, bounds and values are whole "
                 "numbers (decimal such as 3, or hexadecimal such as 0x1F)",
                 tokentext(p, t->at, buf));
    if (i < end) {
        size_t j = i;
        while (j < end && strchr("uUlL", s[j]) != NULL) j++;
        if (j == end)
            error_at(p, t->at, "integer suffixes are not supported ('%s')",
                     tokentext(p, t->at, buf));
        error_at(p, t->at, "malformed number '%s'", tokentext(p, t->at, buf));
    }
    if (base == 10 && s[start] == '0' && end - start > 1)
        error_at(p, t->at, "octal constants are not supported ('%s')",
                 tokentext(p, t->at, buf));
    for (i = digits; i < end; i++) {
        int d = base == 16 ? hexvalue(s[i]) : s[i] - '0';
        if (v > (INT64_MAX - d) / base)
            error_at(p, t->at, "integer constant too large ('%s')",
                     tokentext(p, t->at, buf));
        v = v * base + d;
    }
    t->num = v;
}

/* NAME -> identifier {'.' identifier}, with no blanks around the dots:
 * "threadIdx.x" reaches the resolver as one name. */
static void readname(parser *p, token *t)
{
    const unsigned char *s = (const unsigned char *)p->text;
    size_t start = p->cur, end = start, next;
    while (isalnum_(s[end])) end++;
    t->at.off = start;
    t->at.len = end - start;
    t->t = TK_NAME;
    if (matchword(p->text + start, end - start, "and")) t->t = TK_AND;
    else if (matchword(p->text + start, end - start, "or")) t->t = TK_OR;
    else if (matchword(p->text + start, end - start, "not")) t->t = TK_NOT;
    if (t->t != TK_NAME) {
        p->cur = end;
        return;
    }
    while (s[end] == '.' && isalpha_(s[end + 1])) {
        end += 2;
        while (isalnum_(s[end])) end++;
    }
    t->at.len = end - start;
    p->cur = end;
    /* min and max are functions only where called, so that a model may
     * still have a param named "min". */
    next = end;
    while (isblank_(s[next])) next++;
    if (s[next] == '(') {
        if (matchword(p->text + start, end - start, "min")) t->t = TK_MIN;
        else if (matchword(p->text + start, end - start, "max")) t->t = TK_MAX;
    }
}

/* The length of the well-formed UTF-8 character at s (NUL-terminated),
 * with its code point in *cp, or 0 when the bytes there are not one:
 * overlong forms, surrogates and values past U+10FFFF are refused. */
static size_t utf8_char(const unsigned char *s, unsigned long *cp)
{
    size_t len;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2;
        *cp = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        *cp = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        *cp = s[0] & 0x07u;
    } else
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0u) != 0x80u) /* the NUL stops here too */
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3Fu);
    }
    if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) || *cp > 0x10FFFF ||
        (*cp >= 0xD800 && *cp <= 0xDFFF))
        return 0;
    return len;
}

/* Reads the next token into p->tok. */
static void next(parser *p)
{
    const unsigned char *s = (const unsigned char *)p->text;
    token *t = &p->tok;
    int c, c1;
    while (isblank_(s[p->cur])) p->cur++;
    c = s[p->cur];
    t->at.off = p->cur;
    t->at.len = 1;
    if (c == '\0') {
        t->t = TK_EOS;
        t->at.len = 0;
        return;
    }
    if (isdigit_(c)) {
        readnumber(p, t);
        return;
    }
    if (isalpha_(c)) {
        readname(p, t);
        return;
    }
    c1 = s[p->cur + 1];
    t->t = c;
    switch (c) {
    case '(': case ')': case '?': case ':': case ',':
    case '+': case '-': case '*': case '/': case '%': case '~': case '^':
        break;
    case '!':
        t->t = c1 == '=' ? TK_NE : TK_NOT;
        break;
    case '&':
        if (c1 == '&') t->t = TK_AND;
        break;
    case '|':
        if (c1 == '|') t->t = TK_OR;
        break;
    case '<':
        if (c1 == '<') t->t = TK_SHL;
        else if (c1 == '=') t->t = TK_LE;
        break;
    case '>':
        if (c1 == '>') t->t = TK_SHR;
        else if (c1 == '=') t->t = TK_GE;
        break;
    case '=':
        if (c1 != '=')
            error_at(p, t->at, "unexpected '=' (did you mean '=='?)");
        t->t = TK_EQ;
        break;
    default:
        if (c >= 0x20 && c < 0x7f)
            error_at(p, t->at, "unexpected character '%c'", c);
        if (c >= 0x80) {
            /* A whole UTF-8 character is one token: shown as itself (but
             * for C1 controls) with its code point. */
            unsigned long cp;
            size_t n = utf8_char(s + p->cur, &cp);
            if (n > 0) {
                t->at.len = n;
                if (cp >= 0xA0)
                    error_at(p, t->at, "unexpected character '%.*s' (U+%04lX)", (int)n,
                             p->text + p->cur, cp);
                error_at(p, t->at, "unexpected character U+%04lX", cp);
            }
        }
        error_at(p, t->at, "unexpected character '\\x%02X'", (unsigned)c);
    }
    /* Past here, reserved tokens are two-character operators, but for '!'. */
    if (t->t >= FIRST_RESERVED && t->t != TK_NOT) t->at.len = 2;
    p->cur += t->at.len;
}

/* }====================================================== */


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
    error_at(p, p->tok.at, "out of memory");
}

static size_t emit(parser *p, int op, int mode, int32_t arg, int64_t k,
                   span at)
{
    if (p->ncode == p->capcode) {
        size_t cap = p->capcode ? 2 * p->capcode : 16;
        instr *code;
        span *pos;
        if (p->ncode >= MAX_CODE) error_at(p, p->tok.at, "expression too long");
        code = realloc(p->code, cap * sizeof *code);
        if (code == NULL) nomem(p);
        p->code = code;
        pos = realloc(p->pos, cap * sizeof *pos);
        if (pos == NULL) nomem(p);
        p->pos = pos;
        p->capcode = cap;
    }
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
            error_at(p, p->tok.at,
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
    if (p->nfails == p->capfails) {
        size_t cap = p->capfails ? 2 * p->capfails : 4;
        foldfail *f = realloc(p->fails, cap * sizeof *f);
        if (f == NULL) nomem(p);
        p->fails = f;
        p->capfails = cap;
    }
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
        arith_error(&err, at, st, op, v->val, v2->val);
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
        error_at(p, p->tok.at,
                 "expression nested too deeply (more than %d levels)",
                 RC_EXPR_MAX_DEPTH);
}

static void leavelevel(parser *p) { p->level--; }

_Noreturn static void error_expected(parser *p, span open,
                                     const char *what, const char *close,
                                     const char *opener)
{
    error_at(p, p->tok.at, "'%s' expected (to %s '%s' at column %zu)", what,
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
            error_at(p, at, "name '%s' is bound to slot %d",
                     tokentext(p, at, buf), b.slot);
        v->k = V_SLOT;
        v->slot = b.slot;
        v->isbool = false;
        break;
    default:
        error_at(p, at, "unknown name '%s'", tokentext(p, at, buf));
    }
    next(p);
}

/* funcall -> ('min' | 'max') '(' expr ',' expr ')' */
static void funcall(parser *p, expdesc *v)
{
    span name = p->tok.at, open;
    int op = p->tok.t == TK_MIN ? OP_MIN : OP_MAX;
    expdesc v2;
    next(p);
    open = p->tok.at; /* the lexer saw it: '(' */
    next(p);
    expr(p, v);
    if (p->tok.t != ',')
        error_at(p, p->tok.at, "',' expected (min and max take two arguments)");
    next(p);
    expr(p, &v2);
    if (p->tok.t != ')') error_expected(p, open, ")", "close", "(");
    next(p);
    code_arith(p, op, v, &v2, name);
}

/* primaryexp -> NUMBER | NAME | '(' expr ')' | funcall */
static void primaryexp(parser *p, expdesc *v)
{
    char buf[QUOTE_MAX + 4];
    switch (p->tok.t) {
    case TK_NUMBER:
        init_const(v, p->tok.num);
        next(p);
        return;
    case TK_NAME:
        singlevar(p, v);
        return;
    case '(': {
        span open = p->tok.at;
        next(p);
        expr(p, v);
        if (p->tok.t != ')') error_expected(p, open, ")", "close", "(");
        next(p);
        return;
    }
    case TK_MIN:
    case TK_MAX:
        funcall(p, v);
        return;
    case TK_EOS:
        error_at(p, p->tok.at, "unexpected end of expression "
                               "(expected a number, a name or '(')");
    default:
        error_at(p, p->tok.at,
                 "unexpected '%s' (expected a number, a name or '(')",
                 tokentext(p, p->tok.at, buf));
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
            neg_error(&err, at, v->val);
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
        next(p);
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
        next(p);
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
    next(p);
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
    next(p);
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
        next(p);
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
    next(p);
    if (p->tok.t == TK_EOS) error_at(p, p->tok.at, "empty expression");
    expr(p, &v);
    if (p->tok.t != TK_EOS)
        error_at(p, p->tok.at, "unexpected '%s' after the end of the expression",
                 tokentext(p, p->tok.at, buf));
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
            set_error(err, p.tok.at, "out of memory");
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
                if (err != NULL) neg_error(err, e->pos[i - code], top);
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
    if (err != NULL) arith_error(err, e->pos[i - code], st, i->op, a, b);
    return false;
}

#undef ARITH_CASES

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
