/* load.c: XML inputs to model structs. See load.h. */
#include "input/load.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include "input/units.h"
#include "model/arch.h"

/* The schemas, compiled into the program (schemas.c, made by CMake). */
extern const char rc_gpu_xsd[];
extern const size_t rc_gpu_xsd_len;
extern const char rc_kernel_xsd[];
extern const size_t rc_kernel_xsd_len;

/* CUDA's launch limits (compute capability 3.0 and later). */
#define MAX_GRID_X 2147483647LL
#define MAX_GRID_YZ 65535LL
#define MAX_BLOCK_XY 1024LL
#define MAX_BLOCK_Z 64LL
#define MAX_BLOCK_THREADS 1024LL

struct rc_loader {
    xmlSchemaPtr gpu_schema;
    xmlSchemaPtr kernel_schema;
};

/* ---- messages --------------------------------------------------------- */

/* Most schema problems shown for one file; the rest are counted. */
#define MAX_SCHEMA_MESSAGES 10
/* Longest piece of input text quoted in a message, in bytes, and the room
 * a quote takes: up to 3 more bytes to end a character, "..." and a NUL. */
#define QUOTE_MAX 60
#define QUOTE_BUF (QUOTE_MAX + 8)
/* Largest definition read; a bigger file is refused before parsing. */
#define MAX_FILE_BYTES (16L << 20)

typedef struct {
    rc_diag *diag;
    const char *file;
    const char *root;   /* the expected root element, for messages */
    const char *xml;    /* the bytes being parsed */
    size_t len;
    bool failed;
    int doctype_line;   /* > 0 once a DOCTYPE was met and parsing stopped */
    int schema_errors;  /* schema problems found, shown or not */
    /* The element and attribute of the last schema problem shown: one
     * problem per attribute, and per element, is enough. */
    const void *last_node;
    char last_attr[64];
} reporter;

/* Copies `s` into out[QUOTE_BUF] for quoting: cut at a UTF-8 character
 * boundary after QUOTE_MAX bytes (then "..."), control characters shown as
 * '?', so that a message stays on one line whatever the input holds. */
static const char *quote(const char *s, char *out)
{
    size_t o = 0, i = 0;
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    for (; u[i]; i++) {
        if (i >= QUOTE_MAX && ((u[i] & 0xC0) != 0x80 || i >= QUOTE_MAX + 3))
            break;
        out[o++] = u[i] < 0x20 || u[i] == 0x7F ? '?' : (char)u[i];
    }
    if (u[i])
        o += (size_t)sprintf(out + o, "...");
    out[o] = '\0';
    return out;
}

/* Appends list as "<a>, <b> or <c>": libxml2 writes "( a, b, c )". */
static void element_list(const char *list, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    const char *p = list;
    int count = 0;
    for (const char *q = list; *q && *q != ')'; q++)
        count += *q == ',';
    for (int i = 0; i <= count && o < n; i++) {
        while (*p == ' ' || *p == '(')
            p++;
        size_t len = strcspn(p, ", )");
        const char *sep = i == 0 ? "" : i == count ? " or " : ", ";
        o += (size_t)snprintf(out + o, n - o, "%s<%.*s>", sep, (int)len, p);
        p += len;
        while (*p == ',' || *p == ' ')
            p++;
    }
}

/* The element's name as written in the file (with its prefix). */
static void element_name(const xmlError *e, char *out, size_t n)
{
    const xmlNode *node = e->node;
    if (node && node->type == XML_ELEMENT_NODE) {
        if (node->ns && node->ns->prefix)
            snprintf(out, n, "%s:%s", (const char *)node->ns->prefix, (const char *)node->name);
        else
            snprintf(out, n, "%s", (const char *)node->name);
        return;
    }
    /* "Element 'name'..." without a node: take the name from the text. */
    const char *m = e->message ? e->message : "";
    if (strncmp(m, "Element '", 9) == 0)
        snprintf(out, n, "%.*s", (int)strcspn(m + 9, "'"), m + 9);
    else
        snprintf(out, n, "?");
}

/* The attribute a schema message is about ("Element 'x', attribute 'a': ")
 * or "" when it is about the element. */
static void attribute_name(const xmlError *e, char *out, size_t n)
{
    const char *m = e->message ? e->message : "";
    const char *a = strstr(m, "', attribute '"), *colon = strstr(m, ": ");
    if (a && colon && a < colon)
        snprintf(out, n, "%.*s", (int)strcspn(a + 14, "'"), a + 14);
    else
        out[0] = '\0';
}

/* libxml2's own text after the "Element 'x': " prefix, first line only. */
static void libxml2_text(const xmlError *e, char *out, size_t n)
{
    const char *m = e->message ? e->message : "XML error";
    const char *p = strstr(m, "': ");
    if (strncmp(m, "Element '", 9) == 0 && p)
        m = p + 3;
    snprintf(out, n, "%.*s", (int)strcspn(m, "\n"), m);
}

/* The whole-number limits of <sm> (type "limit" in gpu.xsd). */
static bool is_sm_limit(const char *element)
{
    static const char *const limits[] = {"warp-size", "threads", "blocks", "registers",
                                         "registers-per-thread", "register-unit"};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (strcmp(element, limits[i]) == 0)
            return true;
    return false;
}

/* What a pattern (facet) asks for, in words, by the element or attribute
 * it constrains. */
static const char *pattern_words(const char *element, const char *attribute)
{
    if (strcmp(attribute, "id") == 0 && strcmp(element, "gpu") == 0)
        return "is not a safe name: use lower-case letters, digits, '.', '_' and '-', starting "
               "with a letter or digit (it names output files)";
    if (strcmp(attribute, "id") == 0)
        return "is not a safe name: use letters, digits, '_', '.' and '-', starting with a "
               "letter, digit or '_' (it names output files)";
    if (strcmp(attribute, "name") == 0 || strcmp(attribute, "var") == 0)
        return "is not a name (a letter or '_', then letters, digits or '_')";
    if (strcmp(element, "compute-capability") == 0)
        return "is not a compute capability such as '8.9'";
    if (strcmp(element, "sms") == 0)
        return "is not a number of SMs (a whole number from 1 to 999999)";
    if (is_sm_limit(element))
        return "is not a whole number from 1 to 999999999";
    return "does not have the form the schema requires";
}

/* One schema problem, named as the messages name it. */
typedef struct {
    const xmlError *e;
    const char *m;       /* libxml2's message, never NULL */
    const char *value;   /* the value refused (e->str1), or NULL */
    char element[128];
    char attribute[64];  /* "" when the problem is about the element */
    char what[256];      /* "<element>" or "<element> attribute 'name'" */
} schema_problem;

/* A misplaced or missing element: libxml2's "Expected is ..." as a list. */
static void content_message(const schema_problem *p, char *out, size_t n)
{
    char list[512] = "";
    const char *expected = strstr(p->m, "Expected is ");
    if (expected) {
        expected += strlen("Expected is ");
        bool several = strncmp(expected, "one of ", 7) == 0;
        element_list(several ? expected + 7 : expected, list, sizeof list);
    }
    if (strstr(p->m, "Missing child element"))
        snprintf(out, n, "<%s> lacks a required element (expected %s)", p->element,
                 *list ? list : "more");
    else if (*list)
        snprintf(out, n, "<%s> is not expected here (expected %s)", p->element, list);
    else
        snprintf(out, n, "<%s> is not expected here", p->element);
}

/* "<gpu> id" for an id, else what the problem is about. */
static const char *subject(const schema_problem *p, char *buf, size_t size)
{
    if (strcmp(p->attribute, "id") != 0)
        return p->what;
    snprintf(buf, size, "<%s> id", p->element);
    return buf;
}

static void too_long_message(const schema_problem *p, char *out, size_t n)
{
    char q[QUOTE_BUF], who[256];
    snprintf(out, n, "%s '%s' is longer than %s characters", subject(p, who, sizeof who),
             quote(p->value, q), p->e->str3 ? (const char *)p->e->str3 : "allowed");
}

/* A value that does not match the schema's pattern: what the pattern asks
 * for, in words. */
static void pattern_message(const schema_problem *p, char *out, size_t n)
{
    char q[QUOTE_BUF], who[256];
    if (p->value && !p->value[strspn(p->value, " \t\r\n")]) {
        snprintf(out, n, "%s is empty", p->what);
        return;
    }
    const char *s = subject(p, who, sizeof who);
    snprintf(out, n, "%s%s '%s' %s", s, s == p->what && *p->attribute ? ":" : "",
             quote(p->value, q), pattern_words(p->element, p->attribute));
}

static void datatype_message(const schema_problem *p, char *out, size_t n)
{
    char q[QUOTE_BUF];
    if (strcmp(p->element, "sms") == 0 || is_sm_limit(p->element))
        snprintf(out, n, "%s '%s' %s", p->what, quote(p->value, q),
                 pattern_words(p->element, p->attribute));
    else
        snprintf(out, n, "%s: '%s' is not a valid value", p->what, quote(p->value, q));
}

/* "<peak precision="fp32"> is given twice (one peak per precision)" */
static void duplicate_key_message(const schema_problem *p, char *out, size_t n)
{
    const char *v = strchr(p->value, '\'');
    int len = v ? (int)strcspn(v + 1, "'") : 0;
    bool launch = strcmp(p->element, "launch") == 0, peak = strcmp(p->element, "peak") == 0;
    const char *key = launch ? "kind" : peak ? "precision" : "level";
    const char *rule = launch ? "one launch cost per kind"
                       : peak ? "one peak per precision"
                              : "one figure per level";
    snprintf(out, n, "<%s %s=\"%.*s\"> is given twice (%s)", p->element, key, len,
             v ? v + 1 : "", rule);
}

/* An identity constraint (a key or a uniqueness rule). Returns 1 when
 * worded, 0 when libxml2's words should do, -1 when it is noise. */
static int identity_message(const reporter *r, const schema_problem *p, char *out, size_t n)
{
    if (strstr(p->m, "No precomputed value"))
        return -1; /* libxml2's echo of a value it already refused */
    if (strstr(p->m, "No match found for key-sequence ['fp32']")) {
        /* After a structural problem this is often not even true: the
         * validator skipped the peaks. Alone, it is. */
        if (r->schema_errors > 0)
            return -1;
        snprintf(out, n, "<%s> has no <peak precision=\"fp32\">: the FP32 peak is required",
                 p->element);
        return 1;
    }
    if (strstr(p->m, "Duplicate key-sequence") && p->value) {
        duplicate_key_message(p, out, n);
        return 1;
    }
    return 0;
}

/* Words for one schema problem, in out[n]; false when the problem is noise
 * that follows from another one and is better left unsaid. */
static bool schema_message(const reporter *r, const xmlError *e, char *out, size_t n)
{
    schema_problem p = {.e = e, .m = e->message ? e->message : "",
                        .value = (const char *)e->str1};
    char q[QUOTE_BUF];
    element_name(e, p.element, sizeof p.element);
    attribute_name(e, p.attribute, sizeof p.attribute);
    if (*p.attribute)
        snprintf(p.what, sizeof p.what, "<%s> attribute '%s'", p.element, p.attribute);
    else
        snprintf(p.what, sizeof p.what, "<%s>", p.element);
    switch (e->code) {
    case XML_SCHEMAV_ELEMENT_CONTENT:
        content_message(&p, out, n);
        return true;
    case XML_SCHEMAV_CVC_COMPLEX_TYPE_4:
        snprintf(out, n, "<%s> lacks the required attribute '%s'", p.element,
                 p.value ? p.value : "?");
        return true;
    case XML_SCHEMAV_CVC_COMPLEX_TYPE_3_2_1:
        snprintf(out, n, "<%s> has an unknown attribute '%s'", p.element,
                 p.value ? p.value : p.attribute);
        return true;
    case XML_SCHEMAV_CVC_COMPLEX_TYPE_2_3:
        snprintf(out, n, "<%s> holds text, but only elements belong there", p.element);
        return true;
    case XML_SCHEMAV_CVC_MINLENGTH_VALID:
        snprintf(out, n, "%s is empty", p.what);
        return true;
    case XML_SCHEMAV_CVC_MAXLENGTH_VALID:
        too_long_message(&p, out, n);
        return true;
    case XML_SCHEMAV_CVC_PATTERN_VALID:
        pattern_message(&p, out, n);
        return true;
    case XML_SCHEMAV_CVC_ENUMERATION_VALID:
        snprintf(out, n, "%s: '%s' is not one of %s", p.what, quote(p.value, q),
                 e->str2 ? (const char *)e->str2 : "the allowed values");
        return true;
    case XML_SCHEMAV_CVC_DATATYPE_VALID_1_2_1:
        datatype_message(&p, out, n);
        return true;
    case XML_SCHEMAV_CVC_IDC: {
        int worded = identity_message(r, &p, out, n);
        if (worded != 0)
            return worded > 0;
        break;
    }
    default:
        break;
    }
    char text[512];
    libxml2_text(e, text, sizeof text);
    snprintf(out, n, "%s: %s", p.what, text);
    return true;
}

static bool only_space(const char *xml, size_t len)
{
    for (size_t i = 0; xml && i < len; i++)
        if (!strchr(" \t\r\n", xml[i]) || xml[i] == '\0')
            return false;
    return true;
}

/* True when the first bytes are not text: a NUL, or a control character
 * other than white space. */
static bool looks_binary(const char *xml, size_t len)
{
    for (size_t i = 0; i < len && i < 1024; i++) {
        unsigned char c = (unsigned char)xml[i];
        if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F)
            return true;
    }
    return false;
}

/* libxml2 found no document: say whether the file is empty, binary, or
 * text that is not XML. */
static void no_document_message(const reporter *r, char *out, size_t n, int *line)
{
    if (only_space(r->xml, r->len))
        *line = 0, snprintf(out, n, "the file is empty (expected a <%s> definition)", r->root);
    else if (looks_binary(r->xml, r->len))
        *line = 0, snprintf(out, n, "not an XML file: it holds binary data (expected a <%s> "
                            "definition)", r->root);
    else
        snprintf(out, n, "not XML: the document must start with '<' (expected a <%s> "
                 "definition)", r->root);
}

static void invalid_char_message(const xmlError *e, char *out, size_t n)
{
    const char *s1 = e->str1 ? (const char *)e->str1 : "";
    if (strncmp(s1, "Bytes: ", 7) == 0)
        snprintf(out, n, "the text is not valid UTF-8 (bytes %.*s): save the file as UTF-8",
                 (int)strcspn(s1 + 7, "\n"), s1 + 7);
    else if (e->message && strstr(e->message, "0x0 "))
        snprintf(out, n, "a NUL byte: the file is binary, or not UTF-8 text");
    else
        snprintf(out, n, "character U+%04X is not allowed in XML", (unsigned)e->int1);
}

/* The first line of libxml2's message `m`, without trailing spaces. */
static void first_line(const char *m, char *out, size_t n)
{
    char text[512];
    snprintf(text, sizeof text, "%.*s", (int)strcspn(m, "\n"), m);
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == ' ')
        text[--len] = '\0';
    snprintf(out, n, "%s", text);
}

/* Words for a well-formedness problem (libxml2's parser) in out[n]. The
 * line may be changed: 0 when none applies. */
static void parser_message(const reporter *r, const xmlError *e, char *out, size_t n,
                           int *line)
{
    char q[QUOTE_BUF];
    const char *s1 = e->str1 ? (const char *)e->str1 : "";
    const char *m = e->message ? e->message : "";
    switch (e->code) {
    case XML_ERR_DOCUMENT_EMPTY:
        no_document_message(r, out, n, line);
        return;
    case XML_ERR_INVALID_CHAR:
        invalid_char_message(e, out, n);
        return;
    case XML_ERR_UNSUPPORTED_ENCODING:
        snprintf(out, n, "unsupported encoding '%s' (write the file in UTF-8)", quote(s1, q));
        return;
    case XML_ERR_TAG_NAME_MISMATCH:
        snprintf(out, n, "<%s> (opened at line %d) is closed by </%s>", s1, e->int1,
                 e->str2 ? (const char *)e->str2 : "?");
        return;
    case XML_ERR_TAG_NOT_FINISHED:
        snprintf(out, n, "the file ends before <%s> (opened at line %d) is closed", s1, e->int1);
        return;
    case XML_ERR_DOCUMENT_END:
        snprintf(out, n, "more content after the end of the root element (a file holds one <%s>)",
                 r->root);
        return;
    case XML_ERR_LT_IN_ATTRIBUTE:
        snprintf(out, n, "a '<' in an attribute value must be written '&lt;'");
        return;
    case XML_ERR_ATTRIBUTE_REDEFINED:
        snprintf(out, n, "attribute '%s' is given twice", s1);
        return;
    case XML_ERR_ATTRIBUTE_NOT_STARTED:
        snprintf(out, n, "an attribute value must be in quotes (name=\"value\")");
        return;
    case XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
        snprintf(out, n, "attribute '%s' has no value (expected %s=\"value\")", s1, s1);
        return;
    case XML_ERR_NAME_REQUIRED:
        if (strstr(m, "EntityRef")) {
            snprintf(out, n, "a bare '&' must be written '&amp;'");
            return;
        }
        break;
    case XML_ERR_UNDECLARED_ENTITY:
        snprintf(out, n, "unknown entity '&%s;' (XML defines only &lt; &gt; &amp; &quot; "
                 "&apos;; write the character itself)", s1);
        return;
    case XML_ERR_INTERNAL_ERROR:
        if (strncmp(m, "Excessive depth", 15) == 0) {
            snprintf(out, n, "elements are nested more than %d deep", e->int1);
            return;
        }
        break;
    default:
        break;
    }
    first_line(m, out, n); /* anything else in libxml2's words */
}

/* libxml2 reports through a per-thread handler; this one words each
 * problem for the user and forwards it as file:line. */
static void xml_error_handler(void *ctx, xmlErrorPtr error)
{
    reporter *r = ctx;
    if (!r || !error || error->level == XML_ERR_WARNING || r->doctype_line > 0)
        return;
    char msg[1024];
    int line = error->line;
    if (error->domain == XML_FROM_SCHEMASV) {
        char element[128], attribute[64];
        element_name(error, element, sizeof element);
        attribute_name(error, attribute, sizeof attribute);
        bool repeat = r->schema_errors > 0 && error->node && error->node == r->last_node &&
                      strcmp(attribute, r->last_attr) == 0;
        bool say = !repeat && schema_message(r, error, msg, sizeof msg);
        r->failed = true;
        if (!say)
            return;
        r->schema_errors++;
        r->last_node = error->node;
        snprintf(r->last_attr, sizeof r->last_attr, "%s", attribute);
        if (r->schema_errors <= MAX_SCHEMA_MESSAGES)
            rc_error_at(r->diag, r->file, line, "%s", msg);
        return;
    }
    if (r->failed)
        return; /* after the first well-formedness error, the rest is noise */
    r->failed = true;
    parser_message(r, error, msg, sizeof msg, &line);
    rc_error_at(r->diag, r->file, line, "%s", msg);
}

/* A DOCTYPE stops the parser before any entity is declared or expanded:
 * external entities, billion laughs and quadratic blowups never start. */
static void refuse_doctype(void *ctx, const xmlChar *name, const xmlChar *public_id,
                           const xmlChar *system_id)
{
    (void)name;
    (void)public_id;
    (void)system_id;
    xmlParserCtxtPtr ctxt = ctx;
    reporter *r = ctxt->_private;
    r->doctype_line = ctxt->input ? ctxt->input->line : 1;
    if (r->doctype_line <= 0)
        r->doctype_line = 1;
    xmlStopParser(ctxt);
}

static void silent_generic(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

/* Characters (not bytes) of UTF-8 text in [s, s + n): the caret is placed
 * in columns, and every character of an expression is one column. */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

void rc_report_expr_error(rc_diag *diag, const char *file, int line,
                          const char *element, const char *attr,
                          const char *text, const rc_expr_error *err)
{
    /* The caret line marks the offending token under the expression. */
    size_t len = strlen(text);
    size_t at = err->offset <= len ? err->offset : len;
    size_t width = err->length && err->length <= len - at ? err->length : 1;
    size_t pad = columns(text, at), cols = at < len ? columns(text + at, width) : 1;
    if (cols == 0)
        cols = 1;
    char *shown = malloc(len + 1);
    char *caret = malloc(pad + cols + 1);
    if (!shown || !caret) {
        rc_error_at(diag, file, line, "<%s> attribute '%s': %s", element,
                    attr, err->message);
        free(shown);
        free(caret);
        return;
    }
    for (size_t i = 0; i < len; i++) /* one line, columns kept */
        shown[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7F ? ' ' : text[i];
    shown[len] = '\0';
    memset(caret, ' ', pad);
    caret[pad] = '^';
    for (size_t i = 1; i < cols; i++)
        caret[pad + i] = '~';
    caret[pad + cols] = '\0';
    rc_error_at(diag, file, line, "<%s> attribute '%s': %s\n    %s\n    %s",
                element, attr, err->message, shown, caret);
    free(shown);
    free(caret);
}

bool rc_id_is_safe(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > 100 || id[0] == '.' || id[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

/* ---- loader ----------------------------------------------------------- */

static xmlSchemaPtr compile_schema(const char *xsd, size_t len)
{
    xmlSchemaParserCtxtPtr pctxt = xmlSchemaNewMemParserCtxt(xsd, (int)len);
    if (!pctxt)
        return NULL;
    xmlSchemaPtr schema = xmlSchemaParse(pctxt);
    xmlSchemaFreeParserCtxt(pctxt);
    return schema;
}

rc_loader *rc_loader_new(rc_diag *diag)
{
    rc_loader *loader = calloc(1, sizeof *loader);
    if (!loader) {
        rc_error_at(diag, NULL, 0, "out of memory");
        return NULL;
    }
    xmlInitParser();
    loader->gpu_schema = compile_schema(rc_gpu_xsd, rc_gpu_xsd_len);
    loader->kernel_schema = compile_schema(rc_kernel_xsd, rc_kernel_xsd_len);
    if (!loader->gpu_schema || !loader->kernel_schema) {
        rc_error_at(diag, NULL, 0, "the built-in schemas do not compile");
        rc_loader_free(loader);
        return NULL;
    }
    return loader;
}

void rc_loader_free(rc_loader *loader)
{
    if (!loader)
        return;
    if (loader->gpu_schema)
        xmlSchemaFree(loader->gpu_schema);
    if (loader->kernel_schema)
        xmlSchemaFree(loader->kernel_schema);
    free(loader);
}

/* Reads fd to its end into *xml (cap bytes allocated, *len used). The
 * size may change while reading: reads up to the limit + 1, growing the
 * buffer. Returns false after reporting. */
static bool read_all(int fd, const char *path, char **xml, size_t *len, size_t cap,
                     rc_diag *diag)
{
    for (;;) {
        if (*len == cap) {
            if (cap > (size_t)MAX_FILE_BYTES)
                break;
            char *p = realloc(*xml, 2 * cap);
            if (!p) {
                rc_error_at(diag, path, 0, "out of memory");
                return false;
            }
            *xml = p;
            cap *= 2;
        }
        ssize_t got = read(fd, *xml + *len, cap - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc_error_at(diag, path, 0, "cannot read: %s", strerror(errno));
            return false;
        }
        if (got == 0)
            break;
        *len += (size_t)got;
    }
    if (*len <= (size_t)MAX_FILE_BYTES)
        return true;
    rc_error_at(diag, path, 0, "the file is too large (at most %ld MiB)", MAX_FILE_BYTES >> 20);
    return false;
}

/* Reads a whole regular file into memory (the caller frees *xml). Returns
 * false after reporting. Not fopen: a FIFO or a device must be refused
 * without blocking, and a huge file before it is read. */
static bool read_file(const char *path, char **xml, size_t *len, rc_diag *diag)
{
    *xml = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        rc_error_at(diag, path, 0, "cannot read: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    bool ok = false;
    if (S_ISDIR(st.st_mode))
        rc_error_at(diag, path, 0, "cannot read: %s", strerror(EISDIR));
    else if (!S_ISREG(st.st_mode))
        rc_error_at(diag, path, 0, "cannot read: not a regular file");
    else if (st.st_size > MAX_FILE_BYTES)
        rc_error_at(diag, path, 0, "the file is too large (%lld bytes; at most %ld MiB)",
                    (long long)st.st_size, MAX_FILE_BYTES >> 20);
    else if (!(*xml = malloc((size_t)st.st_size + 1)))
        rc_error_at(diag, path, 0, "out of memory");
    else
        ok = read_all(fd, path, xml, len, (size_t)st.st_size + 1, diag);
    close(fd);
    if (!ok) {
        free(*xml);
        *xml = NULL;
    }
    return ok;
}

/* True when the document's root is <root> in no namespace; false after
 * reporting. */
static bool check_root(const char *file, xmlDocPtr doc, const char *root, rc_diag *diag)
{
    xmlNodePtr top = xmlDocGetRootElement(doc);
    if (!top || strcmp((const char *)top->name, root) != 0) {
        rc_error_at(diag, file, top ? xmlGetLineNo(top) : 0,
                    "the root element is <%s>, expected <%s>",
                    top ? (const char *)top->name : "", root);
        return false;
    }
    if (top->ns) {
        char q[QUOTE_BUF];
        rc_error_at(diag, file, xmlGetLineNo(top),
                    "the root element <%s> is in the namespace '%s'; expected <%s> in no namespace",
                    root, quote((const char *)top->ns->href, q), root);
        return false;
    }
    return true;
}

/* Validates the document against the schema, each problem reported
 * through r (at most MAX_SCHEMA_MESSAGES, then a count). */
static bool validate(const char *file, xmlDocPtr doc, xmlSchemaPtr schema, reporter *r)
{
    xmlSchemaValidCtxtPtr vctxt = xmlSchemaNewValidCtxt(schema);
    if (!vctxt) {
        rc_error_at(r->diag, file, 0, "out of memory");
        return false;
    }
    xmlSchemaSetValidStructuredErrors(vctxt, xml_error_handler, r);
    int rc = xmlSchemaValidateDoc(vctxt, doc);
    xmlSchemaFreeValidCtxt(vctxt);
    if (r->schema_errors > MAX_SCHEMA_MESSAGES)
        rc_error_at(r->diag, file, 0, "%d more problems with the schema are not shown",
                    r->schema_errors - MAX_SCHEMA_MESSAGES);
    if (rc != 0 || r->failed) {
        if (r->schema_errors == 0)
            rc_error_at(r->diag, file, 0, "does not match the schema");
        return false;
    }
    return true;
}

/* Parses and validates one document held in memory. Returns the document
 * (the caller frees it with xmlFreeDoc) or NULL after reporting. */
static xmlDocPtr read_document(const char *file, const char *xml, size_t len,
                               xmlSchemaPtr schema, const char *root,
                               rc_diag *diag)
{
    reporter r = {diag, file, root, xml, len, false, 0, 0, NULL, ""};
    xmlSetGenericErrorFunc(NULL, silent_generic);
    xmlSetStructuredErrorFunc(&r, xml_error_handler);

    /* No network, no entity substitution, no DTD loading; huge line
     * numbers stay exact. The SAX hook stops at any DOCTYPE. */
    int options = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING;
    xmlDocPtr doc = NULL;
    xmlParserCtxtPtr ctxt = NULL;
    if (len > (size_t)INT_MAX) {
        rc_error_at(diag, file, 0, "the file is too large (at most %ld MiB)", MAX_FILE_BYTES >> 20);
        goto end;
    }
    ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        rc_error_at(diag, file, 0, "out of memory");
        goto end;
    }
    ctxt->_private = &r;
    ctxt->sax->internalSubset = refuse_doctype;
    doc = xmlCtxtReadMemory(ctxt, xml, (int)len, file, NULL, options);
    if (r.doctype_line > 0) {
        rc_error_at(diag, file, r.doctype_line,
                    "a DOCTYPE is not allowed (DTDs and entities are refused)");
        goto fail;
    }
    if (!doc || r.failed) {
        if (!r.failed)
            rc_error_at(diag, file, 0, "cannot be read as XML");
        goto fail;
    }
    if (!check_root(file, doc, root, diag) || !validate(file, doc, schema, &r))
        goto fail;
    goto end;
fail:
    if (doc)
        xmlFreeDoc(doc);
    doc = NULL;
end:
    if (ctxt)
        xmlFreeParserCtxt(ctxt);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    return doc;
}

/* Reads, parses and validates the file at `path`. Returns the document
 * (the caller frees it with xmlFreeDoc) or NULL after reporting. */
static xmlDocPtr read_path(const char *path, xmlSchemaPtr schema, const char *root,
                           rc_diag *diag)
{
    char *xml;
    size_t len;
    if (!read_file(path, &xml, &len, diag))
        return NULL;
    xmlDocPtr doc = read_document(path, xml, len, schema, root, diag);
    free(xml);
    return doc;
}

static bool is_element(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The attribute's value as a malloc'd string, or NULL when absent. */
static char *attr(xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    char *s = strdup((const char *)v);
    xmlFree(v);
    return s;
}

/* The element's text, trimmed of leading and trailing white space. */
static char *text_of(xmlNodePtr n)
{
    xmlChar *v = xmlNodeGetContent(n);
    const char *s = v ? (const char *)v : "";
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
                       s[len - 1] == '\n' || s[len - 1] == '\r'))
        len--;
    char *out = strndup(s, len);
    xmlFree(v);
    return out;
}

/* Source code keeps its indentation: only blank lines around it go. */
static char *code_of(xmlNodePtr n)
{
    xmlChar *v = xmlNodeGetContent(n);
    const char *s = v ? (const char *)v : "";
    const char *start = s;
    for (const char *p = s; *p; p++) {
        if (*p == '\n')
            start = p + 1;
        else if (*p != ' ' && *p != '\t' && *p != '\r')
            break;
    }
    size_t len = strlen(start);
    while (len > 0 && (start[len - 1] == ' ' || start[len - 1] == '\t' ||
                       start[len - 1] == '\n' || start[len - 1] == '\r'))
        len--;
    char *out = strndup(start, len);
    xmlFree(v);
    return out;
}

/* ---- GPUs ------------------------------------------------------------- */

/* Reads a quantity element; reports and returns false when it is bad.
 * `positive`: the value must be > 0 (else >= 0). */
static bool read_quantity(xmlNodePtr n, rc_quantity_kind kind, bool positive,
                          double *out, const char *file, rc_diag *diag)
{
    char *text = text_of(n);
    char err[256];
    bool ok = rc_parse_quantity(text, kind, out, err, sizeof err);
    if (!ok)
        rc_error_at(diag, file, xmlGetLineNo(n), "<%s>: %s", (const char *)n->name, err);
    else if (positive ? !(*out > 0) : !(*out >= 0)) {
        char q[QUOTE_BUF];
        rc_error_at(diag, file, xmlGetLineNo(n), "<%s>: %s must be %s, not '%s'",
                    (const char *)n->name, rc_quantity_kind_name(kind),
                    positive ? "positive" : "zero or positive", quote(text, q));
        ok = false;
    }
    free(text);
    return ok;
}

/* Sets a figure's origin and source from its element's attributes, or from
 * the defaults given. */
static bool set_provenance(xmlNodePtr n, rc_gpu_figure *f, rc_origin origin,
                           const char *source)
{
    char *o = attr(n, "origin");
    f->origin = origin;
    for (int i = RC_ORIGIN_PUBLISHED; o && i <= RC_ORIGIN_ASSUMED; i++)
        if (strcmp(o, rc_origin_name((rc_origin)i)) == 0)
            f->origin = (rc_origin)i;
    free(o);
    f->source = attr(n, "source");
    if (!f->source)
        f->source = strdup(source ? source : "");
    f->written = text_of(n);
    return f->source && f->written;
}

/* The per-SM limits of <sm>: each child a whole number or a quantity. */
static bool read_sm(xmlNodePtr sm, rc_sm_limits *s, const char *file, rc_diag *diag)
{
    static const struct {
        const char *element;
        size_t offset;
        int kind; /* -1: a whole number; else an rc_quantity_kind */
    } fields[] = {
        {"clock", offsetof(rc_sm_limits, clock), RC_QTY_FREQUENCY},
        {"warp-size", offsetof(rc_sm_limits, warp_size), -1},
        {"threads", offsetof(rc_sm_limits, threads), -1},
        {"blocks", offsetof(rc_sm_limits, blocks), -1},
        {"registers", offsetof(rc_sm_limits, registers), -1},
        {"registers-per-thread", offsetof(rc_sm_limits, registers_per_thread), -1},
        {"register-unit", offsetof(rc_sm_limits, register_unit), -1},
        {"shared", offsetof(rc_sm_limits, shared), RC_QTY_BYTES},
        {"shared-per-block", offsetof(rc_sm_limits, shared_per_block), RC_QTY_BYTES},
        {"shared-unit", offsetof(rc_sm_limits, shared_unit), RC_QTY_BYTES},
        {"shared-reserved", offsetof(rc_sm_limits, shared_reserved), RC_QTY_BYTES},
        {"l1", offsetof(rc_sm_limits, l1), RC_QTY_BYTES},
        {"l1-shared", offsetof(rc_sm_limits, l1_shared), RC_QTY_BYTES},
    };
    char *group_source = attr(sm, "source");
    char *group_origin = attr(sm, "origin");
    rc_origin origin = RC_ORIGIN_PUBLISHED;
    for (int i = RC_ORIGIN_PUBLISHED; group_origin && i <= RC_ORIGIN_ASSUMED; i++)
        if (strcmp(group_origin, rc_origin_name((rc_origin)i)) == 0)
            origin = (rc_origin)i;
    bool ok = true;
    for (xmlNodePtr n = sm->children; n && ok; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            if (!is_element(n, fields[i].element))
                continue;
            rc_gpu_figure *f = (rc_gpu_figure *)((char *)s + fields[i].offset);
            if (fields[i].kind < 0) {
                char *t = text_of(n);
                f->value = (double)strtol(t, NULL, 10);
                free(t);
            } else if (!read_quantity(n, (rc_quantity_kind)fields[i].kind,
                                      strcmp(fields[i].element, "shared-reserved") != 0,
                                      &f->value, file, diag)) {
                ok = false;
                break;
            }
            if (!set_provenance(n, f, origin,
                                group_source ? group_source : "the GPU file's <sm>")) {
                rc_error_at(diag, file, xmlGetLineNo(n), "out of memory");
                ok = false;
            }
        }
    }
    free(group_source);
    free(group_origin);
    return ok;
}

/* A latency: a time, or a number of SM clock cycles ("657 cycles"), which
 * is returned as it stands with *cycles set. */
static bool read_latency(xmlNodePtr n, double *out, bool *cycles, const char *file,
                         rc_diag *diag)
{
    char *text = text_of(n);
    char *end = NULL;
    *cycles = false;
    double v = strtod(text, &end);
    while (end && end != text && *end == ' ')
        end++;
    bool ok;
    if (end && end != text && strcmp(end, "cycles") == 0 && isfinite(v)) {
        *cycles = true;
        *out = v;
        ok = v > 0;
        if (!ok) {
            char q[QUOTE_BUF];
            rc_error_at(diag, file, xmlGetLineNo(n), "<latency>: a latency must be positive, "
                        "not '%s'", quote(text, q));
        }
    } else {
        char err[256];
        ok = rc_parse_quantity(text, RC_QTY_TIME, out, err, sizeof err);
        if (!ok)
            rc_error_at(diag, file, xmlGetLineNo(n), "<latency>: %s; or a number of SM clock "
                        "cycles, such as '657 cycles'", err);
        else if (!(*out > 0)) {
            char q[QUOTE_BUF];
            rc_error_at(diag, file, xmlGetLineNo(n), "<latency>: a latency must be positive, "
                        "not '%s'", quote(text, q));
            ok = false;
        }
    }
    free(text);
    return ok;
}

/* The microbenchmark figures of <measured>. The schema has checked that
 * each level and kind comes once. */
static bool read_measured(xmlNodePtr m, rc_gpu_rates *r, bool in_cycles[3], const char *file,
                          rc_diag *diag)
{
    bool ok = true;
    for (xmlNodePtr n = m->children; n && ok; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char *key = attr(n, is_element(n, "launch") ? "kind" : "level");
        int level = !key ? -1 : strcmp(key, "dram") == 0 ? 0 : strcmp(key, "l2") == 0 ? 1 : 2;
        rc_gpu_figure *f;
        if (is_element(n, "bandwidth")) {
            f = level == 0 ? &r->dram_bandwidth : level == 1 ? &r->l2_bandwidth
                                                              : &r->l1_bandwidth;
            ok = read_quantity(n, RC_QTY_BYTE_RATE, true, &f->value, file, diag);
        } else if (is_element(n, "latency")) {
            f = level == 0 ? &r->dram_latency : level == 1 ? &r->l2_latency : &r->l1_latency;
            ok = read_latency(n, &f->value, &in_cycles[level], file, diag);
        } else {
            f = key && strcmp(key, "back-to-back") == 0 ? &r->launch_back_to_back
                                                        : &r->launch_sync;
            ok = read_quantity(n, RC_QTY_TIME, true, &f->value, file, diag);
        }
        free(key);
        if (ok && !set_provenance(n, f, RC_ORIGIN_MEASURED, NULL)) {
            rc_error_at(diag, file, xmlGetLineNo(n), "out of memory");
            ok = false;
        }
    }
    return ok;
}

/* Fills what the file left out from the architecture's defaults and turns
 * latencies given in cycles into seconds at the SM clock. */
static bool complete_gpu(rc_gpu *gpu, const bool in_cycles[3], const char *file, rc_diag *diag)
{
    char err[300];
    if (!rc_gpu_complete(gpu, err, sizeof err)) {
        rc_error_at(diag, file, gpu->line, "%s", err);
        return false;
    }
    rc_gpu_figure *latency[3] = {&gpu->rates.dram_latency, &gpu->rates.l2_latency,
                                 &gpu->rates.l1_latency};
    for (int i = 0; i < 3; i++)
        if (in_cycles[i])
            latency[i]->value /= gpu->sm.clock.value;
    return true;
}

static rc_gpu *gpu_from_doc(xmlDocPtr doc, const char *file, rc_diag *diag)
{
    xmlNodePtr top = xmlDocGetRootElement(doc);
    rc_gpu *gpu = calloc(1, sizeof *gpu);
    if (!gpu)
        return NULL;
    gpu->file = strdup(file);
    gpu->line = xmlGetLineNo(top);
    gpu->id = attr(top, "id");
    gpu->name = attr(top, "name");
    gpu->launch_latency = RC_DEFAULT_LAUNCH_LATENCY;
    gpu->launch_latency_origin = RC_ORIGIN_ASSUMED;
    bool in_cycles[3] = {false, false, false}; /* latencies of rates, by level */
    bool ok = true;
    char q[QUOTE_BUF];
    if (!gpu->id || !rc_id_is_safe(gpu->id)) {
        rc_error_at(diag, file, gpu->line,
                    "<gpu> id '%s' is not a safe name (letters, digits, '_', '.', '-')",
                    quote(gpu->id, q));
        ok = false;
    }
    for (xmlNodePtr n = top->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_element(n, "architecture"))
            gpu->architecture = text_of(n);
        else if (is_element(n, "compute-capability"))
            gpu->compute_capability = text_of(n);
        else if (is_element(n, "sms")) {
            char *t = text_of(n);
            gpu->sms = strtol(t, NULL, 10);
            free(t);
        } else if (is_element(n, "memory")) {
            gpu->memory_type = attr(n, "type");
            ok &= read_quantity(n, RC_QTY_BYTES, true, &gpu->memory_bytes, file, diag);
        } else if (is_element(n, "l2"))
            ok &= read_quantity(n, RC_QTY_BYTES, true, &gpu->l2_bytes, file, diag);
        else if (is_element(n, "peak")) {
            char *precision = attr(n, "precision");
            double *peak = &gpu->peak_fp32;
            if (precision && strcmp(precision, "fp64") == 0)
                peak = &gpu->peak_fp64;
            else if (precision && strcmp(precision, "fp16") == 0)
                peak = &gpu->peak_fp16;
            free(precision);
            ok &= read_quantity(n, RC_QTY_FLOP_RATE, true, peak, file, diag);
        } else if (is_element(n, "clock")) {
            gpu->clock_kind = attr(n, "kind");
            ok &= read_quantity(n, RC_QTY_FREQUENCY, true, &gpu->clock_hz, file, diag);
        } else if (is_element(n, "bandwidth"))
            ok &= read_quantity(n, RC_QTY_BYTE_RATE, true, &gpu->bandwidth, file, diag);
        else if (is_element(n, "launch-latency")) {
            ok &= read_quantity(n, RC_QTY_TIME, false, &gpu->launch_latency, file, diag);
            gpu->launch_latency_origin = RC_ORIGIN_PUBLISHED;
        } else if (is_element(n, "source"))
            gpu->source = text_of(n);
        else if (is_element(n, "sm"))
            ok &= read_sm(n, &gpu->sm, file, diag);
        else if (is_element(n, "measured"))
            ok &= read_measured(n, &gpu->rates, in_cycles, file, diag);
    }
    if (ok && (!gpu->source || !*gpu->source)) {
        rc_error_at(diag, file, gpu->line, "<source> is empty: say where the figures come from");
        ok = false;
    }
    if (ok)
        ok = complete_gpu(gpu, in_cycles, file, diag);
    if (!ok) {
        rc_gpu_free(gpu);
        return NULL;
    }
    return gpu;
}

/* Frees the document; the GPU it defines, or NULL after reporting. */
static rc_gpu *gpu_from(xmlDocPtr doc, const char *file, rc_diag *diag)
{
    rc_gpu *gpu = doc ? gpu_from_doc(doc, file, diag) : NULL;
    xmlFreeDoc(doc);
    return gpu;
}

rc_gpu *rc_load_gpu(rc_loader *loader, const char *path, rc_diag *diag)
{
    return gpu_from(read_path(path, loader->gpu_schema, "gpu", diag), path, diag);
}

rc_gpu *rc_load_gpu_memory(rc_loader *loader, const char *name, const char *xml,
                           size_t len, rc_diag *diag)
{
    return gpu_from(read_document(name, xml, len, loader->gpu_schema, "gpu", diag), name, diag);
}

/* ---- kernels ---------------------------------------------------------- */

/* A <flops> statement's precision attribute; the schema allows only the three names. */
static rc_precision read_precision(xmlNodePtr n)
{
    char *text = attr(n, "precision");
    rc_precision p = RC_PRECISION_FP32;
    for (int i = 0; text && i < RC_PRECISIONS; i++)
        if (strcmp(text, rc_precision_name((rc_precision)i)) == 0)
            p = (rc_precision)i;
    free(text);
    return p;
}

/* Names visible at a point of the work model, innermost last. */
typedef struct {
    const char *name;
    rc_name_binding binding;
    int line;
} scope_entry;

/* The params and the launch are evaluated on demand, so that the launch may
 * use any param and a param may use blockDim and gridDim: each is computed
 * the first time something reads it, and a cycle is an error. */
enum { PENDING, BUSY, DONE, FAILED };

typedef struct {
    xmlNodePtr *param_nodes; /* by param index */
    int *param_state;
    xmlNodePtr launch;
    int launch_state;
    int current;      /* the param being evaluated, or -1 for the launch */
    bool dep_failed;  /* something read a param or launch that failed */
} header_state;

typedef struct {
    rc_kernel *kernel;
    scope_entry *entries;
    size_t count, capacity;
    int next_slot;
    const char *file;
    rc_diag *diag;
    header_state *hd; /* while params and the launch are read; else NULL */
} scope;

static const struct {
    const char *name;
    int slot;
} index_builtins[] = {
    /* ORDER RC_SLOT */
    {"threadIdx.x", RC_SLOT_TID_X}, {"threadIdx.y", RC_SLOT_TID_Y},
    {"threadIdx.z", RC_SLOT_TID_Z}, {"blockIdx.x", RC_SLOT_BID_X},
    {"blockIdx.y", RC_SLOT_BID_Y},  {"blockIdx.z", RC_SLOT_BID_Z},
};

static bool name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

static bool eval_param(scope *sc, size_t i);
static bool eval_launch(scope *sc);

/* Binds a name: loop variables and lets (innermost first), params, then
 * the CUDA built-ins. */
static rc_name_binding resolve(void *ctx, const char *name, size_t len)
{
    scope *sc = ctx;
    for (size_t i = sc->count; i-- > 0;)
        if (name_is(name, len, sc->entries[i].name))
            return sc->entries[i].binding;
    const rc_kernel *k = sc->kernel;
    header_state *hd = sc->hd;
    for (size_t i = 0; i < k->nparams; i++) {
        if (!k->params[i].name || !name_is(name, len, k->params[i].name))
            continue;
        /* A param sees the params before it; the launch sees them all. */
        if (hd && hd->current >= 0 && i >= (size_t)hd->current)
            break;
        if (hd && !eval_param(sc, i)) {
            hd->dep_failed = true;
            return (rc_name_binding){RC_NAME_CONST, 1, 0};
        }
        return (rc_name_binding){RC_NAME_CONST, k->params[i].value, 0};
    }
    for (size_t i = 0; i < sizeof index_builtins / sizeof index_builtins[0]; i++)
        if (name_is(name, len, index_builtins[i].name))
            return (rc_name_binding){RC_NAME_SLOT, 0, index_builtins[i].slot};
    static const char *const dims[] = {"blockDim.x", "blockDim.y", "blockDim.z",
                                       "gridDim.x",  "gridDim.y",  "gridDim.z"};
    for (int i = 0; i < 6; i++)
        if (name_is(name, len, dims[i])) {
            if (hd && !eval_launch(sc)) {
                hd->dep_failed = true;
                return (rc_name_binding){RC_NAME_CONST, 1, 0};
            }
            return (rc_name_binding){RC_NAME_CONST,
                                     i < 3 ? k->block[i] : k->grid[i - 3], 0};
        }
    if (name_is(name, len, "warpSize"))
        return (rc_name_binding){RC_NAME_CONST, 32, 0};
    return (rc_name_binding){RC_NAME_UNKNOWN, 0, 0};
}

static bool is_reserved(const char *name)
{
    static const char *const reserved[] = {"threadIdx", "blockIdx", "blockDim",
                                           "gridDim",   "warpSize", "and",
                                           "or",        "not",      "min", "max"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(name, reserved[i]) == 0)
            return true;
    return false;
}

/* Checks that a new name neither hides another nor takes a built-in's.
 * `nparams` is how many params are defined before it. */
static bool check_name(scope *sc, const char *name, const char *element, int line,
                       size_t nparams)
{
    if (is_reserved(name)) {
        rc_error_at(sc->diag, sc->file, line, "<%s> name '%s' is reserved", element, name);
        return false;
    }
    for (size_t i = 0; i < sc->count; i++)
        if (strcmp(sc->entries[i].name, name) == 0) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> name '%s' is already defined at line %d", element,
                        name, sc->entries[i].line);
            return false;
        }
    for (size_t i = 0; i < nparams; i++)
        if (sc->kernel->params[i].name && strcmp(sc->kernel->params[i].name, name) == 0) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> name '%s' is already a <param>", element, name);
            return false;
        }
    return true;
}

static bool check_new_name(scope *sc, const char *name, const char *element, int line)
{
    return check_name(sc, name, element, line, sc->kernel->nparams);
}

static bool push_name(scope *sc, const char *name, rc_name_binding b, int line)
{
    if (sc->count == sc->capacity) {
        size_t cap = sc->capacity ? 2 * sc->capacity : 16;
        scope_entry *e = realloc(sc->entries, cap * sizeof *e);
        if (!e)
            return false;
        sc->entries = e;
        sc->capacity = cap;
    }
    sc->entries[sc->count++] = (scope_entry){name, b, line};
    return true;
}

static rc_expr *parse_attr(scope *sc, const char *element, const char *attr_name,
                           const char *text, int line)
{
    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, resolve, sc, &err);
    if (!e)
        rc_report_expr_error(sc->diag, sc->file, line, element, attr_name, text, &err);
    return e;
}

/* Parses a constant expression of the params and the launch (a param's
 * value, a launch size, an array length). A failure of something it reads
 * was reported there, so it is not reported again. */
static bool const_attr(scope *sc, const char *element, const char *attr_name,
                       const char *text, int line, int64_t *value)
{
    header_state *hd = sc->hd;
    bool dep_failed = hd ? hd->dep_failed : false;
    if (hd)
        hd->dep_failed = false;
    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, resolve, sc, &err);
    bool ok = false;
    if (hd && hd->dep_failed)
        ; /* already reported */
    else if (!e)
        rc_report_expr_error(sc->diag, sc->file, line, element, attr_name, text, &err);
    else if (!rc_expr_is_const(e, value) && hd && hd->current >= 0)
        rc_error_at(sc->diag, sc->file, line,
                    "<param> '%s' must be a constant: it cannot depend on threadIdx or blockIdx",
                    sc->kernel->params[hd->current].name);
    else if (!rc_expr_is_const(e, value))
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> attribute '%s' must be a constant: it cannot depend on threadIdx "
                    "or blockIdx",
                    element, attr_name);
    else
        ok = true;
    if (hd)
        hd->dep_failed = dep_failed;
    rc_expr_free(e);
    return ok;
}

/* Computes param i, unless done; false when it failed or depends on
 * itself (reported). */
static bool eval_param(scope *sc, size_t i)
{
    header_state *hd = sc->hd;
    rc_param *p = &sc->kernel->params[i];
    int line = xmlGetLineNo(hd->param_nodes[i]);
    if (hd->param_state[i] == DONE || hd->param_state[i] == FAILED)
        return hd->param_state[i] == DONE;
    if (hd->param_state[i] == BUSY) {
        rc_error_at(sc->diag, sc->file, line,
                    "<param> '%s' depends on itself through the launch", p->name);
        hd->param_state[i] = FAILED;
        return false;
    }
    hd->param_state[i] = BUSY;
    int saved = hd->current;
    bool saved_failed = hd->dep_failed;
    hd->current = (int)i;
    hd->dep_failed = false;
    /* Without a text the schema has already complained. */
    bool ok = p->text && const_attr(sc, "param", "value", p->text, line, &p->value);
    hd->current = saved;
    hd->dep_failed = saved_failed;
    if (hd->param_state[i] == BUSY) /* not failed by a cycle meanwhile */
        hd->param_state[i] = ok ? DONE : FAILED;
    return hd->param_state[i] == DONE;
}

/* Splits "a, b, c" at the commas outside parentheses into at most `max`
 * pieces (malloc'd); returns the number of pieces, or max + 1 when there
 * are more. */
static int split_dims(const char *text, char **pieces, int max)
{
    int n = 0, depth = 0;
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if ((*p == ',' && depth == 0) || *p == '\0') {
            if (n == max) {
                for (int i = 0; i < n; i++)
                    free(pieces[i]);
                return max + 1;
            }
            pieces[n++] = strndup(start, (size_t)(p - start));
            if (*p == '\0')
                return n;
            start = p + 1;
        }
    }
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return false;
    return true;
}

/* grid or block: 1 to 3 constant expressions separated by commas; the
 * missing ones are 1. */
static bool read_dims(scope *sc, const char *name, const char *text, int line, int64_t out[3])
{
    char q[QUOTE_BUF];
    char *pieces[3] = {NULL, NULL, NULL};
    out[0] = out[1] = out[2] = 1;
    int n = split_dims(text, pieces, 3);
    bool ok = true;
    if (n > 3 || blank(text)) {
        for (int i = 0; i < n && n <= 3; i++)
            free(pieces[i]);
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> attribute '%s': '%s' is not 1 to 3 expressions separated by commas",
                    name, quote(text, q));
        return false;
    }
    static const char axis[] = "xyz";
    for (int i = 0; i < n; i++) {
        char attr_name[16];
        snprintf(attr_name, sizeof attr_name, "%s", name);
        if (!const_attr(sc, "launch", attr_name, pieces[i], line, &out[i]))
            ok = false;
        else if (out[i] <= 0) {
            rc_error_at(sc->diag, sc->file, line, "<launch> %s.%c = %lld is not positive", name,
                        axis[i], (long long)out[i]);
            ok = false;
        }
        free(pieces[i]);
    }
    return ok;
}

/* CUDA's limits, and a launch whose thread count fits in 64 bits. */
static bool check_launch(scope *sc, int line)
{
    rc_kernel *k = sc->kernel;
    bool ok = true;
    static const char axis[] = "xyz";
    for (int i = 0; i < 3; i++) {
        int64_t gmax = i == 0 ? MAX_GRID_X : MAX_GRID_YZ;
        int64_t bmax = i == 2 ? MAX_BLOCK_Z : MAX_BLOCK_XY;
        if (k->grid[i] > gmax) {
            rc_error_at(sc->diag, sc->file, line,
                        "<launch> grid.%c = %lld exceeds CUDA's limit of %lld",
                        axis[i], (long long)k->grid[i], (long long)gmax);
            ok = false;
        }
        if (k->block[i] > bmax) {
            rc_error_at(sc->diag, sc->file, line,
                        "<launch> block.%c = %lld exceeds CUDA's limit of %lld",
                        axis[i], (long long)k->block[i], (long long)bmax);
            ok = false;
        }
    }
    if (!ok)
        return false;
    if (rc_kernel_threads_per_block(k) > MAX_BLOCK_THREADS) {
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> block %lld x %lld x %lld = %lld threads exceeds CUDA's limit of %lld threads per block",
                    (long long)k->block[0], (long long)k->block[1], (long long)k->block[2],
                    (long long)rc_kernel_threads_per_block(k), (long long)MAX_BLOCK_THREADS);
        return false;
    }
    /* Every later product of launch sizes (blocks, threads, and any part
     * of them) is at most the thread count, so checking it suffices. */
    int64_t blocks, threads;
    if (__builtin_mul_overflow(k->grid[0], k->grid[1], &blocks) ||
        __builtin_mul_overflow(blocks, k->grid[2], &blocks) ||
        __builtin_mul_overflow(blocks, rc_kernel_threads_per_block(k), &threads)) {
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> grid %lld x %lld x %lld of %lld-thread blocks launches more than "
                    "%lld threads, more than roofcast can count",
                    (long long)k->grid[0], (long long)k->grid[1], (long long)k->grid[2],
                    (long long)rc_kernel_threads_per_block(k), (long long)INT64_MAX);
        return false;
    }
    return true;
}

/* Computes the launch, unless done; false when it failed (reported). */
static bool eval_launch(scope *sc)
{
    header_state *hd = sc->hd;
    rc_kernel *k = sc->kernel;
    int line = hd->launch ? xmlGetLineNo(hd->launch) : k->line;
    if (hd->launch_state == DONE || hd->launch_state == FAILED)
        return hd->launch_state == DONE;
    if (hd->launch_state == BUSY) {
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> reads a param that uses blockDim or gridDim: they depend on each other");
        hd->launch_state = FAILED;
        return false;
    }
    if (!hd->launch || !k->grid_text || !k->block_text) { /* the schema said why */
        hd->launch_state = FAILED;
        return false;
    }
    hd->launch_state = BUSY;
    int saved = hd->current;
    bool saved_failed = hd->dep_failed;
    hd->current = -1;
    hd->dep_failed = false;
    bool ok = read_dims(sc, "grid", k->grid_text, line, k->grid);
    ok &= read_dims(sc, "block", k->block_text, line, k->block);
    ok = ok && check_launch(sc, line);
    hd->current = saved;
    hd->dep_failed = saved_failed;
    if (hd->launch_state == BUSY)
        hd->launch_state = ok ? DONE : FAILED;
    return hd->launch_state == DONE;
}

/* Marks in reads[] every slot that the subtree's expressions read. Array
 * indices are left out: they decide where an access goes, not how much
 * work there is. */
static void mark_subtree_reads(const rc_work *w, bool *reads, int nslots)
{
    for (; w; w = w->next) {
        for (int i = 0; i < RC_WORK_EXPRS; i++)
            if (w->expr[i])
                rc_expr_mark_reads(w->expr[i], reads, nslots);
        mark_subtree_reads(w->children, reads, nslots);
    }
}

static void analyse_loops(rc_work *w, int nslots, bool *reads)
{
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_LOOP) {
            memset(reads, 0, (size_t)nslots * sizeof *reads);
            mark_subtree_reads(w->children, reads, nslots);
            w->body_reads_var = w->slot >= 0 && w->slot < nslots ? reads[w->slot] : true;
        }
        analyse_loops(w->children, nslots, reads);
    }
}

#define MAX_WORK_DEPTH 64

static rc_work *parse_block(scope *sc, xmlNodePtr first, int depth, bool *ok);

/* "+= 1", "-=1", ">>= 1" ...: the operator, and the expression after it in
 * *rest; a plain expression means +=. */
static rc_step_op step_op_of(const char *text, const char **rest)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    for (int op = RC_STEP_SHR; op >= RC_STEP_ADD; op--) {
        size_t n = strlen(rc_step_op_text((rc_step_op)op));
        if (strncmp(p, rc_step_op_text((rc_step_op)op), n) == 0) {
            *rest = p + n;
            return (rc_step_op)op;
        }
    }
    *rest = text;
    return RC_STEP_ADD;
}

/* A loop's attributes: from, exactly one of to and while, and step. The
 * while condition is parsed once the variable is visible. */
static bool parse_loop_head(scope *sc, rc_work *w, xmlNodePtr n, int line)
{
    bool ok = true;
    w->attr[0] = "from";
    w->attr[2] = "step";
    w->text[0] = attr(n, "from");
    char *to = attr(n, "to"), *cond = attr(n, "while");
    char *step = attr(n, "step");
    if (to && cond) {
        rc_error_at(sc->diag, sc->file, line, "<loop> takes 'to' or 'while', not both");
        ok = false;
    } else if (!to && !cond) {
        rc_error_at(sc->diag, sc->file, line, "<loop> lacks the required attribute 'to' (or 'while')");
        ok = false;
    }
    w->loop_while = cond != NULL;
    w->attr[1] = cond ? "while" : "to";
    w->text[1] = cond ? cond : to;
    if (cond)
        free(to);
    const char *rest = "1";
    w->step_op = step ? step_op_of(step, &rest) : RC_STEP_ADD;
    w->text[2] = strdup(rest);
    free(step);
    if (!w->loop_while && (w->step_op == RC_STEP_SUB || w->step_op == RC_STEP_DIV ||
                           w->step_op == RC_STEP_SHR)) {
        rc_error_at(sc->diag, sc->file, line,
                    "<loop> with step '%s' counts down: write its condition as 'while', "
                    "such as while=\"%s > 0\"",
                    rc_step_op_text(w->step_op), w->name ? w->name : "i");
        ok = false;
    }
    if (w->text[0] && !(w->expr[0] = parse_attr(sc, "loop", "from", w->text[0], line)))
        ok = false;
    if (!w->loop_while && w->text[1] &&
        !(w->expr[1] = parse_attr(sc, "loop", "to", w->text[1], line)))
        ok = false;
    if (w->text[2] && !(w->expr[2] = parse_attr(sc, "loop", "step", w->text[2], line)))
        ok = false;
    return ok;
}

/* <load|store|atomic array index>: the element size comes from the
 * array's type; the legacy form gives count and bytes instead. */
static bool parse_access(scope *sc, rc_work *w, xmlNodePtr n, int line)
{
    const char *element = rc_work_element(w->kind);
    char *array = attr(n, "array");
    w->index_text = attr(n, "index");
    w->array = -1;
    bool ok = true;
    if (!array) {
        if (w->kind == RC_WORK_ATOMIC) {
            rc_error_at(sc->diag, sc->file, line, "<atomic> lacks the required attribute 'array'");
            ok = false;
        } else if (w->index_text) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> attribute 'index' needs an 'array' to index", element);
            ok = false;
        } else if (!xmlHasProp(n, (const xmlChar *)"bytes")) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> lacks the required attribute 'bytes' (or 'array' and 'index')",
                        element);
            ok = false;
        }
        free(array);
        return ok;
    }
    const rc_kernel *k = sc->kernel;
    for (size_t i = 0; i < k->narrays; i++)
        if (strcmp(k->arrays[i].name, array) == 0)
            w->array = (int)i;
    char q[QUOTE_BUF];
    if (w->array < 0) {
        rc_error_at(sc->diag, sc->file, line, "<%s> array '%s' is not declared by an <array>",
                    element, quote(array, q));
        ok = false;
    }
    free(array);
    if (xmlHasProp(n, (const xmlChar *)"count") || xmlHasProp(n, (const xmlChar *)"bytes")) {
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> with an array takes no 'count' or 'bytes': one access moves one element "
                    "of the array's type",
                    element);
        ok = false;
    }
    if (!w->index_text) {
        rc_error_at(sc->diag, sc->file, line, "<%s> lacks the required attribute 'index'", element);
        ok = false;
    } else if (!(w->index_expr = parse_attr(sc, element, "index", w->index_text, line)))
        ok = false;
    if (!ok)
        return false;
    const rc_array *a = &k->arrays[w->array];
    int bytes = a->space == RC_SPACE_SHARED ? 0 : a->elem_bytes;
    char buf[16];
    snprintf(buf, sizeof buf, "%d", bytes);
    w->attr[0] = "count";
    w->attr[1] = "bytes";
    w->text[0] = strdup("1");
    w->text[1] = strdup(buf);
    w->expr[0] = parse_attr(sc, element, "count", "1", line);
    w->expr[1] = parse_attr(sc, element, "bytes", buf, line);
    return w->expr[0] && w->expr[1];
}

/* The attributes of the other statements, as the tables say. */
static bool parse_exprs(scope *sc, rc_work *w, xmlNodePtr n, int line)
{
    bool ok = true;
    const char *element = rc_work_element(w->kind);
    for (int i = 0; i < RC_WORK_EXPRS; i++) {
        const char *a = rc_work_attr(w->kind, i);
        if (!a)
            continue;
        w->attr[i] = a;
        w->text[i] = attr(n, a);
        if (!w->text[i] && rc_work_default(w->kind, i))
            w->text[i] = strdup(rc_work_default(w->kind, i));
        if (!w->text[i])
            continue; /* the schema requires it; nothing to parse */
        w->expr[i] = parse_attr(sc, element, a, w->text[i], line);
        if (!w->expr[i])
            ok = false;
    }
    return ok;
}

static rc_work *parse_statement(scope *sc, xmlNodePtr n, int depth, bool *ok)
{
    rc_work_kind kind;
    const char *element = (const char *)n->name;
    for (kind = RC_WORK_LET; kind <= RC_WORK_ATOMIC; kind++)
        if (strcmp(element, rc_work_element(kind)) == 0)
            break;
    if (kind > RC_WORK_ATOMIC) { /* the schema lets nothing else through */
        rc_error_at(sc->diag, sc->file, xmlGetLineNo(n), "unexpected <%s>", element);
        *ok = false;
        return NULL;
    }
    int line = xmlGetLineNo(n);
    if (depth > MAX_WORK_DEPTH) {
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> is nested too deeply (more than %d levels)", element,
                    MAX_WORK_DEPTH);
        *ok = false;
        return NULL;
    }
    rc_work *w = calloc(1, sizeof *w);
    if (!w) {
        *ok = false;
        return NULL;
    }
    w->kind = kind;
    w->line = line;
    w->slot = -1;
    w->array = -1;
    w->index = sc->kernel->nwork++;
    w->note = attr(n, "note");
    w->precision = kind == RC_WORK_FLOPS ? read_precision(n) : RC_PRECISION_FP32;
    if (kind == RC_WORK_WHEN)
        w->assumption = attr(n, "assumption");
    if (w->assumption)
        sc->kernel->has_assumptions = true;
    if (kind == RC_WORK_LOOP)
        w->name = attr(n, "var");
    bool fine;
    if (kind == RC_WORK_LOOP)
        fine = parse_loop_head(sc, w, n, line);
    else if ((kind == RC_WORK_LOAD || kind == RC_WORK_STORE || kind == RC_WORK_ATOMIC) &&
             (kind == RC_WORK_ATOMIC || xmlHasProp(n, (const xmlChar *)"array") ||
              xmlHasProp(n, (const xmlChar *)"index") || !xmlHasProp(n, (const xmlChar *)"bytes")))
        fine = parse_access(sc, w, n, line);
    else
        fine = parse_exprs(sc, w, n, line);
    if (!fine)
        *ok = false;
    if (kind == RC_WORK_LET || kind == RC_WORK_LOOP) {
        if (kind == RC_WORK_LET)
            w->name = attr(n, "name");
        if (!w->name || !check_new_name(sc, w->name, element, line)) {
            *ok = false;
            return w;
        }
        int64_t value;
        rc_name_binding b = {RC_NAME_SLOT, 0, 0};
        if (kind == RC_WORK_LET && w->expr[0] && rc_expr_is_const(w->expr[0], &value))
            b = (rc_name_binding){RC_NAME_CONST, value, 0};
        else
            b.slot = w->slot = sc->next_slot++;
        size_t mark = sc->count;
        push_name(sc, w->name, b, line);
        if (kind == RC_WORK_LOOP) {
            /* The variable is visible in the condition and the body only. */
            if (w->loop_while && w->text[1] &&
                !(w->expr[1] = parse_attr(sc, "loop", "while", w->text[1], line)))
                *ok = false;
            w->children = parse_block(sc, n->children, depth + 1, ok);
            sc->count = mark;
        }
        return w;
    }
    if (kind == RC_WORK_WHEN) {
        size_t mark = sc->count;
        w->children = parse_block(sc, n->children, depth + 1, ok);
        sc->count = mark;
    }
    return w;
}

/* A statement list; a let stays visible to the statements after it. */
static rc_work *parse_block(scope *sc, xmlNodePtr first, int depth, bool *ok)
{
    rc_work *head = NULL, **tail = &head;
    for (xmlNodePtr n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        rc_work *w = parse_statement(sc, n, depth, ok);
        if (w) {
            *tail = w;
            tail = &w->next;
        }
    }
    return head;
}

/* <array name type length [space] [note]>: after the params, whose values
 * its length may use. */
static bool read_array(scope *sc, xmlNodePtr n, rc_array *a)
{
    int line = xmlGetLineNo(n);
    char q[QUOTE_BUF];
    a->line = line;
    a->name = attr(n, "name");
    a->type = attr(n, "type");
    a->length_text = attr(n, "length");
    a->note = attr(n, "note");
    char *space = attr(n, "space");
    bool ok = a->name && a->type && a->length_text;
    if (!ok) { /* the schema has said what is missing */
        free(space);
        return false;
    }
    rc_kernel *k = sc->kernel;
    for (size_t i = 0; k->arrays + i < a; i++)
        if (strcmp(k->arrays[i].name, a->name) == 0) {
            rc_error_at(sc->diag, sc->file, line, "<array> '%s' is already declared at line %d",
                        a->name, k->arrays[i].line);
            ok = false;
        }
    a->elem_bytes = rc_type_size(a->type);
    if (a->elem_bytes == 0) {
        rc_error_at(sc->diag, sc->file, line,
                    "<array> type '%s' is not a C scalar or CUDA vector type (such as int, float, "
                    "double, float4 or double2)",
                    quote(a->type, q));
        ok = false;
    }
    a->space = RC_SPACE_GLOBAL;
    for (int s = 0; space && s <= RC_SPACE_LOCAL; s++)
        if (strcmp(space, rc_space_name((rc_space)s)) == 0)
            a->space = (rc_space)s;
    free(space);
    if (!const_attr(sc, "array", "length", a->length_text, line, &a->length))
        ok = false;
    else if (a->length <= 0) {
        rc_error_at(sc->diag, sc->file, line, "<array> '%s' has length %lld: it must be positive",
                    a->name, (long long)a->length);
        ok = false;
    } else if (a->length > INT64_MAX / 64) {
        rc_error_at(sc->diag, sc->file, line,
                    "<array> '%s' has length %lld: its bytes would not fit in 64 bits", a->name,
                    (long long)a->length);
        ok = false;
    }
    return ok;
}

/* <resources registers shared-bytes>: both optional, whole numbers. */
static bool read_resources(scope *sc, xmlNodePtr n)
{
    int line = xmlGetLineNo(n);
    bool ok = true;
    static const char *const names[] = {"registers", "shared-bytes"};
    int64_t *out[] = {&sc->kernel->registers, &sc->kernel->shared_bytes};
    for (int i = 0; i < 2; i++) {
        char *text = attr(n, names[i]);
        if (!text)
            continue;
        if (!const_attr(sc, "resources", names[i], text, line, out[i]))
            ok = false;
        else if (*out[i] < 0) {
            rc_error_at(sc->diag, sc->file, line, "<resources> %s = %lld is negative", names[i],
                        (long long)*out[i]);
            ok = false;
        }
        free(text);
    }
    return ok;
}

/* Reads the params, the launch, the arrays and the resources: everything
 * the work model's expressions may read as constants. */
static bool read_header(scope *sc, xmlNodePtr top)
{
    rc_kernel *k = sc->kernel;
    size_t nparams = 0, narrays = 0;
    xmlNodePtr launch = NULL;
    for (xmlNodePtr n = top->children; n; n = n->next) {
        nparams += is_element(n, "param");
        narrays += is_element(n, "array");
        if (is_element(n, "launch"))
            launch = n;
    }
    header_state hd = {calloc(nparams + 1, sizeof *hd.param_nodes),
                       calloc(nparams + 1, sizeof *hd.param_state), launch, PENDING, -1, false};
    k->params = calloc(nparams + 1, sizeof *k->params);
    k->arrays = calloc(narrays + 1, sizeof *k->arrays);
    bool ok = hd.param_nodes && hd.param_state && k->params && k->arrays;
    if (!ok) {
        rc_error_at(sc->diag, sc->file, 0, "out of memory");
        goto end;
    }
    sc->hd = &hd;
    if (launch) {
        k->grid_text = attr(launch, "grid");
        k->block_text = attr(launch, "block");
    }
    /* Names first, so that the launch can read any param. */
    for (xmlNodePtr n = top->children; n; n = n->next) {
        if (!is_element(n, "param"))
            continue;
        rc_param *p = &k->params[k->nparams];
        hd.param_nodes[k->nparams] = n;
        char *name = attr(n, "name");
        p->text = attr(n, "value");
        p->note = attr(n, "note");
        if (name && !check_name(sc, name, "param", xmlGetLineNo(n), k->nparams)) {
            hd.param_state[k->nparams] = FAILED;
            ok = false;
        }
        p->name = name;
        k->nparams++;
    }
    ok &= eval_launch(sc);
    for (size_t i = 0; i < k->nparams; i++)
        ok &= eval_param(sc, i);
    if (!ok)
        goto end;
    for (xmlNodePtr n = top->children; n; n = n->next) {
        if (is_element(n, "array"))
            ok &= read_array(sc, n, &k->arrays[k->narrays++]);
        else if (is_element(n, "resources"))
            ok &= read_resources(sc, n);
    }
end:
    sc->hd = NULL;
    free(hd.param_nodes);
    free(hd.param_state);
    return ok;
}

static rc_kernel *kernel_from_doc(xmlDocPtr doc, const char *file, rc_diag *diag)
{
    xmlNodePtr top = xmlDocGetRootElement(doc);
    rc_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->file = strdup(file);
    k->line = xmlGetLineNo(top);
    k->id = attr(top, "id");
    k->name = attr(top, "name");
    bool ok = true;
    char q[QUOTE_BUF];
    if (!k->id || !rc_id_is_safe(k->id)) {
        rc_error_at(diag, file, k->line,
                    "<kernel> id '%s' is not a safe name (letters, digits, '_', '.', '-')",
                    quote(k->id, q));
        ok = false;
    }
    scope sc = {k, NULL, 0, 0, RC_SLOT_FIRST_FREE, file, diag, NULL};
    size_t nnote_nodes = 0;
    for (xmlNodePtr n = top->children; n; n = n->next)
        nnote_nodes += is_element(n, "note");
    k->notes = calloc(nnote_nodes + 1, sizeof *k->notes);
    bool header_ok = read_header(&sc, top);
    ok &= header_ok;
    xmlNodePtr work = NULL;
    for (xmlNodePtr n = top->children; n && k->notes; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_element(n, "summary"))
            k->summary = text_of(n);
        else if (is_element(n, "source")) {
            k->source_language = attr(n, "language");
            if (!k->source_language)
                k->source_language = strdup("cuda");
            k->source_code = code_of(n);
        } else if (is_element(n, "work"))
            work = n;
        else if (is_element(n, "note")) {
            char *unknown = attr(n, "unknown");
            if (unknown) {
                /* a draft of roofcast import: never a silently wrong model */
                rc_error_at(diag, file, (int)xmlGetLineNo(n),
                            "the draft has an unknown at source line %s: complete the model "
                            "there by hand, then remove this <note unknown>", unknown);
                ok = false;
                free(unknown);
            }
            k->notes[k->nnotes++] = text_of(n);
        }
    }
    if (!k->notes) {
        rc_error_at(diag, file, 0, "out of memory");
        ok = false;
    }
    if (ok && work) {
        k->work = parse_block(&sc, work->children, 1, &ok);
        k->nslots = sc.next_slot;
        /* Only a complete model is analysed: a loop whose variable was
         * refused has no slot. */
        bool *reads = ok ? calloc((size_t)k->nslots, sizeof *reads) : NULL;
        if (reads)
            analyse_loops(k->work, k->nslots, reads);
        else
            ok = false;
        free(reads);
    }
    free(sc.entries);
    if (!ok) {
        rc_kernel_free(k);
        return NULL;
    }
    return k;
}

/* Frees the document; the kernel it defines, or NULL after reporting. */
static rc_kernel *kernel_from(xmlDocPtr doc, const char *file, rc_diag *diag)
{
    rc_kernel *k = doc ? kernel_from_doc(doc, file, diag) : NULL;
    xmlFreeDoc(doc);
    return k;
}

rc_kernel *rc_load_kernel(rc_loader *loader, const char *path, rc_diag *diag)
{
    return kernel_from(read_path(path, loader->kernel_schema, "kernel", diag), path, diag);
}

rc_kernel *rc_load_kernel_memory(rc_loader *loader, const char *name,
                                 const char *xml, size_t len, rc_diag *diag)
{
    return kernel_from(read_document(name, xml, len, loader->kernel_schema, "kernel", diag),
                       name, diag);
}
