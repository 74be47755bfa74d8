/* test_mesh_error_corpus.c — the error stored for every level of detail holds: every primitive of
 * every corpus glTF model that imports, cooked with the default settings (kiln_mesh_build), has
 * for each level l >= 1 a stored error_absolute that is (a) at least the distance this test
 * measures itself between level l and level 0 (bd_hausdorff: dense samples of both surfaces,
 * exact distances in a grid; brute_distance.c shares no code with src/process/mesh_error*.c),
 * over the cooked (unquantized) positions, and (b) at most lod_error x extent, and the stored
 * errors never decrease along the chain. Prints the stored / measured ratio of every level. Under
 * sanitizers, fewer samples. Skips (77) when the corpus is absent. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute_distance.h"
#include "process/mesh.h"

static void every_corpus_level_error_bounds_the_measured_deviation(void **state)
{
    (void)state;
    kt_require_corpus();
    const char *san = getenv("KILN_TEST_SANITIZED");
    size_t samples = san && san[0] == '1' ? 3000 : 20000;
    char *root = kt_corpus_path("gltf");
    size_t count;
    char **paths = kt_gltf_files(root, &count);
    kiln_mesh_build_opts o;
    kiln_mesh_build_opts_default(&o);
    size_t models = 0, levels = 0;
    double worst = INFINITY, best = 0, sum = 0;
    for (size_t i = 0; i < count; i++) {
        kiln_scene *s = NULL;
        kiln_error err;
        kiln_scene_opts so = {sizeof so, KILN_SCENE_LOAD_NO_PIXELS, 0, {0}};
        if (kiln_scene_load(paths[i], &so, &s, &err) != KILN_OK) continue;
        models++;
        const char *name = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
        for (uint32_t m = 0; m < s->mesh_count; m++)
            for (uint32_t pi = 0; pi < s->meshes[m].primitive_count; pi++) {
                const kiln_scene_primitive *p = &s->meshes[m].primitives[pi];
                /* Under sanitizers (memory errors, not geometry) the largest primitives are left
                 * to the plain build: their cook is minutes there. */
                if (san && san[0] == '1' && p->index_count / 3 > 20000) continue;
                o.morph_weights = s->meshes[m].weights;
                o.morph_weight_count = s->meshes[m].weight_count;
                kiln_cooked_mesh c;
                assert_int_equal(kiln_mesh_build(p, &o, NULL, &c, &err), KILN_OK);
                const uint32_t *l0 = c.indices + c.levels[0].index_offset;
                for (uint32_t l = 1; l < c.level_count; l++) {
                    const kiln_mesh_lod *lv = &c.levels[l];
                    double measured = bd_hausdorff(c.positions, l0, c.levels[0].index_count,
                                                   c.indices + lv->index_offset, lv->index_count,
                                                   samples, 77u + l);
                    double stored = lv->error_absolute;
                    double ratio = measured > 0 ? stored / measured : INFINITY;
                    print_message("%-32s mesh %u prim %u level %u: %7u triangles, stored %.6g "
                                  "(%.4f %% of extent), measured %.6g, ratio %.3f\n",
                                  name, m, pi, l, lv->index_count / 3, stored, 100.0 * lv->error,
                                  measured, ratio);
                    assert_true(stored >= measured);
                    assert_true(stored <= (double)o.lod_error * c.extent * (1 + 1e-6));
                    assert_true(lv->error_absolute >= c.levels[l - 1].error_absolute);
                    if (measured > 1e-6 * c.extent) {
                        if (ratio < worst) worst = ratio;
                        if (ratio > best) best = ratio;
                        sum += ratio;
                        levels++;
                    }
                }
                kiln_cooked_mesh_free(&c);
            }
        kiln_scene_free(s);
    }
    print_message("%zu models, %zu levels with a measurable deviation: stored / measured %.3f "
                  "at least, %.3f on average, %.3f at most\n",
                  models, levels, worst, levels ? sum / (double)levels : 0.0, best);
    assert_true(models >= 40);
    kt_paths_free(paths, count);
    free(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_corpus_level_error_bounds_the_measured_deviation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
