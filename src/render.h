/* render.h: the renderers. Each reads only the results tree (results.h)
 * and returns a new buffer that the caller frees with free().
 */
#ifndef ROOFCAST_RENDER_H
#define ROOFCAST_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "diag.h"

/* ---- XSLT templates (templates/NAME.xsl): Markdown and HTML ---------- */

typedef struct rc_templates rc_templates;

/* The templates a run uses. ORDER RC_TEMPLATE */
typedef enum { RC_TEMPLATE_MARKDOWN, RC_TEMPLATE_COUNT } rc_template_id;

/* Compiles the stylesheets in `dir` that `wanted` (a bit per
 * rc_template_id) asks for. Returns NULL after reporting. The stylesheets
 * run with file and network access forbidden. Free with rc_templates_free;
 * one rc_templates may be used from several threads. */
rc_templates *rc_templates_new(const char *dir, unsigned wanted, rc_diag *diag);
void rc_templates_free(rc_templates *t);

/* Applies template `id` to `doc` with the string parameter kernel-id set
 * (NULL for overviews). Returns the output (the caller frees it) and its
 * length, or NULL after reporting. */
char *rc_render_template(rc_templates *t, rc_template_id id, xmlDocPtr doc,
                         const char *kernel_id, size_t *len, rc_diag *diag);

/* Markdown escaping, shared with the XSLT extension functions: input text
 * rendered literally by a CommonMark + GFM renderer, on one line. */
char *rc_markdown_escape(const char *text);

/* ---- data for tools --------------------------------------------------- */

/* estimates.csv: RFC 4180, one row per kernel x GPU, full precision. */
char *rc_render_csv(xmlDocPtr doc, size_t *len);

/* results.xml: the tree itself, indented, UTF-8. */
char *rc_render_results_xml(xmlDocPtr doc, size_t *len);

#endif
