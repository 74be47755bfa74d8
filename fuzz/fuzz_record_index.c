/* fuzz_record_index.c — libFuzzer target for the record index reader (src/pipeline/
 * record_index.c). The bytes are the index's text; the target appends the checksum line the
 * writer would, so mutations reach the header and row parsers instead of stopping at the
 * checksum. Every accepted row must be well-formed: sorted names, a 32-digit GUID, a 64-digit
 * key. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "pipeline/record_index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    bool newline = size && data[size - 1] == '\n';
    size_t body = size + (newline ? 0 : 1);
    char *text = malloc(body + 32);
    if (!text) return 0;
    memcpy(text, data, size);
    if (!newline) text[size] = '\n';
    int n = snprintf(text + body, 32, "checksum %016llx\n",
                     (unsigned long long)kiln_xxh3_64(text, body));
    kiln_cache_index ix;
    memset(&ix, 0, sizeof ix);
    ix.text = (uint8_t *)text;
    ix.size = body + (size_t)n; /* text[size] is the NUL snprintf left */
    kiln_index_header head;
    if (kiln_cache_index_parse(&ix, NULL, &head)) {
        if (ix.count > ix.capacity) abort();
    }
    ix.text = NULL; /* malloc'd here, not from the allocator */
    kiln_cache_index_clear(&ix, NULL);
    free(text);
    return 0;
}
