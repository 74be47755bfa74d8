/* container_read.c — validating the kiln container (kiln_format.h; bytes in docs/formats.md).
 * Shared with the runtime: libc and xxHash only. */
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

static const uint8_t magic[4] = {'K', 'I', 'L', 'N'};

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "kiln container";

/* The id of section i of the table (its first 4 bytes). */
static uint32_t section_id_at(const uint8_t *table, uint32_t i)
{
    return kiln_load_u32le(table + (size_t)i * KILN_CONTAINER_SECTION_SIZE);
}

static void decode_entry(const uint8_t *table, uint32_t i, const uint8_t *bytes,
                         kiln_container_section *out, uint64_t *offset)
{
    kiln_reader r = kiln_reader_make(table + (size_t)i * KILN_CONTAINER_SECTION_SIZE,
                                     KILN_CONTAINER_SECTION_SIZE);
    out->id = kiln_read_u32le(&r);
    out->element_size = kiln_read_u32le(&r);
    *offset = kiln_read_u64le(&r);
    out->count = kiln_read_u64le(&r);
    out->data = bytes + *offset;
    out->size = (size_t)(out->count * out->element_size);
}

KILN_API kiln_result kiln_container_read(const void *data, size_t size, uint32_t flags,
                                         kiln_container *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_container_read: no output");
    memset(out, 0, sizeof *out);
    if (!data && size) return kiln_error_set(err, KILN_E_USAGE, "kiln_container_read: no data");
    const uint8_t *p = data;
    if (size < KILN_CONTAINER_HEADER_SIZE)
        return kiln_error_bad_bytes(err, k_format, 0, "shorter than its 64-byte header");
    if (memcmp(p, magic, 4) != 0)
        return kiln_error_bad_bytes(err, k_format, 0, "no \"KILN\" magic");
    kiln_reader r = kiln_reader_make(p, KILN_CONTAINER_HEADER_SIZE);
    r.pos = 4;
    uint32_t version = kiln_read_u32le(&r);
    uint32_t kind = kiln_read_u32le(&r);
    uint32_t kind_version = kiln_read_u32le(&r);
    uint64_t file_size = kiln_read_u64le(&r);
    uint64_t checksum = kiln_read_u64le(&r);
    uint32_t count = kiln_read_u32le(&r);
    uint32_t header_size = kiln_read_u32le(&r);
    if (version != KILN_CONTAINER_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "kiln container version %u; this kiln reads version %u: cook again", version,
                       KILN_CONTAINER_VERSION);
        kiln_error_at_offset(err, 4);
        return KILN_E_FORMAT_VERSION;
    }
    if (header_size != KILN_CONTAINER_HEADER_SIZE)
        return kiln_error_bad_bytes(err, k_format, 36, "header size is not 64");
    if (file_size != size)
        return kiln_error_bad_bytes(err, k_format, 16,
                                    "file size in the header differs from the file's");
    for (size_t i = 40; i < KILN_CONTAINER_HEADER_SIZE; i++)
        if (p[i])
            return kiln_error_bad_bytes(err, k_format, i, "reserved header bytes are not zero");
    if (count > KILN_CONTAINER_MAX_SECTIONS)
        return kiln_error_bad_bytes(err, k_format, 32, "more than 256 sections");
    size_t table_end = KILN_CONTAINER_HEADER_SIZE + (size_t)count * KILN_CONTAINER_SECTION_SIZE;
    if (table_end > size)
        return kiln_error_bad_bytes(err, k_format, 32, "the section table runs past the end");
    if (!(flags & KILN_CONTAINER_SKIP_CHECKSUM) &&
        kiln_xxh3_64_field_zeroed(p, size, 24) != checksum)
        return kiln_error_bad_bytes(err, k_format, 24, "checksum mismatch: the file is damaged");

    const uint8_t *table = p + KILN_CONTAINER_HEADER_SIZE;
    uint64_t end = table_end; /* where the previous section ended */
    for (uint32_t i = 0; i < count; i++) {
        size_t at = KILN_CONTAINER_HEADER_SIZE + (size_t)i * KILN_CONTAINER_SECTION_SIZE;
        kiln_reader e = kiln_reader_make(p + at, KILN_CONTAINER_SECTION_SIZE);
        uint32_t id = kiln_read_u32le(&e);
        uint32_t elem = kiln_read_u32le(&e);
        uint64_t offset = kiln_read_u64le(&e);
        uint64_t n = kiln_read_u64le(&e);
        uint64_t reserved = kiln_read_u64le(&e);
        if (elem == 0)
            return kiln_error_bad_bytes(err, k_format, at + 4, "a section's element size is 0");
        if (reserved)
            return kiln_error_bad_bytes(err, k_format, at + 24,
                                        "a section's reserved field is not zero");
        if (offset % KILN_CONTAINER_ALIGN)
            return kiln_error_bad_bytes(err, k_format, at + 8, "a section is not 16-byte aligned");
        if (offset < end)
            return kiln_error_bad_bytes(err, k_format, at + 8,
                                        "sections overlap or are out of order");
        if (offset > size)
            return kiln_error_bad_bytes(err, k_format, at + 8, "a section starts past the end");
        if (n > (size - offset) / elem)
            return kiln_error_bad_bytes(err, k_format, at + 16, "a section runs past the end");
        for (uint64_t q = end; q < offset; q++)
            if (p[q]) return kiln_error_bad_bytes(err, k_format, q, "padding bytes are not zero");
        for (uint32_t k = 0; k < i; k++)
            if (section_id_at(table, k) == id)
                return kiln_error_bad_bytes(err, k_format, at, "two sections share an id");
        end = offset + n * elem;
    }
    if (end != size)
        return kiln_error_bad_bytes(err, k_format, end, "bytes follow the last section");
    out->kind = kind;
    out->kind_version = kind_version;
    out->section_count = count;
    out->bytes = p;
    out->size = size;
    return KILN_OK;
}

KILN_API void kiln_container_section_at(const kiln_container *c, uint32_t i,
                                        kiln_container_section *out)
{
    memset(out, 0, sizeof *out);
    if (KILN_NEVER(i >= c->section_count)) return;
    uint64_t offset;
    decode_entry(c->bytes + KILN_CONTAINER_HEADER_SIZE, i, c->bytes, out, &offset);
}

KILN_API bool kiln_container_find(const kiln_container *c, uint32_t id, uint32_t element_size,
                                  kiln_container_section *out)
{
    /* ids compared in place; only the match is decoded (mesh_read looks for every stream,
     * most of them absent, so this runs a few hundred times per mesh) */
    const uint8_t *table = c->bytes + KILN_CONTAINER_HEADER_SIZE;
    for (uint32_t i = 0; i < c->section_count; i++) {
        if (section_id_at(table, i) != id) continue;
        kiln_container_section s;
        kiln_container_section_at(c, i, &s);
        if (s.element_size != element_size) return false;
        *out = s;
        return true;
    }
    return false;
}
