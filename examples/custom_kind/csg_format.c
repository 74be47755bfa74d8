/* csg_format.c — reading a cooked CSG set, on the cook side (pack) and at run time. The
 * container's own reader checks the header, the section table and the checksum; this checks
 * what the records say. */
#include "csg_format.h"

#include <math.h>
#include <string.h>

_Static_assert(sizeof(csg_type_record) == 32, "TYPE records are 32 bytes");
_Static_assert(sizeof(csg_shape_record) == 56, "SHAP records are 56 bytes");

static bool finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

kiln_result csg_read(const void *data, size_t size, uint32_t flags, void *out, kiln_error *err)
{
    kiln_container c;
    kiln_result r = kiln_container_read(data, size, flags, &c, err);
    if (r != KILN_OK) return r;
    if (c.kind != CSG_KIND || c.kind_version != CSG_KIND_VERSION)
        return kiln_error_printf(err, KILN_E_FORMAT_VERSION,
                                 "not a CSG set of version %d: cook "
                                 "it again",
                                 CSG_KIND_VERSION);
    csg_view *v = out;
    memset(v, 0, sizeof *v);
    kiln_container_section types, shapes, params, bounds;
    if (!kiln_container_find(&c, CSG_SECTION_TYPES, sizeof(csg_type_record), &types) ||
        !kiln_container_find(&c, CSG_SECTION_SHAPES, sizeof(csg_shape_record), &shapes) ||
        !kiln_container_find(&c, CSG_SECTION_PARAMS, 1, &params))
        return kiln_error_printf(err, KILN_E_FORMAT_INVALID,
                                 "a CSG set needs TYPE, SHAP and "
                                 "PARM sections of their record sizes");
    if (types.count > 4096 || shapes.count > UINT32_MAX)
        return kiln_error_printf(err, KILN_E_FORMAT_INVALID, "too many types or shapes");
    /* Sections are 16-byte aligned in the file: the records may be read in place. */
    v->types = (const csg_type_record *)(const void *)types.data;
    v->type_count = (uint32_t)types.count;
    v->shapes = (const csg_shape_record *)(const void *)shapes.data;
    v->shape_count = (uint32_t)shapes.count;
    v->params = params.data;
    v->params_size = params.count;
    for (uint32_t i = 0; i < v->type_count; i++) {
        const csg_type_record *t = &v->types[i];
        if (memchr(t->name, 0, sizeof t->name) == NULL || !t->name[0] || t->param_size % 4 ||
            t->reserved)
            return kiln_error_printf(err, KILN_E_FORMAT_INVALID, "shape type %u is damaged", i);
    }
    for (uint32_t i = 0; i < v->shape_count; i++) {
        const csg_shape_record *s = &v->shapes[i];
        if (s->type >= v->type_count || s->param_size != v->types[s->type].param_size ||
            s->param_offset % 4 || s->param_offset > v->params_size ||
            s->param_size > v->params_size - s->param_offset || s->reserved ||
            !isfinite(s->scale) || !finite3(s->position) || !finite3(s->bounds_min) ||
            !finite3(s->bounds_max))
            return kiln_error_printf(err, KILN_E_FORMAT_INVALID, "shape %u is damaged", i);
    }
    if (kiln_container_find(&c, CSG_SECTION_BOUNDS, 24, &bounds) && bounds.count == 1) {
        memcpy(v->bounds_min, bounds.data, 12);
        memcpy(v->bounds_max, bounds.data + 12, 12);
        if (!finite3(v->bounds_min) || !finite3(v->bounds_max))
            return kiln_error_printf(err, KILN_E_FORMAT_INVALID, "the set's bounds are damaged");
        v->has_bounds = true;
    }
    return KILN_OK;
}

/* What kiln inspect says about a set (kiln_inspect_opts.kinds): the types used, every shape with
 * its type, placement and bounds, and the set's bounds. */
static void csg_describe(const void *view, kiln_describe *d)
{
    const csg_view *v = view;
    kiln_describe_int(d, "shape_count", v->shape_count);
    kiln_describe_int(d, "params_size", (int64_t)v->params_size);
    kiln_describe_array(d, "types");
    for (uint32_t i = 0; i < v->type_count; i++) {
        kiln_describe_object(d, NULL);
        kiln_describe_string(d, "name", v->types[i].name, strlen(v->types[i].name));
        kiln_describe_int(d, "param_size", v->types[i].param_size);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
    kiln_describe_array(d, "shapes");
    for (uint32_t i = 0; i < v->shape_count; i++) {
        const csg_shape_record *s = &v->shapes[i];
        kiln_describe_object(d, NULL);
        kiln_describe_int(d, "type", s->type);
        kiln_describe_float(d, "scale", s->scale);
        kiln_describe_floats(d, "position", s->position, 3);
        kiln_describe_floats(d, "bounds_min", s->bounds_min, 3);
        kiln_describe_floats(d, "bounds_max", s->bounds_max, 3);
        kiln_describe_end(d);
    }
    kiln_describe_end(d);
    if (v->has_bounds) {
        kiln_describe_object(d, "bounds");
        kiln_describe_floats(d, "min", v->bounds_min, 3);
        kiln_describe_floats(d, "max", v->bounds_max, 3);
        kiln_describe_end(d);
    } else {
        kiln_describe_null(d, "bounds");
    }
}

static const char *const labels[] = {"csg", NULL};

const kiln_cooked_kind csg_cooked_kind = {
    .name = "csg",
    .fourcc = CSG_KIND,
    .labels = labels,
    .view_size = sizeof(csg_view),
    .read = csg_read,
    .refs = NULL,
    .describe = csg_describe,
};
