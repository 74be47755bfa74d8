/* remote.h — the shared remote cache (docs/scale-out.md): entries of the local cache mirrored on
 * servers that speak the Bazel HTTP cache protocol (nginx WebDAV, bazel-remote) or in a shared
 * folder. An entry's manifest.json is stored under ac/<entry key>, each output file under
 * cas/<sha256 of its bytes>. Several remotes split the keys among themselves by rendezvous
 * hashing. A remote never fails a cook: the first transport error disables it for the rest of
 * the run (one warning), a bad blob is a miss, a failed upload is a warning. */
#ifndef KILN_PIPELINE_REMOTE_H
#define KILN_PIPELINE_REMOTE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/log.h"
#include "pipeline/project.h"
#include "pipeline/remote_transport.h"

#define KILN_REMOTE_MAX            16                /* remotes in one set */
#define KILN_REMOTE_AC_MAX_SIZE    (16u << 20)       /* a manifest larger than this is a miss */
#define KILN_REMOTE_ENTRY_MAX_SIZE ((size_t)4 << 30) /* all blobs of one entry */

typedef struct kiln_remote_set kiln_remote_set;

/* Parses the URLs ("http://host:port/prefix", "https://...", "file:///abs/folder",
 * "file:relative/folder"; options after '?': "read-only", "timeout=SECONDS") and creates their
 * transports. read_only applies to all. logger (borrowed, outlives the set) gets the warnings.
 * Errors: KILN_E_USAGE naming a bad URL, KILN_E_LIMIT (more than KILN_REMOTE_MAX). */
kiln_result kiln_remote_set_create(const char *const *urls, size_t count, bool read_only,
                                   uint32_t timeout_s, const kiln_allocator *a,
                                   const kiln_logger *logger, kiln_remote_set **out,
                                   kiln_error *err);
void kiln_remote_set_destroy(kiln_remote_set *s); /* NULL is a no-op */

/* Looks key up on the remote that owns it. On a hit every blob was checked (size and SHA-256)
 * and the entry published into p's cache like a local cook (kiln_cache_entry_publish): returns
 * true. Anything else (miss, bad blob, transport error, disabled remote) returns false and the
 * caller cooks. Thread-safe. */
bool kiln_remote_fetch(kiln_remote_set *s, kiln_project *p, const char *key);

/* Uploads the whole local entry of key to the remote that owns it (unless read-only or
 * disabled): HEAD each blob, PUT the missing ones, PUT the manifest to ac/ last. Outputs are
 * re-hashed first; a local file that does not match its manifest is not uploaded. Never fails:
 * problems are warnings and counted. Thread-safe. */
void kiln_remote_upload(kiln_remote_set *s, kiln_project *p, const char *key);

/* {"hits", "misses", "uploads", "errors"} as integers, plus "remotes": [{"url", "disabled",
 * "read_only"}]. New reference. */
json_t *kiln_remote_stats_json(const kiln_remote_set *s);

/* Rendezvous (highest random weight) hashing: the index in [0, count) of the remote that owns
 * key, scoring SHA-256(id + "\n" + key) of each remote's id. Adding or removing one remote moves
 * only the keys it wins or held. count >= 1. */
size_t kiln_remote_rendezvous(const char *const *ids, size_t count, const char *key);

/* Whether the asset with this GUID belongs to shard index of count (count >= 1): the first 8
 * bytes of SHA-256("kiln-shard\0" + guid), big-endian, modulo count. */
bool kiln_shard_contains(const char *guid, uint32_t index, uint32_t count);

/* Reads <project_dir>/kiln.json, the project config file: {"remote_cache": [URL, ...]}. Absent:
 * KILN_OK with *urls NULL. *urls is a JSON array of strings (new reference). Errors:
 * KILN_E_IMPORT_SETTINGS naming the file and the field (bad JSON, unknown field, not strings). */
#define KILN_PROJECT_CONFIG "kiln.json"
kiln_result kiln_remote_config_load(const char *project_dir, json_t **urls, kiln_error *err);

#endif
