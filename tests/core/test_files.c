/* test_files.c — file.h: bounded reads, maps, atomic and exclusive writes, mkdir -p, removal
 * that does not follow symlinks, sorted listings and stat; and main() of core_files. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/file.h"
#include "counting_alloc.h"
#include "files_tests.h"

static char *in_dir(const char *dir, const char *name) { return kt_format("%s/%s", dir, name); }

static void make_file(const char *dir, const char *name, const void *data, size_t size)
{
    char *p = in_dir(dir, name);
    kt_write_file(p, data, size);
    free(p);
}

/* The sorted names in dir joined with '|' (via kiln_dir_list_read), malloc'd. */
static char *listing(const char *dir)
{
    kiln_dir_list l;
    assert_int_equal(kiln_dir_list_read(dir, NULL, &l, NULL), KILN_OK);
    size_t n = 1;
    for (size_t i = 0; i < l.count; i++) n += strlen(l.names[i]) + 1;
    char *s = calloc(1, n);
    for (size_t i = 0; i < l.count; i++) {
        if (i) strcat(s, "|");
        strcat(s, l.names[i]);
    }
    kiln_dir_list_free(&l);
    return s;
}

static void file_read_accepts_exactly_the_limit_and_refuses_one_byte_more(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    uint8_t bytes[100];
    for (int i = 0; i < 100; i++) bytes[i] = (uint8_t)(i * 7);
    make_file(dir, "f.bin", bytes, sizeof bytes);
    char *p = in_dir(dir, "f.bin");

    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    uint8_t *data = NULL;
    size_t size = 0;
    kiln_error e;
    assert_int_equal(kiln_file_read(p, 100, a, &data, &size, &e), KILN_OK);
    assert_int_equal(size, 100);
    assert_memory_equal(data, bytes, 100);
    assert_int_equal(data[100], 0); /* NUL appended for text parsers */
    assert_int_equal(c.last_size, 101);
    kiln_free(a, data, size + 1);

    data = (uint8_t *)"sentinel";
    assert_int_equal(kiln_file_read(p, 99, a, &data, &size, &e), KILN_E_LIMIT);
    assert_int_equal(e.code, KILN_E_LIMIT);
    assert_string_equal(e.path, p);
    assert_null(data);
    assert_int_equal(size, 0);
    assert_int_equal(c.allocs, 1); /* refused before allocating */

    /* the allocation failing is out of memory, not a crash or a leak */
    c.fail_at = c.calls + 1;
    assert_int_equal(kiln_file_read(p, 100, a, &data, &size, &e), KILN_E_OUT_OF_MEMORY);
    assert_null(data);
    kt_counting_assert_clean(&c);
    free(p);
    kt_rmtree(dir);
    free(dir);
}

static void file_read_of_an_empty_file_gives_a_terminated_empty_buffer(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    make_file(dir, "empty", "", 0);
    char *p = in_dir(dir, "empty");
    uint8_t *data = NULL;
    size_t size = 99;
    assert_int_equal(kiln_file_read(p, 0, NULL, &data, &size, NULL), KILN_OK);
    assert_int_equal(size, 0);
    assert_non_null(data);
    assert_int_equal(data[0], 0);
    kiln_free(NULL, data, 1);
    free(p);
    kt_rmtree(dir);
    free(dir);
}

static void file_read_of_a_folder_or_missing_file_is_asset_io_with_the_path(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    uint8_t *data;
    size_t size;
    kiln_error e;
    assert_int_equal(kiln_file_read(dir, 1 << 20, NULL, &data, &size, &e), KILN_E_ASSET_IO);
    assert_int_equal(e.code, KILN_E_ASSET_IO);
    assert_string_equal(e.path, dir);
    assert_non_null(strstr(e.message, dir));
    assert_null(data);

    char *missing = in_dir(dir, "missing.png");
    assert_int_equal(kiln_file_read(missing, 1 << 20, NULL, &data, &size, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, missing);
    assert_non_null(strstr(e.message, strerror(ENOENT)));
    assert_int_equal(kiln_file_read(missing, 1, NULL, &data, &size, NULL), KILN_E_ASSET_IO);
    free(missing);
    kt_rmtree(dir);
    free(dir);
}

static void file_map_maps_normal_and_empty_files(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    size_t n = 3 * 4096 + 17;
    uint8_t *bytes = malloc(n);
    for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)(i ^ (i >> 8));
    make_file(dir, "big", bytes, n);
    make_file(dir, "empty", "", 0);
    char *big = in_dir(dir, "big"), *empty = in_dir(dir, "empty");

    kiln_mapped_file m;
    kiln_error e;
    assert_int_equal(kiln_file_map(big, n, &m, &e), KILN_OK);
    assert_int_equal(m.size, n);
    assert_non_null(m.mapping);
    assert_memory_equal(m.data, bytes, n);
    kiln_file_unmap(&m);
    assert_null(m.data);
    assert_null(m.mapping);
    assert_int_equal(m.size, 0);

    assert_int_equal(kiln_file_map(empty, 0, &m, &e), KILN_OK);
    assert_non_null(m.data);
    assert_string_equal((const char *)m.data, "");
    assert_int_equal(m.size, 0);
    assert_null(m.mapping);
    kiln_file_unmap(&m);
    kiln_file_unmap(NULL);

    assert_int_equal(kiln_file_map(big, n - 1, &m, &e), KILN_E_LIMIT);
    assert_string_equal(e.path, big);
    assert_null(m.data);
    char *missing = in_dir(dir, "missing");
    assert_int_equal(kiln_file_map(missing, n, &m, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, missing);
    assert_int_equal(kiln_file_map(dir, n, &m, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, dir);
    assert_null(m.data);
    free(missing);
    free(big);
    free(empty);
    free(bytes);
    kt_rmtree(dir);
    free(dir);
}

static void file_write_atomic_replaces_contents_and_leaves_no_temp_files(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    char *p = in_dir(dir, "out.json");
    kiln_error e;
    assert_int_equal(kiln_file_write_atomic(p, "first version", 13, &e), KILN_OK);
    size_t size;
    char *got = kt_read_file(p, &size);
    assert_int_equal(size, 13);
    assert_memory_equal(got, "first version", 13);
    free(got);

    assert_int_equal(kiln_file_write_atomic(p, "v2", 2, &e), KILN_OK); /* shorter: no stale tail */
    got = kt_read_file(p, &size);
    assert_int_equal(size, 2);
    assert_memory_equal(got, "v2", 2);
    free(got);
    assert_int_equal(kiln_file_write_atomic(p, "", 0, &e), KILN_OK);
    got = kt_read_file(p, &size);
    assert_int_equal(size, 0);
    free(got);

    char *names = listing(dir);
    assert_string_equal(names, "out.json");
    free(names);
    free(p);
    kt_rmtree(dir);
    free(dir);
}

static void file_write_atomic_failure_leaves_no_temp_file(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    char *sub = in_dir(dir, "sub");
    assert_int_equal(mkdir(sub, 0777), 0);
    make_file(sub, "keep", "k", 1);
    kiln_error e;
    /* renaming a file over a non-empty folder fails after the temp file was written */
    assert_int_equal(kiln_file_write_atomic(sub, "data", 4, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, sub);
    char *names = listing(dir);
    assert_string_equal(names, "sub");
    free(names);

    char *missing = kt_format("%s/no/such/folder/x", dir);
    assert_int_equal(kiln_file_write_atomic(missing, "data", 4, &e), KILN_E_ASSET_IO);
    free(missing);
    free(sub);
    kt_rmtree(dir);
    free(dir);
}

static void file_write_new_refuses_an_existing_file_or_symlink(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    char *p = in_dir(dir, "a.bin");
    kiln_error e;
    assert_int_equal(kiln_file_write_new(p, "one", 3, &e), KILN_OK);
    assert_int_equal(kiln_file_write_new(p, "two!", 4, &e), KILN_E_ASSET_IO);
    assert_int_equal(e.code, KILN_E_ASSET_IO);
    assert_string_equal(e.path, p);
    size_t size;
    char *got = kt_read_file(p, &size); /* untouched */
    assert_int_equal(size, 3);
    assert_memory_equal(got, "one", 3);
    free(got);

    /* a dangling symlink is not followed to create its target */
    char *link = in_dir(dir, "link"), *target = in_dir(dir, "target");
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(kiln_file_write_new(link, "x", 1, &e), KILN_E_ASSET_IO);
    assert_false(kt_file_exists(target));
    free(link);
    free(target);
    free(p);
    kt_rmtree(dir);
    free(dir);
}

static void mkdirs_creates_nested_folders_and_is_idempotent(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    char *deep = kt_format("%s/a/b/c/d", dir);
    kiln_error e;
    assert_int_equal(kiln_mkdirs(deep, &e), KILN_OK);
    assert_true(kiln_dir_exists(deep));
    assert_int_equal(kiln_mkdirs(deep, &e), KILN_OK);
    char *slashy = kt_format("%s//a/b//c/d/e/", dir);
    assert_int_equal(kiln_mkdirs(slashy, &e), KILN_OK);
    char *e_dir = kt_format("%s/a/b/c/d/e", dir);
    assert_true(kiln_dir_exists(e_dir));
    assert_int_equal(kiln_mkdirs("", &e), KILN_OK);
    assert_int_equal(kiln_mkdirs("/", &e), KILN_OK);
    free(e_dir);
    free(slashy);
    free(deep);
    kt_rmtree(dir);
    free(dir);
}

static void mkdirs_refuses_a_path_through_a_regular_file(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    make_file(dir, "plain", "p", 1);
    char *through = kt_format("%s/plain/sub/deeper", dir);
    char *plain = in_dir(dir, "plain");
    kiln_error e;
    assert_int_equal(kiln_mkdirs(through, &e), KILN_E_ASSET_IO);
    assert_int_equal(e.code, KILN_E_ASSET_IO);
    assert_non_null(strstr(e.path, "plain"));
    assert_int_equal(kiln_mkdirs(plain, &e), KILN_E_ASSET_IO); /* exists, but not a folder */
    assert_true(kiln_file_exists(plain));
    free(plain);
    free(through);
    kt_rmtree(dir);
    free(dir);
}

static void remove_tree_removes_a_tree_but_not_what_a_symlink_points_to(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    make_file(dir, "tree/a/b/c.txt", "c", 1);
    make_file(dir, "tree/d.txt", "d", 1);
    make_file(dir, "tree/a/e/f.txt", "f", 1);
    make_file(dir, "outside/keep.txt", "keep", 4);
    make_file(dir, "outside/sub/keep2.txt", "keep", 4);
    char *outside = in_dir(dir, "outside");
    char *link = in_dir(dir, "tree/a/link");
    char *flink = in_dir(dir, "tree/flink");
    char *keep = in_dir(dir, "outside/keep.txt");
    char *keep2 = in_dir(dir, "outside/sub/keep2.txt");
    assert_int_equal(symlink(outside, link), 0);
    assert_int_equal(symlink(keep, flink), 0);
    char *tree = in_dir(dir, "tree");
    kiln_error e;
    assert_int_equal(kiln_remove_tree(tree, &e), KILN_OK);
    struct stat st;
    assert_int_not_equal(lstat(tree, &st), 0);
    assert_true(kiln_file_exists(keep));
    assert_true(kiln_file_exists(keep2));
    char *names = listing(dir);
    assert_string_equal(names, "outside");
    free(names);

    /* missing is fine; a single file; a symlink given as the root removes just the link */
    assert_int_equal(kiln_remove_tree(tree, &e), KILN_OK);
    char *toplink = in_dir(dir, "toplink");
    assert_int_equal(symlink(outside, toplink), 0);
    assert_int_equal(kiln_remove_tree(toplink, &e), KILN_OK);
    assert_int_not_equal(lstat(toplink, &st), 0);
    assert_true(kiln_file_exists(keep));
    assert_int_equal(kiln_remove_tree(keep2, &e), KILN_OK);
    assert_false(kiln_file_exists(keep2));
    free(toplink);
    free(tree);
    free(keep);
    free(keep2);
    free(flink);
    free(link);
    free(outside);
    kt_rmtree(dir);
    free(dir);
}

static void dir_list_is_sorted_bytewise(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    static const char *const names[] = {"b",  "a", "B",  "_",   "a.txt",  "\xc3\xa9",
                                        "10", "9", "A~", "a b", ".hidden"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) make_file(dir, names[i], "x", 1);
    char *sub = in_dir(dir, "Zdir");
    assert_int_equal(mkdir(sub, 0777), 0);
    char *got = listing(dir);
    assert_string_equal(got, ".hidden|10|9|A~|B|Zdir|_|a|a b|a.txt|b|\xc3\xa9");
    free(got);

    kiln_dir_list l;
    kiln_error e;
    assert_int_equal(kiln_dir_list_read(sub, NULL, &l, &e), KILN_OK); /* empty folder */
    assert_int_equal(l.count, 0);
    kiln_dir_list_free(&l);
    kiln_dir_list_free(NULL);
    char *missing = in_dir(dir, "missing");
    assert_int_equal(kiln_dir_list_read(missing, NULL, &l, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, missing);
    free(missing);
    free(sub);
    kt_rmtree(dir);
    free(dir);
}

static void dir_list_uses_the_allocator_and_survives_every_failing_allocation(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    for (int i = 0; i < 70; i++) { /* past the first two capacity steps (32, 64) */
        char name[16];
        snprintf(name, sizeof name, "f%03d", 69 - i);
        make_file(dir, name, "x", 1);
    }
    kt_counting c;
    const kiln_allocator *a = kt_counting_init(&c, true);
    kiln_dir_list l;
    assert_int_equal(kiln_dir_list_read(dir, a, &l, NULL), KILN_OK);
    assert_int_equal(l.count, 70);
    for (size_t i = 0; i < 70; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%03zu", i);
        assert_string_equal(l.names[i], name);
    }
    kiln_dir_list_free(&l);
    kt_counting_assert_clean(&c);
    size_t total = c.calls;
    for (size_t n = 1; n <= total; n++) {
        kt_counting f;
        const kiln_allocator *fa = kt_counting_init(&f, n % 2 == 0);
        f.fail_at = n;
        kiln_error e;
        assert_int_equal(kiln_dir_list_read(dir, fa, &l, &e), KILN_E_OUT_OF_MEMORY);
        assert_int_equal(e.code, KILN_E_OUT_OF_MEMORY);
        assert_int_equal(l.count, 0);
        assert_null(l.names);
        kt_counting_assert_clean(&f);
    }
    kt_rmtree(dir);
    free(dir);
}

static void file_stat_reports_size_kind_and_mtime_that_changes_on_write(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    make_file(dir, "s.bin", "12345", 5);
    char *p = in_dir(dir, "s.bin");
    const struct timespec old[2] = {{1000000000, 123456789}, {1000000000, 123456789}};
    assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);

    kiln_file_info fi;
    kiln_error e;
    assert_int_equal(kiln_file_stat(p, &fi, &e), KILN_OK);
    assert_int_equal(fi.size, 5);
    assert_true(fi.is_file);
    assert_false(fi.is_dir);
    assert_true(fi.mtime_ns == 1000000000LL * 1000000000LL + 123456789LL);
    assert_true(fi.ino != 0);

    int64_t before = kiln_time_now_ns();
    assert_int_equal(kiln_file_write_atomic(p, "longer contents", 15, &e), KILN_OK);
    kiln_file_info fi2;
    assert_int_equal(kiln_file_stat(p, &fi2, &e), KILN_OK);
    assert_int_equal(fi2.size, 15);
    assert_true(fi2.mtime_ns != fi.mtime_ns);
    assert_true(fi2.mtime_ns > fi.mtime_ns);
    /* the file system clock may lag the wall clock by a tick; allow a second */
    assert_true(fi2.mtime_ns >= before - 1000000000LL);
    assert_true(fi2.ino != fi.ino || fi2.dev != fi.dev); /* a new file was renamed in */

    assert_int_equal(kiln_file_stat(dir, &fi, &e), KILN_OK);
    assert_true(fi.is_dir);
    assert_false(fi.is_file);
    assert_true(kiln_dir_exists(dir));
    assert_false(kiln_file_exists(dir));
    assert_true(kiln_file_exists(p));
    assert_false(kiln_dir_exists(p));

    char *missing = in_dir(dir, "nope");
    assert_int_equal(kiln_file_stat(missing, &fi, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, missing);
    assert_false(kiln_file_exists(missing));
    free(missing);
    free(p);
    kt_rmtree(dir);
    free(dir);
}

static void fsync_dir_accepts_a_folder_and_refuses_a_missing_one(void **state)
{
    (void)state;
    char *dir = kt_tempdir("files");
    kiln_error e;
    assert_int_equal(kiln_fsync_dir(dir, &e), KILN_OK);
    char *missing = in_dir(dir, "missing");
    assert_int_equal(kiln_fsync_dir(missing, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, missing);
    free(missing);
    kt_rmtree(dir);
    free(dir);
}

const struct CMUnitTest file_tests[] = {
    cmocka_unit_test(file_read_accepts_exactly_the_limit_and_refuses_one_byte_more),
    cmocka_unit_test(file_read_of_an_empty_file_gives_a_terminated_empty_buffer),
    cmocka_unit_test(file_read_of_a_folder_or_missing_file_is_asset_io_with_the_path),
    cmocka_unit_test(file_map_maps_normal_and_empty_files),
    cmocka_unit_test(file_write_atomic_replaces_contents_and_leaves_no_temp_files),
    cmocka_unit_test(file_write_atomic_failure_leaves_no_temp_file),
    cmocka_unit_test(file_write_new_refuses_an_existing_file_or_symlink),
    cmocka_unit_test(mkdirs_creates_nested_folders_and_is_idempotent),
    cmocka_unit_test(mkdirs_refuses_a_path_through_a_regular_file),
    cmocka_unit_test(remove_tree_removes_a_tree_but_not_what_a_symlink_points_to),
    cmocka_unit_test(dir_list_is_sorted_bytewise),
    cmocka_unit_test(dir_list_uses_the_allocator_and_survives_every_failing_allocation),
    cmocka_unit_test(file_stat_reports_size_kind_and_mtime_that_changes_on_write),
    cmocka_unit_test(fsync_dir_accepts_a_folder_and_refuses_a_missing_one),
};
const size_t file_test_count = sizeof file_tests / sizeof file_tests[0];

int main(void)
{
    int failed = _cmocka_run_group_tests("files", file_tests, file_test_count, NULL, NULL);
    failed += _cmocka_run_group_tests("paths", path_tests, path_test_count, NULL, NULL);
    return failed ? 1 : 0;
}
