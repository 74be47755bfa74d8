/* json_pointer.h — building an RFC 6901 JSON pointer while walking a document, without a JSON
 * library (the layers that read kiln_value tables use it too). */
#ifndef KILN_CORE_JSON_POINTER_H
#define KILN_CORE_JSON_POINTER_H

#include <stddef.h>

/* Appends "/key" to text (len bytes used of cap, kept NUL-terminated) with '~' and '/' escaped
 * as "~0" and "~1"; a segment that does not fit whole is left out. Returns the old length, for
 * kiln_json_pointer_pop. */
size_t kiln_json_pointer_push(char *text, size_t cap, size_t *len, const char *key);
/* Back to the length push returned. */
void kiln_json_pointer_pop(char *text, size_t *len, size_t old);

#endif
