/* fuzz_pipeline.h: the whole pipeline over inputs held in memory, shared
 * by the libFuzzer targets (fuzz_*.c) and the regression driver.
 *
 * Like cmark's cmark-fuzz.c, each input goes all the way: load (schema
 * validation included) -> evaluate -> results tree -> every renderer. The
 * renderers' outputs are checked where a property is cheap to state (the
 * SVG and results.xml parse again, each output starts as its format does),
 * and anything wrong aborts, which the fuzzer reports as a crash. The PDFs
 * are made for one input in eight unless RC_FUZZ_EVERY_PDF is set.
 */
#ifndef ROOFCAST_FUZZ_PIPELINE_H
#define ROOFCAST_FUZZ_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "paint/font.h"

/* Runs one kernel on one GPU. Either may be NULL: then the bundled
 * kernels/maximum_kernel.xml or specs/titan-black.xml stands in. The
 * templates and bundled inputs are read from ROOFCAST_SOURCE_DIR (compiled
 * in) on the first call. */
void rc_fuzz_pipeline(const char *kernel_xml, size_t kernel_len, const char *gpu_xml,
                      size_t gpu_len);

/* Parses `text` (len bytes, NUL-free or not) as an expression against a
 * small fixed scope, evaluates it at a few points and over a few ranges
 * (rc_expr_eval_range must contain every point's value), and runs it
 * through the pipeline inside a kernel's <work> (Markdown, CSV and
 * results.xml only: the other renderers are the other targets' work). */
void rc_fuzz_expression(const char *text, size_t len);

/* For the readers' targets (fuzz_manifest.c, fuzz_cache.c,
 * fuzz_baseline.c): the bundled fonts (borrowed); /dev/null, for messages
 * nobody reads (borrowed); and a new results tree (the caller frees it) of
 * the bundled gpuMeans and maximum_kernel on the GTX TITAN Black and the
 * RTX 4070, as a run makes it. */
const rc_fonts *rc_fuzz_fonts(void);
/* Every template of the source tree (borrowed). */
struct rc_templates *rc_fuzz_templates(void);
FILE *rc_fuzz_quiet(void);
xmlDocPtr rc_fuzz_bundled_results(void);

/* Something the code under test must never do: prints and aborts. */
void rc_fuzz_broken(const char *what, const char *detail);

#endif
