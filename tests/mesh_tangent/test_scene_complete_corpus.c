/* test_scene_complete_corpus.c — kiln_scene_complete on scenes the glTF importer loads from the
 * third-party corpus: on NormalTangentMirrorTest with its TANGENT stream taken away, the
 * completed tangents agree with the shipped ones; on every model that imports, completion
 * leaves every primitive with finite unit normals, finite tangents where a normal texture
 * needs them, the UV sets its textures read, and indices in range. Skips (77) when the corpus
 * is absent. */
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/scene_build.h"
#include "process/scene_complete.h"

static const uint32_t fast_flags = KILN_SCENE_LOAD_NO_PIXELS;

static kiln_scene *load(const char *path, uint32_t flags)
{
    kiln_scene *s = NULL;
    kiln_error err;
    kiln_scene_opts opts = {sizeof opts, flags, 0, {0}};
    kiln_result r = kiln_scene_load(path, &opts, &s, &err);
    if (r != KILN_OK) {
        print_message("%s: %s (%s)\n", path, kiln_result_name(r), err.message);
        return NULL;
    }
    return s;
}

static void completed_tangents_match_the_shipped_ones(void **state)
{
    (void)state;
    char *path = kt_corpus_path("gltf/NormalTangentMirrorTest/glTF/NormalTangentMirrorTest.gltf");
    kiln_scene *s = load(path, fast_flags);
    assert_non_null(s);
    size_t corners = 0, agree = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++) {
            kiln_scene_primitive *prim = kiln_scene_prim_mut(s, m, p);
            assert_non_null(prim->tangents);
            const float *shipped = prim->tangents; /* stays in the arena */
            const uint32_t *old_idx = prim->indices;
            prim->tangents = NULL;
            prim->flags &= ~(uint32_t)KILN_SCENE_PRIM_TANGENTS_GENERATED;
            kiln_error err;
            assert_int_equal(kiln_scene_complete(s, 0, &err), KILN_OK);
            assert_true(prim->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED);
            for (uint32_t c = 0; c < prim->index_count; c++) {
                const float *t = &prim->tangents[(size_t)prim->indices[c] * 4];
                const float *r = &shipped[(size_t)old_idx[c] * 4];
                double d = (double)t[0] * r[0] + (double)t[1] * r[1] + (double)t[2] * r[2];
                double lr = sqrt((double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2]);
                corners++;
                if (d / lr > cos(5.0 * M_PI / 180.0) && (t[3] > 0) == (r[3] > 0)) agree++;
            }
        }
    print_message("NormalTangentMirrorTest through kiln_scene_load: %zu of %zu corners within 5 "
                  "degrees and of the same sign\n",
                  agree, corners);
    assert_true(corners > 0 && agree >= corners * 99 / 100);
    kiln_scene_free(s);
    free(path);
}

static void check_finite(const float *v, size_t n, const char *what, const char *rel)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) fail_msg("%s: %s[%zu] is not finite", rel, what, i);
}

static void every_model_completes(void **state)
{
    (void)state;
    char *root = kt_corpus_path("gltf");
    size_t count;
    char **paths = kt_gltf_files(root, &count);
    size_t models = 0, prims = 0, normals = 0, tangents = 0, filled = 0;
    for (size_t i = 0; i < count; i++) {
        const char *rel = paths[i] + strlen(root) + 1;
        kiln_scene *s = load(paths[i], fast_flags);
        if (!s) continue; /* the deliberately broken samples; tests/gltf checks their errors */
        kiln_error err;
        kiln_result r = kiln_scene_complete(s, 0, &err);
        if (r != KILN_OK) fail_msg("%s: %s", rel, err.message);
        models++;
        for (uint32_t m = 0; m < s->mesh_count; m++)
            for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++) {
                const kiln_scene_primitive *prim = &s->meshes[m].primitives[p];
                prims++;
                assert_non_null(prim->normals);
                check_finite(prim->normals, (size_t)prim->vertex_count * 3, "normals", rel);
                for (uint32_t v = 0; v < prim->vertex_count; v++) {
                    const float *n = &prim->normals[(size_t)v * 3];
                    double len =
                        sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
                    if (fabs(len - 1.0) > 1e-3)
                        fail_msg("%s: normal %u has length %g", rel, v, len);
                }
                for (uint32_t c = 0; c < prim->index_count; c++)
                    assert_true(prim->indices[c] < prim->vertex_count);
                if (prim->flags & KILN_SCENE_PRIM_NORMALS_GENERATED) normals++;
                if (prim->flags & KILN_SCENE_PRIM_UV0_FILLED) filled++;
                const kiln_scene_material *mat =
                    prim->material >= 0 ? &s->materials[prim->material] : NULL;
                for (int k = 0; mat && k < KILN_SCENE_SLOT_COUNT; k++)
                    if (mat->textures[k].texture >= 0 &&
                        mat->textures[k].texcoord < KILN_SCENE_MAX_UV_SETS)
                        assert_true(mat->textures[k].texcoord < prim->texcoord_count);
                if (mat && mat->textures[KILN_SCENE_SLOT_NORMAL].texture >= 0) {
                    assert_non_null(prim->tangents);
                    check_finite(prim->tangents, (size_t)prim->vertex_count * 4, "tangents", rel);
                    for (uint32_t v = 0; v < prim->vertex_count; v++) {
                        float tw = prim->tangents[(size_t)v * 4 + 3];
                        if (prim->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED)
                            assert_true(tw == 1.0f || tw == -1.0f);
                    }
                }
                if (prim->flags & KILN_SCENE_PRIM_TANGENTS_GENERATED) tangents++;
            }
        /* A second pass finds nothing left to do. */
        uint32_t vc_before = 0, vc_after = 0;
        for (uint32_t m = 0; m < s->mesh_count; m++)
            for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++)
                vc_before += s->meshes[m].primitives[p].vertex_count;
        uint32_t warnings = s->warning_count;
        assert_int_equal(kiln_scene_complete(s, 0, &err), KILN_OK);
        for (uint32_t m = 0; m < s->mesh_count; m++)
            for (uint32_t p = 0; p < s->meshes[m].primitive_count; p++)
                vc_after += s->meshes[m].primitives[p].vertex_count;
        assert_int_equal(vc_before, vc_after);
        assert_int_equal(warnings, s->warning_count);
        kiln_scene_free(s);
    }
    print_message("%zu models, %zu primitives completed: %zu with normals computed, %zu with "
                  "tangents generated, %zu with UV sets zero-filled\n",
                  models, prims, normals, tangents, filled);
    assert_true(models >= 60);
    assert_true(tangents > 0 && normals > 0);
    kt_paths_free(paths, count);
    free(root);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(completed_tangents_match_the_shipped_ones),
        cmocka_unit_test(every_model_completes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
