/* rt_fixture.h — a cooked temporary project for the runtime tests, and a recording renderer. */
#ifndef KILN_TEST_RT_FIXTURE_H
#define KILN_TEST_RT_FIXTURE_H

#include <pthread.h>

#include "kiln/kiln_rt.h"

/* Copies the given corpus glTF folders (relative to the corpus) into assets/ of a new project
 * and imports them with libkiln; returns the project folder (malloc'd); the cache is
 * <dir>/.kiln/cache. Skips (77) without the corpus. */
char *rt_cook_project(const char *const *corpus_dirs, size_t count);

/* The cooked project a test program shares (set up once in its group set-up): the project
 * folder and its cache folder, malloc'd. close removes the folder and frees both. */
typedef struct rt_project {
    char *dir, *cache;
} rt_project;
void rt_project_open(rt_project *p, const char *const *corpus_dirs, size_t count);
void rt_project_close(rt_project *p);

/* krt_load of name as type, then krt_finish; fails the test (with the asset's error) unless the
 * handle ends ready. */
krt_handle rt_load_ready(krt_context *c, krt_type type, const char *name);

/* Imports the project at dir again with libkiln (after a test changed a source). */
void rt_reimport(const char *dir);

/* Writes one cooked artifact into the cache folder `cache` as kiln lays it out: the file
 * <label>.kc of bytes in an entry whose key (and the output's sha256) is the bytes' SHA-256, its
 * manifest.json, and the record assets/<guid>.json of source `path` naming that entry, replaced
 * by rename as kiln's import does. The artifact mounts as "<path>#<label>". */
void rt_write_artifact(const char *cache, const char *guid, const char *path, const char *label,
                       const uint8_t *bytes, size_t size);

#define RT_SHADER_WORDS_MAX 65536 /* every variant of a test shader, one after another */

typedef struct rt_recorder {
    pthread_mutex_t mu;
    int creates[KRT_TYPE_COUNT], destroys[KRT_TYPE_COUNT], replaces[KRT_TYPE_COUNT];
    uint32_t last_width; /* of the last texture created or replaced */
    uint32_t last_vk_format;
    int fail_replaces;   /* replace_* fail when set */
    int live;            /* created and not destroyed */
    int fail_textures;   /* create_texture fails when set */
    int fail_creates;    /* the next fail_creates create_* calls fail (any type) */
    void *last_base_gpu; /* base colour texture object of the last material made or replaced */
    /* The last create_shader or replace_shader: every variant's words one after another, how
     * many, and whether they were a copy the load job made (kiln_shader_variant_at could not
     * point into the file) rather than the file's bytes used in place. */
    uint32_t shader_words[RT_SHADER_WORDS_MAX];
    size_t shader_word_count;
    uint32_t shader_variants;
    bool shader_words_copied;
    /* The last create_typed_material or replace_typed_material: the shaders' objects, the
     * fragment variant's words, the textures' objects (the first 8) and how many. */
    void *tm_vertex_gpu, *tm_fragment_gpu;
    const uint32_t *tm_fragment_words;
    void *tm_texture_gpu[8];
    uint32_t tm_texture_count;
    char log[8192];
    size_t log_size;
} rt_recorder;

void rt_recorder_init(rt_recorder *r);
krt_renderer rt_recorder_renderer(rt_recorder *r); /* create, destroy, replace: all */
/* Its shader and typed material callbacks, for krt_desc.renderer_shaders (their user is the
 * renderer's: r). The shader ones check what they get: one record per variant of the view,
 * named as the view names it, words 4-byte aligned, starting with the SPIR-V magic, equal to
 * kiln_shader_variant_words; replace_shader makes a new object (the old one + 2). The typed
 * material ones check that both shaders and every texture have objects and that the variants
 * are those the material names. */
krt_renderer_shaders rt_recorder_shaders(void);

#endif
