/* fbx_tree.h — kiln's own bounded reader of the FBX node tree, binary (6.x and 7.x, with
 * 7500's 64-bit record offsets and zlib-compressed arrays) and ASCII (6.x plain value lists,
 * 7.x "*N { a: ... }" arrays). Untrusted input: every offset, length and count is checked,
 * nesting, node count and memory are bounded, and a damaged file is an error, never a crash,
 * hang or unbounded allocation.
 *
 * The tree is generic: nodes with a name, values (properties) and children. What the nodes
 * mean (objects, connections, geometry layers) is the business of the readers above it
 * (fbx_legacy.c for 6.x, fbx_blend.c for 7.x blend shapes). */
#ifndef KILN_IMPORT_FBX_TREE_H
#define KILN_IMPORT_FBX_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "kiln/kiln_format.h"

/* A value's type, as the binary format's type codes: scalars 'C' (bool), 'Y' (i16), 'I' (i32),
 * 'L' (i64), 'F' (f32), 'D' (f64); 'S' string, 'R' raw bytes; arrays 'b' (bool bytes), 'i'
 * (i32), 'l' (i64), 'f' (f32), 'd' (f64). ASCII files give 'L' or 'D' for a number, 'S' for a
 * quoted string or a bare word (W, Y, L in 6.x keys), and 'l' or 'd' arrays for a node whose
 * values are all numbers (more than one: a 6.x "Vertices: 0,1,..." list or a 7.x "*N {}"). */
typedef struct kiln_fbx_prop {
    char type;
    size_t count;     /* array elements, or string/raw bytes (without the added NUL) */
    int64_t i;        /* integer scalars; floats truncated toward zero when in range */
    double d;         /* every number scalar */
    const void *data; /* arrays (aligned, native); strings NUL-terminated (may hold NULs) */
} kiln_fbx_prop;

typedef struct kiln_fbx_node {
    const char *name; /* NUL-terminated */
    const kiln_fbx_prop *props;
    uint32_t prop_count;
    const struct kiln_fbx_node *children;
    uint32_t child_count;
    uint64_t offset; /* where the node starts in the file (for messages) */
} kiln_fbx_node;

typedef struct kiln_fbx_limits {
    size_t memory_limit; /* bytes the tree may hold; 0 = 1 GiB */
    uint32_t max_depth;  /* nesting; 0 = 64 */
    uint32_t max_nodes;  /* 0 = 16 million */
} kiln_fbx_limits;

typedef struct kiln_fbx_tree {
    uint32_t version; /* 6100, 7400, ...: the binary header's, or ASCII FBXVersion (0: none) */
    bool binary;
    kiln_fbx_node root; /* name "", the top-level nodes as children */
    uint64_t node_count;
    kiln_arena arena; /* everything above lives here */
} kiln_fbx_tree;

/* FBX time values (key times, LocalTime, KTime) count this many ticks a second. */
#define KILN_FBX_TICKS_PER_SECOND 46186158000.0

/* The FBX version of data without parsing it all: the binary header's, or the first
 * "FBXVersion: N" of an ASCII file within its first 64 KiB (also read from a "; FBX 6.1.0"
 * comment on the first line). 0 when none is found. */
uint32_t kiln_fbx_sniff_version(const void *data, size_t size);

/* Parses data (borrowed for the call; the tree copies what it keeps) into tree, whose memory
 * comes from allocator (NULL = libc). limits may be NULL. Free with kiln_fbx_tree_free, also
 * after an error. Errors: KILN_E_IMPORT_FAILED (malformed: the message says what, err->offset
 * where), KILN_E_IMPORT_UNSUPPORTED (not FBX), KILN_E_LIMIT (depth, node count, array size or
 * memory past the limits), KILN_E_OUT_OF_MEMORY. Thread-safe for distinct trees. */
kiln_result kiln_fbx_tree_parse(const void *data, size_t size, const kiln_allocator *allocator,
                                const kiln_fbx_limits *limits, kiln_fbx_tree *tree,
                                kiln_error *err);
void kiln_fbx_tree_free(kiln_fbx_tree *tree);

/* ---- lookup ---------------------------------------------------------------------------------- */

/* The first child of n named name, or NULL (n may be NULL). */
const kiln_fbx_node *kiln_fbx_child(const kiln_fbx_node *n, const char *name);
/* The next child named name after `after` (one of n's children), or NULL. */
const kiln_fbx_node *kiln_fbx_next(const kiln_fbx_node *n, const kiln_fbx_node *after,
                                   const char *name);

/* Value i of n as a number (any scalar number type, or a one-element array); false when n is
 * NULL, i is out of range or the value is not a number. */
bool kiln_fbx_number(const kiln_fbx_node *n, uint32_t i, double *out);
bool kiln_fbx_integer(const kiln_fbx_node *n, uint32_t i, int64_t *out);
/* Value i of n as a string ('S'), or NULL. len (may be NULL) gets its length in bytes. */
const char *kiln_fbx_string(const kiln_fbx_node *n, uint32_t i, size_t *len);

/* The numbers of a node seen as one list: its single array value, or all its values when each
 * is a number scalar (a short ASCII list). */
typedef struct kiln_fbx_values {
    char type; /* an array type, or 0 for a run of scalars */
    size_t count;
    const void *data;           /* the array */
    const kiln_fbx_prop *props; /* the run of scalars */
} kiln_fbx_values;

/* false when n is NULL or its values are not all numbers (an empty node gives count 0). */
bool kiln_fbx_values_of(const kiln_fbx_node *n, kiln_fbx_values *out);
/* Element i (< count) as a double / as an integer (doubles truncated, clamped to int64). */
double kiln_fbx_values_f64(const kiln_fbx_values *v, size_t i);
int64_t kiln_fbx_values_i64(const kiln_fbx_values *v, size_t i);

/* The property node named name of an object's Properties70 ("P") or Properties60
 * ("Property") block, or NULL. *first gets the index of its first value after the name, type
 * and flags fields (4 for P, 3 for Property). */
const kiln_fbx_node *kiln_fbx_property(const kiln_fbx_node *object, const char *name,
                                       uint32_t *first);
/* Component k of a numeric property (colour, vector, number), or dflt when absent. */
double kiln_fbx_property_number(const kiln_fbx_node *object, const char *name, uint32_t k,
                                double dflt);

/* The name part of an object name: "Model::Cube" (ASCII) and "Cube\0\1Model" (binary) both give
 * "Cube", a pointer into s that is NUL-terminated either way (s is a string value, which the
 * tree ends with a NUL); len (may be NULL) gets its length. Other names are returned whole. */
const char *kiln_fbx_object_name(const char *s, size_t size, size_t *len);

#endif
