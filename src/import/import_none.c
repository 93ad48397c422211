/* import_none.c: `roofcast import` in a build without libclang. */
#include "import/import.h"

int rc_import_main(int argc, char **argv, FILE *out, FILE *err)
{
    (void)argc;
    (void)argv;
    (void)out;
    fputs("roofcast import: this roofcast was built without libclang, which import needs to read "
          "CUDA source: install it (Debian: apt-get install libclang-dev, or "
          "scripts/install-deps.sh) and build again (cmake finds it with llvm-config or in "
          "/usr/lib/llvm-*)\n",
          err);
    return 2;
}
