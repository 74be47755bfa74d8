/* rt_fixture.c — see rt_fixture.h. */
#include "rt_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "kiln/kiln.h"
#include "support.h"

void rt_reimport(const char *dir) { kt_import_all(dir); }

void rt_write_artifact(const char *cache, const char *guid, const char *path, const char *label,
                       const uint8_t *bytes, size_t size)
{
    uint8_t digest[32];
    char sha[65];
    assert_int_equal(kiln_sha256_bytes(bytes, size, digest, NULL), KILN_OK);
    kiln_hex(digest, 32, sha);
    /* the key: any 64 hex digits would do; the file's SHA-256 makes a new entry per content */
    char *dir = kt_format("%s/objects/%.2s/%s", cache, sha, sha);
    char *file = kt_format("%s/%s.kc", dir, label);
    kt_write_file(file, bytes, size);
    char *manifest = kt_format(
        "{\"kiln_manifest\":1,\"key\":\"%s\",\"outputs\":[{\"file\":\"%s.kc\",\"label\":\"%s\","
        "\"sha256\":\"%s\",\"size\":%zu}]}",
        sha, label, label, sha, size);
    char *mpath = kt_format("%s/manifest.json", dir);
    kt_write_file(mpath, manifest, strlen(manifest));
    char *record = kt_format("{\"guid\":\"%s\",\"path\":\"%s\",\"key\":\"%s\"}", guid, path, sha);
    char *tmp = kt_format("%s/assets/.%s.tmp", cache, guid);
    char *rpath = kt_format("%s/assets/%s.json", cache, guid);
    kt_write_file(tmp, record, strlen(record));
    assert_int_equal(rename(tmp, rpath), 0);
    free(dir);
    free(file);
    free(manifest);
    free(mpath);
    free(record);
    free(tmp);
    free(rpath);
}

char *rt_cook_project(const char *const *corpus_dirs, size_t count)
{
    kt_require_corpus();
    char *dir = kt_tempdir("runtime");
    for (size_t i = 0; i < count; i++) {
        char *src = kt_corpus_path(corpus_dirs[i]);
        char *cmd = kt_format("mkdir -p '%s/assets/m%zu' && cp -r '%s'/. '%s/assets/m%zu/'", dir, i,
                              src, dir, i);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        free(src);
    }
    rt_reimport(dir);
    return dir;
}

/* create: 1 create, 0 destroy, 2 replace */
static void record(rt_recorder *r, const char *what, krt_handle h, int type, int delta, int create)
{
    pthread_mutex_lock(&r->mu);
    if (create == 1) r->creates[type]++;
    else if (create == 2) r->replaces[type]++;
    else r->destroys[type]++;
    r->live += delta;
    int n = snprintf(r->log + r->log_size, sizeof r->log - r->log_size, "%s %016llx\n", what,
                     (unsigned long long)h.id);
    if (n > 0 && (size_t)n < sizeof r->log - r->log_size) r->log_size += (size_t)n;
    pthread_mutex_unlock(&r->mu);
}

/* Whether this create fails (fail_creates counts down). */
static bool fail_create(rt_recorder *r)
{
    pthread_mutex_lock(&r->mu);
    bool fail = r->fail_creates > 0;
    if (fail) r->fail_creates--;
    pthread_mutex_unlock(&r->mu);
    return fail;
}

static kiln_result create_texture(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                                  kiln_error *err)
{
    rt_recorder *r = user;
    if (r->fail_textures)
        return kiln_error_set(err, KILN_E_USAGE, "test renderer refuses textures");
    if (fail_create(r)) return kiln_error_set(err, KILN_E_USAGE, "test renderer fails this create");
    assert_true(d->width > 0 && d->level_count > 0 && d->levels[0].data);
    *gpu = (void *)(uintptr_t)(h.id | 1);
    pthread_mutex_lock(&r->mu);
    r->last_width = d->width;
    r->last_vk_format = d->vk_format;
    pthread_mutex_unlock(&r->mu);
    record(r, "create_texture", h, KRT_TYPE_TEXTURE, 1, 1);
    return KILN_OK;
}
static kiln_result replace_texture(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                                   kiln_error *err)
{
    rt_recorder *r = user;
    if (r->fail_replaces)
        return kiln_error_set(err, KILN_E_USAGE, "test renderer refuses replaces");
    assert_true(d->width > 0 && d->level_count > 0 && d->levels[0].data);
    assert_non_null(*gpu); /* the current object comes in */
    pthread_mutex_lock(&r->mu);
    r->last_width = d->width;
    r->last_vk_format = d->vk_format;
    pthread_mutex_unlock(&r->mu);
    record(r, "replace_texture", h, KRT_TYPE_TEXTURE, 0, 2);
    return KILN_OK;
}
static kiln_result replace_mesh(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                                kiln_error *err)
{
    rt_recorder *r = user;
    if (r->fail_replaces)
        return kiln_error_set(err, KILN_E_USAGE, "test renderer refuses replaces");
    assert_non_null(d->streams[KILN_MESH_POSITION]);
    assert_non_null(*gpu);
    record(r, "replace_mesh", h, KRT_TYPE_MESH, 0, 2);
    return KILN_OK;
}
static kiln_result replace_material(void *user, krt_handle h, const krt_material_data *d,
                                    void **gpu, kiln_error *err)
{
    rt_recorder *r = user;
    if (r->fail_replaces)
        return kiln_error_set(err, KILN_E_USAGE, "test renderer refuses replaces");
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++)
        if (d->textures[s].id) assert_non_null(d->texture_gpu[s]);
    assert_non_null(*gpu);
    pthread_mutex_lock(&r->mu);
    r->last_base_gpu = d->texture_gpu[KILN_MATERIAL_SLOT_BASE_COLOR];
    pthread_mutex_unlock(&r->mu);
    record(r, "replace_material", h, KRT_TYPE_MATERIAL, 0, 2);
    return KILN_OK;
}
static kiln_result create_mesh(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                               kiln_error *err)
{
    if (fail_create(user))
        return kiln_error_set(err, KILN_E_USAGE, "test renderer fails this create");
    assert_non_null(d->view);
    assert_non_null(d->streams[KILN_MESH_POSITION]);
    *gpu = (void *)(uintptr_t)(h.id | 1);
    record(user, "create_mesh", h, KRT_TYPE_MESH, 1, 1);
    return KILN_OK;
}
static kiln_result create_material(void *user, krt_handle h, const krt_material_data *d, void **gpu,
                                   kiln_error *err)
{
    if (fail_create(user))
        return kiln_error_set(err, KILN_E_USAGE, "test renderer fails this create");
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++)
        if (d->textures[s].id) assert_non_null(d->texture_gpu[s]); /* textures come first */
    rt_recorder *r = user;
    pthread_mutex_lock(&r->mu);
    r->last_base_gpu = d->texture_gpu[KILN_MATERIAL_SLOT_BASE_COLOR];
    pthread_mutex_unlock(&r->mu);
    *gpu = (void *)(uintptr_t)(h.id | 1);
    record(user, "create_material", h, KRT_TYPE_MATERIAL, 1, 1);
    return KILN_OK;
}
static void destroy_texture(void *user, krt_handle h, void *gpu)
{
    record(user, "destroy_texture", h, KRT_TYPE_TEXTURE, -1, 0);
}
static void destroy_mesh(void *user, krt_handle h, void *gpu)
{
    record(user, "destroy_mesh", h, KRT_TYPE_MESH, -1, 0);
}
static void destroy_material(void *user, krt_handle h, void *gpu)
{
    record(user, "destroy_material", h, KRT_TYPE_MATERIAL, -1, 0);
}

static void take_shader(rt_recorder *r, const krt_shader_data *d)
{
    assert_non_null(d->view);
    assert_int_equal(d->variant_count, d->view->variant_count);
    pthread_mutex_lock(&r->mu);
    r->shader_word_count = 0;
    r->shader_variants = d->variant_count;
    r->shader_words_copied = false;
    for (uint32_t i = 0; i < d->variant_count; i++) {
        const krt_shader_variant *v = &d->variants[i];
        kiln_shader_variant_info info = kiln_shader_variant_at(d->view, i);
        assert_string_equal(v->name, info.name);
        assert_int_equal(v->word_count, info.word_count);
        assert_int_equal(v->word_count, kiln_shader_variant_words(d->view, i, NULL, 0));
        assert_int_equal((uintptr_t)v->words % 4, 0);
        assert_int_equal(v->words[0], KILN_SHADER_SPIRV_MAGIC);
        /* in place exactly when the reader can point into the file */
        if (info.words) assert_ptr_equal(v->words, info.words);
        else r->shader_words_copied = true;
        assert_true(r->shader_word_count + v->word_count <= RT_SHADER_WORDS_MAX);
        uint32_t *dst = r->shader_words + r->shader_word_count;
        memcpy(dst, v->words, v->word_count * 4);
        r->shader_word_count += v->word_count;
    }
    pthread_mutex_unlock(&r->mu);
}

static kiln_result create_shader(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                                 kiln_error *err)
{
    if (fail_create(user))
        return kiln_error_set(err, KILN_E_USAGE, "test renderer fails this create");
    take_shader(user, d);
    *gpu = (void *)(uintptr_t)(h.id | 1);
    record(user, "create_shader", h, KRT_TYPE_SHADER, 1, 1);
    return KILN_OK;
}
static kiln_result replace_shader(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                                  kiln_error *err)
{
    rt_recorder *r = user;
    if (r->fail_replaces)
        return kiln_error_set(err, KILN_E_USAGE, "test renderer refuses replaces");
    assert_non_null(*gpu);
    take_shader(r, d);
    /* a new object (the old one "freed"): the typed materials rebuilt with it must see it */
    *gpu = (void *)((uintptr_t)*gpu + 2);
    record(r, "replace_shader", h, KRT_TYPE_SHADER, 0, 2);
    return KILN_OK;
}
static void destroy_shader(void *user, krt_handle h, void *gpu)
{
    record(user, "destroy_shader", h, KRT_TYPE_SHADER, -1, 0);
}

/* What every create or replace of a typed material must get: the shaders' objects and the
 * variants the material names (vertex then fragment stage), every bound texture's object. */
static void take_typed_material(rt_recorder *r, const krt_typed_material_data *d)
{
    assert_non_null(d->view);
    const kiln_typed_material *m = &d->view->material;
    assert_int_equal(d->texture_count, m->texture_count);
    assert_non_null(d->vertex.id ? d->vertex_gpu : NULL);
    assert_non_null(d->fragment.id ? d->fragment_gpu : NULL);
    assert_non_null(d->vertex_variant);
    assert_non_null(d->fragment_variant);
    assert_string_equal(d->vertex_variant->name, m->vertex.variant);
    assert_string_equal(d->fragment_variant->name, m->fragment.variant);
    assert_int_equal(d->vertex_variant->words[0], KILN_SHADER_SPIRV_MAGIC);
    assert_int_equal(d->fragment_variant->words[0], KILN_SHADER_SPIRV_MAGIC);
    pthread_mutex_lock(&r->mu);
    r->tm_vertex_gpu = d->vertex_gpu;
    r->tm_fragment_gpu = d->fragment_gpu;
    r->tm_fragment_words = d->fragment_variant->words;
    r->tm_texture_count = d->texture_count;
    for (uint32_t i = 0; i < d->texture_count; i++) {
        assert_true(d->textures[i].id != 0);
        assert_non_null(d->texture_gpu[i]);
        if (i < 8) r->tm_texture_gpu[i] = d->texture_gpu[i];
    }
    pthread_mutex_unlock(&r->mu);
}

static kiln_result create_typed_material(void *user, krt_handle h, const krt_typed_material_data *d,
                                         void **gpu, kiln_error *err)
{
    if (fail_create(user))
        return kiln_error_set(err, KILN_E_USAGE, "test renderer fails this create");
    take_typed_material(user, d);
    *gpu = (void *)(uintptr_t)(h.id | 1);
    record(user, "create_typed_material", h, KRT_TYPE_TYPED_MATERIAL, 1, 1);
    return KILN_OK;
}
static kiln_result replace_typed_material(void *user, krt_handle h,
                                          const krt_typed_material_data *d, void **gpu,
                                          kiln_error *err)
{
    rt_recorder *r = user;
    if (r->fail_replaces)
        return kiln_error_set(err, KILN_E_USAGE, "test renderer refuses replaces");
    assert_non_null(*gpu);
    take_typed_material(r, d);
    record(r, "replace_typed_material", h, KRT_TYPE_TYPED_MATERIAL, 0, 2);
    return KILN_OK;
}
static void destroy_typed_material(void *user, krt_handle h, void *gpu)
{
    record(user, "destroy_typed_material", h, KRT_TYPE_TYPED_MATERIAL, -1, 0);
}

krt_renderer_shaders rt_recorder_shaders(void)
{
    krt_renderer_shaders k = {create_shader,          replace_shader,
                              destroy_shader,         create_typed_material,
                              replace_typed_material, destroy_typed_material};
    return k;
}

void rt_recorder_init(rt_recorder *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
}

krt_renderer rt_recorder_renderer(rt_recorder *r)
{
    krt_renderer k;
    memset(&k, 0, sizeof k);
    k.create_texture = create_texture;
    k.destroy_texture = destroy_texture;
    k.create_mesh = create_mesh;
    k.destroy_mesh = destroy_mesh;
    k.create_material = create_material;
    k.destroy_material = destroy_material;
    k.replace_texture = replace_texture;
    k.replace_mesh = replace_mesh;
    k.replace_material = replace_material;
    k.user = r;
    return k;
}

void rt_project_open(rt_project *p, const char *const *corpus_dirs, size_t count)
{
    p->dir = rt_cook_project(corpus_dirs, count);
    p->cache = kt_format("%s/.kiln/cache", p->dir);
}

void rt_project_close(rt_project *p)
{
    kt_rmtree(p->dir);
    free(p->dir);
    free(p->cache);
    p->dir = p->cache = NULL;
}

krt_handle rt_load_ready(krt_context *c, krt_type type, const char *name)
{
    kiln_error err;
    krt_handle h = krt_load(c, type, name, &err);
    if (h.id == 0) fail_msg("%s: %s", name, err.message);
    krt_finish(c);
    if (krt_state_of(c, h) != KRT_STATE_READY) {
        krt_error(c, h, &err);
        fail_msg("%s: %s", name, err.message);
    }
    return h;
}
