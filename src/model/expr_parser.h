/* expr_parser.h: the parser's state, shared by the lexer (expr_lex.c) and
 * the parser and code generator (expr_parse.c); private to src/model/.
 *
 * As in Lua's llex.c and lparser.c: the lexer reads one token ahead into
 * p->tok, and any error, the lexer's or the parser's, fills *p->err and
 * longjmps to the top of the parse.
 */
#ifndef ROOFCAST_EXPR_PARSER_H
#define ROOFCAST_EXPR_PARSER_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"
#include "model/expr_code.h"

/* Longest token text quoted in a message. */
#define QUOTE_MAX 40

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
    size_t ncode, capcode, cappos; /* code[] and pos[] grow together */
    size_t sp, maxsp; /* evaluation stack height after the code so far */
    foldfail *fails;
    size_t nfails, capfails;
    rc_expr_error *err;
    jmp_buf jb;
} parser;

/* Fills *p->err with the place `at` and the message, and jumps back to
 * the start of the parse (protected_parse). */
_Noreturn void rc_expr_error_at(parser *p, span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The token's text for a message, cut to QUOTE_MAX bytes (then "..."), in
 * buf; returns buf. */
const char *rc_expr_tokentext(const parser *p, span at, char buf[QUOTE_MAX + 4]);

/* Reads the next token into p->tok; an unexpected character or a bad
 * number is an error (rc_expr_error_at). */
void rc_expr_next(parser *p);

#endif
