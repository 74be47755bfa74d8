/* test_pack_gather.c — kiln_project_pack over real projects: every entry equals its cache file,
 * path#label brings exactly what that artifact needs, a damaged cache file is refused by its
 * manifest's SHA-256 and leaves the earlier pack untouched, two assets sharing a GUID conflict
 * by name (or merge when their bytes agree), bad labels and outputs outside the project fail. */
#include "support.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "kiln/kiln.h"

typedef struct proj {
    char *dir, *root, *out, *pack;
    kiln_project *p;
} proj;

static void proj_open(proj *x, const char *tag, unsigned jobs)
{
    x->dir = kt_tempdir(tag);
    x->root = kt_format("%s/assets", x->dir);
    x->out = kt_format("%s/.kiln", x->dir);
    x->pack = kt_format("%s/game.kpak", x->dir);
    char *cmd = kt_format("mkdir -p '%s'", x->root);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
}

static void proj_start(proj *x, unsigned jobs)
{
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = x->dir;
    o.root = x->root;
    o.out = x->out;
    o.jobs = jobs;
    kiln_error err;
    if (kiln_project_open(&o, &x->p, &err) != KILN_OK) fail_msg("open: %s", err.message);
}

static void proj_close(proj *x)
{
    kiln_project_close(x->p);
    kt_rmtree(x->dir);
    free(x->dir);
    free(x->root);
    free(x->out);
    free(x->pack);
}

static kiln_result pack(proj *x, const char *const *assets, size_t n, uint32_t flags,
                        uint32_t compress, json_t **doc, kiln_error *err)
{
    kiln_pack_opts o = {0};
    o.struct_size = sizeof o;
    o.output = x->pack;
    o.compress = compress;
    o.level = 3;
    char *s = NULL;
    kiln_result r = kiln_project_pack(x->p, assets, n, flags, &o, &s, err);
    *doc = s ? json_loads(s, 0, NULL) : NULL;
    kiln_string_free(s);
    return r;
}

static int have_corpus(void)
{
    char *c = kt_corpus_path("gltf/BoxTextured/glTF/BoxTextured.gltf");
    int ok = c && kt_file_exists(c);
    free(c);
    return ok;
}

static void copy_corpus(proj *x, const char *from, const char *to)
{
    char *src = kt_corpus_path(from);
    char *cmd = kt_format("mkdir -p '%s/%s' && cp -R '%s'/. '%s/%s' && chmod -R u+w '%s'", x->root,
                          to, src, x->root, to, x->root);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    free(src);
}

/* Names in the pack, sorted, joined with spaces. */
static char *names_of(const uint8_t *bytes, size_t size)
{
    kiln_pack p;
    kiln_error err;
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
    char **names = calloc(p.entry_count + 1, sizeof *names);
    for (uint32_t i = 0; i < p.entry_count; i++) names[i] = (char *)kiln_pack_entry_at(&p, i).name;
    for (uint32_t i = 1; i < p.entry_count; i++)
        for (uint32_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            char *t = names[k];
            names[k] = names[k - 1];
            names[k - 1] = t;
        }
    size_t len = 1;
    for (uint32_t i = 0; i < p.entry_count; i++) len += strlen(names[i]) + 1;
    char *s = calloc(1, len);
    for (uint32_t i = 0; i < p.entry_count; i++) {
        if (i) strcat(s, " ");
        strcat(s, names[i]);
    }
    free(names);
    return s;
}

static void gather_every_entry_equals_its_cache_file(void **state)
{
    if (!have_corpus()) skip();
    proj x;
    proj_open(&x, "pack-all", 2);
    copy_corpus(&x, "gltf/BoxTextured/glTF", "box");
    copy_corpus(&x, "gltf/CesiumMan/glTF-Binary", "man");
    proj_start(&x, 2);
    json_t *doc;
    kiln_error err;
    for (uint32_t mode = 0; mode <= KILN_PACK_COMPRESS_ZSTD; mode++) {
        kiln_result r = pack(&x, NULL, 0, KILN_IMPORT_ALL, mode, &doc, &err);
        if (r != KILN_OK) fail_msg("pack: %s", err.message);
        size_t size;
        uint8_t *bytes = kt_read_file(x.pack, &size);
        assert_non_null(bytes);
        kiln_pack p;
        assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
        assert_int_equal(kiln_pack_verify(&p, NULL, &err), KILN_OK);
        json_t *entries = json_object_get(doc, "entries");
        assert_int_equal(json_array_size(entries), p.entry_count);
        assert_true(p.entry_count >= 8);
        /* Every record of the import document's outputs is in the pack with the file's bytes. */
        char *imp = NULL;
        assert_int_equal(kiln_project_import(x.p, NULL, 0, KILN_IMPORT_ALL, &imp, &err), KILN_OK);
        json_t *d = json_loads(imp, 0, NULL);
        kiln_string_free(imp);
        size_t i, k, outputs = 0;
        json_t *rec, *o;
        json_array_foreach (json_object_get(d, "records"), i, rec) {
            json_array_foreach (json_object_get(rec, "outputs"), k, o) {
                const char *name = json_string_value(json_object_get(o, "name"));
                uint64_t id = strtoull(json_string_value(json_object_get(o, "asset_id")), NULL, 16);
                uint32_t e = kiln_pack_find(&p, id);
                if (e == KILN_PACK_NOT_FOUND) fail_msg("%s is not in the pack", name);
                kiln_pack_entry pe = kiln_pack_entry_at(&p, e);
                char *file = kt_format("%s/%s", json_string_value(json_object_get(rec, "entry")),
                                       json_string_value(json_object_get(o, "file")));
                size_t fsize;
                uint8_t *fbytes = kt_read_file(file, &fsize);
                assert_int_equal(pe.size, fsize);
                uint8_t *got = malloc(pe.size);
                assert_int_equal(kiln_pack_entry_read(&p, e, got, pe.size, &err), KILN_OK);
                assert_memory_equal(got, fbytes, fsize);
                if (mode == KILN_PACK_COMPRESS_NONE)
                    assert_int_equal(pe.compression, KILN_PACK_RAW);
                free(got);
                free(fbytes);
                free(file);
                outputs++;
            }
        }
        assert_int_equal(outputs, p.entry_count);
        json_decref(d);
        json_decref(doc);
        free(bytes);
    }
    /* --align 4096: every payload on a page boundary, same entries. */
    kiln_pack_opts o = {0};
    o.struct_size = sizeof o;
    o.output = x.pack;
    o.align_4096 = true;
    char *s = NULL;
    assert_int_equal(kiln_project_pack(x.p, NULL, 0, KILN_IMPORT_ALL, &o, &s, &err), KILN_OK);
    kiln_string_free(s);
    size_t size;
    uint8_t *bytes = kt_read_file(x.pack, &size);
    kiln_pack p;
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &p, &err), KILN_OK);
    assert_int_equal(p.flags, KILN_PACK_ALIGN_4096);
    assert_int_equal(p.data_offset % 4096, 0);
    for (uint32_t i = 0; i < p.entry_count; i++)
        assert_int_equal(kiln_pack_entry_at(&p, i).offset % 4096, 0);
    assert_int_equal(kiln_pack_verify(&p, NULL, &err), KILN_OK);
    free(bytes);
    proj_close(&x);
}

static void gather_label_brings_what_that_artifact_needs(void **state)
{
    if (!have_corpus()) skip();
    proj x;
    proj_open(&x, "pack-deps", 1);
    copy_corpus(&x, "gltf/BoxTextured/glTF", "box");
    copy_corpus(&x, "gltf/CesiumMan/glTF-Binary", "man");
    proj_start(&x, 1);
    static const struct {
        const char *asset, *names;
    } cases[] = {
        {"box/BoxTextured.gltf#mesh0/prim0",
         "box/BoxTextured.gltf#image0 box/BoxTextured.gltf#material0 box/BoxTextured.gltf#mesh0/prim0"},
        {"box/BoxTextured.gltf#material0",
         "box/BoxTextured.gltf#image0 box/BoxTextured.gltf#material0"},
        {"man/CesiumMan.glb#clip0", "man/CesiumMan.glb#clip0 man/CesiumMan.glb#skeleton0"},
        {"man/CesiumMan.glb#scene",
         "man/CesiumMan.glb#clip0 man/CesiumMan.glb#image0 man/CesiumMan.glb#material0 "
         "man/CesiumMan.glb#mesh0/prim0 man/CesiumMan.glb#scene man/CesiumMan.glb#skeleton0"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        json_t *doc;
        kiln_error err;
        const char *a[1] = {cases[c].asset};
        kiln_result r = pack(&x, a, 1, 0, KILN_PACK_COMPRESS_AUTO, &doc, &err);
        if (r != KILN_OK) fail_msg("pack %s: %s", cases[c].asset, err.message);
        size_t size;
        uint8_t *bytes = kt_read_file(x.pack, &size);
        char *names = names_of(bytes, size);
        assert_string_equal(names, cases[c].names);
        free(names);
        free(bytes);
        json_decref(doc);
    }
    /* A label the asset does not have: a usage error that lists the labels it has. */
    json_t *doc;
    kiln_error err;
    const char *bad[1] = {"box/BoxTextured.gltf#mesh7/prim0"};
    assert_int_equal(pack(&x, bad, 1, 0, 0, &doc, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "mesh7/prim0"));
    assert_non_null(strstr(err.message, "material0"));
    /* An output the caller names may lie outside the project and output folders:
     * only sources and paths read from files are confined. */
    kiln_pack_opts o = {0};
    char *outside = kt_format("%s.outside.kpak", x.dir);
    o.output = outside;
    char *s = NULL;
    const char *whole[1] = {"box/BoxTextured.gltf"};
    assert_int_equal(kiln_project_pack(x.p, whole, 1, 0, &o, &s, &err), KILN_OK);
    kiln_string_free(s);
    assert_true(kt_file_exists(outside));
    remove(outside);
    free(outside);
    proj_close(&x);
}

static void gather_cooks_a_damaged_cache_file_again_and_packs_the_same_bytes(void **state)
{
    proj x;
    proj_open(&x, "pack-damage", 1);
    uint8_t px[16 * 16 * 4];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 7);
    char *png = kt_format("%s/tex/a.png", x.root);
    kt_write_png(png, px, 16, 16, 4);
    proj_start(&x, 1);
    json_t *doc;
    kiln_error err;
    assert_int_equal(pack(&x, NULL, 0, KILN_IMPORT_ALL, 0, &doc, &err), KILN_OK);
    json_decref(doc);
    size_t before_size;
    uint8_t *before = kt_read_file(x.pack, &before_size);
    /* One byte of the cooked texture changes; its size and the manifest stay. */
    char *imp = NULL;
    assert_int_equal(kiln_project_import(x.p, NULL, 0, KILN_IMPORT_ALL, &imp, &err), KILN_OK);
    json_t *d = json_loads(imp, 0, NULL);
    kiln_string_free(imp);
    json_t *rec = json_array_get(json_object_get(d, "records"), 0);
    char *file = kt_format("%s/texture.ktx2", json_string_value(json_object_get(rec, "entry")));
    size_t fsize;
    uint8_t *f = kt_read_file(file, &fsize);
    f[fsize - 1] ^= 0x40;
    char *cmd = kt_format("chmod u+w '%s'", file);
    kt_run(cmd, NULL);
    kt_write_file(file, f, fsize);
    /* pack finds the damage (the import before it said cached), cooks the asset again and packs
     * the new entry: nothing failed, and the cache file has its bytes back. */
    kiln_result r = pack(&x, NULL, 0, KILN_IMPORT_ALL, 0, &doc, &err);
    assert_int_equal(r, KILN_OK);
    assert_non_null(doc);
    assert_int_equal(json_array_size(json_object_get(doc, "failed")), 0);
    json_decref(doc);
    size_t repaired_size;
    uint8_t *repaired = kt_read_file(file, &repaired_size);
    f[fsize - 1] ^= 0x40;
    assert_int_equal(repaired_size, fsize);
    assert_memory_equal(repaired, f, fsize);
    free(repaired);
    size_t after_size;
    uint8_t *after = kt_read_file(x.pack, &after_size);
    assert_int_equal(before_size, after_size);
    assert_memory_equal(before, after, before_size);
    /* No temporary file is left beside the pack. */
    char *ls = NULL;
    char *lscmd = kt_format("ls -A '%s'", x.dir);
    kt_run(lscmd, &ls);
    assert_string_equal(ls, ".kiln\nassets\ngame.kpak\n");
    free(ls);
    free(lscmd);
    free(cmd);
    free(f);
    free(file);
    json_decref(d);
    free(before);
    free(after);
    free(png);
    proj_close(&x);
}

static void gather_shared_guid_conflicts_by_name_or_merges_equal_bytes(void **state)
{
    proj x;
    proj_open(&x, "pack-guid", 1);
    uint8_t px[8 * 8 * 4];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 3);
    static const char meta[] = "{\"guid\": \"0123456789abcdef0123456789abcdef\"}\n";
    char *a = kt_format("%s/a.png", x.root), *b = kt_format("%s/b/b.png", x.root);
    char *ma = kt_format("%s.meta", a), *mb = kt_format("%s.meta", b);
    kt_write_png(a, px, 8, 8, 4);
    kt_write_png(b, px, 8, 8, 4);
    kt_write_file(ma, meta, strlen(meta));
    kt_write_file(mb, meta, strlen(meta));
    proj_start(&x, 1);
    json_t *doc;
    kiln_error err;
    /* Same bytes under one id: packed once. */
    assert_int_equal(pack(&x, NULL, 0, KILN_IMPORT_ALL, 0, &doc, &err), KILN_OK);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "totals"), "entries")),
                     1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "totals"), "merged")),
                     1);
    json_decref(doc);
    /* Different bytes under one id: a conflict naming both. */
    px[0] ^= 0xFF;
    kt_write_png(b, px, 8, 8, 4);
    assert_int_equal(pack(&x, NULL, 0, KILN_IMPORT_ALL, 0, &doc, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "a.png#texture"));
    assert_non_null(strstr(err.message, "b/b.png#texture"));
    assert_non_null(strstr(err.path, "b.png.meta"));
    free(a);
    free(b);
    free(ma);
    free(mb);
    proj_close(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gather_every_entry_equals_its_cache_file),
        cmocka_unit_test(gather_label_brings_what_that_artifact_needs),
        cmocka_unit_test(gather_cooks_a_damaged_cache_file_again_and_packs_the_same_bytes),
        cmocka_unit_test(gather_shared_guid_conflicts_by_name_or_merges_equal_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
