/* csg_runtime.c — decode, free and the renderer callbacks of the CSG runtime type. */
#include "csg_runtime.h"

#include <stdlib.h>
#include <string.h>

static kiln_result decode(void *user, const void *view, void **data, kiln_error *err)
{
    (void)user;
    const csg_view *v = view;
    csg_set *s = calloc(1, sizeof *s);
    float *params = malloc(v->params_size ? v->params_size : 1);
    if (!s || !params) {
        free(s);
        free(params);
        return kiln_error_printf(err, KILN_E_OUT_OF_MEMORY, "out of memory for a CSG set");
    }
    s->shape_count = v->shape_count;
    s->type_count = v->type_count;
    memcpy(params, v->params, v->params_size);
    s->params = params;
    s->params_size = v->params_size;
    if (v->has_bounds) {
        memcpy(s->bounds_min, v->bounds_min, sizeof s->bounds_min);
        memcpy(s->bounds_max, v->bounds_max, sizeof s->bounds_max);
    } else {
        for (uint32_t i = 0; i < v->shape_count; i++)
            for (int c = 0; c < 3; c++) {
                float lo = v->shapes[i].bounds_min[c], hi = v->shapes[i].bounds_max[c];
                if (i == 0 || lo < s->bounds_min[c]) s->bounds_min[c] = lo;
                if (i == 0 || hi > s->bounds_max[c]) s->bounds_max[c] = hi;
            }
    }
    *data = s;
    return KILN_OK;
}

static void free_set(void *user, void *data)
{
    (void)user;
    csg_set *s = data;
    if (!s) return;
    free(s->params);
    free(s);
}

static kiln_result create(void *user, krt_handle h, const krt_custom_data *d, void **gpu,
                          kiln_error *err)
{
    (void)h;
    (void)err;
    csg_renderer *r = user;
    const csg_set *s = d->data;
    r->creates++;
    r->last_shape_count = s->shape_count;
    *gpu = r; /* a real renderer returns its buffer object */
    return KILN_OK;
}

static kiln_result replace(void *user, krt_handle h, const krt_custom_data *d, void **gpu,
                           kiln_error *err)
{
    (void)h;
    (void)err;
    (void)gpu;
    csg_renderer *r = user;
    const csg_set *s = d->data;
    r->replaces++;
    r->last_shape_count = s->shape_count;
    return KILN_OK;
}

static void destroy(void *user, krt_handle h, void *gpu)
{
    (void)h;
    (void)gpu;
    csg_renderer *r = user;
    r->destroys++;
}

kiln_result csg_register_runtime_type(krt_context *ctx, csg_renderer *renderer, krt_type *type,
                                      kiln_error *err)
{
    krt_type_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.kind = &csg_cooked_kind;
    d.decode = decode;
    d.free = free_set;
    d.create = create;
    d.replace = replace;
    d.destroy = destroy;
    d.user = renderer;
    return krt_register_type(ctx, &d, type, err);
}
