/* scene_build.h — what importers and processors use to build a kiln_scene: the storage every
 * part of it lives in (one arena), warnings, the list of files read, and writable views of the
 * read-only public structs. Import fills a scene; process (normals, tangents) completes it. */
#ifndef KILN_IMPORT_SCENE_BUILD_H
#define KILN_IMPORT_SCENE_BUILD_H

#include <stdbool.h>

#include "core/arena.h"
#include "core/error.h"
#include "kiln/kiln_scene.h"

/* Most warnings a scene keeps; the last one says how many more were dropped. */
#define KILN_SCENE_MAX_WARNINGS 256

struct kiln_scene_storage {
    kiln_arena arena; /* holds this record, the scene and everything it points at */
    kiln_scene scene;
    const char **warnings;
    uint32_t warning_capacity;
    uint64_t warnings_dropped;
    const char **files;
    uint32_t file_capacity;
};

/* A new empty scene whose storage is an arena on allocator (NULL = libc) bounded by limit
 * (0 = none). Errors: KILN_E_OUT_OF_MEMORY, KILN_E_LIMIT. */
kiln_result kiln_scene_create(const kiln_allocator *allocator, size_t limit, kiln_scene **out,
                              kiln_error *err);

static inline kiln_arena *kiln_scene_arena(kiln_scene *s) { return &s->storage->arena; }

/* The error for a failed arena allocation: KILN_E_LIMIT when the limit was the cause, else
 * KILN_E_OUT_OF_MEMORY; what names the thing being allocated. */
kiln_result kiln_scene_alloc_error(kiln_scene *s, kiln_error *err, const char *what);

/* Adds a warning (printf-style). Past KILN_SCENE_MAX_WARNINGS they are counted, not kept.
 * Returns false only when memory runs out. */
bool kiln_scene_warn(kiln_scene *s, const char *fmt, ...) KILN_PRINTF(2, 3);

/* Records a file the scene was read from (not repeated). false when memory runs out. */
bool kiln_scene_add_file(kiln_scene *s, const char *path);

/* Writable views for the builders. */
static inline kiln_scene_primitive *kiln_scene_prim_mut(kiln_scene *s, uint32_t mesh, uint32_t p)
{
    return (kiln_scene_primitive *)&s->meshes[mesh].primitives[p];
}

#endif
