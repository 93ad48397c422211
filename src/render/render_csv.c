/* render_csv.c: estimates.csv and results.xml, the files for tools. */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "results/format.h"
#include "results/results.h"

static void attr_field(rc_buffer *b, xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    rc_buffer_csv_field(b, v ? (const char *)v : "");
    xmlFree(v);
}

char *rc_render_csv(xmlDocPtr doc, size_t *len)
{
    rc_buffer b = {0};
    rc_buffer_puts(&b, "kernel,gpu,flops,bytes,intensity,t_compute_us,t_mem_us,t_body_us,"
              "t_launch_us,t_total_us,bound,t_launch_origin,requests,accessed_bytes,sector_bytes,"
              "footprint_bytes,shared_requests,shared_wavefronts,l2_bytes,dram_bytes,"
              "occupancy,waves,t_lower_us,t_estimate_us,limiter\r\n");
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlNodePtr counts = rc_results_child(k, "counts");
        xmlNodePtr flops = rc_results_child(counts, "flops");
        xmlNodePtr bytes = rc_results_child(counts, "bytes");
        xmlNodePtr memory = rc_results_child(counts, "memory");
        xmlNodePtr est = rc_results_child(k, "estimates");
        for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next) {
            if (e->type != XML_ELEMENT_NODE)
                continue;
            attr_field(&b, k, "id");
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "gpu");
            rc_buffer_puts(&b, ",");
            attr_field(&b, flops, "total");
            rc_buffer_puts(&b, ",");
            attr_field(&b, bytes, "total");
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "intensity");
            /* The tree holds seconds; the columns are microseconds. */
            static const char *const times[] = {"t-compute", "t-mem", "t-body",
                                                "t-launch", "t-total"};
            for (int i = 0; i < 5; i++) {
                xmlChar *v = xmlGetProp(e, (const xmlChar *)times[i]);
                char num[64];
                rc_format_exact(v ? strtod((const char *)v, NULL) * 1e6 : 0.0, num, sizeof num);
                xmlFree(v);
                rc_buffer_puts(&b, ",");
                rc_buffer_puts(&b, num);
            }
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "bound");
            /* "assumed" where the GPU file gives no launch latency. */
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "t-launch-origin");
            /* The memory model's counts (issue 16), then its traffic. */
            static const char *const memory_columns[] = {
                "requests", "accessed-bytes", "sector-bytes", "footprint-bytes",
                "shared-requests", "shared-wavefronts"};
            for (int i = 0; i < 6; i++) {
                rc_buffer_puts(&b, ",");
                if (memory)
                    attr_field(&b, memory, memory_columns[i]);
            }
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "l2-bytes");
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "dram-bytes");
            /* The refined estimate (execution model). */
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "occupancy");
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "waves");
            static const char *const refined[] = {"t-lower", "t-estimate"};
            for (int i = 0; i < 2; i++) {
                xmlChar *v = xmlGetProp(e, (const xmlChar *)refined[i]);
                char num[64] = "";
                if (v)
                    rc_format_exact(strtod((const char *)v, NULL) * 1e6, num, sizeof num);
                xmlFree(v);
                rc_buffer_puts(&b, ",");
                rc_buffer_puts(&b, num);
            }
            rc_buffer_puts(&b, ",");
            attr_field(&b, e, "limiter");
            rc_buffer_puts(&b, "\r\n");
        }
    }
    return rc_buffer_take(&b, len);
}

char *rc_render_results_xml(xmlDocPtr doc, size_t *len)
{
    xmlChar *mem = NULL;
    int size = 0;
    xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
    if (!mem)
        return NULL;
    char *out = malloc((size_t)size + 1);
    if (out) {
        memcpy(out, mem, (size_t)size);
        out[size] = '\0';
        *len = (size_t)size;
    }
    xmlFree(mem);
    return out;
}
