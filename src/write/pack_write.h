/* pack_write.h — laying out a .kpak pack (cook side): entries sorted by asset id, identical
 * payloads stored once, each payload raw or Zstandard-compressed, aligned, checksummed. The
 * bytes are in docs/formats.md ("Packs"); the reader is pack_read.c (kiln_format.h). */
#ifndef KILN_WRITE_PACK_WRITE_H
#define KILN_WRITE_PACK_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "kiln/kiln_format.h"

/* How payloads are stored (kiln.h repeats these values as the public KILN_PACK_COMPRESS_*). */
typedef enum kiln_pack_compress_mode {
    KILN_PACK_WRITE_AUTO = 0, /* zstd where it pays: saves >= 1/8 of the bytes and >= 64 bytes */
    KILN_PACK_WRITE_NONE = 1, /* every payload raw */
    KILN_PACK_WRITE_ZSTD = 2, /* zstd wherever it makes the payload smaller at all */
} kiln_pack_compress_mode;

#define KILN_PACK_DEFAULT_LEVEL 9 /* on the cooked corpus: 15x faster than 19, 5% more bytes */

/* One artifact to pack. All borrowed until kiln_pack_write returns. */
typedef struct kiln_pack_input {
    uint64_t asset_id; /* non-zero, unique among the inputs */
    uint32_t kind;     /* KILN_PACK_KIND_KTX2 or a container kind; non-zero */
    const char *name;  /* "path#label", non-empty */
    const uint8_t *data;
    size_t size; /* at most KILN_PACK_MAX_ENTRY_SIZE */
} kiln_pack_input;

typedef struct kiln_pack_write_opts {
    uint32_t compress;           /* kiln_pack_compress_mode */
    int level;                   /* zstd level 1..22; 0 = KILN_PACK_DEFAULT_LEVEL */
    bool align_4096;             /* payloads at 4096-byte boundaries (direct I/O) */
    kiln_jobs *jobs;             /* compresses payloads in parallel; NULL = on the caller */
    const kiln_allocator *alloc; /* NULL = libc */
    bool progress;               /* a bar over the compression on stderr, when it is a terminal */
} kiln_pack_write_opts;

/* What was written, per input (in the caller's order) and in total. */
typedef struct kiln_pack_write_entry {
    uint32_t payload;     /* payload index in the pack */
    bool shared;          /* its bytes equal an earlier entry's (sorted by id) */
    uint32_t compression; /* kiln_pack_compression */
    size_t stored_size;
} kiln_pack_write_entry;

typedef struct kiln_pack_write_stats {
    size_t entries, payloads, compressed; /* compressed: payloads stored with zstd */
    uint64_t entry_bytes;                 /* sum of every entry's size */
    uint64_t payload_bytes;               /* sum of the distinct payloads' sizes */
    uint64_t stored_bytes;                /* sum of the payloads as stored */
} kiln_pack_write_stats;

/* Builds a pack in memory. *out is from opts->alloc; free with kiln_free(alloc, *out, *size).
 * per_entry (may be NULL) gets count records. Deterministic: the same inputs (in any order),
 * mode, level and alignment give the same bytes with any number of threads (with the same
 * libzstd). Errors: KILN_E_USAGE (id 0, kind 0, empty name, two inputs with one id),
 * KILN_E_LIMIT (an input above KILN_PACK_MAX_ENTRY_SIZE, too many inputs),
 * KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (zstd failed). */
kiln_result kiln_pack_write(const kiln_pack_input *inputs, size_t count,
                            const kiln_pack_write_opts *opts, uint8_t **out, size_t *size,
                            kiln_pack_write_entry *per_entry, kiln_pack_write_stats *stats,
                            kiln_error *err);

#endif
