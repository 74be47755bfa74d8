/* checksummed.h — for fuzz targets of kiln's checksummed text files (the record index, the size
 * memo): the input as the file's body, with the "checksum <XXH3-64>" line its writer appends, so
 * mutations reach the line parsers instead of stopping at the checksum. */
#ifndef KILN_FUZZ_CHECKSUMMED_H
#define KILN_FUZZ_CHECKSUMMED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

/* The text (malloc'd, NUL after *out_size bytes) or NULL when size is above 1 MiB or out of
 * memory. */
static inline char *fuzz_checksummed(const uint8_t *data, size_t size, size_t *out_size)
{
    if (size > (1u << 20)) return NULL;
    bool newline = size && data[size - 1] == '\n';
    size_t body = size + (newline ? 0 : 1);
    char *text = malloc(body + 32);
    if (!text) return NULL;
    if (size) memcpy(text, data, size);
    if (!newline) text[size] = '\n';
    int n = snprintf(text + body, 32, "checksum %016llx\n",
                     (unsigned long long)kiln_xxh3_64(text, body));
    *out_size = body + (size_t)n;
    return text;
}

#endif
