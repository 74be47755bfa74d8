/* test_runtime_gpu.c — what the runtime keeps for the engine's GPU side: the material table
 * (records written as materials load, reload and go away, stable indices, texture-table index
 * = texture handle slot), the fallback texture and material, and BC/ASTC textures transcoded
 * to RGBA8 for a renderer whose supports_format says no. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rt_fixture.h"
#include "support.h"

static rt_project g;

static int setup(void **state)
{
    static const char *const models[] = {"gltf/BoxTextured/glTF", "gltf/CesiumMan/glTF"};
    rt_project_open(&g, models, 2);
    (void)state;
    return 0;
}

static int teardown(void **state)
{
    rt_project_close(&g);
    (void)state;
    return 0;
}

static krt_context *make_ctx(krt_desc *d)
{
    d->struct_size = sizeof *d;
    d->worker_count = 2;
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    return c;
}

/* The null renderer: the cooked bytes as they are. */
static krt_context *plain_ctx(void)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    return make_ctx(&d);
}

/* The recording renderer, sampling what `supports` says (a pure function: job threads call it). */
static krt_context *recording_ctx(rt_recorder *rec, bool (*supports)(void *, uint32_t))
{
    rt_recorder_init(rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.renderer = rt_recorder_renderer(rec);
    d.renderer.supports_format = supports;
    return make_ctx(&d);
}

static const krt_gpu_material *record(krt_context *c, krt_handle h, uint64_t *gen)
{
    const krt_gpu_material *r;
    size_t n;
    krt_material_table(c, &r, &n, gen);
    uint32_t i = krt_material_index(c, h);
    assert_true(i < n);
    return &r[i];
}

static void the_material_table_follows_materials(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.renderer = rt_recorder_renderer(&rec);
    krt_context *c = make_ctx(&d);
    kiln_error err;
    const krt_gpu_material *recs;
    size_t n;
    uint64_t gen0, gen;
    krt_material_table(c, &recs, &n, &gen0);
    assert_int_equal(n, 0);

    krt_handle box = krt_load_material(c, "m0/BoxTextured.gltf#material0", &err);
    uint32_t box_index = krt_material_index(c, box);
    assert_int_equal(box_index, 0); /* an index at once, before it is ready */
    krt_update(c);
    const krt_gpu_material *r = record(c, box, &gen);
    if (krt_state_of(c, box) == KRT_STATE_LOADING) {
        assert_int_equal(r->flags, KRT_GPU_MATERIAL_LIVE | KRT_GPU_MATERIAL_LOADING);
        assert_int_equal(r->textures[0], KRT_INVALID_INDEX);
    }
    krt_finish(c);
    assert_int_equal(krt_state_of(c, box), KRT_STATE_READY);
    r = record(c, box, &gen);
    assert_true(gen != gen0);
    krt_material_data md;
    assert_int_equal(krt_get_material(c, box, &md, &err), KILN_OK);
    const kiln_material *m = md.material;
    assert_int_equal(r->flags & ~(uint32_t)KRT_GPU_MATERIAL_ALPHA_MODE,
                     KRT_GPU_MATERIAL_LIVE | (m->double_sided ? KRT_GPU_MATERIAL_DOUBLE_SIDED : 0));
    assert_int_equal(r->flags & KRT_GPU_MATERIAL_ALPHA_MODE, m->alpha_mode);
    assert_memory_equal(r->base_color, m->base_color, sizeof r->base_color);
    assert_true(r->metallic == m->metallic && r->metallic == 0.0f);
    assert_true(r->roughness == m->roughness && r->alpha_cutoff == m->alpha_cutoff);
    /* the texture-table index is the texture handle's slot */
    krt_handle tex = md.textures[KILN_MATERIAL_SLOT_BASE_COLOR];
    assert_true(tex.id != 0);
    assert_int_equal(r->textures[KILN_MATERIAL_SLOT_BASE_COLOR], krt_handle_slot(tex));
    for (int s = 1; s < KILN_MATERIAL_SLOT_COUNT; s++)
        assert_int_equal(r->textures[s], KRT_INVALID_INDEX);
    assert_memory_equal(r->uv_transforms[0], m->textures[0].matrix, sizeof m->textures[0].matrix);
    assert_true(r->uv_transforms[1][0] == 1.0f && r->uv_transforms[1][3] == 1.0f);
    assert_int_equal(r->texcoords, 0);
    const kiln_material_texture *t = &m->textures[0];
    uint32_t smp = r->samplers[0] & 0xFFFFu;
    assert_int_equal(smp & 3u, t->mag_filter);
    assert_int_equal((smp >> 8) & 3u, t->wrap_s);

    /* another material, another index; the table stays in step */
    krt_handle man = krt_load_material(c, "m1/CesiumMan.gltf#material0", &err);
    krt_finish(c);
    assert_int_equal(krt_material_index(c, man), 1);
    krt_material_table(c, &recs, &n, &gen);
    assert_int_equal(n, 2);
    assert_true(recs[1].flags & KRT_GPU_MATERIAL_LIVE);

    /* a reload keeps the index and writes the record again */
    uint64_t before = gen;
    assert_int_equal(krt_reload(c, box, &err), KILN_OK);
    krt_finish(c);
    assert_int_equal(krt_material_index(c, box), box_index);
    r = record(c, box, &gen);
    assert_true(gen != before);
    assert_true(r->flags & KRT_GPU_MATERIAL_LIVE);

    /* gone: zeroed, and the index is reused */
    assert_int_equal(krt_release(c, box, &err), KILN_OK);
    assert_int_equal(krt_material_index(c, box), KRT_INVALID_INDEX);
    before = gen;
    krt_finish(c);
    krt_material_table(c, &recs, &n, &gen);
    assert_true(gen != before);
    static const krt_gpu_material zero;
    assert_memory_equal(&recs[box_index], &zero, sizeof zero);
    krt_handle again = krt_load_material(c, "m0/BoxTextured.gltf#material0", &err);
    assert_int_equal(krt_material_index(c, again), box_index);
    krt_finish(c);
    assert_true(record(c, again, NULL)->flags & KRT_GPU_MATERIAL_LIVE);
    krt_handle scene = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
    assert_int_equal(krt_material_index(c, scene), KRT_INVALID_INDEX); /* not a material */
    krt_release(c, scene, &err);
    krt_release(c, again, &err);
    krt_release(c, man, &err);
    krt_finish(c);
    krt_material_table(c, &recs, &n, &gen);
    for (size_t i = 0; i < n; i++) assert_memory_equal(&recs[i], &zero, sizeof zero);
    krt_destroy(c);
    (void)state;
}

static void fallbacks_stand_in_until_assets_are_ready(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.renderer = rt_recorder_renderer(&rec);
    d.fallbacks = true;
    krt_context *c = make_ctx(&d);
    kiln_error err;
    krt_handle tex = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    assert_null(krt_gpu(c, tex)); /* the fallbacks are made by the first krt_update */
    krt_update(c);
    assert_true(rec.creates[KRT_TYPE_MATERIAL] == 1); /* the fallback material */
    assert_non_null(strstr(rec.log, "create_texture 0000000000000000"));
    assert_non_null(strstr(rec.log, "create_material 0000000000000000"));
    void *fallback = (void *)(uintptr_t)1; /* the recorder's object for the 0 handle */
    /* loading: the fallback (nothing becomes ready outside krt_update) */
    krt_handle mat = krt_load_material(c, "m1/CesiumMan.gltf#material0", &err);
    assert_int_equal(krt_state_of(c, mat), KRT_STATE_LOADING);
    assert_ptr_equal(krt_gpu(c, mat), fallback);
    if (krt_state_of(c, tex) == KRT_STATE_LOADING) assert_ptr_equal(krt_gpu(c, tex), fallback);
    /* failed: the fallback too */
    krt_handle missing = krt_load_id(c, KRT_TYPE_TEXTURE, 0x1234, &err);
    assert_int_equal(krt_state_of(c, missing), KRT_STATE_FAILED);
    assert_ptr_equal(krt_gpu(c, missing), fallback);
    krt_handle mesh = krt_load_mesh(c, "m1/CesiumMan.gltf#mesh0/prim0", &err);
    assert_null(krt_gpu(c, mesh)); /* no fallback mesh */
    krt_finish(c);
    /* ready: their own objects */
    assert_ptr_equal(krt_gpu(c, tex), (void *)(uintptr_t)(tex.id | 1));
    assert_ptr_equal(krt_gpu(c, mat), (void *)(uintptr_t)(mat.id | 1));
    krt_release(c, tex, &err);
    krt_release(c, mat, &err);
    krt_release(c, missing, &err);
    krt_release(c, mesh, &err);
    krt_finish(c);
    assert_int_equal(rec.live, 2); /* the fallbacks live as long as the context */
    krt_destroy(c);
    assert_int_equal(rec.live, 0);
    assert_non_null(strstr(rec.log, "destroy_texture 0000000000000000"));

    /* without fallbacks: NULL while loading */
    rt_recorder_init(&rec);
    memset(&d, 0, sizeof d);
    d.renderer = rt_recorder_renderer(&rec);
    c = make_ctx(&d);
    tex = krt_load_texture(c, "m0/BoxTextured.gltf#image0", &err);
    krt_update(c);
    if (krt_state_of(c, tex) == KRT_STATE_LOADING) assert_null(krt_gpu(c, tex));
    assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], 0);
    krt_release(c, tex, &err);
    krt_destroy(c);
    (void)state;
}

/* A renderer that samples nothing but RGBA8 (called from job threads: a pure function). */
static bool rgba8_only(void *user, uint32_t f)
{
    (void)user;
    return f == KILN_VK_FORMAT_R8G8B8A8_UNORM || f == KILN_VK_FORMAT_R8G8B8A8_SRGB;
}

/* Image `image` (a face) of level l of t, transcoded by the runtime, equals the CPU decode of
 * the same image of tp, the cooked blocks. */
static void expect_transcoded(const krt_texture_data *tp, const krt_texture_data *t, uint32_t l,
                              uint32_t image)
{
    const kiln_ktx2_level *src = &tp->levels[l];
    size_t n = (size_t)t->levels[l].width * t->levels[l].height * 4;
    size_t in = src->image_size ? src->image_size : src->size;
    uint8_t *want = malloc(n);
    assert_non_null(want);
    kiln_error err;
    assert_int_equal(kiln_transcode_rgba8(tp->vk_format, src->data + image * in, in, src->width,
                                          src->height, want, n, &err),
                     KILN_OK);
    assert_memory_equal(t->levels[l].data + image * n, want, n);
    free(want);
}

static void block_textures_transcode_when_the_renderer_cannot_sample_them(void **state)
{
    static const char *const names[] = {"m0/BoxTextured.gltf#image0", "m1/CesiumMan.gltf#image0",
                                        "m0/CesiumLogoFlat.png#texture"};
    /* the box's PNG as a texture asset of its own, cooked as ASTC 4x4 */
    char *meta = kt_format("%s/assets/m0/CesiumLogoFlat.png.meta", g.dir);
    const char *astc = "{\"import\": {\"texture\": {\"format\": \"astc4x4\"}}}";
    kt_write_file(meta, astc, strlen(astc));
    free(meta);
    rt_reimport(g.dir);
    kiln_error err;
    krt_context *plain = plain_ctx(); /* the null renderer: the cooked blocks as they are */
    rt_recorder rec;
    krt_context *c = recording_ctx(&rec, rgba8_only);
    int blocky = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        krt_handle hp = krt_load_texture(plain, names[i], &err);
        krt_handle h = krt_load_texture(c, names[i], &err);
        krt_finish(plain);
        krt_finish(c);
        krt_texture_data tp, t;
        assert_int_equal(krt_get_texture(plain, hp, &tp, &err), KILN_OK);
        if (krt_state_of(c, h) != KRT_STATE_READY) {
            krt_error(c, h, &err);
            fail_msg("%s: %s", names[i], err.message);
        }
        assert_int_equal(krt_get_texture(c, h, &t, &err), KILN_OK);
        assert_true(rgba8_only(NULL, t.vk_format));
        assert_int_equal(rec.last_vk_format, t.vk_format); /* create_texture saw RGBA8 */
        assert_int_equal(t.srgb, tp.srgb);
        assert_int_equal(t.vk_format,
                         tp.srgb ? KILN_VK_FORMAT_R8G8B8A8_SRGB : KILN_VK_FORMAT_R8G8B8A8_UNORM);
        assert_int_equal(t.level_count, tp.level_count);
        assert_true(t.block_width == 1 && t.block_height == 1 && t.block_size == 4);
        blocky += !rgba8_only(NULL, tp.vk_format);
        if (i == 2) assert_int_equal(tp.vk_format, KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK);
        for (uint32_t l = 0; l < t.level_count; l++) {
            assert_int_equal(t.levels[l].size, (size_t)t.levels[l].width * t.levels[l].height * 4);
            expect_transcoded(&tp, &t, l, 0);
        }
        krt_release(plain, hp, &err);
        krt_release(c, h, &err);
    }
    assert_true(blocky > 0); /* the cook made block textures, so something was transcoded */
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.transcodes, (uint64_t)blocky);
    krt_finish(c);
    assert_int_equal(rec.live, 0);
    krt_get_stats(c, &st);
    assert_int_equal(st.resident_bytes, 0);
    krt_destroy(c);
    krt_destroy(plain);
    (void)state;
}

/* A BC7 cube (a .ktex of six faces) reaches a renderer that samples only RGBA8 with its shape,
 * every face of every level transcoded on its own: face f of level l equals the CPU decode of
 * that face's blocks. */
static void cube_faces_transcode_one_by_one(void **state)
{
    static const char *const faces[6] = {"px", "nx", "py", "ny", "pz", "nz"};
    for (int f = 0; f < 6; f++) {
        uint8_t px[16 * 16 * 3];
        for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(40 * f + (i % 3) * 30 + i / 97);
        char *path = kt_format("%s/assets/sky/%s.png", g.dir, faces[f]);
        char *dir = kt_format("%s/assets/sky", g.dir);
        mkdir(dir, 0755);
        kt_write_png(path, px, 16, 16, 3);
        free(path);
        free(dir);
    }
    char *ktex = kt_format("%s/assets/sky.ktex", g.dir);
    const char *doc = "{\"faces\": \"sky/\"}";
    kt_write_file(ktex, doc, strlen(doc));
    free(ktex);
    /* with its lighting: the irradiance cube's SH reach the renderer in kv_data */
    char *meta = kt_format("%s/assets/sky.ktex.meta", g.dir);
    const char *ibl = "{\"import\": {\"texture\": {\"ibl\": true}}}";
    kt_write_file(meta, ibl, strlen(ibl));
    free(meta);
    rt_reimport(g.dir);
    kiln_error err;
    krt_context *plain = plain_ctx();
    rt_recorder rec;
    krt_context *c = recording_ctx(&rec, rgba8_only);
    krt_handle hp = krt_load_texture(plain, "sky.ktex#texture", &err);
    krt_handle h = krt_load_texture(c, "sky.ktex#texture", &err);
    krt_finish(plain);
    krt_finish(c);
    krt_texture_data tp, t;
    if (krt_get_texture(plain, hp, &tp, &err) != KILN_OK) fail_msg("plain: %s", err.message);
    if (krt_get_texture(c, h, &t, &err) != KILN_OK) fail_msg("rgba8: %s", err.message);
    assert_int_equal(tp.vk_format, KILN_VK_FORMAT_BC7_SRGB_BLOCK);
    assert_int_equal(t.vk_format, KILN_VK_FORMAT_R8G8B8A8_SRGB);
    assert_int_equal(t.shape, KILN_TEXTURE_SHAPE_CUBE);
    assert_int_equal(tp.shape, KILN_TEXTURE_SHAPE_CUBE);
    assert_int_equal(t.face_count, 6);
    assert_int_equal(t.level_count, 5);
    for (uint32_t l = 0; l < t.level_count; l++) {
        size_t n = (size_t)t.levels[l].width * t.levels[l].height * 4;
        assert_int_equal(t.levels[l].image_size, n);
        assert_int_equal(t.levels[l].size, 6 * n);
        assert_int_equal(tp.levels[l].size, 6 * tp.levels[l].image_size);
        for (uint32_t f = 0; f < 6; f++) expect_transcoded(&tp, &t, l, f);
    }
    /* the faces differ: face 5 is not face 0 */
    assert_memory_not_equal(t.levels[0].data, t.levels[0].data + 5 * t.levels[0].image_size,
                            t.levels[0].image_size);
    krt_release(plain, hp, &err);
    krt_release(c, h, &err);
    krt_handle hi = krt_load_texture(c, "sky.ktex#irradiance", &err);
    krt_finish(c);
    krt_texture_data ti;
    if (krt_get_texture(c, hi, &ti, &err) != KILN_OK) fail_msg("irradiance: %s", err.message);
    assert_int_equal(ti.shape, KILN_TEXTURE_SHAPE_CUBE);
    const uint8_t *sh;
    size_t sh_len = 0;
    assert_true(kiln_ktx2_kv_find(ti.kv_data, ti.kv_size, "kiln.sh9", &sh, &sh_len));
    assert_int_equal(sh_len, 9 * 3 * sizeof(float));
    for (int ch = 0; ch < 3; ch++) { /* the constant band of a lit environment is positive */
        float v;
        memcpy(&v, sh + ch * sizeof v, sizeof v);
        assert_true(v > 0.0f && v < 100.0f);
    }
    assert_false(kiln_ktx2_kv_find(ti.kv_data, ti.kv_size, "kiln.sh", &sh, &sh_len));
    krt_release(c, hi, &err);
    krt_finish(c);
    krt_destroy(c);
    krt_destroy(plain);
    (void)state;
}

/* A renderer that samples RGBA8 and RGBA16F but no HDR block or packed format. */
static bool no_hdr_blocks(void *user, uint32_t f)
{
    return rgba8_only(user, f) || f == KILN_VK_FORMAT_R16G16B16A16_SFLOAT;
}

/* The corpus sky cooked to BC6H, RGB9E5 and B10G11R11 reaches such a renderer as RGBA16F: every
 * level equal to kiln_transcode_rgba16f of the cooked one. */
static void hdr_textures_transcode_to_rgba16f_when_the_renderer_cannot_sample_them(void **state)
{
    (void)state;
    char *src = kt_corpus_path("images/hdr/hdr-rgb-00.hdr");
    if (!src) skip();
    size_t size;
    void *bytes = kt_read_file(src, &size);
    assert_non_null(bytes);
    static const char *const fmts[3] = {"bc6h", "rgb9e5", "b10g11r11"};
    static const uint32_t vks[3] = {KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK,
                                    KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32,
                                    KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32};
    for (int k = 0; k < 3; k++) {
        char *img = kt_format("%s/assets/m0/sky_%s.hdr", g.dir, fmts[k]);
        kt_write_file(img, bytes, size);
        char *meta = kt_format("%s.meta", img);
        char *json = kt_format("{\"import\": {\"texture\": {\"format\": \"%s\"}}}", fmts[k]);
        kt_write_file(meta, json, strlen(json));
        free(img);
        free(meta);
        free(json);
    }
    free(bytes);
    free(src);
    rt_reimport(g.dir);
    kiln_error err;
    krt_context *plain = plain_ctx();
    rt_recorder rec;
    krt_context *c = recording_ctx(&rec, no_hdr_blocks);
    for (int k = 0; k < 3; k++) {
        char *name = kt_format("m0/sky_%s.hdr#texture", fmts[k]);
        krt_handle hp = krt_load_texture(plain, name, &err);
        krt_handle h = krt_load_texture(c, name, &err);
        krt_finish(plain);
        krt_finish(c);
        krt_texture_data tp, t;
        assert_int_equal(krt_get_texture(plain, hp, &tp, &err), KILN_OK);
        if (krt_state_of(c, h) != KRT_STATE_READY) {
            krt_error(c, h, &err);
            fail_msg("%s: %s", name, err.message);
        }
        assert_int_equal(krt_get_texture(c, h, &t, &err), KILN_OK);
        assert_int_equal(tp.vk_format, vks[k]);
        assert_int_equal(t.vk_format, KILN_VK_FORMAT_R16G16B16A16_SFLOAT);
        assert_int_equal(rec.last_vk_format, t.vk_format);
        assert_int_equal(t.level_count, tp.level_count);
        assert_true(t.block_width == 1 && t.block_height == 1 && t.block_size == 8);
        for (uint32_t l = 0; l < t.level_count; l++) {
            size_t n = (size_t)t.levels[l].width * t.levels[l].height * 8;
            assert_int_equal(t.levels[l].size, n);
            uint8_t *want = malloc(n);
            assert_int_equal(kiln_transcode_rgba16f(tp.vk_format, tp.levels[l].data,
                                                    tp.levels[l].size, tp.levels[l].width,
                                                    tp.levels[l].height, want, n, &err),
                             KILN_OK);
            assert_memory_equal(t.levels[l].data, want, n);
            free(want);
        }
        krt_release(plain, hp, &err);
        krt_release(c, h, &err);
        free(name);
    }
    krt_finish(c);
    krt_destroy(c);
    krt_destroy(plain);
}

/* A fallback whose create fails is created again at the next krt_update, each update until it
 * works: the recorder fails the first three creates (the fallback texture, then the material,
 * then the texture again). The material made before the texture is rebuilt with it: through
 * replace_material, or (without one) made again and the old object destroyed. */
static void a_failed_fallback_is_created_again_at_the_next_update(void **state)
{
    for (int with_replace = 1; with_replace >= 0; with_replace--) {
        rt_recorder rec;
        rt_recorder_init(&rec);
        rec.fail_creates = 3;
        krt_desc d;
        memset(&d, 0, sizeof d);
        d.renderer = rt_recorder_renderer(&rec);
        if (!with_replace) d.renderer.replace_material = NULL;
        d.fallbacks = true;
        krt_context *c = make_ctx(&d);
        kiln_error err;
        krt_handle tex = krt_load_id(c, KRT_TYPE_TEXTURE, 0x1234, &err); /* failed: not mounted */
        krt_handle mat = krt_load_id(c, KRT_TYPE_MATERIAL, 0x1235, &err);
        assert_int_equal(krt_state_of(c, tex), KRT_STATE_FAILED);
        assert_int_equal(krt_state_of(c, mat), KRT_STATE_FAILED);
        void *fallback = (void *)(uintptr_t)1; /* the recorder's object for the 0 handle */

        krt_update(c); /* the texture's create fails, then the material's */
        assert_int_equal(rec.fail_creates, 1);
        assert_null(krt_gpu(c, tex));
        assert_null(krt_gpu(c, mat));
        krt_update(c); /* the texture's fails again; the material is made without it */
        assert_int_equal(rec.fail_creates, 0);
        assert_null(krt_gpu(c, tex));
        assert_ptr_equal(krt_gpu(c, mat), fallback);
        assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], 1);
        assert_null(rec.last_base_gpu);
        krt_update(c); /* the texture at last, and the material with it */
        assert_ptr_equal(krt_gpu(c, tex), fallback);
        assert_ptr_equal(krt_gpu(c, mat), fallback);
        assert_int_equal(rec.creates[KRT_TYPE_TEXTURE], 1);
        assert_ptr_equal(rec.last_base_gpu, fallback);
        assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], with_replace ? 1 : 0);
        assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], with_replace ? 1 : 2);
        assert_int_equal(rec.destroys[KRT_TYPE_MATERIAL], with_replace ? 0 : 1);
        assert_int_equal(rec.live, 2);
        for (int i = 0; i < 3; i++) krt_update(c); /* made: not again */
        assert_int_equal(rec.creates[KRT_TYPE_TEXTURE], 1);
        assert_int_equal(rec.creates[KRT_TYPE_MATERIAL], with_replace ? 1 : 2);
        assert_int_equal(rec.replaces[KRT_TYPE_MATERIAL], with_replace ? 1 : 0);
        krt_release(c, tex, &err);
        krt_release(c, mat, &err);
        krt_destroy(c);
        assert_int_equal(rec.live, 0);
    }
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_material_table_follows_materials),
        cmocka_unit_test(fallbacks_stand_in_until_assets_are_ready),
        cmocka_unit_test(a_failed_fallback_is_created_again_at_the_next_update),
        cmocka_unit_test(block_textures_transcode_when_the_renderer_cannot_sample_them),
        cmocka_unit_test(cube_faces_transcode_one_by_one),
        cmocka_unit_test(hdr_textures_transcode_to_rgba16f_when_the_renderer_cannot_sample_them),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
