/* gltf_out_json.h — a small streaming JSON text writer for the glTF writer: members and elements
 * in the order they are written (so the bytes are deterministic), commas placed for the caller,
 * strings escaped, numbers printed so that a float32 reads back to the same value. The write
 * layer does not link jansson (scripts/check_layers.sh). */
#ifndef KILN_WRITE_GLTF_OUT_JSON_H
#define KILN_WRITE_GLTF_OUT_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"

#define KILN_JSON_OUT_MAX_DEPTH 32

typedef struct kiln_json_out {
    kiln_buf *buf;
    uint32_t depth;
    bool has_items[KILN_JSON_OUT_MAX_DEPTH]; /* per open container: something written already */
    bool is_array[KILN_JSON_OUT_MAX_DEPTH];
    bool failed; /* too deep; the buffer has its own flag */
} kiln_json_out;

void kiln_json_out_init(kiln_json_out *j, kiln_buf *buf);
/* key: the member name inside an object, NULL for an array element or the top level. */
void kiln_json_out_object(kiln_json_out *j, const char *key);
void kiln_json_out_array(kiln_json_out *j, const char *key);
void kiln_json_out_end(kiln_json_out *j); /* closes the innermost object or array */
void kiln_json_out_string(kiln_json_out *j, const char *key, const char *value);
void kiln_json_out_int(kiln_json_out *j, const char *key, int64_t value);
/* A float32 value: "%.9g", which reads back exactly; NaN and infinities are written as 0. */
void kiln_json_out_float(kiln_json_out *j, const char *key, float value);
void kiln_json_out_bool(kiln_json_out *j, const char *key, bool value);
/* An array of count float32 values. */
void kiln_json_out_floats(kiln_json_out *j, const char *key, const float *values, uint32_t count);
/* Appends the elements written by another writer into fragment (kiln_json_out_init_elements)
 * as elements of the innermost open array of j. */
void kiln_json_out_splice(kiln_json_out *j, const kiln_buf *fragment);
/* A writer of array elements only, for a section written before its place in the document. */
void kiln_json_out_init_elements(kiln_json_out *j, kiln_buf *buf);
/* Whether text is one JSON value (RFC 8259; nesting at most KILN_JSON_OUT_MAX_DEPTH), with
 * nothing but white space around it. */
bool kiln_json_text_valid(const char *text);
/* Writes the JSON value text (compact JSON, e.g. the scene's "extras") as it is; false, and
 * nothing written, when it is not one valid JSON value. */
bool kiln_json_out_raw(kiln_json_out *j, const char *key, const char *text);
/* true when something failed (allocation, nesting). */
bool kiln_json_out_failed(const kiln_json_out *j);

#endif
