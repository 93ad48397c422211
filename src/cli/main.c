/* main.c: the command line. Parses options and calls rc_run; all the work
 * is in the library, so tests and benchmarks link it directly. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/roofcast.h"

static void usage(FILE *f)
{
    fputs("Usage: roofcast [OPTION]... [KERNEL_FILE_OR_DIR]...\n"
          "Estimate how long CUDA kernels take on GPUs, from their declared work\n"
          "(kernels/*.xml) and the GPUs' published figures (specs/*.xml), and write\n"
          "the reports. With no KERNEL_FILE_OR_DIR, read kernels/.\n"
          "\n"
          "  -s, --specs PATH       GPU spec file or directory (default: specs/)\n"
          "  -o, --output DIR       where the reports go (default: output/)\n"
          "  -t, --templates DIR    report templates (default: templates/, or the\n"
          "                         installed copy)\n"
          "  -f, --formats LIST     any of md,html,svg,png,pdf,csv,xml, comma-separated\n"
          "                         (default: all)\n"
          "      --gpu ID[,ID]...   only these GPUs (ids as in specs/*.xml)\n"
          "      --check            validate the inputs and print the estimates\n"
          "                         table; write nothing\n"
          "      --baseline PATH    compare with a previous run (its output directory\n"
          "                         or results.xml): changes.md, changes.csv and a\n"
          "                         section in each changed report\n"
          "      --fail-on-change PERCENT\n"
          "                         exit 4 when an estimate moved by more than\n"
          "                         PERCENT since the baseline\n"
          "  -j, --jobs N           worker threads (default: one per processor); the\n"
          "                         output is the same whatever N is\n"
          "      --timings          print CPU time per stage and peak memory\n"
          "  -q, --quiet            print errors only (no progress, no summary)\n"
          "  -v, --verbose          say more about each step\n"
          "  -h, --help             show this help and exit\n"
          "  -V, --version          show the version and exit\n"
          "\n"
          "Exit status: 0 everything written; 1 some input was rejected (the rest\n"
          "was still written); 2 bad usage; 3 output could not be written; 4 an\n"
          "estimate moved by more than --fail-on-change allows.\n",
          f);
}

int main(int argc, char **argv)
{
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
        {"fail-on-change", required_argument, NULL, 'F'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    rc_options o = {0};
    o.verbosity = 1;
    o.fail_on_change = -1;
    char *gpu_list = NULL;
    const char **gpu_ids = NULL;
    int status = RC_EXIT_USAGE;
    int c;
    while ((c = getopt_long(argc, argv, "s:o:t:f:j:qvhV", longopts, NULL)) != -1) {
        switch (c) {
        case 's': o.specs = optarg; break;
        case 'o': o.output_dir = optarg; break;
        case 't': o.templates_dir = optarg; break;
        case 'f': {
            char bad[64];
            if (!rc_parse_formats(optarg, &o.formats, bad, sizeof bad)) {
                fprintf(stderr, "roofcast: --formats: unknown format '%s' (expected md, html, svg, png, pdf, csv or xml)\n", bad);
                goto end;
            }
            break;
        }
        case 'g': {
            free(gpu_list);
            free(gpu_ids);
            gpu_list = strdup(optarg);
            gpu_ids = calloc(strlen(optarg) / 2 + 2, sizeof *gpu_ids);
            if (!gpu_list || !gpu_ids)
                goto end;
            o.ngpu_ids = 0;
            for (char *save = NULL, *t = strtok_r(gpu_list, ",", &save); t;
                 t = strtok_r(NULL, ",", &save))
                gpu_ids[o.ngpu_ids++] = t;
            if (o.ngpu_ids == 0) {
                fprintf(stderr, "roofcast: --gpu needs at least one GPU id\n");
                goto end;
            }
            o.gpu_ids = gpu_ids;
            break;
        }
        case 'c': o.check = true; break;
        case 'b': o.baseline = optarg; break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 1 || n > 1024) {
                fprintf(stderr, "roofcast: --jobs: '%s' is not a number of threads (1 to 1024)\n",
                        optarg);
                goto end;
            }
            o.jobs = (int)n;
            break;
        }
        case 'T': o.timings = true; break;
        case 'F': {
            char *end;
            o.fail_on_change = strtod(optarg, &end);
            if (end == optarg || *end || !(o.fail_on_change >= 0) || o.fail_on_change > 1e300) {
                fprintf(stderr, "roofcast: --fail-on-change: '%s' is not a percentage (a number >= 0)\n",
                        optarg);
                goto end;
            }
            break;
        }
        case 'q': o.verbosity = 0; break;
        case 'v': o.verbosity = 2; break;
        case 'h':
            usage(stdout);
            status = RC_EXIT_OK;
            goto end;
        case 'V':
            printf("roofcast %s\n", RC_VERSION);
            status = RC_EXIT_OK;
            goto end;
        default:
            fputs("Try 'roofcast --help' for more information.\n", stderr);
            goto end;
        }
    }
    o.inputs = (const char *const *)argv + optind;
    o.ninputs = (size_t)(argc - optind);
    status = rc_run(&o, stdout, stderr);
end:
    free(gpu_list);
    free(gpu_ids);
    return status;
}
