/* source.h — the digest of a source file, with the stat shortcut: when the size, mtime, ctime
 * and inode recorded at the last import still hold, and the file was not "racily clean" then
 * (modified within KILN_RACY_WINDOW_NS of being hashed, where a later edit in the same clock
 * tick could keep the same mtime — git's rule), the recorded SHA-256 is used without reading. */
#ifndef KILN_PIPELINE_SOURCE_H
#define KILN_PIPELINE_SOURCE_H

#include <jansson.h>

#include "core/hash.h"
#include "pipeline/database.h"

#define KILN_RACY_WINDOW_NS 1000000000LL  /* 1 s: covers coarse file-system clocks */
#define KILN_SOURCE_MAX_SIZE ((size_t)2 << 30)  /* sources above 2 GiB are refused */

typedef struct kiln_source {
    uint8_t sha[KILN_SHA256_SIZE];
    uint8_t *data;          /* the bytes when they were read (or asked for), else NULL */
    size_t size;
    bool read;              /* the bytes were read now (the shortcut did not apply) */
    json_t *stat;           /* {"size","mtime_ns","ctime_ns","ino","sha256","checked_ns"} */
} kiln_source;

/* record: the asset record of the last import (may be NULL). need_bytes: read the bytes even if
 * the shortcut applies. */
kiln_result kiln_source_digest(kiln_project *p, const kiln_asset *a, const json_t *record,
                               bool need_bytes, kiln_source *out, kiln_error *err);
void kiln_source_free(kiln_project *p, kiln_source *s);

#endif
