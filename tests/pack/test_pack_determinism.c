/* test_pack_determinism.c — the packs' determinism claim, automated: corpus models are cooked in
 * two separate project folders by two kiln processes, one with -j1 and one with -j2, then each
 * project is packed by another kiln process (-j1 and -j2 again); the two packs must be byte-
 * identical, and so must every file of the two caches' entries. Skipped without the corpus or
 * the kiln command. */
#include "support.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kiln/kiln_format.h"

/* Models with skins, clips, morph targets, textures, external buffers and shared images, small
 * enough to cook quickly (sanitizer builds take only the first few). */
static const char *const models[] = {
    "BoxTextured/glTF",
    "RiggedSimple/glTF",
    "AnimatedMorphCube/glTF-Binary",
    "SimpleSkin/glTF",
    "BoxAnimated/glTF-Binary",
    "CesiumMan/glTF-Binary",
    "MorphPrimitivesTest/glTF-Binary",
    "TextureTransformTest/glTF",
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file below dir, as paths relative to base, sorted. */
static void list_files(const char *base, const char *rel, char ***out, size_t *n, size_t *cap)
{
    char *dir = rel[0] ? kt_format("%s/%s", base, rel) : kt_format("%s", base);
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot read %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char *r = rel[0] ? kt_format("%s/%s", rel, e->d_name) : kt_format("%s", e->d_name);
        char *full = kt_format("%s/%s", base, r);
        struct stat st;
        assert_int_equal(lstat(full, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            list_files(base, r, out, n, cap);
            free(r);
        } else {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *out = realloc(*out, *cap * sizeof **out);
            }
            (*out)[(*n)++] = r;
        }
        free(full);
    }
    closedir(d);
    free(dir);
}

static void expect_same_tree(const char *a, const char *b)
{
    char **fa = NULL, **fb = NULL;
    size_t na = 0, nb = 0, ca = 0, cb = 0;
    list_files(a, "", &fa, &na, &ca);
    list_files(b, "", &fb, &nb, &cb);
    qsort(fa, na, sizeof *fa, cmp_str);
    qsort(fb, nb, sizeof *fb, cmp_str);
    assert_int_equal(na, nb);
    assert_true(na > 10);
    for (size_t i = 0; i < na; i++) {
        assert_string_equal(fa[i], fb[i]);
        char *pa = kt_format("%s/%s", a, fa[i]), *pb = kt_format("%s/%s", b, fb[i]);
        size_t sa, sb;
        uint8_t *ba = kt_read_file(pa, &sa), *bb = kt_read_file(pb, &sb);
        if (sa != sb || memcmp(ba, bb, sa) != 0) fail_msg("cache file %s differs", fa[i]);
        free(ba);
        free(bb);
        free(pa);
        free(pb);
        free(fa[i]);
        free(fb[i]);
    }
    free(fa);
    free(fb);
}

static void cook_and_pack(const char *exe, const char *dir, size_t model_count, int jobs)
{
    for (size_t i = 0; i < model_count; i++) {
        char *src = kt_corpus_path("gltf");
        char *name = kt_format("%s", models[i]);
        *strchr(name, '/') = '\0';
        char *cmd = kt_format("mkdir -p '%s/assets/%s' && cp -R '%s/%s'/. '%s/assets/%s' && "
                              "chmod -R u+w '%s/assets'",
                              dir, name, src, models[i], dir, name, dir);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        free(name);
        free(src);
    }
    char *cmd = kt_format("cd '%s' && '%s' import --all -j %d --json >/dev/null", dir, exe, jobs);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    cmd = kt_format("cd '%s' && '%s' pack --all -j %d -o game.kpak --json >/dev/null", dir, exe,
                    jobs);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
}

static void determinism_two_processes_two_folders_give_identical_packs(void **state)
{
    const char *exe = getenv("KILN_EXE");
    char *probe = kt_corpus_path("gltf/BoxTextured/glTF/BoxTextured.gltf");
    if (!exe || !kt_file_exists(exe) || !probe || !kt_file_exists(probe)) {
        free(probe);
        skip();
    }
    free(probe);
    const char *sanitized = getenv("KILN_TEST_SANITIZED");
    size_t count = sanitized && !strcmp(sanitized, "1") ? 3 : sizeof models / sizeof models[0];
    char *dir = kt_tempdir("pack-determinism");
    char *a = kt_format("%s/first", dir), *b = kt_format("%s/second/deeper", dir);
    cook_and_pack(exe, a, count, 1);
    cook_and_pack(exe, b, count, 2);
    char *pa = kt_format("%s/game.kpak", a), *pb = kt_format("%s/game.kpak", b);
    size_t sa, sb;
    uint8_t *ba = kt_read_file(pa, &sa), *bb = kt_read_file(pb, &sb);
    assert_non_null(ba);
    assert_non_null(bb);
    assert_int_equal(sa, sb);
    assert_memory_equal(ba, bb, sa);
    kiln_pack p;
    kiln_error err;
    assert_int_equal(kiln_pack_open_memory(ba, sa, 0, &p, &err), KILN_OK);
    assert_true(p.entry_count >= 10);
    assert_int_equal(kiln_pack_verify(&p, NULL, &err), KILN_OK);
    char *oa = kt_format("%s/.kiln/cache/objects", a), *ob = kt_format("%s/.kiln/cache/objects", b);
    expect_same_tree(oa, ob);
    free(oa);
    free(ob);
    free(ba);
    free(bb);
    free(pa);
    free(pb);
    free(a);
    free(b);
    kt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(determinism_two_processes_two_folders_give_identical_packs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
