/* load_gpu.c: a validated specs/<id>.xml into an rc_gpu. See load.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/load.h"
#include "input/load_xml.h"
#include "input/units.h"
#include "model/arch.h"

/* Reads a quantity element; reports and returns false when it is bad.
 * `positive`: the value must be > 0 (else >= 0). */
static bool read_quantity(xmlNodePtr n, rc_quantity_kind kind, bool positive,
                          double *out, const char *file, rc_diag *diag)
{
    char *text = rc_xml_text(n);
    char err[256];
    bool ok = rc_parse_quantity(text, kind, out, err, sizeof err);
    if (!ok)
        rc_error_at(diag, file, xmlGetLineNo(n), "<%s>: %s", (const char *)n->name, err);
    else if (positive ? !(*out > 0) : !(*out >= 0)) {
        char q[QUOTE_BUF];
        rc_error_at(diag, file, xmlGetLineNo(n), "<%s>: %s must be %s, not '%s'",
                    (const char *)n->name, rc_quantity_kind_name(kind),
                    positive ? "positive" : "zero or positive", rc_quote(text, q));
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
    char *o = rc_xml_attr(n, "origin");
    f->origin = origin;
    for (int i = RC_ORIGIN_PUBLISHED; o && i <= RC_ORIGIN_ASSUMED; i++)
        if (strcmp(o, rc_origin_name((rc_origin)i)) == 0)
            f->origin = (rc_origin)i;
    free(o);
    f->source = rc_xml_attr(n, "source");
    if (!f->source)
        f->source = strdup(source ? source : "");
    f->written = rc_xml_text(n);
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
    char *group_source = rc_xml_attr(sm, "source");
    char *group_origin = rc_xml_attr(sm, "origin");
    rc_origin origin = RC_ORIGIN_PUBLISHED;
    for (int i = RC_ORIGIN_PUBLISHED; group_origin && i <= RC_ORIGIN_ASSUMED; i++)
        if (strcmp(group_origin, rc_origin_name((rc_origin)i)) == 0)
            origin = (rc_origin)i;
    bool ok = true;
    for (xmlNodePtr n = sm->children; n && ok; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            if (!rc_xml_is_element(n, fields[i].element))
                continue;
            rc_gpu_figure *f = (rc_gpu_figure *)((char *)s + fields[i].offset);
            if (fields[i].kind < 0) {
                char *t = rc_xml_text(n);
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
    char *text = rc_xml_text(n);
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
                        "not '%s'", rc_quote(text, q));
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
                        "not '%s'", rc_quote(text, q));
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
        char *key = rc_xml_attr(n, rc_xml_is_element(n, "launch") ? "kind" : "level");
        int level = !key ? -1 : strcmp(key, "dram") == 0 ? 0 : strcmp(key, "l2") == 0 ? 1 : 2;
        rc_gpu_figure *f;
        if (rc_xml_is_element(n, "bandwidth")) {
            f = level == 0 ? &r->dram_bandwidth : level == 1 ? &r->l2_bandwidth
                                                              : &r->l1_bandwidth;
            ok = read_quantity(n, RC_QTY_BYTE_RATE, true, &f->value, file, diag);
        } else if (rc_xml_is_element(n, "latency")) {
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
    gpu->id = rc_xml_attr(top, "id");
    gpu->name = rc_xml_attr(top, "name");
    gpu->launch_latency = RC_DEFAULT_LAUNCH_LATENCY;
    gpu->launch_latency_origin = RC_ORIGIN_ASSUMED;
    bool in_cycles[3] = {false, false, false}; /* latencies of rates, by level */
    bool ok = true;
    if (!rc_xml_check_id("gpu", gpu->id, file, gpu->line, diag))
        ok = false;
    for (xmlNodePtr n = top->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (rc_xml_is_element(n, "architecture"))
            gpu->architecture = rc_xml_text(n);
        else if (rc_xml_is_element(n, "compute-capability"))
            gpu->compute_capability = rc_xml_text(n);
        else if (rc_xml_is_element(n, "sms")) {
            char *t = rc_xml_text(n);
            gpu->sms = strtol(t, NULL, 10);
            free(t);
        } else if (rc_xml_is_element(n, "memory")) {
            gpu->memory_type = rc_xml_attr(n, "type");
            ok &= read_quantity(n, RC_QTY_BYTES, true, &gpu->memory_bytes, file, diag);
        } else if (rc_xml_is_element(n, "l2"))
            ok &= read_quantity(n, RC_QTY_BYTES, true, &gpu->l2_bytes, file, diag);
        else if (rc_xml_is_element(n, "peak")) {
            char *precision = rc_xml_attr(n, "precision");
            double *peak = &gpu->peak_fp32;
            if (precision && strcmp(precision, "fp64") == 0)
                peak = &gpu->peak_fp64;
            else if (precision && strcmp(precision, "fp16") == 0)
                peak = &gpu->peak_fp16;
            free(precision);
            ok &= read_quantity(n, RC_QTY_FLOP_RATE, true, peak, file, diag);
        } else if (rc_xml_is_element(n, "clock")) {
            gpu->clock_kind = rc_xml_attr(n, "kind");
            ok &= read_quantity(n, RC_QTY_FREQUENCY, true, &gpu->clock_hz, file, diag);
        } else if (rc_xml_is_element(n, "bandwidth"))
            ok &= read_quantity(n, RC_QTY_BYTE_RATE, true, &gpu->bandwidth, file, diag);
        else if (rc_xml_is_element(n, "launch-latency")) {
            ok &= read_quantity(n, RC_QTY_TIME, false, &gpu->launch_latency, file, diag);
            gpu->launch_latency_origin = RC_ORIGIN_PUBLISHED;
        } else if (rc_xml_is_element(n, "source"))
            gpu->source = rc_xml_text(n);
        else if (rc_xml_is_element(n, "sm"))
            ok &= read_sm(n, &gpu->sm, file, diag);
        else if (rc_xml_is_element(n, "measured"))
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
    return gpu_from(rc_xml_read_path(path, loader->gpu_schema, "gpu", diag), path, diag);
}

rc_gpu *rc_load_gpu_memory(rc_loader *loader, const char *name, const char *xml,
                           size_t len, rc_diag *diag)
{
    return gpu_from(rc_xml_read_document(name, xml, len, loader->gpu_schema, "gpu", diag), name,
                    diag);
}
