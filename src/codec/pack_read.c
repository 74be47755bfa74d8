/* pack_read.c — validating and reading .kpak packs (kiln_format.h; bytes in docs/formats.md,
 * "Packs"). Shared with the runtime: libc, zstd and xxHash only.
 *
 * Opening checks every byte before the payloads (header, table of contents, payload table,
 * names) against the header's checksum and the layout rules, without touching a payload page,
 * so mounting an mmap'ed pack costs O(entries). Each payload is checked (XXH3-64 of the stored
 * bytes, then of the decompressed bytes) when it is read. */
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include <zstd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

static const uint8_t magic[4] = {'K', 'P', 'A', 'K'};

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "kiln pack";

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* The raw fields of payload record i (validated by open; decoded again here, never cached, so
 * a kiln_pack stays a plain view). */
typedef struct payload_rec {
    uint64_t offset, stored_size, size, stored_checksum, checksum;
    uint32_t compression, reserved;
} payload_rec;

static payload_rec payload_at(const uint8_t *payloads, uint32_t i)
{
    kiln_reader r =
        kiln_reader_make(payloads + (size_t)i * KILN_PACK_PAYLOAD_SIZE, KILN_PACK_PAYLOAD_SIZE);
    payload_rec q;
    q.offset = kiln_read_u64le(&r);
    q.stored_size = kiln_read_u64le(&r);
    q.size = kiln_read_u64le(&r);
    q.stored_checksum = kiln_read_u64le(&r);
    q.checksum = kiln_read_u64le(&r);
    q.compression = kiln_read_u32le(&r);
    q.reserved = kiln_read_u32le(&r);
    return q;
}

typedef struct entry_rec {
    uint64_t id;
    uint32_t kind, payload, name_offset, name_size;
    uint64_t reserved;
} entry_rec;

static entry_rec entry_rec_at(const uint8_t *entries, uint32_t i)
{
    kiln_reader r =
        kiln_reader_make(entries + (size_t)i * KILN_PACK_ENTRY_SIZE, KILN_PACK_ENTRY_SIZE);
    entry_rec e;
    e.id = kiln_read_u64le(&r);
    e.kind = kiln_read_u32le(&r);
    e.payload = kiln_read_u32le(&r);
    e.name_offset = kiln_read_u32le(&r);
    e.name_size = kiln_read_u32le(&r);
    e.reserved = kiln_read_u64le(&r);
    return e;
}

static kiln_result check_payloads(const uint8_t *p, size_t size, uint64_t payloads_at,
                                  uint32_t count, uint64_t data_offset, uint64_t align,
                                  kiln_error *err)
{
    uint64_t end = data_offset; /* where the previous payload ended */
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = payloads_at + (uint64_t)i * KILN_PACK_PAYLOAD_SIZE;
        payload_rec q = payload_at(p + payloads_at, i);
        if (q.reserved)
            return kiln_error_bad_bytes(err, k_format, at + 44,
                                        "a payload's reserved field is not zero");
        if (q.compression > KILN_PACK_ZSTD)
            return kiln_error_bad_bytes(err, k_format, at + 40,
                                        "a payload has an unknown compression");
        if (q.size > KILN_PACK_MAX_ENTRY_SIZE) {
            kiln_error_set(err, KILN_E_LIMIT,
                           "kiln pack: payload %u declares %llu bytes, above the 4 GiB limit", i,
                           (unsigned long long)q.size);
            kiln_error_at_offset(err, at + 16);
            return KILN_E_LIMIT;
        }
        if (q.compression == KILN_PACK_RAW &&
            (q.stored_size != q.size || q.stored_checksum != q.checksum))
            return kiln_error_bad_bytes(
                err, k_format, at + 8,
                "a raw payload's stored size or checksum differs from its own");
        if (q.compression == KILN_PACK_ZSTD && (q.stored_size == 0 || q.size == 0))
            return kiln_error_bad_bytes(err, k_format, at + 8, "a compressed payload is empty");
        /* Payloads tile the data region: each at the next aligned offset, so none overlaps,
         * none leaves a gap beyond the padding, and the order is the only one possible. */
        if (q.offset != align_up(end, align))
            return kiln_error_bad_bytes(
                err, k_format, at,
                "a payload is not at the next aligned offset (overlap, gap or "
                "out of order)");
        if (q.offset > size || q.stored_size > size - q.offset)
            return kiln_error_bad_bytes(err, k_format, at + 8,
                                        "a payload runs past the end of the file");
        end = q.offset + q.stored_size;
    }
    if (end != size)
        return kiln_error_bad_bytes(err, k_format, end, "bytes follow the last payload");
    return KILN_OK;
}

static kiln_result check_entries(const uint8_t *p, uint32_t count, uint32_t payload_count,
                                 const char *strings, uint64_t strings_size, uint64_t *total,
                                 kiln_error *err)
{
    const uint8_t *entries = p + KILN_PACK_HEADER_SIZE;
    const uint8_t *payloads = entries + (size_t)count * KILN_PACK_ENTRY_SIZE;
    uint64_t next_payload = 0; /* payloads are numbered in the order entries first use them */
    *total = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = KILN_PACK_HEADER_SIZE + (uint64_t)i * KILN_PACK_ENTRY_SIZE;
        entry_rec e = entry_rec_at(entries, i);
        if (e.reserved)
            return kiln_error_bad_bytes(err, k_format, at + 24,
                                        "an entry's reserved field is not zero");
        if (i > 0 && entry_rec_at(entries, i - 1).id >= e.id)
            return kiln_error_bad_bytes(
                err, k_format, at, "entry ids are not strictly ascending (unsorted or repeated)");
        if (e.id == 0) return kiln_error_bad_bytes(err, k_format, at, "an entry has asset id 0");
        if (e.kind == 0) return kiln_error_bad_bytes(err, k_format, at + 8, "an entry has no kind");
        if (e.payload >= payload_count)
            return kiln_error_bad_bytes(err, k_format, at + 12,
                                        "an entry's payload index is out of range");
        if (e.payload > next_payload)
            return kiln_error_bad_bytes(err, k_format, at + 12,
                                        "payloads are not numbered in the order entries use them");
        if (e.payload == next_payload) next_payload++;
        if (e.name_size == 0)
            return kiln_error_bad_bytes(err, k_format, at + 20, "an entry has no name");
        if (e.name_offset >= strings_size || e.name_size >= strings_size - e.name_offset)
            return kiln_error_bad_bytes(err, k_format, at + 16,
                                        "an entry's name runs past the strings");
        if (strings[e.name_offset + e.name_size] != '\0' ||
            memchr(strings + e.name_offset, '\0', e.name_size))
            return kiln_error_bad_bytes(err, k_format, at + 16,
                                        "an entry's name is not one NUL-terminated string");
        *total += payload_at(payloads, e.payload).size;
    }
    if (next_payload != payload_count)
        return kiln_error_bad_bytes(err, k_format, 28, "a payload is used by no entry");
    return KILN_OK;
}

KILN_API kiln_result kiln_pack_open_memory(const void *data, size_t size, uint32_t flags,
                                           kiln_pack *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_pack_open_memory: no output");
    memset(out, 0, sizeof *out);
    if (!data && size) return kiln_error_set(err, KILN_E_USAGE, "kiln_pack_open_memory: no data");
    if (flags & ~(uint32_t)KILN_PACK_SKIP_CHECKSUM)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_pack_open_memory: unknown flags 0x%x",
                              flags);
    const uint8_t *p = data;
    if (size < KILN_PACK_HEADER_SIZE)
        return kiln_error_bad_bytes(err, k_format, 0, "shorter than its 64-byte header");
    if (memcmp(p, magic, 4) != 0)
        return kiln_error_bad_bytes(err, k_format, 0, "no \"KPAK\" magic");
    kiln_reader r = kiln_reader_make(p, KILN_PACK_HEADER_SIZE);
    r.pos = 4;
    uint32_t version = kiln_read_u32le(&r);
    uint32_t header_size = kiln_read_u32le(&r);
    uint32_t pack_flags = kiln_read_u32le(&r);
    uint64_t file_size = kiln_read_u64le(&r);
    uint32_t entry_count = kiln_read_u32le(&r);
    uint32_t payload_count = kiln_read_u32le(&r);
    uint64_t strings_size = kiln_read_u64le(&r);
    uint64_t data_offset = kiln_read_u64le(&r);
    uint64_t checksum = kiln_read_u64le(&r);
    uint64_t reserved = kiln_read_u64le(&r);
    if (version != KILN_PACK_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "kiln pack version %u; this kiln reads version %u: pack again", version,
                       KILN_PACK_VERSION);
        kiln_error_at_offset(err, 4);
        return KILN_E_FORMAT_VERSION;
    }
    if (header_size != KILN_PACK_HEADER_SIZE)
        return kiln_error_bad_bytes(err, k_format, 8, "header size is not 64");
    if (pack_flags & ~(uint32_t)KILN_PACK_ALIGN_4096)
        return kiln_error_bad_bytes(err, k_format, 12, "unknown header flags");
    if (file_size != size)
        return kiln_error_bad_bytes(err, k_format, 16,
                                    "file size in the header differs from the file's");
    if (reserved)
        return kiln_error_bad_bytes(err, k_format, 56, "reserved header bytes are not zero");
    if (entry_count > KILN_PACK_MAX_ENTRIES) {
        kiln_error_set(err, KILN_E_LIMIT, "kiln pack: %u entries, above the limit of %u",
                       entry_count, KILN_PACK_MAX_ENTRIES);
        kiln_error_at_offset(err, 24);
        return KILN_E_LIMIT;
    }
    if (payload_count > entry_count)
        return kiln_error_bad_bytes(err, k_format, 28, "more payloads than entries");
    /* 64-bit arithmetic: at most 2^24 entries and payloads, so none of this can wrap. */
    uint64_t payloads_at = KILN_PACK_HEADER_SIZE + (uint64_t)entry_count * KILN_PACK_ENTRY_SIZE;
    uint64_t strings_at = payloads_at + (uint64_t)payload_count * KILN_PACK_PAYLOAD_SIZE;
    if (strings_at > size)
        return kiln_error_bad_bytes(err, k_format, 24, "the table of contents runs past the end");
    if (strings_size > size - strings_at)
        return kiln_error_bad_bytes(err, k_format, 32, "the names run past the end");
    uint64_t align = (pack_flags & KILN_PACK_ALIGN_4096) ? 4096 : 16;
    if (data_offset != align_up(strings_at + strings_size, align))
        return kiln_error_bad_bytes(
            err, k_format, 40,
            "the payloads do not start at the first aligned offset after the names");
    if (data_offset > size)
        return kiln_error_bad_bytes(err, k_format, 40, "the payloads start past the end");
    if (!(flags & KILN_PACK_SKIP_CHECKSUM) &&
        kiln_xxh3_64_field_zeroed(p, (size_t)data_offset, 48) != checksum)
        return kiln_error_bad_bytes(err, k_format, 48,
                                    "table of contents checksum mismatch: the pack is damaged");
    for (uint64_t q = strings_at + strings_size; q < data_offset; q++)
        if (p[q])
            return kiln_error_bad_bytes(err, k_format, q,
                                        "padding before the payloads is not zero");
    const char *strings = (const char *)p + strings_at;
    if (strings_size && strings[strings_size - 1] != '\0')
        return kiln_error_bad_bytes(err, k_format, strings_at + strings_size - 1,
                                    "the names do not end with a NUL");

    kiln_result res = check_payloads(p, size, payloads_at, payload_count, data_offset, align, err);
    if (res != KILN_OK) return res;
    uint64_t total;
    res = check_entries(p, entry_count, payload_count, strings, strings_size, &total, err);
    if (res != KILN_OK) return res;

    out->bytes = p;
    out->size = size;
    out->flags = pack_flags;
    out->entry_count = entry_count;
    out->payload_count = payload_count;
    out->data_offset = data_offset;
    out->total_size = total;
    out->entries = p + KILN_PACK_HEADER_SIZE;
    out->payloads = p + payloads_at;
    out->strings = strings;
    out->strings_size = (size_t)strings_size;
    return KILN_OK;
}

KILN_API kiln_pack_entry kiln_pack_entry_at(const kiln_pack *p, uint32_t index)
{
    kiln_pack_entry e;
    memset(&e, 0, sizeof e);
    if (!p || index >= p->entry_count) return e;
    entry_rec r = entry_rec_at(p->entries, index);
    payload_rec q = payload_at(p->payloads, r.payload);
    e.asset_id = r.id;
    e.kind = r.kind;
    e.payload = r.payload;
    e.name = p->strings + r.name_offset;
    e.name_size = r.name_size;
    e.compression = q.compression;
    e.stored = p->bytes + q.offset;
    e.stored_size = (size_t)q.stored_size;
    e.size = (size_t)q.size;
    e.offset = q.offset;
    e.stored_checksum = q.stored_checksum;
    e.checksum = q.checksum;
    return e;
}

KILN_API uint32_t kiln_pack_find(const kiln_pack *p, uint64_t asset_id)
{
    if (!p) return KILN_PACK_NOT_FOUND;
    uint32_t lo = 0, hi = p->entry_count; /* the answer, if any, is in [lo, hi) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        kiln_reader r = kiln_reader_make(p->entries + (size_t)mid * KILN_PACK_ENTRY_SIZE, 8);
        uint64_t id = kiln_read_u64le(&r);
        if (id == asset_id) return mid;
        if (id < asset_id) lo = mid + 1;
        else hi = mid;
    }
    return KILN_PACK_NOT_FOUND;
}

KILN_API uint32_t kiln_pack_find_name_n(const kiln_pack *p, const char *name, size_t name_size)
{
    if (!p || !name) return KILN_PACK_NOT_FOUND;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        entry_rec r = entry_rec_at(p->entries, i);
        if (r.name_size == name_size && !memcmp(p->strings + r.name_offset, name, name_size))
            return i;
    }
    return KILN_PACK_NOT_FOUND;
}

KILN_API uint32_t kiln_pack_find_name(const kiln_pack *p, const char *name)
{
    return name ? kiln_pack_find_name_n(p, name, strlen(name)) : KILN_PACK_NOT_FOUND;
}

static kiln_result damaged(kiln_error *err, const kiln_pack_entry *e, const char *what)
{
    kiln_error_set(err, KILN_E_FORMAT_INVALID, "kiln pack: entry %.*s (%016llx): %s",
                   (int)(e->name_size > 200 ? 200 : e->name_size), e->name,
                   (unsigned long long)e->asset_id, what);
    kiln_error_at_offset(err, e->offset);
    return KILN_E_FORMAT_INVALID;
}

static kiln_result check_stored(const kiln_pack_entry *e, kiln_error *err)
{
    if (XXH3_64bits(e->stored, e->stored_size) != e->stored_checksum)
        return damaged(err, e, "its stored bytes do not match their checksum: the pack is damaged");
    return KILN_OK;
}

KILN_API kiln_result kiln_pack_entry_view(const kiln_pack *p, uint32_t index, const uint8_t **data,
                                          kiln_error *err)
{
    if (!p || !data || index >= p->entry_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_pack_entry_view: no such entry %u", index);
    *data = NULL;
    kiln_pack_entry e = kiln_pack_entry_at(p, index);
    if (e.compression != KILN_PACK_RAW) {
        kiln_error_set(err, KILN_E_USAGE,
                       "kiln pack: entry %.*s is compressed: read it with kiln_pack_entry_read",
                       (int)(e.name_size > 200 ? 200 : e.name_size), e.name);
        return KILN_E_USAGE;
    }
    kiln_result r = check_stored(&e, err);
    if (r == KILN_OK) *data = e.stored;
    return r;
}

KILN_API kiln_result kiln_pack_entry_read(const kiln_pack *p, uint32_t index, void *dst,
                                          size_t dst_size, kiln_error *err)
{
    if (!p || index >= p->entry_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_pack_entry_read: no such entry %u", index);
    kiln_pack_entry e = kiln_pack_entry_at(p, index);
    if ((!dst && e.size) || dst_size < e.size)
        return kiln_error_set(
            err, KILN_E_USAGE, "kiln_pack_entry_read: entry %.*s needs %zu bytes, dst has %zu",
            (int)(e.name_size > 200 ? 200 : e.name_size), e.name, e.size, dst_size);
    kiln_result r = check_stored(&e, err);
    if (r != KILN_OK) return r;
    if (e.compression == KILN_PACK_RAW) {
        if (e.size) memcpy(dst, e.stored, e.size);
        return KILN_OK;
    }
    /* One frame, declaring exactly the entry's size: anything else is damage (or a bomb). */
    unsigned long long declared = ZSTD_getFrameContentSize(e.stored, e.stored_size);
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN)
        return damaged(err, &e, "its Zstandard frame is damaged or does not declare its size");
    if (declared != e.size)
        return damaged(err, &e, "its Zstandard frame declares another size than the table");
    size_t frame = ZSTD_findFrameCompressedSize(e.stored, e.stored_size);
    if (ZSTD_isError(frame) || frame != e.stored_size)
        return damaged(err, &e, "its stored bytes are not exactly one Zstandard frame");
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (!dctx) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "kiln pack: no zstd context");
    /* The capacity is the declared size, not dst_size: decompression can never write more. */
    size_t got = ZSTD_decompressDCtx(dctx, dst, e.size, e.stored, e.stored_size);
    ZSTD_freeDCtx(dctx);
    if (ZSTD_isError(got)) return damaged(err, &e, "its Zstandard data is damaged");
    if (got != e.size)
        return damaged(err, &e, "it decompresses to another size than the table declares");
    if (XXH3_64bits(dst, e.size) != e.checksum)
        return damaged(err, &e, "its decompressed bytes do not match their checksum");
    return KILN_OK;
}

KILN_API kiln_result kiln_pack_verify(const kiln_pack *p, const kiln_allocator *alloc,
                                      kiln_error *err)
{
    if (!p) return kiln_error_set(err, KILN_E_USAGE, "kiln_pack_verify: no pack");
    size_t largest = 0;
    for (uint32_t i = 0; i < p->payload_count; i++) {
        payload_rec q = payload_at(p->payloads, i);
        if (q.compression != KILN_PACK_RAW && q.size > largest) largest = (size_t)q.size;
    }
    uint8_t *buf = NULL;
    if (largest) {
        buf = kiln_alloc(alloc, largest);
        if (!buf)
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                  "kiln pack: cannot allocate %zu bytes to verify", largest);
    }
    kiln_result r = KILN_OK;
    uint32_t next = 0; /* payloads in the order entries first use them = file order */
    uint64_t end = p->data_offset;
    for (uint32_t i = 0; r == KILN_OK && i < p->entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(p, i);
        if (e.payload != next) continue;
        next++;
        for (uint64_t q = end; q < e.offset; q++)
            if (p->bytes[q]) {
                r = damaged(err, &e, "the padding before its payload is not zero");
                kiln_error_at_offset(err, q);
                break;
            }
        end = e.offset + e.stored_size;
        if (r != KILN_OK) break;
        if (e.compression == KILN_PACK_RAW) {
            const uint8_t *unused;
            r = kiln_pack_entry_view(p, i, &unused, err);
        } else {
            r = kiln_pack_entry_read(p, i, buf, largest, err);
        }
    }
    kiln_free(alloc, buf, largest);
    return r;
}
