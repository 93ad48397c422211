/* main.c: the command line. Parses options and calls rc_run; all the work
 * is in the library, so tests and benchmarks link it directly. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/roofcast.h"
#include "import/import.h"
#include "util/array.h"
#include "util/diag.h" /* RC_PRINTF */
#include "util/output.h" /* rc_output_clean_on_signals */

static void usage(FILE *f)
{
    fputs("Usage: roofcast [OPTION]... [KERNEL_FILE_OR_DIR]...\n"
          "Estimate how long CUDA kernels take on GPUs, from their declared work\n"
          "(kernels/*.xml) and the GPUs' published figures (specs/*.xml), and write\n"
          "the reports. With no KERNEL_FILE_OR_DIR, read kernels/.\n"
          "\n"
          "  -s, --specs PATH       GPU spec file or directory (default: specs/ where\n"
          "                         it runs, else the bundled GPUs, found as the\n"
          "                         templates are)\n"
          "  -o, --output DIR       where the reports go (default: output/)\n"
          "  -t, --templates DIR    report templates (default: next to the program,\n"
          "                         its install tree, or the source tree it was\n"
          "                         built from)\n"
          "  -f, --formats LIST     any of md,html,svg,png,pdf,csv,xml, comma-separated\n"
          "                         (default: all; repeatable); the Markdown shows\n"
          "                         the charts written with it: PNG, else SVG,\n"
          "                         else none\n"
          "      --gpu ID[,ID]...   only these GPUs (ids as in specs/*.xml); the\n"
          "                         option may be repeated\n"
          "      --check            validate the inputs and print the estimates\n"
          "                         table; write nothing\n"
          "      --baseline PATH    compare with a previous run (its output directory\n"
          "                         or results.xml): changes.md, changes.csv and a\n"
          "                         section in each changed report\n"
          "      --fail-on-change PERCENT\n"
          "                         exit 4 when t_estimate of a kernel on a GPU moved\n"
          "                         by more than PERCENT since the baseline, or the\n"
          "                         baseline cannot be read or its t_estimate is\n"
          "                         missing or not a time (needs --baseline)\n"
          "      --fail-on-change-of QUANTITY\n"
          "                         what --fail-on-change follows: t_estimate (the\n"
          "                         default, the refined estimate) or t_total (the\n"
          "                         peak roofline); changes.* show both either way\n"
          "  -j, --jobs N           worker threads (default: one per processor); the\n"
          "                         output is the same whatever N is\n"
          "      --force            make every file again; without it, a file whose\n"
          "                         inputs (kernel file, GPU files, templates,\n"
          "                         options, baseline, this program) are unchanged\n"
          "                         since the run that made it is kept as it is\n"
          "      --timings          print CPU time per stage, peak memory, and the\n"
          "                         process's user and system time\n"
          "  -q, --quiet            print errors only (no progress, no summary)\n"
          "  -v, --verbose          say more about each step\n"
          "  -h, --help             show this help and exit\n"
          "  -V, --version          show the version and exit\n"
          "\n"
          "Messages go to standard error: 'FILE:LINE: what is wrong' for a problem\n"
          "with an input, 'roofcast: ...' for everything else. An option's argument\n"
          "that starts with '-' must be attached with '=' (--output=-x).\n"
          "\n"
          "Exit status: 0 everything written; 1 some input was rejected (the rest\n"
          "was still written); 2 bad usage; 3 output could not be written; 4 a\n"
          "t_estimate (or, with --fail-on-change-of t_total, a t_total) moved by\n"
          "more than --fail-on-change allows.\n",
          f);
}

static const struct option longopts[] = {
    {"specs", required_argument, NULL, 's'},
    {"output", required_argument, NULL, 'o'},
    {"templates", required_argument, NULL, 't'},
    {"formats", required_argument, NULL, 'f'},
    {"gpu", required_argument, NULL, 'g'},
    {"check", no_argument, NULL, 'c'},
    {"baseline", required_argument, NULL, 'b'},
    {"jobs", required_argument, NULL, 'j'},
    {"timings", no_argument, NULL, 'T'},
    {"force", no_argument, NULL, 'R'},
    {"fail-on-change", required_argument, NULL, 'F'},
    {"fail-on-change-of", required_argument, NULL, 'G'},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

/* The long name of an option, for messages. */
static const char *long_name(int c)
{
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == c)
            return o->name;
    return "?";
}

/* Every message of the command line starts with "roofcast: " (never
 * argv[0], which varies with how the program was run). */
static void usage_error(const char *fmt, ...) RC_PRINTF(1, 2);
static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("roofcast: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry 'roofcast --help' for more information.\n", stderr);
    va_end(ap);
}

/* An empty path names nothing: `-o "$OUT"` with OUT unset is a slip, not
 * the current directory, and "" would otherwise surface as a message about
 * a file with no name. True after the usage error. */
static bool empty_path(const char *what, const char *path)
{
    if (!path || *path)
        return false;
    usage_error("%s: an empty path (an unset variable?)", what);
    return true;
}

/* An argument given as the next word must not look like an option:
 * `--output -o` is a missing argument, not a directory named "-o". Written
 * as `--output=-o` or `-o-o`, it is taken as given. */
static bool argument_looks_like_option(int c, const char *optarg_, char **argv, int optind_)
{
    bool separate = optind_ >= 2 && argv[optind_ - 1] == optarg_;
    if (!separate || optarg_[0] != '-' || optarg_[1] == '\0')
        return false;
    usage_error("--%s needs an argument, and '%s' looks like an option (write --%s=%s if it "
                "is meant as the argument)",
                long_name(c), optarg_, long_name(c), optarg_);
    return true;
}

/* The ids of every --gpu option, in order: each option's list is copied
 * once, split at its commas and trimmed in place; ids point into the
 * copies. */
typedef struct {
    char **copies; /* one strdup per --gpu argument */
    size_t ncopies, copies_cap;
    const char **ids;
    size_t nids, ids_cap;
} gpu_list;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool gpu_list_add(gpu_list *l, const char *arg)
{
    char *copy = strdup(arg);
    /* Room for the most ids arg can hold (one a character) and the NULL. */
    if (!copy || !RC_GROW(l->copies, l->copies_cap, l->ncopies + 1) ||
        !RC_GROW(l->ids, l->ids_cap, l->nids + strlen(arg) + 1)) {
        free(copy);
        usage_error("out of memory");
        return false;
    }
    l->copies[l->ncopies++] = copy;
    for (char *p = copy;;) {
        char *end = p + strcspn(p, ",");
        bool last = *end == '\0';
        *end = '\0';
        while (is_space(*p))
            p++;
        for (char *q = end; q > p && is_space(q[-1]); q--)
            q[-1] = '\0';
        if (*p == '\0') {
            usage_error("--gpu: an empty GPU id in '%s' (expected ids separated by commas)", arg);
            return false;
        }
        l->ids[l->nids++] = p;
        if (last)
            return true;
        p = end + 1;
    }
}

static void gpu_list_free(gpu_list *l)
{
    for (size_t i = 0; i < l->ncopies; i++)
        free(l->copies[i]);
    free(l->copies);
    free(l->ids);
}

static bool is_option_value(int c)
{
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == c)
            return true;
    return false;
}

/* What getopt refused (it returned '?' or ':'), as a usage error naming
 * the option as the user wrote it. optopt is the option's value for a known
 * option, the character for an unknown short one, 0 for an unknown long
 * one; argv[optind - 1] is the word it came from once that word is done. */
static void option_error(int c, char **argv, int optind_)
{
    const char *word = optind_ >= 1 ? argv[optind_ - 1] : "";
    bool long_word = strncmp(word, "--", 2) == 0 && (optopt == 0 || is_option_value(optopt));
    int n = (int)strcspn(word, "=");
    if (c == ':' && long_word)
        usage_error("%.*s needs an argument", n, word);
    else if (c == ':')
        usage_error("-%c needs an argument", optopt);
    else if (long_word && word[n] == '=' && optopt != 0)
        usage_error("%.*s takes no argument", n, word);
    else if (long_word)
        usage_error("unknown or ambiguous option '%.*s'", n, word);
    else
        usage_error("unknown option '-%c'", optopt);
}

/* How far the command line got: on to the run, or an exit status now. */
typedef enum { PARSED_RUN, PARSED_EXIT_OK, PARSED_USAGE } parsed;

/* --formats: adds to o->formats, repeated -f options add up, like --gpu. */
static bool parse_formats_option(const char *arg, rc_options *o)
{
    char bad[64];
    unsigned more;
    if (!rc_parse_formats(arg, &more, bad, sizeof bad)) {
        usage_error("--formats: unknown format '%s' (expected md, html, svg, png, pdf, csv or xml)", bad);
        return false;
    }
    o->formats |= more;
    return true;
}

static bool parse_jobs_option(const char *arg, rc_options *o)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end || n < 1 || n > 1024) {
        usage_error("--jobs: '%s' is not a number of threads (1 to 1024)", arg);
        return false;
    }
    o->jobs = (int)n;
    return true;
}

static bool parse_fail_on_change_option(const char *arg, rc_options *o)
{
    char *end;
    o->fail_on_change = strtod(arg, &end);
    if (end == arg || *end || !(o->fail_on_change >= 0) || o->fail_on_change > 1e300) {
        usage_error("--fail-on-change: '%s' is not a percentage (a number >= 0)", arg);
        return false;
    }
    return true;
}

static bool parse_gate_option(const char *arg, rc_options *o)
{
    if (strcmp(arg, "t_estimate") != 0 && strcmp(arg, "t_total") != 0) {
        usage_error("--fail-on-change-of: '%s' is neither t_estimate nor t_total", arg);
        return false;
    }
    o->gate = strcmp(arg, "t_total") == 0 ? "t_total" : "t_estimate";
    return true;
}

static bool parse_gpu_option(const char *arg, rc_options *o, gpu_list *gpus)
{
    if (!gpu_list_add(gpus, arg))
        return false;
    o->gpu_ids = gpus->ids;
    o->ngpu_ids = gpus->nids;
    return true;
}

/* One option getopt returned (with optarg): into o, or an exit. */
static parsed apply_option(int c, rc_options *o, gpu_list *gpus, char **argv)
{
    bool ok = true;
    switch (c) {
    case 's': o->specs = optarg; break;
    case 'o': o->output_dir = optarg; break;
    case 't': o->templates_dir = optarg; break;
    case 'f': ok = parse_formats_option(optarg, o); break;
    case 'g': ok = parse_gpu_option(optarg, o, gpus); break;
    case 'c': o->check = true; break;
    case 'b': o->baseline = optarg; break;
    case 'j': ok = parse_jobs_option(optarg, o); break;
    case 'T': o->timings = true; break;
    case 'R': o->force = true; break;
    case 'F': ok = parse_fail_on_change_option(optarg, o); break;
    case 'G': ok = parse_gate_option(optarg, o); break;
    case 'q': o->verbosity = 0; break;
    case 'v': o->verbosity = 2; break;
    case 'h':
        usage(stdout);
        return PARSED_EXIT_OK;
    case 'V':
        printf("roofcast %s\n", RC_VERSION);
        return PARSED_EXIT_OK;
    default:
        option_error(c, argv, optind);
        return PARSED_USAGE;
    }
    return ok ? PARSED_RUN : PARSED_USAGE;
}

/* The options, in order; the first one refused ends the parse. */
static parsed parse_options(int argc, char **argv, rc_options *o, gpu_list *gpus)
{
    int c;
    opterr = 0; /* getopt's messages name argv[0]; ours name roofcast */
    while ((c = getopt_long(argc, argv, ":s:o:t:f:j:qvhV", longopts, NULL)) != -1) {
        if (c != '?' && c != ':' && optarg && argument_looks_like_option(c, optarg, argv, optind))
            return PARSED_USAGE;
        parsed p = apply_option(c, o, gpus, argv);
        if (p != PARSED_RUN)
            return p;
    }
    return PARSED_RUN;
}

/* What the options cannot check one at a time: empty paths, the operands,
 * and options that need each other. */
static bool check_arguments(const rc_options *o, int argc, char **argv)
{
    if (empty_path("--specs", o->specs) || empty_path("--output", o->output_dir) ||
        empty_path("--templates", o->templates_dir) || empty_path("--baseline", o->baseline))
        return false;
    for (int i = optind; i < argc; i++)
        if (empty_path("a kernel file or directory", argv[i]))
            return false;
    if (o->fail_on_change >= 0 && !o->baseline) {
        usage_error("--fail-on-change needs --baseline (a previous run to compare with)");
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    rc_options o = {0};
    o.verbosity = 1;
    o.fail_on_change = -1;
    o.gate = "t_estimate";
    gpu_list gpus = {0};
    int status = RC_EXIT_USAGE;
    /* Before any worker thread: an interrupted run leaves no temporary
     * file behind (output.h). */
    rc_output_clean_on_signals();
    /* `roofcast import SOURCE ...`: its own subcommand (src/import). A kernel
     * file or directory named "import" is written ./import. */
    if (argc > 1 && strcmp(argv[1], "import") == 0)
        return rc_import_main(argc - 1, argv + 1, stdout, stderr);
    parsed p = parse_options(argc, argv, &o, &gpus);
    if (p == PARSED_EXIT_OK)
        status = RC_EXIT_OK;
    if (p != PARSED_RUN || !check_arguments(&o, argc, argv))
        goto end;
    o.inputs = (const char *const *)argv + optind;
    o.ninputs = (size_t)(argc - optind);
    status = rc_run(&o, stdout, stderr);
end:
    gpu_list_free(&gpus);
    return status;
}
