/* regression_driver.c: replays saved inputs through a fuzz target without
 * libFuzzer (like zstd's tests/fuzz/regression_driver.c), so that every
 * input that once crashed runs under ctest in every build, gcc included.
 *
 * Usage: regress_TARGET FILE_OR_DIR...   (a directory: every file in it but
 * hidden ones, READMEs and *.expected)
 * Prints "N inputs replayed"; a crash or abort fails the test.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            uint8_t *p = realloc(buf, cap);
            if (!p) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        perror(path);
        free(buf);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    size_t replayed = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= replay_file(argv[i]);
            replayed++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        char **names = NULL;
        size_t count = 0;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            size_t n = strlen(e->d_name);
            /* hidden files, READMEs, and the bad corpus's expected messages */
            if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0 ||
                (n > 9 && strcmp(e->d_name + n - 9, ".expected") == 0))
                continue;
            char **p = realloc(names, (count + 1) * sizeof *names);
            if (!p)
                break;
            names = p;
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[count] = malloc(len);
            if (!names[count])
                break;
            snprintf(names[count], len, "%s/%s", argv[i], e->d_name);
            count++;
        }
        closedir(dir);
        if (count > 0)
            qsort(names, count, sizeof *names, compare); /* reproducible order */
        for (size_t j = 0; j < count; j++) {
            if (stat(names[j], &st) == 0 && S_ISREG(st.st_mode)) {
                failed |= replay_file(names[j]);
                replayed++;
            }
            free(names[j]);
        }
        free(names);
    }
    printf("%zu inputs replayed\n", replayed);
    return failed;
}
