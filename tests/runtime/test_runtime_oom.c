/* test_runtime_oom.c — every allocation of a context's life fails in turn: create, mount, load a
 * scene with fallbacks, reload it, poll, release into the budget, revive, release, destroy.
 * Each run must end without a crash, with every byte freed and every free given the size its
 * allocation had (the allocator checks), and with every GPU object destroyed. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_fixture.h"
#include "support.h"

typedef struct counting {
    atomic_long calls, fail_at, live_bytes, bad_frees;
} counting;

static void *t_alloc(void *user, size_t size, size_t align)
{
    counting *c = user;
    long n = atomic_fetch_add(&c->calls, 1);
    if (n == atomic_load(&c->fail_at) || align > 16) return NULL;
    uint8_t *p = malloc(size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    atomic_fetch_add(&c->live_bytes, (long)size);
    return p + 16;
}

static void t_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    uint8_t *p = (uint8_t *)ptr - 16;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != size) atomic_fetch_add(&c->bad_frees, 1);
    atomic_fetch_sub(&c->live_bytes, (long)had);
    free(p);
}

static void every_allocation_may_fail(void **state)
{
    static const char *const models[] = {"gltf/BoxTextured/glTF"};
    char *dir = rt_cook_project(models, 1);
    char *cache = kt_format("%s/.kiln/cache", dir);
    counting cnt;
    int runs = 0, ready = 0;
    for (long n = 0;; n++) {
        atomic_init(&cnt.calls, 0);
        atomic_init(&cnt.fail_at, n);
        atomic_init(&cnt.live_bytes, 0);
        atomic_init(&cnt.bad_frees, 0);
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_desc d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        d.allocator = (kiln_allocator){t_alloc, NULL, t_free, &cnt};
        d.worker_count = 1;
        d.budget_bytes = UINT64_MAX;
        d.fallbacks = true;
        d.renderer = rt_recorder_renderer(&rec);
        krt_context *c = NULL;
        kiln_error err;
        runs++;
        if (krt_create(&d, &c, &err) == KILN_OK) {
            if (krt_mount_cache(c, cache, NULL, &err) == KILN_OK) {
                krt_handle s = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err);
                krt_finish(c);
                if (s.id && krt_state_of(c, s) == KRT_STATE_READY) {
                    ready++;
                    krt_scene_data sd;
                    krt_mesh_data md;
                    if (krt_get_scene(c, s, &sd, &err) == KILN_OK &&
                        krt_get_mesh(c, sd.primitives[0], &md, &err) == KILN_OK) {
                        (void)krt_reload(c, md.material, &err);
                        (void)krt_reload(c, s, &err);
                    }
                    krt_finish(c);
                }
                size_t k;
                (void)krt_poll_changes(c, &k, &err);
                if (s.id) assert_int_equal(krt_release(c, s, &err), KILN_OK);
                krt_finish(c);
                s = krt_load_scene(c, "m0/BoxTextured.gltf#scene", &err); /* revived */
                krt_finish(c);
                if (s.id) krt_release(c, s, &err);
                krt_finish(c);
            }
            krt_destroy(c);
        }
        if (atomic_load(&cnt.live_bytes) != 0 || atomic_load(&cnt.bad_frees) != 0)
            fail_msg("failing allocation %ld: %ld bytes not freed, %ld frees with a wrong size", n,
                     (long)atomic_load(&cnt.live_bytes), (long)atomic_load(&cnt.bad_frees));
        if (rec.live != 0) fail_msg("failing allocation %ld: %d GPU objects left", n, rec.live);
        if (atomic_load(&cnt.calls) <= n) break; /* nothing failed: every allocation was tried */
    }
    fprintf(stderr, "%d runs, %d with the scene ready\n", runs, ready);
    assert_true(runs > 50 && ready > 0);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_allocation_may_fail)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
