/* gltf_mesh.c — meshes and primitives: attributes (plain, quantized, meshopt- or Draco-
 * compressed) into float streams, index lists checked against the vertex count, strips and
 * fans turned into lists, points and lines dropped, positions and weights cleaned, morph
 * targets. */
#include "import/gltf_private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import/draco.h"

enum {
    MODE_POINTS = 0,
    MODE_LINES,
    MODE_LINE_LOOP,
    MODE_LINE_STRIP,
    MODE_TRIANGLES,
    MODE_STRIP,
    MODE_FAN
};

static const char *const mode_names[] = {"POINTS",    "LINES",          "LINE_LOOP",   "LINE_STRIP",
                                         "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};

/* What one primitive is being built from. */
typedef struct prim_src {
    const char *ptr;          /* "/meshes/m/primitives/p" */
    json_t *attributes;       /* the attribute map being read (the primitive's or a target's) */
    const char *attr_ptr;     /* its JSON pointer */
    kiln_draco_mesh draco;    /* decoded when the primitive uses KHR_draco_mesh_compression */
    json_t *draco_attributes; /* the extension's name -> unique id map */
    bool has_draco;
    uint32_t vertex_count;
} prim_src;

/* Reads attribute `name` as floats with `components` per vertex; *out NULL when absent.
 * From Draco when the extension names it, else from its accessor. */
static kiln_result attribute(gltf_ctx *c, prim_src *ps, const char *name, uint32_t components,
                             bool accept_vec3_for_vec4, const float **out, uint32_t *got)
{
    *out = NULL;
    int32_t acc;
    char ptr[192];
    kiln_result r =
        gltf_get_index(c, ps->attributes, name, ps->attr_ptr, c->accessor_count, false, &acc);
    if (r != KILN_OK || acc < 0) return r;
    const gltf_accessor *a = NULL;
    if ((r = gltf_accessor_info(c, (uint32_t)acc, &a))) return r;
    snprintf(ptr, sizeof ptr, "%s/%s", ps->attr_ptr, name);
    bool vec3_ok = accept_vec3_for_vec4 && a->components == 3;
    if (a->components != components && !vec3_ok)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "%s must have %u components, accessor %d has %u", name, components, acc,
                         a->components);
    if (a->count != ps->vertex_count)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "accessor %d has %u elements; POSITION has %u", acc, a->count,
                         ps->vertex_count);
    *got = a->components;
    json_t *id = ps->has_draco ? json_object_get(ps->draco_attributes, name) : NULL;
    if (id) {
        const kiln_draco_attribute *da =
            json_is_integer(id) && json_integer_value(id) >= 0 &&
                    json_integer_value(id) <= 0xFFFFFFFF
                ? kiln_draco_find_attribute(&ps->draco, (uint32_t)json_integer_value(id))
                : NULL;
        if (!da)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "the Draco stream has no attribute with the id the extension names");
        if (da->components != a->components)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "the Draco attribute has %u components, the accessor %u",
                             da->components, a->components);
        float *copy = kiln_arena_memdup(c->arena, da->values, da->values_size);
        if (!copy) return gltf_nomem(c, "vertex attributes");
        *out = copy;
        return KILN_OK;
    }
    return gltf_accessor_floats(c, (uint32_t)acc, out);
}

/* COLOR_n as RGBA: RGB sources get A = 1. */
static kiln_result color_attribute(gltf_ctx *c, prim_src *ps, const char *name, const float **out)
{
    const float *src = NULL;
    uint32_t n = 4;
    kiln_result r = attribute(c, ps, name, 4, true, &src, &n);
    if (r != KILN_OK || !src || n == 4) {
        *out = src;
        return r;
    }
    float *rgba = kiln_arena_array(c->arena, (size_t)ps->vertex_count * 4, sizeof(float));
    if (!rgba) return gltf_nomem(c, "vertex colours");
    for (size_t v = 0; v < ps->vertex_count; v++) {
        memcpy(rgba + v * 4, src + v * 3, 3 * sizeof(float));
        rgba[v * 4 + 3] = 1.0f;
    }
    *out = rgba;
    return KILN_OK;
}

/* JOINTS_n: integers below 65536. */
static kiln_result joints_attribute(gltf_ctx *c, prim_src *ps, const char *name,
                                    const uint16_t **out)
{
    *out = NULL;
    char ptr[192];
    int32_t acc;
    kiln_result r =
        gltf_get_index(c, ps->attributes, name, ps->attr_ptr, c->accessor_count, false, &acc);
    if (r != KILN_OK || acc < 0) return r;
    snprintf(ptr, sizeof ptr, "%s/%s", ps->attr_ptr, name);
    uint16_t *j = kiln_arena_array(c->arena, (size_t)ps->vertex_count * 4, sizeof *j);
    if (!j) return gltf_nomem(c, "joint indices");
    json_t *id = ps->has_draco ? json_object_get(ps->draco_attributes, name) : NULL;
    if (id) {
        const float *f;
        uint32_t n;
        if ((r = attribute(c, ps, name, 4, false, &f, &n))) return r;
        for (size_t i = 0; i < (size_t)ps->vertex_count * 4; i++) {
            if (!(f[i] >= 0.0f && f[i] < 65536.0f) || f[i] != floorf(f[i]))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                                 "joint index %g is not an integer "
                                 "in 0..65535",
                                 (double)f[i]);
            j[i] = (uint16_t)f[i];
        }
        *out = j;
        return KILN_OK;
    }
    const gltf_accessor *a = NULL;
    const uint32_t *u;
    if ((r = gltf_accessor_info(c, (uint32_t)acc, &a))) return r;
    if (a->components != 4 || a->count != ps->vertex_count)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "%s must be VEC4 with one element per vertex (%u)", name,
                         ps->vertex_count);
    if ((r = gltf_accessor_uints(c, (uint32_t)acc, &u))) return r;
    for (size_t i = 0; i < (size_t)ps->vertex_count * 4; i++) {
        if (u[i] > 65535)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "joint index %u is above 65535", u[i]);
        j[i] = (uint16_t)u[i];
    }
    *out = j;
    return KILN_OK;
}

/* ---- shared derived streams ------------------------------------------------------------------ */

/* A stream derived from source data: what it was made from (kind, two source pointers, a count)
 * and the result. Accessor data is decoded once per accessor, so equal source pointers mean
 * equal sources. */
typedef struct gltf_derived {
    int kind;
    const void *a, *b;
    uint64_t n;
    const void *result;
} gltf_derived;

enum {
    DERIVED_NORMALS = 1,
    DERIVED_TANGENTS,
    DERIVED_WEIGHTS,
    DERIVED_INDICES,
    DERIVED_POSITIONS,
    DERIVED_BOUNDS,
};

static size_t derived_hash(int kind, const void *a, const void *b, uint64_t n)
{
    uint64_t h = (uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15ull ^
                 (uint64_t)(uintptr_t)b * 0xC2B2AE3D27D4EB4Full ^ n * 0x165667B19E3779F9ull ^
                 (uint64_t)kind;
    return (size_t)(h ^ (h >> 29));
}

static const void *derived_find(gltf_ctx *c, int kind, const void *a, const void *b, uint64_t n)
{
    if (!c->derived_capacity) return NULL;
    size_t mask = c->derived_capacity - 1;
    for (size_t i = derived_hash(kind, a, b, n) & mask;; i = (i + 1) & mask) {
        const gltf_derived *d = &c->derived[i];
        if (!d->kind) return NULL;
        if (d->kind == kind && d->a == a && d->b == b && d->n == n) return d->result;
    }
}

/* Remembers a derived stream; false when memory runs out (an error like any other: a failed
 * allocation never passes silently). */
static bool derived_add(gltf_ctx *c, int kind, const void *a, const void *b, uint64_t n,
                        const void *result)
{
    if ((c->derived_count + 1) * 2 > c->derived_capacity) {
        size_t cap = c->derived_capacity ? c->derived_capacity * 2 : 64;
        gltf_derived *t = kiln_arena_array(&c->scratch, cap, sizeof *t);
        if (!t) return false;
        for (size_t i = 0; i < c->derived_capacity; i++) {
            const gltf_derived *d = &c->derived[i];
            if (!d->kind) continue;
            size_t j = derived_hash(d->kind, d->a, d->b, d->n) & (cap - 1);
            while (t[j].kind) j = (j + 1) & (cap - 1);
            t[j] = *d;
        }
        c->derived = t;
        c->derived_capacity = cap;
    }
    size_t mask = c->derived_capacity - 1, i = derived_hash(kind, a, b, n) & mask;
    while (c->derived[i].kind) i = (i + 1) & mask;
    c->derived[i] = (gltf_derived){kind, a, b, n, result};
    c->derived_count++;
    return true;
}

/* Triangle list from the declared mode; NULL src means 0, 1, 2, ... (no indices). */
static kiln_result triangulate(gltf_ctx *c, const prim_src *ps, int mode, const uint32_t *src,
                               uint32_t n, uint32_t **out, uint32_t *out_count)
{
    uint64_t tris = mode == MODE_TRIANGLES ? n / 3 : (n >= 3 ? n - 2 : 0);
    *out = NULL;
    *out_count = (uint32_t)(tris * 3);
    if (!tris) return KILN_OK;
    if (tris * 3 > 0xFFFFFFFFu)
        return gltf_fail(c, KILN_E_LIMIT, ps->ptr,
                         "%llu triangles need %llu indices, above kiln's limit of 4294967295",
                         (unsigned long long)tris, (unsigned long long)(tris * 3));
    const void *mode_key = (const void *)(uintptr_t)(mode + 1);
    const uint32_t *known = derived_find(c, DERIVED_INDICES, src, mode_key, n);
    if (known) {
        *out = (uint32_t *)known;
        return KILN_OK;
    }
    uint32_t *idx = kiln_arena_array(c->arena, (size_t)tris * 3, sizeof *idx);
    if (!idx) return gltf_nomem(c, "indices");
    if (!derived_add(c, DERIVED_INDICES, src, mode_key, n, idx)) return gltf_nomem(c, "indices");
#define AT(i) (src ? src[(i)] : (uint32_t)(i))
    for (uint32_t t = 0; t < tris; t++) {
        uint32_t *o = idx + (size_t)t * 3;
        if (mode == MODE_TRIANGLES) {
            o[0] = AT(3 * t), o[1] = AT(3 * t + 1), o[2] = AT(3 * t + 2);
        } else if (mode == MODE_STRIP) { /* keeps the winding of every other triangle */
            o[0] = AT(t), o[1] = AT(t + 1 + t % 2), o[2] = AT(t + 2 - t % 2);
        } else {
            o[0] = AT(t + 1), o[1] = AT(t + 2), o[2] = AT(0);
        }
    }
#undef AT
    *out = idx;
    return KILN_OK;
}

/* Positions: NaN and infinities become 0 (copied first: the accessor may be shared). */
static kiln_result clean_positions(gltf_ctx *c, const prim_src *ps, kiln_scene_primitive *p)
{
    /* Checked once per positions array: the result is the array itself when it was clean. */
    const float *known = derived_find(c, DERIVED_POSITIONS, p->positions, NULL, p->vertex_count);
    if (known) {
        if (known != p->positions) p->flags |= KILN_SCENE_PRIM_POSITIONS_SANITIZED;
        p->positions = known;
        return KILN_OK;
    }
    const float *source = p->positions;
    size_t n = (size_t)p->vertex_count * 3, bad = 0;
    for (size_t i = 0; i < n; i++) bad += !isfinite(p->positions[i]);
    if (!bad) {
        if (!derived_add(c, DERIVED_POSITIONS, source, NULL, p->vertex_count, source))
            return gltf_nomem(c, "positions");
        return KILN_OK;
    }
    float *copy = kiln_arena_memdup(c->arena, p->positions, n * sizeof(float));
    if (!copy) return gltf_nomem(c, "positions");
    if (!derived_add(c, DERIVED_POSITIONS, source, NULL, p->vertex_count, copy))
        return gltf_nomem(c, "positions");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(copy[i])) copy[i] = 0.0f;
    p->positions = copy;
    p->flags |= KILN_SCENE_PRIM_POSITIONS_SANITIZED;
    if (!kiln_scene_warn(c->scene, "%s: %zu position coordinates were NaN or infinite; set to 0",
                         ps->ptr, bad))
        return gltf_nomem(c, "a warning");
    return KILN_OK;
}

/* Normals to unit length; unusable ones (zero, NaN) become +Z with a warning. */
static kiln_result clean_normals(gltf_ctx *c, const prim_src *ps, kiln_scene_primitive *p)
{
    const float *known = derived_find(c, DERIVED_NORMALS, p->normals, NULL, p->vertex_count);
    if (known) {
        p->normals = known;
        return KILN_OK;
    }
    const float *source = p->normals;
    float *nrm =
        kiln_arena_memdup(c->arena, p->normals, (size_t)p->vertex_count * 3 * sizeof(float));
    if (!nrm) return gltf_nomem(c, "normals");
    size_t bad = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        float *n = nrm + v * 3;
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 1e-20f) || !isfinite(len)) {
            n[0] = n[1] = 0.0f, n[2] = 1.0f;
            bad++;
        } else {
            n[0] /= len, n[1] /= len, n[2] /= len;
        }
    }
    p->normals = nrm;
    if (!derived_add(c, DERIVED_NORMALS, source, NULL, p->vertex_count, nrm))
        return gltf_nomem(c, "normals");
    if (bad && !kiln_scene_warn(c->scene, "%s: %zu normals were zero or not finite; set to +Z",
                                ps->ptr, bad))
        return gltf_nomem(c, "a warning");
    return KILN_OK;
}

/* Tangents as glTF requires them: xyz of unit length, w the handedness +-1 (other values are
 * set to their sign); unusable ones (zero, NaN) become +X, w = 1, with a warning. */
static kiln_result clean_tangents(gltf_ctx *c, const prim_src *ps, kiln_scene_primitive *p)
{
    const float *known = derived_find(c, DERIVED_TANGENTS, p->tangents, NULL, p->vertex_count);
    if (known) {
        p->tangents = known;
        return KILN_OK;
    }
    const float *source = p->tangents;
    float *tan =
        kiln_arena_memdup(c->arena, p->tangents, (size_t)p->vertex_count * 4 * sizeof(float));
    if (!tan) return gltf_nomem(c, "tangents");
    size_t bad = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        float *t = tan + v * 4;
        float len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (!(len > 1e-20f) || !isfinite(len) || !isfinite(t[3])) {
            t[0] = 1.0f, t[1] = t[2] = 0.0f, t[3] = 1.0f;
            bad++;
        } else {
            t[0] /= len, t[1] /= len, t[2] /= len;
            t[3] = t[3] < 0.0f ? -1.0f : 1.0f;
        }
    }
    p->tangents = tan;
    if (!derived_add(c, DERIVED_TANGENTS, source, NULL, p->vertex_count, tan))
        return gltf_nomem(c, "tangents");
    if (bad && !kiln_scene_warn(c->scene, "%s: %zu tangents were zero or not finite; set to +X",
                                ps->ptr, bad))
        return gltf_nomem(c, "a warning");
    return KILN_OK;
}

/* Weights over all sets sum to 1 per vertex; a vertex with none gets all of joint slot 0. */
static kiln_result clean_weights(gltf_ctx *c, const prim_src *ps, kiln_scene_primitive *p)
{
    if (!p->joint_set_count) return KILN_OK;
    /* Sets are normalised together: one set shares by its own data, two by the pair. */
    const void *key_b = p->joint_set_count > 1 ? (const void *)p->weights[1] : NULL;
    const float *known0 = derived_find(c, DERIVED_WEIGHTS, p->weights[0], key_b, p->vertex_count);
    const float *known1 =
        key_b ? derived_find(c, DERIVED_WEIGHTS, key_b, p->weights[0], p->vertex_count) : NULL;
    if (known0 && (!key_b || known1)) {
        p->weights[0] = known0;
        if (key_b) p->weights[1] = known1;
        return KILN_OK;
    }
    const float *src0 = p->weights[0];
    float *w[KILN_SCENE_MAX_JOINT_SETS];
    for (uint32_t s = 0; s < p->joint_set_count; s++) {
        w[s] =
            kiln_arena_memdup(c->arena, p->weights[s], (size_t)p->vertex_count * 4 * sizeof(float));
        if (!w[s]) return gltf_nomem(c, "weights");
    }
    size_t changed = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        double sum = 0;
        for (uint32_t s = 0; s < p->joint_set_count; s++)
            for (int k = 0; k < 4; k++) {
                float *x = &w[s][v * 4 + k];
                if (!(*x > 0.0f) || !isfinite(*x)) *x = 0.0f;
                sum += *x;
            }
        if (fabs(sum - 1.0) > 2e-3) changed++;
        if (sum <= 0) {
            w[0][v * 4] = 1.0f;
            continue;
        }
        for (uint32_t s = 0; s < p->joint_set_count; s++)
            for (int k = 0; k < 4; k++) w[s][v * 4 + k] = (float)(w[s][v * 4 + k] / sum);
    }
    for (uint32_t s = 0; s < p->joint_set_count; s++) p->weights[s] = w[s];
    if (!derived_add(c, DERIVED_WEIGHTS, src0, key_b, p->vertex_count, w[0]) ||
        (key_b && !derived_add(c, DERIVED_WEIGHTS, key_b, src0, p->vertex_count, w[1])))
        return gltf_nomem(c, "weights");
    if (changed) {
        p->flags |= KILN_SCENE_PRIM_WEIGHTS_RENORMALIZED;
        if (!kiln_scene_warn(c->scene,
                             "%s: joint weights of %zu vertices did not sum to 1; "
                             "renormalised",
                             ps->ptr, changed))
            return gltf_nomem(c, "a warning");
    }
    return KILN_OK;
}

static kiln_result read_targets(gltf_ctx *c, prim_src *ps, const json_t *pj,
                                kiln_scene_primitive *p)
{
    json_t *targets;
    kiln_result r = gltf_get_array(c, pj, "targets", ps->ptr, 1024, &targets);
    if (r != KILN_OK || !targets || !json_array_size(targets)) return r;
    size_t n = json_array_size(targets);
    kiln_scene_morph_target *t = kiln_arena_array(c->arena, n, sizeof *t);
    if (!t) return gltf_nomem(c, "morph targets");
    json_t *saved = ps->attributes;
    const char *saved_ptr = ps->attr_ptr;
    bool saved_draco = ps->has_draco;
    ps->has_draco = false; /* Draco streams carry the base attributes only */
    char ptr[160];
    for (size_t i = 0; i < n; i++) {
        json_t *tj = json_array_get(targets, i);
        snprintf(ptr, sizeof ptr, "%s/targets/%zu", ps->ptr, i);
        if (!json_is_object(tj)) {
            r = gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
            break;
        }
        ps->attributes = tj; /* a target is an attribute map of its own */
        ps->attr_ptr = ptr;
        uint32_t got;
        if ((r = attribute(c, ps, "POSITION", 3, false, &t[i].positions, &got)) ||
            (r = attribute(c, ps, "NORMAL", 3, false, &t[i].normals, &got)) ||
            (r = attribute(c, ps, "TANGENT", 3, false, &t[i].tangents, &got)))
            break;
    }
    ps->attributes = saved;
    ps->attr_ptr = saved_ptr;
    ps->has_draco = saved_draco;
    if (r != KILN_OK) return r;
    p->targets = t;
    p->target_count = (uint32_t)n;
    return KILN_OK;
}

/* Decodes the primitive's Draco stream when it has one (and the file uses the extension). */
static kiln_result read_draco(gltf_ctx *c, prim_src *ps, const json_t *pj)
{
    json_t *ext = gltf_extension(pj, "KHR_draco_mesh_compression");
    if (!ext || !c->has_draco) return KILN_OK;
    char ptr[192];
    snprintf(ptr, sizeof ptr, "%s/extensions/KHR_draco_mesh_compression", ps->ptr);
    int32_t view;
    kiln_result r = gltf_get_index(c, ext, "bufferView", ptr, c->view_count, true, &view);
    if (r != KILN_OK) return r;
    if ((r = gltf_get_object(c, ext, "attributes", ptr, &ps->draco_attributes))) return r;
    if (!ps->draco_attributes)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "\"attributes\" is missing");
    const uint8_t *data;
    size_t size;
    if ((r = gltf_view_bytes(c, (uint32_t)view, &data, &size))) return r;
    kiln_allocator a = kiln_arena_allocator(&c->scratch);
    size_t room = c->scratch.limit ? c->scratch.limit - c->scratch.used : 0;
    if (c->scratch.limit && c->scratch.used >= c->scratch.limit) room = 1;
    if ((r = kiln_draco_decode(data, size, &a, room, &ps->draco, c->err)) != KILN_OK) {
        kiln_error_at_pointer(c->err, ptr);
        kiln_error_prefix(c->err, "%s: ", ptr);
        return r;
    }
    ps->has_draco = true;
    return KILN_OK;
}

/* KHR_materials_variants on a primitive: its mappings, each a material and the variants (at
 * the root) that select it. */
static kiln_result read_variant_mappings(gltf_ctx *c, const json_t *pj, const char *pptr,
                                         kiln_scene_primitive *p)
{
    json_t *vj = gltf_extension(pj, "KHR_materials_variants");
    if (!vj) return KILN_OK;
    char ptr[192];
    snprintf(ptr, sizeof ptr, "%s/extensions/KHR_materials_variants", pptr);
    json_t *list;
    kiln_result r = gltf_get_array(c, vj, "mappings", ptr, KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK) return r;
    size_t n = list ? json_array_size(list) : 0;
    if (!n) return KILN_OK;
    kiln_scene_variant_mapping *maps = kiln_arena_array(c->arena, n, sizeof *maps);
    if (!maps) return gltf_nomem(c, "variant mappings");
    const kiln_scene *s = c->scene;
    for (size_t i = 0; i < n; i++) {
        char mptr[224];
        snprintf(mptr, sizeof mptr, "%s/mappings/%zu", ptr, i);
        json_t *mj = json_array_get(list, i);
        if (!json_is_object(mj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, mptr, "not an object");
        json_t *vars;
        const char *name;
        if ((r = gltf_get_index(c, mj, "material", mptr, s->material_count, true,
                                &maps[i].material)) ||
            (r = gltf_get_array(c, mj, "variants", mptr, KILN_GLTF_MAX_ITEMS, &vars)) ||
            (r = gltf_get_string(c, mj, "name", mptr, &name)))
            return r;
        size_t nv = vars ? json_array_size(vars) : 0;
        if (!nv)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, mptr,
                             "\"variants\" must name at least one variant");
        uint32_t *v = kiln_arena_array(c->arena, nv, sizeof *v);
        if (!v) return gltf_nomem(c, "variant mappings");
        for (size_t k = 0; k < nv; k++) {
            json_t *e = json_array_get(vars, k);
            if (!json_is_integer(e) || json_integer_value(e) < 0 ||
                (uint64_t)json_integer_value(e) >= s->variant_count)
                return gltf_fail(c, KILN_E_IMPORT_FAILED, mptr,
                                 "\"variants\" must hold indices below %u (the variants at the "
                                 "root)",
                                 s->variant_count);
            v[k] = (uint32_t)json_integer_value(e);
        }
        maps[i].variants = v;
        maps[i].variant_count = (uint32_t)nv;
        if (name && !(maps[i].name = kiln_arena_strdup(c->arena, name)))
            return gltf_nomem(c, "a mapping name");
    }
    p->mappings = maps;
    p->mapping_count = (uint32_t)n;
    return KILN_OK;
}

static kiln_result read_primitive(gltf_ctx *c, const json_t *pj, prim_src *ps,
                                  kiln_scene_primitive *p, bool *keep)
{
    kiln_result r;
    *keep = false;
    uint64_t mode;
    int32_t indices_acc, position_acc;
    char aptr[160];
    snprintf(aptr, sizeof aptr, "%s/attributes", ps->ptr);
    ps->attr_ptr = aptr;
    if ((r = gltf_get_object(c, pj, "attributes", ps->ptr, &ps->attributes)) ||
        (r = gltf_get_uint(c, pj, "mode", ps->ptr, GLTF_NO_LIMIT, false, MODE_TRIANGLES, &mode)) ||
        (r = gltf_get_index(c, pj, "indices", ps->ptr, c->accessor_count, false, &indices_acc)) ||
        (r = gltf_get_index(c, pj, "material", ps->ptr, c->scene->material_count, false,
                            &p->material)))
        return r;
    if (!ps->attributes)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ps->ptr, "\"attributes\" is missing");
    if ((r = read_variant_mappings(c, pj, ps->ptr, p))) return r;
    if (mode > MODE_FAN) {
        char mp[112];
        snprintf(mp, sizeof mp, "%s/mode", ps->ptr);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, mp, "\"mode\" %llu is not 0..6",
                         (unsigned long long)mode);
    }
    if ((r = gltf_get_index(c, ps->attributes, "POSITION", aptr, c->accessor_count, false,
                            &position_acc)))
        return r;
    kiln_scene_stats *st = &c->scene->stats;
    st->primitives++;
    const gltf_accessor *pa = NULL, *ia = NULL;
    if (position_acc >= 0 && (r = gltf_accessor_info(c, (uint32_t)position_acc, &pa))) return r;
    if (indices_acc >= 0 && (r = gltf_accessor_info(c, (uint32_t)indices_acc, &ia))) return r;
    uint32_t n = ia ? ia->count : pa ? pa->count : 0;
    if (pa) st->vertices += pa->count;
    if (mode == MODE_TRIANGLES) st->triangles += n / 3;
    else if (mode >= MODE_STRIP && n >= 3) st->triangles += n - 2;
    if (mode < MODE_TRIANGLES) {
        st->dropped_primitives++;
        if (!kiln_scene_warn(c->scene, "%s: %s dropped (kiln keeps triangles)", ps->ptr,
                             mode_names[mode]))
            return gltf_nomem(c, "a warning");
        return KILN_OK;
    }
    if (!pa) {
        st->dropped_primitives++;
        if (!kiln_scene_warn(c->scene, "%s: no POSITION attribute; dropped", ps->ptr))
            return gltf_nomem(c, "a warning");
        return KILN_OK;
    }
    if (mode == MODE_TRIANGLES && n % 3)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ps->ptr,
                         "TRIANGLES with %u %s, not a multiple of 3", n,
                         ia ? "indices" : "vertices");
    ps->vertex_count = pa->count;
    p->vertex_count = pa->count;
    p->mode = (kiln_scene_mode)mode;
    if ((r = read_draco(c, ps, pj)) != KILN_OK) return r;
    if (ps->has_draco) {
        p->flags |= KILN_SCENE_PRIM_DRACO;
        if (ps->draco.vertex_count != pa->count)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ps->ptr,
                             "the Draco stream has %u vertices, POSITION's accessor %u",
                             ps->draco.vertex_count, pa->count);
    }

    uint32_t got;
    if ((r = attribute(c, ps, "POSITION", 3, false, &p->positions, &got)) ||
        (r = attribute(c, ps, "NORMAL", 3, false, &p->normals, &got)) ||
        (r = attribute(c, ps, "TANGENT", 4, false, &p->tangents, &got)))
        return r;
    char name[16];
    for (uint32_t s = 0; s < 8; s++) {
        snprintf(name, sizeof name, "TEXCOORD_%u", s);
        const float *uv = NULL;
        if ((r = attribute(c, ps, name, 2, false, &uv, &got))) return r;
        if (!uv) break;
        if (s >= KILN_SCENE_MAX_UV_SETS) {
            if (!kiln_scene_warn(c->scene, "%s: %s and later UV sets dropped", ps->ptr, name))
                return gltf_nomem(c, "a warning");
            break;
        }
        p->texcoords[s] = uv;
        p->texcoord_count = s + 1;
    }
    for (uint32_t s = 0; s < 8; s++) {
        snprintf(name, sizeof name, "COLOR_%u", s);
        const float *col = NULL;
        if ((r = color_attribute(c, ps, name, &col))) return r;
        if (!col) break;
        if (s >= KILN_SCENE_MAX_COLOR_SETS) {
            if (!kiln_scene_warn(c->scene, "%s: %s and later colour sets dropped", ps->ptr, name))
                return gltf_nomem(c, "a warning");
            break;
        }
        p->colors[s] = col;
        p->color_count = s + 1;
    }
    for (uint32_t s = 0; s < 8; s++) {
        char wname[16];
        snprintf(name, sizeof name, "JOINTS_%u", s);
        snprintf(wname, sizeof wname, "WEIGHTS_%u", s);
        const uint16_t *j = NULL;
        const float *w = NULL;
        if ((r = joints_attribute(c, ps, name, &j)) ||
            (r = attribute(c, ps, wname, 4, false, &w, &got)))
            return r;
        if (!j && !w) break;
        if (!j || !w)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, aptr, "%s without %s", j ? name : wname,
                             j ? wname : name);
        if (s >= KILN_SCENE_MAX_JOINT_SETS) {
            if (!kiln_scene_warn(c->scene, "%s: %s and later joint sets dropped", ps->ptr, name))
                return gltf_nomem(c, "a warning");
            break;
        }
        p->joints[s] = j;
        p->weights[s] = w;
        p->joint_set_count = s + 1;
    }

    /* Indices: from Draco, the accessor, or generated; all checked against the vertex count. */
    const uint32_t *src = NULL;
    if (ps->has_draco) {
        if (ia && ia->count != ps->draco.index_count)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ps->ptr,
                             "the Draco stream has %u indices, the indices accessor %u",
                             ps->draco.index_count, ia->count);
        src = ps->draco.indices;
        n = ps->draco.index_count;
    } else if (ia) {
        char iptr[160];
        snprintf(iptr, sizeof iptr, "%s/indices", ps->ptr);
        if (ia->components != 1)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr, "indices must be SCALAR");
        if (ia->component_type != 5121 && ia->component_type != 5123 && ia->component_type != 5125)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr,
                             "indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT");
        if ((r = gltf_accessor_uints(c, (uint32_t)indices_acc, &src))) return r;
        for (uint32_t i = 0; i < n; i++)
            if (src[i] >= p->vertex_count)
                return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr,
                                 "index %u (value %u) is not below the vertex count %u", i, src[i],
                                 p->vertex_count);
    } else {
        p->flags |= KILN_SCENE_PRIM_INDICES_GENERATED;
    }
    uint32_t *tri;
    if ((r = triangulate(c, ps, (int)mode, src, n, &tri, &p->index_count))) return r;
    p->indices = tri;

    if ((r = clean_positions(c, ps, p)) || (p->normals && (r = clean_normals(c, ps, p))) ||
        (p->tangents && (r = clean_tangents(c, ps, p))) || (r = clean_weights(c, ps, p)) ||
        (r = read_targets(c, ps, pj, p)))
        return r;
    /* Bounds once per positions array (primitives may share one). */
    const float *box = derived_find(c, DERIVED_BOUNDS, p->positions, NULL, p->vertex_count);
    if (!box) {
        float *b = kiln_arena_array(&c->scratch, 6, sizeof *b);
        if (!b) return gltf_nomem(c, "bounds");
        for (int k = 0; k < 3; k++) b[k] = b[3 + k] = p->positions[k];
        for (size_t v = 1; v < p->vertex_count; v++)
            for (int k = 0; k < 3; k++) {
                float x = p->positions[v * 3 + k];
                if (x < b[k]) b[k] = x;
                if (x > b[3 + k]) b[3 + k] = x;
            }
        if (!derived_add(c, DERIVED_BOUNDS, p->positions, NULL, p->vertex_count, b))
            return gltf_nomem(c, "bounds");
        box = b;
    }
    memcpy(p->bounds_min, box, sizeof p->bounds_min);
    memcpy(p->bounds_max, box + 3, sizeof p->bounds_max);
    *keep = true;
    return KILN_OK;
}

static kiln_result read_mesh(gltf_ctx *c, const json_t *mj, const char *ptr, kiln_scene_mesh *m)
{
    json_t *prims, *weights;
    kiln_result r;
    if ((r = gltf_get_name(c, mj, ptr, &m->name)) || (r = gltf_get_extras(c, mj, &m->extras)) ||
        (r = gltf_get_array(c, mj, "primitives", ptr, 65536, &prims)) ||
        (r = gltf_get_array(c, mj, "weights", ptr, KILN_GLTF_MAX_ITEMS, &weights)))
        return r;
    if (!prims || !json_array_size(prims))
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "\"primitives\" must hold at least one");
    size_t n = json_array_size(prims);
    kiln_scene_primitive *out = kiln_arena_array(c->arena, n, sizeof *out);
    if (!out) return gltf_nomem(c, "primitives");
    uint32_t kept = 0;
    int64_t targets = -1;
    for (size_t i = 0; i < n; i++) {
        char pptr[96];
        snprintf(pptr, sizeof pptr, "%s/primitives/%zu", ptr, i);
        json_t *pj = json_array_get(prims, i);
        if (!json_is_object(pj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, pptr, "not an object");
        prim_src ps;
        memset(&ps, 0, sizeof ps);
        ps.ptr = pptr;
        bool keep;
        /* Draco output lives in scratch memory and needs no free. */
        if ((r = read_primitive(c, pj, &ps, &out[kept], &keep))) return r;
        json_t *tj = json_object_get(pj, "targets");
        int64_t t = json_is_array(tj) ? (int64_t)json_array_size(tj) : 0;
        if (targets >= 0 && t != targets)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, pptr,
                             "%lld morph targets; the mesh's other primitives have %lld",
                             (long long)t, (long long)targets);
        targets = t;
        if (keep) kept++;
        else memset(&out[kept], 0, sizeof out[kept]);
    }
    m->primitives = out;
    m->primitive_count = kept;
    if (weights) {
        size_t wn = json_array_size(weights);
        if ((int64_t)wn != targets)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "\"weights\" has %zu values for %lld morph targets", wn,
                             (long long)targets);
        float *w = kiln_arena_array(c->arena, wn ? wn : 1, sizeof *w);
        if (!w) return gltf_nomem(c, "morph weights");
        if ((r = gltf_get_floats(c, mj, "weights", ptr, wn, w))) return r;
        m->weights = w;
        m->weight_count = (uint32_t)wn;
    }
    json_t *extras = json_object_get(mj, "extras");
    json_t *names = json_is_object(extras) ? json_object_get(extras, "targetNames") : NULL;
    if (json_is_array(names) && targets > 0 && (int64_t)json_array_size(names) == targets) {
        const char **tn = kiln_arena_array(c->arena, (size_t)targets, sizeof *tn);
        if (!tn) return gltf_nomem(c, "target names");
        for (size_t i = 0; i < (size_t)targets; i++) {
            const char *s = json_string_value(json_array_get(names, i));
            if (!(tn[i] = kiln_arena_strdup(c->arena, s ? s : "")))
                return gltf_nomem(c, "target names");
        }
        m->target_names = tn;
    }
    return KILN_OK;
}

kiln_result gltf_read_meshes(gltf_ctx *c)
{
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "meshes", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK || !list || !json_array_size(list)) return r;
    size_t n = json_array_size(list);
    kiln_scene_mesh *meshes = kiln_arena_array(c->arena, n, sizeof *meshes);
    if (!meshes) return gltf_nomem(c, "meshes");
    for (size_t i = 0; i < n; i++) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/meshes/%zu", i);
        json_t *mj = json_array_get(list, i);
        if (!json_is_object(mj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        if ((r = read_mesh(c, mj, ptr, &meshes[i])) != KILN_OK) return r;
    }
    c->scene->meshes = meshes;
    c->scene->mesh_count = (uint32_t)n;
    return KILN_OK;
}
