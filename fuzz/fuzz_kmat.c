/* fuzz_kmat.c — libFuzzer target for the .kmat reader (src/import/kmat.c): parses the bytes; a
 * parsed material is resolved over itself (any kiln_kmat may be a parent) and its parameter
 * values are copied and compared, so parse, resolve, the value tables and the frees all run on
 * every input. Only E_IMPORT_SETTINGS (and out-of-memory) may come from bytes; the error record
 * is always terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/kmat.h"
#include "import/value_json.h"

static void check_error(kiln_result r, const kiln_error *err)
{
    if (r != KILN_E_IMPORT_SETTINGS && r != KILN_E_OUT_OF_MEMORY) abort();
    if (!memchr(err->message, '\0', sizeof err->message) ||
        !memchr(err->json_pointer, '\0', sizeof err->json_pointer))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_kmat m, out;
    kiln_error err;
    kiln_result r = kiln_kmat_parse((const char *)data, size, NULL, &m, &err);
    if (r != KILN_OK) {
        check_error(r, &err);
        return 0;
    }
    for (size_t i = 0; i < m.param_count; i++) {
        kiln_value copy;
        if (kiln_value_copy(&m.params[i].value, NULL, &copy, &err) != KILN_OK) abort();
        if (copy.node_count != m.params[i].value.node_count ||
            memcmp(copy.nodes, m.params[i].value.nodes, copy.node_count * sizeof *copy.nodes) != 0)
            abort();
        kiln_value_free(&copy);
    }
    r = kiln_kmat_resolve(&m, &m, NULL, &out, &err);
    if (r == KILN_OK) {
        /* a child over itself: the same names, each the child's own (depth 0) */
        if (out.param_count != m.param_count || out.texture_count != m.texture_count) abort();
        for (size_t i = 0; i < out.param_count; i++)
            if (out.params[i].depth != 0) abort();
        kiln_kmat_free(&out);
    } else {
        check_error(r, &err);
    }
    kiln_kmat_free(&m);
    return 0;
}
