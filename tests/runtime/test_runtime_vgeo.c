/* test_runtime_vgeo.c — virtual geometry (container VGEO) as the built-in runtime type
 * KRT_TYPE_VGEO: a cluster DAG and the mesh it draws from, written by the test into a cache
 * folder (rt_write_artifact), load together (the mesh first, as the VGEO's KILN_REF_LOAD
 * reference); the record hands out the validated view and the ready mesh's handle; a VGEO whose
 * mesh is not mounted and a damaged one fail with their errors. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "core/reader.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_rt.h"
#include "rt_fixture.h"
#include "write/vgeo_write.h"

static const char *const guid_mesh = "0123456789abcdef0123456789abcdef";
static const char *const guid_dag = "fedcba9876543210fedcba9876543210";
#define MESH_NAME "models/quad.glb#mesh0"
#define DAG_NAME  "models/quad_dag.glb#vgeo0"

/* The pinned 2 x 2 quad (4 vertices, float streams) without its material, so that it loads on
 * its own. */
static uint8_t *quad_mesh(size_t *size)
{
    char *path = kt_format("%s/tests/golden/mesh_quad_float.bin", getenv("KILN_SOURCE_DIR"));
    uint8_t *bytes = kt_read_file(path, size);
    assert_non_null(bytes);
    free(path);
    uint32_t sections = kiln_load_u32le(bytes + 32);
    for (uint32_t i = 0; i < sections; i++) {
        const uint8_t *e = bytes + 64 + 32 * (size_t)i;
        if (kiln_load_u32le(e) == KILN_FOURCC('M', 'H', 'D', 'R'))
            kiln_store_u64le(bytes + kiln_load_u64le(e + 8) + 40, 0); /* material: none */
    }
    kt_container_reseal(bytes, *size);
    kiln_mesh_view v;
    kiln_error err;
    assert_int_equal(kiln_mesh_read(bytes, *size, 0, &v, &err), KILN_OK);
    assert_true(v.material == 0 && v.vertex_count == 4);
    return bytes;
}

/* One cluster over the quad's 4 vertices: the source mesh is its own root. */
static uint8_t *quad_dag(uint64_t mesh, size_t *size)
{
    static kiln_meshlet cluster = {0, 0, 4, 2};
    static kiln_vgeo_link link = {KILN_VGEO_NONE, KILN_VGEO_NONE, 0, 0};
    static uint32_t vertices[4] = {0, 1, 2, 3};
    static uint8_t triangles[8] = {0, 1, 2, 2, 1, 3, 0, 0};
    kiln_meshlet_bounds bounds;
    memset(&bounds, 0, sizeof bounds);
    bounds.radius = 1.5f;
    bounds.cone_axis[2] = 1.0f;
    bounds.cone_cutoff = 1.0f;
    kiln_cooked_vgeo v;
    memset(&v, 0, sizeof v);
    v.mesh = mesh;
    v.vertex_count = 4;
    v.level_count = 1;
    v.source_triangles = 2;
    v.max_vertices = 64;
    v.max_triangles = 124;
    v.extent = 2.0f;
    v.clusters = &cluster;
    v.links = &link;
    v.bounds = &bounds;
    v.cluster_count = 1;
    v.cluster_vertices = vertices;
    v.cluster_vertex_count = 4;
    v.cluster_triangles = triangles;
    v.cluster_triangle_size = 8;
    uint8_t *out = NULL;
    kiln_error err;
    if (kiln_vgeo_write(&v, NULL, &out, size, &err) != KILN_OK)
        fail_msg("kiln_vgeo_write: %s", err.message);
    return out;
}

typedef struct fixture {
    char *dir, *cache;
    rt_recorder rec;
    krt_context *c;
} fixture;

/* A cache holding the quad (unless without_mesh) and its DAG (damaged: one byte flipped, so
 * the checksum fails), mounted in a context with the recording renderer. */
static void open_fixture(fixture *f, bool without_mesh, bool damaged)
{
    f->dir = kt_tempdir("rt_vgeo");
    f->cache = kt_format("%s/cache", f->dir);
    size_t mesh_size, dag_size;
    uint8_t *mesh = quad_mesh(&mesh_size);
    uint8_t *dag = quad_dag(kiln_asset_id(guid_mesh, "mesh0"), &dag_size);
    if (damaged) dag[dag_size - 1] ^= 1; /* a triangle byte: only the checksum finds it */
    if (!without_mesh)
        rt_write_artifact(f->cache, guid_mesh, "models/quad.glb", "mesh0", mesh, mesh_size);
    rt_write_artifact(f->cache, guid_dag, "models/quad_dag.glb", "vgeo0", dag, dag_size);
    free(mesh);
    kiln_free(NULL, dag, dag_size);
    rt_recorder_init(&f->rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    d.renderer = rt_recorder_renderer(&f->rec);
    kiln_error err;
    assert_int_equal(krt_create(&d, &f->c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(f->c, f->cache, NULL, &err), KILN_OK);
}

static void close_fixture(fixture *f)
{
    krt_destroy(f->c);
    kt_rmtree(f->dir);
    free(f->dir);
    free(f->cache);
}

static bool print_skipped(void *user, const krt_skipped_info *info)
{
    (void)user;
    print_message("skipped %s: %s\n", info->file, info->reason);
    return true;
}

static void vgeo_loads_with_its_mesh(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, false, false);
    uint64_t id = 0;
    assert_int_equal(krt_mount_skipped(f.c, print_skipped, NULL), 0);
    assert_true(krt_lookup(f.c, MESH_NAME, &id));
    assert_true(krt_lookup(f.c, DAG_NAME, &id));
    assert_int_equal(krt_lookup_id(f.c, id), KRT_TYPE_VGEO);
    kiln_error err;
    krt_handle h = krt_load_vgeo(f.c, DAG_NAME, &err);
    assert_true(h.id != 0);
    assert_int_equal(krt_handle_type(h), KRT_TYPE_VGEO);
    krt_finish(f.c);
    assert_int_equal(krt_state_of(f.c, h), KRT_STATE_READY);
    krt_vgeo_data d;
    assert_int_equal(krt_get_vgeo(f.c, h, &d, &err), KILN_OK);
    assert_non_null(d.view);
    assert_int_equal(d.view->cluster_count, 1);
    assert_int_equal(d.view->root_count, 1);
    assert_true(d.view->mesh == kiln_asset_id(guid_mesh, "mesh0"));
    kiln_meshlet m = kiln_vgeo_cluster(d.view, 0);
    assert_int_equal(m.triangle_count, 2);
    /* the mesh came with it: ready, and the one the view names */
    assert_int_equal(krt_handle_type(d.mesh), KRT_TYPE_MESH);
    assert_int_equal(krt_state_of(f.c, d.mesh), KRT_STATE_READY);
    assert_true(krt_asset_id(f.c, d.mesh) == d.view->mesh);
    krt_mesh_data md;
    assert_int_equal(krt_get_mesh(f.c, d.mesh, &md, &err), KILN_OK);
    assert_int_equal(md.view->vertex_count, d.view->vertex_count);
    /* loading the mesh by name is the same asset */
    krt_handle mh = krt_load_mesh(f.c, MESH_NAME, &err);
    assert_true(mh.id == d.mesh.id);
    assert_int_equal(krt_release(f.c, mh, &err), KILN_OK);
    /* the renderer made the mesh's object, none for the VGEO */
    assert_int_equal(f.rec.creates[KRT_TYPE_MESH], 1);
    assert_int_equal(f.rec.creates[KRT_TYPE_VGEO], 0);
    assert_null(krt_gpu(f.c, h));
    /* a VGEO handle is not a mesh's */
    assert_int_equal(krt_get_mesh(f.c, h, &md, &err), KILN_E_USAGE);
    /* loading it again counts a reference on the same handle */
    krt_handle again = krt_load(f.c, KRT_TYPE_VGEO, DAG_NAME, &err);
    assert_true(again.id == h.id);
    assert_int_equal(krt_release(f.c, again, &err), KILN_OK);
    assert_int_equal(krt_release(f.c, h, &err), KILN_OK);
    krt_update(f.c);
    assert_int_equal(f.rec.destroys[KRT_TYPE_MESH], 1);             /* released with the VGEO */
    assert_int_equal(krt_get_vgeo(f.c, h, &d, &err), KILN_E_USAGE); /* stale */
    close_fixture(&f);
}

static void vgeo_without_its_mesh_fails(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, true, false);
    kiln_error err;
    krt_handle h = krt_load_vgeo(f.c, DAG_NAME, &err);
    assert_true(h.id != 0);
    krt_finish(f.c);
    assert_int_equal(krt_state_of(f.c, h), KRT_STATE_FAILED);
    kiln_error why;
    assert_true(krt_error(f.c, h, &why) != KILN_OK);
    assert_true(why.message[0] != '\0');
    krt_vgeo_data d;
    assert_int_equal(krt_get_vgeo(f.c, h, &d, &err), KILN_E_USAGE);
    assert_int_equal(krt_release(f.c, h, &err), KILN_OK);
    close_fixture(&f);
}

static void damaged_vgeo_fails_with_its_reader_error(void **state)
{
    (void)state;
    fixture f;
    open_fixture(&f, false, true);
    kiln_error err;
    krt_handle h = krt_load_vgeo(f.c, DAG_NAME, &err);
    krt_finish(f.c);
    assert_int_equal(krt_state_of(f.c, h), KRT_STATE_FAILED);
    kiln_error why;
    kiln_result code = krt_error(f.c, h, &why);
    assert_true(code == KILN_E_FORMAT_INVALID || code == KILN_E_CACHE_CORRUPT);
    assert_int_equal(krt_release(f.c, h, &err), KILN_OK);
    close_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vgeo_loads_with_its_mesh),
        cmocka_unit_test(vgeo_without_its_mesh_fails),
        cmocka_unit_test(damaged_vgeo_fails_with_its_reader_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
