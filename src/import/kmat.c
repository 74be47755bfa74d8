/* kmat.c — parsing, validating and merging .kmat documents (docs/shaders.md, "Typed
 * materials"; the JSON Schema is docs/schemas/kmat.schema.json). Every refusal is
 * KILN_E_IMPORT_SETTINGS with the JSON pointer of the offending value, as .meta settings are
 * reported (src/pipeline/settings.c). Parameter values are checked for shape only (no strings,
 * no nulls, bounded depth); their types are checked against the shader when the block is packed
 * (process/material_block.c). */
#include "import/kmat.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json_pointer.h"
#include "import/value_json.h"

/* ---- JSON pointers and messages ----------------------------------------------------------- */

/* An RFC 6901 pointer built while walking the document. */
typedef struct kptr {
    char text[512];
    size_t len;
} kptr;

static size_t ptr_push(kptr *p, const char *key)
{
    return kiln_json_pointer_push(p->text, sizeof p->text, &p->len, key);
}

static void ptr_pop(kptr *p, size_t old) { kiln_json_pointer_pop(p->text, &p->len, old); }

/* Untrusted text in messages is reduced to printable ASCII. */
static const char *printable(const char *s, char *buf, size_t cap)
{
    size_t n = 0, limit = cap - 4, len = strlen(s);
    for (size_t i = 0; i < len && n < limit; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (n == limit && len > n) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

static const char *describe(const json_t *v, char *buf, size_t cap)
{
    char text[48];
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        snprintf(buf, cap, "\"%s\"", printable(json_string_value(v), text, sizeof text));
        return buf;
    case JSON_INTEGER:
        snprintf(buf, cap, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return buf;
    case JSON_REAL:
        snprintf(buf, cap, "%.9g", json_real_value(v));
        return buf;
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

static kiln_result bad(kiln_error *err, const kptr *p, const char *fmt, ...) KILN_PRINTF(3, 4);

static kiln_result bad(kiln_error *err, const kptr *p, const char *fmt, ...)
{
    if (!err) return KILN_E_IMPORT_SETTINGS;
    va_list ap;
    va_start(ap, fmt);
    kiln_error_setv(err, KILN_E_IMPORT_SETTINGS, fmt, ap);
    va_end(ap);
    kiln_error_at_pointer(err, p->text); /* cut at a character boundary when too long */
    return KILN_E_IMPORT_SETTINGS;
}

#define OBJECT_FOREACH(obj, it)                                                                    \
    for (void *it = json_object_iter((json_t *)(obj)); it;                                         \
         it = json_object_iter_next((json_t *)(obj), it))

static kiln_result oom(kiln_error *err)
{
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory reading a .kmat");
}

/* ---- small values ------------------------------------------------------------------------- */

/* A string of 1..max bytes without NUL; *out a copy. */
static kiln_result get_string(const json_t *v, kptr *p, const char *what, size_t max,
                              const kiln_allocator *a, char **out, kiln_error *err)
{
    char d[64];
    if (!json_is_string(v))
        return bad(err, p, "%s is a string, not %s", what, describe(v, d, sizeof d));
    size_t len = json_string_length(v);
    if (len == 0) return bad(err, p, "%s is empty", what);
    if (len > max) return bad(err, p, "%s is %zu bytes long (at most %zu)", what, len, max);
    if (strlen(json_string_value(v)) != len) return bad(err, p, "%s holds a NUL character", what);
    *out = kiln_strdup(a, json_string_value(v));
    return *out ? KILN_OK : oom(err);
}

/* [A-Za-z_][A-Za-z0-9_]* */
static size_t identifier(const char *s)
{
    size_t n = 0;
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_')) return 0;
    while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
           (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
        n++;
    return n;
}

/* A parameter path: identifier([digits])?(.identifier([digits])?)* with at most 9 digits. */
static bool path_valid(const char *s)
{
    for (;;) {
        size_t n = identifier(s);
        if (n == 0) return false;
        s += n;
        if (*s == '[') {
            s++;
            size_t d = 0;
            while (s[d] >= '0' && s[d] <= '9') d++;
            if (d == 0 || d > 9 || s[d] != ']') return false;
            s += d + 1;
        }
        if (*s == '\0') return true;
        if (*s != '.') return false;
        s++;
    }
}

static bool key_is(const char *key, const char *name) { return strcmp(key, name) == 0; }

/* One of names[] (count of them); *out its index. */
static kiln_result get_enum(const json_t *v, kptr *p, const char *what, const char *const *names,
                            size_t count, uint32_t *out, kiln_error *err)
{
    char d[64], list[128];
    size_t n = 0;
    list[0] = '\0';
    for (size_t i = 0; i < count; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", names[i]);
    if (json_is_string(v))
        for (size_t i = 0; i < count; i++)
            if (key_is(json_string_value(v), names[i])) {
                *out = (uint32_t)i;
                return KILN_OK;
            }
    return bad(err, p, "%s is one of %s, not %s", what, list, describe(v, d, sizeof d));
}

static kiln_result get_bool(const json_t *v, kptr *p, const char *what, bool *out, kiln_error *err)
{
    char d[64];
    if (!json_is_boolean(v))
        return bad(err, p, "%s is true or false, not %s", what, describe(v, d, sizeof d));
    *out = json_is_true(v);
    return KILN_OK;
}

static kiln_result get_index(const json_t *v, kptr *p, const char *what, uint32_t *out,
                             kiln_error *err)
{
    char d[64];
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 0xFFFFFFFE)
        return bad(err, p, "%s is an integer from 0 to 4294967294, not %s", what,
                   describe(v, d, sizeof d));
    *out = (uint32_t)json_integer_value(v);
    return KILN_OK;
}

/* ---- fields ------------------------------------------------------------------------------- */

static kiln_result parse_stage(const json_t *v, kptr *p, const char *what, const kiln_allocator *a,
                               kiln_kmat_stage *out, kiln_error *err)
{
    char d[64];
    if (json_is_string(v)) return get_string(v, p, what, KILN_KMAT_MAX_PATH, a, &out->shader, err);
    if (!json_is_object(v))
        return bad(err, p, "%s is a shader path or {\"shader\": path, \"variant\": name}, not %s",
                   what, describe(v, d, sizeof d));
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        const json_t *val = json_object_iter_value(it);
        size_t old = ptr_push(p, key);
        kiln_result r;
        if (key_is(key, "shader"))
            r = get_string(val, p, "shader", KILN_KMAT_MAX_PATH, a, &out->shader, err);
        else if (key_is(key, "variant"))
            r = get_string(val, p, "variant", KILN_KMAT_MAX_NAME, a, &out->variant, err);
        else
            r = bad(err, p, "unknown field \"%s\" of %s; fields: shader, variant",
                    printable(key, d, sizeof d), what);
        if (r != KILN_OK) return r;
        ptr_pop(p, old);
    }
    if (!out->shader && !out->variant)
        return bad(err, p, "%s names no shader and no variant", what);
    return KILN_OK;
}

static kiln_result parse_block(const json_t *v, kptr *p, const kiln_allocator *a,
                               kiln_kmat_block *out, kiln_error *err)
{
    char d[64];
    const char *forms = "\"block\" is a block name, {\"name\": name}, {\"set\": s, \"binding\": "
                        "b} or {\"push_constants\": true}";
    out->given = true;
    if (json_is_string(v)) {
        out->pick = KILN_KMAT_BLOCK_NAME;
        return get_string(v, p, "\"block\"", KILN_KMAT_MAX_NAME, a, &out->name, err);
    }
    if (!json_is_object(v)) return bad(err, p, "%s, not %s", forms, describe(v, d, sizeof d));
    const json_t *name = json_object_get(v, "name"), *set = json_object_get(v, "set"),
                 *binding = json_object_get(v, "binding"),
                 *push = json_object_get(v, "push_constants");
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        if (!key_is(key, "name") && !key_is(key, "set") && !key_is(key, "binding") &&
            !key_is(key, "push_constants")) {
            size_t old = ptr_push(p, key);
            kiln_result r = bad(err, p, "unknown field \"%s\" of \"block\"; %s",
                                printable(key, d, sizeof d), forms);
            ptr_pop(p, old);
            return r;
        }
    }
    int forms_given = (name != NULL) + (set != NULL || binding != NULL) + (push != NULL);
    if (forms_given != 1) return bad(err, p, "%s (exactly one of them)", forms);
    kiln_result r = KILN_OK;
    size_t old;
    if (name) {
        out->pick = KILN_KMAT_BLOCK_NAME;
        old = ptr_push(p, "name");
        r = get_string(name, p, "name", KILN_KMAT_MAX_NAME, a, &out->name, err);
    } else if (push) {
        out->pick = KILN_KMAT_BLOCK_PUSH;
        old = ptr_push(p, "push_constants");
        if (!json_is_true(push))
            r = bad(err, p, "push_constants is true (to pick the push-constant block), not %s",
                    describe(push, d, sizeof d));
    } else {
        out->pick = KILN_KMAT_BLOCK_BINDING;
        if (!set || !binding) return bad(err, p, "\"block\" gives both set and binding");
        old = ptr_push(p, "set");
        r = get_index(set, p, "set", &out->set, err);
        if (r != KILN_OK) return r;
        ptr_pop(p, old);
        old = ptr_push(p, "binding");
        r = get_index(binding, p, "binding", &out->binding, err);
    }
    if (r != KILN_OK) return r;
    ptr_pop(p, old);
    return KILN_OK;
}

/* A parameter value: numbers, booleans, arrays and objects of them. */
static kiln_result check_value(const json_t *v, kptr *p, uint32_t depth, kiln_error *err)
{
    char d[64];
    if (depth > KILN_VALUE_MAX_DEPTH)
        return bad(err, p, "a value nested deeper than %u levels", KILN_VALUE_MAX_DEPTH);
    if (json_is_string(v) || json_is_null(v))
        return bad(err, p,
                   "%s is not a parameter value (numbers, true/false, arrays of them for "
                   "vectors, matrices and arrays, objects for structs)",
                   describe(v, d, sizeof d));
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            char num[24];
            snprintf(num, sizeof num, "%zu", i);
            size_t old = ptr_push(p, num);
            kiln_result r = check_value(json_array_get(v, i), p, depth + 1, err);
            if (r != KILN_OK) return r;
            ptr_pop(p, old);
        }
    } else if (json_is_object(v)) {
        OBJECT_FOREACH(v, it)
        {
            const char *key = json_object_iter_key(it);
            size_t old = ptr_push(p, key);
            if (identifier(key) != strlen(key))
                return bad(err, p, "\"%s\" is not a member name", printable(key, d, sizeof d));
            kiln_result r = check_value(json_object_iter_value(it), p, depth + 1, err);
            if (r != KILN_OK) return r;
            ptr_pop(p, old);
        }
    }
    return KILN_OK;
}

static int cmp_param(const void *a, const void *b)
{
    return strcmp(((const kiln_kmat_param *)a)->name, ((const kiln_kmat_param *)b)->name);
}

static int cmp_texture(const void *a, const void *b)
{
    return strcmp(((const kiln_kmat_texture *)a)->name, ((const kiln_kmat_texture *)b)->name);
}

static kiln_result parse_params(const json_t *v, kptr *p, const kiln_allocator *a, kiln_kmat *out,
                                kiln_error *err)
{
    char d[64];
    if (!json_is_object(v))
        return bad(err, p, "\"parameters\" is an object of member path -> value, not %s",
                   describe(v, d, sizeof d));
    size_t n = json_object_size(v);
    if (n > KILN_KMAT_MAX_PARAMS)
        return bad(err, p, "%zu parameters (at most %u)", n, KILN_KMAT_MAX_PARAMS);
    if (n == 0) return KILN_OK;
    out->params = kiln_calloc(a, n, sizeof *out->params);
    if (!out->params) return oom(err);
    out->param_cap = n;
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        const json_t *val = json_object_iter_value(it);
        size_t old = ptr_push(p, key);
        if (strlen(key) > KILN_KMAT_MAX_NAME)
            return bad(err, p, "a parameter path of %zu bytes (at most %u)", strlen(key),
                       KILN_KMAT_MAX_NAME);
        if (!path_valid(key))
            return bad(err, p,
                       "\"%s\" is not a parameter path (member names joined by '.', an array "
                       "element as name[index]: \"lights[2].color\")",
                       printable(key, d, sizeof d));
        kiln_result r = check_value(val, p, 0, err);
        if (r != KILN_OK) return r;
        kiln_kmat_param *q = &out->params[out->param_count++];
        q->name = kiln_strdup(a, key);
        q->pointer = kiln_strdup(a, p->text);
        if (!q->name || !q->pointer) return oom(err);
        r = kiln_value_from_json(val, a, &q->value, err);
        if (r == KILN_E_LIMIT) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err ? err->message : "too large a value");
            return bad(err, p, "%s", why);
        }
        if (r != KILN_OK) return r;
        ptr_pop(p, old);
    }
    qsort(out->params, out->param_count, sizeof *out->params, cmp_param);
    return KILN_OK;
}

static kiln_result parse_sampler(const json_t *v, kptr *p, kiln_kmat_sampler *s, kiln_error *err)
{
    static const char *const filters[] = {"nearest", "linear"};
    static const char *const wraps[] = {"repeat", "clamp", "mirror"};
    char d[64];
    if (!json_is_object(v))
        return bad(err, p, "\"sampler\" is an object, not %s", describe(v, d, sizeof d));
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        const json_t *val = json_object_iter_value(it);
        size_t old = ptr_push(p, key);
        uint32_t e = 0;
        kiln_result r;
        if (key_is(key, "mag_filter") || key_is(key, "min_filter") || key_is(key, "mip_filter")) {
            r = get_enum(val, p, key, filters, 2, &e, err);
            uint8_t f =
                (uint8_t)(e == 0 ? KILN_MATERIAL_FILTER_NEAREST : KILN_MATERIAL_FILTER_LINEAR);
            if (key[1] == 'a') s->mag_filter = f;
            else if (key[1] == 'i' && key[2] == 'n') s->min_filter = f;
            else s->mip_filter = f;
        } else if (key_is(key, "wrap_s") || key_is(key, "wrap_t")) {
            r = get_enum(val, p, key, wraps, 3, &e, err);
            if (key[5] == 's') s->wrap_s = (uint8_t)e;
            else s->wrap_t = (uint8_t)e;
        } else {
            r = bad(err, p,
                    "unknown field \"%s\" of \"sampler\"; fields: mag_filter, min_filter, "
                    "mip_filter, wrap_s, wrap_t",
                    printable(key, d, sizeof d));
        }
        if (r != KILN_OK) return r;
        ptr_pop(p, old);
    }
    return KILN_OK;
}

static kiln_result parse_textures(const json_t *v, kptr *p, const kiln_allocator *a, kiln_kmat *out,
                                  kiln_error *err)
{
    char d[64];
    if (!json_is_object(v))
        return bad(err, p, "\"textures\" is an object of binding name -> texture, not %s",
                   describe(v, d, sizeof d));
    size_t n = json_object_size(v);
    if (n > KILN_KMAT_MAX_TEXTURES)
        return bad(err, p, "%zu textures (at most %u)", n, KILN_KMAT_MAX_TEXTURES);
    if (n == 0) return KILN_OK;
    out->textures = kiln_calloc(a, n, sizeof *out->textures);
    if (!out->textures) return oom(err);
    out->texture_cap = n;
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        const json_t *val = json_object_iter_value(it);
        size_t old = ptr_push(p, key);
        if (strlen(key) > KILN_KMAT_MAX_NAME || identifier(key) != strlen(key))
            return bad(err, p, "\"%s\" is not a binding name", printable(key, d, sizeof d));
        kiln_kmat_texture *t = &out->textures[out->texture_count++];
        t->sampler.wrap_s = t->sampler.wrap_t = KILN_MATERIAL_WRAP_REPEAT;
        t->name = kiln_strdup(a, key);
        t->pointer = kiln_strdup(a, p->text);
        if (!t->name || !t->pointer) return oom(err);
        kiln_result r;
        if (json_is_string(val)) {
            r = get_string(val, p, "a texture path", KILN_KMAT_MAX_PATH, a, &t->texture, err);
        } else if (json_is_object(val)) {
            r = KILN_OK;
            OBJECT_FOREACH(val, jt)
            {
                const char *k2 = json_object_iter_key(jt);
                const json_t *v2 = json_object_iter_value(jt);
                size_t old2 = ptr_push(p, k2);
                if (key_is(k2, "texture")) {
                    r = get_string(v2, p, "texture", KILN_KMAT_MAX_PATH, a, &t->texture, err);
                } else if (key_is(k2, "sampler")) {
                    t->has_sampler = true;
                    r = parse_sampler(v2, p, &t->sampler, err);
                } else {
                    r = bad(err, p, "unknown field \"%s\" of a texture; fields: texture, sampler",
                            printable(k2, d, sizeof d));
                }
                if (r != KILN_OK) return r;
                ptr_pop(p, old2);
            }
            if (!t->texture) r = bad(err, p, "a texture object names its \"texture\"");
        } else {
            r = bad(err, p,
                    "a texture is a path or {\"texture\": path, \"sampler\": {...}}, not %s",
                    describe(val, d, sizeof d));
        }
        if (r != KILN_OK) return r;
        ptr_pop(p, old);
    }
    qsort(out->textures, out->texture_count, sizeof *out->textures, cmp_texture);
    return KILN_OK;
}

static const char *const alpha_names[] = {"opaque", "mask", "blend"};
static const char *const blend_names[] = {"none", "alpha", "premultiplied", "additive"};

static kiln_result parse_render_state(const json_t *v, kptr *p, kiln_kmat_render_state *rs,
                                      kiln_error *err)
{
    char d[64];
    if (!json_is_object(v))
        return bad(err, p, "\"render_state\" is an object, not %s", describe(v, d, sizeof d));
    OBJECT_FOREACH(v, it)
    {
        const char *key = json_object_iter_key(it);
        const json_t *val = json_object_iter_value(it);
        size_t old = ptr_push(p, key);
        kiln_result r;
        if (key_is(key, "alpha_mode")) {
            r = get_enum(val, p, key, alpha_names, 3, &rs->alpha_mode, err);
            rs->given |= KILN_KMAT_GIVEN_ALPHA_MODE;
        } else if (key_is(key, "alpha_cutoff")) {
            double x = json_is_number(val) ? json_number_value(val) : -1.0;
            if (!json_is_number(val) || !(x >= 0.0 && x <= 1.0))
                r = bad(err, p, "alpha_cutoff is a number from 0 to 1, not %s",
                        describe(val, d, sizeof d));
            else r = KILN_OK;
            rs->alpha_cutoff = (float)x;
            rs->given |= KILN_KMAT_GIVEN_ALPHA_CUTOFF;
        } else if (key_is(key, "double_sided")) {
            r = get_bool(val, p, key, &rs->double_sided, err);
            rs->given |= KILN_KMAT_GIVEN_DOUBLE_SIDED;
        } else if (key_is(key, "depth_write")) {
            r = get_bool(val, p, key, &rs->depth_write, err);
            rs->given |= KILN_KMAT_GIVEN_DEPTH_WRITE;
        } else if (key_is(key, "depth_test")) {
            r = get_bool(val, p, key, &rs->depth_test, err);
            rs->given |= KILN_KMAT_GIVEN_DEPTH_TEST;
        } else if (key_is(key, "blend")) {
            r = get_enum(val, p, key, blend_names, 4, &rs->blend, err);
            rs->given |= KILN_KMAT_GIVEN_BLEND;
        } else {
            r = bad(err, p,
                    "unknown field \"%s\" of \"render_state\"; fields: alpha_mode, alpha_cutoff, "
                    "double_sided, depth_write, depth_test, blend",
                    printable(key, d, sizeof d));
        }
        if (r != KILN_OK) return r;
        ptr_pop(p, old);
    }
    return KILN_OK;
}

/* Defaults for the fields nobody gave (they depend on those given). */
static void fill_defaults(kiln_kmat_render_state *rs)
{
    uint32_t g = rs->given;
    if (!(g & KILN_KMAT_GIVEN_ALPHA_MODE)) rs->alpha_mode = KILN_MATERIAL_ALPHA_OPAQUE;
    if (!(g & KILN_KMAT_GIVEN_ALPHA_CUTOFF)) rs->alpha_cutoff = 0.5f;
    if (!(g & KILN_KMAT_GIVEN_DOUBLE_SIDED)) rs->double_sided = false;
    if (!(g & KILN_KMAT_GIVEN_DEPTH_TEST)) rs->depth_test = true;
    if (!(g & KILN_KMAT_GIVEN_BLEND))
        rs->blend = rs->alpha_mode == KILN_MATERIAL_ALPHA_BLEND ? KILN_KMAT_BLEND_ALPHA
                                                                : KILN_KMAT_BLEND_NONE;
    if (!(g & KILN_KMAT_GIVEN_DEPTH_WRITE))
        rs->depth_write = rs->depth_test && rs->alpha_mode != KILN_MATERIAL_ALPHA_BLEND;
}

/* The rules between fields. whole: every field has its value (given or default); else only the
 * fields given are compared (a derived document, checked again when resolved). */
static kiln_result check_render_state(const kiln_kmat_render_state *rs, bool whole, kiln_error *err)
{
    kptr p = {{0}, 0};
    uint32_t g = whole ? 0x3Fu : rs->given;
    ptr_push(&p, "render_state");
    bool mode = g & KILN_KMAT_GIVEN_ALPHA_MODE, blend = g & KILN_KMAT_GIVEN_BLEND;
    if (mode && blend) {
        if (rs->alpha_mode == KILN_MATERIAL_ALPHA_BLEND && rs->blend == KILN_KMAT_BLEND_NONE) {
            ptr_push(&p, "blend");
            return bad(err, &p,
                       "alpha_mode blend needs a blend (alpha, premultiplied or additive), not "
                       "none");
        }
        if (rs->alpha_mode != KILN_MATERIAL_ALPHA_BLEND && rs->blend != KILN_KMAT_BLEND_NONE) {
            ptr_push(&p, "blend");
            return bad(err, &p,
                       "blend %s with alpha_mode %s: a blended material has alpha_mode blend",
                       blend_names[rs->blend], alpha_names[rs->alpha_mode]);
        }
    }
    if (mode && (rs->given & KILN_KMAT_GIVEN_ALPHA_CUTOFF) &&
        rs->alpha_mode != KILN_MATERIAL_ALPHA_MASK) {
        ptr_push(&p, "alpha_cutoff");
        return bad(err, &p, "alpha_cutoff with alpha_mode %s: the cutoff applies to mask only",
                   alpha_names[rs->alpha_mode]);
    }
    if ((g & KILN_KMAT_GIVEN_DEPTH_TEST) && (rs->given & KILN_KMAT_GIVEN_DEPTH_WRITE) &&
        rs->depth_write && !rs->depth_test) {
        ptr_push(&p, "depth_write");
        return bad(err, &p, "depth_write without depth_test: nothing would be written");
    }
    return KILN_OK;
}

/* ---- the document ------------------------------------------------------------------------- */

kiln_result kiln_kmat_from_json(const json_t *doc, const kiln_allocator *a, kiln_kmat *out,
                                kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_kmat_from_json: NULL out");
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    a = &out->allocator;
    out->chain = 1;
    kptr p = {{0}, 0};
    char d[64];
    kiln_result r = KILN_OK;
    if (!doc || !json_is_object(doc)) {
        r = bad(err, &p, "a .kmat is a JSON object, not %s",
                doc ? describe(doc, d, sizeof d) : "empty");
        goto fail;
    }
    OBJECT_FOREACH(doc, it)
    {
        const char *key = json_object_iter_key(it);
        const json_t *v = json_object_iter_value(it);
        size_t old = ptr_push(&p, key);
        if (key_is(key, "$schema"))
            r = json_is_string(v)
                    ? KILN_OK
                    : bad(err, &p, "$schema is a string, not %s", describe(v, d, sizeof d));
        else if (key_is(key, "parent"))
            r = get_string(v, &p, "\"parent\"", KILN_KMAT_MAX_PATH, a, &out->parent, err);
        else if (key_is(key, "vertex")) r = parse_stage(v, &p, "\"vertex\"", a, &out->vertex, err);
        else if (key_is(key, "fragment"))
            r = parse_stage(v, &p, "\"fragment\"", a, &out->fragment, err);
        else if (key_is(key, "block")) r = parse_block(v, &p, a, &out->block, err);
        else if (key_is(key, "parameters")) r = parse_params(v, &p, a, out, err);
        else if (key_is(key, "textures")) r = parse_textures(v, &p, a, out, err);
        else if (key_is(key, "render_state"))
            r = parse_render_state(v, &p, &out->render_state, err);
        else
            r = bad(err, &p,
                    "unknown field \"%s\"; fields: parent, vertex, fragment, block, parameters, "
                    "textures, render_state",
                    printable(key, d, sizeof d));
        if (r != KILN_OK) goto fail;
        ptr_pop(&p, old);
    }
    if (!out->parent) {
        const char *missing = !out->vertex.shader     ? "vertex"
                              : !out->fragment.shader ? "fragment"
                                                      : NULL;
        if (missing) {
            /* at the field when it gives only a variant, else at the document */
            size_t old = json_object_get(doc, missing) ? ptr_push(&p, missing) : p.len;
            r = bad(err, &p, "no %s shader: a material without a \"parent\" names both shaders",
                    missing);
            ptr_pop(&p, old);
            goto fail;
        }
        fill_defaults(&out->render_state);
    }
    r = check_render_state(&out->render_state, out->parent == NULL, err);
    if (r != KILN_OK) goto fail;
    return KILN_OK;
fail:
    kiln_kmat_free(out);
    return r;
}

kiln_result kiln_kmat_parse(const char *text, size_t size, const kiln_allocator *a, kiln_kmat *out,
                            kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_kmat_parse: NULL out");
    memset(out, 0, sizeof *out);
    if (!text && size) return kiln_error_set(err, KILN_E_USAGE, "kiln_kmat_parse: NULL text");
    json_error_t je;
    /* Duplicate keys refused: with them what the material means would depend on the parser.
     * Nesting is bounded by jansson (2048 levels) and again by the value depth. */
    json_t *doc = json_loadb(text ? text : "", size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!doc) {
        if (json_error_code(&je) == json_error_out_of_memory) return oom(err);
        char t[sizeof je.text];
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS, "JSON syntax error at line %d, column %d: %s",
                       je.line, je.column, printable(je.text, t, sizeof t));
        if (je.position >= 0) kiln_error_at_offset(err, (uint64_t)je.position);
        return KILN_E_IMPORT_SETTINGS;
    }
    kiln_result r = kiln_kmat_from_json(doc, a, out, err);
    json_decref(doc);
    return r;
}

/* ---- inheritance -------------------------------------------------------------------------- */

static kiln_result dup(const kiln_allocator *a, const char *s, char **out, kiln_error *err)
{
    *out = NULL;
    if (!s) return KILN_OK;
    *out = kiln_strdup(a, s);
    return *out ? KILN_OK : oom(err);
}

static kiln_result copy_param(const kiln_allocator *a, const kiln_kmat_param *src, uint32_t depth,
                              kiln_kmat_param *dst, kiln_error *err)
{
    dst->depth = depth;
    kiln_result r = dup(a, src->name, &dst->name, err);
    if (r == KILN_OK) r = dup(a, src->pointer, &dst->pointer, err);
    if (r == KILN_OK) r = kiln_value_copy(&src->value, a, &dst->value, err);
    return r;
}

static kiln_result copy_texture(const kiln_allocator *a, const kiln_kmat_texture *src,
                                uint32_t depth, kiln_kmat_texture *dst, kiln_error *err)
{
    *dst = *src;
    dst->name = dst->texture = dst->pointer = NULL;
    dst->depth = depth;
    kiln_result r = dup(a, src->name, &dst->name, err);
    if (r == KILN_OK) r = dup(a, src->texture, &dst->texture, err);
    if (r == KILN_OK) r = dup(a, src->pointer, &dst->pointer, err);
    return r;
}

static kiln_result merge_stage(const kiln_allocator *a, const kiln_kmat_stage *child,
                               const kiln_kmat_stage *parent, const char *what,
                               kiln_kmat_stage *out, kiln_error *err)
{
    const char *shader = child->shader ? child->shader : parent->shader;
    /* a child naming its own shader does not inherit the parent's variant */
    const char *variant = child->shader || child->variant ? child->variant : parent->variant;
    if (!shader) {
        kptr p = {{0}, 0};
        ptr_push(&p, what);
        return bad(err, &p, "no %s shader: neither the material nor its parents name one", what);
    }
    kiln_result r = dup(a, shader, &out->shader, err);
    if (r == KILN_OK) r = dup(a, variant, &out->variant, err);
    return r;
}

kiln_result kiln_kmat_resolve(const kiln_kmat *child, const kiln_kmat *parent,
                              const kiln_allocator *a, kiln_kmat *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_kmat_resolve: NULL out");
    memset(out, 0, sizeof *out);
    if (!child || !parent) return kiln_error_set(err, KILN_E_USAGE, "kiln_kmat_resolve: NULL");
    if (parent->chain >= KILN_KMAT_MAX_DEPTH)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "a material derived through more than %u documents",
                              KILN_KMAT_MAX_DEPTH);
    if (a) out->allocator = *a;
    a = &out->allocator;
    out->chain = parent->chain + 1;
    kiln_result r = dup(a, child->parent, &out->parent, err);
    if (r == KILN_OK)
        r = merge_stage(a, &child->vertex, &parent->vertex, "vertex", &out->vertex, err);
    if (r == KILN_OK)
        r = merge_stage(a, &child->fragment, &parent->fragment, "fragment", &out->fragment, err);
    if (r != KILN_OK) goto fail;
    const kiln_kmat_block *blk = child->block.given ? &child->block : &parent->block;
    out->block = *blk;
    out->block.name = NULL;
    if ((r = dup(a, blk->name, &out->block.name, err)) != KILN_OK) goto fail;

    /* parameters: the parent's not overridden by name, then the child's; sorted by name */
    size_t np = child->param_count + parent->param_count;
    if (np > 0 && !(out->params = kiln_calloc(a, np, sizeof *out->params))) {
        r = oom(err);
        goto fail;
    }
    out->param_cap = np;
    for (size_t i = 0; i < parent->param_count; i++) {
        if (kiln_kmat_find_param(child, parent->params[i].name)) continue;
        r = copy_param(a, &parent->params[i], parent->params[i].depth + 1,
                       &out->params[out->param_count++], err);
        if (r != KILN_OK) goto fail;
    }
    for (size_t i = 0; i < child->param_count; i++) {
        r = copy_param(a, &child->params[i], child->params[i].depth,
                       &out->params[out->param_count++], err);
        if (r != KILN_OK) goto fail;
    }
    if (out->param_count > 1) qsort(out->params, out->param_count, sizeof *out->params, cmp_param);

    size_t nt = child->texture_count + parent->texture_count;
    if (nt > 0 && !(out->textures = kiln_calloc(a, nt, sizeof *out->textures))) {
        r = oom(err);
        goto fail;
    }
    out->texture_cap = nt;
    for (size_t i = 0; i < parent->texture_count; i++) {
        if (kiln_kmat_find_texture(child, parent->textures[i].name)) continue;
        r = copy_texture(a, &parent->textures[i], parent->textures[i].depth + 1,
                         &out->textures[out->texture_count++], err);
        if (r != KILN_OK) goto fail;
    }
    for (size_t i = 0; i < child->texture_count; i++) {
        r = copy_texture(a, &child->textures[i], child->textures[i].depth,
                         &out->textures[out->texture_count++], err);
        if (r != KILN_OK) goto fail;
    }
    if (out->texture_count > 1)
        qsort(out->textures, out->texture_count, sizeof *out->textures, cmp_texture);

    /* render state field by field, then the defaults of what nobody gave, then the rules */
    const kiln_kmat_render_state *c = &child->render_state, *pr = &parent->render_state;
    kiln_kmat_render_state *rs = &out->render_state;
    rs->given = c->given | pr->given;
#define PICK(bit, field) rs->field = (c->given & (bit)) ? c->field : pr->field
    PICK(KILN_KMAT_GIVEN_ALPHA_MODE, alpha_mode);
    PICK(KILN_KMAT_GIVEN_ALPHA_CUTOFF, alpha_cutoff);
    PICK(KILN_KMAT_GIVEN_DOUBLE_SIDED, double_sided);
    PICK(KILN_KMAT_GIVEN_DEPTH_WRITE, depth_write);
    PICK(KILN_KMAT_GIVEN_DEPTH_TEST, depth_test);
    PICK(KILN_KMAT_GIVEN_BLEND, blend);
#undef PICK
    fill_defaults(rs);
    r = check_render_state(rs, true, err);
    if (r != KILN_OK) goto fail;
    return KILN_OK;
fail:
    kiln_kmat_free(out);
    return r;
}

const kiln_kmat_param *kiln_kmat_find_param(const kiln_kmat *m, const char *name)
{
    if (!m || !name) return NULL;
    for (size_t i = 0; i < m->param_count; i++)
        if (m->params[i].name && !strcmp(m->params[i].name, name)) return &m->params[i];
    return NULL;
}

const kiln_kmat_texture *kiln_kmat_find_texture(const kiln_kmat *m, const char *name)
{
    if (!m || !name) return NULL;
    for (size_t i = 0; i < m->texture_count; i++)
        if (m->textures[i].name && !strcmp(m->textures[i].name, name)) return &m->textures[i];
    return NULL;
}

static void free_str(const kiln_allocator *a, char *s)
{
    if (s) kiln_free(a, s, strlen(s) + 1);
}

void kiln_kmat_free(kiln_kmat *m)
{
    if (!m) return;
    const kiln_allocator *a = &m->allocator;
    free_str(a, m->parent);
    free_str(a, m->vertex.shader);
    free_str(a, m->vertex.variant);
    free_str(a, m->fragment.shader);
    free_str(a, m->fragment.variant);
    free_str(a, m->block.name);
    for (size_t i = 0; i < m->param_count; i++) {
        free_str(a, m->params[i].name);
        free_str(a, m->params[i].pointer);
        kiln_value_free(&m->params[i].value);
    }
    kiln_free(a, m->params, m->param_cap * sizeof *m->params);
    for (size_t i = 0; i < m->texture_count; i++) {
        free_str(a, m->textures[i].name);
        free_str(a, m->textures[i].texture);
        free_str(a, m->textures[i].pointer);
    }
    kiln_free(a, m->textures, m->texture_cap * sizeof *m->textures);
    memset(m, 0, sizeof *m);
}
