/* load_xml.c: the loader, and reading one file into a validated libxml2
 * document. See load_xml.h and load.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "input/load.h"
#include "input/load_xml.h"
#include "util/array.h"

/* The schemas, compiled into the program (schemas.c, made by CMake). */
extern const char rc_gpu_xsd[];
extern const size_t rc_gpu_xsd_len;
extern const char rc_kernel_xsd[];
extern const size_t rc_kernel_xsd_len;

/* Largest definition read; a bigger file is refused before parsing. */
#define MAX_FILE_BYTES (16L << 20)

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

/* A DOCTYPE stops the parser before any entity is declared or expanded:
 * external entities, billion laughs and quadratic blowups never start. */
static void refuse_doctype(void *ctx, const xmlChar *name, const xmlChar *public_id,
                           const xmlChar *system_id)
{
    (void)name;
    (void)public_id;
    (void)system_id;
    xmlParserCtxtPtr ctxt = ctx;
    rc_xml_reporter *r = ctxt->_private;
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
            if (!RC_GROW(*xml, cap, cap + 1)) { /* doubles */
                rc_error_at(diag, path, 0, "out of memory");
                return false;
            }
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
                    root, rc_quote((const char *)top->ns->href, q), root);
        return false;
    }
    return true;
}

/* Validates the document against the schema, each problem reported
 * through r (at most MAX_SCHEMA_MESSAGES, then a count). */
static bool validate(const char *file, xmlDocPtr doc, xmlSchemaPtr schema, rc_xml_reporter *r)
{
    xmlSchemaValidCtxtPtr vctxt = xmlSchemaNewValidCtxt(schema);
    if (!vctxt) {
        rc_error_at(r->diag, file, 0, "out of memory");
        return false;
    }
    xmlSchemaSetValidStructuredErrors(vctxt, rc_xml_report, r);
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
xmlDocPtr rc_xml_read_document(const char *file, const char *xml, size_t len,
                               xmlSchemaPtr schema, const char *root,
                               rc_diag *diag)
{
    rc_xml_reporter r = {diag, file, root, xml, len, false, 0, 0, NULL, ""};
    xmlSetGenericErrorFunc(NULL, silent_generic);
    xmlSetStructuredErrorFunc(&r, rc_xml_report);

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
xmlDocPtr rc_xml_read_path(const char *path, xmlSchemaPtr schema, const char *root,
                           rc_diag *diag)
{
    char *xml;
    size_t len;
    if (!read_file(path, &xml, &len, diag))
        return NULL;
    xmlDocPtr doc = rc_xml_read_document(path, xml, len, schema, root, diag);
    free(xml);
    return doc;
}

bool rc_xml_is_element(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The attribute's value as a malloc'd string, or NULL when absent. */
char *rc_xml_attr(xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    char *s = strdup((const char *)v);
    xmlFree(v);
    return s;
}

/* The element's text, trimmed of leading and trailing white space. */
char *rc_xml_text(xmlNodePtr n)
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
char *rc_xml_code(xmlNodePtr n)
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
