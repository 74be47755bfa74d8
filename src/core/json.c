/* json.c — jansson helpers: error mapping, canonical and pretty dumps, atomic JSON files. */
#include "core/json.h"
#include "core/json_fast.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"

json_t *kiln_json_load(const char *text, size_t size, const char *path, kiln_result code,
                       kiln_error *err)
{
    json_t *j = kiln_json_fast_parse(text, size);
    if (j) return j;
    /* Outside the fast parser's subset, or an error: jansson decides and words the message. */
    json_error_t je;
    j = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        kiln_error_set(err, code, "%s%sline %d, column %d: %s", path ? path : "", path ? ": " : "",
                       je.line, je.column, je.text);
        if (path) kiln_error_at_path(err, path);
        if (je.position >= 0) kiln_error_at_offset(err, (uint64_t)je.position);
    }
    return j;
}

json_t *kiln_json_load_file(const char *path, size_t max_size, kiln_result code, kiln_error *err)
{
    uint8_t *data;
    size_t size;
    if (kiln_file_read(path, max_size, NULL, &data, &size, err) != KILN_OK) return NULL;
    json_t *j = kiln_json_load((const char *)data, size, path, code, err);
    kiln_free(NULL, data, size + 1);
    return j;
}

char *kiln_json_dump_canonical(const json_t *j)
{
    return json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY |
                             JSON_REAL_PRECISION(17));
}

char *kiln_json_dump_pretty(const json_t *j)
{
    char *s =
        json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    if (!s) return NULL;
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        return NULL;
    }
    t[n] = '\n';
    t[n + 1] = '\0';
    return t;
}

static kiln_result write_json(const char *path, const json_t *j, bool atomic, kiln_error *err)
{
    char *s = kiln_json_dump_pretty(j);
    if (!s) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory writing %s", path);
    kiln_result r = atomic ? kiln_file_write_atomic(path, s, strlen(s), err)
                           : kiln_file_write_new(path, s, strlen(s), err);
    free(s);
    return r;
}

kiln_result kiln_json_write_atomic(const char *path, const json_t *j, kiln_error *err)
{
    return write_json(path, j, true, err);
}

kiln_result kiln_json_write_new(const char *path, const json_t *j, kiln_error *err)
{
    return write_json(path, j, false, err);
}

const char *kiln_json_str(const json_t *obj, const char *key, const char *fallback)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : fallback;
}

long long kiln_json_int(const json_t *obj, const char *key, long long fallback)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_integer(v) ? json_integer_value(v) : fallback;
}
