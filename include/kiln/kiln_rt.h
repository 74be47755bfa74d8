/* kiln_rt.h — libkiln_rt, the run-time library an engine links to use kiln's cooked output: it
 * mounts cache folders, loads assets on worker threads, hands GPU work to the engine's renderer
 * through callbacks, counts references and follows dependencies. docs/runtime.md is the guide.
 *
 * Thread rules, in short (each function says its own):
 *   - krt_create / krt_destroy: one thread, nothing else running on the context.
 *   - krt_mount_*, krt_lookup*, krt_load_*, krt_release, krt_state, krt_error, krt_stats: any
 *     thread, at any time (one lock inside the context).
 *   - krt_update, krt_finish, and the renderer's callbacks: the thread that owns the renderer
 *     ("the renderer thread"), one call at a time.
 *   - krt_get_*: any thread, for a handle that is ready and that the caller holds a reference
 *     to; the data stays valid until that reference is released.
 * No global state: several contexts work side by side. */
#ifndef KILN_RT_H
#define KILN_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct krt_context krt_context;

/* A loaded asset: 64 bits = type (8) | generation (24) | slot (32). 0 is never a valid handle.
 * A handle whose asset was released to zero is stale: every call reports it (KILN_E_USAGE),
 * even after the slot holds another asset (its generation differs). */
typedef struct krt_handle {
    uint64_t id;
} krt_handle;

typedef enum krt_type {
    KRT_TYPE_NONE = 0,
    KRT_TYPE_TEXTURE = 1,    /* image<i>, image<i>/<role>, texture: a KTX2 file */
    KRT_TYPE_MESH = 2,       /* mesh<i>/prim<p>: container MESH */
    KRT_TYPE_MATERIAL = 3,   /* material<i>: container MATL */
    KRT_TYPE_SKELETON = 4,   /* skeleton<i>: container SKEL */
    KRT_TYPE_CLIP = 5,       /* clip<i>: container CLIP */
    KRT_TYPE_SCENE = 6,      /* scene: container SCEN */
    KRT_TYPE_COUNT = 7,
} krt_type;

typedef enum krt_state {
    KRT_STATE_INVALID = 0,   /* a null, stale or foreign handle */
    KRT_STATE_LOADING = 1,   /* queued, decoding, waiting for dependencies or for krt_update */
    KRT_STATE_READY = 2,
    KRT_STATE_FAILED = 3,    /* krt_error says why; loading it again tries again */
} krt_state;

/* The type a handle carries (no context needed; KRT_TYPE_NONE for 0). */
static inline krt_type krt_handle_type(krt_handle h)
{
    uint32_t t = (uint32_t)(h.id >> 56);
    return t < KRT_TYPE_COUNT ? (krt_type)t : KRT_TYPE_NONE;
}

/* ---- CPU data handed to the renderer and to krt_get_* ------------------------------------ */

/* A texture: the KTX2 header's facts and every level with supercompression undone. */
typedef struct krt_texture_data {
    uint32_t vk_format;                       /* kiln_vk_format */
    uint32_t width, height, level_count;
    bool srgb;
    uint32_t block_width, block_height, block_size;
    kiln_ktx2_level levels[KILN_KTX2_MAX_LEVELS]; /* data/size: the GPU-ready bytes of a level */
} krt_texture_data;

/* A mesh: the validated view (header, LODs, meshlets; views into the file's bytes) and every
 * present stream unpacked as the GPU takes it (count * stride bytes; NULL when absent). */
typedef struct krt_mesh_data {
    const kiln_mesh_view *view;
    const void *streams[KILN_MESH_STREAM_COUNT];
    size_t stream_sizes[KILN_MESH_STREAM_COUNT];
    krt_handle material;                      /* the mesh's material, or 0 for the default */
} krt_mesh_data;

/* A material: its parameters and, per slot, the texture it samples (0 when empty) with the
 * renderer's object for it (NULL with the null renderer). */
typedef struct krt_material_data {
    const kiln_material *material;
    krt_handle textures[KILN_MATERIAL_SLOT_COUNT];
    void *texture_gpu[KILN_MATERIAL_SLOT_COUNT];
} krt_material_data;

/* A scene: the validated view and the handles of what it names, in the view's order. */
typedef struct krt_scene_data {
    const kiln_cooked_scene_view *view;
    const krt_handle *primitives;             /* view->primitive_count mesh handles */
    const krt_handle *clips;                  /* view->clip_count clip handles */
    const krt_handle *skeletons;              /* skeleton_count handles, each distinct */
    uint32_t skeleton_count;
} krt_scene_data;

/* ---- interfaces the engine may supply ---------------------------------------------------- */

/* A job the runtime wants run once, on any thread. */
typedef void (*krt_job_fn)(void *arg);

/* The engine's scheduler. submit queues fn(arg) and returns true, or returns false when it
 * cannot take more (the runtime then runs the job inline on the calling thread). wait blocks
 * (or runs other jobs) until done(done_arg) returns true; the runtime calls it only from
 * krt_wait and krt_destroy. Both may be called from any thread. All NULL = the built-in pool. */
typedef struct krt_jobs {
    bool (*submit)(void *user, krt_job_fn fn, void *arg);
    void (*wait)(void *user, bool (*done)(void *done_arg), void *done_arg);
    void *user;
} krt_jobs;

/* The engine's renderer. Every callback is optional and runs on the renderer thread inside
 * krt_update (destroy also inside krt_destroy). create fills *gpu with the engine's object
 * (any pointer; NULL is allowed) and returns KILN_OK, or fails with a code and err filled: the
 * asset is then failed with that error. replace is for hot reload (not used yet: see
 * docs/runtime.md). The data passed is valid during the call and, for the CPU copy the runtime
 * keeps, until the asset is released. A renderer without callbacks (all NULL) keeps CPU data only. */
typedef struct krt_renderer {
    kiln_result (*create_texture)(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                                  kiln_error *err);
    kiln_result (*replace_texture)(void *user, krt_handle h, const krt_texture_data *d, void **gpu,
                                   kiln_error *err);
    void (*destroy_texture)(void *user, krt_handle h, void *gpu);
    kiln_result (*create_mesh)(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                               kiln_error *err);
    kiln_result (*replace_mesh)(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                                kiln_error *err);
    void (*destroy_mesh)(void *user, krt_handle h, void *gpu);
    kiln_result (*create_material)(void *user, krt_handle h, const krt_material_data *d,
                                   void **gpu, kiln_error *err);
    kiln_result (*replace_material)(void *user, krt_handle h, const krt_material_data *d,
                                    void **gpu, kiln_error *err);
    void (*destroy_material)(void *user, krt_handle h, void *gpu);
    void *user;
} krt_renderer;

/* What a context is created from. `= {0}` with struct_size set gives the defaults. */
typedef struct krt_desc {
    uint32_t struct_size;       /* sizeof(krt_desc); 0 is taken as the current size */
    kiln_allocator allocator;   /* all NULL = libc */
    krt_jobs jobs;              /* all NULL = the built-in pool */
    uint32_t worker_count;      /* built-in pool threads; 0 = CPUs - 1 (at least 1) */
    uint32_t queue_capacity;    /* built-in pool queue; 0 = 1024. A full queue runs jobs inline */
    krt_renderer renderer;      /* all NULL = the null renderer */
    uint32_t max_assets;        /* live assets at once; 0 = 16384, at most 2^24 */
    uint64_t max_file_size;     /* largest file a load reads; 0 = 1 GiB */
    bool no_verify;             /* skip container checksums and manifest SHA-256 checks */
} krt_desc;

/* Creates a context. desc may be NULL (defaults). Starts the built-in pool's threads unless
 * desc->jobs.submit is set. Errors: KILN_E_USAGE (struct_size too large, both or neither of
 * submit/wait, max_assets above 2^24), KILN_E_OUT_OF_MEMORY (memory or threads).
 * Thread rules: any thread; the context is then usable from every thread. */
KILN_API kiln_result krt_create(const krt_desc *desc, krt_context **out, kiln_error *err);

/* Waits for every job, runs the renderer's destroy callbacks for what is still live, frees
 * everything. Handles still held become meaningless. NULL is a no-op.
 * Thread rules: the renderer thread; no other call on this context may run or follow. */
KILN_API void krt_destroy(krt_context *ctx);

/* ---- mounts -------------------------------------------------------------------------------- */

/* Mounts a kiln cache folder (the `cache` folder of a project: assets/<guid>.json records and
 * objects/<kk>/<key>/manifest.json entries). Every artifact of every record whose entry is
 * whole becomes loadable by id and by name "path#label"; a record without an entry (a failed or
 * never finished import) is skipped. A later mount's artifact overrides an earlier one's with
 * the same id or name; assets already loaded keep their data. *artifact_count (may be NULL)
 * gets how many artifacts this mount added. Errors: KILN_E_ASSET_IO (no such folder),
 * KILN_E_CACHE_CORRUPT (a record or manifest that is not valid JSON of the expected shape;
 * err->path names it), KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY; nothing is mounted then.
 * Thread rules: any thread. */
KILN_API kiln_result krt_mount_cache(krt_context *ctx, const char *cache_dir,
                                     size_t *artifact_count, kiln_error *err);

/* The asset id of name "path#label" in the mounts: true and *id set, or false. Any thread. */
KILN_API bool krt_lookup(krt_context *ctx, const char *name, uint64_t *id);

/* The type of the mounted artifact with this id, KRT_TYPE_NONE when no mount has it. */
KILN_API krt_type krt_lookup_id(krt_context *ctx, uint64_t id);

/* ---- loading ------------------------------------------------------------------------------- */

/* Returns a handle at once and, the first time, queues a job that reads, verifies and decodes
 * the asset and loads its dependencies (a material its textures, a mesh its material, a scene
 * its meshes, skeletons and clips). Loading an asset that is loaded already returns the same
 * handle and counts one more reference (each load needs one krt_release); loading a failed one
 * tries again on the same handle. An id that no mount has gives a handle that fails ("not
 * mounted"). Returns the 0 handle with err filled when: the name is not mounted (KILN_E_USAGE),
 * the asset is mounted or loaded as another type (KILN_E_USAGE), max_assets are live
 * (KILN_E_LIMIT), memory runs out. Thread rules: any thread. */
KILN_API krt_handle krt_load(krt_context *ctx, krt_type type, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_id(krt_context *ctx, krt_type type, uint64_t id, kiln_error *err);

KILN_API krt_handle krt_load_texture(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_mesh(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_material(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_skeleton(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_clip(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_scene(krt_context *ctx, const char *name, kiln_error *err);

/* Drops one reference. At zero the handle becomes stale at once; the asset's dependencies are
 * released and the renderer's destroy callback runs in a later krt_update (or krt_destroy).
 * Errors: KILN_E_USAGE for a null or stale handle — which is what releasing past zero is.
 * Thread rules: any thread. */
KILN_API kiln_result krt_release(krt_context *ctx, krt_handle h, kiln_error *err);

/* The state of a handle (KRT_STATE_INVALID when null or stale). Any thread. */
KILN_API krt_state krt_state_of(krt_context *ctx, krt_handle h);

/* Copies the error of a failed asset into *out and returns its code; KILN_OK (out cleared) when
 * it has not failed; KILN_E_USAGE (out says "stale handle ...") when null or stale. Any thread. */
KILN_API kiln_result krt_error(krt_context *ctx, krt_handle h, kiln_error *out);

/* The asset id behind a handle (0 when null or stale). Any thread. */
KILN_API uint64_t krt_asset_id(krt_context *ctx, krt_handle h);

/* Runs the renderer's work on the calling (renderer) thread: create callbacks for decoded assets
 * whose dependencies are ready (dependencies first), marks assets ready or failed (a failed
 * dependency fails its dependents with its error), runs destroy callbacks of released assets and
 * frees them. Returns how many assets are still loading. Thread rules: the renderer thread. */
KILN_API size_t krt_update(krt_context *ctx);

/* Blocks until no job of this context is queued or running (decoded assets still need
 * krt_update). Thread rules: any thread except a job of this context. */
KILN_API void krt_wait(krt_context *ctx);

/* krt_wait and krt_update until nothing is loading. Thread rules: the renderer thread. */
KILN_API void krt_finish(krt_context *ctx);

/* ---- data of a ready asset ------------------------------------------------------------------ */

/* Fill *out for a ready handle of that type. Errors: KILN_E_USAGE (null, stale, another type, or
 * not ready). Thread rules: any thread; valid while the caller holds its reference. */
KILN_API kiln_result krt_get_texture(krt_context *ctx, krt_handle h, krt_texture_data *out,
                                     kiln_error *err);
KILN_API kiln_result krt_get_mesh(krt_context *ctx, krt_handle h, krt_mesh_data *out,
                                  kiln_error *err);
KILN_API kiln_result krt_get_material(krt_context *ctx, krt_handle h, krt_material_data *out,
                                      kiln_error *err);
KILN_API kiln_result krt_get_skeleton(krt_context *ctx, krt_handle h,
                                      const kiln_skeleton_view **out, kiln_error *err);
KILN_API kiln_result krt_get_clip(krt_context *ctx, krt_handle h, const kiln_clip_view **out,
                                  kiln_error *err);
KILN_API kiln_result krt_get_scene(krt_context *ctx, krt_handle h, krt_scene_data *out,
                                   kiln_error *err);

/* The renderer's object for a ready texture, mesh or material (NULL otherwise). Any thread. */
KILN_API void *krt_gpu(krt_context *ctx, krt_handle h);

/* ---- counters ------------------------------------------------------------------------------- */

typedef struct krt_stats {
    uint64_t live_assets;       /* slots in use (loading, ready, failed, or released awaiting
                                   krt_update) */
    uint64_t loads;             /* jobs started (first loads and retries) */
    uint64_t failures;          /* assets that ended failed */
    uint64_t resident_bytes;    /* CPU bytes held by live assets (files and decoded data) */
    uint64_t mounted_artifacts; /* distinct ids over all mounts */
} krt_stats;

KILN_API void krt_get_stats(krt_context *ctx, krt_stats *out);   /* any thread */

#ifdef __cplusplus
}
#endif
#endif
