/* translate.c: the translator's memory, cursors, tokens, output (the
 * <work> text, FLOPs, unknowns, notes), names and scopes (translate.h).
 * The lowest of the translator's files: it calls none of the others. */
#include "import/translate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/names.h"

/* A list of blocks, freed together: the translation makes many small
 * strings whose lifetimes all end with the kernel's draft. */
struct tr_arena {
    struct block {
        struct block *next;
        size_t used, cap;
        char data[];
    } *head;
};

tr_arena *tr_arena_new(void)
{
    return calloc(1, sizeof(tr_arena));
}

void tr_arena_free(tr_arena *a)
{
    if (!a)
        return;
    for (struct block *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

static void *arena_alloc(tr_ctx *c, size_t n)
{
    tr_arena *a = c->arena;
    n = (n + 7) & ~(size_t)7;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        struct block *b = malloc(sizeof *b + cap);
        if (!b) {
            c->failed = true;
            return NULL;
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    return p;
}

char *tr_strdup(tr_ctx *c, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = arena_alloc(c, n);
    if (!p)
        return (char *)"";
    memcpy(p, s, n);
    return p;
}

static char *vprintf_arena(tr_ctx *c, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return (char *)"";
    char *p = arena_alloc(c, (size_t)n + 1);
    if (!p)
        return (char *)"";
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *tr_printf(tr_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = vprintf_arena(c, fmt, ap);
    va_end(ap);
    return p;
}

char *tr_cx(tr_ctx *c, CXString s)
{
    const char *t = clang_getCString(s);
    char *p = tr_strdup(c, t ? t : "");
    clang_disposeString(s);
    return p;
}

/* ---------------------------------------------------------------- cursors */

typedef struct {
    tr_ctx *c;
    CXCursor *v;
    unsigned n, cap;
} kids;

static enum CXChildVisitResult collect(CXCursor cur, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (k->n == k->cap) {
        unsigned cap = k->cap ? k->cap * 2 : 8;
        CXCursor *v = arena_alloc(k->c, cap * sizeof *v);
        if (!v)
            return CXChildVisit_Break;
        if (k->n)
            memcpy(v, k->v, k->n * sizeof *v);
        k->v = v;
        k->cap = cap;
    }
    k->v[k->n++] = cur;
    return CXChildVisit_Continue;
}

CXCursor *tr_children(tr_ctx *c, CXCursor cur, unsigned *n)
{
    kids k = {c, NULL, 0, 0};
    clang_visitChildren(cur, collect, &k);
    *n = k.n;
    return k.v;
}

CXCursor tr_last_expr(tr_ctx *c, CXCursor cur)
{
    unsigned n;
    CXCursor *ch = tr_children(c, cur, &n);
    CXCursor e = clang_getNullCursor();
    for (unsigned i = 0; i < n; i++)
        if (clang_isExpression(clang_getCursorKind(ch[i])))
            e = ch[i];
    return e;
}

CXCursor tr_strip(tr_ctx *c, CXCursor e)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return e;
        unsigned n;
        CXCursor *inner = tr_children(c, e, &n);
        if (n != 1)
            return e;
        e = inner[0];
    }
}

int tr_line(CXCursor cur)
{
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(cur), NULL, &line, NULL, NULL);
    return (int)line;
}

unsigned tr_offset(CXSourceLocation loc)
{
    unsigned off = 0;
    clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

static CXFile file_of(CXSourceLocation loc)
{
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    return f;
}

char *tr_source_text(tr_ctx *c, CXCursor cur)
{
    CXSourceRange r = clang_getCursorExtent(cur);
    CXSourceLocation b = clang_getRangeStart(r), e = clang_getRangeEnd(r);
    CXFile f = file_of(b);
    size_t size = 0;
    const char *text = f ? clang_getFileContents(c->tu, f, &size) : NULL;
    unsigned ob = tr_offset(b), oe = tr_offset(e);
    if (!text || oe < ob || oe > size)
        return (char *)"";
    /* from the start of the line, so that the indentation stays */
    while (ob > 0 && text[ob - 1] != '\n' && isspace((unsigned char)text[ob - 1]))
        ob--;
    char *p = arena_alloc(c, oe - ob + 1);
    if (!p)
        return (char *)"";
    memcpy(p, text + ob, oe - ob);
    p[oe - ob] = '\0';
    return p;
}

/* The punctuation between file offsets [from, to) of `f`, concatenated. */
static const char *punct_between(tr_ctx *c, CXFile f, unsigned from, unsigned to)
{
    if (!f || to <= from)
        return NULL;
    CXSourceRange r = clang_getRange(clang_getLocationForOffset(c->tu, f, from),
                                     clang_getLocationForOffset(c->tu, f, to));
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, r, &toks, &n);
    char op[8] = "";
    size_t len = 0;
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        unsigned o = tr_offset(clang_getTokenLocation(c->tu, toks[i]));
        if (o < from || o >= to)
            continue;
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(s);
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation || len + strlen(t) >= sizeof op ||
            strcmp(t, "(") == 0 || strcmp(t, ")") == 0)
            ok = false;
        else {
            memcpy(op + len, t, strlen(t) + 1);
            len += strlen(t);
        }
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
    return ok && len ? tr_strdup(c, op) : NULL;
}

/* In a macro's body the operands share one expansion range: read the
 * operator written just before the right operand's spelling. */
static const char *op_before_spelling(tr_ctx *c, CXCursor rhs)
{
    CXSourceLocation loc = clang_getCursorLocation(rhs);
    CXFile f = NULL, ef = NULL;
    unsigned off = 0, eoff = 0;
    clang_getSpellingLocation(loc, &f, NULL, NULL, &off);
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eoff);
    /* Only a spelling inside the macro's definition says anything: where
     * libclang gives the place of the expansion instead, the text before it
     * is the code around the macro, not its operator. */
    if (!f || (clang_File_isEqual(f, ef) && off == eoff))
        return NULL;
    size_t size = 0;
    const char *text = f ? clang_getFileContents(c->tu, f, &size) : NULL;
    if (!text || off > size)
        return NULL;
    unsigned e = off;
    while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t'))
        e--;
    unsigned b = e;
    while (b > 0 && strchr("+-*/%<>=!&|^", text[b - 1]))
        b--;
    if (b == e || e - b > 3)
        return NULL;
    char op[4] = {0};
    memcpy(op, text + b, e - b);
    return tr_strdup(c, op);
}

const char *tr_operator(tr_ctx *c, CXCursor cur, bool *postfix)
{
    unsigned n = 0;
    CXCursor *k = tr_children(c, cur, &n);
    CXSourceRange whole = clang_getCursorExtent(cur);
    CXFile f = file_of(clang_getRangeStart(whole));
    if (postfix)
        *postfix = false;
    if (n == 2) {
        unsigned from = tr_offset(clang_getRangeEnd(clang_getCursorExtent(k[0])));
        unsigned to = tr_offset(clang_getRangeStart(clang_getCursorExtent(k[1])));
        const char *op = punct_between(c, f, from, to);
        return op ? op : op_before_spelling(c, k[1]);
    }
    if (n == 1) {
        unsigned wb = tr_offset(clang_getRangeStart(whole)), we = tr_offset(clang_getRangeEnd(whole));
        CXSourceRange sub = clang_getCursorExtent(k[0]);
        unsigned sb = tr_offset(clang_getRangeStart(sub)), se = tr_offset(clang_getRangeEnd(sub));
        if (sb > wb)
            return punct_between(c, f, wb, sb);
        if (we > se) {
            if (postfix)
                *postfix = true;
            return punct_between(c, f, se, we);
        }
        /* inside a macro: the character before the operand's spelling */
        const char *op = op_before_spelling(c, k[0]);
        if (op && strlen(op) <= 2)
            return op;
    }
    return NULL;
}

/* ---------------------------------------------------------------- output */

void tr_emit(tr_ctx *c, const char *fmt, ...)
{
    for (int i = 0; i < c->indent; i++)
        rc_buffer_puts(&c->out, "  ");
    va_list ap;
    va_start(ap, fmt);
    char *s = vprintf_arena(c, fmt, ap);
    va_end(ap);
    rc_buffer_puts(&c->out, s);
    rc_buffer_puts(&c->out, "\n");
}

void tr_flush_flops(tr_ctx *c)
{
    static const char *const prec[] = {" precision=\"fp16\"", "", " precision=\"fp64\""};
    for (int i = 0; i < 3; i++) {
        if (c->flops[i])
            tr_emit(c, "<flops count=\"%lld\"%s/>", c->flops[i], prec[i]);
        if (c->unfused_flops[i])
            tr_emit(c, "<flops count=\"%lld\"%s fused=\"false\"/>", c->unfused_flops[i],
                    prec[i]);
        c->flops[i] = c->unfused_flops[i] = 0;
    }
    static const char *const pipe[] = {"conversion", "conversion64", "special"}; /* tr_pipe */
    for (int i = 0; i < TR_PIPES; i++) {
        if (c->instructions[i])
            tr_emit(c, "<instructions pipe=\"%s\" count=\"%lld\"/>", pipe[i],
                    c->instructions[i]);
        c->instructions[i] = 0;
    }
}

void tr_add_flops(tr_ctx *c, int kind, long long n)
{
    if (kind >= 0 && kind <= 2)
        c->flops[kind] += n;
}

void tr_add_unfused_flops(tr_ctx *c, int kind, long long n)
{
    if (kind >= 0 && kind <= 2)
        c->unfused_flops[kind] += n;
}

void tr_add_instructions(tr_ctx *c, tr_pipe pipe, long long n)
{
    c->instructions[pipe] += n;
}

void tr_end_statement(tr_ctx *c)
{
    tr_flush_flops(c);
    c->nseen = 0;
}

const char *tr_xml_escape(tr_ctx *c, const char *s)
{
    rc_buffer b = {0};
    for (; *s; s++) {
        if (*s == '<')
            rc_buffer_puts(&b, "&lt;");
        else if (*s == '>')
            rc_buffer_puts(&b, "&gt;");
        else if (*s == '&')
            rc_buffer_puts(&b, "&amp;");
        else if (*s == '"')
            rc_buffer_puts(&b, "&quot;");
        else if (*s == '-' && s[1] == '-')
            rc_buffer_puts(&b, "- "); /* also safe inside comments */
        else if ((unsigned char)*s < 0x20 && *s != '\n')
            rc_buffer_puts(&b, " ");
        else
            rc_buffer_put(&b, s, 1);
    }
    size_t n;
    char *t = rc_buffer_take(&b, &n);
    if (!t)
        return "";
    char *r = tr_strdup(c, t);
    free(t);
    return r;
}

static void *grow(tr_ctx *c, void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return v;
    size_t nc = *cap ? *cap * 2 : 8;
    void *p = arena_alloc(c, nc * size);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, v, n * size);
    *cap = nc;
    return p;
}

#define PUSH(c, arr, n, cap, item)                                                     \
    do {                                                                               \
        void *p_ = grow((c), (arr), &(cap), (n), sizeof *(arr));                       \
        if (p_) {                                                                      \
            (arr) = p_;                                                                \
            (arr)[(n)++] = (item);                                                     \
        }                                                                              \
    } while (0)

void tr_add_unknown(tr_ctx *c, CXCursor at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = vprintf_arena(c, fmt, ap);
    va_end(ap);
    tr_flush_flops(c);
    int line = tr_line(at);
    tr_emit(c, "<!-- UNKNOWN (source line %d): %s -->", line, tr_xml_escape(c, what));
    tr_unknown u = {line, what};
    PUSH(c, c->unknowns, c->nunknowns, c->cunknowns, u);
}

void tr_add_note(tr_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = vprintf_arena(c, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < c->nnotes; i++)
        if (strcmp(c->notes[i], what) == 0)
            return;
    PUSH(c, c->notes, c->nnotes, c->cnotes, (const char *)what);
}

void tr_bind(tr_ctx *c, CXCursor decl, tr_val v)
{
    tr_binding *b = tr_lookup(c, decl);
    if (b) {
        b->val = v;
        return;
    }
    tr_binding nb = {.decl = decl, .val = v};
    PUSH(c, c->env, c->nenv, c->cenv, nb);
}

void tr_push(tr_ctx *c, CXCursor decl, tr_val v)
{
    tr_binding nb = {.decl = decl, .val = v};
    PUSH(c, c->env, c->nenv, c->cenv, nb);
}

void tr_push_binding(tr_ctx *c, tr_binding b)
{
    PUSH(c, c->env, c->nenv, c->cenv, b);
}

tr_binding *tr_lookup(tr_ctx *c, CXCursor decl)
{
    for (size_t i = c->nenv; i-- > 0;)
        if (clang_equalCursors(c->env[i].decl, decl))
            return &c->env[i];
    return NULL;
}

CXCursor tr_target(tr_ctx *c, CXCursor decl)
{
    tr_binding *b = tr_lookup(c, decl);
    return b && b->to_local ? b->target : decl; /* tr_reference never chains them */
}

static bool reserved(const char *n)
{
    static const char *const r[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
                                    "and",       "or",       "not",      "min",     "max"};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (strcmp(n, r[i]) == 0)
            return true;
    return false;
}

static bool name_taken(tr_ctx *c, const char *n)
{
    if (reserved(n))
        return true;
    for (size_t i = 0; i < c->nnames; i++)
        if (strcmp(c->names[i].name, n) == 0)
            return true;
    for (size_t i = 0; i < c->nparams; i++)
        if (strcmp(c->params[i].name, n) == 0)
            return true;
    for (size_t i = 0; i < c->ntargs; i++)
        if (strcmp(c->targs[i].name, n) == 0)
            return true;
    return false;
}

/* A name for a let or loop variable that hides nothing: the C name, else
 * the C name with _2, _3, ... (a variable assigned again gets a new let).
 * Names stay taken for the whole kernel, so that nesting never matters. */
const char *tr_new_name(tr_ctx *c, const char *want)
{
    const char *n = want;
    for (int i = 2; name_taken(c, n); i++)
        n = tr_printf(c, "%s_%d", want, i);
    tr_name nm = {n, false};
    PUSH(c, c->names, c->nnames, c->cnames, nm);
    return n;
}

/* Whether the identifier id[0..n) is threadIdx or a name whose value differs by lane. */
static bool lane_identifier(const tr_ctx *c, const char *id, size_t n)
{
    if (n == 9 && strncmp(id, "threadIdx", 9) == 0)
        return true;
    for (size_t i = 0; i < c->nnames; i++)
        if (c->names[i].lane && strlen(c->names[i].name) == n &&
            strncmp(c->names[i].name, id, n) == 0)
            return true;
    return false;
}

bool tr_lane_varying(tr_ctx *c, const char *text)
{
    for (const char *p = text; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        /* a member (blockIdx.x's x) is no name of the model */
        if ((p == text || p[-1] != '.') && lane_identifier(c, p, (size_t)(q - p)))
            return true;
        p = q;
    }
    return false;
}

void tr_name_from(tr_ctx *c, const char *name, const char *value)
{
    if (!tr_lane_varying(c, value))
        return;
    for (size_t i = 0; i < c->nnames; i++)
        if (strcmp(c->names[i].name, name) == 0)
            c->names[i].lane = true;
}

void tr_use_param(tr_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->nused; i++)
        if (strcmp(c->used_params[i], name) == 0)
            return;
    PUSH(c, c->used_params, c->nused, c->cused, name);
    bool has = false;
    for (size_t i = 0; i < c->nparams; i++)
        if (strcmp(c->params[i].name, name) == 0)
            has = true;
    for (size_t i = 0; i < c->ntargs; i++)
        if (strcmp(c->targs[i].name, name) == 0 && !c->targs[i].is_type)
            has = true;
    if (!has)
        PUSH(c, c->missing, c->nmissing, c->cmissing, name);
}

/* The model's name for a C element type, and its size. */
bool tr_elem_type(tr_ctx *c, CXType t, const char **name, int *bytes)
{
    CXType ct = clang_getCanonicalType(t);
    static const struct {
        enum CXTypeKind kind;
        const char *name;
    } scalars[] = {
        {CXType_Char_S, "char"},          {CXType_SChar, "char"},
        {CXType_Char_U, "unsigned char"}, {CXType_UChar, "unsigned char"},
        {CXType_Bool, "unsigned char"},   {CXType_Short, "short"},
        {CXType_UShort, "unsigned short"}, {CXType_Int, "int"},
        {CXType_UInt, "unsigned int"},    {CXType_Long, "long long"},
        {CXType_ULong, "unsigned long long"}, {CXType_LongLong, "long long"},
        {CXType_ULongLong, "unsigned long long"}, {CXType_Float, "float"},
        {CXType_Double, "double"},        {CXType_Half, "half"},
        {CXType_Float16, "half"},
    };
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (ct.kind == scalars[i].kind) {
            *name = scalars[i].name;
            *bytes = (int)clang_Type_getSizeOf(ct);
            return true;
        }
    if (ct.kind == CXType_Record) {
        char *s = tr_cx(c, clang_getTypeSpelling(clang_getTypeDeclaration(ct).kind
                                                     ? clang_getCursorType(clang_getTypeDeclaration(ct))
                                                     : ct));
        static const char *const vec[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                          "long", "ulong", "longlong", "ulonglong", "float",
                                          "double"};
        const char *base = strncmp(s, "struct ", 7) == 0 ? s + 7 : s;
        size_t bl = strlen(base);
        if (bl > 1 && base[bl - 1] >= '1' && base[bl - 1] <= '4')
            for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
                if (strlen(vec[i]) == bl - 1 && strncmp(base, vec[i], bl - 1) == 0) {
                    *name = tr_strdup(c, base);
                    *bytes = (int)clang_Type_getSizeOf(ct);
                    return true;
                }
        if (strcmp(base, "__half2") == 0 || strcmp(base, "half2") == 0) {
            *name = "half2";
            *bytes = 4;
            return true;
        }
    }
    /* a template type parameter bound to a type */
    char *sp = tr_cx(c, clang_getTypeSpelling(t));
    const char *base = strncmp(sp, "const ", 6) == 0 ? sp + 6 : sp;
    for (size_t i = 0; i < c->ntargs; i++)
        if (c->targs[i].is_type && strcmp(c->targs[i].name, base) == 0) {
            /* the argument as written (--kernel 'k<uint32_t>') and the model's name for it,
             * whose size the model's table gives (rc_type_size) */
            static const struct {
                const char *written, *name;
            } known[] = {{"float", "float"}, {"double", "double"}, {"int", "int"},
                         {"unsigned int", "unsigned int"}, {"unsigned", "unsigned int"},
                         {"half", "half"}, {"__half", "half"}, {"long long", "long long"},
                         {"unsigned long long", "unsigned long long"}, {"char", "char"},
                         {"unsigned char", "unsigned char"}, {"short", "short"},
                         {"unsigned short", "unsigned short"}, {"int8_t", "char"},
                         {"uint8_t", "unsigned char"}, {"int16_t", "short"},
                         {"uint16_t", "unsigned short"}, {"int32_t", "int"},
                         {"uint32_t", "unsigned int"}, {"int64_t", "long long"},
                         {"uint64_t", "unsigned long long"}, {"float2", "float2"},
                         {"float4", "float4"}, {"double2", "double2"}, {"int2", "int2"},
                         {"int4", "int4"}};
            for (size_t j = 0; j < sizeof known / sizeof known[0]; j++)
                if (strcmp(known[j].written, c->targs[i].value) == 0) {
                    *name = known[j].name;
                    *bytes = rc_type_size(known[j].name);
                    return true;
                }
        }
    return false;
}

int tr_array_for(tr_ctx *c, CXCursor decl, const char *name, CXType elem, const char *space,
                 const char *length, int order, int line)
{
    for (size_t i = 0; i < c->narrays; i++)
        if (clang_equalCursors(c->arrays[i].decl, decl))
            return (int)i;
    const char *tname;
    int bytes;
    if (!tr_elem_type(c, elem, &tname, &bytes))
        return -1;
    tr_array a = {0};
    a.name = name;
    a.type = tname;
    a.elem_bytes = bytes;
    a.space = space;
    a.length = length;
    a.order = order;
    a.line = line;
    a.decl = decl;
    for (size_t i = 0; i < c->nwritten; i++)
        a.written |= clang_equalCursors(c->written_decls[i], decl) != 0;
    for (size_t i = 0; i < c->nlengths; i++)
        if (strcmp(c->lengths[i].name, name) == 0) {
            a.length = c->lengths[i].expr;
            a.length_given = true;
            ((tr_assign *)c->lengths)[i].used = true;
        }
    PUSH(c, c->arrays, c->narrays, c->carrays, a);
    return (int)c->narrays - 1;
}

void tr_mark_decl_written(tr_ctx *c, CXCursor decl)
{
    for (size_t i = 0; i < c->narrays; i++)
        if (clang_equalCursors(c->arrays[i].decl, decl)) {
            c->arrays[i].written = true;
            return;
        }
    PUSH(c, c->written_decls, c->nwritten, c->cwritten, decl);
}
