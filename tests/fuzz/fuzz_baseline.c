/* fuzz_baseline.c: libFuzzer target: a --baseline results.xml
 * (results/compare.c), compared with a run of the bundled gpuMeans and
 * maximum_kernel on two GPUs as a run compares it, kernel by kernel, then
 * changes.md and changes.csv rendered. The <changes> it adds must still
 * write out as XML that parses. Run with -dict=tests/fuzz/baseline.dict. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "fuzz_pipeline.h"
#include "render/render.h"
#include "results/compare.h"
#include "results/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    xmlDocPtr doc = rc_fuzz_bundled_results();
    rc_diag *diag = rc_diag_new(rc_fuzz_quiet(), 0);
    if (!doc || !diag)
        rc_fuzz_broken("out of memory", NULL);
    xmlNodePtr root = xmlDocGetRootElement(doc);
    rc_comparison *c = rc_compare_open_text("fuzz-baseline.xml", (const char *)data, size,
                                            rc_results_child(root, "gpus"), "t_estimate", diag);
    if (c) {
        xmlNodePtr kernels = rc_results_child(root, "kernels");
        for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
            if (k->type != XML_ELEMENT_NODE)
                continue;
            rc_kernel_change change;
            rc_compare_kernel(c, k, &change);
            xmlChar *id = xmlGetProp(k, (const xmlChar *)"id");
            rc_compare_commit(c, (const char *)id, &change);
            xmlFree(id);
            xmlFreeNode(change.entry); /* NULL unless the commit did not take it */
        }
        rc_compare_summary summary;
        rc_compare_finish(c, doc, &summary);
        size_t len = 0;
        free(rc_render_changes_md(rc_fuzz_templates(), doc, &len, diag));
        free(rc_render_changes_csv(doc, &len));
        /* What the comparison added, <changes>, must write out as XML
         * that parses (the rest of the tree is the bundled run's). */
        xmlNodePtr changes = rc_results_child(root, "changes");
        xmlBufferPtr buf = changes ? xmlBufferCreate() : NULL;
        if (!changes || !buf || xmlNodeDump(buf, doc, changes, 0, 0) < 0)
            rc_fuzz_broken("no <changes> after a comparison", NULL);
        xmlDocPtr again = xmlReadMemory((const char *)xmlBufferContent(buf), xmlBufferLength(buf),
                                        NULL, NULL,
                                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        if (!again)
            rc_fuzz_broken("the <changes> of a baseline do not parse", NULL);
        xmlFreeDoc(again);
        xmlBufferFree(buf);
    }
    rc_diag_free(diag);
    xmlFreeDoc(doc);
    return 0;
}
