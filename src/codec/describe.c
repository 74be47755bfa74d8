/* describe.c — kiln_describe (kiln_kind.h): every call checked against the levels open (a key in
 * an object, none in an array, ends that match, at most KILN_DESCRIBE_MAX_DEPTH levels), then
 * handed to the backend (describe.h); the first misuse stops the description. */
#include "codec/describe.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void kiln_describe_init(kiln_describe *d, const kiln_describe_ops *ops, void *user)
{
    memset(d, 0, sizeof *d);
    d->ops = ops;
    d->user = user;
}

kiln_result kiln_describe_finish(const kiln_describe *d, const char *kind, kiln_error *err)
{
    if (d->failed)
        return kiln_error_set(err, KILN_E_USAGE, "cooked kind %s: describe() %s", kind, d->why);
    if (d->depth)
        return kiln_error_set(err, KILN_E_USAGE,
                              "cooked kind %s: describe() left %zu object(s) or array(s) open",
                              kind, d->depth);
    return KILN_OK;
}

static void misuse(kiln_describe *d, const char *why)
{
    if (d->failed) return;
    d->failed = true;
    snprintf(d->why, sizeof d->why, "%s", why);
}

/* Whether a value named key may come now: a key in an object, none in an array. */
static bool may_add(kiln_describe *d, const char *key)
{
    if (d->failed) return false;
    if (d->in_array[d->depth] && key) {
        misuse(d, "gave a key to an element of an array");
        return false;
    }
    if (!d->in_array[d->depth] && !key) {
        misuse(d, "gave a member of an object no key");
        return false;
    }
    return true;
}

static void add(kiln_describe *d, const char *key, const kiln_describe_value *v)
{
    if (!may_add(d, key)) return;
    if (v->type == KILN_DESCRIBE_OBJECT || v->type == KILN_DESCRIBE_ARRAY) {
        if (d->depth == KILN_DESCRIBE_MAX_DEPTH) {
            misuse(d, "nested objects and arrays too deep");
            return;
        }
        d->in_array[++d->depth] = v->type == KILN_DESCRIBE_ARRAY;
    }
    d->ops->value(d->user, key, v);
}

KILN_API void kiln_describe_object(kiln_describe *d, const char *key)
{
    kiln_describe_value v = {.type = KILN_DESCRIBE_OBJECT};
    add(d, key, &v);
}

KILN_API void kiln_describe_array(kiln_describe *d, const char *key)
{
    kiln_describe_value v = {.type = KILN_DESCRIBE_ARRAY};
    add(d, key, &v);
}

KILN_API void kiln_describe_end(kiln_describe *d)
{
    if (d->failed) return;
    if (d->depth == 0) {
        misuse(d, "ended more objects or arrays than it began");
        return;
    }
    d->depth--;
    d->ops->end(d->user);
}

KILN_API void kiln_describe_int(kiln_describe *d, const char *key, int64_t value)
{
    kiln_describe_value v = {.type = KILN_DESCRIBE_INT, .i = value};
    add(d, key, &v);
}

KILN_API void kiln_describe_number(kiln_describe *d, const char *key, double value)
{
    kiln_describe_value v = {.type = isfinite(value) ? KILN_DESCRIBE_NUMBER : KILN_DESCRIBE_NULL,
                             .n = value};
    add(d, key, &v);
}

KILN_API void kiln_describe_float(kiln_describe *d, const char *key, float value)
{
    if (!isfinite(value)) {
        kiln_describe_null(d, key);
        return;
    }
    /* The fewest significant digits that read back as the same float (at most 9 do). */
    char buf[32];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)value);
        if ((float)strtod(buf, NULL) == value) break;
    }
    kiln_describe_number(d, key, strtod(buf, NULL));
}

KILN_API void kiln_describe_floats(kiln_describe *d, const char *key, const float *values,
                                   size_t count)
{
    kiln_describe_array(d, key);
    for (size_t i = 0; i < count; i++) kiln_describe_float(d, NULL, values[i]);
    kiln_describe_end(d);
}

KILN_API void kiln_describe_string(kiln_describe *d, const char *key, const char *s, size_t size)
{
    kiln_describe_value v = {.type = KILN_DESCRIBE_STRING, .s = s ? s : "", .size = s ? size : 0};
    add(d, key, &v);
}

KILN_API void kiln_describe_bool(kiln_describe *d, const char *key, bool value)
{
    kiln_describe_value v = {.type = KILN_DESCRIBE_BOOL, .b = value};
    add(d, key, &v);
}

KILN_API void kiln_describe_null(kiln_describe *d, const char *key)
{
    kiln_describe_value v = {.type = KILN_DESCRIBE_NULL};
    add(d, key, &v);
}

void kiln_describe_cstring(kiln_describe *d, const char *key, const char *s)
{
    kiln_describe_string(d, key, s, s ? strlen(s) : 0);
}

void kiln_describe_id(kiln_describe *d, const char *key, uint64_t id)
{
    if (!id) {
        kiln_describe_null(d, key);
        return;
    }
    char buf[24];
    snprintf(buf, sizeof buf, "0x%016" PRIx64, id);
    kiln_describe_cstring(d, key, buf);
}

void kiln_describe_index(kiln_describe *d, const char *key, uint32_t index)
{
    if (index == 0xFFFFFFFFu) kiln_describe_null(d, key);
    else kiln_describe_int(d, key, index);
}

void kiln_describe_bounds(kiln_describe *d, const char *key, const float *min, const float *max)
{
    kiln_describe_object(d, key);
    kiln_describe_floats(d, "min", min, 3);
    kiln_describe_floats(d, "max", max, 3);
    kiln_describe_end(d);
}

const char *kiln_describe_name(uint32_t v, const char *const *names, uint32_t count)
{
    return v < count ? names[v] : "unknown";
}
