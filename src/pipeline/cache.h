/* cache.h — the content-addressed cache: entries under objects/<key[0..2]>/<key>/ holding the
 * outputs and manifest.json, asset records under assets/<guid>.json, and garbage collection.
 * docs/cache.md describes the layout and the rules that keep it safe under crashes and
 * concurrent writers. */
#ifndef KILN_PIPELINE_CACHE_H
#define KILN_PIPELINE_CACHE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/hash.h"
#include "pipeline/project.h"

#define KILN_MANIFEST_VERSION 1

/* One output file of an entry, in memory before publishing. */
typedef struct kiln_output {
    const char *label; /* "texture" */
    const char *file;  /* "texture.ktx2": a plain file name */
    const uint8_t *data;
    size_t size;
} kiln_output;

/* <cache>/objects/<key[0..2]>/<key> */
void kiln_cache_entry_dir(const kiln_project *p, const char *key, char out[KILN_PATH_MAX]);

/* Reads and checks an entry: manifest.json parses, is of this manifest version and key, and every
 * output it lists exists with the recorded size (deep: with the recorded SHA-256 too). Returns the
 * manifest (new reference) when whole, NULL when absent or not whole. */
json_t *kiln_cache_entry_load(const kiln_project *p, const char *key, bool deep);

/* The manifest's description of one output: label, file, size, SHA-256 and XXH3-128 of its
 * bytes (*out: a new object). Errors: those of hashing. */
kiln_result kiln_output_json(const kiln_output *o, json_t **out, kiln_error *err);

/* Writes outputs + manifest into a private temporary folder under <cache>/tmp and renames it into
 * place. If a whole entry is already there (another process won), ours is dropped and
 * *already_present set; a folder without a whole manifest is moved aside and replaced.
 * manifest is borrowed; "outputs" is filled in here from the outputs. */
kiln_result kiln_cache_entry_publish(kiln_project *p, const char *key, json_t *manifest,
                                     const kiln_output *outputs, size_t output_count,
                                     bool *already_present, kiln_error *err);

/* Compares in-memory outputs with an entry's files byte for byte. */
bool kiln_cache_entry_equals(const kiln_project *p, const char *key, const kiln_output *outputs,
                             size_t output_count);

/* Removes an entry's folder (or whatever is there under its name): renamed aside into <cache>/tmp
 * in one step, so no reader sees half of it, then deleted (never following symlinks). An absent
 * entry is not an error. For entries found damaged (cache_verify.h); nothing else removes a
 * referenced entry but gc. */
kiln_result kiln_cache_entry_discard(kiln_project *p, const char *key, kiln_error *err);

/* Marks an entry used now (its folder's mtime), for least-recently-used collection. False when
 * the entry's folder is not there (collected). */
bool kiln_cache_entry_touch(const kiln_project *p, const char *key);

/* Where the project's platform keeps its records (docs/cache.md "Records"): <cache> for the
 * default platform (""), <cache>/platforms/<platform> for a named one; its records are under
 * assets/ in it, its index (record_index.h) beside them. */
void kiln_cache_records_root(const kiln_project *p, char out[KILN_PATH_MAX]);

/* <records root>/assets/<guid>.json: the entry an asset was last imported to for the project's
 * platform, with the stat data that lets report and import skip re-reading unchanged sources.
 * NULL when absent, unreadable or of another platform. The one reader and the one writer of
 * records: fields other code adds to a record pass through both unchanged. */
json_t *kiln_cache_record_load(const kiln_project *p, const char *guid);
kiln_result kiln_cache_record_write(kiln_project *p, const char *guid, const json_t *record,
                                    kiln_error *err);

/* Marks an asset's record, and the records' folder, changed now (their mtimes), without
 * rewriting it. The record is written before its entry is published (for gc), so a runtime
 * polling the cache may read it while the entry is not there yet; this tells it to look again
 * once it is. */
void kiln_cache_record_touch(const kiln_project *p, const char *guid);

/* Removes an asset's record for the project's platform (its source is gone from the root): the
 * runtime stops mounting its entry, which stays until gc collects it. An absent record is not an
 * error. */
kiln_result kiln_cache_record_remove(kiln_project *p, const char *guid, kiln_error *err);

/* Creates <cache>/objects and tmp and the platform's records folder. */
kiln_result kiln_cache_prepare(kiln_project *p, kiln_error *err);

/* Total bytes of the files under the cache folder. */
uint64_t kiln_cache_size(const kiln_project *p);

#endif
