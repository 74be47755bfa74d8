/* rt_mount.h — the table of mounted artifacts: asset id -> file (path, size, SHA-256, type) and
 * name "path#label" -> id, both open-addressing hash maps (O(1) on average). Later mounts
 * override earlier ones. Not thread-safe: the context guards it with its lock. */
#ifndef KILN_RT_MOUNT_H
#define KILN_RT_MOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_rt.h"
#include "runtime/rt_type.h"

typedef struct krt_artifact {
    uint64_t id;
    uint32_t type;         /* krt_type, from the label or the pack entry's kind */
    uint64_t size;         /* the manifest's */
    uint8_t sha256[32];    /* the manifest's */
    uint8_t xxh3_128[16];  /* the manifest's fast digest (canonical bytes), when has_xxh3 */
    bool has_xxh3;         /* manifests written before it have only sha256 */
    char *path;            /* the file, absolute or relative to the process (a pack's: the pack) */
    char *name;            /* "path#label" */
    const kiln_pack *pack; /* the mounted pack it is in (owned by the context), or NULL */
    uint32_t entry;        /* its entry index in that pack */
} krt_artifact;

/* The manifest version this runtime reads: the cook side's KILN_MANIFEST_VERSION
 * (src/pipeline/cache.h), which refuses any other the same way (tests/runtime checks they agree).
 */
#define KRT_MANIFEST_VERSION 1

/* A cache entry (or a record) a mount skipped because it is damaged: the other entries mount,
 * and a load of one of its assets by name fails with code and reason (krt_mount_skipped). */
typedef struct krt_skip {
    char *mount;      /* the cache folder, as mounted */
    char *file;       /* the damaged file: an entry's manifest.json, or a record */
    char *asset;      /* the asset path the record names; "" when the record is the file */
    char guid[33];    /* the record's guid; "" when the record is the file */
    kiln_result code; /* KILN_E_CACHE_CORRUPT, KILN_E_FORMAT_VERSION, KILN_E_ASSET_IO */
    char reason[192]; /* what is wrong, without the file's name: "not JSON: ... at byte 17" */
    uint64_t stamp;   /* krt_file_signature(file) when read: a poll reads it again once it moved */
} krt_skip;

typedef struct krt_mounts {
    const kiln_allocator *alloc;
    krt_artifact *items;
    size_t count, capacity;
    uint32_t *by_id, *by_name; /* item index + 1; 0 = empty */
    size_t slots;              /* power of two, > 2 * count */
    krt_skip *skips;           /* what the mounts skipped, in mount order; one per file and asset */
    size_t skip_count, skip_cap;
} krt_mounts;

/* The type an artifact label names ("image0", "image0/normal", "texture" -> TEXTURE, ...):
 * through the cooked kinds' label prefixes, among the types of types (NULL: the built-ins). */
krt_type krt_label_type(const krt_type_registry *types, const char *label);

/* Reads a cache folder's records and manifests into a new table (alloc kept), with the
 * built-in types. Errors as krt_mount_cache documents. */
kiln_result krt_mounts_read_cache(const char *cache_dir, const kiln_allocator *alloc,
                                  krt_mounts *out, kiln_error *err);

/* What a read of a cache took from each record file (name, a stamp of its size, times and
 * inode, and the artifacts it gave), so that the next read of the same folder takes the
 * artifacts of an unchanged record from here instead of parsing it and its manifest again (a
 * record is replaced by rename on every import; an entry is never rewritten). */
typedef struct krt_record_memo {
    char *name;
    uint64_t stamp;
    size_t first, count; /* its artifacts in items */
} krt_record_memo;
typedef struct krt_cache_memo {
    krt_record_memo *records; /* in the folder's (sorted) order */
    size_t record_count, record_cap;
    krt_artifact *items;
    size_t item_count, item_cap;
    size_t reused, parsed; /* records of the last read taken from the memo / parsed */
    /* The ids a poll has to compare with the loaded assets: those of the records parsed by
     * this read and of the previous read's records that changed or went (unsorted, may repeat).
     * all_changed: there was no previous read to tell (every id may have changed). */
    uint64_t *changed;
    size_t changed_count, changed_cap;
    bool all_changed;
    /* What the read skipped (copies of the table's): a poll stats these files, and a record
     * that gave a skip is parsed again by every read (its stamp in records is 0). */
    krt_skip *skips;
    size_t skip_count, skip_cap;
} krt_cache_memo;

/* krt_mounts_read_cache with a memo: prev (may be NULL) is what the last read of this folder
 * left, next (may be NULL; empty on entry) gets what this one read and which ids changed
 * since prev (krt_cache_memo.changed). An unchanged record's artifacts are copied once (into
 * the table) and their strings moved from prev into next: prev is fit only to be freed after
 * (when next is given). */
kiln_result krt_mounts_read_cache_memo(const char *cache_dir, const kiln_allocator *alloc,
                                       krt_cache_memo *prev, krt_cache_memo *next, krt_mounts *out,
                                       kiln_error *err);
/* The same with the types of a context (NULL: the built-ins): an output whose label names none
 * of them is not mounted; and for a platform (NULL or "": the default platform, whose records
 * are <cache>/assets; else <cache>/platforms/<platform>/assets): records of another platform
 * (a cache written before records were kept per platform) are skipped. */
#define KRT_PLATFORM_MAX 64
kiln_result krt_mounts_read_cache_typed(const char *cache_dir, const char *platform,
                                        const krt_type_registry *types, const kiln_allocator *alloc,
                                        krt_cache_memo *prev, krt_cache_memo *next, krt_mounts *out,
                                        kiln_error *err);
void krt_cache_memo_free(const kiln_allocator *alloc, krt_cache_memo *m);

/* Of a file's size, times and inode (0 when it cannot be stat'ed): a record or a pack replaced
 * by rename gets another one. */
uint64_t krt_file_signature(const char *path);

/* The records folder of a platform's records in a cache (above); false when too long. */
bool krt_records_dir(const char *cache_dir, const char *platform, char *out, size_t size);

/* Adds every entry of a validated pack (sizes and XXH3 checksums in place of the manifest's;
 * sha256 holds the checksum in its first 8 bytes) whose kind one of types loads (NULL: the
 * built-ins) into a new table; path names the pack. */
kiln_result krt_mounts_read_pack(const kiln_pack *pack, const char *path,
                                 const krt_type_registry *types, const kiln_allocator *alloc,
                                 krt_mounts *out, kiln_error *err);

/* Whether any skipped file of memo changed since it was read (one stat each; *stats counts
 * them when not NULL). */
bool krt_memo_skips_changed(const krt_cache_memo *memo, size_t *stats);

/* The skip a load by name "path#label" meets: the latest one whose record names path, or NULL. */
const krt_skip *krt_mounts_find_skip(const krt_mounts *m, const char *name);

/* Moves every artifact of src into dst, replacing those with the same id, and src's skips
 * (replacing dst's of the same file); src is left empty. */
kiln_result krt_mounts_merge(krt_mounts *dst, krt_mounts *src, kiln_error *err);

const krt_artifact *krt_mounts_find(const krt_mounts *m, uint64_t id);
const krt_artifact *krt_mounts_find_name(const krt_mounts *m, const char *name);
void krt_mounts_free(krt_mounts *m);

#endif
