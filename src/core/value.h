/* value.h — a JSON value copied into one flat, pointer-free table of nodes: how a material's
 * parameter values reach the layers that never see jansson (process/material_block.c packs them;
 * scripts/check_layers.sh keeps <jansson.h> out of process/). import/value_json.c builds one from
 * a json_t, copies and frees it. Header only: the types and bounds-checked accessors. */
#ifndef KILN_CORE_VALUE_H
#define KILN_CORE_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

typedef enum kiln_value_kind {
    KILN_VALUE_NULL = 0,
    KILN_VALUE_BOOL = 1,
    KILN_VALUE_NUMBER = 2,
    KILN_VALUE_STRING = 3,
    KILN_VALUE_ARRAY = 4,
    KILN_VALUE_OBJECT = 5,
} kiln_value_kind;

/* One node. The children of an array or object are contiguous: nodes first .. first+count-1,
 * in document order (an object's in its key order). */
typedef struct kiln_value_node {
    uint32_t kind;  /* kiln_value_kind */
    uint32_t count; /* ARRAY, OBJECT: children; STRING: bytes (not counting the NUL) */
    uint32_t first; /* ARRAY, OBJECT: index of the first child; STRING: offset in strings */
    uint32_t key;   /* a member of an OBJECT: offset of its name in strings; else 0 ("") */
    bool integer;   /* NUMBER written without fraction or exponent: i holds it exactly */
    bool boolean;   /* BOOL */
    int64_t i;      /* NUMBER when integer */
    double d;       /* NUMBER (also when integer, rounded) */
} kiln_value_node;

/* A whole value: node 0 is the root. strings holds every key and string, each NUL-terminated;
 * offset 0 is "". The owner frees it with kiln_value_free (import/value_json.h). */
typedef struct kiln_value {
    kiln_value_node *nodes;
    uint32_t node_count;
    char *strings;
    uint32_t strings_size;
    kiln_allocator allocator;
} kiln_value;

/* The name at offset off of v's strings, or "" when off is out of range or not terminated. */
static inline const char *kiln_value_string(const kiln_value *v, uint32_t off)
{
    if (!v->strings || off >= v->strings_size || v->strings[v->strings_size - 1] != '\0') return "";
    return v->strings + off;
}

/* Child k of node n (NULL when n is NULL, has no such child or the table is inconsistent). */
static inline const kiln_value_node *kiln_value_child(const kiln_value *v, const kiln_value_node *n,
                                                      uint32_t k)
{
    if (!n || (n->kind != KILN_VALUE_ARRAY && n->kind != KILN_VALUE_OBJECT)) return NULL;
    if (k >= n->count || n->first >= v->node_count || v->node_count - n->first < n->count)
        return NULL;
    return &v->nodes[n->first + k];
}

#endif
