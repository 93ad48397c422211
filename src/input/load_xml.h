/* load_xml.h: what the loader's files share; private to src/input/.
 *
 * load_xml.c reads a file, parses it with libxml2 and validates it against
 * the compiled schema; messages.c words libxml2's problems for the user;
 * load_gpu.c and load_kernel.c (with statements.c for <work>) turn the
 * validated document into the model's structs. load.h is the public face.
 */
#ifndef ROOFCAST_LOAD_XML_H
#define ROOFCAST_LOAD_XML_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include "util/diag.h"

struct rc_loader {
    xmlSchemaPtr gpu_schema;
    xmlSchemaPtr kernel_schema;
};

/* Most schema problems shown for one file; the rest are counted. */
#define MAX_SCHEMA_MESSAGES 10
/* Longest piece of input text quoted in a message, in bytes, and the room
 * a quote takes: up to 3 more bytes to end a character, "..." and a NUL. */
#define QUOTE_MAX 60
#define QUOTE_BUF (QUOTE_MAX + 8)

/* The state of one document's reading, for the error handler. */
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
} rc_xml_reporter;

/* ---- messages.c ---- */

/* Copies `s` (NULL reads as "") into out[QUOTE_BUF] for quoting: cut at a
 * UTF-8 character boundary after QUOTE_MAX bytes (then "..."), control
 * characters shown as '?'. Returns out. */
const char *rc_quote(const char *s, char *out);

/* libxml2's structured error handler; ctx is the document's reporter. Words
 * each problem for the user and reports it as file:line; marks r->failed. */
void rc_xml_report(void *ctx, xmlErrorPtr error);

/* True when the root element's id (NULL when absent) is safe as a file name
 * (rc_id_is_safe); else reports "<element> id '...' is not a safe name" at
 * file:line and returns false. */
bool rc_xml_check_id(const char *element, const char *id, const char *file, int line,
                     rc_diag *diag);

/* ---- load_xml.c ---- */

/* Parses and validates one document held in memory, whose root must be
 * <root>; `file` names it in messages. Returns the document (the caller
 * frees it with xmlFreeDoc) or NULL after reporting. */
xmlDocPtr rc_xml_read_document(const char *file, const char *xml, size_t len,
                               xmlSchemaPtr schema, const char *root, rc_diag *diag);

/* Reads the regular file at `path` (at most 16 MiB), then as
 * rc_xml_read_document. */
xmlDocPtr rc_xml_read_path(const char *path, xmlSchemaPtr schema, const char *root,
                           rc_diag *diag);

/* True when n is the element <name>. */
bool rc_xml_is_element(xmlNodePtr n, const char *name);

/* The attribute's value as a malloc'd string (the caller frees it), or NULL
 * when absent. */
char *rc_xml_attr(xmlNodePtr n, const char *name);

/* The element's text, trimmed of white space around it; malloc'd. */
char *rc_xml_text(xmlNodePtr n);

/* The element's text as source code: indentation kept, only blank lines
 * around it removed; malloc'd. */
char *rc_xml_code(xmlNodePtr n);

#endif
