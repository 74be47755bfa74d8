/* test_runtime_typed_material.c — typed materials (container TMAT, a cooked .kmat) as the
 * built-in runtime type KRT_TYPE_TYPED_MATERIAL, on a project cooked by libkiln from the
 * repository's test shaders (tests/shaders: pbr_forward.vert and .frag with their includes and
 * variants), five PNG textures and two .kmat documents (one deriving from the other). Checks that
 * a material loads with its two shaders and its textures, that the renderer gets the variants it
 * names and every object, that its parameter block is in the material block table at an aligned
 * offset with exactly the cooked bytes (zeroed and reused on release), and hot reload with the
 * recording renderer: a shader's reload (an edit of an include) rebuilds the materials drawing
 * with it through replace_typed_material with the new shader object and words; a material's own
 * edit reloads it and its instance and rewrites their blocks in place; a texture's reload rebuilds
 * them too. A material naming a variant its shader lacks fails with the variant's name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_rt.h"
#include "rt_fixture.h"
#include "support.h"
#include "write/typed_material_write.h"

#define PAINTED     "materials/painted.kmat#typed_material"
#define PAINTED_RED "materials/painted_red.kmat#typed_material"
#define FRAG        "shaders/pbr_forward.frag#shader"

static char *g_dir, *g_cache;

static void write_text(const char *path, const char *text)
{
    kt_write_file(path, text, strlen(text));
}

static void write_png(const char *name, uint32_t size, uint8_t shade)
{
    uint8_t *px = malloc((size_t)size * size * 3);
    assert_non_null(px);
    for (size_t i = 0; i < (size_t)size * size * 3; i++) px[i] = (uint8_t)(shade + i % 7);
    char *path = kt_format("%s/assets/textures/%s.png", g_dir, name);
    kt_write_png(path, px, size, size, 3);
    free(path);
    free(px);
}

static const char *const painted_kmat =
    "{\"vertex\": \"/shaders/pbr_forward.vert\",\n"
    " \"fragment\": {\"shader\": \"../shaders/pbr_forward.frag\", \"variant\": \"normal_map\"},\n"
    " \"parameters\": {\"base_color_factor\": [0.8, 0.6, 0.4, 1.0], \"metallic_factor\": %s,\n"
    "                \"roughness_factor\": 0.5, \"normal_scale\": 1.5,\n"
    "                \"occlusion_strength\": 1, \"alpha_cutoff\": 0.5,\n"
    "                \"emissive_factor\": [0, 0, 0], \"emissive_strength\": 1},\n"
    " \"textures\": {\"base_color_texture\": \"/textures/base.png\",\n"
    "              \"metallic_roughness_texture\": \"/textures/mr.png\",\n"
    "              \"normal_texture\": \"/textures/normal.png\",\n"
    "              \"occlusion_texture\": \"/textures/mr.png\",\n"
    "              \"emissive_texture\": \"/textures/emissive.png\"}}\n";

static void write_painted(const char *metallic)
{
    char *path = kt_format("%s/assets/materials/painted.kmat", g_dir);
    char *text = kt_format(painted_kmat, metallic);
    write_text(path, text);
    free(text);
    free(path);
}

/* A fresh project per test: each one edits sources. */
static int setup(void **state)
{
    (void)state;
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    g_dir = kt_tempdir("rt_typed_material");
    char *cmd = kt_format("mkdir -p '%s/assets/shaders/include' '%s/assets/textures' "
                          "'%s/assets/materials' && cp '%s'/tests/shaders/pbr_forward.* "
                          "'%s/assets/shaders/' && cp '%s'/tests/shaders/include/*.glsl "
                          "'%s/assets/shaders/include/' && chmod -R u+w '%s/assets'",
                          g_dir, g_dir, g_dir, src, g_dir, src, g_dir, g_dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    char *meta = kt_format("%s/assets/shaders/folder.meta", g_dir);
    write_text(meta, "{\"shader\": {\"include_dirs\": [\"shaders/include\"]}}");
    free(meta);
    write_png("base", 8, 10);
    write_png("mr", 8, 60);
    write_png("normal", 8, 120);
    write_png("emissive", 8, 200);
    write_painted("0.25");
    char *red = kt_format("%s/assets/materials/painted_red.kmat", g_dir);
    write_text(red, "{\"parent\": \"painted.kmat\", \"parameters\": {\"base_color_factor\": "
                    "[1, 0, 0, 1]}, \"render_state\": {\"double_sided\": true}}");
    free(red);
    rt_reimport(g_dir);
    g_cache = kt_format("%s/.kiln/cache", g_dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kt_rmtree(g_dir);
    free(g_dir);
    free(g_cache);
    return 0;
}

static krt_context *open_context(rt_recorder *rec)
{
    rt_recorder_init(rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    d.renderer = rt_recorder_renderer(rec);
    d.renderer_shaders = rt_recorder_shaders();
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g_cache, NULL, &err), KILN_OK);
    return c;
}

static krt_typed_material_data get(krt_context *c, krt_handle h)
{
    krt_typed_material_data d;
    kiln_error err;
    assert_int_equal(krt_get_typed_material(c, h, &d, &err), KILN_OK);
    return d;
}

/* The material's block is in the table at an aligned offset, byte for byte. */
static uint32_t assert_block_in_table(krt_context *c, krt_handle h)
{
    krt_typed_material_data d = get(c, h);
    const kiln_typed_material *m = &d.view->material;
    assert_true(m->block_size > 0);
    uint32_t off, size;
    assert_true(krt_material_block(c, h, &off, &size));
    assert_int_equal(size, m->block_size);
    assert_int_equal(off % KRT_MATERIAL_BLOCK_ALIGN, 0);
    const uint8_t *bytes;
    size_t total;
    krt_material_blocks(c, &bytes, &total, NULL);
    assert_true((size_t)off + size <= total);
    assert_memory_equal(bytes + off, m->block, size);
    return off;
}

static float block_float(krt_context *c, krt_handle h, uint32_t at)
{
    uint32_t off;
    assert_true(krt_material_block(c, h, &off, NULL));
    const uint8_t *bytes;
    krt_material_blocks(c, &bytes, NULL, NULL);
    float f;
    memcpy(&f, bytes + off + at, sizeof f);
    return f;
}

static void a_material_loads_with_its_shaders_textures_and_block(void **state)
{
    (void)state;
    rt_recorder rec;
    krt_context *c = open_context(&rec);
    krt_handle h = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED);
    assert_int_equal(krt_handle_type(h), KRT_TYPE_TYPED_MATERIAL);
    krt_typed_material_data d = get(c, h);
    const kiln_typed_material *m = &d.view->material;
    assert_int_equal(krt_handle_type(d.vertex), KRT_TYPE_SHADER);
    assert_int_equal(krt_handle_type(d.fragment), KRT_TYPE_SHADER);
    kiln_error err;
    krt_shader_data fs;
    assert_int_equal(krt_get_shader(c, d.fragment, &fs, &err), KILN_OK);
    assert_int_equal(fs.view->stage, KILN_SHADER_FRAGMENT);
    int32_t k = kiln_shader_find_variant(fs.view, "normal_map");
    assert_true(k >= 0);
    assert_ptr_equal(d.fragment_variant, &fs.variants[k]);
    assert_string_equal(d.vertex_variant->name, "skinned"); /* no variant named: the first */
    assert_ptr_equal(d.vertex_gpu, krt_gpu(c, d.vertex));
    assert_ptr_equal(d.fragment_gpu, krt_gpu(c, d.fragment));
    /* five bindings, four distinct images (mr.png twice): the same handle at both */
    assert_int_equal(d.texture_count, 5);
    assert_int_equal(rec.creates[KRT_TYPE_TEXTURE], 4);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], 2);
    assert_int_equal(rec.creates[KRT_TYPE_TYPED_MATERIAL], 1);
    krt_handle mr = {0}, normal = {0};
    for (uint32_t i = 0; i < d.texture_count; i++) {
        kiln_typed_material_texture t = kiln_typed_material_texture_at(d.view, i);
        assert_int_equal(krt_asset_id(c, d.textures[i]), t.image);
        assert_ptr_equal(d.texture_gpu[i], krt_gpu(c, d.textures[i]));
        if (strcmp(t.name, "metallic_roughness_texture") == 0) mr = d.textures[i];
        if (strcmp(t.name, "occlusion_texture") == 0) assert_int_equal(d.textures[i].id, mr.id);
        if (strcmp(t.name, "normal_texture") == 0) normal = d.textures[i];
    }
    assert_true(mr.id && normal.id);
    /* the binding's texture is the standalone texture asset of that name */
    krt_handle n = krt_load_texture(c, "textures/normal.png#texture", &err);
    assert_int_equal(n.id, normal.id);
    assert_int_equal(krt_release(c, n, &err), KILN_OK);
    assert_int_equal(m->block_size, 52); /* 2 vec4 + 5 floats (std140) */
    uint32_t off = assert_block_in_table(c, h);

    /* the instance: its own block (red), the same shaders and textures, another offset */
    krt_handle red = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED_RED);
    krt_typed_material_data dr = get(c, red);
    assert_int_equal(dr.fragment.id, d.fragment.id);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], 2);
    assert_int_equal(rec.creates[KRT_TYPE_TEXTURE], 4);
    assert_true(dr.view->material.flags & KILN_TYPED_MATERIAL_DOUBLE_SIDED);
    assert_false(m->flags & KILN_TYPED_MATERIAL_DOUBLE_SIDED);
    uint32_t off_red = assert_block_in_table(c, red);
    assert_int_not_equal(off_red, off);
    assert_true(block_float(c, red, 0) == 1.0f && block_float(c, h, 0) == 0.8f);

    /* release: destroyed, its block zeroed; a new load takes the slot again */
    uint64_t gen0, gen1;
    krt_material_blocks(c, NULL, NULL, &gen0);
    assert_int_equal(krt_release(c, red, &err), KILN_OK);
    krt_update(c);
    assert_int_equal(rec.destroys[KRT_TYPE_TYPED_MATERIAL], 1);
    assert_false(krt_material_block(c, red, NULL, NULL));
    const uint8_t *bytes;
    krt_material_blocks(c, &bytes, NULL, &gen1);
    assert_true(gen1 != gen0);
    for (uint32_t i = 0; i < KRT_MATERIAL_BLOCK_ALIGN; i++) assert_int_equal(bytes[off_red + i], 0);
    red = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED_RED);
    assert_int_equal(assert_block_in_table(c, red), off_red);
    assert_int_equal(assert_block_in_table(c, h), off);
    assert_int_equal(krt_release(c, red, &err), KILN_OK);
    assert_int_equal(krt_release(c, h, &err), KILN_OK);
    krt_destroy(c);
    assert_int_equal(rec.live, 0);
}

/* Replaces text `from` with `to` in a source of the project. */
static void edit(const char *rel, const char *from, const char *to)
{
    char *path = kt_format("%s/assets/%s", g_dir, rel);
    size_t size;
    char *text = kt_read_file(path, &size);
    assert_non_null(text);
    char *at = strstr(text, from);
    assert_non_null(at);
    char *out = kt_format("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    write_text(path, out);
    free(out);
    free(text);
    free(path);
}

static size_t poll_and_finish(krt_context *c)
{
    size_t n = 0;
    kiln_error err;
    assert_int_equal(krt_poll_changes(c, &n, &err), KILN_OK);
    krt_finish(c);
    return n;
}

static void a_shader_reload_rebuilds_the_materials_that_draw_with_it(void **state)
{
    (void)state;
    rt_recorder rec;
    krt_context *c = open_context(&rec);
    krt_handle h = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED);
    krt_handle red = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED_RED);
    krt_typed_material_data d = get(c, h);
    void *frag_gpu = d.fragment_gpu, *vert_gpu = d.vertex_gpu;
    size_t old_count = d.fragment_variant->word_count;
    uint32_t *old_words = malloc(old_count * 4);
    assert_non_null(old_words);
    memcpy(old_words, d.fragment_variant->words, old_count * 4);
    uint32_t off = assert_block_in_table(c, h);

    /* a constant of the BRDF include: new SPIR-V for the fragment shader, the same block */
    edit("shaders/include/kiln_pbr.glsl", "max(gv + gl, 1e-5)", "max(gv + gl, 2e-5)");
    rt_reimport(g_dir);
    assert_int_equal(poll_and_finish(c), 1); /* the fragment shader alone has other bytes */
    assert_int_equal(rec.replaces[KRT_TYPE_SHADER], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_TYPED_MATERIAL], 2); /* both materials rebuilt */
    assert_int_equal(rec.creates[KRT_TYPE_TYPED_MATERIAL], 2);
    kiln_error err;
    assert_int_equal(krt_reload_error(c, h, &err), KILN_OK);
    d = get(c, h);
    assert_ptr_equal(d.fragment_gpu, (void *)((uintptr_t)frag_gpu + 2)); /* the new object */
    assert_ptr_equal(d.fragment_gpu, krt_gpu(c, d.fragment));
    assert_ptr_equal(d.vertex_gpu, vert_gpu);
    assert_ptr_equal(rec.tm_fragment_gpu, d.fragment_gpu); /* what the rebuild got */
    assert_ptr_equal(rec.tm_fragment_words, d.fragment_variant->words);
    krt_shader_data fs;
    assert_int_equal(krt_get_shader(c, d.fragment, &fs, &err), KILN_OK);
    assert_ptr_equal(d.fragment_variant,
                     &fs.variants[kiln_shader_find_variant(fs.view, "normal_map")]);
    /* the words the rebuild got are the edited module's */
    assert_true(d.fragment_variant->word_count != old_count ||
                memcmp(d.fragment_variant->words, old_words, old_count * 4) != 0);
    free(old_words);
    assert_int_equal(assert_block_in_table(c, h), off);

    /* the material's own edit: it and its instance reload, blocks rewritten at their offsets */
    uint32_t off_red = assert_block_in_table(c, red);
    uint64_t gen0, gen1;
    krt_material_blocks(c, NULL, NULL, &gen0);
    write_painted("0.75");
    rt_reimport(g_dir);
    assert_int_equal(poll_and_finish(c), 2);
    assert_int_equal(rec.replaces[KRT_TYPE_TYPED_MATERIAL], 4);
    krt_material_blocks(c, NULL, NULL, &gen1);
    assert_true(gen1 != gen0);
    assert_int_equal(assert_block_in_table(c, h), off);
    assert_int_equal(assert_block_in_table(c, red), off_red);
    int found = 0;
    for (uint32_t at = 0; at + 4 <= get(c, red).view->material.block_size; at += 4)
        found += block_float(c, red, at) == 0.75f;
    assert_int_equal(found, 1); /* the instance took its parent's new metallic factor */

    /* a texture's reload rebuilds both */
    int before = rec.replaces[KRT_TYPE_TYPED_MATERIAL];
    write_png("normal", 16, 90);
    rt_reimport(g_dir);
    assert_int_equal(poll_and_finish(c), 1);
    assert_int_equal(rec.replaces[KRT_TYPE_TEXTURE], 1);
    assert_int_equal(rec.replaces[KRT_TYPE_TYPED_MATERIAL], before + 2);
    assert_int_equal(krt_release(c, red, &err), KILN_OK);
    assert_int_equal(krt_release(c, h, &err), KILN_OK);
    krt_destroy(c);
    assert_int_equal(rec.live, 0);
}

/* A typed material written by hand against the cooked shaders, naming a fragment variant the
 * shader does not have: the load fails and says which. */
static void a_variant_the_shader_lacks_fails_the_load(void **state)
{
    (void)state;
    rt_recorder rec;
    krt_context *c = open_context(&rec);
    kiln_error err;
    krt_handle good = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED);
    krt_typed_material_data d = get(c, good);
    kiln_typed_material m = d.view->material;
    kiln_typed_material_texture tex[8];
    for (uint32_t i = 0; i < m.texture_count && i < 8; i++)
        tex[i] = kiln_typed_material_texture_at(d.view, i);
    m.textures = tex;
    m.fragment.variant = "no_such_variant";
    uint8_t *bytes = NULL;
    size_t size = 0;
    assert_int_equal(kiln_typed_material_write(&m, NULL, &bytes, &size, &err), KILN_OK);
    rt_write_artifact(g_cache, "7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a", "materials/handmade.kmat",
                      "typed_material", bytes, size);
    free(bytes);
    assert_int_equal(krt_poll_changes(c, NULL, &err), KILN_OK);
    krt_handle bad = krt_load_typed_material(c, "materials/handmade.kmat#typed_material", &err);
    assert_true(bad.id != 0);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, bad), KRT_STATE_FAILED);
    assert_int_equal(krt_error(c, bad, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "no fragment variant \"no_such_variant\""));
    assert_false(krt_material_block(c, bad, NULL, NULL));
    assert_int_equal(rec.creates[KRT_TYPE_TYPED_MATERIAL], 1);
    assert_int_equal(krt_release(c, bad, &err), KILN_OK);
    assert_int_equal(krt_release(c, good, &err), KILN_OK);
    krt_destroy(c);
    assert_int_equal(rec.live, 0);
}

/* Without renderer callbacks: CPU data and the block table still work. */
static void the_null_renderer_keeps_cpu_data_and_blocks(void **state)
{
    (void)state;
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(NULL, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g_cache, NULL, &err), KILN_OK);
    krt_handle h = rt_load_ready(c, KRT_TYPE_TYPED_MATERIAL, PAINTED);
    krt_typed_material_data d = get(c, h);
    assert_null(d.fragment_gpu);
    assert_null(krt_gpu(c, h));
    assert_non_null(d.fragment_variant);
    assert_block_in_table(c, h);
    /* another type's handle has no block */
    assert_false(krt_material_block(c, d.fragment, NULL, NULL));
    assert_int_equal(krt_release(c, h, &err), KILN_OK);
    krt_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_material_loads_with_its_shaders_textures_and_block, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_shader_reload_rebuilds_the_materials_that_draw_with_it,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(a_variant_the_shader_lacks_fails_the_load, setup, teardown),
        cmocka_unit_test_setup_teardown(the_null_renderer_keeps_cpu_data_and_blocks, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
