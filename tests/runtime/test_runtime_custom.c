/* test_runtime_custom.c — runtime types a program registers (krt_register_type) for cooked kinds
 * of its own: "part" containers (fourcc PART, labels part<i>) holding a number, and "blob"
 * containers (BLOB, blob<i>) holding a number and the ids of parts to load with it. The test
 * writes them with the container writer into a cache folder laid out as kiln's (records,
 * manifests, files: rt_write_artifact) and into a pack, then checks the callbacks (decode, free,
 * create, replace, destroy), the record krt_get_data hands out, the dependencies, hot reload into
 * the same handle, and what registration and loading refuse. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_kind.h"
#include "kiln/kiln_rt.h"
#include "rt_fixture.h"
#include "support.h"
#include "write/container_write.h"
#include "write/pack_write.h"

#define BLOB_KIND KILN_FOURCC('B', 'L', 'O', 'B')
#define PART_KIND KILN_FOURCC('P', 'A', 'R', 'T')
#define LOOP_KIND KILN_FOURCC('L', 'O', 'O', 'P')
#define SEC_VALUE KILN_FOURCC('V', 'A', 'L', 'U')
#define SEC_REFS  KILN_FOURCC('R', 'E', 'F', 'S')

/* ---- the program's cooked kinds -------------------------------------------------------------- */

/* One reader for the three kinds: a VALU section and, optionally, REFS. */
typedef struct blob_view {
    kiln_container container;
    uint32_t value;
    const uint64_t *refs; /* assets loaded with this one */
    size_t ref_count;
} blob_view;

static kiln_result blob_read(const void *data, size_t size, uint32_t flags, void *view,
                             kiln_error *err)
{
    blob_view *v = view;
    kiln_result r = kiln_container_read(data, size, flags, &v->container, err);
    if (r) return r;
    kiln_container_section s;
    if (!kiln_container_find(&v->container, SEC_VALUE, 4, &s) || s.count != 1)
        return kiln_error_printf(err, KILN_E_FORMAT_INVALID, "not a blob");
    memcpy(&v->value, s.data, 4);
    if (kiln_container_find(&v->container, SEC_REFS, 8, &s)) {
        v->refs = (const uint64_t *)(const void *)s.data;
        v->ref_count = (size_t)s.count;
    }
    return KILN_OK;
}

static kiln_result refs_of(const void *view, uint32_t kind, kiln_ref_fn fn, void *user,
                           kiln_error *err)
{
    const blob_view *v = view;
    kiln_result r = KILN_OK;
    for (size_t i = 0; i < v->ref_count && !r; i++)
        r = fn(user, v->refs[i], kind, KILN_REF_LOAD, err);
    return r;
}

/* A blob's references are parts, each listed twice and flagged KILN_REF_ONCE: the runtime keeps
 * one dependency per part (a loop's are loops, which the runtime refuses to load). */
static kiln_result blob_refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const blob_view *v = view;
    kiln_result r = KILN_OK;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < v->ref_count && !r; i++)
            r = fn(user, v->refs[i], PART_KIND, KILN_REF_LOAD | KILN_REF_ONCE, err);
    return r;
}

static kiln_result loop_refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    return refs_of(view, LOOP_KIND, fn, user, err);
}

static const char *const blob_labels[] = {"blob", NULL};
static const char *const part_labels[] = {"part", NULL};
static const char *const loop_labels[] = {"loop", NULL};

static const kiln_cooked_kind part_kind = {
    .name = "part",
    .fourcc = PART_KIND,
    .labels = part_labels,
    .view_size = sizeof(blob_view),
    .read = blob_read,
};

static const kiln_cooked_kind blob_kind = {
    .name = "blob",
    .fourcc = BLOB_KIND,
    .labels = blob_labels,
    .view_size = sizeof(blob_view),
    .read = blob_read,
    .refs = blob_refs,
};

static const kiln_cooked_kind loop_kind = {
    .name = "loop",
    .fourcc = LOOP_KIND,
    .labels = loop_labels,
    .view_size = sizeof(blob_view),
    .read = blob_read,
    .refs = loop_refs,
};

/* ---- the program's runtime type: a record per blob, a "GPU object" per record ---------------- */

typedef struct blob_record {
    uint32_t value;
} blob_record;

typedef struct calls {
    atomic_int decodes, frees, creates, replaces, destroys;
    pthread_mutex_t mu;
    char log[1024]; /* "c7 " for a create of value 7, "r8 " a replace, "d " a destroy */
} calls;

static void note(calls *k, const char *what)
{
    pthread_mutex_lock(&k->mu);
    strncat(k->log, what, sizeof k->log - strlen(k->log) - 1);
    pthread_mutex_unlock(&k->mu);
}

static kiln_result blob_decode(void *user, const void *view, void **data, kiln_error *err)
{
    calls *k = user;
    const blob_view *v = view;
    if (v->value == 666) return kiln_error_printf(err, KILN_E_FORMAT_INVALID, "the devil's blob");
    blob_record *rec = malloc(sizeof *rec);
    if (!rec) return kiln_error_printf(err, KILN_E_OUT_OF_MEMORY, "no memory");
    rec->value = v->value;
    *data = rec;
    atomic_fetch_add(&k->decodes, 1);
    return KILN_OK;
}

static void blob_free(void *user, void *data)
{
    calls *k = user;
    free(data);
    atomic_fetch_add(&k->frees, 1);
}

static kiln_result blob_create(void *user, krt_handle h, const krt_custom_data *d, void **gpu,
                               kiln_error *err)
{
    calls *k = user;
    (void)h;
    (void)err;
    const blob_record *rec = d->data;
    char s[32];
    snprintf(s, sizeof s, "c%u/%zu ", rec->value, d->dep_count);
    note(k, s);
    *gpu = (void *)(uintptr_t)(0x1000 + rec->value);
    atomic_fetch_add(&k->creates, 1);
    return KILN_OK;
}

static kiln_result blob_replace(void *user, krt_handle h, const krt_custom_data *d, void **gpu,
                                kiln_error *err)
{
    calls *k = user;
    (void)h;
    (void)err;
    const blob_record *rec = d->data;
    char s[32];
    snprintf(s, sizeof s, "r%u ", rec->value);
    note(k, s);
    *gpu = (void *)(uintptr_t)(0x1000 + rec->value);
    atomic_fetch_add(&k->replaces, 1);
    return KILN_OK;
}

static void blob_destroy(void *user, krt_handle h, void *gpu)
{
    calls *k = user;
    (void)h;
    (void)gpu;
    note(k, "d ");
    atomic_fetch_add(&k->destroys, 1);
}

static void calls_init(calls *k)
{
    memset(k, 0, sizeof *k);
    pthread_mutex_init(&k->mu, NULL);
}

static krt_type_desc desc_of(calls *k, const kiln_cooked_kind *kind)
{
    krt_type_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.kind = kind;
    d.decode = blob_decode;
    d.free = blob_free;
    d.create = blob_create;
    d.replace = blob_replace;
    d.destroy = blob_destroy;
    d.user = k;
    return d;
}

/* ---- cooked files: a blob container, a cache folder as kiln lays it out, a pack -------------- */

static uint8_t *make_blob(uint32_t kind, uint32_t value, const uint64_t *refs, size_t ref_count,
                          size_t *size)
{
    kiln_container_writer w;
    kiln_error err;
    kiln_container_begin(&w, kind, 1, NULL);
    assert_int_equal(kiln_container_add(&w, SEC_VALUE, 4, 1, &value, &err), KILN_OK);
    if (ref_count)
        assert_int_equal(kiln_container_add(&w, SEC_REFS, 8, ref_count, refs, &err), KILN_OK);
    uint8_t *out;
    assert_int_equal(kiln_container_finish(&w, &out, size, &err), KILN_OK);
    return out;
}

static const char *const guid_a = "0123456789abcdef0123456789abcdef";
static const char *const guid_b = "fedcba9876543210fedcba9876543210";
static const char *const guid_c = "00112233445566778899aabbccddeeff";

/* a.blob#blob0 (value va) refers to b.part#part0 (value 9); c.loop#loop0 refers to itself. */
static void write_cache(const char *cache, uint32_t va)
{
    uint64_t b_id = kiln_asset_id(guid_b, "part0"), c_id = kiln_asset_id(guid_c, "loop0");
    size_t na, nb, nc;
    uint8_t *a = make_blob(BLOB_KIND, va, &b_id, 1, &na);
    uint8_t *b = make_blob(PART_KIND, 9, NULL, 0, &nb);
    uint8_t *c = make_blob(LOOP_KIND, 1, &c_id, 1, &nc);
    rt_write_artifact(cache, guid_a, "a.blob", "blob0", a, na);
    rt_write_artifact(cache, guid_b, "b.part", "part0", b, nb);
    rt_write_artifact(cache, guid_c, "c.loop", "loop0", c, nc);
    free(a);
    free(b);
    free(c);
}

static krt_context *make_ctx(void)
{
    krt_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.worker_count = 2;
    krt_context *c = NULL;
    kiln_error err;
    assert_int_equal(krt_create(&d, &c, &err), KILN_OK);
    return c;
}

static uint32_t value_of(krt_context *c, krt_handle h, krt_type t)
{
    krt_custom_data d;
    kiln_error err;
    if (krt_get_data(c, h, t, &d, &err) != KILN_OK) fail_msg("krt_get_data: %s", err.message);
    return ((const blob_record *)d.data)->value;
}

/* The part type, then the blob type (which loads parts: registered after it). */
static void register_both(krt_context *c, calls *k, krt_type *part, krt_type *blob)
{
    kiln_error err;
    krt_type_desc d = desc_of(k, &part_kind);
    assert_int_equal(krt_register_type(c, &d, part, &err), KILN_OK);
    d = desc_of(k, &blob_kind);
    assert_int_equal(krt_register_type(c, &d, blob, &err), KILN_OK);
}

/* ---- the tests ------------------------------------------------------------------------------- */

static void registration_refuses_what_it_cannot_tell_apart(void **state)
{
    (void)state;
    calls k;
    calls_init(&k);
    krt_context *c = make_ctx();
    kiln_error err;
    krt_type t;
    krt_type_desc d = desc_of(&k, &blob_kind);
    d.decode = NULL;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);
    assert_int_equal(t, KRT_TYPE_NONE);

    /* a built-in's fourcc; a label a built-in prefix starts; one that starts a built-in's */
    static const char *const meshy[] = {"meshy", NULL}, *const ima[] = {"ima", NULL};
    kiln_cooked_kind k2 = blob_kind;
    k2.fourcc = KILN_MESH_KIND;
    d = desc_of(&k, &k2);
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "for mesh's"));
    k2 = blob_kind;
    k2.labels = meshy;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);
    k2.labels = ima;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "for texture's"));
    d.flags = 1u << 7;
    k2.labels = blob_labels;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);

    /* the first registered type is numbered KRT_TYPE_COUNT; a second kind must differ from it */
    d = desc_of(&k, &blob_kind);
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_OK);
    assert_int_equal(t, KRT_TYPE_COUNT);
    k2 = part_kind;
    k2.labels = blob_labels;
    d.kind = &k2;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "for blob's"));
    d.kind = &part_kind;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_OK);
    assert_int_equal(t, KRT_TYPE_COUNT + 1);
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE); /* twice */

    /* not once a mount was made */
    char *dir = kt_tempdir("rt_custom");
    char *cache = kt_format("%s/cache", dir);
    write_cache(cache, 7);
    assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
    d.kind = &loop_kind;
    assert_int_equal(krt_register_type(c, &d, &t, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "before the first mount"));
    krt_destroy(c);
    kt_rmtree(dir);
    free(dir);
    free(cache);
}

static void a_registered_type_loads_links_and_reloads_from_a_cache(void **state)
{
    (void)state;
    calls k;
    calls_init(&k);
    char *dir = kt_tempdir("rt_custom");
    char *cache = kt_format("%s/cache", dir);
    write_cache(cache, 7);
    krt_context *c = make_ctx();
    kiln_error err;
    krt_type tp, tb;
    register_both(c, &k, &tp, &tb);
    size_t n = 0;
    assert_int_equal(krt_mount_cache(c, cache, &n, &err), KILN_OK);
    assert_int_equal(n, 2); /* no type loads the loop */
    uint64_t id_b = kiln_asset_id(guid_b, "part0");
    assert_int_equal(krt_lookup_id(c, id_b), tp);
    assert_int_equal(krt_lookup_id(c, kiln_asset_id(guid_a, "blob0")), tb);

    /* another type's load is refused; the blob loads with the part it refers to */
    krt_handle wrong = krt_load(c, KRT_TYPE_MESH, "a.blob#blob0", &err);
    assert_int_equal(wrong.id, 0);
    assert_non_null(strstr(err.message, "is a blob, not a mesh"));
    krt_handle h = krt_load(c, tb, "a.blob#blob0", &err);
    assert_int_not_equal(h.id, 0);
    assert_int_equal(krt_handle_type_id(h), tb);
    assert_int_equal(krt_handle_type(h), KRT_TYPE_NONE);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, h), KRT_STATE_READY);
    assert_int_equal(atomic_load(&k.decodes), 2);
    assert_string_equal(k.log, "c9/0 c7/1 "); /* the dependency first */
    krt_custom_data cd;
    assert_int_equal(krt_get_data(c, h, tb, &cd, &err), KILN_OK);
    assert_int_equal(((const blob_record *)cd.data)->value, 7);
    assert_int_equal(((const blob_view *)cd.view)->value, 7);
    assert_int_equal(cd.dep_count, 1);
    assert_int_equal(krt_asset_id(c, cd.deps[0]), id_b);
    assert_int_equal(value_of(c, cd.deps[0], tp), 9);
    assert_ptr_equal(krt_gpu(c, h), (void *)(uintptr_t)(0x1000 + 7));
    assert_int_equal(krt_get_data(c, h, KRT_TYPE_TEXTURE, &cd, &err), KILN_E_USAGE);
    assert_int_equal(krt_get_data(c, h, tp, &cd, &err), KILN_E_USAGE);

    /* a changed file reloads into the same handle through replace; the old record is freed */
    write_cache(cache, 8);
    size_t reloads = 0;
    assert_int_equal(krt_poll_changes(c, &reloads, &err), KILN_OK);
    assert_int_equal(reloads, 1);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, h), KRT_STATE_READY);
    assert_int_equal(krt_reload_error(c, h, &err), KILN_OK);
    assert_int_equal(value_of(c, h, tb), 8);
    assert_string_equal(k.log, "c9/0 c7/1 r8 ");
    assert_ptr_equal(krt_gpu(c, h), (void *)(uintptr_t)(0x1000 + 8));
    assert_int_equal(atomic_load(&k.decodes), 3);
    assert_int_equal(atomic_load(&k.frees), 1);
    krt_stats s = {.struct_size = sizeof s};
    krt_get_stats(c, &s);
    assert_int_equal(s.reloads, 1);

    /* a reload whose decode fails keeps the old record */
    write_cache(cache, 666);
    assert_int_equal(krt_poll_changes(c, &reloads, &err), KILN_OK);
    krt_finish(c);
    assert_int_equal(krt_reload_error(c, h, &err), KILN_E_FORMAT_INVALID);
    assert_non_null(strstr(err.message, "the devil's blob"));
    assert_int_equal(value_of(c, h, tb), 8);

    /* released: both objects destroyed, both records freed */
    assert_int_equal(krt_release(c, h, &err), KILN_OK);
    krt_update(c);
    assert_int_equal(atomic_load(&k.destroys), 2);
    assert_int_equal(atomic_load(&k.frees), atomic_load(&k.decodes));
    krt_destroy(c);
    kt_rmtree(dir);
    free(dir);
    free(cache);
}

/* A type whose kind refers to its own kind could make assets wait for each other forever: such
 * a reference fails the load, and a type's references to a later type likewise. */
static void a_registered_type_loads_only_earlier_types(void **state)
{
    (void)state;
    calls k;
    calls_init(&k);
    char *dir = kt_tempdir("rt_custom");
    char *cache = kt_format("%s/cache", dir);
    write_cache(cache, 7);
    krt_context *c = make_ctx();
    kiln_error err;
    krt_type tl, tb, tp;
    krt_type_desc d = desc_of(&k, &loop_kind);
    assert_int_equal(krt_register_type(c, &d, &tl, &err), KILN_OK);
    d = desc_of(&k, &blob_kind); /* before part, which it loads */
    assert_int_equal(krt_register_type(c, &d, &tb, &err), KILN_OK);
    d = desc_of(&k, &part_kind);
    assert_int_equal(krt_register_type(c, &d, &tp, &err), KILN_OK);
    assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
    krt_handle loop = krt_load(c, tl, "c.loop#loop0", &err);
    krt_handle blob = krt_load(c, tb, "a.blob#blob0", &err);
    krt_finish(c);
    assert_int_equal(krt_error(c, loop, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "of type loop: a registered type loads only"));
    assert_int_equal(krt_error(c, blob, &err), KILN_E_USAGE);
    assert_non_null(strstr(err.message, "of type part"));
    krt_destroy(c);
    assert_int_equal(atomic_load(&k.frees), atomic_load(&k.decodes));
    kt_rmtree(dir);
    free(dir);
    free(cache);
}

static void a_registered_type_loads_from_a_pack_by_its_fourcc(void **state)
{
    (void)state;
    uint64_t ids[2] = {kiln_asset_id(guid_a, "blob0"), kiln_asset_id(guid_b, "part0")};
    size_t na, nb;
    uint8_t *a = make_blob(BLOB_KIND, 5, &ids[1], 1, &na);
    uint8_t *b = make_blob(PART_KIND, 6, NULL, 0, &nb);
    kiln_pack_input in[2] = {{ids[0], BLOB_KIND, "a.blob#blob0", a, na},
                             {ids[1], PART_KIND, "b.part#part0", b, nb}};
    kiln_pack_write_opts o;
    memset(&o, 0, sizeof o);
    o.compress = KILN_PACK_WRITE_ZSTD;
    uint8_t *pack;
    size_t pack_size;
    kiln_error err;
    assert_int_equal(kiln_pack_write(in, 2, &o, &pack, &pack_size, NULL, NULL, &err), KILN_OK);
    char *dir = kt_tempdir("rt_custom");
    char *path = kt_format("%s/game.kpak", dir);
    kt_write_file(path, pack, pack_size);

    /* without the types, the pack's entries are not loadable */
    krt_context *c = make_ctx();
    size_t n = 99;
    assert_int_equal(krt_mount_pack(c, path, &n, &err), KILN_OK);
    assert_int_equal(n, 0);
    krt_destroy(c);

    calls k;
    calls_init(&k);
    c = make_ctx();
    krt_type tp, tb;
    krt_type_desc d = desc_of(&k, &part_kind);
    d.create = NULL; /* CPU data only */
    d.replace = NULL;
    d.destroy = NULL;
    assert_int_equal(krt_register_type(c, &d, &tp, &err), KILN_OK);
    d.kind = &blob_kind;
    assert_int_equal(krt_register_type(c, &d, &tb, &err), KILN_OK);
    assert_int_equal(krt_mount_pack(c, path, &n, &err), KILN_OK);
    assert_int_equal(n, 2);
    krt_handle h = krt_load(c, tb, "a.blob#blob0", &err);
    krt_finish(c);
    assert_int_equal(krt_state_of(c, h), KRT_STATE_READY);
    assert_int_equal(value_of(c, h, tb), 5);
    assert_null(krt_gpu(c, h));
    krt_custom_data cd;
    assert_int_equal(krt_get_data(c, h, tb, &cd, &err), KILN_OK);
    assert_int_equal(value_of(c, cd.deps[0], tp), 6);
    krt_destroy(c);
    assert_int_equal(atomic_load(&k.frees), 2);
    kt_rmtree(dir);
    free(dir);
    free(path);
    free(a);
    free(b);
    free(pack);
}

/* A damaged loose container of the program's kind is reported as the cache's fault, as the
 * built-in containers are. */
static void a_damaged_part_is_cache_corrupt(void **state)
{
    (void)state;
    calls k;
    calls_init(&k);
    char *dir = kt_tempdir("rt_custom");
    char *cache = kt_format("%s/cache", dir);
    size_t nb;
    uint8_t *b = make_blob(PART_KIND, 9, NULL, 0, &nb);
    b[nb - 1] ^= 0xFF; /* before the manifest's digest is taken: only the container's fails */
    rt_write_artifact(cache, guid_b, "b.part", "part0", b, nb);
    krt_context *c = make_ctx();
    kiln_error err;
    krt_type tp, tb;
    register_both(c, &k, &tp, &tb);
    assert_int_equal(krt_mount_cache(c, cache, NULL, &err), KILN_OK);
    krt_handle h = krt_load(c, tp, "b.part#part0", &err);
    krt_finish(c);
    assert_int_equal(krt_error(c, h, &err), KILN_E_CACHE_CORRUPT);
    assert_non_null(strstr(err.message, "container checksum"));
    krt_destroy(c);
    assert_int_equal(atomic_load(&k.decodes), 0);
    kt_rmtree(dir);
    free(dir);
    free(cache);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registration_refuses_what_it_cannot_tell_apart),
        cmocka_unit_test(a_registered_type_loads_links_and_reloads_from_a_cache),
        cmocka_unit_test(a_registered_type_loads_only_earlier_types),
        cmocka_unit_test(a_registered_type_loads_from_a_pack_by_its_fourcc),
        cmocka_unit_test(a_damaged_part_is_cache_corrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
