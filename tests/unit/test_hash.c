/* test_hash.c: the content hash of incremental runs (util/hash.h): FNV-1a
 * over 64 bits, against the published test vectors, and over files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/hash.h"

/* The vectors of the FNV reference (http://www.isthe.com/chongo/src/fnv/test_fnv.c). */
static void test_vectors(void **state)
{
    (void)state;
    assert_true(rc_hash_bytes(RC_HASH_INIT, "", 0) == UINT64_C(0xcbf29ce484222325));
    assert_true(rc_hash_bytes(RC_HASH_INIT, "a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
    assert_true(rc_hash_bytes(RC_HASH_INIT, "foobar", 6) == UINT64_C(0x85944171f73967e8));
    /* Continued over pieces as over the whole. */
    assert_true(rc_hash_bytes(rc_hash_bytes(RC_HASH_INIT, "foo", 3), "bar", 3) ==
                UINT64_C(0x85944171f73967e8));
    /* Strings are hashed with their end: "ab","c" is not "a","bc". */
    assert_true(rc_hash_str(rc_hash_str(RC_HASH_INIT, "ab"), "c") !=
                rc_hash_str(rc_hash_str(RC_HASH_INIT, "a"), "bc"));
}

static void test_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_hash.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[64], b[64], fifo[64];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    FILE *f = fopen(a, "w");
    fputs("<kernel/>", f);
    fclose(f);
    f = fopen(b, "w");
    fputs("<kernel/>", f);
    fclose(f);
    uint64_t ha = RC_HASH_INIT, hb = RC_HASH_INIT, again = RC_HASH_INIT;
    assert_true(rc_hash_file(&ha, a, 100));
    assert_true(rc_hash_file(&hb, b, 100));
    assert_true(rc_hash_file(&again, a, 100));
    assert_true(ha == again);
    assert_true(ha != hb); /* the same bytes under another path */
    f = fopen(a, "w");
    fputs("<kernel />", f);
    fclose(f);
    again = RC_HASH_INIT;
    assert_true(rc_hash_file(&again, a, 100));
    assert_true(ha != again);
    /* Too large, missing, a directory, a FIFO: false, the hash untouched. */
    uint64_t h = 42;
    assert_false(rc_hash_file(&h, a, 5));
    assert_false(rc_hash_file(&h, "/nonexistent/file", 100));
    assert_false(rc_hash_file(&h, dir, 100));
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_false(rc_hash_file(&h, fifo, 100));
    assert_true(h == 42);
    unlink(fifo);
    unlink(a);
    unlink(b);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
