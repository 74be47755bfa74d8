/* test_runtime_shader.c — cooked shaders (container SHDR) as the built-in runtime type
 * KRT_TYPE_SHADER: the golden compute shader (tests/golden/shader_compute.kshader) and the
 * two-variant vertex shader of tests/shader_format's fixture, written into a cache folder laid
 * out as kiln's (rt_write_artifact) and into packs, loaded through the recording renderer's
 * create_shader / replace_shader / destroy_shader. Checks that each variant's words reach the
 * renderer exactly (kiln_shader_variant_words of an independent read), in place when the file's
 * bytes are aligned and copied once when they are not (an allocator that hands the file a
 * misaligned buffer), the reflection through the view, damaged files failing with their code,
 * hot reload into the same handle, release, and a caller whose krt_desc predates the shader
 * callbacks. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_rt.h"
#include "rt_fixture.h"
#include "shader_fixture.h"
#include "support.h"
#include "write/pack_write.h"
#include "write/shader_write.h"

static const char *const guid_c = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
static const char *const guid_v = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";
#define NAME_C "shaders/blur.comp#shader"
#define NAME_V "shaders/pbr.vert#shader"

/* ---- the cooked shaders ------------------------------------------------------------------- */

typedef struct bytes {
    uint8_t *data;
    size_t size;
} bytes;

static bytes golden_compute(void)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *path = kt_format("%s/tests/golden/shader_compute.kshader", src);
    bytes b;
    b.data = kt_read_file(path, &b.size);
    assert_non_null(b.data);
    free(path);
    return b;
}

/* The fixture's vertex shader ("default" and "skinned"), word 3 of each variant (the module's
 * id bound) set to bound + the variant's index: another bound, other words. */
static bytes vertex_shader(uint32_t bound)
{
    kt_shader_fixture f;
    kt_shader_vertex(&f);
    for (int v = 0; v < 2; v++) f.words[v][3] = bound + (uint32_t)v;
    bytes b;
    kiln_error err;
    /* with a NULL allocator the bytes come from libc: free() frees them */
    assert_int_equal(kiln_shader_write(&f.shader, NULL, &b.data, &b.size, &err), KILN_OK);
    return b;
}

/* Every variant's words of a cooked shader, one after another, as kiln_shader_variant_words
 * gives them from an independent read of the bytes. */
static size_t expected_words(const bytes *b, uint32_t *out, size_t cap, uint32_t *variants)
{
    kiln_shader_view v;
    kiln_error err;
    assert_int_equal(kiln_shader_read(b->data, b->size, 0, &v, &err), KILN_OK);
    size_t n = 0;
    for (uint32_t i = 0; i < v.variant_count; i++) {
        size_t k = kiln_shader_variant_words(&v, i, out + n, cap - n);
        assert_true(k >= 5 && k <= cap - n);
        n += k;
    }
    *variants = v.variant_count;
    return n;
}

/* The recorder's last create_shader or replace_shader got exactly b's words. */
static void assert_renderer_got(const rt_recorder *rec, const bytes *b)
{
    uint32_t want[1024], variants;
    size_t n = expected_words(b, want, 1024, &variants);
    assert_int_equal(rec->shader_variants, variants);
    assert_int_equal(rec->shader_word_count, n);
    assert_memory_equal(rec->shader_words, want, n * 4);
}

/* krt_get_shader's words and reflection against an independent read of b. */
static void assert_data_is(krt_context *c, krt_handle h, const bytes *b)
{
    krt_shader_data d;
    kiln_error err;
    assert_int_equal(krt_get_shader(c, h, &d, &err), KILN_OK);
    kiln_shader_view v;
    assert_int_equal(kiln_shader_read(b->data, b->size, 0, &v, &err), KILN_OK);
    assert_int_equal(d.variant_count, v.variant_count);
    assert_int_equal(d.view->stage, v.stage);
    assert_string_equal(d.view->entry, v.entry);
    for (uint32_t i = 0; i < v.variant_count; i++) {
        kiln_shader_variant_info want = kiln_shader_variant_at(&v, i);
        assert_string_equal(d.variants[i].name, want.name);
        uint32_t words[256];
        size_t n = kiln_shader_variant_words(&v, i, words, 256);
        assert_int_equal(d.variants[i].word_count, n);
        assert_memory_equal(d.variants[i].words, words, n * 4);
        kiln_shader_variant_info got = kiln_shader_variant_at(d.view, i);
        assert_int_equal(got.binding_count, want.binding_count);
        assert_int_equal(got.block_count, want.block_count);
        assert_int_equal(got.push_size, want.push_size);
        for (uint32_t k = 0; k < want.binding_count; k++) {
            kiln_shader_binding_info x = kiln_shader_binding_at(d.view, i, k),
                                     y = kiln_shader_binding_at(&v, i, k);
            assert_string_equal(x.name, y.name);
            assert_int_equal(x.set, y.set);
            assert_int_equal(x.binding, y.binding);
            assert_int_equal(x.resource, y.resource);
        }
        for (uint32_t k = 0; k < want.member_count; k++) {
            kiln_shader_member_info x = kiln_shader_member_at(d.view, i, k),
                                    y = kiln_shader_member_at(&v, i, k);
            assert_string_equal(x.name, y.name);
            assert_int_equal(x.offset, y.offset);
        }
    }
}

/* ---- contexts ------------------------------------------------------------------------------ */

static krt_context *make_ctx(rt_recorder *rec, const kiln_allocator *al)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    if (al) d.allocator = *al;
    d.renderer = rt_recorder_renderer(rec);
    d.renderer_shaders = rt_recorder_shaders();
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    return c;
}

/* A cache folder holding the golden compute shader (NAME_C) and the vertex shader (NAME_V). */
static char *write_cache(const char *dir, const bytes *compute, const bytes *vertex)
{
    char *cache = kt_format("%s/cache", dir);
    rt_write_artifact(cache, guid_c, "shaders/blur.comp", "shader", compute->data, compute->size);
    rt_write_artifact(cache, guid_v, "shaders/pbr.vert", "shader", vertex->data, vertex->size);
    return cache;
}

/* ---- the tests ------------------------------------------------------------------------------ */

static void shaders_load_from_a_cache_with_every_variants_words(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40);
    char *dir = kt_tempdir("rt_shader");
    char *cache = write_cache(dir, &comp, &vert);
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, NULL);
    kiln_error err;
    size_t n = 0;
    assert_int_equal(krt_mount_cache(c, cache, &n, &err), KILN_OK);
    assert_int_equal(n, 2);
    uint64_t id;
    assert_true(krt_lookup(c, NAME_V, &id));
    assert_int_equal(krt_lookup_id(c, id), KRT_TYPE_SHADER);

    /* another type's load is refused */
    krt_handle wrong = krt_load_material(c, NAME_C, &err);
    assert_int_equal(wrong.id, 0);
    assert_int_equal(err.code, KILN_E_USAGE);

    krt_handle hc = krt_load_shader(c, NAME_C, &err);
    assert_int_not_equal(hc.id, 0);
    assert_int_equal(krt_handle_type(hc), KRT_TYPE_SHADER);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, hc), KRT_STATE_READY);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], 1);
    assert_renderer_got(&rec, &comp);
    assert_false(rec.shader_words_copied); /* a read file is aligned: the words in place */
    assert_data_is(c, hc, &comp);
    krt_shader_data d;
    assert_int_equal(krt_get_shader(c, hc, &d, &err), KILN_OK);
    assert_int_equal(d.view->stage, KILN_SHADER_COMPUTE);
    assert_ptr_equal(krt_gpu(c, hc), (void *)(uintptr_t)(hc.id | 1));

    krt_handle hv = rt_load_ready(c, KRT_TYPE_SHADER, NAME_V);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], 2);
    assert_renderer_got(&rec, &vert);
    assert_data_is(c, hv, &vert);
    assert_int_equal(krt_get_shader(c, hv, &d, &err), KILN_OK);
    assert_int_equal(d.variant_count, 2);
    assert_string_equal(d.variants[0].name, "default");
    assert_string_equal(d.variants[1].name, "skinned");
    assert_int_equal(d.variants[1].words[3], 41);
    assert_int_equal(kiln_shader_find_variant(d.view, "skinned"), 1);
    /* the getters of other types refuse it */
    krt_material_data md;
    assert_int_equal(krt_get_material(c, hv, &md, &err), KILN_E_USAGE);

    /* released: destroy_shader for each, nothing live */
    assert_int_equal(krt_release(c, hc, &err), KILN_OK);
    assert_int_equal(krt_release(c, hv, &err), KILN_OK);
    krt_update(c);
    assert_int_equal(rec.destroys[KRT_TYPE_SHADER], 2);
    assert_int_equal(rec.live, 0);
    assert_int_equal(krt_get_shader(c, hv, &d, &err), KILN_E_USAGE); /* stale */
    assert_non_null(strstr(rec.log, "destroy_shader"));
    krt_destroy(c);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    free(comp.data);
    free(vert.data);
}

static void shaders_load_from_raw_and_zstd_packs(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40);
    char *dir = kt_tempdir("rt_shader");
    for (int zstd = 0; zstd < 2; zstd++) {
        kiln_pack_input in[2] = {
            {kiln_asset_id(guid_c, "shader"), KILN_SHADER_KIND, NAME_C, comp.data, comp.size},
            {kiln_asset_id(guid_v, "shader"), KILN_SHADER_KIND, NAME_V, vert.data, vert.size}};
        kiln_pack_write_opts o;
        memset(&o, 0, sizeof o);
        o.compress = zstd ? KILN_PACK_WRITE_ZSTD : KILN_PACK_WRITE_NONE;
        uint8_t *pack;
        size_t pack_size;
        kiln_error err;
        assert_int_equal(kiln_pack_write(in, 2, &o, &pack, &pack_size, NULL, NULL, &err), KILN_OK);
        char *path = kt_format("%s/shaders%d.kpak", dir, zstd);
        kt_write_file(path, pack, pack_size);
        free(pack);
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_context *c = make_ctx(&rec, NULL);
        size_t n = 0;
        assert_int_equal(krt_mount_pack(c, path, &n, &err), KILN_OK);
        assert_int_equal(n, 2);
        krt_handle hv = rt_load_ready(c, KRT_TYPE_SHADER, NAME_V);
        assert_renderer_got(&rec, &vert);
        assert_false(rec.shader_words_copied); /* payloads 16-byte aligned; zstd into memory */
        krt_handle hc = rt_load_ready(c, KRT_TYPE_SHADER, NAME_C);
        assert_renderer_got(&rec, &comp);
        assert_data_is(c, hc, &comp);
        assert_data_is(c, hv, &vert);
        krt_release(c, hc, NULL);
        krt_release(c, hv, NULL);
        krt_destroy(c);
        assert_int_equal(rec.destroys[KRT_TYPE_SHADER], 2);
        assert_int_equal(rec.live, 0);
        free(path);
    }
    kt_rmtree(dir);
    free(dir);
    free(comp.data);
    free(vert.data);
}

/* ---- words at an address that is not 4-byte aligned ------------------------------------------
 * No mount hands a job misaligned bytes (files are read into malloc'd or mapped memory, pack
 * payloads are 16-byte aligned), so this allocator does: a block of exactly skew_size bytes
 * (the shader file's size + 1, what a job allocates to read it) starts 2 bytes past an aligned
 * address. Everything else is ordinary. */
typedef struct skew {
    size_t skew_size;
    atomic_int skewed, live;
    atomic_long calls, fail_at; /* the allocation numbered fail_at fails (-1: none) */
} skew;

static void skew_init(skew *s, size_t skew_size, long fail_at)
{
    s->skew_size = skew_size;
    atomic_init(&s->skewed, 0);
    atomic_init(&s->live, 0);
    atomic_init(&s->calls, 0);
    atomic_init(&s->fail_at, fail_at);
}

static void *skew_alloc(void *user, size_t size, size_t align)
{
    skew *s = user;
    if (atomic_fetch_add(&s->calls, 1) == atomic_load(&s->fail_at)) return NULL;
    atomic_fetch_add(&s->live, 1);
    if (size == s->skew_size) {
        uint8_t *p = malloc(size + 16);
        if (!p) return NULL;
        atomic_fetch_add(&s->skewed, 1);
        return p + 2;
    }
    void *p = NULL;
    if (align < sizeof(void *)) align = sizeof(void *);
    return posix_memalign(&p, align, size) == 0 ? p : NULL;
}

static void skew_free(void *user, void *ptr, size_t size)
{
    skew *s = user;
    if (!ptr) return;
    atomic_fetch_sub(&s->live, 1);
    free(size == s->skew_size ? (uint8_t *)ptr - 2 : ptr);
}

static void *skew_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    void *p = skew_alloc(user, new_size, 16);
    if (p && ptr) memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    if (p) skew_free(user, ptr, old_size);
    return p;
}

static void misaligned_words_are_copied_once_at_decode(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40);
    char *dir = kt_tempdir("rt_shader");
    char *cache = write_cache(dir, &comp, &vert);
    skew s;
    skew_init(&s, vert.size + 1, -1);
    kiln_allocator al = {skew_alloc, skew_realloc, skew_free, &s};
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_context *c = make_ctx(&rec, &al);
    kiln_error err;
    assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
    krt_stats before = {.struct_size = sizeof before};
    krt_get_stats(c, &before);
    krt_handle hv = rt_load_ready(c, KRT_TYPE_SHADER, NAME_V);
    assert_true(atomic_load(&s.skewed) >= 1); /* the file was read into a skewed block */
    assert_true(rec.shader_words_copied);     /* so the words were copied ... */
    assert_renderer_got(&rec, &vert);         /* ... exactly, and aligned (the recorder checks) */
    assert_data_is(c, hv, &vert);
    krt_shader_data d;
    assert_int_equal(krt_get_shader(c, hv, &d, &err), KILN_OK);
    assert_null(kiln_shader_variant_at(d.view, 0).words); /* the reader could not point */
    krt_stats after = {.struct_size = sizeof after};
    krt_get_stats(c, &after);
    /* resident: the file and the block of variant records and their words */
    size_t words = d.variants[0].word_count + d.variants[1].word_count;
    assert_true(after.resident_bytes - before.resident_bytes >=
                vert.size + 2 * sizeof(krt_shader_variant) + words * 4);
    /* a reload decodes into a new skewed block and copies again */
    int skewed = atomic_load(&s.skewed);
    assert_int_equal(krt_reload(c, hv, &err), KILN_OK);
    krt_finish(c);
    assert_int_equal(krt_reload_error(c, hv, &err), KILN_OK);
    assert_int_equal(rec.replaces[KRT_TYPE_SHADER], 1);
    assert_true(atomic_load(&s.skewed) > skewed);
    assert_true(rec.shader_words_copied);
    assert_renderer_got(&rec, &vert);
    assert_int_equal(krt_release(c, hv, &err), KILN_OK);
    krt_destroy(c);
    assert_int_equal(atomic_load(&s.live), 0); /* every block freed, skewed ones included */
    assert_int_equal(rec.live, 0);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    free(comp.data);
    free(vert.data);
}

/* Every allocation of a context's life fails in turn (the file still misaligned, so the copy's
 * allocation is among them): create, mount, load the vertex shader, a forced reload, release,
 * destroy. Each run ends without a crash, with every block freed and every object destroyed. */
static void every_allocation_may_fail(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40);
    char *dir = kt_tempdir("rt_shader");
    char *cache = write_cache(dir, &comp, &vert);
    int ready = 0, runs = 0;
    for (long n = 0;; n++) {
        skew s;
        skew_init(&s, vert.size + 1, n);
        kiln_allocator al = {skew_alloc, skew_realloc, skew_free, &s};
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_desc d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        d.allocator = al;
        d.worker_count = 1;
        d.renderer = rt_recorder_renderer(&rec);
        d.renderer_shaders = rt_recorder_shaders();
        krt_context *c = NULL;
        kiln_error err;
        runs++;
        if (krt_create(&d, &c, &err) == KILN_OK) {
            if (krt_mount_cache(c, cache, NULL, &err) == KILN_OK) {
                krt_handle h = krt_load_shader(c, NAME_V, &err);
                krt_finish(c);
                if (h.id && krt_state_of(c, h) == KRT_STATE_READY) {
                    ready++;
                    (void)krt_reload(c, h, &err);
                    krt_finish(c);
                    assert_int_equal(krt_state_of(c, h), KRT_STATE_READY); /* old data kept */
                }
                if (h.id) krt_release(c, h, NULL);
            }
            krt_destroy(c);
        }
        assert_int_equal(atomic_load(&s.live), 0);
        assert_int_equal(rec.live, 0);
        if (atomic_load(&s.calls) <= n) break; /* nothing failed: every allocation was tried */
    }
    fprintf(stderr, "%d runs, %d ready\n", runs, ready);
    assert_true(runs > 10 && ready > 0);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    free(comp.data);
    free(vert.data);
}

/* ---- damage ------------------------------------------------------------------------------- */

static void damaged_shaders_fail_with_their_code(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40);
    kiln_shader_view v;
    kiln_error err;
    assert_int_equal(kiln_shader_read(vert.data, vert.size, 0, &v, &err), KILN_OK);
    size_t magic_at = (size_t)(v.words - vert.data); /* variant 0's first word */
    char *dir = kt_tempdir("rt_shader");
    for (int reseal = 0; reseal < 2; reseal++) {
        bytes bad = {malloc(vert.size), vert.size};
        assert_non_null(bad.data);
        memcpy(bad.data, vert.data, vert.size);
        bad.data[magic_at] ^= 0x01; /* no SPIR-V magic */
        if (reseal) kt_container_reseal(bad.data, bad.size);
        char *sub = kt_format("%s/%d", dir, reseal);
        char *cache = write_cache(sub, &comp, &bad);
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_context *c = make_ctx(&rec, NULL);
        assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
        krt_handle h = krt_load_shader(c, NAME_V, &err);
        assert_int_not_equal(h.id, 0);
        krt_finish(c);
        assert_int_equal(krt_state_of(c, h), KRT_STATE_FAILED);
        kiln_result r = krt_error(c, h, &err);
        /* under its checksum: bytes changed after they were written; resealed: written
         * malformed, the reader's verdict */
        assert_int_equal(r, reseal ? KILN_E_FORMAT_INVALID : KILN_E_CACHE_CORRUPT);
        if (reseal) assert_non_null(strstr(err.message, "SPIR-V magic"));
        assert_non_null(strstr(err.path, ".kc"));
        assert_int_equal(rec.creates[KRT_TYPE_SHADER], 0);
        /* the other shader loads */
        krt_handle ok = rt_load_ready(c, KRT_TYPE_SHADER, NAME_C);
        krt_release(c, ok, NULL);
        krt_release(c, h, NULL);
        krt_destroy(c);
        assert_int_equal(rec.live, 0);
        free(bad.data);
        free(sub);
        free(cache);
    }
    kt_rmtree(dir);
    free(dir);
    free(comp.data);
    free(vert.data);
}

/* ---- hot reload ------------------------------------------------------------------------------ */

static void a_reimported_shader_reaches_the_renderer_with_its_new_words(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40), vert2 = vertex_shader(77);
    for (int with_replace = 1; with_replace >= 0; with_replace--) {
        char *dir = kt_tempdir("rt_shader");
        char *cache = write_cache(dir, &comp, &vert);
        rt_recorder rec;
        rt_recorder_init(&rec);
        krt_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.struct_size = sizeof desc;
        desc.worker_count = 2;
        desc.renderer = rt_recorder_renderer(&rec);
        desc.renderer_shaders = rt_recorder_shaders();
        if (!with_replace) desc.renderer_shaders.replace_shader = NULL;
        krt_context *c;
        kiln_error err;
        assert_int_equal(krt_create(&desc, &c, &err), KILN_OK);
        assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
        krt_handle hv = rt_load_ready(c, KRT_TYPE_SHADER, NAME_V);
        krt_handle hc = rt_load_ready(c, KRT_TYPE_SHADER, NAME_C);
        void *gpu = krt_gpu(c, hv);

        /* the vertex shader "imported again" with other words: only it reloads */
        rt_write_artifact(cache, guid_v, "shaders/pbr.vert", "shader", vert2.data, vert2.size);
        size_t started = 0;
        assert_int_equal(krt_poll_changes(c, &started, &err), KILN_OK);
        assert_int_equal(started, 1);
        krt_finish(c);
        assert_int_equal(krt_reload_error(c, hv, &err), KILN_OK);
        assert_int_equal(krt_state_of(c, hv), KRT_STATE_READY);
        assert_renderer_got(&rec, &vert2);
        assert_data_is(c, hv, &vert2);
        krt_shader_data d;
        assert_int_equal(krt_get_shader(c, hv, &d, &err), KILN_OK);
        assert_int_equal(d.variants[1].words[3], 78);
        if (with_replace) { /* the object replace_shader stored (the recorder's: old + 2) */
            assert_int_equal(rec.replaces[KRT_TYPE_SHADER], 1);
            assert_int_equal(rec.creates[KRT_TYPE_SHADER], 2);
            assert_int_equal(rec.destroys[KRT_TYPE_SHADER], 0);
            assert_ptr_equal(krt_gpu(c, hv), (void *)((uintptr_t)gpu + 2));
        } else { /* a new object for the new data, then the old one destroyed */
            assert_int_equal(rec.replaces[KRT_TYPE_SHADER], 0);
            assert_int_equal(rec.creates[KRT_TYPE_SHADER], 3);
            assert_int_equal(rec.destroys[KRT_TYPE_SHADER], 1);
        }
        krt_stats st = {.struct_size = sizeof st};
        krt_get_stats(c, &st);
        assert_int_equal(st.reloads, 1);

        /* a failing replace keeps the old words and reports it */
        if (with_replace) {
            rec.fail_replaces = 1;
            rt_write_artifact(cache, guid_v, "shaders/pbr.vert", "shader", vert.data, vert.size);
            assert_int_equal(krt_poll_changes(c, &started, &err), KILN_OK);
            krt_finish(c);
            assert_int_equal(krt_reload_error(c, hv, &err), KILN_E_USAGE);
            assert_data_is(c, hv, &vert2);
            rec.fail_replaces = 0;
        }
        krt_release(c, hv, NULL);
        krt_release(c, hc, NULL);
        krt_update(c);
        assert_int_equal(rec.live, 0);
        krt_destroy(c);
        kt_rmtree(dir);
        free(dir);
        free(cache);
    }
    free(comp.data);
    free(vert.data);
    free(vert2.data);
}

/* A program built against a krt_desc without renderer_shaders passes the older struct_size:
 * whatever lies past it is not read, so its shaders keep CPU data only. */
static void an_older_krt_desc_gets_no_shader_callbacks(void **state)
{
    (void)state;
    bytes comp = golden_compute(), vert = vertex_shader(40);
    char *dir = kt_tempdir("rt_shader");
    char *cache = write_cache(dir, &comp, &vert);
    rt_recorder rec;
    rt_recorder_init(&rec);
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = (uint32_t)offsetof(krt_desc, renderer_shaders);
    d.renderer = rt_recorder_renderer(&rec);
    d.renderer_shaders = rt_recorder_shaders(); /* past struct_size: garbage to the library */
    krt_context *c;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
    krt_handle h = rt_load_ready(c, KRT_TYPE_SHADER, NAME_V);
    assert_int_equal(rec.creates[KRT_TYPE_SHADER], 0);
    assert_null(krt_gpu(c, h));
    assert_data_is(c, h, &vert); /* CPU data as ever */
    krt_release(c, h, NULL);
    krt_destroy(c);
    assert_int_equal(rec.destroys[KRT_TYPE_SHADER], 0);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    free(comp.data);
    free(vert.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shaders_load_from_a_cache_with_every_variants_words),
        cmocka_unit_test(shaders_load_from_raw_and_zstd_packs),
        cmocka_unit_test(misaligned_words_are_copied_once_at_decode),
        cmocka_unit_test(every_allocation_may_fail),
        cmocka_unit_test(damaged_shaders_fail_with_their_code),
        cmocka_unit_test(a_reimported_shader_reaches_the_renderer_with_its_new_words),
        cmocka_unit_test(an_older_krt_desc_gets_no_shader_callbacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
