/* csg_cook.c — cooking a .csg scene:
 *
 *   {"shapes": [{"type": "sphere", "position": [0, 1, 0], "scale": 1, "params": [0.5]}, ...]}
 *
 * Every shape names a registered type; "params" (that type's floats) default to the type's
 * default bytes, "position" to the origin, "scale" to 1. Each shape's bounds come from its type's
 * bounds function, scaled, moved to its position and padded; the set's bounds enclose them. */
#include "csg_cook.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csg_format.h"

#define MAX_SHAPES 65536

enum { SET_SCALE, SET_PADDING, SET_ORDER, SET_SCENE_BOUNDS, SET_COUNT };

static const char *const orders[] = {"source", "type", NULL};
static const kiln_setting_field settings[SET_COUNT] = {
    [SET_SCALE] = {"scale", KILN_SETTING_NUMBER, 0.001, 1000.0, NULL, 1.0, NULL,
                   "multiplies every position and size"},
    [SET_PADDING] = {"padding", KILN_SETTING_NUMBER, 0.0, 100.0, NULL, 0.0, NULL,
                     "added to every side of every shape's bounds"},
    [SET_ORDER] = {"order", KILN_SETTING_CHOICE, 0, 0, orders, 0, "source",
                   "shapes in the order of the file, or grouped by type (stable)"},
    [SET_SCENE_BOUNDS] = {"scene_bounds", KILN_SETTING_BOOL, 0, 0, NULL, 1.0, NULL,
                          "store the bounds of the whole set (section BNDS)"},
};

typedef struct cook_state {
    const csg_shape_registry *reg;
    csg_type_record types[CSG_MAX_SHAPE_TYPES];
    int type_index[CSG_MAX_SHAPE_TYPES]; /* registry index -> TYPE record, -1 when unused */
    uint32_t type_count;
    csg_shape_record *shapes;
    size_t shape_count;
    uint8_t *params;
    size_t params_size;
} cook_state;

static kiln_result bad(kiln_error *err, const kiln_cook_input *in, size_t shape, const char *what)
{
    return kiln_error_printf(err, KILN_E_IMPORT_FAILED, "%s: shape %zu: %s", in->path, shape, what);
}

static bool floats(const json_t *a, float *out, size_t n)
{
    if (!json_is_array(a) || json_array_size(a) != n) return false;
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_number(x) || !isfinite(json_number_value(x))) return false;
        out[i] = (float)json_number_value(x);
        if (!isfinite(out[i])) return false;
    }
    return true;
}

static kiln_result add_shape(cook_state *st, const kiln_cook_input *in, size_t i, const json_t *j,
                             kiln_error *err)
{
    if (!json_is_object(j)) return bad(err, in, i, "is not an object");
    const char *type = json_string_value(json_object_get(j, "type"));
    int t = type ? csg_find_shape(st->reg, type) : -1;
    if (t < 0) return bad(err, in, i, "\"type\" names no registered shape type");
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)j, key, value) {
        if (strcmp(key, "type") && strcmp(key, "position") && strcmp(key, "scale") &&
            strcmp(key, "params"))
            return bad(err, in, i, "has a field other than type, position, scale, params");
    }
    const csg_shape_type *ty = &st->reg->types[t];
    float params[CSG_MAX_PARAM_SIZE / 4], position[3] = {0, 0, 0}, scale = 1.0f;
    memcpy(params, ty->default_params, ty->param_size);
    if (json_object_get(j, "params") &&
        !floats(json_object_get(j, "params"), params, ty->param_size / 4))
        return bad(err, in, i, "\"params\" is not the type's number of finite numbers");
    if (json_object_get(j, "position") && !floats(json_object_get(j, "position"), position, 3))
        return bad(err, in, i, "\"position\" is not 3 finite numbers");
    const json_t *s = json_object_get(j, "scale");
    if (s && (!json_is_number(s) || !(json_number_value(s) > 0) ||
              !isfinite((float)json_number_value(s))))
        return bad(err, in, i, "\"scale\" is not a positive number");
    if (s) scale = (float)json_number_value(s);

    if (st->type_index[t] < 0) {
        csg_type_record *r = &st->types[st->type_count];
        memset(r, 0, sizeof *r);
        strncpy(r->name, ty->name, sizeof r->name - 1);
        r->param_size = ty->param_size;
        st->type_index[t] = (int)st->type_count++;
    }
    const float k = (float)in->settings[SET_SCALE].number,
                pad = (float)in->settings[SET_PADDING].number;
    float lo[3], hi[3];
    ty->bounds(params, lo, hi);
    csg_shape_record *rec = &st->shapes[st->shape_count++];
    memset(rec, 0, sizeof *rec);
    rec->type = (uint32_t)st->type_index[t];
    rec->param_offset = (uint32_t)st->params_size;
    rec->param_size = ty->param_size;
    rec->scale = scale * k;
    for (int c = 0; c < 3; c++) {
        rec->position[c] = position[c] * k;
        rec->bounds_min[c] = rec->position[c] + lo[c] * rec->scale - pad;
        rec->bounds_max[c] = rec->position[c] + hi[c] * rec->scale + pad;
        if (!isfinite(rec->bounds_min[c]) || !isfinite(rec->bounds_max[c]))
            return bad(err, in, i, "its bounds are not finite");
    }
    memcpy(st->params + st->params_size, params, ty->param_size);
    st->params_size += ty->param_size;
    return KILN_OK;
}

/* Stable grouping by TYPE record (records are numbered in first-use order). */
static void order_by_type(cook_state *st, csg_shape_record *tmp, uint8_t *tmp_params)
{
    size_t n = 0, p = 0;
    for (uint32_t t = 0; t < st->type_count; t++)
        for (size_t i = 0; i < st->shape_count; i++) {
            if (st->shapes[i].type != t) continue;
            tmp[n] = st->shapes[i];
            memcpy(tmp_params + p, st->params + st->shapes[i].param_offset, tmp[n].param_size);
            tmp[n++].param_offset = (uint32_t)p;
            p += st->shapes[i].param_size;
        }
    memcpy(st->shapes, tmp, n * sizeof *tmp);
    memcpy(st->params, tmp_params, p);
}

static kiln_result cook(void *user, const kiln_cook_input *in, kiln_cook_output *out,
                        kiln_error *err)
{
    json_error_t je;
    json_t *doc = json_loadb((const char *)in->source, in->size, JSON_REJECT_DUPLICATES, &je);
    if (!doc)
        return kiln_error_printf(err, KILN_E_IMPORT_FAILED, "%s: line %d: %s", in->path, je.line,
                                 je.text);
    const json_t *list = json_object_get(doc, "shapes");
    kiln_result r = KILN_OK;
    if (!json_is_array(list) || json_object_size(doc) != 1 || json_array_size(list) > MAX_SHAPES) {
        json_decref(doc);
        return kiln_error_printf(err, KILN_E_IMPORT_FAILED,
                                 "%s: a .csg file is {\"shapes\": "
                                 "[...]} with at most %d shapes",
                                 in->path, MAX_SHAPES);
    }
    size_t n = json_array_size(list);
    cook_state st;
    memset(&st, 0, sizeof st);
    st.reg = user;
    for (size_t t = 0; t < CSG_MAX_SHAPE_TYPES; t++) st.type_index[t] = -1;
    st.shapes = calloc(n ? n : 1, 2 * sizeof *st.shapes); /* the second half: reordering */
    st.params = calloc(n ? n : 1, 2 * CSG_MAX_PARAM_SIZE);
    if (!st.shapes || !st.params) r = kiln_error_printf(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; r == KILN_OK && i < n; i++)
        r = add_shape(&st, in, i, json_array_get(list, i), err);
    json_decref(doc);
    if (r == KILN_OK && !strcmp(in->settings[SET_ORDER].choice, "type"))
        order_by_type(&st, st.shapes + n, st.params + n * CSG_MAX_PARAM_SIZE);

    float bounds[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < st.shape_count; i++)
        for (int c = 0; c < 3; c++) {
            bounds[c] = fminf(bounds[c], st.shapes[i].bounds_min[c]);
            bounds[3 + c] = fmaxf(bounds[3 + c], st.shapes[i].bounds_max[c]);
        }
    bool with_bounds = in->settings[SET_SCENE_BOUNDS].number != 0.0 && st.shape_count > 0;
    kiln_section_desc sections[] = {
        {CSG_SECTION_TYPES, sizeof(csg_type_record), st.type_count, st.types},
        {CSG_SECTION_SHAPES, sizeof(csg_shape_record), st.shape_count, st.shapes},
        {CSG_SECTION_PARAMS, 1, st.params_size, st.params},
        {CSG_SECTION_BOUNDS, 24, 1, bounds},
    };
    if (r == KILN_OK)
        r = kiln_cook_output_add_container(out, "csg", "set.kcsg", CSG_KIND, CSG_KIND_VERSION,
                                           sections, with_bounds ? 4 : 3, err);
    if (r == KILN_OK) r = kiln_cook_output_summary(out, "shapes", (double)st.shape_count);
    if (r == KILN_OK) r = kiln_cook_output_summary(out, "shape_types", (double)st.type_count);
    if (r == KILN_OK && st.shape_count == 0) r = kiln_cook_output_warn(out, "the set is empty");
    free(st.shapes);
    free(st.params);
    return r;
}

kiln_source_kind_desc csg_source_kind(const csg_shape_registry *shapes)
{
    static const char *const extensions[] = {"csg", NULL};
    kiln_source_kind_desc d = {0};
    d.struct_size = sizeof d;
    d.name = "csg";
    d.extensions = extensions;
    d.settings = settings;
    d.setting_count = SET_COUNT;
    d.version = 1;
    d.cook = cook;
    d.user = (void *)shapes;
    return d;
}
