/* source.h — the digest of a source file, with the stat shortcut: when the size, mtime, ctime
 * and inode recorded at the last import still hold, and the file was not "racily clean" then
 * (modified within KILN_RACY_WINDOW_NS of being hashed, where a later edit in the same clock
 * tick could keep the same mtime — git's rule), the recorded SHA-256 is used without reading. */
#ifndef KILN_PIPELINE_SOURCE_H
#define KILN_PIPELINE_SOURCE_H

#include <jansson.h>

#include "core/file.h"
#include "core/hash.h"
#include "pipeline/database.h"

#define KILN_RACY_WINDOW_NS  1000000000LL      /* 1 s: covers coarse file-system clocks */
#define KILN_SOURCE_MAX_SIZE ((size_t)2 << 30) /* sources above 2 GiB are refused */

typedef struct kiln_source {
    uint8_t sha[KILN_SHA256_SIZE];
    uint8_t *data; /* the bytes when they were read (or asked for), else NULL */
    size_t size;
    bool read;    /* the bytes were read now (the shortcut did not apply) */
    json_t *stat; /* {"size","mtime_ns","ctime_ns","ino","sha256","checked_ns"} */
} kiln_source;

/* record: the asset record of the last import (may be NULL). need_bytes: read the bytes even if
 * the shortcut applies. */
kiln_result kiln_source_digest(kiln_project *p, const kiln_asset *a, const json_t *record,
                               bool need_bytes, kiln_source *out, kiln_error *err);
void kiln_source_free(kiln_project *p, kiln_source *s);

/* The stat shortcut for any file (dependencies too): true and *sha when st (a record's stat
 * object) still describes fi and was not racily clean. */
bool kiln_stat_matches(const json_t *st, const kiln_file_info *fi, uint8_t sha[KILN_SHA256_SIZE]);
/* The stat object a record keeps: size, times, inode, digest, when it was checked. */
json_t *kiln_stat_json(const kiln_file_info *fi, const uint8_t sha[KILN_SHA256_SIZE],
                       int64_t checked_ns);

/* The files a model source reads besides itself (a .gltf's buffers and images), with the
 * digest that enters its cache key. */
typedef struct kiln_deps {
    uint8_t sha[KILN_SHA256_SIZE]; /* over "<path relative to the source's folder>\n<sha256 or
                                      missing>\n" per file, in the order the model names them */
    json_t *list;                  /* [{"path": relative, "stat": {...} or null}] for the record */
    json_t *digests;               /* [{"path": relative, "sha256": hex or null}] for manifests */
    size_t count;
    bool read; /* some file was read now (the shortcut did not cover it) */
} kiln_deps;

/* source: the model's bytes when they were read now, else NULL: then the record's "deps" list
 * is trusted (the source is unchanged, so it names the same files) and only each file's stat
 * is checked. Returns KILN_E_USAGE when source is NULL and the record has no list (the caller
 * reads the source and calls again). A file that does not exist enters the digest as
 * "missing", so its appearance changes the key. */
kiln_result kiln_deps_digest(kiln_project *p, const kiln_asset *a, const uint8_t *source,
                             size_t size, const json_t *record, kiln_deps *out, kiln_error *err);
void kiln_deps_free(kiln_deps *d);

/* The files the asset's last import read besides its source (the dependency list its record
 * keeps; files it named that were missing too), as absolute paths: a new JSON array, empty when
 * the kind reads no other files or the asset has no record. For `kiln watch`, which re-imports
 * a model when one of them changes. */
json_t *kiln_deps_recorded_paths(kiln_project *p, const kiln_asset *a);
/* Of those, the sources of the project (deps_are_assets: all of them; a kind's
 * asset_dependencies: a model's templates), as absolute paths: what pack pulls in. */
json_t *kiln_deps_recorded_sources(kiln_project *p, const kiln_asset *a);

/* The asset's key from its source digest (stat shortcut unless need_bytes) and, for models, its
 * dependency digest — reading the source again when the shortcut applied but the record has
 * no dependency list. src and deps are filled (free both with their free functions, also on
 * error). */
kiln_result kiln_asset_key(kiln_project *p, const kiln_asset *a, const json_t *record,
                           bool need_bytes, kiln_source *src, kiln_deps *deps,
                           char key[KILN_SHA256_HEX_SIZE], kiln_error *err);

#endif
