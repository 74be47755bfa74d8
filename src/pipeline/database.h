/* database.h — the asset database: which files under the root are assets, their kinds, GUIDs
 * and settings, and the keys that name their cache entries. */
#ifndef KILN_PIPELINE_DATABASE_H
#define KILN_PIPELINE_DATABASE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/file.h"
#include "core/hash.h"
#include "pipeline/project.h"
#include "pipeline/settings.h"
#include "pipeline/source_kind.h"

/* One source asset. */
typedef struct kiln_asset {
    char *rel;                    /* path relative to the root, '/'-separated (owned) */
    char *abs;                    /* absolute path (owned) */
    const kiln_source_kind *kind; /* NULL: not a kind kiln imports */
    char guid[33];                /* from .meta, or derived from rel */
    bool has_meta;
    kiln_settings settings; /* valid when settings_result is KILN_OK */
    /* "texture.mipmaps" -> the file its value came from (settings_layers.h); NULL when every
     * value is a default. Owned. */
    json_t *settings_origin;
    /* XXH3 of the folder defaults above it (kiln.json "defaults", each folder.meta's bytes);
     * 0 when there are none. The record index compares it instead of restating those files. */
    uint64_t layers_hash;
    bool prefers_astc; /* the project's platform makes format auto pick ASTC */
    kiln_result settings_result;
    /* Why the settings were refused, when settings_result is not KILN_OK (owned; NULL when even
     * that could not be allocated: kiln_asset_settings_error says so). A pointer, not a record:
     * a scan holds every asset at once, and 900 bytes each were 45 MB at 50,000 assets. */
    kiln_error *settings_error;
    /* What the scan saw, for the record index (record_index.h): the source's stat (valid when
     * has_source_stat) and the .meta's (valid when has_meta), both taken after stat_clock_ns. */
    bool has_source_stat;
    int64_t stat_clock_ns;
    kiln_file_info source_stat;
    kiln_file_info meta_stat;
} kiln_asset;

/* Every asset under the root, in walk order (each folder's names sorted): files of a known kind,
 * dot-files and dot-folders skipped, and what the scan rules leave out (scan_rules.h): files and
 * folders the ignore rules match (an ignored folder is not descended into), and the files a model
 * among the assets names (owned.h) unless the project keeps them standalone. *out is an array of
 * *count assets from p's allocator; free with kiln_assets_free. Settings are loaded for each
 * (errors kept per asset, not returned). Errors: those of the walk, and of kiln.json or
 * .kilnignore (KILN_E_IMPORT_SETTINGS, KILN_E_ASSET_IO, KILN_E_LIMIT). */
kiln_result kiln_database_scan(kiln_project *p, kiln_asset **out, size_t *count, kiln_error *err);
/* kiln_database_scan, and what it left out: skipped (a JSON array; may be NULL) gets one object
 * per excluded folder, excluded file of a known kind and owned file, sorted by path:
 * {"path", "reason": "excluded", "folder", "rule": {"file", "line" | "json_pointer", "pattern"},
 * "message"} or {"path", "reason": "owned", "owner", "message"}. */
kiln_result kiln_database_scan_skipped(kiln_project *p, kiln_asset **out, size_t *count,
                                       json_t *skipped, kiln_error *err);
void kiln_assets_free(kiln_project *p, kiln_asset *assets, size_t count);
/* Why a's settings were refused (settings_result is not KILN_OK). */
const kiln_error *kiln_asset_settings_error(const kiln_asset *a);
/* Frees what one asset owns (its paths) and zeroes it; a zeroed asset is a no-op. An array of
 * assets from kiln_calloc may be freed with kiln_assets_free whether or not each was filled. */
void kiln_asset_clear(kiln_project *p, kiln_asset *a);

/* One asset from a path given by the user (relative to the current folder, or absolute); it must
 * lie inside the root (KILN_E_OUTPUT_REFUSED-style check with KILN_E_ASSET_IO) and exist.
 * A file of no known kind is KILN_E_IMPORT_UNSUPPORTED. */
kiln_result kiln_database_find(kiln_project *p, const char *path, kiln_asset *out, kiln_error *err);

/* (Re)loads a's .meta and settings for the project's platform, with the folder defaults above
 * it (kiln.json "defaults", folder.meta files: settings_layers.h). */
void kiln_asset_load_settings(kiln_project *p, kiln_asset *a);

/* Validates a .meta document that is about to be written for a (reimport, meta) as it would be
 * loaded: alone, then with the folder defaults above it, then the kind's cook check. */
kiln_result kiln_asset_check_meta(kiln_project *p, const kiln_asset *a, const json_t *doc,
                                  kiln_error *err);

/* The GUID of a source without .meta: 32 hex digits of SHA-256("kiln-guid\0" + rel). */
void kiln_guid_derive(const char *rel, char out[33]);
/* A fresh random GUID (getrandom). */
kiln_result kiln_guid_random(char out[33], kiln_error *err);

/* The 64-bit asset id of an artifact is kiln_asset_id (kiln_format.h). */

/* The canonical settings of the asset's kind, as they enter the key. New reference. */
json_t *kiln_asset_settings_json(const kiln_asset *a);

/* The cache key: SHA-256 over the pipeline version, the kind, the canonical settings, the
 * target when it decides the output (format auto on an ASTC platform), the SHA-256 of the source
 * bytes, and for kinds whose artifacts name each other by ids (models) the GUID, and for kinds
 * that read other files the digest of those (deps_sha). docs/cache.md gives the byte sequence. */
kiln_result kiln_key_compute(const kiln_asset *a, const uint8_t source_sha[KILN_SHA256_SIZE],
                             const uint8_t *deps_sha, char key_hex[KILN_SHA256_HEX_SIZE],
                             kiln_error *err);

#endif
