/* json.h — jansson helpers: loading with kiln errors, canonical dumps for keys, files. */
#ifndef KILN_CORE_JSON_H
#define KILN_CORE_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "kiln/kiln_format.h"

/* Parses JSON text (duplicate keys rejected, depth bounded by jansson). On a syntax error:
 * `code`, with "line L, column C: <text>" in the message and the path if given. */
json_t *kiln_json_load(const char *text, size_t size, const char *path, kiln_result code,
                       kiln_error *err);

/* Reads and parses a file of at most max_size bytes. */
json_t *kiln_json_load_file(const char *path, size_t max_size, kiln_result code, kiln_error *err);

/* The canonical form used in cache keys: sorted keys, compact separators, ASCII only, reals
 * with 17 significant digits (jansson's). malloc'd; free(). NULL on out-of-memory. */
char *kiln_json_dump_canonical(const json_t *j);

/* Human-readable form for files people read (.meta, manifests, records): sorted keys, 2-space
 * indent, trailing newline. Deterministic like the canonical form. malloc'd. */
char *kiln_json_dump_pretty(const json_t *j);

/* Writes kiln_json_dump_pretty(j) with kiln_file_write_atomic or kiln_file_write_new. */
kiln_result kiln_json_write_atomic(const char *path, const json_t *j, kiln_error *err);
kiln_result kiln_json_write_new(const char *path, const json_t *j, kiln_error *err);

/* Small accessors that tolerate a missing member or a wrong type (returning the fallback). */
const char *kiln_json_str(const json_t *obj, const char *key, const char *fallback);
long long kiln_json_int(const json_t *obj, const char *key, long long fallback);

#endif
