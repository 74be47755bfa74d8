/* inspect_json.c — the JSON values of the inspect documents (inspect.h): the kiln_describe backend
 * that turns a cooked kind's description into jansson values, and fourccs. */
#include "pipeline/inspect.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "codec/describe.h"

/* The objects and arrays open, the root first. Each holds a reference of its own, so that a
 * value its parent refused (a key that is not UTF-8) is still safe to fill and then dropped. */
typedef struct json_builder {
    json_t *open[KILN_DESCRIBE_MAX_DEPTH + 1];
    size_t depth;
} json_builder;

static json_t *json_of(const kiln_describe_value *v)
{
    switch (v->type) {
    case KILN_DESCRIBE_BOOL:
        return json_boolean(v->b);
    case KILN_DESCRIBE_INT:
        return json_integer((json_int_t)v->i);
    case KILN_DESCRIBE_NUMBER:
        return json_real(v->n);
    case KILN_DESCRIBE_STRING:
        return json_stringn(v->s, v->size);
    case KILN_DESCRIBE_OBJECT:
        return json_object();
    case KILN_DESCRIBE_ARRAY:
        return json_array();
    case KILN_DESCRIBE_NULL:
        break;
    }
    return json_null();
}

static void builder_value(void *user, const char *key, const kiln_describe_value *v)
{
    json_builder *b = user;
    json_t *j = json_of(v), *parent = b->open[b->depth];
    bool opens = v->type == KILN_DESCRIBE_OBJECT || v->type == KILN_DESCRIBE_ARRAY;
    if (opens) b->open[++b->depth] = json_incref(j);
    /* As jansson's own calls do: a value it cannot make or take (a string that is not UTF-8)
     * is left out. */
    if (key) json_object_set_new(parent, key, j);
    else json_array_append_new(parent, j);
}

static void builder_end(void *user)
{
    json_builder *b = user;
    json_decref(b->open[b->depth--]);
}

static const kiln_describe_ops builder_ops = {builder_value, builder_end};

kiln_result kiln_inspect_describe(const kiln_cooked_kind *kind, const void *view, json_t *into,
                                  kiln_error *err)
{
    json_builder b = {.open = {into}, .depth = 0};
    kiln_describe d;
    kiln_describe_init(&d, &builder_ops, &b);
    kind->describe(view, &d);
    while (b.depth) builder_end(&b); /* what a failed description left open */
    return kiln_describe_finish(&d, kind->name, err);
}

json_t *kiln_inspect_fourcc(uint32_t v)
{
    char buf[16];
    bool printable = true;
    for (int i = 0; i < 4; i++) {
        unsigned c = (v >> (8 * i)) & 0xFF;
        printable &= c >= 0x20 && c < 0x7F;
        buf[i] = (char)c;
    }
    buf[4] = 0;
    if (!printable) snprintf(buf, sizeof buf, "0x%08" PRIx32, v);
    return json_string(buf);
}
