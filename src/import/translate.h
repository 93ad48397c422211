/* translate.h: one __global__ function's AST to a draft work model.
 *
 * Internal to src/import. The translator walks the function's body (the
 * template pattern, with the template arguments bound by name) and writes
 * the <work> statements into a buffer as it goes, collecting the arrays and
 * params the statements use and the places it cannot translate (unknowns).
 * Every string it makes lives in the translation's arena and is freed with
 * it.
 */
#ifndef ROOFCAST_IMPORT_TRANSLATE_H
#define ROOFCAST_IMPORT_TRANSLATE_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/buffer.h"

/* A NAME=EXPR pair of the command line (--param, --length). */
typedef struct {
    const char *name, *expr;
    bool used;
    bool runtime; /* a param the kernel takes as an argument: <param runtime="yes"> */
} tr_assign;

/* An array the draft declares. */
typedef struct {
    const char *name;   /* in the model */
    const char *type;   /* C type, as <array type> takes it */
    int elem_bytes;
    const char *space;  /* "global", "shared", "constant" */
    const char *length; /* expression, or NULL: derived from the launch */
    bool length_given;  /* from --length */
    int order;          /* pointer params by position, then declarations */
    int line;
    CXCursor decl;
    /* how the kernel uses it, for read-only-path (draft.c): stored to or
     * updated atomically (translated or not), or passed to a call that is
     * not inlined; read through __ldg */
    bool written;
    bool ldg;
} tr_array;

typedef struct {
    int line;
    const char *what;
} tr_unknown;

typedef struct tr_arena tr_arena;

typedef enum { V_INT, V_DATA, V_PTR, V_UNKNOWN, V_REGS } tr_kind;

/* C's precedence levels, for parenthesising model expressions. */
enum { P_COND = 3, P_LOR, P_LAND, P_BOR, P_BXOR, P_BAND, P_EQ, P_REL, P_SHIFT, P_ADD, P_MUL,
       P_UNARY = 14, P_PRIMARY = 16 };

/* The value of an expression: an integer expression of the model (text,
 * with its C precedence for parenthesising), a value from memory or
 * floating-point arithmetic (data), a pointer into a declared array
 * (array + element offset), a register array, or something that cannot be
 * said (why). */
typedef struct {
    tr_kind kind;
    const char *text; /* V_INT: the expression; V_PTR: the offset */
    int prec;
    int array;        /* V_PTR: index into tr_ctx.arrays */
    bool fconst;      /* V_DATA: a constant (literals only) */
    const char *why;  /* V_UNKNOWN, V_DATA: what it depends on */
} tr_val;

/* A name's value. A reference that is not const, bound to an element in
 * memory (tr_reference), names that element: `ref` is set and `elem` is
 * the element (V_PTR; V_REGS for a register array's), loaded where the
 * reference is read and stored where it is written; or V_UNKNOWN (why)
 * when the element cannot be said: then `val` is the value read where the
 * reference was bound, and a write through it is an unknown. One bound to
 * a local variable or a param (int &j = i) names it: `to_local` is set and
 * `target` is the variable, read and assigned in its place (tr_target). */
typedef struct {
    CXCursor decl;
    tr_val val;
    bool ref;
    tr_val elem;
    bool to_local;
    CXCursor target;
} tr_binding;

/* A name given in the model, for uniqueness within its scope; `lane` when its value may
 * differ from lane to lane (tr_name_from). */
typedef struct {
    const char *name;
    bool lane;
} tr_name;

typedef struct {
    const char *name; /* template parameter */
    const char *value; /* non-type: the value's text; type: the type */
    bool is_type;
} tr_targ;

/* The statement translator's entry points, for the files below it.
 * Expressions and for loops contain statements (an inlined __device__
 * function's body, a loop's body), yet translate_stmt.c calls
 * translate_expr.c and translate_loop.c: so that no two files call each
 * other, those two reach the statements only through tr_ctx.stmts, which
 * the translation's starter (draft.c) points at tr_statements before the
 * first statement. */
/* An FMA nvcc contracts (-fmad=true, its default): the + or - being translated, its operand
 * that is a multiply of the same precision (a null cursor when none is), and whether that
 * multiply's FLOP was counted (then the add's is fused too). */
typedef struct {
    CXCursor add, mul;
    bool mul_counted;
} tr_fma;

/* The arithmetic pipes a draft's <instructions> name (tr_flush_flops spells them as the kernel
 * format does). */
typedef enum { TR_PIPE_CONVERSION, TR_PIPE_CONVERSION64, TR_PIPE_SPECIAL, TR_PIPES } tr_pipe;

typedef struct tr_ctx tr_ctx;
typedef struct {
    void (*stmt)(tr_ctx *c, CXCursor s);
    void (*body)(tr_ctx *c, CXCursor body);
} tr_stmt_fns;

struct tr_ctx {
    CXTranslationUnit tu;
    tr_arena *arena;
    rc_buffer out; /* the <work> body */
    int indent;
    /* inputs */
    const tr_assign *params;
    size_t nparams;
    const tr_assign *lengths;
    size_t nlengths;
    const char *shared_bytes; /* --shared-bytes or NULL */
    tr_targ *targs;
    size_t ntargs;
    /* what the model uses */
    tr_array *arrays;
    size_t narrays, carrays;
    const char **used_params; /* names, in order of first use */
    size_t nused, cused;
    const char **missing; /* params without a value */
    size_t nmissing, cmissing;
    tr_unknown *unknowns;
    size_t nunknowns, cunknowns;
    const char **notes; /* other notes for the draft */
    size_t nnotes, cnotes;
    /* scopes */
    tr_binding *env;
    size_t nenv, cenv;
    tr_name *names;
    size_t nnames, cnames;
    /* per statement: FLOPs by precision (fp16, fp32, fp64), those of fused multiply-adds
     * (and of divisions and calls, counted as before: docs/import.md, "Counting FLOPs") and
     * those of adds and multiplies alone, one instruction each (emitted fused="false") */
    long long flops[3];
    long long unfused_flops[3];
    /* per statement: instructions on the arithmetic pipes, by tr_pipe (docs/import.md,
     * "Counting conversions and special functions"); emitted with the FLOPs as
     * <instructions pipe> */
    long long instructions[TR_PIPES];
    /* The innermost + or - being translated and the multiply it fuses with (tr_fma_pair):
     * null cursors outside any. */
    tr_fma fma;
    struct {
        int array;
        const char *index;
    } seen[64];
    size_t nseen;
    int depth;       /* inlining depth */
    int loop_depth;
    int no_let;      /* inside a branch: values inline, no <let> */
    int fn_loop_depth; /* loop_depth where the function being translated starts */
    bool failed;     /* out of memory */
    bool lengths_sampled; /* derived lengths come from a sampled count */
    bool untold_write; /* a store through a pointer whose array cannot be told */
    CXCursor *written_decls; /* params and arrays written before any use declared them */
    size_t nwritten, cwritten;
    const tr_stmt_fns *stmts; /* &tr_statements (see tr_stmt_fns) */
};

/* The files of the translator, each calling only those above it in this
 * list (tests/house/layers.sh checks that no two call each other):
 *
 *   translate.c        memory, cursors, tokens, output, names and scopes
 *   translate_builtins.c  the CUDA builtins known by name: their FLOPs,
 *                      atomics, loads, warp intrinsics
 *   translate_value.c  values and types: composing, pointer arithmetic,
 *                      loads, stores and FLOPs, the arrays written, no
 *                      subexpression translated
 *   translate_expr.c   expressions, calls included (a call's arguments are
 *                      expressions; a __device__ function is inlined)
 *   translate_loop.c   for statements
 *   translate_stmt.c   statements: blocks, declarations, if, the dispatch
 *
 * Statements hold expressions and for loops, and both hold statements in
 * turn: an inlined function's body, a loop's body. The statement
 * translator is reached from below through tr_ctx.stmts (tr_stmt_fns). */

/* Memory (translate.c): strings in the translation's arena. */
char *tr_strdup(tr_ctx *c, const char *s);
char *tr_printf(tr_ctx *c, const char *fmt, ...) RC_PRINTF(2, 3);
/* Copies a CXString into the arena and disposes it. */
char *tr_cx(tr_ctx *c, CXString s);
/* The caller frees the arena with tr_arena_free, and with it every string
 * the translation made; NULL when out of memory. */
tr_arena *tr_arena_new(void);
void tr_arena_free(tr_arena *a);

/* Cursors and tokens (translate.c) */
CXCursor *tr_children(tr_ctx *c, CXCursor cur, unsigned *n);
/* The last expression among cur's children (a variable's initializer, a cast's operand), or
 * a null cursor. */
CXCursor tr_last_expr(tr_ctx *c, CXCursor cur);
/* e without parentheses and implicit conversions. */
CXCursor tr_strip(tr_ctx *c, CXCursor e);
int tr_line(CXCursor cur);
unsigned tr_offset(CXSourceLocation loc);
char *tr_source_text(tr_ctx *c, CXCursor cur);
/* The operator of a binary, compound-assignment or unary expression, read
 * from the tokens; NULL when they cannot be read (inside a macro). */
const char *tr_operator(tr_ctx *c, CXCursor cur, bool *postfix);

/* Output (translate.c): the <work> body, its unknowns and notes. */
void tr_emit(tr_ctx *c, const char *fmt, ...) RC_PRINTF(2, 3);
const char *tr_xml_escape(tr_ctx *c, const char *s);
/* FLOPs at a precision (0 fp16, 1 fp32, 2 fp64), to the current statement: fused, two an
 * instruction (an FMA's; also a division's and a math call's, counted as before). */
void tr_add_flops(tr_ctx *c, int kind, long long n);
/* FLOPs of adds or multiplies alone, one an instruction (<flops fused="false">). */
void tr_add_unfused_flops(tr_ctx *c, int kind, long long n);
/* n instructions on `pipe` */
void tr_add_instructions(tr_ctx *c, tr_pipe pipe, long long n);
/* The current statement's FLOPs emitted as <flops> (per precision the fused ones, then
 * the unfused ones, each when there are any), and cleared. */
void tr_flush_flops(tr_ctx *c);
/* FLOPs emitted, the statement's reads forgotten. */
void tr_end_statement(tr_ctx *c);
void tr_add_unknown(tr_ctx *c, CXCursor at, const char *fmt, ...) RC_PRINTF(3, 4);
void tr_add_note(tr_ctx *c, const char *fmt, ...) RC_PRINTF(2, 3);

/* Names and scopes (translate.c) */
void tr_bind(tr_ctx *c, CXCursor decl, tr_val v);
/* A new binding, even when decl has one (a function inlined again). */
void tr_push(tr_ctx *c, CXCursor decl, tr_val v);
/* A new binding b (a reference's, tr_reference), copied. */
void tr_push_binding(tr_ctx *c, tr_binding b);
tr_binding *tr_lookup(tr_ctx *c, CXCursor decl);
/* The variable `decl` names: the local a reference bound to one names (to_local), else decl. */
CXCursor tr_target(tr_ctx *c, CXCursor decl);
const char *tr_new_name(tr_ctx *c, const char *want);
/* Records that the model name `name` (a let, a loop variable) is given `value`, a model
 * expression (a loop variable: its start, its step and its condition, one call each): the
 * name then differs from lane to lane when any such value does (tr_lane_varying). */
void tr_name_from(tr_ctx *c, const char *name, const char *value);
/* Whether the model expression `text` may differ from lane to lane: it mentions threadIdx, or
 * a name given a value that does. Any other (params, blockIdx, blockDim, gridDim, warpSize,
 * constants, names given only such values) is the same in every lane of a warp. */
bool tr_lane_varying(tr_ctx *c, const char *text);
void tr_use_param(tr_ctx *c, const char *name);
int tr_array_for(tr_ctx *c, CXCursor decl, const char *name, CXType elem, const char *space,
                 const char *length, int order, int line);
bool tr_elem_type(tr_ctx *c, CXType t, const char **name, int *bytes);
/* Marks the array of `decl` (a pointer param, a file-scope array) written:
 * now, or when tr_array_for declares it. */
void tr_mark_decl_written(tr_ctx *c, CXCursor decl);

/* Builtins (translate_builtins.c): what a call of a CUDA builtin is, by its name. */
typedef enum {
    TR_CALL_OTHER,      /* none of these: a function of the file is inlined */
    TR_CALL_NO_FLOPS,   /* a barrier, a conversion, rounding, bit counts, ... */
    TR_CALL_ONE_FLOP,   /* a math function: one FLOP however many instructions, fused */
    TR_CALL_ALONE,      /* an add or multiply never contracted (__fadd_rn): one, unfused */
    TR_CALL_TWO_FLOPS,  /* an fma, or two lanes of an add (__hadd2) in one instruction */
    TR_CALL_FOUR_FLOPS, /* two lanes of an fma (__hfma2) */
    TR_CALL_ATOMIC,     /* atomicAdd and its kind, _block and _system forms */
    TR_CALL_LOAD,       /* __ldg and the other cache-hinted loads */
    TR_CALL_WARP        /* shuffles, votes, warp reductions */
} tr_call_kind;
/* Instructions on the special pipe a call of `name` issues (translate_builtins.c says which) */
int tr_special_count(const char *name);
/* Instructions on the conversion pipe a conversion intrinsic `name` issues */
int tr_conversion_count(const char *name);
/* Whether `name` is a minimum or maximum (an instruction of its own on floating-point values) */
bool tr_is_min_max(const char *name);
tr_call_kind tr_call_kind_of(const char *name);
/* The called function's name, as spelled (an operator's "operator+"), "" when none. */
const char *tr_callee_name(tr_ctx *c, CXCursor call);
/* What a barrier call waits for: __syncthreads() and its counting forms, and a cooperative
 * group's sync() (`cg::sync(g)`, `g.sync()`) on a thread_block, hold the block; a
 * thread_block_tile's holds a warp or part of one; any other group's (a grid, a group of a
 * size known only when it runs) the model cannot say. */
typedef enum { TR_SYNC_NONE, TR_SYNC_BLOCK, TR_SYNC_WARP, TR_SYNC_OTHER } tr_sync;
tr_sync tr_sync_of(tr_ctx *c, CXCursor call, const char *name);

/* Values (translate_value.c) */
tr_val tr_int(tr_ctx *c, const char *text, int prec);
tr_val tr_data(tr_ctx *c, const char *why);
tr_val tr_unknown_val(tr_ctx *c, const char *why);
/* A pointer into c->arrays[array], at element offset `off`. */
tr_val tr_ptr(int array, const char *off, int prec);
/* Parenthesised as needed to be an operand of precedence `prec`. */
const char *tr_operand(tr_ctx *c, tr_val v, int prec, bool right);
/* l op r, parenthesised as C needs (0 + x is x). */
tr_val tr_compose(tr_ctx *c, tr_val l, const char *op, tr_val r);
/* "not (v)", for a guard's else branch. */
const char *tr_negated(tr_ctx *c, tr_val v);

/* Types (translate_value.c) */
/* 0 fp16, 1 fp32, 2 fp64, -1 not floating */
int tr_float_kind(tr_ctx *c, CXType t);
int tr_expr_float_kind(tr_ctx *c, CXCursor e);
/* sizeof(T) or sizeof x that clang leaves unevaluated in a template: the bound type's size;
 * an unknown for anything else (alignof). */
tr_val tr_sizeof(tr_ctx *c, CXCursor e);
/* An integer or enum type, char16_t and char32_t left out (the values of
 * expressions). */
bool tr_is_integer_type(CXType t);
/* An integer or enum type, char16_t and char32_t counted (declared and
 * loop variables). */
bool tr_is_int(CXType t);
bool tr_is_pointer_type(CXType t);
bool tr_is_array_type(CXType t);
/* The elements in one `t` (the product of an array type's extents), as a
 * model expression; NULL when it cannot be said. */
const char *tr_elems_of_type(tr_ctx *c, CXType t);
/* The elements one step of a pointer of type ptr_type moves ("1" when it
 * cannot be said). */
const char *tr_pointee_stride(tr_ctx *c, CXType ptr_type);

/* Memory and arithmetic (translate_value.c) */
/* <load>, <store> or <atomic> of a V_PTR element (a load read before in the
 * statement is not emitted again); a store or an atomic marks the array
 * written. */
void tr_access(tr_ctx *c, const char *what, tr_val p);
/* <atomic> of a V_PTR element updated with `operand` (the call's second argument): it says
 * operand="per-lane" unless the operand is a constant or an integer expression the same in
 * every lane (tr_lane_varying). */
void tr_atomic(tr_ctx *c, tr_val p, tr_val operand);
/* The element p points at, read (an unknown at `at` when p is one). */
tr_val tr_load_of(tr_ctx *c, CXCursor at, tr_val p, const char *what);
/* The FMA state while the operands of `add` (op "+", "-", "+=" or "-=": l op r; l a null
 * cursor for a compound assignment, whose target is never the multiply) are translated, in
 * *f: add, and its operand that is a multiply of add's precision, not a constant (the left
 * one first: each multiply pairs with one add). The caller sets c->fma to *f, translates the
 * operands and counts the add, then restores c->fma. False, *f untouched, for any other op
 * (c->fma then stays as it is: a multiply's FLOP is counted into its add's state). */
bool tr_fma_pair(tr_ctx *c, CXCursor add, const char *op, CXCursor l, CXCursor r, tr_fma *f);
/* The FLOP of the operator `e` ("+", "-", "*", "/": one op's first character, compound forms
 * included) at precision fk (none when fk < 0): fused when e is c->fma's multiply, or its add
 * once the multiply was counted; a division fused, as before (docs/import.md); any other
 * an add or multiply alone (unfused). */
void tr_op_flop(tr_ctx *c, CXCursor e, const char *op, int fk);
/* l op r for arithmetic, comparisons and pointer offsets, FLOPs counted (tr_op_flop). */
tr_val tr_arith(tr_ctx *c, CXCursor e, const char *op, tr_val l, tr_val r, CXType lt, CXType rt);
/* An integer constant clang folds (macros, sizeof, enumerators). */
bool tr_try_const(tr_ctx *c, CXCursor e, tr_val *out);

/* Writes the model lacks (translate_value.c), read from the syntax alone */
enum { ROOT_NONE = -1, ROOT_UNTOLD = -2, ROOT_DECL = -3, ROOT_MARKED = -4 };
/* The array an lvalue or pointer expression is rooted in, read from the
 * syntax alone (nothing emitted, no param marked used): the index of an
 * array a local pointer, or a reference, points into; ROOT_DECL with *decl
 * set for a pointer param or a file-scope array named directly; ROOT_NONE
 * when the root is no array in memory (a local scalar, a register array);
 * ROOT_UNTOLD when it cannot be told (a pointer chosen by data, read from
 * memory, a member); ROOT_MARKED for a reference to an element that
 * cannot be said, whose root was marked written where it was bound. */
int tr_root_array(tr_ctx *c, CXCursor e, CXCursor *decl);
/* Records that memory at `target` (an lvalue or a pointer expression) is
 * written where no <store> or <atomic> says so (an unknown, a call not
 * inlined): its array is marked written, or c->untold_write set when the
 * array cannot be told from the syntax. Emits nothing. */
void tr_mark_written(tr_ctx *c, CXCursor target);
/* tr_mark_written(target) when `t`, the type `target` is bound or passed as, lets the code
 * write through it: a reference, or (with `pointers`) a pointer, to a type not const. Marked
 * where it is bound, whether the code writes through it or not, so that the array keeps no
 * read-only-path="yes" even where a write through it is an unknown. */
void tr_mark_writable(tr_ctx *c, CXType t, CXCursor target, bool pointers);
/* A reference the code may write through, bound by tr_reference (to an element or a local):
 * an lvalue reference, not const, to a type that is not an array (a reference to a row is
 * bound like a pointer). */
bool tr_is_writable_reference(CXType t);
/* The binding of `e` when it names a reference bound as an element (ref set), else NULL. */
tr_binding *tr_reference_of(tr_ctx *c, CXCursor e);
/* The value of the reference b, read at `at`: its element loaded, or the value it was bound
 * to when the element cannot be said. */
tr_val tr_read_through(tr_ctx *c, const tr_binding *b, CXCursor at);
/* A write through the reference b at `at`: a <store> to its element, nothing for a
 * register array's, an unknown when the element cannot be said. */
void tr_store_through(tr_ctx *c, const tr_binding *b, CXCursor at);

/* Expressions (translate_expr.c) */
tr_val tr_expr(tr_ctx *c, CXCursor e);
/* As tr_expr, for an expression whose address is taken or written. */
tr_val tr_addr(tr_ctx *c, CXCursor e);
/* The value of a variable or parameter `d` (referenced at `e`, a null
 * cursor when there is no reference: file-scope constants then need one). */
tr_val tr_decl_value(tr_ctx *c, CXCursor d, CXCursor e);
/* The type of the i-th param of the function a call inlines (an invalid type for any other
 * call, or past the last param). */
CXType tr_call_param_type(tr_ctx *c, CXCursor call, int i);
/* lhs = v: a local rebound, an element stored, or an unknown. */
void tr_store_to(tr_ctx *c, CXCursor lhs, tr_val v);
/* The binding of a reference that is not const (tr_is_writable_reference) to `init`: to
 * the element init names in memory, translated without a load (ref set); to another such
 * reference's element; to a local variable or param init names (to_local set); to the
 * value, as any variable, for anything else that is no memory (a register array's
 * element, a member of a local). decl is left for the caller to set. */
tr_binding tr_reference(tr_ctx *c, CXCursor init);

/* For statements (translate_loop.c) */
void tr_for_stmt(tr_ctx *c, CXCursor s);

/* Statements (translate_stmt.c) */
void tr_stmt(tr_ctx *c, CXCursor s);
/* Translates the body of a function or a loop (a compound statement): an
 * early return or continue at its top level puts the rest of it under the
 * negated condition. */
void tr_body(tr_ctx *c, CXCursor body);
/* tr_stmt and tr_body, for tr_ctx.stmts. */
extern const tr_stmt_fns tr_statements;

#endif
