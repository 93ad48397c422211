/* test_csv.c: estimates.csv per RFC 4180, whatever text reaches it.
 *
 * Today only ids (checked to [A-Za-z0-9_.-]), numbers, "compute" or
 * "memory" and an origin ("assumed") reach the CSV, so nothing needs quoting; these tests feed the
 * renderer a results tree with hostile ids directly, so that a future
 * field with free text is still written safely: quoted when it holds a
 * comma, a quote or a line break, quotes doubled, and a leading = + - @
 * (a formula to a spreadsheet) defused with an apostrophe. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "render/render.h"

#define X(s) ((const xmlChar *)(s))

/* A results tree with one kernel on one GPU. */
static xmlDocPtr tree(const char *kernel_id, const char *gpu_id)
{
    xmlDocPtr doc = xmlNewDoc(X("1.0"));
    xmlNodePtr top = xmlNewDocNode(doc, NULL, X("roofcast-results"), NULL);
    xmlDocSetRootElement(doc, top);
    xmlNodePtr kernels = xmlNewChild(top, NULL, X("kernels"), NULL);
    xmlNodePtr k = xmlNewChild(kernels, NULL, X("kernel"), NULL);
    xmlSetProp(k, X("id"), X(kernel_id));
    xmlNodePtr counts = xmlNewChild(k, NULL, X("counts"), NULL);
    xmlSetProp(xmlNewChild(counts, NULL, X("flops"), NULL), X("total"), X("240000"));
    xmlSetProp(xmlNewChild(counts, NULL, X("bytes"), NULL), X("total"), X("640000"));
    xmlNodePtr m = xmlNewChild(counts, NULL, X("memory"), NULL);
    static const char *const memory[][2] = {
        {"requests", "6400"}, {"accessed-bytes", "640000"}, {"sector-bytes", "727040"},
        {"footprint-bytes", "4032"}, {"shared-requests", "3"}, {"shared-wavefronts", "5"}};
    for (int i = 0; i < 6; i++)
        xmlSetProp(m, X(memory[i][0]), X(memory[i][1]));
    xmlNodePtr est = xmlNewChild(k, NULL, X("estimates"), NULL);
    xmlNodePtr e = xmlNewChild(est, NULL, X("estimate"), NULL);
    xmlSetProp(e, X("gpu"), X(gpu_id));
    xmlSetProp(e, X("intensity"), X("0.375"));
    xmlSetProp(e, X("t-compute"), X("1e-6"));
    xmlSetProp(e, X("t-mem"), X("2e-6"));
    xmlSetProp(e, X("t-body"), X("2e-6"));
    xmlSetProp(e, X("t-launch"), X("5e-6"));
    xmlSetProp(e, X("t-total"), X("7e-6"));
    xmlSetProp(e, X("bound"), X("memory"));
    xmlSetProp(e, X("t-launch-origin"), X("assumed"));
    xmlSetProp(e, X("l2-bytes"), X("20800"));
    xmlSetProp(e, X("dram-bytes"), X("4032"));
    xmlSetProp(e, X("occupancy"), X("0.5"));
    xmlSetProp(e, X("waves"), X("2"));
    xmlSetProp(e, X("t-lower"), X("1e-6"));
    xmlSetProp(e, X("t-estimate"), X("9.5e-6"));
    xmlSetProp(e, X("limiter"), X("dram"));
    return doc;
}

/* The CSV's second line (the row), without its CRLF. */
static char *row(const char *kernel_id, const char *gpu_id)
{
    xmlDocPtr doc = tree(kernel_id, gpu_id);
    size_t len = 0;
    char *csv = rc_render_csv(doc, &len);
    xmlFreeDoc(doc);
    assert_non_null(csv);
    assert_int_equal(strlen(csv), len);
    const char *header = "kernel,gpu,flops,bytes,intensity,t_compute_us,t_mem_us,t_body_us,"
                         "t_launch_us,t_total_us,bound,requests,accessed_bytes,"
                         "sector_bytes,footprint_bytes,shared_requests,shared_wavefronts,l2_bytes,"
                         "dram_bytes,occupancy,waves,t_lower_us,t_estimate_us,limiter,"
                         "t_launch_origin,cannot_launch\r\n";
    assert_memory_equal(csv, header, strlen(header));
    char *r = strdup(csv + strlen(header));
    free(csv);
    size_t n = strlen(r);
    assert_true(n >= 2 && strcmp(r + n - 2, "\r\n") == 0);
    r[n - 2] = '\0';
    return r;
}

static void expect_row(const char *kernel_id, const char *gpu_id, const char *want)
{
    char *r = row(kernel_id, gpu_id);
    assert_string_equal(r, want);
    free(r);
}

static void test_plain_ids(void **state)
{
    (void)state;
    expect_row("maximum_kernel", "titan-black",
               "maximum_kernel,titan-black,240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
}

static void test_comma_and_quotes(void **state)
{
    (void)state;
    expect_row("a,b", "say \"hi\"",
               "\"a,b\",\"say \"\"hi\"\"\",240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
    expect_row("\"", "x", "\"\"\"\",x,240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
}

static void test_line_breaks(void **state)
{
    (void)state;
    expect_row("two\nlines", "cr\rlf",
               "\"two\nlines\",\"cr\rlf\",240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
}

static void test_formulas_defused(void **state)
{
    (void)state;
    expect_row("=HYPERLINK(\"x\")", "+1",
               "\"'=HYPERLINK(\"\"x\"\")\",\"'+1\",240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
    expect_row("@SUM(A1)", "-cmd",
               "\"'@SUM(A1)\",\"'-cmd\",240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
    /* A negative number is a number, not a formula. */
    expect_row("-5", "x", "-5,x,240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
}

static void test_utf8_kept(void **state)
{
    (void)state;
    expect_row("k\xc3\xa9rnel", "\xc2\xb5gpu",
               "k\xc3\xa9rnel,\xc2\xb5gpu,240000,640000,0.375,1,2,2,5,7,memory,6400,640000,727040,4032,3,5,20800,4032,0.5,2,1,9.5,dram,assumed,");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_ids),
        cmocka_unit_test(test_comma_and_quotes),
        cmocka_unit_test(test_line_breaks),
        cmocka_unit_test(test_formulas_defused),
        cmocka_unit_test(test_utf8_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
