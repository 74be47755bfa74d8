/* fuzz_size_memo.c — libFuzzer target for the cache size memo reader (src/pipeline/
 * cache_size.c). The bytes are the memo's text; the target appends the checksum line the writer
 * would, so mutations reach the line parser instead of stopping at the checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "pipeline/cache_size.h"

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
    kiln_cache_size_memo m = {0};
    (void)kiln_cache_size_memo_parse(text, body + (size_t)n, &m);
    kiln_cache_size_memo_free(&m);
    free(text);
    return 0;
}
