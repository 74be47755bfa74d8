/* kiln_rt.h — libkiln_rt, the run-time library an engine links to use kiln's cooked output: it
 * mounts cache folders, loads assets on worker threads, hands GPU work to the engine's renderer
 * through callbacks, counts references and follows dependencies. docs/runtime.md is the guide.
 *
 * Thread rules, in short (each function says its own):
 *   - krt_create / krt_destroy, krt_register_type (before the first mount or load): one thread,
 *     nothing else running on the context.
 *   - krt_mount_*, krt_unmount, krt_lookup*, krt_load_*, krt_release, krt_reload,
 *     krt_poll_changes, krt_state_of, krt_error, krt_get_stats, krt_watch_*: any thread, at any
 *     time (one lock inside the context; krt_mount_list's callback runs under it and must not
 *     call the context).
 *   - krt_wait: any thread except a job of this context.
 *   - krt_update, krt_finish, krt_material_table and the renderer's callbacks: the thread that
 *     owns the renderer ("the renderer thread"), one call at a time.
 *   - krt_get_*, krt_get_data: any thread, for a handle that is ready and that the caller
 *     holds a reference to; the data stays valid until that reference is released or a hot
 *     reload of the asset is applied (in krt_update).
 * No global state: several contexts work side by side. */
#ifndef KILN_RT_H
#define KILN_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"

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
    KRT_TYPE_TEXTURE = 1,        /* image<i>, image<i>/<role>, texture: a KTX2 file */
    KRT_TYPE_MESH = 2,           /* mesh<i>/prim<p>: container MESH */
    KRT_TYPE_MATERIAL = 3,       /* material<i>: container MATL */
    KRT_TYPE_SKELETON = 4,       /* skeleton<i>: container SKEL */
    KRT_TYPE_CLIP = 5,           /* clip<i>: container CLIP */
    KRT_TYPE_SCENE = 6,          /* scene: container SCEN */
    KRT_TYPE_SHADER = 7,         /* shader: container SHDR (a .kshader) */
    KRT_TYPE_TYPED_MATERIAL = 8, /* typed_material: container TMAT (a cooked .kmat) */
    KRT_TYPE_VGEO = 9,           /* vgeo<i>/prim<p>: container VGEO (virtual geometry) */
    /* One more than the last built-in type, and the first number krt_register_type gives: it
     * grows when a built-in type is appended (10 since KRT_TYPE_VGEO, 9 since
     * KRT_TYPE_TYPED_MATERIAL, 8 since KRT_TYPE_SHADER, 7 before), so a program's registered
     * types take the number krt_register_type returns, never a constant. */
    KRT_TYPE_COUNT = 10,
} krt_type;

typedef enum krt_state {
    KRT_STATE_INVALID = 0, /* a null, stale or foreign handle */
    KRT_STATE_LOADING = 1, /* queued, decoding, waiting for dependencies or for krt_update */
    KRT_STATE_READY = 2,
    KRT_STATE_FAILED = 3, /* krt_error says why; loading it again tries again */
} krt_state;

/* Type numbers are below this: a handle holds its type in 8 bits. The built-in types are 1 ..
 * KRT_TYPE_COUNT - 1; krt_register_type numbers a program's types from KRT_TYPE_COUNT up. */
#define KRT_TYPE_LIMIT 256u

/* The built-in type a handle carries (no context needed; KRT_TYPE_NONE for 0 and for a handle
 * of a registered type: krt_handle_type_id gives those). */
static inline krt_type krt_handle_type(krt_handle h)
{
    uint32_t t = (uint32_t)(h.id >> 56);
    return t < KRT_TYPE_COUNT ? (krt_type)t : KRT_TYPE_NONE;
}

/* The type number a handle carries, registered types included (0 for the 0 handle). */
static inline uint32_t krt_handle_type_id(krt_handle h) { return (uint32_t)(h.id >> 56); }

/* The slot a handle carries: below krt_desc.max_assets, unique among live assets of a context
 * and stable while the asset lives (hot reload keeps it). It is the texture-table index the GPU
 * material table uses: an engine with a bindless texture array puts a texture's object at
 * index krt_handle_slot(h). */
static inline uint32_t krt_handle_slot(krt_handle h) { return (uint32_t)h.id; }

#define KRT_INVALID_INDEX 0xFFFFFFFFu /* no texture / no material record */

/* ---- CPU data handed to the renderer and to krt_get_* ------------------------------------ */

/* A texture: the KTX2 header's facts and every level with supercompression undone. */
typedef struct krt_texture_data {
    uint32_t vk_format; /* kiln_vk_format */
    uint32_t width, height, level_count;
    bool srgb;
    uint32_t block_width, block_height, block_size;
    /* data/size: the GPU-ready bytes of a level, all its images (layers, faces, slices) in KTX2
     * order; image_size: the bytes of one of them */
    kiln_ktx2_level levels[KILN_KTX2_MAX_LEVELS];
    uint32_t shape;       /* kiln_texture_shape: the image view to make (0: 2D) */
    uint32_t face_count;  /* 6 for cubes, else 1 (0 is read as 1) */
    uint32_t layer_count; /* array layers, else 1 (0 is read as 1) */
    uint32_t depth;       /* level 0 slices of a volume, else 1 (0 is read as 1) */
    /* The file's key/value data (an irradiance cube's "kiln.sh9", docs/ibl.md): find a key with
     * kiln_ktx2_kv_find. Valid as long as the levels' bytes are. NULL, 0 when absent. */
    const uint8_t *kv_data;
    size_t kv_size;
} krt_texture_data;

/* A mesh: the validated view (header, LODs, meshlets; views into the file's bytes) and every
 * present stream unpacked as the GPU takes it (count * stride bytes; NULL when absent). */
typedef struct krt_mesh_data {
    const kiln_mesh_view *view;
    const void *streams[KILN_MESH_STREAM_COUNT];
    size_t stream_sizes[KILN_MESH_STREAM_COUNT];
    krt_handle material; /* the mesh's material, or 0 for the default */
} krt_mesh_data;

/* A material: its parameters and, per slot, the texture it samples (0 when empty) with the
 * renderer's object for it (NULL with the null renderer); the same for the slots of the glTF
 * material extensions (kiln_material_ext_slot), whose factors are material->ext. */
typedef struct krt_material_data {
    const kiln_material *material;
    krt_handle textures[KILN_MATERIAL_SLOT_COUNT];
    void *texture_gpu[KILN_MATERIAL_SLOT_COUNT];
    krt_handle ext_textures[KILN_MATERIAL_EXT_SLOT_COUNT];
    void *ext_texture_gpu[KILN_MATERIAL_EXT_SLOT_COUNT];
} krt_material_data;

/* A scene: the validated view and the handles of what it names, in the view's order. */
typedef struct krt_scene_data {
    const kiln_cooked_scene_view *view;
    const krt_handle *primitives; /* view->primitive_count mesh handles */
    const krt_handle *clips;      /* view->clip_count clip handles */
    const krt_handle *skeletons;  /* skeleton_count handles, each distinct */
    uint32_t skeleton_count;
} krt_scene_data;

/* One variant of a shader as the renderer takes it: the SPIR-V in host order, 4-byte aligned
 * (a view into the file's bytes when they are aligned and the host is little-endian, else a
 * copy the load job made once with kiln_shader_variant_words). */
typedef struct krt_shader_variant {
    const char *name; /* kiln_shader_variant_at(view, i).name: "default", "skinned" */
    const uint32_t *words;
    size_t word_count; /* >= 5; words[0] is KILN_SHADER_SPIRV_MAGIC */
} krt_shader_variant;

/* A shader: the validated view (stage, entry point, and each variant's reflection through the
 * kiln_shader_*_at accessors of kiln_format.h: kiln_shader_binding_at(view, variant, i) ...)
 * and every variant's words, in the view's order (variants[i] is variant i of the view; find
 * one by name with kiln_shader_find_variant). */
typedef struct krt_shader_data {
    const kiln_shader_view *view;
    const krt_shader_variant *variants;
    uint32_t variant_count; /* view->variant_count */
} krt_shader_data;

/* A typed material (a .kmat cooked against its shaders, docs/shaders.md): the validated view
 * (render state, the parameter block's bytes as the GPU reads them, and each sampled-image
 * binding's set, binding and sampler through kiln_typed_material_texture_at(view, i)), the two
 * shaders it draws with, the variant of each it names with the renderer's objects, and the
 * texture of each binding with its object. The variants and the objects are those of the
 * shaders' and textures' current data: when one of them reloads, replace_typed_material gets
 * them anew. */
typedef struct krt_typed_material_data {
    const kiln_typed_material_view *view;
    krt_handle vertex, fragment; /* the shaders (KRT_TYPE_SHADER handles) */
    /* The variants view->material.vertex and .fragment name, in the shaders' current data; NULL
     * only after a shader's reload dropped the variant (the material's rebuild then failed:
     * krt_reload_error says so, and the renderer keeps its old object). */
    const krt_shader_variant *vertex_variant;
    const krt_shader_variant *fragment_variant;
    void *vertex_gpu, *fragment_gpu; /* the shaders' objects (NULL without) */
    const krt_handle *textures;      /* texture_count: binding i's texture */
    void *const *texture_gpu;        /* texture_count: its object (NULL without) */
    uint32_t texture_count;          /* view->material.texture_count */
    /* Where the parameter block sits in the material block table (krt_material_blocks), a
     * multiple of KRT_MATERIAL_BLOCK_ALIGN; KRT_INVALID_INDEX without a block. */
    uint32_t block_offset;
} krt_typed_material_data;

/* Virtual geometry (a mesh's cluster DAG, kiln_format.h "virtual geometry"): the validated view
 * (groups, clusters, links and bounds through the kiln_vgeo_* accessors; a cut with
 * kiln_vgeo_select) and the mesh whose vertices its clusters index, which loads with it: draw
 * the clusters of a cut from that mesh's vertex streams (krt_gpu(ctx, mesh) with a renderer).
 * CPU data only: the VGEO has no renderer callback of its own. */
typedef struct krt_vgeo_data {
    const kiln_vgeo_view *view;
    krt_handle mesh; /* KRT_TYPE_MESH, ready */
} krt_vgeo_data;

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
 * asset is then failed with that error. replace is for hot reload: *gpu holds the current object
 * on entry; the callback updates it in place or stores a new one (freeing the old itself), and
 * returns KILN_OK; when it fails, the object and the asset's old data stay and the reload is
 * reported failed (krt_reload_error). Without replace_*, a reload calls create_* for the new
 * data and then destroy_* for the old object. destroy runs when the asset's references reach
 * zero (a released asset kept resident under krt_desc.budget_bytes keeps CPU data only; a new
 * load of it calls create_* again). The data passed is valid during the call and, for the CPU
 * copy the runtime keeps, until the asset is released or reloaded. A renderer without callbacks
 * (all NULL) keeps CPU data only. */
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
    kiln_result (*create_material)(void *user, krt_handle h, const krt_material_data *d, void **gpu,
                                   kiln_error *err);
    kiln_result (*replace_material)(void *user, krt_handle h, const krt_material_data *d,
                                    void **gpu, kiln_error *err);
    void (*destroy_material)(void *user, krt_handle h, void *gpu);
    void *user;
    /* Whether the renderer can sample vk_format (a kiln_vk_format). NULL = every format. When it
     * says no for a BC or ASTC format, load jobs transcode every level to RGBA8 (R8G8B8A8_SRGB
     * for sRGB data, _UNORM otherwise) before create_texture sees it. A Basis Universal texture
     * (UASTC or ETC1S) is transcoded by the load job to the first of its targets
     * (kiln_basis_targets: ASTC 4x4, BC7, ETC2, BC1/BC3/BC4/BC5, EAC, best first) this says
     * yes to, RGBA8 when it says no to all; without the callback to RGBA8, since then nothing
     * says what the GPU samples. Called from job threads (any thread, concurrently): it must be
     * thread-safe and cheap. */
    bool (*supports_format)(void *user, uint32_t vk_format);
} krt_renderer;

/* The renderer's callbacks for shaders and typed materials (krt_desc.renderer_shaders), with
 * krt_renderer's rules and its user pointer (krt_desc.renderer.user): create_shader makes the
 * engine's object (a VkShaderModule per variant, a pipeline ...) from the words of the variants
 * it wants and the reflection, replace_shader takes a hot reload's new data (without it:
 * create_shader for the new data, then destroy_shader of the old object), destroy_shader runs
 * when the references reach zero. create_typed_material runs after both shaders' and every
 * texture's create (a pipeline and a descriptor set from their objects); replace_typed_material
 * runs for a reload of the material and for a reload of any of its shaders or textures (its
 * objects are rebuilt from theirs). All NULL: shaders and typed materials keep CPU data only.
 * Why not members of krt_renderer: krt_renderer has no struct_size and sits in the middle of
 * krt_desc, so growing it would move every later member of krt_desc (max_assets ... flags) for
 * a program built against an older header, which passes its struct_size and its own layout.
 * Appended at the end of krt_desc instead, they follow krt_desc's rule for later members: an
 * older caller's struct_size ends before them and it gets NULL (shaders without GPU objects). */
typedef struct krt_renderer_shaders {
    kiln_result (*create_shader)(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                                 kiln_error *err);
    kiln_result (*replace_shader)(void *user, krt_handle h, const krt_shader_data *d, void **gpu,
                                  kiln_error *err);
    void (*destroy_shader)(void *user, krt_handle h, void *gpu);
    kiln_result (*create_typed_material)(void *user, krt_handle h, const krt_typed_material_data *d,
                                         void **gpu, kiln_error *err);
    kiln_result (*replace_typed_material)(void *user, krt_handle h,
                                          const krt_typed_material_data *d, void **gpu,
                                          kiln_error *err);
    void (*destroy_typed_material)(void *user, krt_handle h, void *gpu);
} krt_renderer_shaders;

/* What a context is created from. `= {0}` with struct_size set gives the defaults. */
typedef struct krt_desc {
    uint32_t struct_size;     /* sizeof(krt_desc); 0 is taken as the current size */
    kiln_allocator allocator; /* all NULL = libc */
    krt_jobs jobs;            /* all NULL = the built-in pool */
    uint32_t worker_count;    /* built-in pool threads; 0 = CPUs - 1 (at least 1) */
    uint32_t queue_capacity;  /* built-in pool queue; 0 = 1024. A full queue runs jobs inline */
    krt_renderer renderer;    /* all NULL = the null renderer */
    uint32_t max_assets;      /* live assets at once; 0 = 16384, at most 2^24 */
    uint64_t max_file_size;   /* largest file a load reads; 0 = 1 GiB */
    bool no_verify;           /* skip container checksums and manifest SHA-256 checks */
    /* Bytes of released assets kept resident (CPU data only: their GPU objects are destroyed at
     * zero references) so that loading them again needs no I/O; past it the least recently
     * released are evicted. 0 = keep none (the default); UINT64_MAX = never evict. */
    uint64_t budget_bytes;
    /* Create a fallback texture (4x4 RGBA8 sRGB, magenta/white checks) and a fallback material
     * (default factors, the fallback texture as base colour) through the renderer in the first
     * krt_update; a create that fails is tried again by each later krt_update until it works
     * (a material made before its texture is then rebuilt with it: replace_material, or
     * create_material and destroy_material of the old one). krt_gpu returns them for textures
     * and materials that are loading or failed (NULL while one is not made). Their callbacks get
     * the 0 handle. */
    bool fallbacks;
    /* KRT_DESC_* bits; 0 = none. Added after the members above: a caller built against a header
     * without it passes a smaller struct_size and gets 0 (it lies past that size's padding).
     * Unknown bits are KILN_E_USAGE. */
    uint64_t flags;
    /* The renderer's shader callbacks (krt_renderer_shaders says why they are here and not in
     * krt_renderer); their user pointer is renderer.user. Added after flags: a caller built
     * against a header without it passes a smaller struct_size and gets none. */
    krt_renderer_shaders renderer_shaders;
} krt_desc;

enum { /* krt_desc.flags */
       /* Frees a texture's or mesh's CPU data (the file's bytes or mapping, decoded and transcoded
        * levels, unpacked streams; resident_bytes drops accordingly) as soon as the renderer's
        * create_* or replace_* callback has taken it. krt_get_texture / krt_get_mesh then fail
        * (KILN_E_USAGE, "... CPU data was released after upload ..."); a released one is not kept
        * under budget_bytes (it holds no bytes: a new load reads the file again); hot reload works
        * as before (the new data is freed once replace_* took it). Materials, skeletons, clips and
        * scenes keep theirs. Only for types the renderer creates objects of: the null renderer
        * (or a renderer without create_texture / create_mesh) keeps CPU data. */
       KRT_DESC_DROP_CPU_AFTER_UPLOAD = 1u << 0,
};

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
 * never finished import) is passed over, and so is an output whose label names no krt_type. A
 * damaged record, or an entry whose manifest cannot be read, is not JSON of the expected shape,
 * is of another kiln_manifest version or names another key, is skipped — the rest mounts —
 * and listed by krt_mount_skipped; a load by name of one of its assets gives a handle that
 * fails with that code and "<file>: <reason>" (err->path: the file), and a poll that finds the
 * entry repaired mounts it (krt_poll_changes). A later mount's artifact overrides an earlier
 * one's with the same id or name; assets already loaded keep their data. A folder `kiln model`
 * wrote (no assets/; a manifest.json that names its asset's guid and path) mounts as one entry,
 * its artifacts named "<model file>#label". *artifact_count (may be NULL) gets how many
 * artifacts this mount added. Errors: KILN_E_ASSET_IO (no such folder), KILN_E_USAGE (a project
 * folder or kiln's output folder instead of the cache in it, or a cache entry's folder: the
 * message names what to mount), KILN_E_CACHE_CORRUPT or KILN_E_FORMAT_VERSION (only for a
 * `kiln model` folder: its one manifest damaged, or of another version; err->path names it),
 * KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY; nothing is mounted then. Thread rules: any thread. */
KILN_API kiln_result krt_mount_cache(krt_context *ctx, const char *cache_dir,
                                     size_t *artifact_count, kiln_error *err);

/* krt_mount_cache for one platform's records (docs/cache.md "Records"): what `kiln import
 * --platform PLATFORM` imported. NULL or "" is the default platform (what `kiln import` without
 * --platform imported: krt_mount_cache). Records are kept per platform, so a mobile import never
 * changes what a desktop mount loads. The name is letters, digits, '-' and '_' (else
 * KILN_E_USAGE); a cache with no records of that platform is KILN_E_ASSET_IO. Otherwise as
 * krt_mount_cache (hot reload included). Thread rules: any thread. */
KILN_API kiln_result krt_mount_cache_platform(krt_context *ctx, const char *cache_dir,
                                              const char *platform, size_t *artifact_count,
                                              kiln_error *err);

/* Mounts a .kpak pack (docs/formats.md "Packs"): the file is mapped (mmap) for the context's
 * lifetime and its table validated at once (the table checksum unless no_verify); every entry
 * becomes loadable by id and by name "path#label". Mounts of packs and caches override in
 * order: a later one's artifact replaces an earlier one's with the same id (a patch pack
 * mounted after the base pack wins). Raw entries are used in place from the mapping (no copy);
 * Zstandard ones are decompressed on the job threads; each entry's XXH3-64 is checked as it is
 * read. Hot reload: krt_poll_changes notices a pack file replaced at the same path (rename a
 * new pack over it: a stat of its size, times and inode; the watcher watches its folder), maps
 * the new one and reloads the loaded assets whose entries changed; assets whose entries did not
 * change keep using the old mapping until they are released. *artifact_count (may
 * be NULL) gets the pack's loadable entries. Errors: KILN_E_ASSET_IO (cannot open or map),
 * KILN_E_CACHE_CORRUPT (the table's checksum does not match), KILN_E_FORMAT_INVALID (written
 * malformed), KILN_E_FORMAT_VERSION (another pack version: re-pack), KILN_E_LIMIT,
 * KILN_E_OUT_OF_MEMORY; nothing is mounted then. Thread rules: any thread. */
KILN_API kiln_result krt_mount_pack(krt_context *ctx, const char *pack_path, size_t *artifact_count,
                                    kiln_error *err);

/* Unmounts the cache folder or pack mounted as `path` (the string given to krt_mount_*; the
 * latest such mount when there are several), then rebuilds the mount table from the others as
 * krt_poll_changes does: an artifact another mount also has is read from there from now on
 * (a loaded asset whose bytes differ there reloads into the same handle), one no other mount has
 * disappears from look-ups, and loaded assets keep their data either way (a pack's mapping
 * stays until the last asset whose bytes are in it is freed, and no job or poll reads it, and
 * is unmapped then). With the watcher running, the folder's inotify watch is removed (unless
 * another mount watches the same folder). Errors: KILN_E_USAGE (nothing is mounted as path),
 * then those of krt_poll_changes (the mount is gone but the table is rebuilt only at a later
 * poll). Thread rules: any thread. */
KILN_API kiln_result krt_unmount(krt_context *ctx, const char *path, kiln_error *err);

/* One mounted artifact, as krt_mount_list shows it. The strings belong to the context and are
 * valid during the callback only. */
typedef struct krt_artifact_info {
    const char *name; /* "path#label" */
    uint64_t id;      /* the asset id (krt_load_id) */
    krt_type type;
    uint64_t size;    /* bytes of the cooked file (a pack entry: once decompressed) */
    const char *file; /* where it is read from: the cooked file, or the pack */
    bool packed;      /* an entry of a mounted pack */
} krt_artifact_info;

/* Return false to stop the listing. */
typedef bool (*krt_artifact_fn)(void *user, const krt_artifact_info *info);

/* Calls fn once per artifact the mounts can load now (the one that wins where mounts override
 * each other), in no particular order, and returns how many it visited. fn runs with the
 * context's lock held: it must not call any krt_ function of this context. Any thread. */
KILN_API size_t krt_mount_list(krt_context *ctx, krt_artifact_fn fn, void *user);

/* One file a cache mount skipped as damaged (docs/runtime.md "Damaged entries and partial
 * mounts"), as krt_mount_skipped shows it. The strings belong to the context and are valid
 * during the callback only. */
typedef struct krt_skipped_info {
    const char *mount;  /* the cache folder, as given to krt_mount_cache */
    const char *file;   /* the damaged file: an entry's manifest.json, or a record */
    const char *asset;  /* the asset path its record names ("models/fox.glb"); "" when the
                           record itself is the damaged file */
    kiln_result code;   /* KILN_E_CACHE_CORRUPT (malformed: not JSON, empty, cut short, another
                           entry's key, a bad output), KILN_E_FORMAT_VERSION (a manifest of
                           another kiln_manifest version), KILN_E_ASSET_IO (cannot be read) */
    const char *reason; /* what is wrong, without the file: "not JSON: unexpected end at byte 17" */
} krt_skipped_info;

/* Return false to stop the listing. */
typedef bool (*krt_skipped_fn)(void *user, const krt_skipped_info *info);

/* Calls fn (may be NULL: only count) once per damaged file the mounted caches skipped, in mount
 * order, and returns how many there are (0: every record and entry mounted whole). One file may
 * be listed once per asset whose record names its entry. The list follows the mounts: a poll
 * that reads a repaired entry (krt_poll_changes) drops it, an unmount drops that cache's. fn runs
 * with the context's lock held: it must not call any krt_ function of this context. Any thread. */
KILN_API size_t krt_mount_skipped(krt_context *ctx, krt_skipped_fn fn, void *user);

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
 * mounted"); so does a name whose entry a mount skipped as damaged (krt_mount_skipped), with
 * the skip's code and "<file>: <reason>" (type may then be KRT_TYPE_NONE: the label's is
 * taken), until a poll mounts the repaired entry and loads it again on the same handle.
 * Returns the 0 handle with err filled when: the name is not mounted (KILN_E_USAGE),
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
KILN_API krt_handle krt_load_shader(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_typed_material(krt_context *ctx, const char *name, kiln_error *err);
KILN_API krt_handle krt_load_vgeo(krt_context *ctx, const char *name, kiln_error *err);

/* Drops one reference. At zero the handle becomes stale at once; in a later krt_update (or
 * krt_destroy) the renderer's destroy callback runs and the asset's dependencies are released;
 * its CPU data is then kept resident within krt_desc.budget_bytes (a new load of it gets a new
 * handle, without I/O) or freed.
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

/* Runs the renderer's work on the calling (renderer) thread: the fallbacks' create callbacks
 * (when asked for: the first call, and later ones until they worked), create callbacks for
 * decoded assets whose dependencies are ready
 * (dependencies first), marks assets ready or failed (a failed dependency fails its dependents
 * with its error), applies finished hot reloads (replace callbacks), runs destroy callbacks of
 * released assets and keeps their CPU data within the budget or frees it, evicts past the
 * budget, and writes the material table. Its work follows what changed, not what is loaded:
 * an asset or reload waiting for a dependency is looked at again only once that dependency is
 * created or fails (krt_stats.update_visits counts what the last call looked at). Returns how
 * many assets (and reloads) are still loading. Thread rules: the renderer thread. */
KILN_API size_t krt_update(krt_context *ctx);

/* Blocks until no job of this context is queued or running (decoded assets still need
 * krt_update). With the built-in pool the calling thread runs queued jobs itself while it waits
 * (so renderer.supports_format and the allocator may be called on it). Thread rules: any thread
 * except a job of this context. */
KILN_API void krt_wait(krt_context *ctx);

/* krt_wait and krt_update until nothing is loading. Thread rules: the renderer thread. */
KILN_API void krt_finish(krt_context *ctx);

/* ---- data of a ready asset ------------------------------------------------------------------ */

/* Fill *out for a ready handle of that type. Errors: KILN_E_USAGE (null, stale, another type,
 * not ready, or — textures and meshes with KRT_DESC_DROP_CPU_AFTER_UPLOAD — CPU data released
 * after upload). Thread rules: any thread; valid while the caller holds its reference. */
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
KILN_API kiln_result krt_get_shader(krt_context *ctx, krt_handle h, krt_shader_data *out,
                                    kiln_error *err);
/* A typed material's variants and GPU objects are its shaders' and textures' current ones:
 * valid until the next krt_update that applies a reload of one of them. */
KILN_API kiln_result krt_get_typed_material(krt_context *ctx, krt_handle h,
                                            krt_typed_material_data *out, kiln_error *err);
KILN_API kiln_result krt_get_vgeo(krt_context *ctx, krt_handle h, krt_vgeo_data *out,
                                  kiln_error *err);

/* The renderer's object for a ready texture, mesh, material or shader (or asset of a registered
 * type); for a texture or material that is loading or failed, the fallback's object when
 * krt_desc.fallbacks is set; NULL otherwise. Any thread. */
KILN_API void *krt_gpu(krt_context *ctx, krt_handle h);

/* ---- types a program registers ------------------------------------------------------------- */

/* What a registered type's callbacks and krt_get_data get for an asset. */
typedef struct krt_custom_data {
    void *data;             /* the program's record, as its decode made it (may be NULL) */
    const void *view;       /* the cooked kind's view of the file (its read filled it) */
    const krt_handle *deps; /* the references the kind flags KILN_REF_LOAD, in its order,
                               each ready (0 for a reference to id 0) */
    size_t dep_count;
} krt_custom_data;

/* A runtime type for a cooked kind of the program's own. `= {0}` with struct_size set, kind and
 * decode filled is a type with CPU data only. */
typedef struct krt_type_desc {
    uint32_t struct_size; /* sizeof(krt_type_desc); 0 is taken as the current size */
    /* The kind: name (in messages), fourcc (a pack entry's kind), label prefixes (a cache
     * output's label), read (checks the bytes into a view of view_size bytes) and refs (what
     * loads with an asset: the references flagged KILN_REF_LOAD, each of a kind a type of the
     * context loads). Borrowed, with what it points to, for the context's lifetime. */
    const kiln_cooked_kind *kind;
    /* Makes the program's record from the view the kind's read filled (the view, and the
     * file's bytes it points into, stay valid until free is called for the record) into *data
     * (NULL on entry; may stay NULL). A failure fails the load, or the reload (the old record
     * stays), with err. Required. Runs on job threads (several at once for different assets),
     * no lock held. */
    kiln_result (*decode)(void *user, const void *view, void **data, kiln_error *err);
    /* Frees a record decode made (also when decode failed after setting *data). Optional. Runs
     * with the context's lock held, on any thread: it must not call the context. */
    void (*free)(void *user, void *data);
    /* The renderer's callbacks for the type, each optional, with krt_renderer's rules (renderer
     * thread, inside krt_update; destroy also inside krt_destroy): create makes the object for a
     * ready asset (after its dependencies' objects), replace takes a hot reload's new data
     * (without it: create for the new data, then destroy of the old object), destroy runs when
     * the references reach zero. krt_gpu returns the object. */
    kiln_result (*create)(void *user, krt_handle h, const krt_custom_data *d, void **gpu,
                          kiln_error *err);
    kiln_result (*replace)(void *user, krt_handle h, const krt_custom_data *d, void **gpu,
                           kiln_error *err);
    void (*destroy)(void *user, krt_handle h, void *gpu);
    void *user;     /* passed to every callback above */
    uint32_t flags; /* KRT_TYPE_DESC_*; unknown bits are KILN_E_USAGE */
} krt_type_desc;

enum { /* krt_type_desc.flags */
       /* The kind's files carry no checksum of their own (kiln containers do: the kind's read
        * checks it unless told to skip it): a loose cache file is checked against its manifest's
        * digest before it is read, as textures are. Pack entries carry their own checksum. */
       KRT_TYPE_DESC_CHECK_DIGEST = 1u << 0,
};

/* Registers a runtime type for desc->kind and gives it the next type number (KRT_TYPE_COUNT
 * for the first) in *out_type (may be NULL), for krt_load, krt_load_id, krt_get_data and
 * krt_handle_type_id. The mounts made after it take the kind's pack entries (by fourcc) and cache
 * outputs (by label prefix) as loadable artifacts of the type; an asset of it loads the assets
 * its kind's refs flag KILN_REF_LOAD first and is ready when they are — each of a built-in type
 * or of a type registered before it (so that no data can make a cycle; another reference fails
 * the load, KILN_E_USAGE); hot reload decodes a
 * changed file into a new record and hands it to replace (or create + destroy); the old record
 * is then freed. The asset's resident bytes are its file's. desc is copied. Errors:
 * KILN_E_USAGE (a NULL argument, kind or kind->read or decode; a kind without a name, a
 * fourcc, or label prefixes; a fourcc or a label prefix that would be taken for another
 * kind's — a built-in or a registered one, a prefix of the other either way; struct_size too
 * large; unknown flags; a mount or load was made already), KILN_E_LIMIT (KRT_TYPE_LIMIT types),
 * KILN_E_OUT_OF_MEMORY. Thread rules: after krt_create and before the first mount or load, on
 * one thread, nothing else running on the context. */
KILN_API kiln_result krt_register_type(krt_context *ctx, const krt_type_desc *desc,
                                       krt_type *out_type, kiln_error *err);

/* Fills *out for a ready handle of the registered type `type`. Valid while the caller holds its
 * reference, until a hot reload of the asset is applied (krt_update). Errors: KILN_E_USAGE
 * (null, stale, another type, a built-in type — krt_get_texture etc. give those —, not ready).
 * Thread rules: any thread. */
KILN_API kiln_result krt_get_data(krt_context *ctx, krt_handle h, krt_type type,
                                  krt_custom_data *out, kiln_error *err);

/* ---- hot reload ------------------------------------------------------------------------------ */

/* Looks for cooked data that changed since it was mounted or loaded: re-reads the records
 * (assets/<guid>.json) and manifests of every mounted cache whose records changed (when no watcher
 * runs: a stat of the cache's assets/ folder, and of each record only when the folder changed or
 * changed less than 2 s before the last check; nothing at all when the watcher saw no change; only
 * the records whose files changed are parsed again) and maps again every mounted pack whose file
 * was replaced (krt_mount_pack), updates the mount table, and for each loaded asset whose artifact
 * now has other bytes (manifest size or SHA-256, a pack entry's size or checksum, or another file)
 * starts a reload job into the SAME handle. The new data replaces the old in a later krt_update
 * through the renderer's replace_* callback (create_* when there is none and no object yet; destroy
 * + create when replace_* is NULL), so handles and instances stay valid. A material's reload keeps
 * the textures it still names (no reload of them); a texture's reload calls replace_material for
 * the ready materials that use it. A failed reload keeps the old data and state; krt_reload_error
 * reports it. A failed asset whose file changed is loaded again; a released asset kept resident is
 * evicted instead. *reload_count (may be NULL) gets how many reloads started. Errors: those of
 * krt_mount_cache and, for a replaced pack, krt_mount_pack (the mounts, and the pack mounted
 * before, are then left as they were). Thread rules: any thread. */
KILN_API kiln_result krt_poll_changes(krt_context *ctx, size_t *reload_count, kiln_error *err);

/* Starts a reload of one ready asset from its mount now, as krt_poll_changes does for changed
 * ones (whether or not it changed). Errors: KILN_E_USAGE (null or stale handle, or not ready).
 * Thread rules: any thread. */
KILN_API kiln_result krt_reload(krt_context *ctx, krt_handle h, kiln_error *err);

/* The error of the asset's last reload (copied into *out, may be NULL) and its code; KILN_OK
 * when its last reload succeeded or it never reloaded. Any thread. */
KILN_API kiln_result krt_reload_error(krt_context *ctx, krt_handle h, kiln_error *out);

/* Starts a watcher thread (Linux inotify) on the assets/ folder of every mounted cache (and of
 * those mounted later). It only notes that something changed; krt_poll_changes does the work
 * on the caller's thread, and skips its checks while nothing changed. Starting it twice is a
 * no-op. Errors: KILN_E_USAGE (no inotify on this system), KILN_E_ASSET_IO (inotify or thread
 * creation failed). Thread rules: any thread. */
KILN_API kiln_result krt_watch_start(krt_context *ctx, kiln_error *err);
/* Stops and joins the watcher (no-op when none runs). krt_destroy stops it too. Any thread. */
KILN_API void krt_watch_stop(krt_context *ctx);

/* ---- the GPU material table --------------------------------------------------------------- */

enum {                                     /* krt_gpu_material.flags */
       KRT_GPU_MATERIAL_ALPHA_MODE = 0x3u, /* mask: kiln_material_alpha */
       KRT_GPU_MATERIAL_DOUBLE_SIDED = 1u << 2,
       KRT_GPU_MATERIAL_UNLIT = 1u << 3,
       KRT_GPU_MATERIAL_LOADING = 1u << 4, /* not ready: default factors, no textures */
       KRT_GPU_MATERIAL_FAILED = 1u << 5,  /* failed: default factors, no textures */
       KRT_GPU_MATERIAL_LIVE = 1u << 31,   /* 0 in a free record (all of it is zero) */
};

/* One material as a shader reads it: 256 bytes, every member at the offset std140 and std430
 * give the GLSL struct in docs/runtime.md ("GPU material table"), so the engine uploads the
 * array verbatim. textures[s] is the texture-table index (krt_handle_slot of the texture's
 * handle) of slot s (kiln_material_slot) or KRT_INVALID_INDEX when the slot is empty. */
typedef struct krt_gpu_material {
    float base_color[4];                         /*   0: linear RGBA factor */
    float emissive[3];                           /*  16: linear RGB factor */
    float emissive_strength;                     /*  28 */
    float metallic, roughness;                   /*  32, 36 */
    float normal_scale;                          /*  40 */
    float occlusion_strength;                    /*  44 */
    float alpha_cutoff;                          /*  48 */
    uint32_t flags;                              /*  52: KRT_GPU_MATERIAL_* */
    uint32_t texcoords;                          /*  56: UV set of slot s in bits 4s..4s+3 */
    uint32_t reserved;                           /*  60: 0 */
    uint32_t textures[KILN_MATERIAL_SLOT_COUNT]; /* 64: texture-table index per slot */
    /* 84: slot s's sampler in 16 bits at samplers[s / 2] >> (16 * (s % 2)): mag filter bits
     * 0-1, min 2-3, mip 4-5 (kiln_material_filter), mipmaps bit 6, wrap s 8-9, wrap t 10-11
     * (kiln_material_wrap), has a texture transform bit 12 */
    uint32_t samplers[3];
    /* 96: slot s's UV transform, 3x2 column-major (kiln_material_texture.matrix) in
     * uv_transforms[s][0..5], [6] = [7] = 0: u' = m0 u + m2 v + m4, v' = m1 u + m3 v + m5 */
    float uv_transforms[KILN_MATERIAL_SLOT_COUNT][8];
} krt_gpu_material;

#ifdef __cplusplus
#define KRT_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define KRT_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif
KRT_STATIC_ASSERT(sizeof(krt_gpu_material) == 256, "krt_gpu_material is 256 bytes");
KRT_STATIC_ASSERT(offsetof(krt_gpu_material, emissive) == 16, "std140 layout");
KRT_STATIC_ASSERT(offsetof(krt_gpu_material, metallic) == 32, "std140 layout");
KRT_STATIC_ASSERT(offsetof(krt_gpu_material, alpha_cutoff) == 48, "std140 layout");
KRT_STATIC_ASSERT(offsetof(krt_gpu_material, textures) == 64, "std140 layout");
KRT_STATIC_ASSERT(offsetof(krt_gpu_material, samplers) == 84, "std140 layout");
KRT_STATIC_ASSERT(offsetof(krt_gpu_material, uv_transforms) == 96, "std140 layout");

/* The material table: *records gets count records (one per material index ever used, free ones
 * zeroed), *generation a number that changes whenever a record changed (upload again then).
 * Records are written in krt_update: a material gets its index when it is loaded (with
 * KRT_GPU_MATERIAL_LOADING set until it is ready), its values when ready or reloaded, and a
 * zeroed record when it goes away (its index is then reused). The pointer is valid until the
 * next krt_update. Any argument may be NULL. Thread rules: the renderer thread. */
KILN_API void krt_material_table(krt_context *ctx, const krt_gpu_material **records, size_t *count,
                                 uint64_t *generation);

/* A material handle's record index in the table, stable while the material lives (reloads
 * keep it); KRT_INVALID_INDEX for a null, stale or non-material handle. Any thread. */
KILN_API uint32_t krt_material_index(krt_context *ctx, krt_handle h);

/* ---- the material block table: typed materials' parameter blocks ---------------------------- */

/* Every block's offset in the table is a multiple of this: the largest
 * minUniformBufferOffsetAlignment Vulkan allows, so one uniform buffer of the whole table binds
 * any material's block with a dynamic offset. */
#define KRT_MATERIAL_BLOCK_ALIGN 256u

/* The parameter blocks of the ready typed materials, each exactly as the material's shaders lay
 * it out (kiln_typed_material.block: std140 for a uniform block, std430 for push constants), in
 * one byte array the engine uploads verbatim: *bytes gets *size bytes, *generation a number that
 * changes whenever a byte changed (upload again then). A block is written in the krt_update that
 * makes its material ready or applies its reload, at the offset krt_material_block gives (kept
 * for the material's life unless a reload changes its size class: blocks sit in power-of-two
 * slots of 256 bytes up to 64 KiB, so a reload that keeps the size keeps the offset); the bytes
 * of a released material are zeroed and its slot reused. The pointer is valid until the next
 * krt_update. Any argument may be NULL. Thread rules: the renderer thread. */
KILN_API void krt_material_blocks(krt_context *ctx, const uint8_t **bytes, size_t *size,
                                  uint64_t *generation);

/* The block of a ready typed material in the table: its offset (a multiple of
 * KRT_MATERIAL_BLOCK_ALIGN) and size in bytes (kiln_typed_material.block_size). Returns false,
 * with both 0, for a null, stale or other handle, a material not ready (its block is written by
 * the krt_update that makes it ready), or one without a block. Any thread. */
KILN_API bool krt_material_block(krt_context *ctx, krt_handle h, uint32_t *offset, uint32_t *size);

/* ---- counters ------------------------------------------------------------------------------- */

/* Counters. The caller sets struct_size (0 = this header's size); krt_get_stats writes only the
 * fields that lie wholly within it, so a caller built against an older, shorter krt_stats keeps
 * working (fields are only ever appended), and never writes struct_size itself. The last four
 * say how much work the last call of a kind did, so an engine can watch what reloads cost. */
typedef struct krt_stats {
    uint32_t struct_size;       /* sizeof(krt_stats); 0 is taken as the current size */
    uint64_t live_assets;       /* assets loading, ready, failed, or released awaiting
                                   krt_update (released ones kept resident are not counted) */
    uint64_t loads;             /* load jobs that read a file (first loads and retries; not
                                   revivals, not reloads) */
    uint64_t failures;          /* assets that ended failed */
    uint64_t resident_bytes;    /* CPU bytes held by live and resident released assets (files
                                   and decoded data; staged reloads too) */
    uint64_t mounted_artifacts; /* distinct ids over all mounts */
    uint64_t evictions;         /* released resident assets freed past budget_bytes */
    uint64_t reloads;           /* hot reloads applied (replace callbacks run) */
    uint64_t reload_failures;   /* hot reloads that failed (the old data kept) */
    uint64_t revivals;          /* loads served from released resident data, without I/O */
    uint64_t cached_assets;     /* released assets kept resident (not in live_assets) */
    uint64_t cached_bytes;      /* their bytes (part of resident_bytes; <= budget_bytes after
                                   krt_update) */
    uint64_t transcodes;        /* textures transcoded for the renderer: block formats it
                                   cannot sample to RGBA8, Basis textures to what it samples */
    /* Work done by the last call that did any (added with struct_size): */
    uint64_t poll_visits;    /* loaded assets the last krt_poll_changes that read the mounts
                                compared with them (only those of changed records) */
    uint64_t rebuild_visits; /* dependents the last texture (or shader) reload looked at to
                                rebuild the materials that use it */
    uint64_t update_visits;  /* assets and staged reloads the last krt_update looked at */
    uint64_t poll_stats;     /* files and folders the last krt_poll_changes stat'ed (0 when
                                the watcher saw no change) */
} krt_stats;

/* Fills the fields of *out that fit in out->struct_size (see krt_stats). NULL ctx: zeros.
 * Thread rules: any thread. */
KILN_API void krt_get_stats(krt_context *ctx, krt_stats *out);

#ifdef __cplusplus
}
#endif
#endif
