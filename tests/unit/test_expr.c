/* test_expr.c: unit tests of the expressions (src/model/expr_*.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

/* The names the tests use. Slot values are in `slots` below. */
enum {
    S_TX, S_TY, S_X, S_I, S_HI, S_LO, S_NEG, S_SC, S_Q, S_LEVEL, S_COUNTY,
    S_BX, S_A, S_B, NSLOTS
};

static const struct {
    const char *name;
    rc_name_kind kind;
    int64_t value; /* constant, or slot index */
} names[] = {
    {"k", RC_NAME_CONST, 100},
    {"zero", RC_NAME_CONST, 0},
    {"NUMTHREADS", RC_NAME_CONST, 256},
    {"THREADSPERDIM", RC_NAME_CONST, 16},
    {"threadIdx.x", RC_NAME_SLOT, S_TX},
    {"threadIdx.y", RC_NAME_SLOT, S_TY},
    {"x", RC_NAME_SLOT, S_X},
    {"i", RC_NAME_SLOT, S_I},
    {"hi", RC_NAME_SLOT, S_HI},
    {"lo", RC_NAME_SLOT, S_LO},
    {"neg", RC_NAME_SLOT, S_NEG},
    {"sc", RC_NAME_SLOT, S_SC},
    {"q", RC_NAME_SLOT, S_Q},
    {"level", RC_NAME_SLOT, S_LEVEL},
    {"county", RC_NAME_SLOT, S_COUNTY},
    {"blockIdx.x", RC_NAME_SLOT, S_BX},
    {"a", RC_NAME_SLOT, S_A},
    {"b", RC_NAME_SLOT, S_B},
};

static rc_name_binding resolve(void *ctx, const char *name, size_t len)
{
    rc_name_binding b = {RC_NAME_UNKNOWN, 0, 0};
    size_t j;
    if (ctx != NULL) ++*(int *)ctx; /* counts calls */
    for (j = 0; j < sizeof names / sizeof names[0]; j++) {
        if (strlen(names[j].name) == len &&
            memcmp(names[j].name, name, len) == 0) {
            b.kind = names[j].kind;
            if (b.kind == RC_NAME_CONST) b.value = names[j].value;
            else b.slot = (int)names[j].value;
        }
    }
    return b;
}

static void init_slots(int64_t s[NSLOTS])
{
    memset(s, 0, NSLOTS * sizeof s[0]);
    s[S_TX] = 3;
    s[S_TY] = 5;
    s[S_X] = 0;
    s[S_I] = 10;
    s[S_HI] = INT64_MAX;
    s[S_LO] = INT64_MIN;
    s[S_NEG] = -3;
    s[S_SC] = 70;
    s[S_Q] = INT64_C(4611686018427387904);
    s[S_LEVEL] = 2;
    s[S_COUNTY] = 100;
    s[S_BX] = 4;
}

/* Each check names the caller's line when it fails. */

#define VAL(text, expect) check_val(text, expect, __FILE__, __LINE__)
#define CONSTV(text, expect) check_const(text, true, expect, __FILE__, __LINE__)
#define NOTCONST(text) check_const(text, false, 0, __FILE__, __LINE__)
#define PERR(text, msg, off, len) \
    check_perr(text, msg, off, len, __FILE__, __LINE__)
#define EERR(text, msg, off, len) \
    check_eerr(text, msg, off, len, __FILE__, __LINE__)

static rc_expr *parse_or_fail(const char *text, const char *file, int line)
{
    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, resolve, NULL, &err);
    if (e == NULL) {
        print_error("'%.60s' failed to parse: %s (offset %zu)\n", text,
                    err.message, err.offset);
        _fail(file, line);
    }
    return e;
}

static void check_val(const char *text, int64_t expect, const char *file,
                      int line)
{
    int64_t s[NSLOTS], v = 0;
    rc_expr_error err;
    rc_expr *e = parse_or_fail(text, file, line);
    init_slots(s);
    if (!rc_expr_eval(e, s, &v, &err)) {
        print_error("'%.60s' failed: %s\n", text, err.message);
        rc_expr_free(e);
        _fail(file, line);
    }
    rc_expr_free(e);
    if (v != expect) {
        print_error("'%.60s' = %" PRId64 ", expected %" PRId64 "\n", text, v,
                    expect);
        _fail(file, line);
    }
}

static void check_const(const char *text, bool isconst, int64_t expect,
                        const char *file, int line)
{
    int64_t v = -12345;
    rc_expr *e = parse_or_fail(text, file, line);
    bool c = rc_expr_is_const(e, &v);
    rc_expr_free(e);
    if (c != isconst || (c && v != expect)) {
        print_error("'%s': is_const %d value %" PRId64 "\n", text, c, v);
        _fail(file, line);
    }
}

static void check_err(const char *text, const rc_expr_error *err,
                      const char *msg, size_t off, size_t len,
                      const char *file, int line)
{
    if (strcmp(err->message, msg) != 0 || err->offset != off ||
        err->length != len) {
        print_error("'%.60s': got \"%s\" at %zu+%zu, expected \"%s\" at "
                    "%zu+%zu\n", text, err->message, err->offset, err->length,
                    msg, off, len);
        _fail(file, line);
    }
}

static void check_perr(const char *text, const char *msg, size_t off,
                       size_t len, const char *file, int line)
{
    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, resolve, NULL, &err);
    if (e != NULL) {
        rc_expr_free(e);
        print_error("'%.60s' parsed, expected \"%s\"\n", text, msg);
        _fail(file, line);
    }
    check_err(text, &err, msg, off, len, file, line);
}

static void check_eerr(const char *text, const char *msg, size_t off,
                       size_t len, const char *file, int line)
{
    int64_t s[NSLOTS], v;
    rc_expr_error err;
    rc_expr *e = parse_or_fail(text, file, line);
    bool ok;
    init_slots(s);
    ok = rc_expr_eval(e, s, &v, &err);
    rc_expr_free(e);
    if (ok) {
        print_error("'%s' = %" PRId64 ", expected \"%s\"\n", text, v, msg);
        _fail(file, line);
    }
    check_err(text, &err, msg, off, len, file, line);
}

/* A string of `n` copies of `piece` between `head` and `tail`. */
static char *repeat(const char *head, const char *piece, size_t n,
                    const char *tail)
{
    size_t hl = strlen(head), pl = strlen(piece), tl = strlen(tail), j;
    char *s = malloc(hl + n * pl + tl + 1);
    assert_non_null(s);
    memcpy(s, head, hl);
    for (j = 0; j < n; j++) memcpy(s + hl + j * pl, piece, pl);
    memcpy(s + hl + n * pl, tail, tl + 1);
    return s;
}

static void test_precedence(void **state)
{
    (void)state;
    VAL("1 + 2 * 3 == 7", 1);
    VAL("1 + 2 * 3", 7);
    VAL("(1 + 2) * 3", 9);
    VAL("1 << 2 + 1", 8);
    VAL("7 - 2 - 1", 4);
    VAL("64 / 4 / 2", 8);
    VAL("2 ? 3 : 4 ? 5 : 6", 3);
    VAL("0 ? 3 : 4 ? 5 : 6", 5);
    VAL("0 ? 3 : 0 ? 5 : 6", 6);
    VAL("x ? 3 : x ? 5 : 6", 6);
    VAL("1 ? 0 ? 7 : 8 : 9", 8);
    VAL("1 | 2 ^ 3 & 5", 1 | (2 ^ (3 & 5)));
    VAL("1 < 2 == 1", 1);
    VAL("2 == 2 & 1", 1);
    VAL("-2 * 3", -6);
    VAL("- -2", 2);
    VAL("!0 + 1", 2);
    VAL("~0", -1);
    VAL("+5", 5);
    VAL("0 || 1 && 0", 0);
    VAL("1 || 0 && 0", 1);
    VAL("threadIdx.x + threadIdx.y * 2", 13);
    VAL("threadIdx.y - threadIdx.x - 1", 1);
    VAL("threadIdx.x < 4 ? threadIdx.y : 0", 5);
    VAL("-threadIdx.x * -threadIdx.y", 15);
    /* The work models this module was written for. */
    VAL("threadIdx.x", 3);
    VAL("i + 1 + threadIdx.y", 16);
    VAL("blockIdx.x * THREADSPERDIM + threadIdx.x < county", 1);
    VAL("threadIdx.x < (NUMTHREADS >> (level + 1))", 1);
}

static void test_division(void **state)
{
    (void)state;
    VAL("-7 / 2", -3);
    VAL("-7 % 2", -1);
    VAL("7 % -2", 1);
    VAL("7 / -2", -3);
    VAL("-7 % -2", -1);
    VAL("i / -3", -3);
    VAL("-i % 3", -1);
    VAL("i % -3", 1);
    VAL("-8 >> 1", -4);
    VAL("-1 >> 63", -1);
    VAL("neg >> 1", -2);
    VAL("lo >> 63", -1);
    VAL("1 << 62", INT64_C(4611686018427387904));
    VAL("hi / -1", -INT64_MAX);
    VAL("lo / 1", INT64_MIN);
    VAL("-9223372036854775807 - 1", INT64_MIN);
}

static void test_literals(void **state)
{
    (void)state;
    VAL("0x1F", 31);
    VAL("0X10", 16);
    VAL("0xff + 0", 255);
    VAL("0", 0);
    VAL("9223372036854775807", INT64_MAX);
    VAL("0x7FFFFFFFFFFFFFFF", INT64_MAX);
    PERR("010", "octal constants are not supported ('010')", 0, 3);
    PERR("1 + 00", "octal constants are not supported ('00')", 4, 2);
    PERR("100u", "integer suffixes are not supported ('100u')", 0, 4);
    PERR("2 * 100UL", "integer suffixes are not supported ('100UL')", 4, 5);
    PERR("0x1Fu", "integer suffixes are not supported ('0x1Fu')", 0, 5);
    PERR("99999999999999999999",
         "integer constant too large ('99999999999999999999')", 0, 20);
    PERR("9223372036854775808",
         "integer constant too large ('9223372036854775808')", 0, 19);
    PERR("0x8000000000000000",
         "integer constant too large ('0x8000000000000000')", 0, 18);
    PERR("0x", "malformed number '0x'", 0, 2);
    PERR("12abc", "malformed number '12abc'", 0, 5);
    /* A fraction or an exponent says what is allowed instead. */
#define NOT_INTEGER " is not an integer: counts, bounds and values are whole numbers " \
                    "(decimal such as 3, or hexadecimal such as 0x1F)"
    PERR("1.5", "'1.5'" NOT_INTEGER, 0, 3);
    PERR("k * 0.25", "'0.25'" NOT_INTEGER, 4, 4);
    PERR("1e3", "'1e3'" NOT_INTEGER, 0, 3);
    PERR("2.5E10", "'2.5E10'" NOT_INTEGER, 0, 6);
    PERR("7.", "'7.'" NOT_INTEGER, 0, 2);
#undef NOT_INTEGER
    PERR("1e", "malformed number '1e'", 0, 2);
    PERR("0x1.8", "malformed number '0x1.8'", 0, 5);
    VAL("0x1e3", 0x1e3); /* in hexadecimal, e is a digit */
}

static void test_logic(void **state)
{
    (void)state;
    VAL("1 and 2", 1);
    VAL("0 or 7", 1);
    VAL("not 0", 1);
    VAL("not 5", 0);
    VAL("not x", 1);
    VAL("!threadIdx.x", 0);
    VAL("threadIdx.x and threadIdx.y", 1);
    VAL("threadIdx.x && x", 0);
    VAL("x || threadIdx.y", 1);
    VAL("x or x", 0);
    VAL("threadIdx.y || x", 1);
    VAL("1 && threadIdx.y", 1);
    VAL("0 || threadIdx.y", 1);
    VAL("threadIdx.y && 7", 1);
    VAL("x < 1 and threadIdx.x > 2", 1);
    /* Short circuit: the right side is not evaluated. */
    VAL("0 && 1/x", 0);
    VAL("x && 1/x", 0);
    VAL("x == 0 or 1/x", 1);
    VAL("threadIdx.x || 1 % x", 1);
    VAL("x ? 1/x : 7", 7);
    VAL("threadIdx.x ? 7 : 1/x", 7);
    /* A name that only starts like a keyword is a name. */
    PERR("android", "unknown name 'android'", 0, 7);
    PERR("and 1", "unexpected 'and' (expected a number, a name or '(')", 0, 3);
    PERR("1 or", "unexpected end of expression "
                 "(expected a number, a name or '(')", 4, 0);
}

static void test_minmax(void **state)
{
    (void)state;
    VAL("min(threadIdx.x, threadIdx.y)", 3);
    VAL("max(threadIdx.x, threadIdx.y)", 5);
    VAL("min (threadIdx.y, 4)", 4);
    VAL("max(-1, x)", 0);
    VAL("max(min(1, 2), 3) * 2", 6);
    VAL("min(x ? 1 : 2, i)", 2);
    VAL("min(i * i, threadIdx.x * 100)", 100);
    CONSTV("min(k, 3)", 3);
    CONSTV("max(k, -k)", 100);
    /* min and max are names where they are not called. */
    PERR("min + 1", "unknown name 'min'", 0, 3);
    PERR("max", "unknown name 'max'", 0, 3);
    PERR("min(1)", "',' expected (min and max take two arguments)", 5, 1);
    PERR("max(1", "',' expected (min and max take two arguments)", 5, 0);
    PERR("min(1, 2, 3)", "')' expected (to close '(' at column 4)", 8, 1);
    PERR("max (1, 2", "')' expected (to close '(' at column 5)", 9, 0);
    PERR("min()", "unexpected ')' (expected a number, a name or '(')", 4, 1);
}

static void test_eval_errors(void **state)
{
    (void)state;
    EERR("1 / x", "division by zero", 2, 1);
    EERR("1 % x", "modulo by zero", 2, 1);
    EERR("hi + 1", "overflow in 9223372036854775807 + 1", 3, 1);
    EERR("1 + hi", "overflow in 1 + 9223372036854775807", 2, 1);
    EERR("lo - 1", "overflow in -9223372036854775808 - 1", 3, 1);
    EERR("q * 2", "overflow in 4611686018427387904 * 2", 2, 1);
    EERR("-lo", "overflow in -(-9223372036854775808)", 0, 1);
    EERR("lo / -1", "overflow in -9223372036854775808 / -1", 3, 1);
    EERR("lo % -1", "overflow in -9223372036854775808 % -1", 3, 1);
    EERR("1 << sc", "shift count 70 is out of range (0 to 63)", 2, 2);
    EERR("1 >> neg", "shift count -3 is out of range (0 to 63)", 2, 2);
    EERR("neg << 1", "left shift of negative value -3", 4, 2);
    EERR("q << 1", "overflow in 4611686018427387904 << 1", 2, 2);
    EERR("x ? 1 : 1 / x", "division by zero", 10, 1);
    /* The left operand is evaluated first. */
    EERR("1 % x + 1 / x", "modulo by zero", 2, 1);
    EERR("(threadIdx.x + hi) * (1 / x)", "overflow in 3 + 9223372036854775807",
         13, 1);
    EERR("threadIdx.x && hi + 1", "overflow in 9223372036854775807 + 1", 18,
         1);
}

static void test_fold(void **state)
{
    (void)state;
    CONSTV("k * 2", 200);
    CONSTV("1 + 2 * 3", 7);
    CONSTV("-(k - 1) / 2", -49);
    CONSTV("k > 50 ? k : 0", 100);
    CONSTV("zero ? threadIdx.x : k", 100);
    CONSTV("0 && threadIdx.x", 0);
    CONSTV("1 || 1 / x", 1);
    CONSTV("0x10 << 2", 64);
    NOTCONST("threadIdx.x * 2");
    NOTCONST("k * threadIdx.x");
    NOTCONST("1 && threadIdx.x");
    NOTCONST("threadIdx.x && 0");
    VAL("k * threadIdx.x", 300);
    VAL("k - threadIdx.x", 97);
    VAL("(threadIdx.x + 1) - k", -96);
    VAL("k - (threadIdx.x + 1)", 96);
    /* Folding that fails is a parse error at the operator... */
    PERR("k / 0", "division by zero", 2, 1);
    PERR("k % (k - 100)", "modulo by zero", 2, 1);
    PERR("9223372036854775807 + 1", "overflow in 9223372036854775807 + 1", 20,
         1);
    PERR("-(-9223372036854775807 - 1)", "overflow in -(-9223372036854775808)",
         0, 1);
    PERR("(-9223372036854775807 - 1) / -1",
         "overflow in -9223372036854775808 / -1", 27, 1);
    PERR("1 << 64", "shift count 64 is out of range (0 to 63)", 2, 2);
    PERR("1 >> -1", "shift count -1 is out of range (0 to 63)", 2, 2);
    PERR("-3 << 1", "left shift of negative value -3", 3, 2);
    PERR("1 << 63", "overflow in 1 << 63", 2, 2);
    PERR("x ? 1 / 0 : 2", "division by zero", 6, 1);
    PERR("(1 / 0) && 0", "division by zero", 3, 1);
    PERR("threadIdx.x + (k / zero)", "division by zero", 17, 1);
    /* ...except in code that folding proved dead. */
    CONSTV("0 ? 1 / 0 : 2", 2);
    CONSTV("k == 100 ? 1 : 1 / zero", 1);
    CONSTV("zero == 0 ? 0 : threadIdx.x / zero", 0);
    CONSTV("0 && 1 / 0", 0);
    CONSTV("1 || 1 << 99", 1);
    CONSTV("zero and (k / zero)", 0);
    /* Dead code must still parse. */
    PERR("0 ? 1 / : 2", "unexpected ':' (expected a number, a name or '(')", 8,
         1);
    PERR("0 && kk", "unknown name 'kk'", 5, 2);
}

static void test_parse_errors(void **state)
{
    (void)state;
    PERR("*", "unexpected '*' (expected a number, a name or '(')", 0, 1);
    PERR("1 + * 2", "unexpected '*' (expected a number, a name or '(')", 4, 1);
    PERR("1 + << 2", "unexpected '<<' (expected a number, a name or '(')", 4,
         2);
    PERR("1 +", "unexpected end of expression "
                "(expected a number, a name or '(')", 3, 0);
    PERR("()", "unexpected ')' (expected a number, a name or '(')", 1, 1);
    PERR("1 + (2 * 3", "')' expected (to close '(' at column 5)", 10, 0);
    PERR("((1 2)", "')' expected (to close '(' at column 2)", 4, 1);
    PERR("x ? 1 2", "':' expected (to complete '?' at column 3)", 6, 1);
    PERR("1 + x ? 1", "':' expected (to complete '?' at column 7)", 9, 0);
    PERR("k ? 1 2", "':' expected (to complete '?' at column 3)", 6, 1);
    PERR("1 x", "unexpected 'x' after the end of the expression", 2, 1);
    PERR("3 12", "unexpected '12' after the end of the expression", 2, 2);
    PERR("(1))", "unexpected ')' after the end of the expression", 3, 1);
    PERR("1 : 2", "unexpected ':' after the end of the expression", 2, 1);
    PERR("1 @ 2", "unexpected character '@'", 2, 1);
    PERR("1 + \x01", "unexpected character '\\x01'", 4, 1);
    PERR("x + \xc3\xa9", "unexpected character '\xc3\xa9' (U+00E9)", 4, 2);
    PERR("x + \xc2\x85", "unexpected character U+0085", 4, 2);
    PERR("x + \xc3", "unexpected character '\\xC3'", 4, 1);
    PERR("x + \xed\xa0\x80", "unexpected character '\\xED'", 4, 1);
    PERR("threadIdx.x.", "unexpected character '.'", 11, 1);
    PERR("kk + 1", "unknown name 'kk'", 0, 2);
    PERR("1 + threadIdx.z", "unknown name 'threadIdx.z'", 4, 11);
    PERR("threadIdx . x", "unknown name 'threadIdx'", 0, 9);
    PERR("x = 1", "unexpected '=' (did you mean '=='?)", 2, 1);
    PERR("x <== 1", "unexpected '=' (did you mean '=='?)", 4, 1);
    PERR("", "empty expression", 0, 0);
    PERR(" \t\n ", "empty expression", 4, 0);
    PERR("1 &&& 2", "unexpected '&' (expected a number, a name or '(')", 4, 1);
    /* Long tokens are cut in messages. */
    PERR("1 + aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
         "unknown name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'", 4, 50);
    PERR("1 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
         "unexpected 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...' after the "
         "end of the expression", 2, 45);
    /* The lexer reads one token ahead, so a bad number there wins. */
    PERR("1 123456789012345678901234567890123456789012345",
         "integer constant too large "
         "('1234567890123456789012345678901234567890...')", 2, 45);
    {
        /* No resolver: every name is unknown. */
        rc_expr_error err;
        assert_null(rc_expr_parse("k + 1", NULL, NULL, &err));
        assert_string_equal(err.message, "unknown name 'k'");
    }
}

static void test_nesting(void **state)
{
    static const struct {
        const char *head, *piece, *tail;
        size_t at, len; /* the error for 100000 pieces */
    } deep[] = {
        {"", "(", "1", 100, 1},
        {"", "-", "1", 100, 1},
        {"", "!", "x", 100, 1},
        {"", "~", "x", 100, 1},
        {"", "not ", "x", 400, 3},
        {"1 + ", "(", "1", 103, 1},     /* the right operand is a level */
        {"", "min(1, ", "1", 697, 1},   /* the '1' in the 100th call */
        {"", "x ? 1 : ", "2", 796, 1},  /* the '1' in the 100th ?: */
        {"", "0 ? 1 : ", "2", 796, 1},
        {"", "(k * ", "1", 250, 1},     /* two levels a piece */
    };
    size_t j;
    char *s;
    (void)state;
    for (j = 0; j < sizeof deep / sizeof deep[0]; j++) {
        s = repeat(deep[j].head, deep[j].piece, 100000, deep[j].tail);
        PERR(s, "expression nested too deeply (more than 100 levels)",
             deep[j].at, deep[j].len);
        free(s);
    }
    /* The limit counts the top level: 99 parentheses are fine, 100 not. */
    s = repeat("", "(", 99, "threadIdx.x");
    {
        char *t = repeat(s, ")", 99, "");
        VAL(t, 3);
        free(t);
    }
    free(s);
    s = repeat("", "(", 100, "x");
    PERR(s, "expression nested too deeply (more than 100 levels)", 100, 1);
    free(s);
    s = repeat("", "-", 99, "threadIdx.x");
    VAL(s, -3);
    free(s);
    s = repeat("", "x ? 1 : ", 99, "2");
    VAL(s, 2);
    free(s);
    /* Long flat chains need no nesting. */
    s = repeat("", "threadIdx.x + ", 100000, "1");
    VAL(s, 300001);
    free(s);
    s = repeat("", "1 + ", 100000, "1");
    CONSTV(s, 100001);
    free(s);
    s = repeat("", "threadIdx.x && ", 50000, "threadIdx.y");
    VAL(s, 1);
    free(s);
    s = repeat("", "x || ", 50000, "x");
    VAL(s, 0);
    free(s);
    s = repeat("0", " - threadIdx.x * i", 50000, "");
    VAL(s, -1500000);
    free(s);
}

/* Right-nested operands that each leave a value on the evaluation stack:
 * the deepest the limit allows must parse and evaluate correctly. */
static void test_stack_height(void **state)
{
    static const char *const forms[][3] = {
        {"(i * i) + (", "i * i", ")"},
        {"min(i * i, ", "i * i", ")"},
        {"(i * i) - (x ? 0 : ", "i * i", ")"},
    };
    /* two, one and three levels a piece */
    static const size_t deepest_ok[] = {49, 98, 32};
    size_t f, n;
    (void)state;
    for (f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        size_t deepest = 0;
        for (n = 1; n <= 120; n++) {
            char *head = repeat("", forms[f][0], n, forms[f][1]);
            char *s = repeat(head, forms[f][2], n, "");
            rc_expr_error err;
            rc_expr *e = rc_expr_parse(s, resolve, NULL, &err);
            free(head);
            free(s);
            if (e == NULL) {
                assert_string_equal(
                    err.message,
                    "expression nested too deeply (more than 100 levels)");
                break;
            }
            {
                int64_t sl[NSLOTS], v;
                int64_t expect = f == 0 ? (int64_t)(n + 1) * 100
                               : f == 1 ? 100
                                        : (n % 2 ? 0 : 100);
                init_slots(sl);
                assert_true(rc_expr_eval(e, sl, &v, &err));
                assert_int_equal(v, expect);
            }
            rc_expr_free(e);
            deepest = n;
        }
        assert_int_equal(deepest, deepest_ok[f]);
    }
}

static void test_slots(void **state)
{
    bool r[NSLOTS];
    int calls = 0;
    rc_expr_error err;
    rc_expr *e;
    size_t j;
    static const struct {
        const char *text;
        const char *reads; /* one char per slot: '1' if read */
    } cases[] = {
        {"threadIdx.x + threadIdx.y", "11000000000000"},
        {"x ? threadIdx.x : threadIdx.y", "11100000000000"},
        {"x && threadIdx.y", "01100000000000"},
        {"threadIdx.x || i", "10010000000000"},
        {"0 && threadIdx.x", "00000000000000"},
        {"1 || threadIdx.x", "00000000000000"},
        {"k == 100 ? threadIdx.x : threadIdx.y", "10000000000000"},
        {"k != 100 ? threadIdx.x : threadIdx.y", "01000000000000"},
        {"k ? 1 : x", "00000000000000"},
        {"k * 3 + i", "00010000000000"},
        {"k - i", "00010000000000"},
        {"(i + 1) * x", "00110000000000"},
        {"min(i, blockIdx.x)", "00010000000100"},
        {"-a + ~b + !level", "00000000010011"},
    };
    (void)state;
    for (j = 0; j < sizeof cases / sizeof cases[0]; j++) {
        int s;
        e = rc_expr_parse(cases[j].text, resolve, NULL, &err);
        assert_non_null(e);
        memset(r, 0, sizeof r);
        rc_expr_mark_reads(e, r, NSLOTS);
        for (s = 0; s < NSLOTS; s++) {
            if (r[s] != (cases[j].reads[s] == '1')) {
                print_error("'%s': slot %d\n", cases[j].text, s);
                fail();
            }
        }
        rc_expr_free(e);
    }
    /* Slots past nslots are left alone. */
    e = rc_expr_parse("threadIdx.x + county", resolve, NULL, &err);
    assert_non_null(e);
    memset(r, 0, sizeof r);
    rc_expr_mark_reads(e, r, 2);
    assert_true(r[S_TX]);
    assert_false(r[S_COUNTY]);
    rc_expr_free(e);
    /* A dotted name reaches the resolver as one name, once. */
    e = rc_expr_parse("threadIdx.x", resolve, &calls, &err);
    assert_non_null(e);
    assert_int_equal(calls, 1);
    rc_expr_free(e);
    rc_expr_free(NULL);
}

/* Every operator on every pair of interesting values, through each way the
 * operands can reach it (folded literals, slots, stack, immediates): all
 * must agree with a reference written with 128-bit arithmetic. */
__extension__ typedef __int128 i128;

static const char *const ops[] = {
    "*", "/", "%", "+", "-", "<<", ">>", "<", "<=", ">", ">=", "==", "!=",
    "&", "^", "|", "&&", "||", "and", "or", "min", "max"
};

/* Returns true with *r, or false with the message in msg. */
static bool reference(const char *op, int64_t a, int64_t b, int64_t *r,
                      char *msg, size_t msglen)
{
    i128 v;
    if (!strcmp(op, "/") || !strcmp(op, "%")) {
        if (b == 0) {
            snprintf(msg, msglen, "%s by zero",
                     op[0] == '/' ? "division" : "modulo");
            return false;
        }
        v = op[0] == '/' ? (i128)a / b : (i128)a % b;
        if (a == INT64_MIN && b == -1) goto overflow;
    } else if (!strcmp(op, "*")) {
        v = (i128)a * b;
    } else if (!strcmp(op, "+")) {
        v = (i128)a + b;
    } else if (!strcmp(op, "-")) {
        v = (i128)a - b;
    } else if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
        if (b < 0 || b > 63) {
            snprintf(msg, msglen,
                     "shift count %" PRId64 " is out of range (0 to 63)", b);
            return false;
        }
        if (op[0] == '>') {
            v = a;
            while (b-- > 0) v = (v - (v < 0 && v % 2 != 0)) / 2; /* floor */
        } else {
            if (a < 0) {
                snprintf(msg, msglen, "left shift of negative value %" PRId64,
                         a);
                return false;
            }
            v = (i128)a << b;
        }
    } else if (!strcmp(op, "<")) v = a < b;
    else if (!strcmp(op, "<=")) v = a <= b;
    else if (!strcmp(op, ">")) v = a > b;
    else if (!strcmp(op, ">=")) v = a >= b;
    else if (!strcmp(op, "==")) v = a == b;
    else if (!strcmp(op, "!=")) v = a != b;
    else if (!strcmp(op, "&")) v = a & b;
    else if (!strcmp(op, "^")) v = a ^ b;
    else if (!strcmp(op, "|")) v = a | b;
    else if (!strcmp(op, "&&") || !strcmp(op, "and")) v = a && b;
    else if (!strcmp(op, "||") || !strcmp(op, "or")) v = a || b;
    else if (!strcmp(op, "min")) v = a < b ? a : b;
    else v = a > b ? a : b;
    if (v < INT64_MIN || v > INT64_MAX) goto overflow;
    *r = (int64_t)v;
    return true;
overflow:
    snprintf(msg, msglen, "overflow in %" PRId64 " %s %" PRId64, a, op, b);
    return false;
}

static void literal(char *buf, size_t len, int64_t v)
{
    if (v == INT64_MIN) snprintf(buf, len, "(-9223372036854775807 - 1)");
    else if (v < 0) snprintf(buf, len, "(-%" PRId64 ")", -v);
    else snprintf(buf, len, "%" PRId64, v);
}

static void test_against_reference(void **state)
{
    static const int64_t values[] = {
        INT64_MIN, INT64_MIN + 1, -64, -7, -2, -1, 0, 1, 2, 3, 7, 63, 64, 70,
        INT64_C(4611686018427387904), INT64_MAX - 1, INT64_MAX
    };
    enum { NV = sizeof values / sizeof values[0] };
    size_t o, ia, ib;
    int form, checked = 0;
    (void)state;
    for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        bool call = !strcmp(ops[o], "min") || !strcmp(ops[o], "max");
        for (ia = 0; ia < NV; ia++) {
            for (ib = 0; ib < NV; ib++) {
                int64_t a = values[ia], b = values[ib], want = 0;
                char wantmsg[200];
                bool ok = reference(ops[o], a, b, &want, wantmsg,
                                    sizeof wantmsg);
                /* literal, slot, stack (via `+ 0`) on each side */
                for (form = 0; form < 9; form++) {
                    char l[64], r[64], text[256];
                    size_t at, atlen;
                    int64_t sl[NSLOTS], got = 0;
                    rc_expr_error err;
                    rc_expr *e;
                    bool gotok;
                    if (form / 3 == 0) literal(l, sizeof l, a);
                    else snprintf(l, sizeof l, form / 3 == 1 ? "a" : "(a + 0)");
                    if (form % 3 == 0) literal(r, sizeof r, b);
                    else snprintf(r, sizeof r, form % 3 == 1 ? "b" : "(b + 0)");
                    if (call) {
                        snprintf(text, sizeof text, "%s(%s, %s)", ops[o], l, r);
                        at = 0;
                        atlen = 3;
                    } else {
                        snprintf(text, sizeof text, "%s %s %s", l, ops[o], r);
                        at = strlen(l) + 1;
                        atlen = strlen(ops[o]);
                    }
                    init_slots(sl);
                    sl[S_A] = a;
                    sl[S_B] = b;
                    e = rc_expr_parse(text, resolve, NULL, &err);
                    gotok = e != NULL && rc_expr_eval(e, sl, &got, &err);
                    if (e != NULL && form == 0 && !rc_expr_is_const(e, NULL))
                        gotok = false, snprintf(err.message, 200, "not folded");
                    rc_expr_free(e);
                    if (gotok != ok || (ok && got != want) ||
                        (!ok && (strcmp(err.message, wantmsg) != 0 ||
                                 err.offset != at || err.length != atlen))) {
                        print_error("'%s': got %s %" PRId64 " (%s), want %s "
                                    "%" PRId64 " (%s)\n", text,
                                    gotok ? "ok" : "error", got, err.message,
                                    ok ? "ok" : "error", want, wantmsg);
                        fail();
                    }
                    checked++;
                }
            }
        }
    }
    assert_int_equal(checked, 22 * 17 * 17 * 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_division),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_logic),
        cmocka_unit_test(test_minmax),
        cmocka_unit_test(test_eval_errors),
        cmocka_unit_test(test_fold),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_stack_height),
        cmocka_unit_test(test_slots),
        cmocka_unit_test(test_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
