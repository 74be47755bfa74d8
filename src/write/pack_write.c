/* pack_write.c — see pack_write.h; the layout is in docs/formats.md ("Packs").
 *
 * Order of work: sort the inputs by asset id, hash each one (XXH3-64), give equal bytes one
 * payload (numbered in the order the sorted entries first use them, which is also their order
 * in the file), compress the payloads on the job pool (each into its own slot, so the result
 * does not depend on the thread count), then lay out header, table, payload table, names and
 * the aligned payloads, and checksum the table. */
#include "write/pack_write.h"

#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include <zstd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/progress.h"
#include "core/reader.h"

typedef struct sorted_input {
    uint64_t id;
    size_t index; /* into the caller's inputs */
} sorted_input;

typedef struct payload {
    size_t input;      /* the first input (in id order) with these bytes */
    uint64_t checksum; /* XXH3-64 of the raw bytes */
    uint8_t *zdata;    /* compressed bytes when kept, else NULL */
    size_t zcapacity;  /* allocated size of zdata */
    size_t stored_size;
    uint64_t stored_checksum;
    uint32_t compression;
    uint64_t offset;
} payload;

typedef struct write_state {
    const kiln_pack_input *inputs;
    const kiln_pack_write_opts *opts;
    const kiln_allocator *alloc;
    sorted_input *sorted;
    uint64_t *hashes; /* per sorted input */
    payload *payloads;
    size_t payload_count;
    ZSTD_CCtx **cctx; /* one per worker, made on first use */
    int level;
    kiln_progress *progress; /* over the payloads compressed; NULL = none */
} write_state;

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const sorted_input *)a)->id, y = ((const sorted_input *)b)->id;
    return x < y ? -1 : x > y;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static kiln_result hash_job(void *user, size_t i, size_t worker, kiln_error *err)
{
    write_state *s = user;
    const kiln_pack_input *in = &s->inputs[s->sorted[i].index];
    s->hashes[i] = XXH3_64bits(in->data, in->size);
    return KILN_OK;
}

/* Whether compression pays in the chosen mode. AUTO: the bytes a reader saves must be worth a
 * decompression: at least an eighth of the payload and at least 64 bytes. */
static bool keep_compressed(uint32_t mode, size_t raw, size_t z)
{
    if (z >= raw) return false;
    if (mode == KILN_PACK_WRITE_ZSTD) return true;
    return raw - z >= 64 && raw - z >= raw / 8;
}

static kiln_result compress_payload(write_state *s, payload *q, const kiln_pack_input *in,
                                    size_t worker, kiln_error *err);

static kiln_result compress_job(void *user, size_t i, size_t worker, kiln_error *err)
{
    write_state *s = user;
    payload *q = &s->payloads[i];
    const kiln_pack_input *in = &s->inputs[q->input];
    q->compression = KILN_PACK_RAW;
    q->stored_size = in->size;
    q->stored_checksum = q->checksum;
    if (s->opts->compress == KILN_PACK_WRITE_NONE || in->size == 0) return KILN_OK;
    kiln_progress_set_item(s->progress, in->name);
    kiln_result r = compress_payload(s, q, in, worker, err);
    kiln_progress_advance(s->progress, 1);
    return r;
}

static kiln_result compress_payload(write_state *s, payload *q, const kiln_pack_input *in,
                                    size_t worker, kiln_error *err)
{
    if (!s->cctx[worker]) {
        s->cctx[worker] = ZSTD_createCCtx();
        if (!s->cctx[worker])
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "pack: no zstd context");
    }
    ZSTD_CCtx *c = s->cctx[worker];
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, s->level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1); /* the reader checks the declared size */
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0);    /* the pack has its own checksums */
    size_t bound = ZSTD_compressBound(in->size);
    uint8_t *z = kiln_alloc(s->alloc, bound);
    if (!z)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "pack: out of memory compressing %s",
                              in->name);
    size_t n = ZSTD_compress2(c, z, bound, in->data, in->size);
    if (ZSTD_isError(n)) {
        kiln_free(s->alloc, z, bound);
        return kiln_error_set(err, KILN_E_INTERNAL, "pack: zstd failed on %s: %s", in->name,
                              ZSTD_getErrorName(n));
    }
    if (!keep_compressed(s->opts->compress, in->size, n)) {
        kiln_free(s->alloc, z, bound);
        return KILN_OK;
    }
    q->zdata = z;
    q->zcapacity = bound;
    q->stored_size = n;
    q->stored_checksum = XXH3_64bits(z, n);
    q->compression = KILN_PACK_ZSTD;
    return KILN_OK;
}

static kiln_result check_inputs(const kiln_pack_input *inputs, size_t count, kiln_error *err)
{
    if (count > KILN_PACK_MAX_ENTRIES)
        return kiln_error_set(err, KILN_E_LIMIT, "pack: %zu entries, above the limit of %u", count,
                              KILN_PACK_MAX_ENTRIES);
    for (size_t i = 0; i < count; i++) {
        const kiln_pack_input *in = &inputs[i];
        if (!in->name || !in->name[0])
            return kiln_error_set(err, KILN_E_USAGE, "pack: input %zu has no name", i);
        if (in->asset_id == 0 || in->kind == 0 || (in->size && !in->data))
            return kiln_error_set(err, KILN_E_USAGE, "pack: %s has no id, kind or bytes", in->name);
        if ((uint64_t)in->size > KILN_PACK_MAX_ENTRY_SIZE)
            return kiln_error_set(err, KILN_E_LIMIT, "pack: %s is %zu bytes, above the 4 GiB limit",
                                  in->name, in->size);
        if (strlen(in->name) >= UINT32_MAX / 2)
            return kiln_error_set(err, KILN_E_LIMIT, "pack: a name is too long");
    }
    return KILN_OK;
}

/* Gives equal bytes one payload: an open-addressing table over (checksum, size, bytes). */
static kiln_result dedup(write_state *s, size_t count, size_t *payload_of, kiln_error *err)
{
    size_t slots = 16;
    while (slots < count * 2) slots *= 2;
    uint32_t *table = kiln_calloc(s->alloc, slots, sizeof *table); /* payload index + 1 */
    if (!table) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "pack: out of memory");
    for (size_t i = 0; i < count; i++) {
        const kiln_pack_input *in = &s->inputs[s->sorted[i].index];
        size_t h = (size_t)s->hashes[i] & (slots - 1);
        for (;;) {
            if (!table[h]) {
                payload *q = &s->payloads[s->payload_count];
                memset(q, 0, sizeof *q);
                q->input = s->sorted[i].index;
                q->checksum = s->hashes[i];
                table[h] = (uint32_t)++s->payload_count;
                payload_of[i] = s->payload_count - 1;
                break;
            }
            const payload *q = &s->payloads[table[h] - 1];
            const kiln_pack_input *other = &s->inputs[q->input];
            if (q->checksum == s->hashes[i] && other->size == in->size &&
                (in->size == 0 || !memcmp(other->data, in->data, in->size))) {
                payload_of[i] = table[h] - 1;
                break;
            }
            h = (h + 1) & (slots - 1);
        }
    }
    kiln_free(s->alloc, table, slots * sizeof *table);
    return KILN_OK;
}

kiln_result kiln_pack_write(const kiln_pack_input *inputs, size_t count,
                            const kiln_pack_write_opts *opts, uint8_t **out, size_t *size,
                            kiln_pack_write_entry *per_entry, kiln_pack_write_stats *stats,
                            kiln_error *err)
{
    *out = NULL;
    *size = 0;
    kiln_result r = check_inputs(inputs, count, err);
    if (r != KILN_OK) return r;
    if (opts->compress > KILN_PACK_WRITE_ZSTD)
        return kiln_error_set(err, KILN_E_USAGE, "pack: unknown compression mode %u",
                              opts->compress);
    int level = opts->level ? opts->level : KILN_PACK_DEFAULT_LEVEL;
    if (level < 1 || level > ZSTD_maxCLevel())
        return kiln_error_set(err, KILN_E_USAGE, "pack: zstd level %d is not in 1..%d", level,
                              ZSTD_maxCLevel());
    const kiln_allocator *a = opts->alloc;
    size_t n = count ? count : 1;
    size_t threads = kiln_jobs_thread_count(opts->jobs);
    write_state s = {inputs, opts, a, NULL, NULL, NULL, 0, NULL, level, NULL};
    size_t *payload_of = NULL;
    uint8_t *p = NULL;
    size_t total = 0;
    s.sorted = kiln_calloc(a, n, sizeof *s.sorted);
    s.hashes = kiln_calloc(a, n, sizeof *s.hashes);
    s.payloads = kiln_calloc(a, n, sizeof *s.payloads);
    s.cctx = kiln_calloc(a, threads, sizeof *s.cctx);
    payload_of = kiln_calloc(a, n, sizeof *payload_of);
    if (!s.sorted || !s.hashes || !s.payloads || !s.cctx || !payload_of) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "pack: out of memory");
        goto out;
    }
    for (size_t i = 0; i < count; i++) {
        s.sorted[i].id = inputs[i].asset_id;
        s.sorted[i].index = i;
    }
    qsort(s.sorted, count, sizeof *s.sorted, by_id);
    for (size_t i = 1; i < count; i++)
        if (s.sorted[i].id == s.sorted[i - 1].id) {
            r = kiln_error_set(err, KILN_E_USAGE, "pack: %s and %s share asset id %016llx",
                               inputs[s.sorted[i - 1].index].name, inputs[s.sorted[i].index].name,
                               (unsigned long long)s.sorted[i].id);
            goto out;
        }
    r = kiln_jobs_for(opts->jobs, count, hash_job, &s, err);
    if (r == KILN_OK) r = dedup(&s, count, payload_of, err);
    if (r == KILN_OK && opts->compress != KILN_PACK_WRITE_NONE)
        kiln_progress_create(s.payload_count, "compressing", stderr, opts->progress, opts->alloc,
                             &s.progress, NULL);
    if (r == KILN_OK) r = kiln_jobs_for(opts->jobs, s.payload_count, compress_job, &s, err);
    kiln_progress_destroy(s.progress);
    s.progress = NULL;
    if (r != KILN_OK) goto out;

    /* Layout: header, entries, payload records, names, padding, payloads. */
    uint64_t align = opts->align_4096 ? 4096 : 16;
    uint64_t strings_at = KILN_PACK_HEADER_SIZE + (uint64_t)count * KILN_PACK_ENTRY_SIZE +
                          (uint64_t)s.payload_count * KILN_PACK_PAYLOAD_SIZE;
    uint64_t strings_size = 0;
    for (size_t i = 0; i < count; i++) strings_size += strlen(inputs[i].name) + 1;
    if (strings_size > UINT32_MAX) {
        r = kiln_error_set(err, KILN_E_LIMIT, "pack: the names exceed 4 GiB");
        goto out;
    }
    uint64_t data_offset = align_up(strings_at + strings_size, align);
    uint64_t end = data_offset;
    for (size_t i = 0; i < s.payload_count; i++) {
        s.payloads[i].offset = align_up(end, align);
        end = s.payloads[i].offset + s.payloads[i].stored_size;
    }
    if (end > SIZE_MAX) {
        r = kiln_error_set(err, KILN_E_LIMIT, "pack: too large for this machine");
        goto out;
    }
    total = (size_t)end;
    p = kiln_calloc(a, 1, total);
    if (!p) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "pack: cannot allocate %zu bytes", total);
        goto out;
    }
    memcpy(p, "KPAK", 4);
    kiln_store_u32le(p + 4, KILN_PACK_VERSION);
    kiln_store_u32le(p + 8, KILN_PACK_HEADER_SIZE);
    kiln_store_u32le(p + 12, opts->align_4096 ? KILN_PACK_ALIGN_4096 : 0);
    kiln_store_u64le(p + 16, total);
    kiln_store_u32le(p + 24, (uint32_t)count);
    kiln_store_u32le(p + 28, (uint32_t)s.payload_count);
    kiln_store_u64le(p + 32, strings_size);
    kiln_store_u64le(p + 40, data_offset);
    uint64_t name_at = 0;
    for (size_t i = 0; i < count; i++) {
        const kiln_pack_input *in = &inputs[s.sorted[i].index];
        uint8_t *e = p + KILN_PACK_HEADER_SIZE + i * KILN_PACK_ENTRY_SIZE;
        size_t len = strlen(in->name);
        kiln_store_u64le(e, in->asset_id);
        kiln_store_u32le(e + 8, in->kind);
        kiln_store_u32le(e + 12, (uint32_t)payload_of[i]);
        kiln_store_u32le(e + 16, (uint32_t)name_at);
        kiln_store_u32le(e + 20, (uint32_t)len);
        memcpy(p + strings_at + name_at, in->name, len + 1);
        name_at += len + 1;
    }
    uint8_t *records = p + KILN_PACK_HEADER_SIZE + count * KILN_PACK_ENTRY_SIZE;
    for (size_t i = 0; i < s.payload_count; i++) {
        const payload *q = &s.payloads[i];
        const kiln_pack_input *in = &inputs[q->input];
        uint8_t *rec = records + i * KILN_PACK_PAYLOAD_SIZE;
        kiln_store_u64le(rec, q->offset);
        kiln_store_u64le(rec + 8, q->stored_size);
        kiln_store_u64le(rec + 16, in->size);
        kiln_store_u64le(rec + 24, q->stored_checksum);
        kiln_store_u64le(rec + 32, q->checksum);
        kiln_store_u32le(rec + 40, q->compression);
        const uint8_t *src = q->compression == KILN_PACK_ZSTD ? q->zdata : in->data;
        if (q->stored_size) memcpy(p + q->offset, src, q->stored_size);
    }
    kiln_store_u64le(p + 48, kiln_xxh3_64_field_zeroed(p, (size_t)data_offset, 48));

    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->entries = count;
        stats->payloads = s.payload_count;
        for (size_t i = 0; i < count; i++) stats->entry_bytes += inputs[i].size;
        for (size_t i = 0; i < s.payload_count; i++) {
            stats->payload_bytes += inputs[s.payloads[i].input].size;
            stats->stored_bytes += s.payloads[i].stored_size;
            stats->compressed += s.payloads[i].compression == KILN_PACK_ZSTD;
        }
    }
    if (per_entry) {
        for (size_t i = 0; i < count; i++) {
            const payload *q = &s.payloads[payload_of[i]];
            kiln_pack_write_entry *w = &per_entry[s.sorted[i].index];
            w->payload = (uint32_t)payload_of[i];
            w->shared = q->input != s.sorted[i].index;
            w->compression = q->compression;
            w->stored_size = q->stored_size;
        }
    }
    *out = p;
    *size = total;
    p = NULL;
out:
    if (s.payloads)
        for (size_t i = 0; i < s.payload_count; i++)
            kiln_free(a, s.payloads[i].zdata, s.payloads[i].zcapacity);
    if (s.cctx)
        for (size_t i = 0; i < threads; i++) ZSTD_freeCCtx(s.cctx[i]);
    kiln_free(a, p, total);
    kiln_free(a, s.sorted, n * sizeof *s.sorted);
    kiln_free(a, s.hashes, n * sizeof *s.hashes);
    kiln_free(a, s.payloads, n * sizeof *s.payloads);
    kiln_free(a, s.cctx, threads * sizeof *s.cctx);
    kiln_free(a, payload_of, n * sizeof *payload_of);
    return r;
}
