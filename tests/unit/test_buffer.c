/* test_buffer.c: the growing text buffer (util/buffer.h): appends keep the
 * text NUL-terminated, rc_buffer_printf gives what snprintf gives whether
 * the text fits the room left or the buffer must grow, and a failed
 * buffer takes nothing more. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"

/* An empty buffer, one that has room, and one that must grow: each append
 * is the text printf makes, and the buffer stays a C string. */
static void test_printf_fits_and_grows(void **state)
{
    (void)state;
    rc_buffer b = {0};
    rc_buffer_printf(&b, "%s=%d", "x", 42); /* no memory yet */
    assert_string_equal(b.data, "x=42");
    assert_int_equal(b.len, 4);
    rc_buffer_puts(&b, "0123456789");
    size_t cap = b.cap;
    assert_true(cap - b.len > 3);
    rc_buffer_printf(&b, "%c", '!'); /* fits the room left */
    assert_int_equal(b.cap, cap);
    assert_string_equal(b.data, "x=420123456789!");
    char *long_text = malloc(10001);
    memset(long_text, 'a', 10000);
    long_text[10000] = '\0';
    rc_buffer_printf(&b, "<%s>", long_text); /* cut short at first, then made again */
    assert_int_equal(b.len, 15 + 10002);
    assert_int_equal(strlen(b.data), b.len);
    assert_memory_equal(b.data, "x=420123456789!<aaa", 19);
    assert_string_equal(b.data + b.len - 3, "aa>");
    rc_buffer_printf(&b, "%s", ""); /* nothing */
    assert_int_equal(b.len, 15 + 10002);
    size_t len = 0;
    char *text = rc_buffer_take(&b, &len);
    assert_int_equal(len, 15 + 10002);
    assert_null(b.data);
    free(text);
    free(long_text);
}

/* Exactly filling the room left: the NUL needs one byte more, so the
 * buffer grows and the text is whole. */
static void test_printf_exactly_the_room(void **state)
{
    (void)state;
    rc_buffer b = {0};
    rc_buffer_puts(&b, "ab");
    size_t room = b.cap - b.len;
    char *fill = malloc(room + 1);
    memset(fill, 'z', room);
    fill[room] = '\0';
    rc_buffer_printf(&b, "%s", fill);
    assert_int_equal(b.len, 2 + room);
    assert_int_equal(strlen(b.data), b.len);
    assert_int_equal(b.data[b.len - 1], 'z');
    free(fill);
    free(b.data);
}

/* A buffer marked failed (out of memory) takes no more text. */
static void test_failed_buffer_takes_nothing(void **state)
{
    (void)state;
    rc_buffer b = {0};
    rc_buffer_puts(&b, "kept");
    b.failed = true;
    rc_buffer_printf(&b, "%s", "more");
    assert_int_equal(b.len, 4);
    assert_string_equal(b.data, "kept");
    size_t len = 1;
    assert_null(rc_buffer_take(&b, &len));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printf_fits_and_grows),
        cmocka_unit_test(test_printf_exactly_the_room),
        cmocka_unit_test(test_failed_buffer_takes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
