/* scene_build.c — scene storage, warnings, files, and kiln_scene_free. */
#include "import/scene_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

kiln_result kiln_scene_create(const kiln_allocator *allocator, size_t limit, kiln_scene **out,
                              kiln_error *err)
{
    *out = NULL;
    kiln_arena arena;
    kiln_arena_init(&arena, allocator, limit);
    struct kiln_scene_storage *st = kiln_arena_alloc(&arena, sizeof *st, 16);
    if (!st) {
        bool limit_hit = arena.over_limit;
        kiln_arena_release(&arena);
        return kiln_error_set(err, limit_hit ? KILN_E_LIMIT : KILN_E_OUT_OF_MEMORY,
                              "no memory for a scene");
    }
    st->arena = arena; /* the arena now lives inside its own first block */
    st->scene.storage = st;
    st->scene.default_scene = -1;
    st->scene.generator = "";
    *out = &st->scene;
    return KILN_OK;
}

kiln_result kiln_scene_alloc_error(kiln_scene *s, kiln_error *err, const char *what)
{
    if (s->storage->arena.over_limit)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "%s: the scene would pass its memory limit (%zu bytes)", what,
                              s->storage->arena.limit);
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "%s: out of memory", what);
}

/* Appends to a growing pointer list kept in the arena (the old array is abandoned there). */
static bool list_push(kiln_arena *a, const char ***list, uint32_t *count, uint32_t *capacity,
                      const char *item)
{
    if (*count == *capacity) {
        uint32_t cap = *capacity ? *capacity * 2 : 8;
        const char **grown = kiln_arena_array(a, cap, sizeof *grown);
        if (!grown) return false;
        if (*count) memcpy(grown, *list, *count * sizeof *grown);
        *list = grown;
        *capacity = cap;
    }
    (*list)[(*count)++] = item;
    return true;
}

bool kiln_scene_warn(kiln_scene *s, const char *fmt, ...)
{
    struct kiln_scene_storage *st = s->storage;
    if (s->warning_count >= KILN_SCENE_MAX_WARNINGS - 1) {
        st->warnings_dropped++;
        char text[96];
        snprintf(text, sizeof text, "%llu more warnings were left out",
                 (unsigned long long)st->warnings_dropped);
        char *copy = kiln_arena_strdup(&st->arena, text);
        if (!copy) return false;
        if (s->warning_count == KILN_SCENE_MAX_WARNINGS - 1) {
            uint32_t n = s->warning_count;
            if (!list_push(&st->arena, &st->warnings, &n, &st->warning_capacity, copy))
                return false;
            s->warning_count = n;
        } else {
            st->warnings[KILN_SCENE_MAX_WARNINGS - 1] = copy;
        }
        s->warnings = st->warnings;
        return true;
    }
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char *copy = kiln_arena_strdup(&st->arena, text);
    uint32_t n = s->warning_count;
    if (!copy || !list_push(&st->arena, &st->warnings, &n, &st->warning_capacity, copy))
        return false;
    s->warning_count = n;
    s->warnings = st->warnings;
    return true;
}

bool kiln_scene_add_file(kiln_scene *s, const char *path)
{
    struct kiln_scene_storage *st = s->storage;
    for (uint32_t i = 0; i < s->file_count; i++)
        if (strcmp(s->files[i], path) == 0) return true;
    char *copy = kiln_arena_strdup(&st->arena, path);
    uint32_t n = s->file_count;
    if (!copy || !list_push(&st->arena, &st->files, &n, &st->file_capacity, copy)) return false;
    s->file_count = n;
    s->files = st->files;
    return true;
}

void kiln_scene_free(kiln_scene *scene)
{
    if (!scene) return;
    kiln_arena arena = scene->storage->arena; /* copy out: the record is freed with its block */
    kiln_arena_release(&arena);
}
