/* fuzz_import_args.c: libFuzzer target: the argument forms `roofcast
 * import` parses itself (the rest goes to clang): --param and --length
 * NAME=EXPR, and --kernel NAME<ARGS>. The first byte picks the parser.
 * Checks what the parsers promise: a result in bounds, names that are C
 * identifiers, template arguments non-empty and at most 16. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int ident(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    char err[300];
    if (data[0] & 1) {
        char *name, *args[16];
        size_t n = 99;
        if (rc_import_parse_kernel(s, &name, args, &n, err, sizeof err)) {
            if (!ident(name) || n > 16)
                abort();
            for (size_t i = 0; i < n; i++)
                if (!*args[i])
                    abort();
            free(name);
            if (n)
                free(args[0]);
        } else if (n != 0 || !*err)
            abort();
    } else {
        char *name;
        const char *expr;
        if (rc_import_parse_assign(s, &name, &expr, err, sizeof err)) {
            if (!ident(name) || !*expr || strpbrk(expr, "\n\r\"<>&"))
                abort();
            free(name);
        } else if (!*err)
            abort();
    }
    free(s);
    return 0;
}
