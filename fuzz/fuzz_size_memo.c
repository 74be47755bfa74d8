/* fuzz_size_memo.c — libFuzzer target for the cache size memo reader (src/pipeline/
 * cache_size.c). The bytes are the memo's text; the target appends the checksum line the writer
 * would, so mutations reach the line parser instead of stopping at the checksum. */
#include <stdint.h>
#include <stdlib.h>

#include "checksummed.h"
#include "pipeline/cache_size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n;
    char *text = fuzz_checksummed(data, size, &n);
    if (!text) return 0;
    kiln_cache_size_memo m = {0};
    (void)kiln_cache_size_memo_parse(text, n, &m);
    kiln_cache_size_memo_free(&m);
    free(text);
    return 0;
}
