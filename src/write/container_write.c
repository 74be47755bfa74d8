/* container_write.c — see container_write.h; the layout is in docs/formats.md. */
#include "write/container_write.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/reader.h"

void kiln_container_begin(kiln_container_writer *w, uint32_t kind, uint32_t kind_version,
                          const kiln_allocator *alloc)
{
    memset(w, 0, sizeof *w);
    w->alloc = alloc;
    w->kind = kind;
    w->kind_version = kind_version;
}

kiln_result kiln_container_add(kiln_container_writer *w, uint32_t id, uint32_t element_size,
                               uint64_t count, const void *data, kiln_error *err)
{
    if (w->count == KILN_CONTAINER_MAX_SECTIONS)
        return kiln_error_set(err, KILN_E_USAGE, "kiln container: more than %d sections",
                              KILN_CONTAINER_MAX_SECTIONS);
    if (element_size == 0 || (count && !data))
        return kiln_error_set(err, KILN_E_USAGE, "kiln container: bad section");
    size_t bytes;
    if (count > SIZE_MAX || !kiln_size_mul((size_t)count, element_size, &bytes))
        return kiln_error_set(err, KILN_E_LIMIT, "kiln container: section too large");
    for (uint32_t i = 0; i < w->count; i++)
        if (w->sections[i].id == id)
            return kiln_error_set(err, KILN_E_USAGE, "kiln container: section id used twice");
    w->sections[w->count].id = id;
    w->sections[w->count].element_size = element_size;
    w->sections[w->count].count = count;
    w->sections[w->count].data = data;
    w->count++;
    return KILN_OK;
}

static size_t align16(size_t v)
{
    return (v + KILN_CONTAINER_ALIGN - 1) & ~(size_t)(KILN_CONTAINER_ALIGN - 1);
}

kiln_result kiln_container_finish(kiln_container_writer *w, uint8_t **out, size_t *size,
                                  kiln_error *err)
{
    *out = NULL;
    *size = 0;
    size_t offsets[KILN_CONTAINER_MAX_SECTIONS];
    size_t pos = KILN_CONTAINER_HEADER_SIZE + (size_t)w->count * KILN_CONTAINER_SECTION_SIZE;
    size_t end = pos;
    for (uint32_t i = 0; i < w->count; i++) {
        size_t bytes = (size_t)w->sections[i].count * w->sections[i].element_size;
        pos = align16(end);
        offsets[i] = pos;
        if (!kiln_size_add(pos, bytes, &end))
            return kiln_error_set(err, KILN_E_LIMIT, "kiln container: too large");
    }
    size_t total = end;
    uint8_t *p = kiln_calloc(w->alloc, 1, total ? total : 1);
    if (!p) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "kiln container: out of memory");
    memcpy(p, "KILN", 4);
    kiln_store_u32le(p + 4, KILN_CONTAINER_VERSION);
    kiln_store_u32le(p + 8, w->kind);
    kiln_store_u32le(p + 12, w->kind_version);
    kiln_store_u64le(p + 16, total);
    kiln_store_u32le(p + 32, w->count);
    kiln_store_u32le(p + 36, KILN_CONTAINER_HEADER_SIZE);
    for (uint32_t i = 0; i < w->count; i++) {
        uint8_t *e = p + KILN_CONTAINER_HEADER_SIZE + (size_t)i * KILN_CONTAINER_SECTION_SIZE;
        kiln_store_u32le(e, w->sections[i].id);
        kiln_store_u32le(e + 4, w->sections[i].element_size);
        kiln_store_u64le(e + 8, offsets[i]);
        kiln_store_u64le(e + 16, w->sections[i].count);
        size_t bytes = (size_t)w->sections[i].count * w->sections[i].element_size;
        if (bytes) memcpy(p + offsets[i], w->sections[i].data, bytes);
    }
    kiln_store_u64le(p + 24, kiln_xxh3_64_field_zeroed(p, total, 24));
    *out = p;
    *size = total;
    return KILN_OK;
}
