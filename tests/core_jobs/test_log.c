/* test_log.c — level filtering, formatting, the standard FILE * sink, and whole lines from
 * several threads at once. */
#include "support.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

typedef struct capture {
    int calls;
    kiln_log_level levels[8];
    char messages[8][KILN_LOG_MESSAGE_MAX + 1];
} capture;

static void capture_sink(void *user, kiln_log_level level, const char *message)
{
    capture *c = user;
    if (c->calls < 8) {
        c->levels[c->calls] = level;
        snprintf(c->messages[c->calls], sizeof c->messages[0], "%s", message);
    }
    c->calls++;
}

static void logger_passes_messages_at_or_above_its_threshold(void **state)
{
    capture c = {0};
    kiln_logger l = {KILN_LOG_INFO, capture_sink, &c};
    kiln_log(&l, KILN_LOG_ERROR, "e");
    kiln_log(&l, KILN_LOG_WARNING, "w");
    kiln_log(&l, KILN_LOG_INFO, "i");
    kiln_log(&l, KILN_LOG_DEBUG, "d");
    assert_int_equal(c.calls, 3);
    assert_int_equal(c.levels[0], KILN_LOG_ERROR);
    assert_int_equal(c.levels[1], KILN_LOG_WARNING);
    assert_int_equal(c.levels[2], KILN_LOG_INFO);
    assert_string_equal(c.messages[2], "i");
    assert_true(kiln_log_enabled(&l, KILN_LOG_INFO));
    assert_false(kiln_log_enabled(&l, KILN_LOG_DEBUG));

    l.level = KILN_LOG_ERROR;
    kiln_log(&l, KILN_LOG_WARNING, "dropped");
    assert_int_equal(c.calls, 3);
    l.level = KILN_LOG_DEBUG;
    kiln_log(&l, KILN_LOG_DEBUG, "kept");
    assert_int_equal(c.calls, 4);
    assert_string_equal(c.messages[3], "kept");
}

static void logger_formats_printf_arguments_and_drops_trailing_newlines(void **state)
{
    capture c = {0};
    kiln_logger l = {KILN_LOG_DEBUG, capture_sink, &c};
    kiln_log(&l, KILN_LOG_WARNING, "%s: %d mips, %zu bytes, %.2f", "wall.png", 11, (size_t)4096,
             0.5);
    kiln_log(&l, KILN_LOG_INFO, "two lines\nend\n\n");
    assert_int_equal(c.calls, 2);
    assert_string_equal(c.messages[0], "wall.png: 11 mips, 4096 bytes, 0.50");
    assert_string_equal(c.messages[1], "two lines\nend");
}

static void logger_cuts_long_messages_and_marks_the_cut(void **state)
{
    capture c = {0};
    kiln_logger l = {KILN_LOG_DEBUG, capture_sink, &c};
    char *big = malloc(5000);
    assert_non_null(big);
    memset(big, 'a', 4999);
    big[4999] = '\0';
    kiln_log(&l, KILN_LOG_ERROR, "%s", big);
    assert_int_equal(c.calls, 1);
    assert_int_equal(strlen(c.messages[0]), KILN_LOG_MESSAGE_MAX);
    assert_string_equal(c.messages[0] + KILN_LOG_MESSAGE_MAX - 4, "a...");
    free(big);
}

static void logger_null_or_without_sink_is_silent(void **state)
{
    capture c = {0};
    kiln_logger no_sink = {KILN_LOG_DEBUG, NULL, &c};
    kiln_logger zero = {0};
    kiln_log(NULL, KILN_LOG_ERROR, "nobody %d", 1);
    kiln_log(&no_sink, KILN_LOG_ERROR, "nobody %d", 2);
    kiln_log(&zero, KILN_LOG_ERROR, "nobody %d", 3);
    assert_int_equal(c.calls, 0);
    assert_false(kiln_log_enabled(NULL, KILN_LOG_ERROR));
    assert_false(kiln_log_enabled(&no_sink, KILN_LOG_ERROR));
    assert_false(kiln_log_enabled(&zero, KILN_LOG_ERROR));
}

static char *read_all(FILE *f)
{
    fflush(f);
    long size = ftell(f);
    assert_true(size >= 0);
    rewind(f);
    char *s = malloc((size_t)size + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)size, f), (size_t)size);
    s[size] = '\0';
    return s;
}

static void log_file_sink_writes_kiln_level_prefixed_lines(void **state)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    kiln_logger l = {KILN_LOG_INFO, kiln_log_sink_file, f};
    kiln_log(&l, KILN_LOG_WARNING, "texture %s has no alpha", "wall.png");
    kiln_log(&l, KILN_LOG_ERROR, "E_%s", "IMPORT_FAILED");
    kiln_log(&l, KILN_LOG_INFO, "cooked %d assets", 3);
    kiln_log(&l, KILN_LOG_DEBUG, "not shown");
    char *s = read_all(f);
    assert_string_equal(s, "kiln: warning: texture wall.png has no alpha\n"
                           "kiln: error: E_IMPORT_FAILED\n"
                           "kiln: info: cooked 3 assets\n");
    free(s);
    fclose(f);
    assert_string_equal(kiln_log_level_name(KILN_LOG_DEBUG), "debug");
    assert_string_equal(kiln_log_level_name((kiln_log_level)42), "unknown");
}

enum { LOG_THREADS = 4, LOG_LINES = 400 };

typedef struct log_thread {
    const kiln_logger *l;
    int id;
} log_thread;

static void *log_main(void *arg)
{
    log_thread *t = arg;
    char payload[301];
    memset(payload, 'a' + t->id, 300);
    payload[300] = '\0';
    for (int i = 0; i < LOG_LINES; i++)
        kiln_log(t->l, KILN_LOG_INFO, "t%d n%d %s", t->id, i, payload);
    return NULL;
}

static void log_file_sink_lines_from_several_threads_never_interleave(void **state)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    kiln_logger l = {KILN_LOG_INFO, kiln_log_sink_file, f};
    pthread_t th[LOG_THREADS];
    log_thread args[LOG_THREADS];
    for (int i = 0; i < LOG_THREADS; i++) {
        args[i] = (log_thread){&l, i};
        assert_int_equal(pthread_create(&th[i], NULL, log_main, &args[i]), 0);
    }
    for (int i = 0; i < LOG_THREADS; i++) pthread_join(th[i], NULL);
    char *s = read_all(f);
    int seen[LOG_THREADS] = {0};
    int lines = 0;
    for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
        int id = -1, n = -1, used = 0;
        assert_int_equal(sscanf(line, "kiln: info: t%d n%d %n", &id, &n, &used), 2);
        assert_true(id >= 0 && id < LOG_THREADS);
        assert_int_equal(n, seen[id]); /* each thread's lines in its own order, none lost */
        seen[id]++;
        const char *p = line + used;
        assert_int_equal(strlen(p), 300);
        for (size_t k = 0; k < 300; k++) assert_int_equal(p[k], 'a' + id);
        lines++;
    }
    assert_int_equal(lines, LOG_THREADS * LOG_LINES);
    free(s);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(logger_passes_messages_at_or_above_its_threshold),
        cmocka_unit_test(logger_formats_printf_arguments_and_drops_trailing_newlines),
        cmocka_unit_test(logger_cuts_long_messages_and_marks_the_cut),
        cmocka_unit_test(logger_null_or_without_sink_is_silent),
        cmocka_unit_test(log_file_sink_writes_kiln_level_prefixed_lines),
        cmocka_unit_test(log_file_sink_lines_from_several_threads_never_interleave),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
