/* test_model_determinism.c — the model cook gives the same bytes whatever the folder, the thread
 * count and the process: corpus models copied into two temporary folders, one cooked here with
 * one thread (kiln_convert_model), the other by the kiln command ($KILN_EXE model) with two.
 * Then two projects with the same models (a .gltf with an external .bin and images, a .glb, a
 * skinned .gltf, file names with spaces) imported with -j1 and -j2 by the command: the same keys
 * and cache entries byte for byte; report reads no source when nothing changed; one byte changed
 * in an external .bin or image makes exactly the models using it stale. The projects also hold
 * the test shaders (tests/shaders, copied at test time with a folder.meta naming their include
 * folder): their cooked bytes are compared the same way (the compiler's output at -j1 and -j2, in
 * two folders), and one byte of an include makes exactly the shader that includes it stale.
 * Skips (77) without the corpus. Under the sanitizers (KILN_TEST_SANITIZED=1) fewer models and
 * smaller textures. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_check.h"

static const char *kiln_exe(void)
{
    const char *exe = getenv("KILN_EXE");
    if (!exe || !*exe) fail_msg("KILN_EXE is not set (CTest sets it to the kiln command)");
    return exe;
}

/* Runs the kiln command in folder cwd and parses its --json output. */
static json_t *run_json(const char *cwd, const char *args, int want_status)
{
    char *cmd = kt_format("cd '%s' && '%s' %s", cwd, kiln_exe(), args);
    char *out = NULL;
    int st = kt_run(cmd, &out);
    if (st != want_status)
        fail_msg("%s: exit %d, expected %d\n%s", cmd, st, want_status, out ? out : "");
    json_error_t je;
    json_t *doc = json_loads(out ? out : "", 0, &je);
    if (!doc) fail_msg("%s: not JSON: %s", cmd, je.text);
    free(out);
    free(cmd);
    return doc;
}

typedef struct det_model {
    const char *folder; /* corpus folder copied whole */
    const char *file;   /* the model inside it */
    bool textures;
    bool large; /* skipped under the sanitizers (TSan makes it minutes) */
} det_model;

static void model_cook_is_byte_identical_across_folders_threads_and_processes(void **state)
{
    (void)state;
    char *corpus = kt_corpus_path("gltf");
    if (!corpus) skip();
    bool sanitized = mc_sanitized();
    static const det_model models[] = {
        {"Fox/glTF-Binary", "Fox.glb", true, false},
        {"CesiumMan/glTF", "CesiumMan.gltf", true, false},
        {"DamagedHelmet/glTF", "DamagedHelmet.gltf", false, true},
        {"AnimatedMorphCube/glTF", "AnimatedMorphCube.gltf", false, false},
        {"SheenCloth/glTF", "SheenCloth.gltf", false, true},
    };
    size_t compared = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        const det_model *dm = &models[i];
        if (dm->large && sanitized) continue;
        /* Textures at full size in the plain build; small ones under the sanitizers. */
        const char *sets[2];
        size_t nsets = 0;
        sets[nsets++] = dm->textures ? "model.textures=true" : "model.textures=false";
        if (sanitized && dm->textures) sets[nsets++] = "model.texture_max_size=256";
        char *from = kt_format("%s/%s", corpus, dm->folder);
        char *a = kt_tempdir("model-det-a"), *b = kt_tempdir("model-det-b");
        char *a_src = kt_format("%s/one/model", a), *b_src = kt_format("%s/two/three/model", b);
        mc_copy_tree(from, a_src);
        mc_copy_tree(from, b_src);

        char *in_a = kt_format("%s/%s", a_src, dm->file), *out_a = kt_format("%s/out", a);
        kiln_result code;
        kiln_error err;
        json_t *doc_a = mc_convert(in_a, out_a, 1, sets, nsets, &code, &err);
        if (!doc_a) fail_msg("%s: %s: %s", in_a, kiln_result_name(code), err.message);

        char *args = kt_format("model 'two/three/model/%s' out -j2 --json --set %s%s%s", dm->file,
                               sets[0], nsets > 1 ? " --set " : "", nsets > 1 ? sets[1] : "");
        json_t *doc_b = run_json(b, args, 0);
        char *out_b = kt_format("%s/out", b);

        /* The documents agree on everything but the paths given... */
        static const char *const keys[] = {"guid", "settings", "artifacts", "summary", "warnings"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (!json_equal(json_object_get(doc_a, keys[k]), json_object_get(doc_b, keys[k])))
                fail_msg("%s: \"%s\" differs between the two cooks", dm->file, keys[k]);
        /* ... and the folders byte for byte. */
        if (!mc_trees_equal(out_a, out_b)) fail_msg("%s: the outputs differ", dm->file);
        /* The outputs are sound, too. */
        mc_model m;
        mc_load(&m, out_a, doc_a);
        mc_check(&m, in_a, dm->textures, NULL);
        assert_true(m.count >= 3);
        mc_free(&m);
        json_decref(doc_b);
        kt_rmtree(a);
        kt_rmtree(b);
        free(args);
        free(in_a);
        free(out_a);
        free(out_b);
        free(a_src);
        free(b_src);
        free(a);
        free(b);
        free(from);
        compared++;
    }
    assert_int_equal(compared, sanitized ? 3 : 5);
    free(corpus);
}

/* ---- a project ------------------------------------------------------------------------------- */

typedef struct project {
    char *dir, *assets, *out;
} project;

/* The same assets in a fresh project: BoxTextured (.gltf, external .bin and .png) in a folder
 * with a space, the morph cube (.glb), RiggedSimple (.gltf with an external .bin, a skin and a
 * clip), and in the plain build Box With Spaces (file names with spaces, three 1024x1024
 * images: slow to encode under the sanitizers), and the six test shaders of tests/shaders (not
 * broken/) in shaders/, their includes in shaders/include (no stage: not assets), named by
 * shaders/folder.meta as the root-relative include folder. *assets: how many assets the scan
 * finds: the models (the images they name are theirs, not assets of their own) and shaders. */
static project project_make(const char *corpus, const char *tag, size_t *assets)
{
    project p;
    p.dir = kt_tempdir(tag);
    p.assets = kt_format("%s/assets", p.dir);
    p.out = kt_format("%s/.kiln", p.dir);
    static const struct {
        const char *from, *to;
        size_t files;
        bool large;
    } copies[] = {
        {"BoxTextured/glTF", "box dir", 1, false},
        {"AnimatedMorphCube/glTF-Binary", "morph", 1, false},
        {"RiggedSimple/glTF", "rig", 1, false},
        {"Box With Spaces/glTF", "spaces", 1, true},
    };
    *assets = 0;
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++) {
        if (copies[i].large && mc_sanitized()) continue;
        char *from = kt_format("%s/%s", corpus, copies[i].from);
        char *to = kt_format("%s/%s", p.assets, copies[i].to);
        mc_copy_tree(from, to);
        *assets += copies[i].files;
        free(from);
        free(to);
    }
    const char *srcdir = getenv("KILN_SOURCE_DIR");
    if (!srcdir || !*srcdir) fail_msg("KILN_SOURCE_DIR is not set (CTest sets it)");
    char *cmd = kt_format("mkdir -p '%s/shaders/include' && cd '%s/tests/shaders' && "
                          "cp *.vert *.frag *.comp *.mesh *.hlsl *.meta '%s/shaders/' && "
                          "cp include/*.glsl '%s/shaders/include/' && chmod -R u+w '%s/shaders'",
                          p.assets, srcdir, p.assets, p.assets, p.assets);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    char *meta = kt_format("%s/shaders/folder.meta", p.assets);
    static const char folder_meta[] = "{\"shader\": {\"include_dirs\": [\"shaders/include\"]}}";
    kt_write_file(meta, folder_meta, strlen(folder_meta));
    free(meta);
    *assets += 6; /* flat_color, meshlets, pbr_forward (2), skin_vertices, unlit_texture */
    /* Old enough that the stat shortcut may trust what it recorded. */
    mc_age_tree(p.assets, 30);
    return p;
}

static void project_free(project *p)
{
    kt_rmtree(p->dir);
    free(p->dir);
    free(p->assets);
    free(p->out);
}

static json_t *project_run(const project *p, const char *args, int want_status)
{
    char *full = kt_format("%s --root assets --out .kiln --json", args);
    json_t *doc = run_json(p->dir, full, want_status);
    free(full);
    return doc;
}

static json_t *record_of(json_t *doc, const char *list, const char *path)
{
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(doc, list), i, row)
        if (!strcmp(json_string_value(json_object_get(row, "path")), path)) return row;
    fail_msg("no %s row for %s", list, path);
    return NULL;
}

/* Every report row's state is `state` except those of the listed paths, which are `other`;
 * returns whether any row says its source was read. */
static bool expect_states(json_t *report, size_t rows, const char *state, const char *other,
                          const char *const *paths, size_t path_count)
{
    bool read = false;
    size_t i;
    json_t *row;
    assert_int_equal(json_array_size(json_object_get(report, "assets")), rows);
    json_array_foreach (json_object_get(report, "assets"), i, row) {
        const char *path = json_string_value(json_object_get(row, "path"));
        const char *want = state;
        for (size_t k = 0; k < path_count; k++)
            if (!strcmp(path, paths[k])) want = other;
        const char *got = json_string_value(json_object_get(row, "state"));
        if (strcmp(got, want)) fail_msg("%s: %s, expected %s", path, got, want);
        if (json_is_true(json_object_get(row, "source_read"))) read = true;
    }
    return read;
}

static void
model_project_imports_identically_with_1_and_2_threads_and_tracks_dependencies(void **state)
{
    (void)state;
    char *corpus = kt_corpus_path("gltf");
    if (!corpus) skip();
    size_t n, nb;
    project a = project_make(corpus, "model-proj-a", &n),
            b = project_make(corpus, "model-proj-b", &nb);
    json_t *ia = project_run(&a, "import --all -j1", 0),
           *ib = project_run(&b, "import --all -j2", 0);
    json_t *ra = json_object_get(ia, "records");
    assert_int_equal(json_array_size(ra), n);
    assert_int_equal(json_array_size(json_object_get(ib, "records")), n);
    size_t i, models = 0, shaders = 0;
    json_t *row;
    json_array_foreach (ra, i, row) {
        const char *path = json_string_value(json_object_get(row, "path"));
        json_t *other = record_of(ib, "records", path);
        assert_string_equal(json_string_value(json_object_get(row, "status")), "imported");
        assert_string_equal(json_string_value(json_object_get(row, "key")),
                            json_string_value(json_object_get(other, "key")));
        assert_true(json_equal(json_object_get(row, "outputs"), json_object_get(other, "outputs")));
        assert_true(json_equal(json_object_get(row, "summary"), json_object_get(other, "summary")));
        if (!strcmp(json_string_value(json_object_get(row, "kind")), "model")) models++;
        if (!strcmp(json_string_value(json_object_get(row, "kind")), "shader")) shaders++;
    }
    assert_int_equal(models, mc_sanitized() ? 3 : 4);
    assert_int_equal(shaders, 6);
    char *oa = kt_format("%s/cache/objects", a.out), *ob = kt_format("%s/cache/objects", b.out);
    if (!mc_trees_equal(oa, ob)) fail_msg("the two caches' entries differ");
    free(oa);
    free(ob);
    json_decref(ib);

    /* Nothing changed: everything up to date, and no source read to say so. */
    json_t *rep = project_run(&a, "report", 0);
    assert_false(expect_states(rep, n, "up_to_date", NULL, NULL, 0));
    json_decref(rep);

    /* One byte of RiggedSimple's external buffer: that model alone is stale, under a new key. */
    static const char *const rig[] = {"rig/RiggedSimple.gltf"};
    char *bin = kt_format("%s/rig/RiggedSimple0.bin", a.assets);
    mc_flip_byte(bin, 100);
    rep = project_run(&a, "report", 0);
    expect_states(rep, n, "up_to_date", "stale", rig, 1);
    assert_string_not_equal(
        json_string_value(json_object_get(record_of(rep, "assets", rig[0]), "key")),
        json_string_value(json_object_get(record_of(ia, "records", rig[0]), "key")));
    json_decref(rep);
    /* The same byte back: the key it was imported under again. */
    mc_flip_byte(bin, 100);
    rep = project_run(&a, "report", 0);
    expect_states(rep, n, "up_to_date", NULL, NULL, 0);
    json_decref(rep);
    free(bin);

    /* One byte of an include only pbr_forward.frag reads: that shader alone is stale. */
    static const char *const pbr[] = {"shaders/pbr_forward.frag"};
    char *inc = kt_format("%s/shaders/include/kiln_pbr.glsl", a.assets);
    mc_flip_byte(inc, 2);
    rep = project_run(&a, "report", 0);
    expect_states(rep, n, "up_to_date", "stale", pbr, 1);
    json_decref(rep);
    mc_flip_byte(inc, 2);
    rep = project_run(&a, "report", 0);
    expect_states(rep, n, "up_to_date", NULL, NULL, 0);
    json_decref(rep);
    free(inc);

    /* One byte of BoxTextured's image: the model using it goes stale (the image is the model's,
     * not an asset of its own). */
    static const char *const box[] = {"box dir/BoxTextured.gltf"};
    char *png = kt_format("%s/box dir/CesiumLogoFlat.png", a.assets);
    mc_flip_byte(png, 200);
    rep = project_run(&a, "report", 0);
    expect_states(rep, n, "up_to_date", "stale", box, 1);
    json_decref(rep);
    free(png);
    /* Importing again cooks the model (it keeps its geometry, its image slot empty, with a
     * warning) and takes the others from the cache. */
    json_t *again = project_run(&a, "import --all -j2", 0);
    json_array_foreach (json_object_get(again, "records"), i, row) {
        const char *path = json_string_value(json_object_get(row, "path"));
        const char *status = json_string_value(json_object_get(row, "status"));
        if (!strcmp(path, box[0])) {
            assert_string_equal(status, "imported");
            json_t *w = json_array_get(json_object_get(row, "warnings"), 0);
            assert_non_null(w);
            assert_non_null(strstr(json_string_value(w), "image0: not cooked"));
        } else {
            assert_string_equal(status, "cached");
        }
    }
    json_decref(again);
    json_decref(ia);
    project_free(&a);
    project_free(&b);
    free(corpus);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_cook_is_byte_identical_across_folders_threads_and_processes),
        cmocka_unit_test(
            model_project_imports_identically_with_1_and_2_threads_and_tracks_dependencies),
    };
    kt_require_corpus();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
