/* test_runtime_e2e.c — libkiln_rt end to end, through its public header only:
 * corpus glTF models and images cooked by libkiln into a temporary project (one model with
 * meshopt streams, one image with zstd levels, one RGBA8 texture), the test shaders
 * tests/shaders/pbr_forward.vert and .frag (includes, variants; copied into the project at test
 * time) and a typed material (.kmat) drawing with them, the cache mounted, EVERY artifact of every
 * manifest loaded with a recording renderer, and what loaded compared with the manifest's summary
 * (triangles per LOD, vertices, meshlets, vertex bytes, texture sizes, levels and formats, joints,
 * clips and their durations, scene counts, the textures materials name, a shader's stage, variants
 * and SPIR-V bytes, a typed material's shaders, textures and parameter block in the block table).
 * The same from two packs of the cook (raw payloads used in place, and Zstandard). Then copies
 * of the cache with damaged cooked files (bytes flipped, truncated, another container or kind
 * version; damaged manifests and records) and packs with flipped bytes: every load ends failed
 * with a clear error, never a crash, with verification on and (no crash, no hang) off. Runs
 * under ASan+UBSan in CI. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"
#include "support.h"

/* ---- the cooked project ------------------------------------------------------------------ */

static const char *const models[] = {
    "BoxTextured",  "CesiumMan",           "Fox",    "AnimatedMorphCube", "MeshPrimitiveModes",
    "RiggedSimple", "TextureSettingsTest", "Suzanne"};
static const char *const images[] = {"kodak/kodim01.png", "normal/ldr-xy-00.png", "tga/ldr.tga",
                                     "hdr/hdr-rgb-00.hdr"};
#define MODEL_COUNT (sizeof models / sizeof models[0])
#define IMAGE_COUNT (sizeof images / sizeof images[0])

static bool sanitized(void)
{
    const char *s = getenv("KILN_TEST_SANITIZED");
    return s && s[0] == '1';
}

static void write_text(const char *path, const char *text)
{
    kt_write_file(path, text, strlen(text));
}

/* Copies the models (their glTF/ folder) and images into assets/ with .meta files that reach
 * the runtime's other paths, cooks everything with libkiln; returns the project folder. */
static char *cook_project(void)
{
    kt_require_corpus();
    char *dir = kt_tempdir("rt-e2e");
    /* Under the sanitizers only the small models and smaller, faster textures. */
    size_t model_count = sanitized() ? 6 : MODEL_COUNT;
    const char *model_meta =
        sanitized()
            ? "{\"import\":{\"model\":{\"texture_max_size\":128,\"texture_quality\":\"fast\"}}}"
            : NULL;
    for (size_t i = 0; i < model_count; i++) {
        char *src = kt_corpus_path("gltf");
        char *cmd = kt_format("mkdir -p '%s/assets/%s' && cp -r '%s/%s/glTF'/. '%s/assets/%s/' && "
                              "chmod -R u+w '%s/assets'",
                              dir, models[i], src, models[i], dir, models[i], dir);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        free(src);
        if (strcmp(models[i], "Fox") == 0) { /* meshopt-compressed streams: the runtime decodes */
            char *m = kt_format("%s/assets/Fox/Fox.gltf.meta", dir);
            write_text(m, sanitized() ? "{\"import\":{\"model\":{\"compress\":\"meshopt\","
                                        "\"texture_max_size\":128,\"texture_quality\":\"fast\"}}}"
                                      : "{\"import\":{\"model\":{\"compress\":\"meshopt\"}}}");
            free(m);
        } else if (model_meta) {
            char *m = kt_format("%s/assets/%s/%s.gltf.meta", dir, models[i], models[i]);
            write_text(m, model_meta);
            free(m);
        }
    }
    for (size_t i = 0; i < IMAGE_COUNT; i++) {
        char *src = kt_corpus_path("images");
        const char *base = strrchr(images[i], '/') + 1;
        char *cmd = kt_format("mkdir -p '%s/assets/img' && cp '%s/%s' '%s/assets/img/' && "
                              "chmod u+w '%s/assets/img/%s'",
                              dir, src, images[i], dir, dir, base);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        free(src);
        const char *settings = NULL;
        if (strcmp(base, "kodim01.png") == 0) settings = "\"supercompression\":\"zstd\"";
        if (strcmp(base, "ldr.tga") == 0) settings = "\"format\":\"rgba8\"";
        char *meta = kt_format("%s/assets/img/%s.meta", dir, base);
        char *text = kt_format("{\"import\":{\"texture\":{%s%s%s}}}", settings ? settings : "",
                               settings && sanitized() ? "," : "",
                               sanitized() ? "\"max_size\":128,\"quality\":\"fast\"" : "");
        if (settings || sanitized()) write_text(meta, text);
        free(text);
        free(meta);
    }
    /* A shader with includes and variants: import -> cache -> load -> create_shader. Copied
     * from the repository's test shaders at test time (never into the corpus); the include
     * folder is root-relative, as docs/shaders.md's example lays it out. */
    {
        const char *srcdir = getenv("KILN_SOURCE_DIR");
        if (!srcdir || !*srcdir) fail_msg("KILN_SOURCE_DIR is not set (CTest sets it)");
        char *cmd = kt_format("mkdir -p '%s/assets/shaders/include' && "
                              "cp '%s/tests/shaders/pbr_forward.'* '%s/assets/shaders/' && "
                              "cp '%s/tests/shaders/include/'*.glsl '%s/assets/shaders/include/' "
                              "&& chmod -R u+w '%s/assets/shaders'",
                              dir, srcdir, dir, srcdir, dir, dir);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        char *meta = kt_format("%s/assets/shaders/folder.meta", dir);
        write_text(meta, "{\"shader\":{\"include_dirs\":[\"shaders/include\"]}}");
        free(meta);
        /* a typed material drawing with them, sampling the project's images */
        char *kmat = kt_format("%s/assets/shaders/painted.kmat", dir);
        write_text(
            kmat,
            "{\"vertex\": \"pbr_forward.vert\", \"fragment\": {\"shader\": "
            "\"pbr_forward.frag\", \"variant\": \"normal_map\"}, \"parameters\": "
            "{\"base_color_factor\": [0.5, 0.5, 0.5, 1], \"metallic_factor\": 0.5, "
            "\"roughness_factor\": 0.5, \"normal_scale\": 1, \"occlusion_strength\": 1, "
            "\"alpha_cutoff\": 0.5, \"emissive_factor\": [0, 0, 0], \"emissive_strength\": 1}, \"textures\": "
            "{\"base_color_texture\": \"/img/kodim01.png\", "
            "\"metallic_roughness_texture\": \"/img/ldr.tga\", \"normal_texture\": "
            "\"/img/ldr-xy-00.png\", \"occlusion_texture\": \"/img/ldr.tga\", "
            "\"emissive_texture\": \"/img/kodim01.png\"}}");
        free(kmat);
    }
    /* The textures that the texture-kind images of the model folders get (Suzanne's 1024s, ...)
     * follow the same rule under the sanitizers. */
    if (sanitized()) {
        char *cmd = kt_format("cd '%s/assets' && for f in */*.png */*.jpg; do [ -e \"$f.meta\" ] "
                              "|| printf '%%s' '{\"import\":{\"texture\":{\"max_size\":128,"
                              "\"quality\":\"fast\"}}}' > \"$f.meta\"; done",
                              dir);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
    }
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = dir;
    o.jobs = 2;
    kiln_project *p = NULL;
    kiln_error err;
    assert_int_equal(kiln_project_open(&o, &p, &err), KILN_OK);
    char *doc = NULL;
    kiln_result r = kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err);
    if (r) fprintf(stderr, "import: %s\n%s\n", err.message, doc ? doc : "");
    assert_int_equal(r, KILN_OK);
    kiln_string_free(doc);
    /* Two packs of everything: raw payloads (used in place from the mapping) and Zstandard. */
    static const struct {
        const char *file;
        uint32_t compress;
    } packs[] = {{"raw.kpak", KILN_PACK_COMPRESS_NONE}, {"zstd.kpak", KILN_PACK_COMPRESS_ZSTD}};
    for (size_t i = 0; i < 2; i++) {
        kiln_pack_opts po;
        memset(&po, 0, sizeof po);
        po.struct_size = sizeof po;
        char *out = kt_format("%s/%s", dir, packs[i].file);
        po.output = out;
        po.compress = packs[i].compress;
        r = kiln_project_pack(p, NULL, 0, KILN_IMPORT_ALL, &po, &doc, &err);
        if (r) fprintf(stderr, "pack: %s\n", err.message);
        assert_int_equal(r, KILN_OK);
        kiln_string_free(doc);
        free(out);
    }
    kiln_project_close(p);
    return dir;
}

/* ---- the manifests: what the cook says it made ------------------------------------------- */

typedef struct artifact {
    char name[600]; /* path#label */
    char label[64];
    char file[700]; /* the cooked file in the cache */
    uint64_t id;
    krt_type type;
    size_t entry; /* index into g_entries */
} artifact;

typedef struct entry {
    char guid[64];
    char path[512];
    char kind[16];
    json_t *manifest; /* the whole manifest.json */
} entry;

static char *g_dir, *g_cache;
static entry *g_entries;
static size_t g_entry_count;
static artifact *g_arts;
static size_t g_art_count;

static krt_type type_of_label(const char *label)
{
    if (strncmp(label, "image", 5) == 0 || strcmp(label, "texture") == 0) return KRT_TYPE_TEXTURE;
    if (strncmp(label, "mesh", 4) == 0) return KRT_TYPE_MESH;
    if (strncmp(label, "material", 8) == 0) return KRT_TYPE_MATERIAL;
    if (strncmp(label, "skeleton", 8) == 0) return KRT_TYPE_SKELETON;
    if (strncmp(label, "clip", 4) == 0) return KRT_TYPE_CLIP;
    if (strcmp(label, "scene") == 0) return KRT_TYPE_SCENE;
    if (strcmp(label, "shader") == 0) return KRT_TYPE_SHADER;
    if (strcmp(label, "typed_material") == 0) return KRT_TYPE_TYPED_MATERIAL;
    if (strncmp(label, "vgeo", 4) == 0) return KRT_TYPE_VGEO;
    return KRT_TYPE_NONE;
}

static json_t *load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) fail_msg("%s: %s (line %d)", path, je.text, je.line);
    return j;
}

static const char *jstr(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s) fail_msg("no string member %s", key);
    return s;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->path, ((const entry *)b)->path);
}

/* Reads every record of the cache and its manifest (sorted by source path). */
static void read_manifests(const char *cache)
{
    char *adir = kt_format("%s/assets", cache);
    DIR *d = opendir(adir);
    assert_non_null(d);
    struct dirent *e;
    size_t cap = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strstr(e->d_name, ".json")) continue;
        char *rp = kt_format("%s/%s", adir, e->d_name);
        json_t *rec = load_json(rp);
        free(rp);
        const char *key = jstr(rec, "key");
        char *mp = kt_format("%s/objects/%.2s/%s/manifest.json", cache, key, key);
        if (g_entry_count == cap) {
            cap = cap ? 2 * cap : 32;
            g_entries = realloc(g_entries, cap * sizeof *g_entries);
            assert_non_null(g_entries);
        }
        entry *en = &g_entries[g_entry_count++];
        memset(en, 0, sizeof *en);
        snprintf(en->guid, sizeof en->guid, "%s", jstr(rec, "guid"));
        snprintf(en->path, sizeof en->path, "%s", jstr(rec, "path"));
        snprintf(en->kind, sizeof en->kind, "%s", jstr(rec, "kind"));
        en->manifest = load_json(mp);
        free(mp);
        json_decref(rec);
    }
    closedir(d);
    qsort(g_entries, g_entry_count, sizeof *g_entries, cmp_entry);
    for (size_t i = 0; i < g_entry_count; i++) {
        entry *en = &g_entries[i];
        const char *key = jstr(en->manifest, "key");
        json_t *outs = json_object_get(en->manifest, "outputs");
        size_t k;
        json_t *o;
        json_array_foreach (outs, k, o) {
            g_arts = realloc(g_arts, (g_art_count + 1) * sizeof *g_arts);
            assert_non_null(g_arts);
            artifact *a = &g_arts[g_art_count++];
            memset(a, 0, sizeof *a);
            snprintf(a->label, sizeof a->label, "%s", jstr(o, "label"));
            snprintf(a->name, sizeof a->name, "%s#%s", en->path, a->label);
            snprintf(a->file, sizeof a->file, "%s/objects/%.2s/%s/%s", cache, key, key,
                     jstr(o, "file"));
            a->id = kiln_asset_id(en->guid, a->label);
            a->type = type_of_label(a->label);
            a->entry = i;
            assert_int_not_equal(a->type, KRT_TYPE_NONE);
        }
    }
    free(adir);
}

/* The summary row of an artifact: summary.<array>[] with this label. */
static json_t *summary_row(const artifact *a, const char *array)
{
    json_t *rows = json_object_get(json_object_get(g_entries[a->entry].manifest, "summary"), array);
    size_t i;
    json_t *r;
    json_array_foreach (rows, i, r) {
        if (strcmp(json_string_value(json_object_get(r, "label")), a->label) == 0) return r;
    }
    fail_msg("%s: no summary.%s row", a->name, array);
    return NULL;
}

static long long jint(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v)) fail_msg("no integer member %s", key);
    return json_integer_value(v);
}

static const artifact *find_id(uint64_t id)
{
    for (size_t i = 0; i < g_art_count; i++)
        if (g_arts[i].id == id) return &g_arts[i];
    return NULL;
}

/* ---- a recording renderer ------------------------------------------------------------------ */

typedef struct recorder {
    pthread_mutex_t mu;
    int creates[KRT_TYPE_COUNT], destroys[KRT_TYPE_COUNT];
} recorder;

static void note(recorder *r, krt_type t, bool create)
{
    pthread_mutex_lock(&r->mu);
    if (create) r->creates[t]++;
    else r->destroys[t]++;
    pthread_mutex_unlock(&r->mu);
}
static kiln_result rec_texture(void *u, krt_handle h, const krt_texture_data *d, void **gpu,
                               kiln_error *err)
{
    *gpu = (void *)(uintptr_t)(h.id | 1);
    note(u, KRT_TYPE_TEXTURE, true);
    return KILN_OK;
}
static kiln_result rec_mesh(void *u, krt_handle h, const krt_mesh_data *d, void **gpu,
                            kiln_error *err)
{
    *gpu = (void *)(uintptr_t)(h.id | 1);
    note(u, KRT_TYPE_MESH, true);
    return KILN_OK;
}
static kiln_result rec_material(void *u, krt_handle h, const krt_material_data *d, void **gpu,
                                kiln_error *err)
{
    *gpu = (void *)(uintptr_t)(h.id | 1);
    note(u, KRT_TYPE_MATERIAL, true);
    return KILN_OK;
}
static kiln_result rec_shader(void *u, krt_handle h, const krt_shader_data *d, void **gpu,
                              kiln_error *err)
{
    *gpu = (void *)(uintptr_t)(h.id | 1);
    note(u, KRT_TYPE_SHADER, true);
    return KILN_OK;
}
static void rec_destroy_shader(void *u, krt_handle h, void *gpu)
{
    note(u, KRT_TYPE_SHADER, false);
}
static kiln_result rec_typed_material(void *u, krt_handle h, const krt_typed_material_data *d,
                                      void **gpu, kiln_error *err)
{
    *gpu = (void *)(uintptr_t)(h.id | 1);
    note(u, KRT_TYPE_TYPED_MATERIAL, true);
    return KILN_OK;
}
static void rec_destroy_typed_material(void *u, krt_handle h, void *gpu)
{
    note(u, KRT_TYPE_TYPED_MATERIAL, false);
}
static void rec_destroy_texture(void *u, krt_handle h, void *gpu)
{
    note(u, KRT_TYPE_TEXTURE, false);
}
static void rec_destroy_mesh(void *u, krt_handle h, void *gpu) { note(u, KRT_TYPE_MESH, false); }
static void rec_destroy_material(void *u, krt_handle h, void *gpu)
{
    note(u, KRT_TYPE_MATERIAL, false);
}

/* A context with the recording renderer (rec may be NULL) and `cache` mounted: a cache folder,
 * or a pack when it ends in .kpak. */
static krt_context *make_ctx(const char *cache, recorder *rec, bool no_verify)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    d.no_verify = no_verify;
    if (rec) {
        memset(rec, 0, sizeof *rec);
        pthread_mutex_init(&rec->mu, NULL);
        d.renderer.create_texture = rec_texture;
        d.renderer.create_mesh = rec_mesh;
        d.renderer.create_material = rec_material;
        d.renderer.destroy_texture = rec_destroy_texture;
        d.renderer.destroy_mesh = rec_destroy_mesh;
        d.renderer.destroy_material = rec_destroy_material;
        d.renderer.user = rec;
        d.renderer_shaders.create_shader = rec_shader;
        d.renderer_shaders.destroy_shader = rec_destroy_shader;
        d.renderer_shaders.create_typed_material = rec_typed_material;
        d.renderer_shaders.destroy_typed_material = rec_destroy_typed_material;
    }
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    size_t n = 0;
    size_t len = strlen(cache);
    kiln_result r = len > 5 && strcmp(cache + len - 5, ".kpak") == 0
                        ? krt_mount_pack(c, cache, &n, &err)
                        : krt_mount_cache(c, cache, &n, &err);
    if (r != KILN_OK) fail_msg("mount %s: %s", cache, err.message);
    return c;
}

static krt_handle *load_all(krt_context *c)
{
    krt_handle *h = calloc(g_art_count, sizeof *h);
    assert_non_null(h);
    for (size_t i = 0; i < g_art_count; i++) {
        kiln_error err;
        h[i] = krt_load(c, g_arts[i].type, g_arts[i].name, &err);
        if (h[i].id == 0) fail_msg("%s: %s", g_arts[i].name, err.message);
    }
    krt_finish(c);
    return h;
}

static void release_all(krt_context *c, krt_handle *h)
{
    for (size_t i = 0; i < g_art_count; i++) {
        kiln_error err;
        assert_int_equal(krt_release(c, h[i], &err), KILN_OK);
    }
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.live_assets, 0);
    free(h);
}

/* ---- loaded against the manifest ------------------------------------------------------------ */

/* The summary's format names and the VkFormats they allow (UNORM or sRGB). */
static bool format_matches(const char *name, uint32_t vk)
{
    static const struct {
        const char *name;
        uint32_t a, b;
    } map[] = {
        {"bc7", KILN_VK_FORMAT_BC7_UNORM_BLOCK, KILN_VK_FORMAT_BC7_SRGB_BLOCK},
        {"bc1", KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK, KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK},
        {"bc4", KILN_VK_FORMAT_BC4_UNORM_BLOCK, KILN_VK_FORMAT_BC4_UNORM_BLOCK},
        {"bc5", KILN_VK_FORMAT_BC5_UNORM_BLOCK, KILN_VK_FORMAT_BC5_UNORM_BLOCK},
        {"rgba8", KILN_VK_FORMAT_R8G8B8A8_UNORM, KILN_VK_FORMAT_R8G8B8A8_SRGB},
        {"rgba16f", KILN_VK_FORMAT_R16G16B16A16_SFLOAT, KILN_VK_FORMAT_R16G16B16A16_SFLOAT},
        {"astc4x4", KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK},
        {"bc6h", KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK, KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK},
        {"bc6h_sf", KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK, KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK},
        {"rgb9e5", KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32},
        {"b10g11r11", KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32,
         KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32},
        {"astc4x4_hdr", KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].name, name) == 0) return vk == map[i].a || vk == map[i].b;
    fail_msg("format %s is not known to this test", name);
    return false;
}

static void check_texture(krt_context *c, krt_handle h, const artifact *a)
{
    krt_texture_data t;
    kiln_error err;
    assert_int_equal(krt_get_texture(c, h, &t, &err), KILN_OK);
    entry *en = &g_entries[a->entry];
    json_t *row = strcmp(en->kind, "texture") == 0 ? json_object_get(en->manifest, "summary")
                                                   : summary_row(a, "images");
    assert_int_equal(t.width, jint(row, "width"));
    assert_int_equal(t.height, jint(row, "height"));
    assert_int_equal(t.level_count, jint(row, "levels"));
    if (!format_matches(jstr(row, "format"), t.vk_format))
        fail_msg("%s: VkFormat %u is not %s", a->name, t.vk_format, jstr(row, "format"));
    if (json_object_get(row, "vk_format")) assert_int_equal(t.vk_format, jint(row, "vk_format"));
    json_t *srgb = json_object_get(row, "srgb");
    if (json_is_boolean(srgb)) assert_int_equal(t.srgb, json_is_true(srgb));
    /* Every level as the GPU takes it: the block count of its size, levels halving. */
    for (uint32_t l = 0; l < t.level_count; l++) {
        const kiln_ktx2_level *lv = &t.levels[l];
        uint32_t w = t.width >> l, hh = t.height >> l;
        assert_int_equal(lv->width, w ? w : 1);
        assert_int_equal(lv->height, hh ? hh : 1);
        size_t bx = (lv->width + t.block_width - 1) / t.block_width;
        size_t by = (lv->height + t.block_height - 1) / t.block_height;
        assert_int_equal(lv->uncompressed_size, bx * by * t.block_size);
        assert_non_null(lv->data);
    }
    assert_non_null(krt_gpu(c, h));
}

static void check_mesh(krt_context *c, krt_handle h, const artifact *a)
{
    krt_mesh_data m;
    kiln_error err;
    assert_int_equal(krt_get_mesh(c, h, &m, &err), KILN_OK);
    json_t *row = summary_row(a, "meshes");
    json_t *tris = json_object_get(row, "triangles");
    assert_int_equal(m.view->level_count, json_array_size(tris));
    for (uint32_t l = 0; l < m.view->level_count; l++)
        assert_int_equal(m.view->levels[l].index_count / 3,
                         json_integer_value(json_array_get(tris, l)));
    assert_int_equal(m.view->vertex_count, jint(row, "vertices"));
    assert_int_equal(m.view->meshlet_count, jint(row, "meshlets"));
    /* vertex_bytes: every stream but the indices, as unpacked */
    size_t vb = 0;
    for (int s = 0; s < KILN_MESH_STREAM_COUNT; s++) {
        if (!m.streams[s]) continue;
        assert_int_equal(m.stream_sizes[s], m.view->streams[s].count * m.view->streams[s].stride);
        if (s != KILN_MESH_INDICES) vb += m.stream_sizes[s]; /* morph targets too */
    }
    assert_int_equal(vb, jint(row, "vertex_bytes"));
    assert_non_null(m.streams[KILN_MESH_POSITION]);
    assert_non_null(m.streams[KILN_MESH_INDICES]);
    assert_int_equal(m.view->streams[KILN_MESH_INDICES].count, m.view->index_count);
    /* Its material is the one the file names, from the same cook. */
    if (m.view->material) {
        const artifact *mat = find_id(m.view->material);
        assert_non_null(mat);
        assert_int_equal(mat->entry, a->entry);
        assert_int_equal(krt_asset_id(c, m.material), m.view->material);
        assert_int_equal(krt_state_of(c, m.material), KRT_STATE_READY);
    } else {
        assert_int_equal(m.material.id, 0);
    }
    assert_non_null(krt_gpu(c, h));
}

static void check_material(krt_context *c, krt_handle h, const artifact *a)
{
    krt_material_data m;
    kiln_error err;
    assert_int_equal(krt_get_material(c, h, &m, &err), KILN_OK);
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        uint64_t image = m.material->textures[s].image;
        if (!image) {
            assert_int_equal(m.textures[s].id, 0);
            continue;
        }
        /* names an image of the same cook, loaded as a dependency, created before it */
        const artifact *img = find_id(image);
        if (!img)
            fail_msg("%s: slot %d names %016llx, not in any manifest", a->name, s,
                     (unsigned long long)image);
        assert_int_equal(img->entry, a->entry);
        assert_int_equal(img->type, KRT_TYPE_TEXTURE);
        assert_int_equal(krt_asset_id(c, m.textures[s]), image);
        assert_int_equal(krt_state_of(c, m.textures[s]), KRT_STATE_READY);
        assert_ptr_equal(m.texture_gpu[s], krt_gpu(c, m.textures[s]));
        assert_non_null(m.texture_gpu[s]);
    }
    assert_non_null(krt_gpu(c, h));
}

static void check_skeleton(krt_context *c, krt_handle h, const artifact *a)
{
    const kiln_skeleton_view *v;
    kiln_error err;
    assert_int_equal(krt_get_skeleton(c, h, &v, &err), KILN_OK);
    assert_int_equal(v->joint_count, jint(summary_row(a, "skeletons"), "joints"));
}

static void check_clip(krt_context *c, krt_handle h, const artifact *a)
{
    const kiln_clip_view *v;
    kiln_error err;
    assert_int_equal(krt_get_clip(c, h, &v, &err), KILN_OK);
    json_t *row = summary_row(a, "clips");
    assert_int_equal(v->track_count, jint(row, "tracks"));
    double duration = json_number_value(json_object_get(row, "duration"));
    if (fabs((double)(v->end - v->start) - duration) > 1e-5)
        fail_msg("%s: %g..%g s, the manifest says %g s", a->name, v->start, v->end, duration);
    if (v->skeleton) {
        const artifact *sk = find_id(v->skeleton);
        assert_non_null(sk);
        assert_int_equal(sk->entry, a->entry);
    }
}

static void check_scene(krt_context *c, krt_handle h, const artifact *a)
{
    krt_scene_data s;
    kiln_error err;
    assert_int_equal(krt_get_scene(c, h, &s, &err), KILN_OK);
    json_t *sum = json_object_get(g_entries[a->entry].manifest, "summary");
    json_t *scene = json_object_get(sum, "scene");
    assert_int_equal(s.view->node_count, jint(scene, "nodes"));
    assert_int_equal(s.view->primitive_count, jint(scene, "primitives"));
    assert_int_equal(s.view->clip_count, json_array_size(json_object_get(sum, "clips")));
    assert_int_equal(s.skeleton_count, json_array_size(json_object_get(sum, "skeletons")));
    for (uint32_t i = 0; i < s.view->primitive_count; i++) {
        assert_int_equal(krt_asset_id(c, s.primitives[i]), kiln_cooked_scene_primitive(s.view, i));
        assert_int_equal(krt_state_of(c, s.primitives[i]), KRT_STATE_READY);
    }
    for (uint32_t i = 0; i < s.view->clip_count; i++)
        assert_int_equal(krt_asset_id(c, s.clips[i]), kiln_cooked_scene_clip(s.view, i));
    for (uint32_t i = 0; i < s.skeleton_count; i++) {
        const artifact *sk = find_id(krt_asset_id(c, s.skeletons[i]));
        assert_non_null(sk);
        assert_int_equal(sk->entry, a->entry);
    }
}

/* A shader against its summary: stage, variant count, SPIR-V bytes over every variant; every
 * variant's words start with the magic and are the view's, and the renderer made its object. */
static void check_shader(krt_context *c, krt_handle h, const artifact *a)
{
    json_t *sum = json_object_get(g_entries[a->entry].manifest, "summary");
    krt_shader_data d;
    kiln_error err;
    assert_int_equal(krt_get_shader(c, h, &d, &err), KILN_OK);
    assert_non_null(d.view);
    assert_string_equal(kiln_shader_stage_name(d.view->stage), jstr(sum, "stage"));
    assert_int_equal(d.variant_count, jint(sum, "variants"));
    assert_int_equal(d.variant_count, d.view->variant_count);
    size_t words = 0;
    for (uint32_t v = 0; v < d.variant_count; v++) {
        assert_true(d.variants[v].word_count >= 5);
        assert_int_equal(d.variants[v].words[0], KILN_SHADER_SPIRV_MAGIC);
        assert_string_equal(d.variants[v].name, kiln_shader_variant_at(d.view, v).name);
        assert_int_equal(kiln_shader_find_variant(d.view, d.variants[v].name), (int32_t)v);
        words += d.variants[v].word_count;
    }
    assert_int_equal(words * 4, jint(sum, "spirv_bytes"));
    /* the fragment shader's variants (the vertex shader's are static and skinned) */
    assert_true(kiln_shader_find_variant(
                    d.view, d.view->stage == KILN_SHADER_FRAGMENT ? "normal_map" : "skinned") >= 0);
    assert_non_null(krt_gpu(c, h));
}

/* A typed material against its summary and the artifacts it names: its shaders (the variants
 * it names among theirs) and textures are the assets of those ids, its block is in the block
 * table byte for byte, and the renderer made its object. */
static void check_typed_material(krt_context *c, krt_handle h, const artifact *a)
{
    (void)a;
    krt_typed_material_data d;
    kiln_error err;
    assert_int_equal(krt_get_typed_material(c, h, &d, &err), KILN_OK);
    const kiln_typed_material *m = &d.view->material;
    assert_int_equal(krt_asset_id(c, d.vertex), m->vertex.shader);
    assert_int_equal(krt_asset_id(c, d.fragment), m->fragment.shader);
    assert_string_equal(d.vertex_variant->name, m->vertex.variant);
    assert_string_equal(d.fragment_variant->name, "normal_map");
    assert_int_equal(d.texture_count, 5);
    for (uint32_t i = 0; i < d.texture_count; i++) {
        assert_int_equal(krt_asset_id(c, d.textures[i]),
                         kiln_typed_material_texture_at(d.view, i).image);
        assert_non_null(d.texture_gpu[i]);
    }
    uint32_t off, size;
    assert_true(krt_material_block(c, h, &off, &size));
    assert_int_equal(size, m->block_size);
    const uint8_t *bytes;
    krt_material_blocks(c, &bytes, NULL, NULL);
    assert_memory_equal(bytes + off, m->block, size);
    assert_non_null(krt_gpu(c, h));
}

static void check_vgeo(krt_context *c, krt_handle h, const artifact *a)
{
    (void)a;
    krt_vgeo_data d;
    kiln_error err;
    assert_int_equal(krt_get_vgeo(c, h, &d, &err), KILN_OK);
    assert_true(d.view->cluster_count > 0);
    assert_int_equal(krt_handle_type(d.mesh), KRT_TYPE_MESH);
    assert_int_equal(krt_asset_id(c, d.mesh), d.view->mesh);
    assert_int_equal(krt_state_of(c, d.mesh), KRT_STATE_READY);
    assert_null(krt_gpu(c, h)); /* CPU data only */
}

static void check_every_artifact(const char *mount)
{
    recorder rec;
    krt_context *c = make_ctx(mount, &rec, false);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.mounted_artifacts, g_art_count);
    krt_handle *h = load_all(c);
    int per_type[KRT_TYPE_COUNT] = {0};
    for (size_t i = 0; i < g_art_count; i++) {
        const artifact *a = &g_arts[i];
        uint64_t id = 0;
        assert_true(krt_lookup(c, a->name, &id));
        assert_int_equal(id, a->id);
        assert_int_equal(krt_lookup_id(c, a->id), a->type);
        assert_int_equal(krt_handle_type(h[i]), a->type);
        if (krt_state_of(c, h[i]) != KRT_STATE_READY) {
            kiln_error e;
            krt_error(c, h[i], &e);
            fail_msg("%s: %s: %s", a->name, kiln_result_name(e.code), e.message);
        }
        per_type[a->type]++;
        switch (a->type) {
        case KRT_TYPE_TEXTURE:
            check_texture(c, h[i], a);
            break;
        case KRT_TYPE_MESH:
            check_mesh(c, h[i], a);
            break;
        case KRT_TYPE_MATERIAL:
            check_material(c, h[i], a);
            break;
        case KRT_TYPE_SKELETON:
            check_skeleton(c, h[i], a);
            break;
        case KRT_TYPE_CLIP:
            check_clip(c, h[i], a);
            break;
        case KRT_TYPE_SCENE:
            check_scene(c, h[i], a);
            break;
        case KRT_TYPE_SHADER:
            check_shader(c, h[i], a);
            break;
        case KRT_TYPE_TYPED_MATERIAL:
            check_typed_material(c, h[i], a);
            break;
        case KRT_TYPE_VGEO:
            check_vgeo(c, h[i], a);
            break;
        default:
            fail_msg("%s: type %d", a->name, a->type);
        }
    }
    /* Per manifest: as many materials as the summary counts, totals of the meshes. */
    for (size_t e = 0; e < g_entry_count; e++) {
        json_t *sum = json_object_get(g_entries[e].manifest, "summary");
        if (strcmp(g_entries[e].kind, "model") != 0) continue;
        long long mats = 0;
        for (size_t i = 0; i < g_art_count; i++)
            mats += g_arts[i].entry == e && g_arts[i].type == KRT_TYPE_MATERIAL;
        assert_int_equal(mats, jint(sum, "materials"));
    }
    /* Every type was there, each loaded once: the renderer created one object per texture, mesh,
     * material and shader artifact. */
    for (int t = KRT_TYPE_TEXTURE; t < KRT_TYPE_COUNT; t++)
        if (per_type[t] == 0 && t != KRT_TYPE_VGEO) /* VGEO: only with model.virtual_geometry */
            fail_msg("no artifact of type %d in the cooked corpus", t);
    assert_int_equal(rec.creates[KRT_TYPE_TEXTURE], per_type[KRT_TYPE_TEXTURE]);
    assert_int_equal(rec.creates[KRT_TYPE_MESH], per_type[KRT_TYPE_MESH]);
    assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], per_type[KRT_TYPE_MATERIAL]);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], per_type[KRT_TYPE_SHADER]);
    assert_int_equal(rec.creates[KRT_TYPE_TYPED_MATERIAL], per_type[KRT_TYPE_TYPED_MATERIAL]);
    release_all(c, h);
    for (int t = 0; t < KRT_TYPE_COUNT; t++) assert_int_equal(rec.creates[t], rec.destroys[t]);
    krt_destroy(c);
}

static void test_every_artifact_matches_its_manifest(void **state)
{
    check_every_artifact(g_cache);
    (void)state;
}

/* The same from packs of the same cook: every artifact, the same checks. */
static void test_every_artifact_from_packs(void **state)
{
    static const char *const files[] = {"raw.kpak", "zstd.kpak"};
    for (size_t i = 0; i < 2; i++) {
        char *pack = kt_format("%s/%s", g_dir, files[i]);
        check_every_artifact(pack);
        free(pack);
    }
    (void)state;
}

/* A pack with one byte flipped, at offsets spread over the file: the mount refuses it (table
 * checksum) or the loads that read the damaged payload fail with an error (entry XXH3); every
 * other load is ready, nothing crashes or leaks. */
static void test_damaged_packs(void **state)
{
    static const char *const files[] = {"raw.kpak", "zstd.kpak"};
    for (size_t f = 0; f < 2; f++) {
        char *path = kt_format("%s/%s", g_dir, files[f]);
        size_t n;
        uint8_t *orig = kt_read_file(path, &n);
        assert_non_null(orig);
        char *copy = kt_format("%s/damaged-%s", g_dir, files[f]);
        int refused = 0, failed_loads = 0;
        for (int k = 0; k < 16; k++) {
            size_t at = (size_t)k * (n / 16) + 7;
            orig[at] ^= 0xFF;
            kt_write_file(copy, orig, n);
            orig[at] ^= 0xFF;
            krt_desc d;
            memset(&d, 0, sizeof d);
            d.struct_size = sizeof d;
            d.worker_count = 2;
            krt_context *c;
            kiln_error err;
            assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
            if (krt_mount_pack(c, copy, NULL, &err) != KILN_OK) {
                if (!err.message[0]) fail_msg("%s at %zu: refused without a message", files[f], at);
                refused++;
                krt_destroy(c);
                continue;
            }
            krt_handle *h = calloc(g_art_count, sizeof *h);
            assert_non_null(h);
            for (size_t i = 0; i < g_art_count; i++)
                h[i] = krt_load(c, g_arts[i].type, g_arts[i].name, &err);
            krt_finish(c);
            for (size_t i = 0; i < g_art_count; i++) {
                if (!h[i].id) continue; /* the damaged table lost the name: refused at once */
                krt_state st = krt_state_of(c, h[i]);
                kiln_error e;
                kiln_result code = krt_error(c, h[i], &e);
                if (st == KRT_STATE_FAILED) {
                    failed_loads++;
                    if (code == KILN_OK || !e.message[0])
                        fail_msg("%s at %zu: %s failed without an error", files[f], at,
                                 g_arts[i].name);
                } else if (st != KRT_STATE_READY) {
                    fail_msg("%s at %zu: %s in state %d", files[f], at, g_arts[i].name, st);
                }
                krt_release(c, h[i], &err);
            }
            free(h);
            krt_finish(c);
            krt_destroy(c);
        }
        if (refused + failed_loads == 0) fail_msg("%s: 16 flipped bytes and no error", files[f]);
        remove(copy);
        free(copy);
        free(orig);
        free(path);
    }
    (void)state;
}

/* ---- damaged copies -------------------------------------------------------------------------- */

typedef enum damage {
    DAMAGE_FLIP,         /* invert one byte at `at` (from the end when negative) */
    DAMAGE_TRUNCATE,     /* keep `at` bytes (size + at when negative) */
    DAMAGE_VERSION,      /* container version (bytes 4..7) + 1, checksum made right again */
    DAMAGE_KIND_VERSION, /* kind version (bytes 12..15) + 1, checksum made right again */
} damage;

static const char *const damage_names[] = {"flip", "truncate", "container version", "kind version"};

static bool is_ktx2(const artifact *a) { return a->type == KRT_TYPE_TEXTURE; }

/* The file of artifact a under another cache folder. */
static char *file_in(const char *cache, const artifact *a)
{
    return kt_format("%s%s", cache, a->file + strlen(g_cache));
}

static void damage_file(const char *path, const artifact *a, damage how, long at)
{
    size_t n;
    uint8_t *b = kt_read_file(path, &n);
    assert_non_null(b);
    assert_true(n >= 64);
    size_t pos = at < 0 ? n - (size_t)(-at) : (size_t)at;
    switch (how) {
    case DAMAGE_FLIP:
        b[pos % n] ^= 0xFF;
        break;
    case DAMAGE_TRUNCATE:
        n = pos < n ? pos : n - 1;
        break;
    case DAMAGE_VERSION:
    case DAMAGE_KIND_VERSION:
        if (is_ktx2(a)) { /* "«KTX 20»\r\n\x1A\n": the version digits */
            b[6] = '3';
        } else {
            b[how == DAMAGE_VERSION ? 4 : 12]++;
            kt_container_reseal(b, n);
        }
        break;
    }
    kt_write_file(path, b, n);
    free(b);
}

static char *copy_cache(const char *tag)
{
    char *dir = kt_tempdir(tag);
    char *cmd = kt_format("cp -r '%s'/. '%s'/ && chmod -R u+w '%s'", g_cache, dir, dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    return dir;
}

/* The code a damaged leaf (texture, skeleton, clip) must fail with; KILN_OK: any failure (or,
 * without verification, success: a flipped byte inside BC7 blocks or key values is still a valid
 * file). The manifest's size is checked even without verification. */
static kiln_result expected_code(const artifact *a, damage how, long at, bool no_verify)
{
    bool in_version = at >= 4 && at < 8; /* the container version: read before the checksum */
    switch (how) {
    case DAMAGE_TRUNCATE:
        return KILN_E_CACHE_CORRUPT;
    case DAMAGE_FLIP:
        if (no_verify) return KILN_OK;
        if (is_ktx2(a)) return KILN_E_CACHE_CORRUPT; /* the manifest's SHA-256 */
        /* A container's header is checked before its checksum: the version says "cook again",
         * other header fields fail one way or another; past the header, the XXH3 checksum: the
         * runtime's one code for damaged bytes. */
        if (in_version) return KILN_E_FORMAT_VERSION;
        return at >= 0 && at < 64 ? KILN_OK : KILN_E_CACHE_CORRUPT; /* "container checksum" */
    case DAMAGE_VERSION:
    case DAMAGE_KIND_VERSION:
        if (is_ktx2(a)) return no_verify ? KILN_E_FORMAT_INVALID : KILN_E_CACHE_CORRUPT;
        return KILN_E_FORMAT_VERSION;
    }
    return KILN_OK;
}

/* Loads every artifact of a damaged copy: each must end failed (with verification) with a code
 * and a message; without verification each must end ready or failed (no crash, no hang, every
 * allocation freed: ASan). Leaves report the code of their own damage. */
static void check_damaged(const char *cache, damage how, long at, bool no_verify)
{
    recorder rec;
    krt_context *c = make_ctx(cache, &rec, no_verify);
    krt_handle *h = load_all(c);
    for (size_t i = 0; i < g_art_count; i++) {
        const artifact *a = &g_arts[i];
        krt_state st = krt_state_of(c, h[i]);
        kiln_error e;
        kiln_result code = krt_error(c, h[i], &e);
        if (no_verify) {
            if (st != KRT_STATE_READY && st != KRT_STATE_FAILED)
                fail_msg("%s (%s, no verify): state %d", a->name, damage_names[how], st);
            /* The manifest size and the readers find these even so. */
            if (how == DAMAGE_TRUNCATE || how == DAMAGE_VERSION || how == DAMAGE_KIND_VERSION)
                if (st != KRT_STATE_FAILED)
                    fail_msg("%s (%s, no verify): loaded", a->name, damage_names[how]);
            if (st == KRT_STATE_READY) continue;
        } else if (st != KRT_STATE_FAILED) {
            fail_msg("%s (%s): state %d, expected failed", a->name, damage_names[how], st);
        }
        if (code == KILN_OK || !e.message[0])
            fail_msg("%s (%s): failed without an error", a->name, damage_names[how]);
        /* The leaves (no dependencies) say what is wrong with them, and in which file. */
        bool leaf = a->type == KRT_TYPE_TEXTURE || a->type == KRT_TYPE_SKELETON ||
                    a->type == KRT_TYPE_CLIP || a->type == KRT_TYPE_SHADER;
        if (!leaf) continue;
        if (!strstr(e.path, strrchr(a->file, '/')))
            fail_msg("%s (%s): the error names \"%s\", not its file", a->name, damage_names[how],
                     e.path);
        kiln_result want = expected_code(a, how, at, no_verify);
        if (getenv("KILN_E2E_SHOW"))
            fprintf(stderr, "%s (%s %ld%s): %s %s [%s]\n", a->name, damage_names[how], at,
                    no_verify ? ", no verify" : "", kiln_result_name(code), e.message, e.path);
        if (want != KILN_OK && code != want)
            fail_msg("%s (%s at %ld%s): %s \"%s\", expected %s", a->name, damage_names[how], at,
                     no_verify ? ", no verify" : "", kiln_result_name(code), e.message,
                     kiln_result_name(want));
        if (code == KILN_E_FORMAT_VERSION && !is_ktx2(a) && !strstr(e.message, "cook again"))
            fail_msg("%s: a version error that does not say to cook again: %s", a->name, e.message);
    }
    release_all(c, h);
    for (int t = 0; t < KRT_TYPE_COUNT; t++) assert_int_equal(rec.creates[t], rec.destroys[t]);
    krt_destroy(c);
}

static void run_damage(damage how, long at)
{
    char *copy = copy_cache("rt-e2e-damaged");
    for (size_t i = 0; i < g_art_count; i++) {
        char *p = file_in(copy, &g_arts[i]);
        damage_file(p, &g_arts[i], how, at);
        free(p);
    }
    check_damaged(copy, how, at, false);
    check_damaged(copy, how, at, true);
    kt_rmtree(copy);
    free(copy);
}

static void test_flipped_bytes_fail_every_load(void **state)
{
    static const long at[] = {5, 40, 100, -1}; /* header, header, sections, last byte */
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) run_damage(DAMAGE_FLIP, at[i]);
    (void)state;
}

static void test_truncated_files_fail_every_load(void **state)
{
    static const long at[] = {0, 63, 200, -1};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) run_damage(DAMAGE_TRUNCATE, at[i]);
    (void)state;
}

static void test_other_versions_fail_every_load(void **state)
{
    run_damage(DAMAGE_VERSION, 0);
    run_damage(DAMAGE_KIND_VERSION, 0);
    (void)state;
}

/* krt_mount_skipped's callback: the file into user (char[1024]). */
static bool first_skipped(void *user, const krt_skipped_info *info)
{
    snprintf(user, 1024, "%s", info->file);
    return true;
}

/* Damaged manifests and records: the mount skips what is not valid JSON of the right shape
 * (listing it, naming the file) and mounts the rest; a manifest whose size or SHA-256 is wrong
 * fails the loads it covers. */
static void test_damaged_manifests(void **state)
{
    /* a texture-kind entry and a model entry */
    const artifact *tex = NULL, *mesh = NULL;
    for (size_t i = 0; i < g_art_count; i++) {
        if (!tex && strcmp(g_arts[i].label, "texture") == 0) tex = &g_arts[i];
        if (!mesh && g_arts[i].type == KRT_TYPE_MESH) mesh = &g_arts[i];
    }
    assert_non_null(tex);
    assert_non_null(mesh);
    kiln_error err;
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 1;

    /* a manifest cut short: its entry is skipped (listed, naming it), the rest mounts, and its
     * assets fail naming the manifest */
    char *copy = copy_cache("rt-e2e-manifest");
    char *mdir = file_in(copy, mesh);
    *strrchr(mdir, '/') = '\0';
    char *manifest = kt_format("%s/manifest.json", mdir);
    size_t n;
    char *text = kt_read_file(manifest, &n);
    kt_write_file(manifest, text, n / 2);
    krt_context *c;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    size_t count = 0;
    assert_int_equal(krt_mount_cache(c, copy, &count, &err), KILN_OK);
    assert_true(count > 0 && count < g_art_count);
    assert_true(krt_mount_skipped(c, NULL, NULL) >= 1);
    uint64_t id;
    assert_false(krt_lookup(c, mesh->name, &id));
    assert_true(krt_lookup(c, tex->name, &id)); /* another entry's */
    krt_handle h = krt_load_mesh(c, mesh->name, &err);
    krt_finish(c);
    kiln_error e;
    assert_int_equal(krt_error(c, h, &e), KILN_E_CACHE_CORRUPT);
    assert_string_equal(e.path, manifest);
    assert_non_null(strstr(e.message, "not JSON"));
    assert_int_equal(krt_release(c, h, &err), KILN_OK);
    krt_destroy(c);

    /* the same manifest gone: its record is skipped, the rest mounts */
    remove(manifest);
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, copy, &count, &err), KILN_OK);
    assert_true(count > 0 && count < g_art_count);
    assert_false(krt_lookup(c, mesh->name, &id));
    h = krt_load_mesh(c, mesh->name, &err);
    assert_int_equal(h.id, 0);
    assert_int_equal(err.code, KILN_E_USAGE);
    krt_destroy(c);
    kt_write_file(manifest, text, n); /* repaired */

    /* the manifest states another size, then another XXH3-128, then (without xxh3_128, as
     * manifests written before it) another SHA-256, for the texture-kind file */
    char *tdir = file_in(copy, tex);
    *strrchr(tdir, '/') = '\0';
    char *tman = kt_format("%s/manifest.json", tdir);
    size_t tn;
    char *ttext = kt_read_file(tman, &tn);
    json_t *j = json_loadb(ttext, tn, 0, NULL);
    assert_non_null(j);
    json_t *out0 = json_array_get(json_object_get(j, "outputs"), 0);
    long long size = json_integer_value(json_object_get(out0, "size"));
    static const char *const why[] = {"the manifest says", "XXH3-128", "SHA-256"};
    for (int variant = 0; variant < 3; variant++) {
        json_t *copy_j = json_deep_copy(j);
        json_t *o = json_array_get(json_object_get(copy_j, "outputs"), 0);
        if (variant == 0) json_object_set_new(o, "size", json_integer(size + 1));
        else if (variant == 1)
            json_object_set_new(o, "xxh3_128", json_string("00000000000000000000000000000000"));
        else {
            assert_int_equal(json_object_del(o, "xxh3_128"), 0);
            json_object_set_new(o, "sha256",
                                json_string("00000000000000000000000000000000"
                                            "00000000000000000000000000000000"));
        }
        char *dumped = json_dumps(copy_j, JSON_INDENT(2));
        write_text(tman, dumped);
        free(dumped);
        json_decref(copy_j);
        assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
        assert_int_equal(krt_mount_cache(c, copy, &count, &err), KILN_OK);
        h = krt_load_texture(c, tex->name, &err);
        assert_true(h.id != 0);
        krt_finish(c);
        assert_int_equal(krt_state_of(c, h), KRT_STATE_FAILED);
        assert_int_equal(krt_error(c, h, &e), KILN_E_CACHE_CORRUPT);
        assert_non_null(strstr(e.message, why[variant]));
        assert_int_equal(krt_release(c, h, &err), KILN_OK);
        krt_destroy(c);
    }
    json_decref(j);

    /* a record that is not JSON: skipped, listed naming the record; the rest mounts */
    char *rec = kt_format("%s/assets/%s.json", copy, g_entries[0].guid);
    write_text(rec, "{\"guid\": \"");
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, copy, &count, &err), KILN_OK);
    assert_true(count > 0);
    char skipped_file[1024] = "";
    assert_int_equal(krt_mount_skipped(c, first_skipped, skipped_file), 1);
    assert_non_null(strstr(skipped_file, g_entries[0].guid));
    krt_destroy(c);

    free(rec);
    free(ttext);
    free(tman);
    free(tdir);
    free(text);
    free(manifest);
    free(mdir);
    kt_rmtree(copy);
    free(copy);
    (void)state;
}

/* KILN_WRITE_FUZZ_SEEDS=1: fuzz/corpus/rt_mount/ from the cook, for fuzz/fuzz_rt_mount.c (its
 * comment gives the layout): each entry of at most 100 KiB as one input with verification on and
 * one with it off; the record and manifest carry the target's fixed key (the record keeps its
 * guid: the cooked files name their dependencies by ids made from it), the manifest names its
 * files "0", "1", ...; entries of at most 40 KiB also as packs of their source (pack mode).
 * Review the files before committing them. */
#define SEED_SEP "\n@@kiln-part@@\n"
#define SEED_KEY "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* Entries this small also get seeds that unmount (options bit 7): a few, not one per seed. */
#define UNMOUNT_SEED_MAX (8 * 1024)

/* Pack-mode seeds (options bit 6): a raw pack of one source with verification, a Zstandard one
 * without; with unmount, each also with bits 7 and 1. */
static void write_pack_seeds(const entry *en, const char *name, const char *src, bool unmount)
{
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = g_dir;
    kiln_project *p = NULL;
    kiln_error err;
    assert_int_equal(kiln_project_open(&o, &p, &err), KILN_OK);
    char *asset = kt_format("%s/assets/%s", g_dir, en->path);
    char *out = kt_format("%s/seed.kpak", g_dir);
    for (int zstd = 0; zstd < 2; zstd++) {
        kiln_pack_opts po;
        memset(&po, 0, sizeof po);
        po.struct_size = sizeof po;
        po.output = out;
        po.compress = zstd ? KILN_PACK_COMPRESS_ZSTD : KILN_PACK_COMPRESS_NONE;
        char *doc = NULL;
        const char *assets[] = {asset};
        if (kiln_project_pack(p, assets, 1, 0, &po, &doc, &err) != KILN_OK)
            fail_msg("pack %s: %s", en->path, err.message);
        kiln_string_free(doc);
        size_t n;
        uint8_t *bytes = kt_read_file(out, &n);
        assert_non_null(bytes);
        uint8_t *seed = malloc(n + 1);
        assert_non_null(seed);
        seed[0] = zstd ? 64 | 1 : 64;
        memcpy(seed + 1, bytes, n);
        char *path = kt_format("%s/fuzz/corpus/rt_mount/pack_%s%s.seed", src, name,
                               zstd ? "_zstd_noverify" : "");
        kt_write_file(path, seed, n + 1);
        free(path);
        if (unmount) { /* the unmount path (bit 7), after a second mount (bit 1) */
            seed[0] = (uint8_t)(seed[0] | 128 | 2);
            path = kt_format("%s/fuzz/corpus/rt_mount/pack_%s%s_unmount.seed", src, name,
                             zstd ? "_zstd_noverify" : "");
            kt_write_file(path, seed, n + 1);
            free(path);
        }
        free(seed);
        free(bytes);
    }
    remove(out);
    free(out);
    free(asset);
    kiln_project_close(p);
}

static void write_fuzz_seeds(void)
{
    const char *on = getenv("KILN_WRITE_FUZZ_SEEDS"), *src = getenv("KILN_SOURCE_DIR");
    if (!on || strcmp(on, "1") != 0 || !src) return;
    for (size_t e = 0; e < g_entry_count; e++) {
        entry *en = &g_entries[e];
        json_t *man = json_deep_copy(en->manifest);
        json_t *outs = json_object_get(man, "outputs");
        size_t total = 0, i;
        json_t *o;
        json_array_foreach (outs, i, o) total += (size_t)jint(o, "size");
        if (total > 100 * 1024 || json_array_size(outs) > 16) {
            json_decref(man);
            continue;
        }
        json_object_set_new(man, "key", json_string(SEED_KEY));
        json_array_foreach (outs, i, o) {
            char num[24];
            snprintf(num, sizeof num, "%zu", i);
            json_object_set_new(o, "file", json_string(num));
        }
        json_t *rec = json_pack("{s:s, s:s, s:s, s:s}", "guid", en->guid, "key", SEED_KEY, "kind",
                                en->kind, "path", en->path);
        char *rtext = json_dumps(rec, JSON_INDENT(2) | JSON_SORT_KEYS);
        char *mtext = json_dumps(man, JSON_INDENT(2) | JSON_SORT_KEYS);
        size_t cap = 1 + strlen(rtext) + strlen(mtext) + total + 18 * sizeof SEED_SEP;
        uint8_t *buf = malloc(cap);
        assert_non_null(buf);
        size_t n = 1;
        memcpy(buf + n, rtext, strlen(rtext)), n += strlen(rtext);
        memcpy(buf + n, SEED_SEP, sizeof SEED_SEP - 1), n += sizeof SEED_SEP - 1;
        memcpy(buf + n, mtext, strlen(mtext)), n += strlen(mtext);
        for (size_t a = 0; a < g_art_count; a++) {
            if (g_arts[a].entry != e) continue;
            size_t fs;
            uint8_t *fb = kt_read_file(g_arts[a].file, &fs);
            assert_non_null(fb);
            assert_true(n + sizeof SEED_SEP + fs <= cap);
            memcpy(buf + n, SEED_SEP, sizeof SEED_SEP - 1), n += sizeof SEED_SEP - 1;
            memcpy(buf + n, fb, fs), n += fs;
            free(fb);
        }
        char name[512];
        snprintf(name, sizeof name, "%s", en->path);
        for (char *c = name; *c; c++)
            if (*c == '/' || *c == '.') *c = '_';
        if (total <= 40 * 1024) write_pack_seeds(en, name, src, total <= UNMOUNT_SEED_MAX);
        for (int verify_off = 0; verify_off < 2; verify_off++) {
            buf[0] = (uint8_t)verify_off;
            char *path = kt_format("%s/fuzz/corpus/rt_mount/%s%s.seed", src, name,
                                   verify_off ? "_noverify" : "");
            kt_write_file(path, buf, n);
            free(path);
        }
        if (total <= UNMOUNT_SEED_MAX) {
            /* the unmount path (bit 7): once mounted; twice (bit 1) with reloads and a poll
             * (bit 4) and released assets kept (bit 5) */
            static const uint8_t unmount_options[] = {128, 128 | 32 | 16 | 2};
            for (size_t k = 0; k < sizeof unmount_options; k++) {
                buf[0] = unmount_options[k];
                char *path = kt_format("%s/fuzz/corpus/rt_mount/%s_unmount%zu.seed", src, name, k);
                kt_write_file(path, buf, n);
                free(path);
            }
        }
        free(buf);
        free(rtext);
        free(mtext);
        json_decref(rec);
        json_decref(man);
    }
}

static int setup(void **state)
{
    g_dir = cook_project();
    g_cache = kt_format("%s/.kiln/cache", g_dir);
    read_manifests(g_cache);
    assert_true(g_entry_count >= 6);
    write_fuzz_seeds();
    (void)state;
    return 0;
}

static int teardown(void **state)
{
    for (size_t i = 0; i < g_entry_count; i++) json_decref(g_entries[i].manifest);
    free(g_entries);
    free(g_arts);
    kt_rmtree(g_dir);
    free(g_dir);
    free(g_cache);
    (void)state;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_artifact_matches_its_manifest),
        cmocka_unit_test(test_every_artifact_from_packs),
        cmocka_unit_test(test_damaged_packs),
        cmocka_unit_test(test_flipped_bytes_fail_every_load),
        cmocka_unit_test(test_truncated_files_fail_every_load),
        cmocka_unit_test(test_other_versions_fail_every_load),
        cmocka_unit_test(test_damaged_manifests),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
