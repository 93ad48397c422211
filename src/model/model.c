/* model.c: freeing the structs of model.h, and the launch's counts. */
#include "model/model.h"

#include <stdlib.h>

#include "model/arch.h"

void rc_gpu_free(rc_gpu *gpu)
{
    if (!gpu)
        return;
    free(gpu->id);
    free(gpu->name);
    free(gpu->architecture);
    free(gpu->compute_capability);
    free(gpu->memory_type);
    free(gpu->clock_kind);
    free(gpu->source);
    free(gpu->file);
    rc_gpu_figure *sm = &gpu->sm.count, *rates = &gpu->rates.dram_bandwidth;
    for (size_t i = 0; i < sizeof gpu->sm / sizeof *sm; i++)
        rc_gpu_figure_clear(&sm[i]);
    for (size_t i = 0; i < sizeof gpu->rates / sizeof *rates; i++)
        rc_gpu_figure_clear(&rates[i]);
    free(gpu);
}

static void work_free(rc_work *w)
{
    while (w) {
        rc_work *next = w->next;
        work_free(w->children);
        for (int i = 0; i < RC_WORK_EXPRS; i++) {
            rc_expr_free(w->expr[i]);
            free(w->text[i]);
        }
        rc_expr_free(w->index_expr);
        free(w->index_text);
        free(w->name);
        free(w->note);
        free(w->assumption);
        free(w);
        w = next;
    }
}

void rc_kernel_free(rc_kernel *k)
{
    if (!k)
        return;
    free(k->id);
    free(k->name);
    free(k->summary);
    free(k->source_language);
    free(k->source_code);
    free(k->grid_text);
    free(k->block_text);
    for (size_t i = 0; i < k->nparams; i++) {
        free(k->params[i].name);
        free(k->params[i].text);
        free(k->params[i].note);
    }
    free(k->params);
    for (size_t i = 0; i < k->narrays; i++) {
        free(k->arrays[i].name);
        free(k->arrays[i].type);
        free(k->arrays[i].length_text);
        free(k->arrays[i].note);
    }
    free(k->arrays);
    work_free(k->work);
    for (size_t i = 0; i < k->nnotes; i++)
        free(k->notes[i]);
    free(k->notes);
    free(k->file);
    free(k);
}

int64_t rc_kernel_blocks(const rc_kernel *k)
{
    return k->grid[0] * k->grid[1] * k->grid[2];
}

int64_t rc_kernel_threads_per_block(const rc_kernel *k)
{
    return k->block[0] * k->block[1] * k->block[2];
}
