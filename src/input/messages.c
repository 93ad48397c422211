/* messages.c: libxml2's problems and expression errors in the user's words.
 *
 * Schema problems name the element and attribute as the file writes them
 * ("<peak> attribute 'precision': 'fp16' is not one of 'fp32', 'fp64'")
 * rather than facet jargon, one message per problem with no follow-on
 * noise; well-formedness problems say what to write instead. See
 * load_xml.h and load.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "input/load.h"
#include "input/load_xml.h"

/* Copies `s` into out[QUOTE_BUF] for quoting: cut at a UTF-8 character
 * boundary after QUOTE_MAX bytes (then "..."), control characters shown as
 * '?', so that a message stays on one line whatever the input holds. */
const char *rc_quote(const char *s, char *out)
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
             rc_quote(p->value, q), p->e->str3 ? (const char *)p->e->str3 : "allowed");
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
             rc_quote(p->value, q), pattern_words(p->element, p->attribute));
}

static void datatype_message(const schema_problem *p, char *out, size_t n)
{
    char q[QUOTE_BUF];
    if (strcmp(p->element, "sms") == 0 || is_sm_limit(p->element))
        snprintf(out, n, "%s '%s' %s", p->what, rc_quote(p->value, q),
                 pattern_words(p->element, p->attribute));
    else
        snprintf(out, n, "%s: '%s' is not a valid value", p->what, rc_quote(p->value, q));
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
static int identity_message(const rc_xml_reporter *r, const schema_problem *p, char *out, size_t n)
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
static bool schema_message(const rc_xml_reporter *r, const xmlError *e, char *out, size_t n)
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
        snprintf(out, n, "%s: '%s' is not one of %s", p.what, rc_quote(p.value, q),
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
static void no_document_message(const rc_xml_reporter *r, char *out, size_t n, int *line)
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
static void parser_message(const rc_xml_reporter *r, const xmlError *e, char *out, size_t n,
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
        snprintf(out, n, "unsupported encoding '%s' (write the file in UTF-8)", rc_quote(s1, q));
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
void rc_xml_report(void *ctx, xmlErrorPtr error)
{
    rc_xml_reporter *r = ctx;
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

bool rc_xml_check_id(const char *element, const char *id, const char *file, int line,
                     rc_diag *diag)
{
    if (id && rc_id_is_safe(id))
        return true;
    char q[QUOTE_BUF];
    rc_error_at(diag, file, line, "<%s> id '%s' is not a safe name (letters, digits, '_', '.', '-')",
                element, rc_quote(id, q));
    return false;
}
