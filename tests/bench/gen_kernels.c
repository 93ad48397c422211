/* gen_kernels.c: synthetic but realistic kernels for the benchmarks.
 *
 *   gen_kernels COUNT DIR [SEED]
 *
 * Writes COUNT kernel files DIR/k0000.xml ... Each is one of the shapes
 * the bundled kernels have, with sizes drawn from a fixed-seed generator so
 * that every run writes the same files: a strided loop over threadIdx.x
 * (maximum_kernel), a guarded reduction with a tree loop (gpuMeans), a
 * triangular double loop on a 2-D tile (gpuKendall), per-thread totals
 * behind a guard on blockIdx.x (getRestricted), and a 2-D stencil whose
 * work depends on the position of the block.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

/* A value in [lo, hi], from a 64-bit LCG (Knuth's MMIX constants). */
static long pick(long lo, long hi)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (long)((state >> 33) % (uint64_t)(hi - lo + 1));
}

static const char *const source =
    "  <source language=\"cuda\"><![CDATA[\n"
    "__global__ void k(const float *a, const float *b, float *out, int n)\n"
    "{\n"
    "    /* synthetic kernel for the benchmarks */\n"
    "}\n"
    "]]></source>\n";

static void strided(FILE *f, int i)
{
    long block = 32 << pick(0, 5), n = pick(64, 100000);
    fprintf(f, "  <launch grid=\"%ld,%ld,1\" block=\"%ld,1,1\"/>\n", pick(1, 4096), pick(1, 64), block);
    fprintf(f, "  <param name=\"n\" value=\"%ld\" note=\"row length\"/>\n", n);
    fprintf(f, "  <work>\n"
               "    <loop var=\"o\" from=\"threadIdx.x\" to=\"n\" step=\"blockDim.x\">\n"
               "      <flops count=\"%ld\" note=\"arithmetic per element\"/>\n"
               "      <load count=\"%ld\" bytes=\"4\" note=\"inputs\"/>\n"
               "    </loop>\n"
               "    <when test=\"threadIdx.x == 0\"><store count=\"1\" bytes=\"4\"/></when>\n"
               "  </work>\n", pick(1, 8), pick(1, 4));
    (void)i;
}

static void reduction(FILE *f, int i)
{
    long na = pick(1, 64), threads = 1 << pick(4, 8);
    fprintf(f, "  <launch grid=\"%ld,%ld,1\" block=\"%ld,1,1\"/>\n", na, na, threads);
    fprintf(f, "  <param name=\"na\" value=\"%ld\"/>\n  <param name=\"dim\" value=\"%ld\"/>\n"
               "  <param name=\"LEVELS\" value=\"%ld\"/>\n",
            na - pick(0, na / 4), pick(100, 50000), (long)__builtin_ctzl((unsigned long)threads));
    fprintf(f, "  <work>\n"
               "    <when test=\"blockIdx.x &lt; na and blockIdx.y &lt; na\">\n"
               "      <loop var=\"o\" from=\"threadIdx.x\" to=\"dim\" step=\"blockDim.x\">\n"
               "        <flops count=\"5\"/><load count=\"2\" bytes=\"4\"/>\n"
               "      </loop>\n"
               "      <loop var=\"level\" from=\"0\" to=\"LEVELS\">\n"
               "        <when test=\"threadIdx.x &lt; (blockDim.x >> (level + 1))\"><flops count=\"3\"/></when>\n"
               "      </loop>\n"
               "      <when test=\"threadIdx.x == 0\"><flops count=\"4\"/><store count=\"3\" bytes=\"4\"/></when>\n"
               "    </when>\n"
               "  </work>\n");
    (void)i;
}

static void triangular(FILE *f, int i)
{
    long tile = 8 << pick(0, 2), n = pick(50, 400);
    fprintf(f, "  <launch grid=\"%ld,%ld,1\" block=\"%ld,%ld,1\"/>\n", pick(1, 16), pick(1, 16), tile, tile);
    fprintf(f, "  <param name=\"n\" value=\"%ld\"/>\n", n);
    fprintf(f, "  <work>\n"
               "    <loop var=\"i\" from=\"threadIdx.x\" to=\"n\" step=\"blockDim.x\">\n"
               "      <loop var=\"j\" from=\"i + 1 + threadIdx.y\" to=\"n\" step=\"blockDim.y\">\n"
               "        <flops count=\"10\"/><load count=\"4\" bytes=\"4\"/>\n"
               "      </loop>\n"
               "    </loop>\n"
               "  </work>\n");
    (void)i;
}

static void totals(FILE *f, int i)
{
    long per = 16, county = pick(1, 200);
    fprintf(f, "  <launch grid=\"%ld,%ld,1\" block=\"32,32,1\"/>\n", pick(1, 20), pick(1, 20));
    fprintf(f, "  <param name=\"PER\" value=\"%ld\"/>\n  <param name=\"county\" value=\"%ld\"/>\n", per,
            county);
    fprintf(f, "  <work>\n"
               "    <let name=\"m\" value=\"blockIdx.x * PER + threadIdx.x\"/>\n"
               "    <when test=\"m &lt; county\">\n"
               "      <flops count=\"%ld\" note=\"solver, per thread\"/>\n"
               "      <traffic bytes=\"%ld\" note=\"matrix traffic, per thread\"/>\n"
               "    </when>\n"
               "  </work>\n", pick(1000, 100000), pick(1000, 500000));
    (void)i;
}

static void stencil(FILE *f, int i)
{
    long w = pick(256, 8192), h = pick(256, 8192);
    fprintf(f, "  <launch grid=\"%ld,%ld,1\" block=\"16,16,1\"/>\n", (w + 15) / 16, (h + 15) / 16);
    fprintf(f, "  <param name=\"w\" value=\"%ld\"/>\n  <param name=\"h\" value=\"%ld\"/>\n", w, h);
    fprintf(f, "  <work>\n"
               "    <let name=\"x\" value=\"blockIdx.x * blockDim.x + threadIdx.x\"/>\n"
               "    <let name=\"y\" value=\"blockIdx.y * blockDim.y + threadIdx.y\"/>\n"
               "    <when test=\"x &lt; w and y &lt; h\">\n"
               "      <flops count=\"9\"/><load count=\"5\" bytes=\"4\"/><store count=\"1\" bytes=\"4\"/>\n"
               "      <when test=\"x == 0 or y == 0 or x == w - 1 or y == h - 1\"><flops count=\"4\"/></when>\n"
               "    </when>\n"
               "  </work>\n");
    (void)i;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_kernels COUNT DIR [SEED]\n");
        return 2;
    }
    long count = strtol(argv[1], NULL, 10);
    state = argc > 3 ? strtoull(argv[3], NULL, 10) : 42;
    void (*const shapes[])(FILE *, int) = {strided, reduction, triangular, totals, stencil};
    const char *const shape_names[] = {"strided loop", "guarded reduction", "triangular pairs",
                                       "per-thread totals", "2-D stencil"};
    for (long i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/k%04ld.xml", argv[2], i);
        FILE *f = fopen(path, "w");
        if (!f) {
            fprintf(stderr, "gen_kernels: %s: %s\n", path, strerror(errno));
            return 1;
        }
        int shape = (int)(i % 5);
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<kernel id=\"k%04ld\" name=\"synthetic_%s_%04ld\">\n"
                   "  <summary>Synthetic benchmark kernel: %s</summary>\n%s",
                i, shape == 0 ? "strided" : shape == 1 ? "reduce" : shape == 2 ? "pairs"
                   : shape == 3 ? "solve" : "stencil",
                i, shape_names[shape], source);
        shapes[shape](f, (int)i);
        fprintf(f, "  <note>Generated by tests/bench/gen_kernels.c.</note>\n</kernel>\n");
        if (fclose(f) != 0) {
            fprintf(stderr, "gen_kernels: %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
    return 0;
}
