/* fuzz_cache.c: libFuzzer target: the overviews' cache an earlier run
 * left (.roofcast-cache, cli/kernel_cache.c), read as a run reads it:
 * indexed, then every entry taken with every piece wanted. An entry taken
 * must be what the run then does with it without a failure: its overview
 * part parses as a document, and summary.pdf takes its pages. (In this
 * build the CRC is not checked: see run_cache_take.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "cli/run.h"
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *file; /* one file, rewritten for every input */
    if (size > (4u << 20))
        return 0;
    if (!file && !(file = tmpfile()))
        rc_fuzz_broken("no temporary file", NULL);
    int fd = fileno(file);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size ||
        lseek(fd, 0, SEEK_SET) != 0)
        rc_fuzz_broken("cannot write the temporary file", NULL);
    bool damaged = false;
    run_cache *c = run_cache_load(dup(fd), &damaged);
    if (!c)
        return 0;
    rc_diag *diag = rc_diag_new(rc_fuzz_quiet(), 0);
    rc_pdf_summary *summary = NULL;
    unsigned all = RUN_SHARE_XML | RUN_SHARE_CSV | RUN_SHARE_PART | RUN_SHARE_PDF;
    for (size_t i = 0; i < run_cache_count(c); i++) {
        if (i > 0 && strcmp(run_cache_id(c, i - 1), run_cache_id(c, i)) > 0)
            rc_fuzz_broken("the cache's entries are not sorted", run_cache_id(c, i));
        run_share share;
        if (!run_cache_take(c, i, all, &share))
            continue;
        xmlDocPtr part = xmlReadMemory(share.part, (int)share.part_len, NULL, NULL,
                                       XML_PARSE_NONET | XML_PARSE_NOERROR |
                                           XML_PARSE_NOWARNING | XML_PARSE_HUGE);
        if (!part)
            rc_fuzz_broken("an entry taken has an overview part that does not parse",
                           run_cache_id(c, i));
        xmlFreeDoc(part);
        if (!summary && diag)
            summary = rc_pdf_summary_new(rc_fuzz_fonts(), NULL, diag);
        if (summary && !rc_pdf_summary_add_pages(summary, share.pdf, share.pdf_len))
            rc_fuzz_broken("an entry taken has pages summary.pdf cannot take",
                           run_cache_id(c, i));
        run_share_release(&share);
    }
    rc_pdf_summary_free(summary);
    rc_diag_free(diag);
    run_cache_free(c);
    return 0;
}
