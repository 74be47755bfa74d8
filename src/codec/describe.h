/* describe.h — the inside of kiln_describe (include/kiln/kiln_kind.h). The checks every
 * description gets (keys where they belong, begins and ends that match, bounded depth) are made
 * here, once; what the values become is a backend's concern, given as two functions (the
 * inspector's backend builds jansson values, in src/pipeline). Also the values the built-in
 * kinds' describe() functions share. Part of libkiln_rt: libc only. */
#ifndef KILN_CODEC_DESCRIBE_H
#define KILN_CODEC_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_kind.h"

typedef enum kiln_describe_type {
    KILN_DESCRIBE_NULL,
    KILN_DESCRIBE_BOOL,
    KILN_DESCRIBE_INT,
    KILN_DESCRIBE_NUMBER, /* finite */
    KILN_DESCRIBE_STRING,
    KILN_DESCRIBE_OBJECT, /* opens one: the values that follow are its members ... */
    KILN_DESCRIBE_ARRAY,  /* ... or its elements, up to the matching end */
} kiln_describe_type;

typedef struct kiln_describe_value {
    kiln_describe_type type;
    bool b;
    int64_t i;
    double n;
    const char *s; /* STRING: size bytes, never NULL */
    size_t size;
} kiln_describe_value;

typedef struct kiln_describe_ops {
    /* A value named key in the innermost open object, or appended to the innermost open array
     * (key NULL). Only well-formed calls reach the backend. */
    void (*value)(void *user, const char *key, const kiln_describe_value *v);
    /* Closes the innermost open object or array. */
    void (*end)(void *user);
} kiln_describe_ops;

struct kiln_describe {
    const kiln_describe_ops *ops;
    void *user;
    bool in_array[KILN_DESCRIBE_MAX_DEPTH + 1]; /* per open level; [0] is the root object */
    size_t depth;                               /* levels open inside the root */
    bool failed;
    char why[96]; /* the first misuse, for the error */
};

/* A description into the root object the backend holds. */
void kiln_describe_init(kiln_describe *d, const kiln_describe_ops *ops, void *user);
/* KILN_OK when every call was well formed and every level closed again; else KILN_E_USAGE
 * naming kind (the cooked kind whose describe() it was) and the first misuse. */
kiln_result kiln_describe_finish(const kiln_describe *d, const char *kind, kiln_error *err);

/* ---- values the built-in kinds share ------------------------------------------------------- */

/* NUL-terminated s. */
void kiln_describe_cstring(kiln_describe *d, const char *key, const char *s);
/* An asset id as "0x" + 16 hex digits (JSON numbers lose bits past 2^53); null for 0. */
void kiln_describe_id(kiln_describe *d, const char *key, uint64_t id);
/* An index that may be absent: null for 0xFFFFFFFF. */
void kiln_describe_index(kiln_describe *d, const char *key, uint32_t index);
/* {"min": [3 floats], "max": [3 floats]}. */
void kiln_describe_bounds(kiln_describe *d, const char *key, const float *min, const float *max);
/* names[v] for v < count, else "unknown". */
const char *kiln_describe_name(uint32_t v, const char *const *names, uint32_t count);

#endif
