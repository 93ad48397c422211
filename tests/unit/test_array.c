/* test_array.c: RC_GROW (util/array.h), the growable-array helper. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "util/array.h"

/* Appending one at a time: capacities 8, 16, 32, ... and the contents kept. */
static void test_append(void **state)
{
    (void)state;
    int *a = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 100; i++) {
        assert_true(RC_GROW(a, cap, n + 1));
        a[n++] = i;
        if (n <= 8)
            assert_int_equal(cap, 8);
        else if (n <= 16)
            assert_int_equal(cap, 16);
    }
    assert_int_equal(cap, 128);
    for (int i = 0; i < 100; i++)
        assert_int_equal(a[i], i);
    free(a);
}

/* A need beyond double the capacity is met exactly; a need within the
 * capacity changes nothing. */
static void test_need(void **state)
{
    (void)state;
    double *a = NULL;
    size_t cap = 0;
    assert_true(RC_GROW(a, cap, 1000));
    assert_int_equal(cap, 1000);
    double *same = a;
    assert_true(RC_GROW(a, cap, 10));
    assert_ptr_equal(a, same);
    assert_int_equal(cap, 1000);
    free(a);
}

/* A size that overflows fails and leaves the array and capacity as they were. */
static void test_overflow(void **state)
{
    (void)state;
    long *a = NULL;
    size_t cap = 0;
    assert_true(RC_GROW(a, cap, 2));
    long *before = a;
    assert_false(RC_GROW(a, cap, SIZE_MAX / 2));
    assert_ptr_equal(a, before);
    assert_int_equal(cap, 8);
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append),
        cmocka_unit_test(test_need),
        cmocka_unit_test(test_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
