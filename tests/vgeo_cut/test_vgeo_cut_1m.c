/* test_vgeo_cut_1m.c — the crack and coverage tests on the size issue 23 names: the DAG of a
 * generated displaced sphere of 1,000,000 triangles with a UV seam (vgeo_mesh.c), built on a
 * 2-thread pool, walked (links, monotonic errors and spheres, every group's border kept), and cut
 * from 8 random cameras at six pixel errors (vgeo_check.c). Plain builds only: under sanitizers
 * it skips (77), as it looks for geometry, not memory errors, and the smaller meshes of vgeo_cut
 * run there. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/jobs.h"
#include "process/vgeo.h"
#include "vgeo_check.h"
#include "vgeo_mesh.h"

static void million_triangles_cut_without_cracks(void **state)
{
    (void)state;
    vm_mesh m = vm_displaced_sphere(1000, 501);
    assert_int_equal(m.index_count / 3, 1000000);
    kiln_jobs *pool = NULL;
    assert_int_equal(kiln_jobs_create(2, NULL, &pool, NULL), KILN_OK);
    kiln_vgeo_build_opts o = {0, 0, pool};
    kiln_cooked_vgeo v;
    kiln_error err;
    assert_int_equal(
        kiln_vgeo_build(m.positions, m.vertex_count, m.indices, m.index_count, &o, NULL, &v, &err),
        KILN_OK);
    kiln_vgeo_view view;
    uint8_t *file = vc_write_read(&v, &view);
    vc_source s;
    vc_source_init(&s, m.positions, m.vertex_count, m.indices, m.index_count);
    size_t links = vc_check_dag(&view, &s);
    float center[3] = {0, 0, 0};
    size_t cuts = vc_check_cameras(&view, &s, center, 1.1f, 8, 0x1234567u);
    size_t roots = 0, root_tris = 0;
    for (uint32_t i = 0; i < v.cluster_count; i++)
        if (v.links[i].group == KILN_VGEO_NONE) roots++, root_tris += v.clusters[i].triangle_count;
    print_message("1,000,000 triangles: %u levels, %u groups, %u clusters, %zu roots (%zu "
                  "triangles); %zu links walked, %zu cuts checked\n",
                  v.level_count, v.group_count, v.cluster_count, roots, root_tris, links, cuts);
    assert_true(root_tris * 100 <= m.index_count / 3 * 5);
    vc_source_free(&s);
    kiln_cooked_vgeo_free(&v);
    free(file);
    kiln_jobs_destroy(pool);
    vm_free(&m);
}

int main(void)
{
    const char *san = getenv("KILN_TEST_SANITIZED");
    if (san && san[0] == '1') {
        printf("SKIP: the 1M-triangle cut runs in plain builds only\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(million_triangles_cut_without_cracks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
