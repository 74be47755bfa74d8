/* test_paths.c — path.h: lexical normalisation and joins, is_within / relative_to, names from
 * data, and symlink-aware resolution and confinement over a real temporary tree. */
#include "support.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "core/path.h"
#include "files_tests.h"

/* Formats a path that must fit (kiln_path_format, so a cut path fails the test). */
#define FMT(buf, ...) assert_true(kiln_path_format(buf, sizeof buf, __VA_ARGS__))

static void path_normalize_gives_the_table_results(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {".", "."},
        {"", "."},
        {"./", "."},
        {"/", "/"},
        {"//", "/"},
        {"a/./b", "a/b"},
        {"a//b/", "a/b"},
        {"//a//b//", "/a/b"},
        {"../a", "../a"},
        {"../..", "../.."},
        {"a/..", "."},
        {"a/../../b", "../b"},
        {"../a/../../b", "../../b"},
        {"/../a", "/a"},
        {"/..", "/"},
        {"/a/b/../../..", "/"},
        {"/a/b/../c/./d/", "/a/c/d"},
        {"a//b/./c/../d", "a/b/d"},
        {"..a/b..", "..a/b.."},
        {"a/.../b", "a/.../b"},
        {".hidden/./x", ".hidden/x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        kiln_error e;
        kiln_result r = kiln_path_normalize(cases[i].in, out, sizeof out, &e);
        if (r != KILN_OK || strcmp(out, cases[i].out) != 0)
            fail_msg("normalize(\"%s\") = %s \"%s\", want \"%s\"", cases[i].in, kiln_result_name(r),
                     r == KILN_OK ? out : e.message, cases[i].out);
    }
}

static void path_normalize_works_in_place(void **state)
{
    (void)state;
    char p[64] = "/x/./y//../z/";
    assert_int_equal(kiln_path_normalize(p, p, sizeof p, NULL), KILN_OK);
    assert_string_equal(p, "/x/z");
}

static void path_normalize_refuses_long_paths_with_limit(void **state)
{
    (void)state;
    char *big = malloc(KILN_PATH_MAX + 100);
    memset(big, 'a', KILN_PATH_MAX + 99);
    big[KILN_PATH_MAX + 99] = '\0';
    char out[KILN_PATH_MAX];
    kiln_error e;
    assert_int_equal(kiln_path_normalize(big, out, sizeof out, &e), KILN_E_LIMIT);
    assert_int_equal(e.code, KILN_E_LIMIT);
    assert_non_null(strstr(e.message, "path too long"));

    /* 4095 bytes fit the 4096-byte buffer exactly */
    big[KILN_PATH_MAX - 1] = '\0';
    assert_int_equal(kiln_path_normalize(big, out, sizeof out, &e), KILN_OK);
    assert_int_equal(strlen(out), KILN_PATH_MAX - 1);

    /* the most components a path can have: "a/a/a/.../a" */
    for (size_t i = 1; i < KILN_PATH_MAX - 1; i += 2) big[i] = '/';
    assert_int_equal(kiln_path_normalize(big, out, sizeof out, &e), KILN_OK);
    assert_string_equal(out, big);
    free(big);
}

/* A buffer of n bytes followed by guard bytes that must survive. */
static void assert_normalize_into(const char *in, size_t n, kiln_result want, const char *want_out)
{
    char buf[80];
    memset(buf, '#', sizeof buf);
    kiln_error e;
    kiln_result r = kiln_path_normalize(in, buf, n, &e);
    if (r != want)
        fail_msg("normalize(\"%s\", size %zu) = %s, want %s", in, n, kiln_result_name(r),
                 kiln_result_name(want));
    if (want == KILN_OK) assert_string_equal(buf, want_out);
    for (size_t i = n; i < sizeof buf; i++)
        if (buf[i] != '#') fail_msg("normalize(\"%s\", size %zu) wrote byte %zu", in, n, i);
}

static void path_normalize_fills_a_buffer_exactly_and_never_writes_past_it(void **state)
{
    (void)state;
    assert_normalize_into(".", 1, KILN_E_LIMIT, NULL);
    assert_normalize_into(".", 2, KILN_OK, ".");
    assert_normalize_into("/", 1, KILN_E_LIMIT, NULL);
    assert_normalize_into("/", 2, KILN_OK, "/");
    assert_normalize_into("a", 1, KILN_E_LIMIT, NULL);
    assert_normalize_into("a", 2, KILN_OK, "a");
    assert_normalize_into("/a", 2, KILN_E_LIMIT, NULL);
    assert_normalize_into("/a", 3, KILN_OK, "/a");
    assert_normalize_into("abc/def", 7, KILN_E_LIMIT, NULL);
    assert_normalize_into("abc/def", 8, KILN_OK, "abc/def");
    assert_normalize_into("/abc/./def/", 8, KILN_E_LIMIT, NULL);
    assert_normalize_into("/abc/./def/", 9, KILN_OK, "/abc/def");
    assert_normalize_into("x", 0, KILN_E_LIMIT, NULL);
}

static void path_join_appends_relative_and_takes_absolute(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b, *out;
    } cases[] = {
        {"a", "b", "a/b"},        {"a/", "b/", "a/b"},
        {"/x/y", "../z", "/x/z"}, {"/x/y", "/abs/p", "/abs/p"},
        {"", "b/c", "b/c"},       {"a", "", "a"},
        {"/", "a", "/a"},         {"a/b", "../../..", ".."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        assert_int_equal(kiln_path_join(cases[i].a, cases[i].b, out, sizeof out, NULL), KILN_OK);
        if (strcmp(out, cases[i].out) != 0)
            fail_msg("join(\"%s\", \"%s\") = \"%s\", want \"%s\"", cases[i].a, cases[i].b, out,
                     cases[i].out);
    }
    char big[3000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    char out[KILN_PATH_MAX];
    kiln_error e;
    assert_int_equal(kiln_path_join(big, big, out, sizeof out, &e), KILN_E_LIMIT);
    assert_int_equal(e.code, KILN_E_LIMIT);
    char small[8];
    assert_int_equal(kiln_path_join("abc", "defgh", small, sizeof small, &e), KILN_E_LIMIT);
}

static void path_absolute_takes_relative_paths_from_the_current_folder(void **state)
{
    (void)state;
    char cwd[KILN_PATH_MAX], out[KILN_PATH_MAX], want[KILN_PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(kiln_path_absolute("x/./y/../z", out, sizeof out, NULL), KILN_OK);
    assert_true(kiln_path_format(want, sizeof want, "%s/x/z", strcmp(cwd, "/") ? cwd : ""));
    assert_string_equal(out, want);
    assert_int_equal(kiln_path_absolute("/p//q/", out, sizeof out, NULL), KILN_OK);
    assert_string_equal(out, "/p/q");
}

static void path_format_refuses_a_cut_path(void **state)
{
    (void)state;
    char out[8];
    assert_true(kiln_path_format(out, sizeof out, "%s/%d", "ab", 1234)); /* 7 chars fit */
    assert_string_equal(out, "ab/1234");
    assert_false(kiln_path_format(out, sizeof out, "%s/%d", "ab", 12345));
    assert_string_equal(out, "");
}

static void path_is_within_respects_component_boundaries(void **state)
{
    (void)state;
    assert_false(kiln_path_is_within("/a", "/ab"));
    assert_false(kiln_path_is_within("/a", "/ab/c"));
    assert_true(kiln_path_is_within("/a", "/a/b"));
    assert_true(kiln_path_is_within("/a", "/a"));
    assert_false(kiln_path_is_within("/a/b", "/a"));
    assert_false(kiln_path_is_within("/a/b", "/a/c"));
    assert_true(kiln_path_is_within("/", "/"));
    assert_true(kiln_path_is_within("/", "/a/b"));
    assert_false(kiln_path_is_within("/", "a/b"));
}

static void path_relative_to_strips_the_root(void **state)
{
    (void)state;
    assert_string_equal(kiln_path_relative_to("/a", "/a/b/c.png"), "b/c.png");
    assert_string_equal(kiln_path_relative_to("/a", "/a"), "");
    assert_string_equal(kiln_path_relative_to("/", "/x/y"), "x/y");
    assert_null(kiln_path_relative_to("/a", "/ab/c"));
    assert_null(kiln_path_relative_to("/a/b", "/a"));
}

static void path_basename_and_extension_look_at_the_last_component(void **state)
{
    (void)state;
    assert_string_equal(kiln_path_basename("a/b.png"), "b.png");
    assert_string_equal(kiln_path_basename("b.png"), "b.png");
    assert_string_equal(kiln_path_basename("/x/y/z"), "z");
    assert_string_equal(kiln_path_basename("a/"), "");
    char dir[8];
    assert_true(kiln_path_dirname("a/b.png", dir, sizeof dir));
    assert_string_equal(dir, "a");
    assert_true(kiln_path_dirname("/b.png", dir, sizeof dir));
    assert_string_equal(dir, "/");
    assert_true(kiln_path_dirname("b.png", dir, sizeof dir));
    assert_string_equal(dir, ".");
    assert_true(kiln_path_dirname("/x/y/z", dir, sizeof dir));
    assert_string_equal(dir, "/x/y");
    assert_false(kiln_path_dirname("/abcdefgh/z", dir, sizeof dir)); /* 9 bytes do not fit 8 */
    assert_string_equal(dir, "/x/y");                                /* untouched */
    assert_string_equal(kiln_path_extension("a/b.png"), "png");
    assert_string_equal(kiln_path_extension("a.tar.gz"), "gz");
    assert_string_equal(kiln_path_extension("models/fox.GLB"), "GLB");
    assert_string_equal(kiln_path_extension(".bashrc"), "");
    assert_string_equal(kiln_path_extension("dir.d/.hidden"), "");
    assert_string_equal(kiln_path_extension("a.b/c"), "");
    assert_string_equal(kiln_path_extension("noext"), "");
    assert_string_equal(kiln_path_extension("x."), "");
}

static void path_is_safe_relative_refuses_what_could_escape(void **state)
{
    (void)state;
    assert_true(kiln_path_is_safe_relative("a"));
    assert_true(kiln_path_is_safe_relative("a/b.png"));
    assert_true(kiln_path_is_safe_relative("..a/b..c/...")); /* dots inside names are fine */
    assert_true(kiln_path_is_safe_relative(".hidden"));
    assert_false(kiln_path_is_safe_relative(""));
    assert_false(kiln_path_is_safe_relative("/etc/passwd"));
    assert_false(kiln_path_is_safe_relative(".."));
    assert_false(kiln_path_is_safe_relative("../a"));
    assert_false(kiln_path_is_safe_relative("a/../b"));
    assert_false(kiln_path_is_safe_relative("a/.."));
    assert_false(kiln_path_is_safe_relative("."));
    assert_false(kiln_path_is_safe_relative("./a"));
    assert_false(kiln_path_is_safe_relative("a/./b"));
    assert_false(kiln_path_is_safe_relative("a\\b"));
    assert_false(kiln_path_is_safe_relative("..\\a"));
    assert_false(kiln_path_is_safe_relative("a//b"));
    assert_false(kiln_path_is_safe_relative("a/"));
}

/* ---- resolution and confinement over a real tree ------------------------------------------ */

typedef struct tree {
    char *dir;           /* the temporary folder */
    char real[PATH_MAX]; /* its realpath ($TMPDIR may itself be a symlink) */
    char root[PATH_MAX], outside[PATH_MAX];
} tree;

/* dir/root/{real/, file.txt, inlink -> real, link -> ../outside, flink -> ../outside/f.txt,
 * dlink -> ../outside/missing.txt, ddlink -> ../outside/nodir}; dir/outside/f.txt;
 * dir/rootlink -> root */
static void make_tree(tree *t)
{
    t->dir = kt_tempdir("paths");
    assert_non_null(realpath(t->dir, t->real));
    FMT(t->root, "%s/root", t->real);
    FMT(t->outside, "%s/outside", t->real);
    char *p;
    kt_write_file(p = kt_format("%s/root/real/x.txt", t->real), "x", 1), free(p);
    kt_write_file(p = kt_format("%s/root/file.txt", t->real), "f", 1), free(p);
    kt_write_file(p = kt_format("%s/outside/f.txt", t->real), "o", 1), free(p);
    static const char *const links[][2] = {
        {"real", "root/inlink"},
        {"../outside", "root/link"},
        {"../outside/f.txt", "root/flink"},
        {"../outside/missing.txt", "root/dlink"},
        {"../outside/nodir", "root/ddlink"},
        {"root", "rootlink"},
    };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        p = kt_format("%s/%s", t->real, links[i][1]);
        if (symlink(links[i][0], p) != 0) fail_msg("symlink %s: %s", p, strerror(errno));
        free(p);
    }
}

static void free_tree(tree *t)
{
    kt_rmtree(t->dir);
    free(t->dir);
}

static void path_resolve_follows_a_symlinked_folder_to_its_target(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char in[PATH_MAX], out[PATH_MAX], want[PATH_MAX];
    FMT(in, "%s/link/new/file.bin", t.root);
    assert_int_equal(kiln_path_resolve(in, out, sizeof out, NULL), KILN_OK);
    FMT(want, "%s/new/file.bin", t.outside);
    assert_string_equal(out, want);

    FMT(in, "%s/inlink/x.txt", t.root);
    assert_int_equal(kiln_path_resolve(in, out, sizeof out, NULL), KILN_OK);
    FMT(want, "%s/real/x.txt", t.root);
    assert_string_equal(out, want);

    /* a path through the symlinked root itself, with "..", normalised first */
    FMT(in, "%s/rootlink/real/../file.txt", t.real);
    assert_int_equal(kiln_path_resolve(in, out, sizeof out, NULL), KILN_OK);
    FMT(want, "%s/file.txt", t.root);
    assert_string_equal(out, want);

    /* nothing of it exists below "/" */
    assert_int_equal(kiln_path_resolve("/kiln-no-such-dir/a/b", out, sizeof out, NULL), KILN_OK);
    assert_string_equal(out, "/kiln-no-such-dir/a/b");
    assert_int_equal(kiln_path_resolve("/", out, sizeof out, NULL), KILN_OK);
    assert_string_equal(out, "/");

    kiln_error e;
    assert_int_equal(kiln_path_resolve("relative/p", out, sizeof out, &e), KILN_E_USAGE);
    char tiny[4];
    assert_int_equal(kiln_path_resolve(in, tiny, sizeof tiny, &e), KILN_E_LIMIT);
    free_tree(&t);
}

static void path_resolve_follows_a_dangling_symlink_to_where_a_write_would_land(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char in[PATH_MAX], out[PATH_MAX], want[PATH_MAX];
    FMT(in, "%s/dlink", t.root);
    assert_int_equal(kiln_path_resolve(in, out, sizeof out, NULL), KILN_OK);
    FMT(want, "%s/missing.txt", t.outside);
    assert_string_equal(out, want);
    FMT(in, "%s/ddlink/sub/x", t.root);
    assert_int_equal(kiln_path_resolve(in, out, sizeof out, NULL), KILN_OK);
    FMT(want, "%s/nodir/sub/x", t.outside);
    assert_string_equal(out, want);
    free_tree(&t);
}

static void path_resolve_gives_up_on_a_symlink_loop(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char a[PATH_MAX], b[PATH_MAX], out[PATH_MAX];
    FMT(a, "%s/loop_a", t.root);
    FMT(b, "%s/loop_b", t.root);
    assert_int_equal(symlink("loop_b", a), 0);
    assert_int_equal(symlink("loop_a", b), 0);
    FMT(out, "%s/x", a);
    kiln_error e;
    kiln_result r = kiln_path_resolve(out, out, sizeof out, &e);
    assert_int_not_equal(r, KILN_OK);
    assert_int_equal(e.code, r);
    free_tree(&t);
}

static void assert_refused(const char *path, const char *const *roots, size_t n)
{
    char out[PATH_MAX];
    kiln_error e;
    kiln_result r = kiln_path_confine(path, roots, n, out, sizeof out, &e);
    if (r != KILN_E_OUTPUT_REFUSED)
        fail_msg("confine(%s) = %s, want refusal", path, kiln_result_name(r));
    assert_int_equal(e.code, KILN_E_OUTPUT_REFUSED);
    assert_string_equal(e.path, path);
    assert_non_null(strstr(e.message, path));
}

static void path_confine_refuses_paths_that_land_outside_the_roots(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    const char *roots[] = {t.root};
    char p[PATH_MAX];
    assert_refused("/etc/passwd", roots, 1);
    FMT(p, "%s/f.txt", t.outside);
    assert_refused(p, roots, 1);
    FMT(p, "%s/../outside/x.bin", t.root); /* "../" escape */
    assert_refused(p, roots, 1);
    FMT(p, "%s/real/../../outside/x.bin", t.root);
    assert_refused(p, roots, 1);
    FMT(p, "%s/link/x.bin", t.root); /* symlinked folder inside → outside */
    assert_refused(p, roots, 1);
    FMT(p, "%s/link", t.root);
    assert_refused(p, roots, 1);
    FMT(p, "%s/flink", t.root); /* symlinked file inside → outside */
    assert_refused(p, roots, 1);
    FMT(p, "%s2/x", t.root); /* a sibling whose name starts like the root */
    assert_refused(p, roots, 1);
    FMT(p, "%s/x", t.root);
    assert_refused(p, roots, 0); /* no roots: nothing is allowed */
    free_tree(&t);
}

static void path_confine_refuses_a_dangling_symlink_pointing_outside(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    const char *roots[] = {t.root};
    char p[PATH_MAX];
    FMT(p, "%s/dlink", t.root); /* open(O_CREAT) would create outside/missing.txt */
    assert_refused(p, roots, 1);
    FMT(p, "%s/ddlink/sub/x", t.root);
    assert_refused(p, roots, 1);
    free_tree(&t);
}

static void path_confine_accepts_new_files_under_a_root_and_resolves_them(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char p[PATH_MAX], out[PATH_MAX], want[PATH_MAX];
    kiln_error e;
    const char *roots[] = {t.root};
    FMT(p, "%s/new/sub/file.bin", t.root);
    assert_int_equal(kiln_path_confine(p, roots, 1, out, sizeof out, &e), KILN_OK);
    assert_string_equal(out, p);
    assert_int_equal(kiln_path_confine(t.root, roots, 1, out, sizeof out, &e), KILN_OK);
    assert_string_equal(out, t.root);

    /* a symlink inside that stays inside is fine, and out holds the real place */
    FMT(p, "%s/inlink/y.bin", t.root);
    assert_int_equal(kiln_path_confine(p, roots, 1, out, sizeof out, &e), KILN_OK);
    FMT(want, "%s/real/y.bin", t.root);
    assert_string_equal(out, want);

    /* roots are resolved too: a root given through a symlink */
    char rootlink[PATH_MAX];
    FMT(rootlink, "%s/rootlink", t.real);
    const char *lroots[] = {rootlink};
    FMT(p, "%s/a.bin", t.root);
    assert_int_equal(kiln_path_confine(p, lroots, 1, out, sizeof out, &e), KILN_OK);
    assert_string_equal(out, p);

    /* the second root of two */
    const char *two[] = {t.root, t.outside};
    FMT(p, "%s/link/z.bin", t.root);
    assert_int_equal(kiln_path_confine(p, two, 2, out, sizeof out, &e), KILN_OK);
    FMT(want, "%s/z.bin", t.outside);
    assert_string_equal(out, want);

    /* a relative path is taken from the current folder */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(t.root), 0);
    kiln_result r1 = kiln_path_confine("real/../q.bin", roots, 1, out, sizeof out, &e);
    kiln_result r2 = kiln_path_confine("../outside/q.bin", roots, 1, p, sizeof p, NULL);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(r1, KILN_OK);
    FMT(want, "%s/q.bin", t.root);
    assert_string_equal(out, want);
    assert_int_equal(r2, KILN_E_OUTPUT_REFUSED);
    free_tree(&t);
}

/* The read rule: a file resolves inside the folder or is refused, unread, with E_ASSET_IO. */
static void path_confine_read_follows_every_link_and_refuses_what_leaves(void **state)
{
    (void)state;
    tree t;
    make_tree(&t);
    char p[PATH_MAX], out[PATH_MAX], want[PATH_MAX];
    kiln_error e;
    FMT(p, "%s/file.txt", t.root);
    assert_int_equal(kiln_path_confine_read(p, t.root, out, sizeof out, &e), KILN_OK);
    assert_string_equal(out, p);
    FMT(p, "%s/inlink/x.txt", t.root); /* a folder link that stays inside */
    assert_int_equal(kiln_path_confine_read(p, t.root, out, sizeof out, &e), KILN_OK);
    FMT(want, "%s/real/x.txt", t.root);
    assert_string_equal(out, want);
    assert_int_equal(kiln_path_confine_read(p, t.root, NULL, 0, NULL), KILN_OK);
    /* a file link and a folder link that lead out; a dangling link; the folder itself */
    FMT(p, "%s/flink", t.root);
    assert_int_equal(kiln_path_confine_read(p, t.root, out, sizeof out, &e), KILN_E_ASSET_IO);
    assert_string_equal(e.path, p);
    assert_non_null(strstr(e.message, "outside"));
    FMT(p, "%s/link/f.txt", t.root);
    assert_int_equal(kiln_path_confine_read(p, t.root, NULL, 0, &e), KILN_E_ASSET_IO);
    FMT(p, "%s/dlink", t.root);
    assert_int_equal(kiln_path_confine_read(p, t.root, NULL, 0, &e), KILN_E_ASSET_IO);
    assert_int_equal(kiln_path_confine_read(t.root, t.root, NULL, 0, &e), KILN_E_ASSET_IO);
    /* out too small for the real path */
    FMT(p, "%s/file.txt", t.root);
    assert_int_equal(kiln_path_confine_read(p, t.root, out, 4, &e), KILN_E_LIMIT);
    free_tree(&t);
}

const struct CMUnitTest path_tests[] = {
    cmocka_unit_test(path_normalize_gives_the_table_results),
    cmocka_unit_test(path_normalize_works_in_place),
    cmocka_unit_test(path_normalize_refuses_long_paths_with_limit),
    cmocka_unit_test(path_normalize_fills_a_buffer_exactly_and_never_writes_past_it),
    cmocka_unit_test(path_join_appends_relative_and_takes_absolute),
    cmocka_unit_test(path_absolute_takes_relative_paths_from_the_current_folder),
    cmocka_unit_test(path_format_refuses_a_cut_path),
    cmocka_unit_test(path_is_within_respects_component_boundaries),
    cmocka_unit_test(path_relative_to_strips_the_root),
    cmocka_unit_test(path_basename_and_extension_look_at_the_last_component),
    cmocka_unit_test(path_is_safe_relative_refuses_what_could_escape),
    cmocka_unit_test(path_resolve_follows_a_symlinked_folder_to_its_target),
    cmocka_unit_test(path_resolve_follows_a_dangling_symlink_to_where_a_write_would_land),
    cmocka_unit_test(path_resolve_gives_up_on_a_symlink_loop),
    cmocka_unit_test(path_confine_refuses_paths_that_land_outside_the_roots),
    cmocka_unit_test(path_confine_refuses_a_dangling_symlink_pointing_outside),
    cmocka_unit_test(path_confine_accepts_new_files_under_a_root_and_resolves_them),
    cmocka_unit_test(path_confine_read_follows_every_link_and_refuses_what_leaves),
};
const size_t path_test_count = sizeof path_tests / sizeof path_tests[0];
