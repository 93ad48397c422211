/* test_output.c: the output directory never holds a torn file. Faults are
 * injected through the write hook: a disk that fills up, short writes,
 * interrupted writes; afterwards the previous file is intact and no
 * temporary file is left. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/output.h"

static char dir[64];
static rc_diag *diag;
static FILE *messages;
static char *message_buf;
static size_t message_len;

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/roofcast-test-output-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    messages = open_memstream(&message_buf, &message_len);
    diag = rc_diag_new(messages, 1);
    return diag ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            chmod(path, 0700);
            remove(path);
        }
    if (d)
        closedir(d);
    chmod(dir, 0700);
    rmdir(dir);
    rc_diag_free(diag);
    fclose(messages);
    free(message_buf);
    return 0;
}

/* The messages printed since the last call. */
static const char *new_messages(void)
{
    static size_t seen;
    fflush(messages);
    const char *m = message_buf + seen;
    seen = message_len;
    return m;
}

static char *slurp(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The number of files in dir whose name starts with '.' (temporaries),
 * leaving out the lock file every run keeps there. */
static int hidden_files(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
             strcmp(e->d_name, ".roofcast.lock") != 0;
    closedir(d);
    return n;
}

/* ---- write hooks -------------------------------------------------------- */

static size_t budget; /* bytes the "disk" still takes */

static ssize_t disk_fills_up(int fd, const void *buf, size_t len)
{
    if (budget == 0) {
        errno = ENOSPC;
        return -1;
    }
    size_t n = len < budget ? len : budget;
    budget -= n;
    return write(fd, buf, n);
}

static ssize_t writes_nothing(int fd, const void *buf, size_t len)
{
    (void)fd;
    (void)buf;
    (void)len;
    return 0;
}

static int interruptions;

static ssize_t interrupted_then_short(int fd, const void *buf, size_t len)
{
    if (interruptions > 0) {
        interruptions--;
        errno = EINTR;
        return -1;
    }
    interruptions = 1;
    return write(fd, buf, len > 3 ? 3 : len); /* three bytes at a time */
}

static ssize_t io_error(int fd, const void *buf, size_t len)
{
    (void)fd;
    (void)buf;
    (void)len;
    errno = EIO;
    return -1;
}

/* ---- tests ---------------------------------------------------------------- */

/* One run at a time: while one holds the directory, another is refused,
 * and once the first is freed the directory can be taken again. */
static void test_second_run_is_refused(void **state)
{
    (void)state;
    rc_output *first = rc_output_new(dir, diag);
    assert_non_null(first);
    new_messages();
    assert_null(rc_output_new(dir, diag));
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s: another roofcast run is writing into this directory "
             "(it holds .roofcast.lock); wait for it to end, or choose another -o\n", dir);
    assert_string_equal(new_messages(), want);
    rc_output_free(first);
    rc_output *again = rc_output_new(dir, diag);
    assert_non_null(again);
    rc_output_free(again);
}

static const char old_text[] = "kernel,gpu\r\nold,1\r\n";

static void write_previous(rc_output *out, const char *name)
{
    rc_output_set_write_hook(out, NULL);
    assert_true(rc_output_write(out, name, old_text, strlen(old_text)));
    char *got = slurp(name);
    assert_string_equal(got, old_text);
    free(got);
}

/* A disk that fills up part way: the error names the file and the reason,
 * the previous file is whole, no temporary file is left. */
static void test_disk_full_keeps_previous(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    assert_non_null(out);
    write_previous(out, "estimates.csv");
    new_messages();

    char big[10000];
    memset(big, 'x', sizeof big);
    budget = 4096;
    rc_output_set_write_hook(out, disk_fills_up);
    assert_false(rc_output_write(out, "estimates.csv", big, sizeof big));
    assert_true(rc_output_failed(out));
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s/estimates.csv: cannot write: No space left on device\n", dir);
    assert_string_equal(new_messages(), want);
    char *got = slurp("estimates.csv");
    assert_string_equal(got, old_text);
    free(got);
    assert_int_equal(hidden_files(), 0);
    assert_int_equal(rc_output_written(out), 1);
    rc_output_free(out);
}

/* write() returning 0 forever would loop; it is taken as a full disk. */
static void test_zero_write_is_an_error(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "a.md");
    new_messages();
    rc_output_set_write_hook(out, writes_nothing);
    assert_false(rc_output_write(out, "a.md", "new", 3));
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s/a.md: cannot write: No space left on device\n", dir);
    assert_string_equal(new_messages(), want);
    char *got = slurp("a.md");
    assert_string_equal(got, old_text);
    free(got);
    assert_int_equal(hidden_files(), 0);
    rc_output_free(out);
}

static void test_io_error(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "b.md");
    new_messages();
    rc_output_set_write_hook(out, io_error);
    assert_false(rc_output_write(out, "b.md", "new", 3));
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s/b.md: cannot write: Input/output error\n", dir);
    assert_string_equal(new_messages(), want);
    char *got = slurp("b.md");
    assert_string_equal(got, old_text);
    free(got);
    assert_int_equal(hidden_files(), 0);
    rc_output_free(out);
}

/* Short and interrupted writes are resumed: the file is whole. */
static void test_short_and_interrupted_writes(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    new_messages();
    interruptions = 1;
    rc_output_set_write_hook(out, interrupted_then_short);
    const char *text = "a report of some length, written three bytes at a time\n";
    assert_true(rc_output_write(out, "c.md", text, strlen(text)));
    assert_false(rc_output_failed(out));
    char *got = slurp("c.md");
    assert_string_equal(got, text);
    free(got);
    assert_string_equal(new_messages(), "");
    assert_int_equal(hidden_files(), 0);
    /* Reports are readable by everyone (mkstemp makes them private). */
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/c.md", dir);
    assert_int_equal(stat(path, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
    rc_output_free(out);
}

/* A directory that cannot be written: the reason is reported. Root writes
 * anywhere, so there the test is made by tests/cli/faults.sh with a
 * read-only mount instead. */
static void test_read_only_directory(void **state)
{
    (void)state;
    if (geteuid() == 0) {
        print_message("read-only directory: running as root, which ignores permissions; "
                      "tests/cli/faults.sh tests a read-only mount\n");
        skip();
    }
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "d.md");
    new_messages();
    assert_int_equal(chmod(dir, 0555), 0);
    bool ok = rc_output_write(out, "d.md", "new", 3);
    chmod(dir, 0700);
    assert_false(ok);
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s/d.md: cannot write: Permission denied\n", dir);
    assert_string_equal(new_messages(), want);
    char *got = slurp("d.md");
    assert_string_equal(got, old_text);
    free(got);
    rc_output_free(out);
}

/* An output "directory" that is a file. */
static void test_output_is_a_file(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "plain");
    rc_output_free(out);
    new_messages();
    char path[512], want[600];
    snprintf(path, sizeof path, "%s/plain", dir);
    assert_null(rc_output_new(path, diag));
    snprintf(want, sizeof want, "roofcast: %s: cannot create the output directory: Not a directory\n", path);
    assert_string_equal(new_messages(), want);
    snprintf(path, sizeof path, "%s/plain/sub", dir);
    assert_null(rc_output_new(path, diag));
    snprintf(want, sizeof want, "roofcast: %s: cannot create the output directory: Not a directory\n", path);
    assert_string_equal(new_messages(), want);
}

/* A file written piece by piece: nothing shows until it is closed, and
 * then it holds every piece in order. */
static void test_pieces_appear_whole(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "results.xml");
    new_messages();
    rc_output_file *f = rc_output_open(out, "results.xml");
    assert_non_null(f);
    rc_output_append(f, "<a>", 3);
    rc_output_append(f, "", 0);
    rc_output_append(f, "<b/>", 4);
    char *got = slurp("results.xml");
    assert_string_equal(got, old_text); /* still the previous file */
    free(got);
    assert_int_equal(hidden_files(), 1);
    rc_output_append(f, "</a>\n", 5);
    assert_true(rc_output_close(f));
    got = slurp("results.xml");
    assert_string_equal(got, "<a><b/></a>\n");
    free(got);
    assert_int_equal(hidden_files(), 0);
    assert_string_equal(new_messages(), "");
    assert_int_equal(rc_output_written(out), 2);
    assert_false(rc_output_failed(out));
    rc_output_free(out);
}

/* roofcast's own file written piece by piece (the overviews' cache): whole
 * once closed, but neither listed nor counted among the files written; a
 * failure still marks the run failed. */
static void test_unlisted_pieces(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    new_messages();
    rc_output_file *f = rc_output_open_unlisted(out, ".roofcast-cache");
    assert_non_null(f);
    rc_output_append(f, "kept\n", 5);
    assert_int_equal(hidden_files(), 1); /* its temporary file only */
    assert_true(rc_output_close(f));
    char *got = slurp(".roofcast-cache");
    assert_string_equal(got, "kept\n");
    free(got);
    assert_int_equal(hidden_files(), 1); /* the file itself */
    assert_int_equal(rc_output_files(out), 0);
    assert_int_equal(rc_output_written(out), 0);
    assert_false(rc_output_failed(out));
    budget = 2;
    rc_output_set_write_hook(out, disk_fills_up);
    f = rc_output_open_unlisted(out, ".roofcast-cache");
    rc_output_append(f, "lost\n", 5);
    assert_false(rc_output_close(f));
    assert_true(rc_output_failed(out));
    assert_int_equal(rc_output_files(out), 0);
    got = slurp(".roofcast-cache");
    assert_string_equal(got, "kept\n");
    free(got);
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s/.roofcast-cache: cannot write: No space left on device\n", dir);
    assert_string_equal(new_messages(), want);
    rc_output_free(out);
    char path[128];
    snprintf(path, sizeof path, "%s/.roofcast-cache", dir);
    assert_int_equal(remove(path), 0); /* the tests share the directory */
}

/* The disk fills up between two pieces: the later pieces are not written,
 * closing reports the first error once, and the previous file stays. */
static void test_pieces_on_a_full_disk(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "estimates.csv");
    new_messages();
    rc_output_file *f = rc_output_open(out, "estimates.csv");
    assert_non_null(f);
    char piece[3000];
    memset(piece, 'y', sizeof piece);
    budget = 4096;
    rc_output_set_write_hook(out, disk_fills_up);
    for (int i = 0; i < 4; i++)
        rc_output_append(f, piece, sizeof piece);
    assert_string_equal(new_messages(), "");
    assert_false(rc_output_close(f));
    char want[256];
    snprintf(want, sizeof want, "roofcast: %s/estimates.csv: cannot write: No space left on device\n", dir);
    assert_string_equal(new_messages(), want);
    assert_true(rc_output_failed(out));
    char *got = slurp("estimates.csv");
    assert_string_equal(got, old_text);
    free(got);
    assert_int_equal(hidden_files(), 0);
    rc_output_free(out);
}

static int writes;
static ssize_t counting_write(int fd, const void *buf, size_t len)
{
    writes++;
    return write(fd, buf, len);
}

/* Pieces are gathered into writes of 64 KB (libharu hands summary.pdf
 * over a few bytes at a time): 100,000 pieces of 10 bytes take 16 writes,
 * a piece larger than the buffer goes in one write after what was
 * gathered, and the file holds every byte in order. */
static void test_small_pieces_are_gathered(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    rc_output_file *f = rc_output_open(out, "summary.pdf");
    assert_non_null(f);
    writes = 0;
    rc_output_set_write_hook(out, counting_write);
    for (int i = 0; i < 100000; i++)
        rc_output_append(f, "0123456789", 10);
    assert_int_equal(writes, 15); /* 15 writes of 6,553 pieces (65,530 bytes); 17,050 bytes wait */
    static char big[200000];
    memset(big, 'z', sizeof big);
    rc_output_append(f, big, sizeof big);
    assert_int_equal(writes, 17); /* what waited, then the large piece whole */
    rc_output_append(f, "end", 3);
    rc_output_append(f, NULL, 0); /* an empty piece (a share's piece not wanted) */
    assert_true(rc_output_close(f));
    assert_int_equal(writes, 18);
    char path[128];
    snprintf(path, sizeof path, "%s/summary.pdf", dir);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    char *got = malloc(1000000 + sizeof big + 3);
    size_t n = fread(got, 1, 1000000 + sizeof big + 3, in);
    fclose(in);
    assert_int_equal(n, 1000000 + sizeof big + 3);
    for (size_t i = 0; i < 1000000; i += 99991)
        assert_int_equal(got[i], '0' + (int)(i % 10));
    assert_memory_equal(got + 1000000, big, sizeof big);
    assert_memory_equal(got + 1000000 + sizeof big, "end", 3);
    free(got);
    rc_output_free(out);
}

/* A run that gives up on a file leaves no trace of it. */
static void test_abandoned_pieces_leave_nothing(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    write_previous(out, "results.xml");
    new_messages();
    rc_output_file *f = rc_output_open(out, "results.xml");
    rc_output_append(f, "<half", 5);
    rc_output_abandon(f);
    rc_output_abandon(NULL);
    char *got = slurp("results.xml");
    assert_string_equal(got, old_text);
    free(got);
    assert_int_equal(hidden_files(), 0);
    assert_string_equal(new_messages(), "");
    rc_output_free(out);
}

/* A scratch file has no name from the start, reads back what was written
 * to it, and where it cannot be made, says nothing (the caller keeps the
 * data in memory). */
static void test_scratch_leaves_no_trace(void **state)
{
    (void)state;
    rc_output *out = rc_output_new(dir, diag);
    new_messages();
    int before = hidden_files();
    FILE *f = rc_output_scratch(out, "summary.pdf");
    assert_non_null(f);
    assert_int_equal(hidden_files(), before);
    assert_int_equal(fputs("sealed pages", f), 1);
    assert_int_equal(fflush(f), 0);
    assert_int_equal(fseek(f, 7, SEEK_SET), 0);
    char back[16] = {0};
    assert_int_equal(fread(back, 1, sizeof back, f), 5);
    assert_string_equal(back, "pages");
    fclose(f);
    assert_int_equal(hidden_files(), before);
    if (geteuid() != 0) { /* root ignores the permissions */
        assert_int_equal(chmod(dir, 0555), 0);
        FILE *none = rc_output_scratch(out, "summary.pdf");
        chmod(dir, 0700);
        assert_null(none);
    }
    assert_string_equal(new_messages(), "");
    assert_false(rc_output_failed(out));
    rc_output_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_run_is_refused),
        cmocka_unit_test(test_disk_full_keeps_previous),
        cmocka_unit_test(test_zero_write_is_an_error),
        cmocka_unit_test(test_io_error),
        cmocka_unit_test(test_short_and_interrupted_writes),
        cmocka_unit_test(test_read_only_directory),
        cmocka_unit_test(test_output_is_a_file),
        cmocka_unit_test(test_pieces_appear_whole),
        cmocka_unit_test(test_pieces_on_a_full_disk),
        cmocka_unit_test(test_small_pieces_are_gathered),
        cmocka_unit_test(test_unlisted_pieces),
        cmocka_unit_test(test_abandoned_pieces_leave_nothing),
        cmocka_unit_test(test_scratch_leaves_no_trace),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
