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

#endif
