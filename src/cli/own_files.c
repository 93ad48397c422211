/* own_files.c: where the program finds its own files, the report
 * templates and the bundled GPU files, when the options do not say: next
 * to the executable, its install tree, the source tree it was built from,
 * the configured prefix. */

#include "cli/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buffer.h"

/* Set by CMakeLists.txt: where the templates are installed, the same
 * relative to the installed executable, and the source tree's copy. */
#ifndef RC_INSTALLED_TEMPLATES
#define RC_INSTALLED_TEMPLATES "/usr/local/share/roofcast/templates"
#endif
#ifndef RC_TEMPLATES_FROM_BINDIR
#define RC_TEMPLATES_FROM_BINDIR "../share/roofcast/templates"
#endif
#ifndef RC_SOURCE_TEMPLATES
#define RC_SOURCE_TEMPLATES "templates"
#endif
/* The same for the bundled GPU files (specs/). */
#ifndef RC_INSTALLED_SPECS
#define RC_INSTALLED_SPECS "/usr/local/share/roofcast/specs"
#endif
#ifndef RC_SPECS_FROM_BINDIR
#define RC_SPECS_FROM_BINDIR "../share/roofcast/specs"
#endif
#ifndef RC_SOURCE_SPECS
#define RC_SOURCE_SPECS "specs"
#endif

/* The directory of the running executable, or "" when unknown. */
static void executable_dir(char *dir, size_t n)
{
    ssize_t len = n > 1 ? readlink("/proc/self/exe", dir, n - 1) : -1;
    dir[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    else
        dir[0] = '\0';
}

/* The first of the program's own directories `sub` that holds `marker`: next to the
 * executable, the install tree relative to it (so an install under any --prefix works, moved
 * or not), the source tree of the build, and the share directory of the configured prefix.
 * Writes it to dir[n] and returns true; else returns false with the directories tried, "A,
 * B or C", in *tried (the caller frees tried->data). */
static bool own_dir(const char *sub, const char *from_bindir, const char *source,
                    const char *installed, const char *marker, char *dir, size_t n,
                    rc_buffer *tried)
{
    char exe[2048];
    executable_dir(exe, sizeof exe);
    char candidates[4][4096];
    int count = 0;
    if (*exe) {
        snprintf(candidates[count++], sizeof candidates[0], "%.2000s/%s", exe, sub);
        snprintf(candidates[count++], sizeof candidates[0], "%.2000s/%s", exe, from_bindir);
    }
    snprintf(candidates[count++], sizeof candidates[0], "%s", source);
    snprintf(candidates[count++], sizeof candidates[0], "%s", installed);
    for (int i = 0; i < count; i++) {
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%.4096s/%.64s", candidates[i], marker);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            snprintf(dir, n, "%s", candidates[i]);
            return true;
        }
        rc_buffer_printf(tried, "%s%s", i == 0 ? "" : i + 1 == count ? " or " : ", ",
                         candidates[i]);
    }
    return false;
}

bool run_templates_dir(const rc_options *o, rc_diag *diag, char *dir, size_t n)
{
    if (o->templates_dir) {
        snprintf(dir, n, "%s", o->templates_dir);
        return true;
    }
    rc_buffer tried = {0};
    if (own_dir("templates", RC_TEMPLATES_FROM_BINDIR, RC_SOURCE_TEMPLATES,
                RC_INSTALLED_TEMPLATES, "markdown.xsl", dir, n, &tried)) {
        free(tried.data);
        return true;
    }
    rc_fault_at(diag, NULL, 0,
                "no report templates (markdown.xsl) in %s; give their directory with -t DIR",
                tried.data ? tried.data : "");
    free(tried.data);
    return false;
}

bool run_specs_path(const rc_options *o, char *dir, size_t n, char *tried, size_t tried_len)
{
    struct stat st;
    *tried = '\0';
    if (o->specs) {
        snprintf(dir, n, "%s", o->specs);
        return true;
    }
    /* A specs/ of the user's, where they run it, comes first: their own GPUs. */
    if (stat("specs", &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(dir, n, "specs");
        return true;
    }
    rc_buffer t = {0};
    bool found = own_dir("specs", RC_SPECS_FROM_BINDIR, RC_SOURCE_SPECS, RC_INSTALLED_SPECS,
                         "gpu.xsd", dir, n, &t);
    snprintf(tried, tried_len, "specs/ in the current directory, %s", t.data ? t.data : "");
    free(t.data);
    if (!found)
        snprintf(dir, n, "specs");
    return found;
}
