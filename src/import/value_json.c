/* value_json.c — jansson values into kiln_value tables: one pass counts nodes and string bytes
 * (and bounds the depth), a second fills the table, giving each array or object a contiguous run
 * of children so that the table holds no pointers (a copy is two memcpy calls). */
#include "import/value_json.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

#define MAX_STRINGS ((size_t)64 << 20)

typedef struct value_count {
    size_t nodes, strings;
} value_count;

/* jansson's iterators take non-const objects; reading through them changes nothing. */
static kiln_result count(const json_t *j, uint32_t depth, value_count *c, kiln_error *err)
{
    if (depth > KILN_VALUE_MAX_DEPTH)
        return kiln_error_set(err, KILN_E_LIMIT, "a value nested deeper than %u levels",
                              KILN_VALUE_MAX_DEPTH);
    if (++c->nodes > KILN_VALUE_MAX_NODES)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "a value of more than %u numbers, arrays and objects",
                              KILN_VALUE_MAX_NODES);
    if (json_is_string(j)) {
        c->strings += strlen(json_string_value(j)) + 1;
    } else if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) {
            kiln_result r = count(json_array_get(j, i), depth + 1, c, err);
            if (r != KILN_OK) return r;
        }
    } else if (json_is_object(j)) {
        for (void *it = json_object_iter((json_t *)j); it;
             it = json_object_iter_next((json_t *)j, it)) {
            c->strings += strlen(json_object_iter_key(it)) + 1;
            kiln_result r = count(json_object_iter_value(it), depth + 1, c, err);
            if (r != KILN_OK) return r;
        }
    }
    if (c->strings > MAX_STRINGS)
        return kiln_error_set(err, KILN_E_LIMIT, "a value of more than %zu bytes of strings",
                              MAX_STRINGS);
    return KILN_OK;
}

typedef struct value_fill {
    kiln_value *v;
    uint32_t next_node, next_string;
} value_fill;

static uint32_t add_string(value_fill *f, const char *s)
{
    size_t n = strlen(s) + 1;
    uint32_t off = f->next_string;
    memcpy(f->v->strings + off, s, n);
    f->next_string += (uint32_t)n;
    return off;
}

/* Fills node `index` from j; its children get the next free run of nodes. */
static void fill(value_fill *f, const json_t *j, uint32_t index, uint32_t key)
{
    kiln_value_node *n = &f->v->nodes[index];
    memset(n, 0, sizeof *n);
    n->key = key;
    switch (json_typeof(j)) {
    case JSON_TRUE:
    case JSON_FALSE:
        n->kind = KILN_VALUE_BOOL;
        n->boolean = json_is_true(j);
        break;
    case JSON_INTEGER:
        n->kind = KILN_VALUE_NUMBER;
        n->integer = true;
        n->i = (int64_t)json_integer_value(j);
        n->d = (double)n->i;
        break;
    case JSON_REAL:
        n->kind = KILN_VALUE_NUMBER;
        n->d = json_real_value(j);
        break;
    case JSON_STRING: {
        n->kind = KILN_VALUE_STRING;
        const char *s = json_string_value(j);
        n->count = (uint32_t)strlen(s);
        n->first = add_string(f, s);
        break;
    }
    case JSON_ARRAY: {
        uint32_t count = (uint32_t)json_array_size(j), first = f->next_node;
        n->kind = KILN_VALUE_ARRAY;
        n->count = count;
        n->first = first;
        f->next_node += count;
        for (uint32_t i = 0; i < count; i++) fill(f, json_array_get(j, i), first + i, 0);
        break;
    }
    case JSON_OBJECT: {
        uint32_t count = (uint32_t)json_object_size(j), first = f->next_node, i = 0;
        n->kind = KILN_VALUE_OBJECT;
        n->count = count;
        n->first = first;
        f->next_node += count;
        for (void *it = json_object_iter((json_t *)j); it && i < count;
             it = json_object_iter_next((json_t *)j, it), i++) {
            uint32_t k = add_string(f, json_object_iter_key(it));
            fill(f, json_object_iter_value(it), first + i, k);
        }
        break;
    }
    case JSON_NULL:
        n->kind = KILN_VALUE_NULL;
        break;
    }
}

kiln_result kiln_value_from_json(const json_t *j, const kiln_allocator *a, kiln_value *out,
                                 kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    if (!j) return kiln_error_set(err, KILN_E_USAGE, "kiln_value_from_json: no value");
    value_count c = {0, 1}; /* strings start with "" at offset 0 */
    kiln_result r = count(j, 0, &c, err);
    if (r != KILN_OK) return r;
    out->nodes = kiln_alloc(a, c.nodes * sizeof *out->nodes);
    out->strings = kiln_alloc(a, c.strings);
    if (!out->nodes || !out->strings) {
        kiln_free(a, out->nodes, c.nodes * sizeof *out->nodes);
        kiln_free(a, out->strings, c.strings);
        memset(out, 0, sizeof *out);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory copying a value");
    }
    out->node_count = (uint32_t)c.nodes;
    out->strings_size = (uint32_t)c.strings;
    out->strings[0] = '\0';
    value_fill f = {out, 1, 1};
    fill(&f, j, 0, 0);
    return KILN_OK;
}

kiln_result kiln_value_copy(const kiln_value *src, const kiln_allocator *a, kiln_value *out,
                            kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    if (!src->node_count) return KILN_OK;
    size_t nodes = (size_t)src->node_count * sizeof *src->nodes;
    out->nodes = kiln_alloc(a, nodes);
    out->strings = kiln_alloc(a, src->strings_size);
    if (!out->nodes || (src->strings_size && !out->strings)) {
        kiln_free(a, out->nodes, nodes);
        kiln_free(a, out->strings, src->strings_size);
        memset(out, 0, sizeof *out);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory copying a value");
    }
    memcpy(out->nodes, src->nodes, nodes);
    if (src->strings_size) memcpy(out->strings, src->strings, src->strings_size);
    out->node_count = src->node_count;
    out->strings_size = src->strings_size;
    return KILN_OK;
}

void kiln_value_free(kiln_value *v)
{
    if (!v) return;
    kiln_free(&v->allocator, v->nodes, (size_t)v->node_count * sizeof *v->nodes);
    kiln_free(&v->allocator, v->strings, v->strings_size);
    memset(v, 0, sizeof *v);
}
