/* results_of_run.h: the results tree of a real run, for the unit tests
 * that render from one. Include after cmocka.h. */
#ifndef ROOFCAST_TEST_RESULTS_OF_RUN_H
#define ROOFCAST_TEST_RESULTS_OF_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "cli/roofcast.h"

/* Runs roofcast on `input` (a kernel file or directory; the GPUs given, or
 * all) into a temporary directory, reads back its results.xml and removes
 * the directory. The tests run from the source directory
 * (tests/CMakeLists.txt). The caller frees the tree with xmlFreeDoc. */
static xmlDocPtr results_of_run(const char *input, const char *const *gpus, size_t ngpus)
{
    char dir[] = "/tmp/roofcast-test-run.XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *inputs[] = {input};
    rc_options o = {0};
    o.inputs = inputs;
    o.ninputs = 1;
    o.specs = "specs";
    o.output_dir = dir;
    o.formats = RC_FORMAT_XML;
    o.gpu_ids = gpus;
    o.ngpu_ids = ngpus;
    o.fail_on_change = -1;
    o.verbosity = 0;
    assert_int_equal(rc_run(&o, stdout, stderr), RC_EXIT_OK);
    char path[64];
    snprintf(path, sizeof path, "%s/results.xml", dir);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    unlink(path);
    rmdir(dir);
    return doc;
}

#endif
