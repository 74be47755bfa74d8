/* fuzz_json.c — libFuzzer target for kiln's fast JSON path (src/core/json_fast.c): whatever the
 * bytes, when the fast parser builds a tree, jansson must accept the same text and build an
 * equal tree (the fast path may only give up, never disagree); kiln_json_load must return a tree
 * or an error, never crash. */
#include <stdint.h>
#include <stdlib.h>

#include "core/json.h"
#include "core/json_fast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    json_t *fast = kiln_json_fast_parse(text, size);
    json_error_t je;
    json_t *slow = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je);
    if (fast && (!slow || !json_equal(fast, slow))) abort();
    json_decref(fast);
    json_decref(slow);
    kiln_error err;
    json_t *j = kiln_json_load(text, size, NULL, KILN_E_IMPORT_FAILED, &err);
    if (!j && err.code != KILN_E_IMPORT_FAILED) abort();
    json_decref(j);
    return 0;
}
