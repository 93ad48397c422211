/* fuzz_manifest.c: libFuzzer target: an output directory's manifest
 * (.roofcast-manifest, util/manifest.h), as rc_manifest_read parses it.
 * What is accepted must be safe to act on and survive a round trip: every
 * name a plain file name (no '/', not hidden: the only names a run may
 * remove), and the text rc_manifest_finish would write for it parses back
 * to the same entries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_pipeline.h"
#include "util/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_names(const rc_manifest *m)
{
    for (size_t i = 0; i < rc_manifest_count(m); i++) {
        const char *name = rc_manifest_name(m, i);
        if (!*name || *name == '.' || strchr(name, '/'))
            rc_fuzz_broken("a manifest listed a name that is not a plain file name", name);
        if (i > 0 && strcmp(rc_manifest_name(m, i - 1), name) >= 0)
            rc_fuzz_broken("a manifest's names are not sorted and unique", name);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    char *text = malloc(size + 1); /* the reader's text ends in a NUL */
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    int line = 0;
    bool v1 = false;
    rc_manifest *m = rc_manifest_parse(text, size, &line, &v1);
    free(text);
    if (!m) {
        if (line < 1)
            rc_fuzz_broken("a manifest was refused without a line", NULL);
        return 0;
    }
    check_names(m);
    size_t len = 0;
    char *again = rc_manifest_text(m, &len);
    int line2 = 0;
    bool v1_again = true;
    rc_manifest *m2 = again ? rc_manifest_parse(again, len, &line2, &v1_again) : NULL;
    if (!m2 || v1_again || rc_manifest_count(m2) != rc_manifest_count(m))
        rc_fuzz_broken("the manifest written for an accepted one does not parse back", again);
    for (size_t i = 0; i < rc_manifest_count(m); i++) {
        size_t a = 0, b = 0;
        const char *name = rc_manifest_name(m, i);
        if (strcmp(name, rc_manifest_name(m2, i)) != 0 || !rc_manifest_size(m, name, &a) ||
            !rc_manifest_size(m2, name, &b) || a != b ||
            rc_manifest_key(m, i) != rc_manifest_key(m2, i))
            rc_fuzz_broken("an entry changed in the round trip", name);
    }
    rc_manifest_free(m2);
    free(again);
    rc_manifest_free(m);
    return 0;
}
