/* rt_json.h — a small strict JSON reader for the cache's manifests and asset records (the
 * runtime must not link jansson). It parses RFC 8259 text into a flat array of tokens without
 * allocating: every value is one token, a container's children follow it, and `next` is the
 * index after its subtree, so walking an object skips what it does not need. Bounded: at most
 * max_tokens tokens and KRT_JSON_MAX_DEPTH levels; anything else is KILN_E_FORMAT_INVALID. */
#ifndef KILN_RT_JSON_H
#define KILN_RT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#define KRT_JSON_MAX_DEPTH 64

typedef enum krt_json_type {
    KRT_JSON_NULL,
    KRT_JSON_FALSE,
    KRT_JSON_TRUE,
    KRT_JSON_NUMBER,
    KRT_JSON_STRING,
    KRT_JSON_ARRAY,
    KRT_JSON_OBJECT,
} krt_json_type;

typedef struct krt_json_token {
    uint32_t type;     /* krt_json_type */
    uint32_t count;    /* children: array elements, or object members (key + value pairs) */
    uint32_t next;     /* index of the token after this one's subtree */
    size_t start, end; /* bytes of the value in the text; strings without their quotes */
} krt_json_token;

/* Parses text[0..size) (one value, whitespace around it) into tokens[0..*count). Object keys are
 * string tokens, each followed by its value. Errors: KILN_E_FORMAT_INVALID (syntax, depth,
 * bad escape or UTF-8 control byte; err->offset is the byte), KILN_E_LIMIT (more tokens than
 * max_tokens). */
kiln_result krt_json_parse(const char *text, size_t size, krt_json_token *tokens, size_t max_tokens,
                           size_t *count, kiln_error *err);

/* The value of member `key` of the object at token obj, or 0 when absent or obj is no object
 * (token 0 is always the root, never a member value). */
uint32_t krt_json_member(const char *text, const krt_json_token *t, uint32_t obj, const char *key);

/* Unescapes string token i into out (NUL-terminated, at most out_size - 1 bytes). false when it
 * is not a string or does not fit, or contains a NUL (\u0000). */
bool krt_json_string(const char *text, const krt_json_token *t, uint32_t i, char *out,
                     size_t out_size);

/* A number token as a non-negative integer below 2^53; false otherwise. */
bool krt_json_uint(const char *text, const krt_json_token *t, uint32_t i, uint64_t *out);

#endif
