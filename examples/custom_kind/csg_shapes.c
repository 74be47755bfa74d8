/* csg_shapes.c — the registry of shape types and the four built-in ones. */
#include "csg_shapes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int refuse(char *why, size_t size, const char *fmt, const char *name)
{
    if (why && size) snprintf(why, size, fmt, name ? name : "(no name)");
    return -1;
}

int csg_register_shape(csg_shape_registry *r, const csg_shape_type *t, char *why, size_t why_size)
{
    if (!t || !t->name || !t->name[0] || strlen(t->name) >= CSG_NAME_SIZE)
        return refuse(why, why_size, "shape type %s: a name of 1 to 23 characters is needed",
                      t ? t->name : NULL);
    for (const char *c = t->name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return refuse(why, why_size, "shape type %s: the name is not [a-z0-9_]+", t->name);
    if (!t->bounds)
        return refuse(why, why_size, "shape type %s: a bounds function is required", t->name);
    if (t->param_size % 4 || t->param_size > CSG_MAX_PARAM_SIZE)
        return refuse(why, why_size,
                      "shape type %s: parameters are whole floats, at most 64 "
                      "bytes",
                      t->name);
    if (t->param_size && !t->default_params)
        return refuse(why, why_size, "shape type %s: default parameters are required", t->name);
    if (csg_find_shape(r, t->name) >= 0)
        return refuse(why, why_size, "shape type %s: the name is taken", t->name);
    if (r->count == CSG_MAX_SHAPE_TYPES)
        return refuse(why, why_size, "shape type %s: the registry is full", t->name);
    r->types[r->count++] = *t;
    return 0;
}

int csg_find_shape(const csg_shape_registry *r, const char *name)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->types[i].name, name)) return (int)i;
    return -1;
}

static void set_box(float min[3], float max[3], float x, float y, float z)
{
    min[0] = -x, min[1] = -y, min[2] = -z;
    max[0] = x, max[1] = y, max[2] = z;
}

static void sphere_bounds(const void *params, float min[3], float max[3])
{
    float r;
    memcpy(&r, params, 4);
    r = fabsf(r);
    set_box(min, max, r, r, r);
}

static void box_bounds(const void *params, float min[3], float max[3])
{
    float h[3];
    memcpy(h, params, 12);
    set_box(min, max, fabsf(h[0]), fabsf(h[1]), fabsf(h[2]));
}

static void capsule_bounds(const void *params, float min[3], float max[3])
{
    float p[2];
    memcpy(p, params, 8);
    float r = fabsf(p[0]), hh = fabsf(p[1]);
    set_box(min, max, r, hh + r, r);
}

static void torus_bounds(const void *params, float min[3], float max[3])
{
    float p[2];
    memcpy(p, params, 8);
    float outer = fabsf(p[0]) + fabsf(p[1]);
    set_box(min, max, outer, fabsf(p[1]), outer);
}

int csg_register_builtin_shapes(csg_shape_registry *r, char *why, size_t why_size)
{
    static const float sphere[] = {0.5f}, box[] = {0.5f, 0.5f, 0.5f}, capsule[] = {0.25f, 0.5f},
                       torus[] = {0.5f, 0.125f};
    const csg_shape_type types[] = {
        {"sphere", sizeof sphere, sphere, sphere_bounds},
        {"box", sizeof box, box, box_bounds},
        {"capsule", sizeof capsule, capsule, capsule_bounds},
        {"torus", sizeof torus, torus, torus_bounds},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (csg_register_shape(r, &types[i], why, why_size) != 0) return -1;
    return 0;
}
