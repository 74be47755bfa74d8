/* fuzz_record_index.c — libFuzzer target for the record index reader (src/pipeline/
 * record_index.c). The bytes are the index's text; the target appends the checksum line the
 * writer would, so mutations reach the header and row parsers instead of stopping at the
 * checksum. Every accepted row must be well-formed: sorted names, a 32-digit GUID, a 64-digit
 * key. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checksummed.h"
#include "pipeline/record_index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n;
    char *text = fuzz_checksummed(data, size, &n);
    if (!text) return 0;
    kiln_cache_index ix;
    memset(&ix, 0, sizeof ix);
    ix.text = (uint8_t *)text;
    ix.size = n; /* text[n] is the NUL snprintf left */
    kiln_index_header head;
    if (kiln_cache_index_parse(&ix, NULL, &head)) {
        if (ix.count > ix.capacity) abort();
    }
    ix.text = NULL; /* malloc'd here, not from the allocator */
    kiln_cache_index_clear(&ix, NULL);
    free(text);
    return 0;
}
