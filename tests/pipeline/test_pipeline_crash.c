/* test_pipeline_crash.c — the pipeline across processes: imports killed at random points never
 * leave an entry that report counts as imported and the next import repairs everything; two
 * processes importing into one cache at once lose and corrupt nothing; two kiln commands in two
 * folders with different thread counts make byte-identical entries. */
#define _GNU_SOURCE
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/file.h"
#include "fixtures.h"
#include "pipeline/cache.h"
#include "pipeline/project.h"
#include "support.h"

#define TREE_SIZE 30

static int64_t now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void child_import(const char *root, const char *out, unsigned jobs)
{
    kiln_project *p = fx_open(root, out, jobs);
    char *doc = NULL;
    kiln_error e;
    kiln_result r = kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &e);
    kiln_string_free(doc);
    kiln_project_close(p);
    _exit(r == KILN_OK ? 0 : 1);
}

/* Every entry the report counts as up_to_date must be whole, byte for byte. */
static int check_up_to_date_entries_are_whole(kiln_project *p)
{
    json_t *rep = fx_report(p);
    int n = 0;
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(rep, "assets"), i, row) {
        if (strcmp(json_string_value(json_object_get(row, "state")), "up_to_date") != 0) continue;
        json_t *m = kiln_cache_entry_load(p, json_string_value(json_object_get(row, "key")), true);
        if (!m)
            fail_msg("%s is reported up_to_date but its entry is not whole",
                     json_string_value(json_object_get(row, "path")));
        json_decref(m);
        n++;
    }
    json_decref(rep);
    return n;
}

static void crash_killed_imports_never_leave_an_entry_counted_as_imported(void **state)
{
    char *dir = kt_tempdir("crash");
    char *root = kt_format("%s/assets", dir);
    fx_make_tree(root, TREE_SIZE);
    /* How long a whole import takes here, to spread the kills over it. */
    char *probe = kt_format("%s/probe", dir);
    int64_t t0 = now_us();
    pid_t pid = fork();
    if (pid == 0) child_import(root, probe, 2);
    int st;
    waitpid(pid, &st, 0);
    int64_t full = now_us() - t0;
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);

    unsigned seed = 12345;
    int partial_seen = 0;
    for (int round = 0; round < 12; round++) {
        char *out = kt_format("%s/out%d", dir, round);
        int64_t delay = (int64_t)(rand_r(&seed) % (unsigned)(full > 1 ? full : 1));
        pid = fork();
        if (pid == 0) child_import(root, out, 2);
        usleep((useconds_t)delay);
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        kiln_project *p = fx_open(root, out, 1);
        int whole = check_up_to_date_entries_are_whole(p);
        if (whole > 0 && whole < TREE_SIZE) partial_seen++;
        /* The next import repairs: everything imported, every entry whole. */
        kiln_result c;
        json_decref(fx_import_all(p, &c));
        assert_int_equal(c, KILN_OK);
        assert_int_equal(check_up_to_date_entries_are_whole(p), TREE_SIZE);
        kiln_project_close(p);
        free(out);
    }
    /* The kills must have landed inside imports sometimes, or the test proved nothing. */
    print_message("rounds that killed an import half way: %d of 12\n", partial_seen);
    assert_true(partial_seen > 0);
    free(probe);
    free(root);
    kt_rmtree(dir);
    free(dir);
}

static void crash_two_concurrent_imports_into_one_cache_lose_and_corrupt_nothing(void **state)
{
    char *dir = kt_tempdir("concurrent");
    char *root = kt_format("%s/assets", dir), *out = kt_format("%s/.kiln", dir);
    fx_make_tree(root, TREE_SIZE);
    for (int round = 0; round < 3; round++) {
        pid_t a = fork();
        if (a == 0) child_import(root, out, 2);
        pid_t b = fork();
        if (b == 0) child_import(root, out, 2);
        int sa, sb;
        waitpid(a, &sa, 0);
        waitpid(b, &sb, 0);
        assert_true(WIFEXITED(sa) && WEXITSTATUS(sa) == 0);
        assert_true(WIFEXITED(sb) && WEXITSTATUS(sb) == 0);
        kiln_project *p = fx_open(root, out, 1);
        assert_int_equal(check_up_to_date_entries_are_whole(p), TREE_SIZE);
        kiln_project_close(p);
        /* Nothing left behind in tmp/. */
        char *tmp = kt_format("%s/cache/tmp", out);
        kiln_dir_list l;
        assert_int_equal(kiln_dir_list_read(tmp, NULL, &l, NULL), KILN_OK);
        assert_int_equal(l.count, 0);
        kiln_dir_list_free(&l);
        free(tmp);
        /* Next round starts from an empty cache again. */
        char *cache = kt_format("%s/cache", out);
        kt_rmtree(cache);
        free(cache);
    }
    free(root);
    free(out);
    kt_rmtree(dir);
    free(dir);
}

/* Two separate kiln processes (the command, exec'ed), in two folders, with -j1 and -j2. */
static void processes_two_kiln_commands_give_byte_identical_entries(void **state)
{
    const char *exe = getenv("KILN_EXE");
    if (!exe || !kt_file_exists(exe)) skip();
    char *dir = kt_tempdir("procs");
    char *a = kt_format("%s/a", dir), *b = kt_format("%s/b", dir);
    char *ra = kt_format("%s/assets", a), *rb = kt_format("%s/assets", b);
    fx_make_tree(ra, 10);
    fx_make_tree(rb, 10);
    char *ca = kt_format("cd '%s' && '%s' import --all -j 1 --json >/dev/null", a, exe);
    char *cb = kt_format("cd '%s' && '%s' import --all -j 2 --json >/dev/null", b, exe);
    assert_int_equal(kt_run(ca, NULL), 0);
    assert_int_equal(kt_run(cb, NULL), 0);
    char *oa = kt_format("%s/.kiln/cache/objects", a), *ob = kt_format("%s/.kiln/cache/objects", b);
    char *fa = fx_tree_fingerprint(oa), *fb = fx_tree_fingerprint(ob);
    assert_true(strstr(fa, "texture.ktx2") != NULL);
    assert_string_equal(fa, fb);
    free(fa);
    free(fb);
    free(oa);
    free(ob);
    free(ca);
    free(cb);
    free(ra);
    free(rb);
    free(a);
    free(b);
    kt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crash_killed_imports_never_leave_an_entry_counted_as_imported),
        cmocka_unit_test(crash_two_concurrent_imports_into_one_cache_lose_and_corrupt_nothing),
        cmocka_unit_test(processes_two_kiln_commands_give_byte_identical_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
