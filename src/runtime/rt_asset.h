/* rt_asset.h — one loaded asset as the registry keeps it, and the per-type decode a job runs. */
#ifndef KILN_RT_ASSET_H
#define KILN_RT_ASSET_H

#include "kiln/kiln_rt.h"
#include "runtime/rt_type.h"
#include "runtime/rt_type_data.h"

enum {                         /* krt_asset.phase */
       KRT_PHASE_LOADING = 1,  /* a job is queued or running */
       KRT_PHASE_DECODED = 2,  /* decoded; waiting for dependencies and krt_update */
       KRT_PHASE_CREATING = 3, /* krt_update is running the renderer's create callback */
       KRT_PHASE_READY = 4,
       KRT_PHASE_FAILED = 5,
};

/* What a job made of an asset, whatever its type. */
typedef struct krt_decoded {
    uint8_t *file;
    size_t file_size;   /* allocated file_size + 1 (unless borrowed) */
    bool file_borrowed; /* file points into a mounted pack's mapping: not freed */
    bool file_mapped;   /* file is a read-only mapping of a loose cache file: munmap'd */
    bool cpu_dropped;   /* freed after upload (KRT_DESC_DROP_CPU_AFTER_UPLOAD): deps only */
    bool transcoded;    /* converted for the renderer (counted in krt_stats.transcodes) */
    struct krt_pack_mount *pack_ref; /* the pack whose mapping file is in (a reference held) */
    uint64_t *dep_ids;               /* ids to load, in the order of deps */
    uint32_t *dep_types;
    krt_handle *deps; /* dep_count handles; 0 for an id that could not be loaded */
    size_t dep_count, dep_cap;
    uint64_t resident; /* bytes counted in krt_stats.resident_bytes */
} krt_decoded;

typedef struct krt_asset {
    struct krt_context *ctx;
    uint64_t id;
    uint32_t type, slot;
    krt_handle handle; /* as handed out; the renderer's callbacks get it */
    uint32_t refs;
    uint32_t phase;
    bool job_running; /* the job owns dec and data while set */
    bool dying;       /* refs reached zero: waiting for krt_update to free it */
    bool has_gpu;
    void *gpu;
    kiln_error error;
    bool revive; /* the job keeps the decoded data (a revival from the cache): no I/O */
    bool cached; /* released, CPU data kept within the budget (refs 0, in the LRU) */
    struct krt_asset *lru_prev, *lru_next; /* the context's LRU list, oldest first */
    bool pending; /* on krt_update's pending list (a staged record: the reload list) */
    bool parked;  /* waiting for a dependency, on no list (rt_worklist.c) */
    struct krt_asset *pend_prev, *pend_next;
    uint8_t src_sha256[32]; /* the artifact the data came from: hot reload compares it */
    uint64_t src_size;
    struct krt_asset *staged; /* a reload's decoded data (its own deps) waiting for krt_update */
    bool reload_running;      /* a reload job is filling staged */
    kiln_error reload_error;  /* of the last reload; code KILN_OK when it worked */
    uint32_t mat_index;       /* material table record; KRT_INVALID_INDEX when none */
    uint32_t mat_serial;      /* bumped when a reload changed the material's data */
    uint32_t mat_written_serial;
    uint8_t mat_written; /* what the record holds: 0 nothing, 1 loading, 2 ready, 3 failed */
    /* The material block table's slot (rt_block_table.c): size class (0: none; else a slot of
     * KRT_MATERIAL_BLOCK_ALIGN << (class - 1) bytes), offset, and what it holds: block_size
     * bytes of the data of serial mat_serial (blk_written_serial). */
    uint8_t blk_class;
    uint32_t blk_offset, blk_size, blk_written_serial;
    /* Reverse dependencies (rt_dependents.c): one entry per reference another asset (a live
     * record or a staged reload) holds on this one through its deps; kept with the identity,
     * not the data, so a reload's swap leaves it in place. */
    struct krt_asset **dependents;
    uint32_t dependent_count, dependent_cap;
    bool is_staged;          /* a reload's staged record (not in a slot) */
    uint32_t rebuild_mark;   /* the reload of a dependency that last rebuilt its GPU object */
    const krt_type_ops *ops; /* of type, from the context's registry */
    /* What the job made (krt_asset_decode), swapped whole by a hot reload: the part every type
     * has, and the type's own. */
    krt_decoded dec;
    krt_type_data data;
} krt_asset;

/* Where a job reads an asset from, copied from the mount table under the context's lock: a
 * loose cache file (path, the manifest's size and SHA-256) or an entry of a mounted pack (the
 * pack stays mapped as long as the context). */
typedef struct krt_source {
    char path[4096];
    uint64_t size;
    uint8_t sha256[32];
    uint8_t xxh3_128[16]; /* verifies a loose KTX2 file when has_xxh3 (else sha256 does) */
    bool has_xxh3;
    const kiln_pack *pack; /* NULL: a loose file */
    uint32_t entry;
} krt_source;

/* Reads and verifies the file into a (no lock held; a->job_running is set), decodes it through
 * a->ops (textures transcoded when the renderer's supports_format says no), and lists in
 * dec.dep_ids/dep_types/dep_count the references the cooked kind flags KILN_REF_LOAD, each with
 * the type types gives the referenced kind. */
kiln_result krt_asset_decode(krt_asset *a, const krt_source *src, bool verify,
                             uint64_t max_file_size, const krt_type_registry *types,
                             const krt_renderer *renderer, const kiln_allocator *alloc,
                             kiln_error *err);

/* Frees everything krt_asset_decode made (not the deps' references). */
void krt_asset_free_data(krt_asset *a, const kiln_allocator *alloc);

/* Points the krt_*_data records at the dependency handles (after they are loaded). */
void krt_asset_link_deps(krt_asset *a);

/* Exchanges the decoded data (dec: file, deps, resident; the type's member of data) of a and b,
 * keeping each one's identity and bookkeeping: how a reload's staged data takes the place of
 * the old. */
void krt_asset_swap_data(krt_asset *a, krt_asset *b);

#endif
