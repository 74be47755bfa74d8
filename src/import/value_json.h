/* value_json.h — a JSON value (jansson) copied into a kiln_value (core/value.h), and the copy
 * and free of one. The import side of material parameters: a .kmat's values (import/kmat.c) go to
 * the packer (process/material_block.c), which reads no JSON library. */
#ifndef KILN_IMPORT_VALUE_JSON_H
#define KILN_IMPORT_VALUE_JSON_H

#include <jansson.h>

#include "core/value.h"

#define KILN_VALUE_MAX_DEPTH 32u        /* arrays and objects nested in a value */
#define KILN_VALUE_MAX_NODES (1u << 20) /* nodes in one value */

/* Copies j (any JSON value) into *out, allocated from a (NULL: libc). Strings keep their bytes
 * (an embedded NUL ends them). *out is zeroed first and on error. Errors: KILN_E_LIMIT (nested
 * deeper than KILN_VALUE_MAX_DEPTH, more than KILN_VALUE_MAX_NODES nodes or 64 MiB of
 * strings: the message says which), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_value_from_json(const json_t *j, const kiln_allocator *a, kiln_value *out,
                                 kiln_error *err);

/* A copy of src (its own allocation, from a). Errors: KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_value_copy(const kiln_value *src, const kiln_allocator *a, kiln_value *out,
                            kiln_error *err);

/* Frees what v owns and zeroes it. NULL: no-op. */
void kiln_value_free(kiln_value *v);

#endif
