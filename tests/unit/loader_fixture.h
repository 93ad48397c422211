/* loader_fixture.h: the loader most unit tests start from, as a cmocka
 * group setup and teardown: `loader` and `diag` for the tests, with the
 * messages either kept in memory (message_buf, after fflush(messages)) or
 * printed on stderr, where a failing test shows them. Include after
 * cmocka.h. */
#ifndef ROOFCAST_TEST_LOADER_FIXTURE_H
#define ROOFCAST_TEST_LOADER_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "input/load.h"
#include "util/diag.h"

static rc_loader *loader;
static rc_diag *diag;
static FILE *messages; /* the memory stream; NULL with setup_loader_stderr */
static char *message_buf;
static size_t message_len;

static inline int open_loader(FILE *stream)
{
    diag = rc_diag_new(stream, 1);
    loader = diag ? rc_loader_new(diag) : NULL;
    return loader ? 0 : -1;
}

/* Group setup: the messages kept in memory, for tests that check them. */
static inline int setup_loader(void **state)
{
    (void)state;
    messages = open_memstream(&message_buf, &message_len);
    return messages ? open_loader(messages) : -1;
}

/* Group setup: the messages on stderr. */
static inline int setup_loader_stderr(void **state)
{
    (void)state;
    return open_loader(stderr);
}

static inline int teardown_loader(void **state)
{
    (void)state;
    rc_loader_free(loader);
    rc_diag_free(diag);
    if (messages)
        fclose(messages);
    free(message_buf);
    return 0;
}

#endif
