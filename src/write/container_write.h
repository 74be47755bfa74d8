/* container_write.h — writing the kiln container (cook side). Sections are added in the order
 * they will appear; the bytes are laid out, padded and checksummed by kiln_container_finish. */
#ifndef KILN_WRITE_CONTAINER_WRITE_H
#define KILN_WRITE_CONTAINER_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

typedef struct kiln_container_writer {
    const kiln_allocator *alloc; /* borrowed; NULL = libc */
    uint32_t kind, kind_version;
    uint32_t count;
    struct {
        uint32_t id, element_size;
        uint64_t count;
        const void *data; /* borrowed until kiln_container_finish */
    } sections[KILN_CONTAINER_MAX_SECTIONS];
} kiln_container_writer;

void kiln_container_begin(kiln_container_writer *w, uint32_t kind, uint32_t kind_version,
                          const kiln_allocator *alloc);

/* Adds a section of count elements of element_size bytes (data may be NULL when count is 0).
 * The data is borrowed until kiln_container_finish. Errors: KILN_E_USAGE (duplicate id, 0
 * element size, more than KILN_CONTAINER_MAX_SECTIONS), KILN_E_LIMIT (size overflow). */
kiln_result kiln_container_add(kiln_container_writer *w, uint32_t id, uint32_t element_size,
                               uint64_t count, const void *data, kiln_error *err);

/* Lays the file out: header, table, sections each at the next 16-byte boundary (zero padding),
 * and the checksum. *out is allocated from the writer's allocator; free with
 * kiln_free(alloc, *out, *size). Deterministic: equal sections give equal bytes. */
kiln_result kiln_container_finish(kiln_container_writer *w, uint8_t **out, size_t *size,
                                  kiln_error *err);

#endif
