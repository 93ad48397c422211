/* import.c: `roofcast import` (import.h): the command line, clang, and one
 * draft per __global__ function.
 */
#include "import/import.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/draft.h"
#include "import/standin.h"
#include "import/translate.h"
#include "util/array.h"
#include "util/output.h"

/* A source larger than this is refused before clang sees it: kernel files
 * are kilobytes, and a generated blob would take minutes. */
#define MAX_SOURCE_BYTES (4L * 1024 * 1024)

static const char usage_text[] =
    "Usage: roofcast import SOURCE [OPTION]...\n"
    "Writes a draft kernel file (DIR/ID.xml) per __global__ function of the CUDA file SOURCE.\n"
    "\n"
    "  --kernel NAME        the __global__ function (default: every one in SOURCE); template\n"
    "                       arguments in angle brackets: --kernel 'sgemm_smem<32>'\n"
    "  --id ID              the draft's kernel id (default: the function's name; one kernel)\n"
    "  --grid EXPRS  --block EXPRS\n"
    "                       the launch, as <launch> writes it; without them, from a <<<...>>>\n"
    "                       site in SOURCE whose arguments are constant\n"
    "  --shared-bytes EXPR  the launch's dynamic shared memory (extern __shared__ arrays)\n"
    "  --param NAME=EXPR    a scalar parameter's value (repeatable)\n"
    "  --length NAME=EXPR   a pointer parameter's length in elements (repeatable); without it,\n"
    "                       the smallest length holding every index the launch touches\n"
    "  --registers N        registers per thread, as ptxas reports them\n"
    "  -D NAME[=VALUE]  -I DIR   as the compiler takes them\n"
    "  -o DIR               where drafts go (default: kernels/)\n"
    "  -v, --verbose        also list clang's errors outside the imported kernels\n"
    "  -h, --help\n"
    "\n"
    "Exit status: 0 every draft complete; 1 a draft has unknowns (it is still written) or a\n"
    "kernel could not be imported; 2 bad usage; 3 output not written.\n";

typedef struct {
    const char *source;
    const char *kernel_spec;
    const char *id;
    const char *grid, *block, *shared_bytes, *registers;
    const char *outdir;
    tr_assign *params, *lengths;
    size_t nparams, nlengths, cap_params, cap_lengths;
    const char **clang_args;
    size_t nclang;
    int verbose;
} options;

static void options_free(options *o)
{
    for (size_t i = 0; i < o->nparams; i++)
        free((char *)o->params[i].name);
    for (size_t i = 0; i < o->nlengths; i++)
        free((char *)o->lengths[i].name);
    free(o->params);
    free(o->lengths);
    free(o->clang_args);
}

static int usage_error(FILE *err, const char *msg)
{
    fprintf(err, "roofcast import: %s\nTry 'roofcast import --help' for more information.\n", msg);
    return 2;
}

static bool push_assign(tr_assign **v, size_t *n, size_t *cap, const char *arg, const char *opt,
                        FILE *err)
{
    char e[300];
    char *name;
    const char *expr;
    if (!rc_import_parse_assign(arg, &name, &expr, e, sizeof e)) {
        fprintf(err, "roofcast import: %s: %s\n", opt, e);
        return false;
    }
    if (!rc_grow(v, cap, *n + 1, sizeof **v)) {
        free(name);
        return false;
    }
    (*v)[*n] = (tr_assign){.name = name, .expr = expr};
    (*n)++;
    return true;
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, options *o, FILE *out, FILE *err)
{
    o->outdir = "kernels";
    o->clang_args = calloc((size_t)argc * 2 + 1, sizeof *o->clang_args);
    if (!o->clang_args)
        return 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        static const char *const with_value[] = {"--kernel", "--id",     "--grid",  "--block",
                                                 "--shared-bytes", "--param", "--length",
                                                 "--registers", "-o", "--output", NULL};
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, out);
            return 0;
        }
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
            continue;
        }
        if ((a[0] == '-' && (a[1] == 'D' || a[1] == 'I'))) {
            const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || !*v) {
                char m[100];
                snprintf(m, sizeof m, "-%c needs an argument", a[1]);
                return usage_error(err, m);
            }
            o->clang_args[o->nclang++] = a[1] == 'D' ? "-D" : "-I";
            o->clang_args[o->nclang++] = v;
            continue;
        }
        bool known = false;
        for (int k = 0; with_value[k]; k++) {
            size_t kl = strlen(with_value[k]);
            if (strncmp(a, with_value[k], kl) == 0 && (a[kl] == '\0' || a[kl] == '=')) {
                known = true;
                if (a[kl] == '=')
                    val = a + kl + 1;
                else if (i + 1 < argc && (argv[i + 1][0] != '-' || argv[i + 1][1] == '\0'))
                    val = argv[++i];
                else {
                    char m[200];
                    snprintf(m, sizeof m, "%s needs an argument (one starting with '-' is written %s=VALUE)",
                             with_value[k], with_value[k]);
                    return usage_error(err, m);
                }
                const char *opt = with_value[k];
                if (strcmp(opt, "--kernel") == 0)
                    o->kernel_spec = val;
                else if (strcmp(opt, "--id") == 0)
                    o->id = val;
                else if (strcmp(opt, "--grid") == 0)
                    o->grid = val;
                else if (strcmp(opt, "--block") == 0)
                    o->block = val;
                else if (strcmp(opt, "--shared-bytes") == 0)
                    o->shared_bytes = val;
                else if (strcmp(opt, "--registers") == 0)
                    o->registers = val;
                else if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0)
                    o->outdir = val;
                else if (strcmp(opt, "--param") == 0) {
                    if (!push_assign(&o->params, &o->nparams, &o->cap_params, val, opt, err))
                        return 2;
                } else if (!push_assign(&o->lengths, &o->nlengths, &o->cap_lengths, val, opt, err))
                    return 2;
                break;
            }
        }
        if (known)
            continue;
        if (a[0] == '-' && a[1]) {
            char m[300];
            snprintf(m, sizeof m, "unknown option '%s'", a);
            return usage_error(err, m);
        }
        if (o->source)
            return usage_error(err, "one SOURCE at a time");
        o->source = a;
    }
    if (!o->source)
        return usage_error(err, "no SOURCE (a CUDA file)");
    if (!*o->outdir)
        return usage_error(err, "-o: an empty directory name");
    if ((o->grid != NULL) != (o->block != NULL))
        return usage_error(err, o->grid ? "--grid needs --block" : "--block needs --grid");
    for (const char *s = o->registers; s && *s; s++)
        if (*s < '0' || *s > '9' || s - o->registers > 4)
            return usage_error(err, "--registers: expected a whole number (1 to 255)");
    if (o->id && !rc_draft_id_ok(o->id)) {
        char m[300];
        snprintf(m, sizeof m, "--id: '%s' is not a safe kernel id (letters, digits, '_', '.', '-')", o->id);
        return usage_error(err, m);
    }
    return -1;
}

/* ---------------------------------------------------------------- stubs */

/* The directory of empty stand-ins for the toolkit's headers, searched
 * first, and the stand-in header itself. Removed by stubs_free. */
typedef struct {
    char dir[64];
    char **files;
    size_t nfiles, cap_files;
} stubs;

static bool stub_add(stubs *s, const char *rel, const char *text)
{
    if (strstr(rel, "..") || rel[0] == '/' || strlen(rel) > 200)
        return true; /* not ours to make */
    char path[320];
    snprintf(path, sizeof path, "%s/%s", s->dir, rel);
    for (char *p = path + strlen(s->dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0700) == 0) {
                if (RC_GROW(s->files, s->cap_files, s->nfiles + 1))
                    s->files[s->nfiles++] = strdup(path);
            }
            *p = '/';
        }
    struct stat st;
    if (stat(path, &st) == 0)
        return true;
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    bool ok = fclose(f) == 0;
    if (RC_GROW(s->files, s->cap_files, s->nfiles + 1))
        s->files[s->nfiles++] = strdup(path);
    return ok;
}

static void stubs_free(stubs *s)
{
    for (size_t i = s->nfiles; i-- > 0;) {
        if (s->files[i]) {
            if (remove(s->files[i]) != 0)
                rmdir(s->files[i]);
        }
        free(s->files[i]);
    }
    free(s->files);
    if (s->dir[0])
        rmdir(s->dir);
}

static bool readable_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path)
        return false;
    snprintf(path, n, "%s/%s", dir, name);
    bool ok = access(path, R_OK) == 0;
    free(path);
    return ok;
}

/* A file's text, NUL-terminated; NULL when it cannot be read or is larger
 * than the importer reads. */
static char *read_text(const char *path, size_t *len)
{
    /* without blocking on a FIFO, a regular file only (util/output.h) */
    const char *why;
    return rc_read_regular(AT_FDCWD, path, true, MAX_SOURCE_BYTES, len, &why);
}

/* Where `name` (#include "name" in the file `from`) is: beside `from`, else
 * in a -I directory. A new string, or NULL. */
static char *find_quoted(const char *from, const char *name, const options *o)
{
    size_t n = strlen(from) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%s", from);
    char *slash = strrchr(path, '/');
    if (slash)
        snprintf(slash + 1, n - (size_t)(slash + 1 - path), "%s", name);
    else
        snprintf(path, n, "%s", name);
    if (name[0] == '/')
        snprintf(path, n, "%s", name);
    if (access(path, R_OK) == 0)
        return path;
    free(path);
    for (size_t a = 0; a + 1 < o->nclang; a += 2)
        if (strcmp(o->clang_args[a], "-I") == 0 && readable_in(o->clang_args[a + 1], name)) {
            size_t m = strlen(o->clang_args[a + 1]) + strlen(name) + 2;
            char *p = malloc(m);
            if (p)
                snprintf(p, m, "%s/%s", o->clang_args[a + 1], name);
            return p;
        }
    return NULL;
}

/* Every #include "x" or <x> of `text` (the file `path`, and the files it
 * includes with quotes, `depth` deep) that names a toolkit header, and
 * every #include "x" found neither beside its includer nor in a -I
 * directory: an empty file stands in for it, so that the kernels that do not
 * need it still import (those that do fail on what it would have declared). */
static bool scan_includes(stubs *s, const char *text, size_t len, const char *path,
                          const options *o, FILE *err, int depth)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '#' || (i > 0 && text[i - 1] != '\n' && text[i - 1] != ' ' && text[i - 1] != '\t'))
            continue;
        size_t j = i + 1;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (len - j < 8 || strncmp(text + j, "include", 7) != 0)
            continue;
        j += 7;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j >= len || (text[j] != '<' && text[j] != '"'))
            continue;
        char close = text[j] == '<' ? '>' : '"';
        size_t k = j + 1;
        while (k < len && text[k] != close && text[k] != '\n')
            k++;
        if (k >= len || text[k] != close || k - j - 1 == 0 || k - j - 1 > 200)
            continue;
        char name[256];
        memcpy(name, text + j + 1, k - j - 1);
        name[k - j - 1] = '\0';
        if (rc_standin_is_toolkit_header(name)) {
            if (!stub_add(s, name, ""))
                return false;
            continue;
        }
        if (close != '"')
            continue;
        char *found = find_quoted(path, name, o);
        if (!found) {
            size_t line = 1;
            for (size_t q = 0; q < i; q++)
                line += text[q] == '\n';
            fprintf(err, "%s:%zu: '%s' not found: an empty file stands in for it (kernels that "
                         "need it will not import; -I DIR says where it is)\n",
                    path, line, name);
            if (!stub_add(s, name, ""))
                return false;
            continue;
        }
        size_t flen = 0;
        char *ftext = depth < 8 ? read_text(found, &flen) : NULL;
        bool ok = !ftext || scan_includes(s, ftext, flen, found, o, err, depth + 1);
        free(ftext);
        free(found);
        if (!ok)
            return false;
    }
    return true;
}

static bool make_stubs(stubs *s, const char *text, size_t len, const char *source,
                       const options *o, FILE *err)
{
    snprintf(s->dir, sizeof s->dir, "%s", "/tmp/roofcast-import-XXXXXX");
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp && strlen(tmp) < 40)
        snprintf(s->dir, sizeof s->dir, "%s/roofcast-import-XXXXXX", tmp);
    if (!mkdtemp(s->dir)) {
        s->dir[0] = '\0';
        return false;
    }
    char *standin = rc_standin_header();
    bool ok = standin && stub_add(s, "__roofcast_standin.h", standin);
    free(standin);
    return ok && scan_includes(s, text, len, source, o, err, 0);
}

/* ---------------------------------------------------------------- kernels */

typedef struct {
    CXCursor cur;
    char *name;
    int line;
    unsigned begin, end; /* file offsets of the definition */
} kernel;

typedef struct {
    kernel *v;
    size_t n, cap;
    CXFile main;
    /* kernels defined in files SOURCE includes, which are not imported: how many, and the
     * first one's file (owned), for the message when SOURCE defines none */
    size_t n_elsewhere;
    char *elsewhere;
} kernels;

static bool has_attr(CXCursor c, enum CXCursorKind kind);

static enum CXChildVisitResult has_attr_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    if (clang_getCursorKind(c) == *(enum CXCursorKind *)d) {
        *(enum CXCursorKind *)d = CXCursor_FirstInvalid;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static bool has_attr(CXCursor c, enum CXCursorKind kind)
{
    enum CXCursorKind k = kind;
    clang_visitChildren(c, has_attr_visit, &k);
    return k == CXCursor_FirstInvalid;
}

static enum CXChildVisitResult find_kernels(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kernels *ks = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_UnexposedDecl || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) ||
        !clang_isCursorDefinition(c) || !has_attr(c, CXCursor_CUDAGlobalAttr))
        return CXChildVisit_Continue;
    CXFile f;
    unsigned line, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, NULL, &off);
    if (!clang_File_isEqual(f, ks->main)) {
        if (f && ks->n_elsewhere++ == 0) {
            CXString fn = clang_getFileName(f);
            ks->elsewhere = clang_getCString(fn) ? strdup(clang_getCString(fn)) : NULL;
            clang_disposeString(fn);
        }
        return CXChildVisit_Continue;
    }
    if (!RC_GROW(ks->v, ks->cap, ks->n + 1))
        return CXChildVisit_Break;
    CXString s = clang_getCursorSpelling(c);
    CXSourceRange r = clang_getCursorExtent(c);
    unsigned b = 0, e = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
    kernel kk = {c, strdup(clang_getCString(s)), (int)line, b, e};
    clang_disposeString(s);
    ks->v[ks->n++] = kk;
    return CXChildVisit_Continue;
}

/* ---------------------------------------------------------------- launch sites */

typedef struct {
    kernel *k;
    char *grid, *block;           /* constant, or NULL */
    char **args;                  /* per kernel parameter: its constant value or NULL */
    int nargs;
    char **targs;                 /* template arguments at the site */
    int ntargs;
    bool found;
} site;

static char *const_int(CXCursor e)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return NULL;
    char *s = NULL;
    if (clang_EvalResult_getKind(r) == CXEval_Int) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", clang_EvalResult_getAsLongLong(r));
        s = strdup(buf);
    }
    clang_EvalResult_dispose(r);
    return s;
}

typedef struct {
    CXCursor found;
    int depth;
} first_call;

static enum CXChildVisitResult find_call(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    first_call *f = d;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        f->found = c;
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
            f->found = ref;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* "a, b, c" from a launch configuration argument: an integer, dim3(...) or a
 * dim3 variable initialised with constants. */
static char *const_dim(CXCursor e, int depth)
{
    char *v = const_int(e);
    if (v)
        return v;
    if (depth > 2)
        return NULL;
    first_call f = {clang_getNullCursor(), 0};
    if (clang_getCursorKind(e) == CXCursor_CallExpr)
        f.found = e;
    else
        clang_visitChildren(e, find_call, &f);
    if (clang_Cursor_isNull(f.found))
        return NULL;
    if (clang_getCursorKind(f.found) == CXCursor_VarDecl)
        return const_dim(f.found, depth + 1);
    int n = clang_Cursor_getNumArguments(f.found);
    if (n < 1 || n > 3)
        return NULL;
    char buf[100] = "";
    for (int i = 0; i < n; i++) {
        CXCursor a = clang_Cursor_getArgument(f.found, i);
        if (clang_getCursorKind(a) == CXCursor_UnexposedExpr) {
            /* a default argument has no text: the rest are 1 */
            CXSourceRange r = clang_getCursorExtent(a);
            if (clang_Range_isNull(r) ||
                clang_equalLocations(clang_getRangeStart(r), clang_getRangeEnd(r)))
                break;
        }
        char *s = const_int(a);
        if (!s && n == 1) /* dim3's copy: the variable it copies */
            return const_dim(a, depth + 1);
        if (!s)
            return NULL;
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%s", i ? ", " : "", s);
        free(s);
    }
    return strdup(buf);
}

typedef struct {
    kernels *ks;
    site *sites; /* per kernel */
} site_search;

static enum CXChildVisitResult find_sites(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    site_search *ss = d;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
    CXCursor target = clang_Cursor_isNull(tmpl) ? ref : tmpl;
    for (size_t i = 0; i < ss->ks->n; i++) {
        site *s = &ss->sites[i];
        if (s->found || !clang_equalCursors(clang_getCanonicalCursor(target),
                                            clang_getCanonicalCursor(ss->ks->v[i].cur)))
            continue;
        /* the configuration: a call to cudaConfigureCall among the children */
        first_call f = {clang_getNullCursor(), 0};
        clang_visitChildren(c, find_call, &f);
        if (clang_Cursor_isNull(f.found) || clang_getCursorKind(f.found) != CXCursor_CallExpr)
            continue;
        CXString nm = clang_getCursorSpelling(f.found);
        bool cfg = strstr(clang_getCString(nm), "ConfigureCall") ||
                   strstr(clang_getCString(nm), "PushCallConfiguration");
        clang_disposeString(nm);
        if (!cfg || clang_Cursor_getNumArguments(f.found) < 2)
            continue;
        char *g = const_dim(clang_Cursor_getArgument(f.found, 0), 0);
        char *b = const_dim(clang_Cursor_getArgument(f.found, 1), 0);
        if (!g || !b) {
            free(g);
            free(b);
            continue;
        }
        s->found = true;
        s->grid = g;
        s->block = b;
        int na = clang_Cursor_getNumArguments(c);
        s->args = calloc((size_t)(na > 0 ? na : 1), sizeof *s->args);
        s->nargs = s->args ? na : 0;
        for (int a = 0; a < s->nargs; a++)
            s->args[a] = const_int(clang_Cursor_getArgument(c, a));
        int nt = clang_Cursor_getNumTemplateArguments(ref);
        if (nt > 0) {
            s->targs = calloc((size_t)nt, sizeof *s->targs);
            s->ntargs = s->targs ? nt : 0;
            for (int t = 0; t < s->ntargs; t++) {
                enum CXTemplateArgumentKind tk = clang_Cursor_getTemplateArgumentKind(ref, (unsigned)t);
                char buf[100];
                if (tk == CXTemplateArgumentKind_Integral) {
                    snprintf(buf, sizeof buf, "%lld", clang_Cursor_getTemplateArgumentValue(ref, (unsigned)t));
                    s->targs[t] = strdup(buf);
                } else if (tk == CXTemplateArgumentKind_Type) {
                    CXString ts = clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(ref, (unsigned)t));
                    s->targs[t] = strdup(clang_getCString(ts));
                    clang_disposeString(ts);
                }
            }
        }
    }
    return CXChildVisit_Recurse;
}

static void site_free(site *s)
{
    free(s->grid);
    free(s->block);
    for (int i = 0; i < s->nargs; i++)
        free(s->args[i]);
    free(s->args);
    for (int i = 0; i < s->ntargs; i++)
        free(s->targs[i]);
    free(s->targs);
}

/* ---------------------------------------------------------------- main */

static bool in_kernel(const kernel *k, unsigned off)
{
    return off >= k->begin && off < k->end;
}

int rc_import_main(int argc, char **argv, FILE *out, FILE *err)
{
    options o = {0};
    int st = parse_args(argc, argv, &o, out, err);
    if (st >= 0) {
        options_free(&o);
        return st;
    }
    /* the kernel wanted */
    char *want = NULL, *want_args[16];
    size_t nwant_args = 0;
    if (o.kernel_spec) {
        char e[300];
        if (!rc_import_parse_kernel(o.kernel_spec, &want, want_args, &nwant_args, e, sizeof e)) {
            fprintf(err, "roofcast import: --kernel: %s\n", e);
            options_free(&o);
            return 2;
        }
    }
    int status = 0;
    stubs sb = {0};
    CXIndex index = NULL;
    CXTranslationUnit tu = NULL;
    kernels ks = {0};
    site *sites = NULL;
    char *text = NULL;
    /* read the source, to refuse what is not a source file before clang */
    struct stat fst;
    /* opened without blocking on a FIFO, a regular file only (util/output.h) */
    const char *why = NULL;
    int sfd = rc_open_regular(AT_FDCWD, o.source, O_RDONLY, true, &why);
    FILE *sf = sfd >= 0 ? fdopen(sfd, "rb") : NULL;
    if (sfd >= 0 && !sf)
        close(sfd);
    if (!sf && why) {
        fprintf(err, "roofcast import: %s: not a regular file (%s)\n", o.source, why);
        status = 2;
        goto done;
    }
    if (!sf || fstat(fileno(sf), &fst) != 0) {
        fprintf(err, "roofcast import: %s: %s\n", o.source, strerror(errno));
        status = 2;
        goto done;
    }
    if (fst.st_size > MAX_SOURCE_BYTES) {
        fprintf(err, "%s: %lld bytes: larger than the importer reads (%ld MiB); import the kernels from a smaller file\n",
                o.source, (long long)fst.st_size, MAX_SOURCE_BYTES / 1024 / 1024);
        status = 1;
        goto done;
    }
    text = malloc((size_t)fst.st_size + 1);
    size_t tlen = text ? fread(text, 1, (size_t)fst.st_size, sf) : 0;
    if (!text) {
        status = 3;
        goto done;
    }
    text[tlen] = '\0';
    if (memchr(text, '\0', tlen)) {
        fprintf(err, "%s: a binary file (it holds NUL bytes), not CUDA source\n", o.source);
        status = 1;
        goto done;
    }
    if (!make_stubs(&sb, text, tlen, o.source, &o, err)) {
        fprintf(err, "roofcast import: cannot make the stand-in headers in %s: %s\n",
                sb.dir[0] ? sb.dir : "the temporary directory", strerror(errno));
        status = 3;
        goto done;
    }
    char standin[128];
    snprintf(standin, sizeof standin, "%s/__roofcast_standin.h", sb.dir);
    const char *base_args[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                               "--cuda-gpu-arch=sm_80", "-std=c++17", "-ferror-limit=0",
                               "-Xclang", "-fcuda-allow-variadic-functions",
                               "-Wno-everything", "-I", sb.dir, "-include", standin};
    size_t nb = sizeof base_args / sizeof base_args[0];
    const char **args = calloc(nb + o.nclang + 1, sizeof *args);
    if (!args) {
        status = 3;
        goto done;
    }
    memcpy(args, base_args, sizeof base_args);
    memcpy(args + nb, o.clang_args, o.nclang * sizeof *args);
    index = clang_createIndex(0, 0);
    enum CXErrorCode ec = clang_parseTranslationUnit2(
        index, o.source, args, (int)(nb + o.nclang), NULL, 0,
        CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord * 0, &tu);
    free(args);
    if (ec != CXError_Success || !tu) {
        fprintf(err, "roofcast import: %s: clang could not read it (error %d)\n", o.source, (int)ec);
        status = 1;
        goto done;
    }
    ks.main = clang_getFile(tu, o.source);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_kernels, &ks);
    /* clang's errors: those inside a kernel stop that kernel */
    unsigned nd = clang_getNumDiagnostics(tu);
    bool *bad = calloc(ks.n + 1, sizeof *bad);
    if (!bad) {
        status = 3;
        goto done;
    }
    unsigned outside = 0;
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev < CXDiagnostic_Error) {
            clang_disposeDiagnostic(dg);
            continue;
        }
        CXFile f;
        unsigned off;
        CXSourceLocation dl = clang_getDiagnosticLocation(dg);
        clang_getExpansionLocation(dl, &f, NULL, NULL, &off);
        CXString fn = clang_getFileName(f);
        bool ours = clang_getCString(fn) && strncmp(clang_getCString(fn), sb.dir, strlen(sb.dir)) == 0;
        clang_disposeString(fn);
        if (clang_Location_isInSystemHeader(dl) || ours) {
            /* the C++ library and the stand-ins, parsed for device code:
               not the file's problem */
            clang_disposeDiagnostic(dg);
            continue;
        }
        bool mine = false;
        if (f && clang_File_isEqual(f, ks.main))
            for (size_t k = 0; k < ks.n; k++)
                if (in_kernel(&ks.v[k], off) && (!want || strcmp(want, ks.v[k].name) == 0)) {
                    bad[k] = mine = true;
                }
        CXString s = clang_formatDiagnostic(dg, CXDiagnostic_DisplaySourceLocation |
                                                    CXDiagnostic_DisplayColumn);
        if (mine || ks.n == 0 || o.verbose)
            fprintf(err, "%s\n", clang_getCString(s));
        else
            outside++;
        clang_disposeString(s);
        clang_disposeDiagnostic(dg);
    }
    if (ks.n == 0 && ks.n_elsewhere > 0)
        fprintf(err, "%s: no __global__ function defined in it; the files it includes define "
                "%zu (the first in %s), which are not imported: import the file that defines "
                "the kernel\n", o.source, ks.n_elsewhere, ks.elsewhere ? ks.elsewhere : "?");
    else if (ks.n == 0)
        fprintf(err, "%s: no __global__ function (is it CUDA source?)\n", o.source);
    if (ks.n == 0) {
        status = 1;
        free(bad);
        goto done;
    }
    if (outside)
        fprintf(err, "%s: %u error%s outside the imported kernels (host code the stand-ins do not declare?) ignored; -v lists them\n",
                o.source, outside, outside == 1 ? "" : "s");
    /* which kernels */
    size_t first = 0, last = ks.n;
    if (want) {
        size_t k = 0;
        while (k < ks.n && strcmp(ks.v[k].name, want) != 0)
            k++;
        if (k == ks.n) {
            fprintf(err, "roofcast import: %s has no __global__ function '%s'; it has:", o.source, want);
            for (size_t j = 0; j < ks.n; j++)
                fprintf(err, "%s %s", j ? "," : "", ks.v[j].name);
            fprintf(err, "\n");
            status = 2;
            free(bad);
            goto done;
        }
        first = k;
        last = k + 1;
    }
    if (o.id && last - first > 1) {
        fprintf(err, "roofcast import: --id names one draft: choose the kernel with --kernel\n");
        status = 2;
        free(bad);
        goto done;
    }
    sites = calloc(ks.n, sizeof *sites);
    if (!sites) {
        status = 3;
        free(bad);
        goto done;
    }
    if (!o.grid) {
        site_search ss = {&ks, sites};
        clang_visitChildren(clang_getTranslationUnitCursor(tu), find_sites, &ss);
    }
    for (size_t k = first; k < last; k++) {
        if (bad[k]) {
            fprintf(err, "%s:%d: %s: not imported: clang's errors above are inside it\n", o.source,
                    ks.v[k].line, ks.v[k].name);
            if (status < 1)
                status = 1;
            continue;
        }
        rc_draft_request rq = {0};
        rq.tu = tu;
        rq.kernel = ks.v[k].cur;
        rq.name = ks.v[k].name;
        rq.line = ks.v[k].line;
        rq.source = o.source;
        rq.id = o.id ? o.id : ks.v[k].name;
        rq.grid = o.grid ? o.grid : sites[k].grid;
        rq.block = o.grid ? o.block : sites[k].block;
        rq.shared_bytes = o.shared_bytes;
        rq.registers = o.registers;
        rq.params = o.params;
        rq.nparams = o.nparams;
        rq.lengths = o.lengths;
        rq.nlengths = o.nlengths;
        rq.site_args = sites[k].args;
        rq.nsite_args = sites[k].nargs;
        rq.targs = want ? (const char *const *)want_args : (const char *const *)sites[k].targs;
        rq.ntargs = want ? nwant_args : (size_t)sites[k].ntargs;
        rq.outdir = o.outdir;
        int ks_status = rc_draft_write(&rq, out, err);
        if (ks_status > status)
            status = ks_status;
    }
    free(bad);
done:
    if (sites)
        for (size_t k = 0; k < ks.n; k++)
            site_free(&sites[k]);
    free(sites);
    for (size_t k = 0; k < ks.n; k++)
        free(ks.v[k].name);
    free(ks.v);
    free(ks.elsewhere);
    if (tu)
        clang_disposeTranslationUnit(tu);
    if (index)
        clang_disposeIndex(index);
    stubs_free(&sb);
    if (sf)
        fclose(sf);
    free(text);
    free(want);
    if (nwant_args)
        free(want_args[0]);
    options_free(&o);
    return status;
}
