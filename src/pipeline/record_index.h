/* record_index.h — the record index of a platform: one file beside its records
 * (<records root>/assets.index, docs/cache.md "The record index") that lets a no-op import or
 * report cost one stat per source and one read. Per asset it holds the stat signatures of every
 * file whose bytes entered the key (the source, its .meta, its dependencies), the key, and what
 * import and report show of its entry (outputs, summary, warnings). A row maps input signatures
 * to a verdict, so a row written by any process stays true while those signatures hold: the
 * index can only be incomplete, never wrong. It is a cache of the records: missing, damaged (bad
 * header, checksum, order), of another kiln or project (context), or older than a change of the
 * records folder, it is ignored and written again; rows with a signature taken within
 * KILN_INDEX_RACY_NS of its file's mtime are never trusted (git's racy rule). */
#ifndef KILN_PIPELINE_RECORD_INDEX_H
#define KILN_PIPELINE_RECORD_INDEX_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "pipeline/database.h"

#define KILN_INDEX_VERSION  2
#define KILN_INDEX_RACY_NS  2000000000LL /* 2 s */
#define KILN_INDEX_MAX_SIZE ((size_t)1 << 30)
/* How often a run of hits refreshes its entries' mtimes (gc's least-recently-used order). */
#define KILN_INDEX_TOUCH_NS (3600LL * 1000000000LL) /* 1 h */

typedef struct kiln_index_row kiln_index_row;

/* The stamp of one objects/<xx> folder: an entry published or removed in it changes it. */
typedef struct kiln_index_shard {
    int64_t mtime_ns, ctime_ns;
    uint64_t ino;
    bool present;
} kiln_index_shard;

/* A loaded index (empty when there was none or it could not be trusted). */
typedef struct kiln_cache_index {
    uint8_t *text; /* the file, its separators cut into NULs; rows point into it */
    size_t size;
    kiln_index_row *rows; /* sorted by rel */
    size_t count, capacity;
    bool valid; /* it was read and every check passed */
    uint64_t context;
    kiln_index_shard stored[256]; /* the shard stamps the file holds (parse) */
    /* Taken by kiln_cache_index_load: the shards now (clock read first), and which of them are
     * as the file says, so that no entry of a row keyed into them was removed since it was
     * written. A hit in another shard checks its entry folder itself. */
    kiln_index_shard now[256];
    int64_t now_clock_ns;
    bool shard_ok[256];
    bool shards_stale; /* some shard is not ok although its stamp now is trusted: worth writing */
    int views_fd;      /* assets.views, open when views_open (kiln_cache_index_load) */
    bool views_open;
} kiln_cache_index;

/* The header lines of an index file. */
typedef struct kiln_index_header {
    uint64_t context;
    int64_t records_mtime_ns, records_ctime_ns; /* the records folder when the index was written */
    uint64_t records_ino, records_size;
    int64_t written_ns; /* the clock when it was written */
} kiln_index_header;

/* What a row that still holds says of its asset. */
typedef struct kiln_index_hit {
    char key[KILN_SHA256_HEX_SIZE];
    size_t warnings;                       /* how many warnings its entry has */
    uint64_t view_at, view_size, view_sum; /* its view in assets.views (kiln_cache_index_view) */
    bool entry_known; /* its entry's shard has not changed: the entry is there */
} kiln_index_hit;

/* Parses ix->text (ix->size bytes followed by a NUL, as kiln_file_read leaves them): checksum,
 * header, rows (cut into the text; ix->rows from a). False when any check fails; the caller frees
 * ix either way (kiln_cache_index_clear). Reads nothing else: the fuzz target's entry. */
bool kiln_cache_index_parse(kiln_cache_index *ix, const kiln_allocator *a, kiln_index_header *head);

/* Reads the project platform's index. Never fails: an index that cannot be used is empty. */
void kiln_cache_index_load(kiln_project *p, kiln_cache_index *out);
void kiln_cache_index_free(kiln_project *p, kiln_cache_index *ix);
/* Reads the index for its rows alone (no records-folder check, no shard stamps): a row still
 * describes its source while the source's signature holds, whoever changed the records since. */
void kiln_cache_index_load_rows(kiln_project *p, kiln_cache_index *out);
/* The same with the allocator the text and rows came from. */
void kiln_cache_index_clear(kiln_cache_index *ix, const kiln_allocator *a);

/* What a look-up needs besides the index: the project (the asset root a deps_from_root kind's
 * dependency paths start from) and the run's assets by name, for kinds whose dependencies are
 * sources (deps_are_assets): such a row holds only when each dependency is one of them whose own
 * row holds with the key and GUID the row recorded. by_rel is NULL when no asset of the run is of
 * such a kind (their rows then never hold). */
typedef struct kiln_index_env {
    const kiln_project *p;
    const kiln_asset **by_rel; /* the run's assets sorted by rel (strcmp), or NULL */
    size_t count;
    const kiln_allocator *alloc; /* what by_rel came from */
} kiln_index_env;

/* Makes env for a run over assets (borrowed: they must outlive env). KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_index_env_init(kiln_index_env *env, kiln_project *p, const kiln_asset *assets,
                                size_t count, kiln_error *err);
void kiln_index_env_free(kiln_index_env *env);

/* Whether the index row of a still holds (every signature equal and none racy; each source it
 * depends on a hit with the recorded key and GUID); fills *hit. Stats a's dependencies (models,
 * shader includes; through their rows, a material's sources); nothing else is touched. */
bool kiln_cache_index_lookup(const kiln_cache_index *ix, const kiln_index_env *env,
                             const kiln_asset *a, kiln_index_hit *hit);
/* The files model a names (paths relative to its folder, a new array) when its row's source
 * signature still holds (the model's bytes are those the list was taken from); else NULL. */
json_t *kiln_cache_index_named(const kiln_cache_index *ix, const kiln_asset *a);
/* The view of a hit, {"outputs", "summary", "warnings"} as import and report show them, read
 * from assets.views (a new object; NULL when it cannot be read, does not match its digest or
 * does not parse: a miss). Thread-safe. */
json_t *kiln_cache_index_view(const kiln_cache_index *ix, const kiln_index_hit *hit);

/* Whether a run of hits should refresh their entries' mtimes now (KILN_INDEX_TOUCH_NS since the
 * last), and marking that it did. */
bool kiln_cache_index_touch_due(kiln_project *p);
void kiln_cache_index_touched(kiln_project *p);

/* A row (a JSON string, new reference; NULL when a cannot be indexed: no stat, a path with a tab
 * or newline) for a whose key and entry view (outputs, summary, warnings) a run just checked;
 * record is its record as on disk (its "deps" give the dependencies' signatures, or for
 * deps_are_assets kinds their keys and GUIDs; may be NULL for kinds without); a's stats are the
 * scan's (taken after a->stat_clock_ns); a dependency whose recorded stat is too recent to trust
 * is stat'ed again (p: the asset root of deps_from_root kinds). Thread-safe. */
json_t *kiln_index_row_make(const kiln_project *p, const kiln_asset *a, const char *key,
                            const json_t *record, const json_t *view);

/* Writes the index: rows (rel -> row string, this run's new rows) over the rows of the index on
 * disk now that are kept: with whole_tree (an --all run: what it did not scan is gone) those in
 * keep (the rels the index answered), else all but those in drop (the rels this run checked and
 * made no row for). keep and drop are sorted by strcmp. run: the index this run loaded (its
 * shard stamps, taken before any entry was checked, are the ones written). Written to a
 * temporary file and renamed; best effort: the index is a cache. */
void kiln_cache_index_write(kiln_project *p, const kiln_cache_index *run, const json_t *rows,
                            const char *const *keep, size_t keep_count, const char *const *drop,
                            size_t drop_count, bool whole_tree);

/* Removes every platform's index (gc, before it removes entries). */
void kiln_cache_index_remove_all(kiln_project *p);

#endif
