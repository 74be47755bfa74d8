/* test_runtime_budget.c — the memory budget: released assets keep their CPU data (GPU objects
 * are destroyed at zero references), a load of a kept one revives it without I/O, the least
 * recently released are evicted past budget_bytes or when a slot is needed, and an evicted one
 * loads again from its file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static krt_context *make_ctx(rt_recorder *rec, uint64_t budget, uint32_t max_assets)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    d.budget_bytes = budget;
    d.max_assets = max_assets;
    if (rec) d.renderer = rt_recorder_renderer(rec);
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, g.cache, NULL, &err), KILN_OK);
    return c;
}

static const char *const box = "m0/BoxTextured.gltf#scene";

static void released_assets_stay_resident_and_revive_without_io(void **state)
{
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, UINT64_MAX, 0);
    krt_handle s = rt_load_ready(c, KRT_TYPE_SCENE, box);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    uint64_t loads = st.loads, bytes = st.resident_bytes;
    assert_int_equal(st.live_assets, 4); /* scene, mesh, material, texture */
    assert_int_equal(rec.live, 3);       /* mesh, material, texture objects */
    kiln_error err;
    assert_int_equal(krt_release(c, s, &err), KILN_OK);
    krt_finish(c);
    krt_get_stats(c, &st);
    assert_int_equal(st.live_assets, 0);
    assert_int_equal(st.cached_assets, 4);
    assert_int_equal(st.cached_bytes, bytes);
    assert_int_equal(st.resident_bytes, bytes);
    assert_int_equal(rec.live, 0); /* GPU objects go at zero references */
    assert_int_equal(krt_state_of(c, s), KRT_STATE_INVALID);
    int creates = rec.creates[KRT_TYPE_TEXTURE];
    krt_handle s2 = rt_load_ready(c, KRT_TYPE_SCENE, box);
    assert_true(s2.id != s.id); /* the old handle stays stale */
    assert_int_equal(krt_state_of(c, s), KRT_STATE_INVALID);
    krt_get_stats(c, &st);
    assert_int_equal(st.loads, loads); /* no job read a file */
    assert_int_equal(st.revivals, 4);
    assert_int_equal(st.cached_assets, 0);
    assert_int_equal(st.live_assets, 4);
    assert_int_equal(rec.creates[KRT_TYPE_TEXTURE], creates + 1); /* GPU objects made again */
    krt_scene_data sd;
    assert_int_equal(krt_get_scene(c, s2, &sd, &err), KILN_OK);
    krt_mesh_data md;
    assert_int_equal(krt_get_mesh(c, sd.primitives[0], &md, &err), KILN_OK);
    assert_int_equal(krt_state_of(c, md.material), KRT_STATE_READY);
    assert_int_equal(krt_release(c, s2, &err), KILN_OK);
    krt_destroy(c); /* frees what is kept */
    assert_int_equal(rec.live, 0);
    (void)state;
}

static void the_least_recently_released_are_evicted_past_the_budget(void **state)
{
    /* How many bytes do the four assets of the box take? */
    krt_context *c = make_ctx(NULL, UINT64_MAX, 0);
    kiln_error err;
    krt_handle s = rt_load_ready(c, KRT_TYPE_SCENE, box);
    krt_release(c, s, &err);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    uint64_t all = st.cached_bytes;
    krt_destroy(c);

    /* One byte less: the scene (released first) is evicted, the rest stay. */
    rt_recorder rec;
    rt_recorder_init(&rec);
    c = make_ctx(&rec, all - 1, 0);
    s = rt_load_ready(c, KRT_TYPE_SCENE, box);
    krt_get_stats(c, &st);
    uint64_t loads = st.loads;
    krt_release(c, s, &err);
    krt_finish(c);
    krt_get_stats(c, &st);
    assert_int_equal(st.evictions, 1);
    assert_int_equal(st.cached_assets, 3);
    assert_true(st.cached_bytes <= all - 1);
    assert_int_equal(st.resident_bytes, st.cached_bytes);
    /* the evicted scene loads again from its file, the others revive */
    s = rt_load_ready(c, KRT_TYPE_SCENE, box);
    krt_get_stats(c, &st);
    assert_int_equal(st.loads, loads + 1);
    assert_int_equal(st.revivals, 3);
    krt_release(c, s, &err);
    krt_finish(c);
    krt_destroy(c);

    /* budget 0 (the default): nothing is kept */
    c = make_ctx(NULL, 0, 0);
    s = rt_load_ready(c, KRT_TYPE_SCENE, box);
    krt_release(c, s, &err);
    krt_finish(c);
    krt_get_stats(c, &st);
    assert_int_equal(st.cached_assets, 0);
    assert_int_equal(st.resident_bytes, 0);
    assert_int_equal(st.evictions, 0);
    krt_destroy(c);
    (void)state;
}

static void a_needed_slot_evicts_resident_data(void **state)
{
    krt_context *c = make_ctx(NULL, UINT64_MAX, 4);
    kiln_error err;
    krt_handle s = rt_load_ready(c, KRT_TYPE_SCENE, box);
    krt_release(c, s, &err);
    krt_finish(c);
    krt_stats st = {.struct_size = sizeof st};
    krt_get_stats(c, &st);
    assert_int_equal(st.cached_assets, 4);
    /* all four slots hold kept data: a new load evicts the oldest to get one */
    krt_handle k = rt_load_ready(c, KRT_TYPE_SKELETON, "m1/CesiumMan.gltf#skeleton0");
    krt_get_stats(c, &st);
    assert_int_equal(st.evictions, 1);
    assert_int_equal(st.cached_assets, 3);
    assert_int_equal(st.live_assets, 1);
    krt_release(c, k, &err);
    krt_finish(c);
    krt_destroy(c);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(released_assets_stay_resident_and_revive_without_io),
        cmocka_unit_test(the_least_recently_released_are_evicted_past_the_budget),
        cmocka_unit_test(a_needed_slot_evicts_resident_data),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
