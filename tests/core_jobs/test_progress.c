/* test_progress.c — the progress bar is silent off a terminal and draws, throttled, on one.
 * A pseudo-terminal stands in for the user's terminal: the bar writes to the slave side and
 * the test reads exactly what a terminal would receive from the master side. */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "core/progress.h"

typedef struct test_pty {
    int master;
    FILE *slave;
} test_pty;

static void pty_open(test_pty *t)
{
    t->master = posix_openpt(O_RDWR | O_NOCTTY);
    if (t->master < 0) {
        print_message("no pseudo-terminal available: %s\n", strerror(errno));
        skip();
    }
    assert_int_equal(grantpt(t->master), 0);
    assert_int_equal(unlockpt(t->master), 0);
    const char *name = ptsname(t->master);
    assert_non_null(name);
    int s = open(name, O_RDWR | O_NOCTTY);
    assert_true(s >= 0);
    struct termios tio;
    assert_int_equal(tcgetattr(s, &tio), 0);
    cfmakeraw(&tio); /* bytes pass unchanged, as the bar wrote them */
    assert_int_equal(tcsetattr(s, TCSANOW, &tio), 0);
    t->slave = fdopen(s, "w");
    assert_non_null(t->slave);
}

/* Everything the master has received so far (waits until 100 ms pass without data). */
static char *pty_drain(test_pty *t, size_t *out_len)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    for (;;) {
        struct pollfd pfd = {t->master, POLLIN, 0};
        if (poll(&pfd, 1, 100) <= 0) break;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        ssize_t n = read(t->master, buf + len, cap - len);
        if (n <= 0) break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    if (out_len) *out_len = len;
    return buf;
}

static void pty_close(test_pty *t)
{
    fclose(t->slave);
    close(t->master);
}

static kiln_progress *make_bar(size_t total, const char *label, FILE *f, bool enabled)
{
    kiln_progress *p = NULL;
    kiln_error err;
    if (kiln_progress_create(total, label, f, enabled, NULL, &p, &err) != KILN_OK)
        fail_msg("kiln_progress_create: %s", err.message);
    return p;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static size_t count_of(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* Advances through the whole range with pauses that would trigger redraws on a terminal. */
static void run_bar(kiln_progress *p)
{
    kiln_progress_advance(p, 3);
    sleep_ms(120);
    kiln_progress_advance(p, 3);
    kiln_progress_advance(p, 4);
    kiln_progress_finish(p);
    kiln_progress_destroy(p);
}

static void progress_writes_nothing_to_a_file_that_is_not_a_tty(void **state)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    kiln_progress *p = make_bar(10, "cooking", f, true);
    assert_false(kiln_progress_drawing(p));
    kiln_progress_advance(p, 4);
    assert_int_equal(kiln_progress_count(p), 4);
    kiln_progress_advance(p, 6);
    kiln_progress_finish(p);
    kiln_progress_destroy(p);
    fflush(f);
    assert_int_equal(ftell(f), 0);
    fseek(f, 0, SEEK_END);
    assert_int_equal(ftell(f), 0);
    fclose(f);
}

static void progress_writes_nothing_to_a_pipe(void **state)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    FILE *w = fdopen(fds[1], "w");
    assert_non_null(w);
    kiln_progress *p = make_bar(10, "cooking", w, true);
    assert_false(kiln_progress_drawing(p));
    run_bar(p);
    fclose(w);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 0); /* end of file at once: not one byte written */
    close(fds[0]);
}

static void progress_disabled_writes_nothing_to_a_tty(void **state)
{
    test_pty t;
    pty_open(&t);
    assert_true(isatty(fileno(t.slave)));
    kiln_progress *p = make_bar(10, "cooking", t.slave, false); /* e.g. --json */
    assert_false(kiln_progress_drawing(p));
    run_bar(p);
    size_t len;
    char *got = pty_drain(&t, &len);
    assert_int_equal(len, 0);
    free(got);
    pty_close(&t);
}

static void progress_draws_bar_on_a_tty_and_clears_the_line_at_finish(void **state)
{
    test_pty t;
    pty_open(&t);
    kiln_progress *p = make_bar(40, "textures", t.slave, true);
    assert_true(kiln_progress_drawing(p));
    sleep_ms(150); /* past the redraw interval: the next advance draws */
    kiln_progress_advance(p, 12);
    kiln_progress_advance(p, 28); /* reaches the total: always drawn */
    kiln_progress_finish(p);
    kiln_progress_advance(p, 1); /* after finish: nothing more */
    kiln_progress_destroy(p);

    char *got = pty_drain(&t, NULL);
    /* 12 of 40 fills 9 of 30 cells; the clear covers the widest line drawn (47 columns). */
    char *expect = kt_format("\r[%-30s] 0/40 textures\r[%-30s] 12/40 textures"
                             "\r[%-30s] 40/40 textures\r%47s\r",
                             "", "#########", "##############################", "");
    assert_string_equal(got, expect);
    free(expect);
    free(got);
    pty_close(&t);
}

static void progress_redraws_at_most_about_ten_times_a_second(void **state)
{
    test_pty t;
    pty_open(&t);
    kiln_progress *p = make_bar(100000000, "meshes", t.slave, true);
    double start = now_ms();
    size_t advances = 0;
    while (now_ms() - start < 450.0) {
        kiln_progress_advance(p, 1);
        advances++;
    }
    double elapsed = now_ms() - start;
    kiln_progress_destroy(p);
    char *got = pty_drain(&t, NULL);
    size_t draws = count_of(got, "\r[");
    /* The first draw at create, then one per 100 ms at most: never one per advance. */
    size_t most = 1 + (size_t)(elapsed / 100.0) + 1;
    print_message("%zu advances in %.0f ms, %zu draws\n", advances, elapsed, draws);
    assert_true(advances > 1000);
    assert_true(draws <= most);
    assert_true(draws >= 3);
    free(got);
    pty_close(&t);
}

static void progress_lines_fit_79_columns_with_a_long_label_and_big_counts(void **state)
{
    test_pty t;
    pty_open(&t);
    char label[401] = {0};
    for (int i = 0; i < 200; i++) memcpy(label + 2 * i, "\xc3\xa9", 2); /* "é" x 200 */
    size_t total = SIZE_MAX / 2;
    kiln_progress *p = make_bar(total, label, t.slave, true);
    kiln_progress_advance(p, total);
    kiln_progress_destroy(p);
    char *got = pty_drain(&t, NULL);
    size_t lines = 0;
    for (char *line = strtok(got, "\r"); line; line = strtok(NULL, "\r")) {
        assert_true(strlen(line) <= 79);
        const char *after = strchr(line, ']');
        if (!after) continue; /* the clearing line */
        lines++;
        after = strrchr(line, ' ') + 1; /* the label: only whole "é" */
        size_t n = strlen(after);
        assert_true(n > 0 && n % 2 == 0);
        for (size_t k = 0; k < n; k += 2) assert_memory_equal(after + k, "\xc3\xa9", 2);
    }
    assert_int_equal(lines, 2); /* the empty bar and the full one */
    free(got);
    pty_close(&t);
}

enum { ADV_THREADS = 4, ADV_STEPS = 5000 };

static void *advance_main(void *arg)
{
    for (int i = 0; i < ADV_STEPS; i++) kiln_progress_advance(arg, 1);
    return NULL;
}

static void progress_advance_from_several_threads_counts_every_step(void **state)
{
    test_pty t;
    pty_open(&t);
    kiln_progress *p = make_bar(ADV_THREADS * ADV_STEPS, "assets", t.slave, true);
    pthread_t th[ADV_THREADS];
    for (int i = 0; i < ADV_THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, advance_main, p), 0);
    for (int i = 0; i < ADV_THREADS; i++) pthread_join(th[i], NULL);
    assert_int_equal(kiln_progress_count(p), ADV_THREADS * ADV_STEPS);
    kiln_progress_finish(p);
    kiln_progress_destroy(p);
    char *got = pty_drain(&t, NULL);
    /* The end was drawn once all steps were in, then cleared. */
    const char *end = strstr(got, "] 20000/20000 assets\r");
    assert_non_null(end);
    char *tail = kt_format("] 20000/20000 assets\r%51s\r", "");
    assert_string_equal(strrchr(got, '[') + 31, tail);
    free(tail);
    free(got);
    pty_close(&t);
}

static void progress_null_bar_is_a_no_op(void **state)
{
    kiln_progress_advance(NULL, 5);
    kiln_progress_finish(NULL);
    kiln_progress_destroy(NULL);
    assert_int_equal(kiln_progress_count(NULL), 0);
    assert_false(kiln_progress_drawing(NULL));
    assert_int_equal(kiln_progress_create(1, "x", stderr, true, NULL, NULL, NULL), KILN_E_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(progress_writes_nothing_to_a_file_that_is_not_a_tty),
        cmocka_unit_test(progress_writes_nothing_to_a_pipe),
        cmocka_unit_test(progress_disabled_writes_nothing_to_a_tty),
        cmocka_unit_test(progress_draws_bar_on_a_tty_and_clears_the_line_at_finish),
        cmocka_unit_test(progress_redraws_at_most_about_ten_times_a_second),
        cmocka_unit_test(progress_lines_fit_79_columns_with_a_long_label_and_big_counts),
        cmocka_unit_test(progress_advance_from_several_threads_counts_every_step),
        cmocka_unit_test(progress_null_bar_is_a_no_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
