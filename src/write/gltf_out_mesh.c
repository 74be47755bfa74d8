/* gltf_out_mesh.c — the meshes of the glTF writer. Each primitive goes through the model cook's
 * passes (kiln_mesh_build without quantization or meshlets: weld, degenerate and duplicate
 * triangles, vertex cache, overdraw, fetch order, and with simplify one level of detail that
 * replaces the triangles); its attributes are then gathered from the scene's primitive through
 * the cooked mesh's source_vertices, so every stream the file had is kept, both joint sets too.
 *
 * KHR_mesh_quantization: positions become unsigned integers on a uniform grid of the mesh's box
 * (the same for all its primitives); the node that draws the mesh takes the dequantization
 * transform (gltf_out_node.c). A mesh drawn skinned, or whose morph weights are animated on a
 * node that cannot take the transform, keeps float positions. Normals and tangents become
 * normalized bytes (8 bits and less) or shorts, UVs within [0, 1] and colours normalized shorts,
 * everything else stays float; morph deltas stay float (scaled into the grid's units). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "process/mesh.h"
#include "write/gltf_out_private.h"

/* Vertex attribute storage: one view per attribute, elements 4-byte aligned (glTF 3.6.2.4). */
static int32_t put_attribute(kiln_gltf_state *st, const void *data, uint32_t count, uint32_t stride,
                             uint32_t component, bool normalized, uint32_t components,
                             const float *mn, const float *mx)
{
    int32_t view = kiln_gltf_add_view(st, data, (size_t)count * stride, KILN_GLTF_VIEW_ATTRIBUTES,
                                      stride, stride, GLTF_ARRAY_BUFFER);
    return kiln_gltf_add_accessor(st, view, component, normalized, count, components, mn, mx);
}

static float clampf(float v, float lo, float hi)
{
    if (!(v >= lo)) return lo; /* NaN too */
    return v > hi ? hi : v;
}

/* A signed normalized value on a grid of `bits` bits, stored in the range of store_max. */
static float snorm_grid(float v, uint32_t bits, float store_max)
{
    float m = (float)((1u << (bits - 1)) - 1u);
    float q = roundf(clampf(v, -1.0f, 1.0f) * m);
    return roundf(q * store_max / m);
}

static float unorm_grid(float v, uint32_t bits, float store_max)
{
    float m = (float)((1u << bits) - 1u);
    float q = roundf(clampf(v, 0.0f, 1.0f) * m);
    return roundf(q * store_max / m);
}

typedef struct prim_vertices {
    const kiln_scene_primitive *p;
    const uint32_t *src; /* output vertex -> primitive vertex */
    uint32_t count;
} prim_vertices;

/* Float attribute gathered through src (components per vertex). */
static int32_t put_float_attribute(kiln_gltf_state *st, const prim_vertices *pv, const float *data,
                                   uint32_t components, bool minmax, float scale)
{
    size_t n = (size_t)pv->count * components;
    float *tmp = kiln_alloc(st->alloc, n * sizeof(float));
    if (!tmp) return st->failed_memory = true, -1;
    for (uint32_t v = 0; v < pv->count; v++)
        for (uint32_t c = 0; c < components; c++)
            tmp[(size_t)v * components + c] = data[(size_t)pv->src[v] * components + c] * scale;
    int32_t a = kiln_gltf_add_floats(st, tmp, pv->count, components, minmax, GLTF_ARRAY_BUFFER);
    kiln_free(st->alloc, tmp, n * sizeof(float));
    return a;
}

/* Integer attribute: values (already on their grid) stored as component type. */
static int32_t put_int_attribute(kiln_gltf_state *st, const float *values, uint32_t count,
                                 uint32_t components, uint32_t component, bool normalized,
                                 bool minmax)
{
    uint32_t csize = component == GLTF_BYTE || component == GLTF_UNSIGNED_BYTE ? 1 : 2;
    uint32_t stride = (components * csize + 3) & ~3u;
    uint8_t *tmp = kiln_calloc(st->alloc, count ? count : 1, stride);
    if (!tmp) return st->failed_memory = true, -1;
    float mn[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    float mx[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < count; v++)
        for (uint32_t c = 0; c < components; c++) {
            float x = values[(size_t)v * components + c];
            if (x < mn[c]) mn[c] = x;
            if (x > mx[c]) mx[c] = x;
            uint8_t *d = tmp + (size_t)v * stride + c * csize;
            if (csize == 1) {
                int8_t s8 = (int8_t)x;
                uint8_t u8 = (uint8_t)x;
                *d = component == GLTF_BYTE ? (uint8_t)s8 : u8;
            } else {
                uint16_t u16 = component == GLTF_SHORT ? (uint16_t)(int16_t)x : (uint16_t)x;
                d[0] = (uint8_t)u16, d[1] = (uint8_t)(u16 >> 8);
            }
        }
    int32_t a = put_attribute(st, tmp, count, stride, component, normalized, components,
                              minmax ? mn : NULL, minmax ? mx : NULL);
    kiln_free(st->alloc, tmp, (size_t)(count ? count : 1) * stride);
    return a;
}

typedef struct attr_ref {
    char name[16];
    int32_t accessor;
} attr_ref;

/* Material k of the primitive's materials: its own (k = 0), then those of its
 * KHR_materials_variants mappings; -1 when k is past them or names no material. */
static int32_t prim_material(const kiln_scene *sc, const kiln_scene_primitive *p, uint32_t k)
{
    int32_t m = k == 0 ? p->material : k - 1 < p->mapping_count ? p->mappings[k - 1].material : -1;
    return m >= 0 && (uint32_t)m < sc->material_count ? m : -1;
}

/* The UV quantization of set s of the primitive: that of any of its materials quantizing it
 * (plan_texcoords gives all of them the same range), else NULL. */
static const kiln_gltf_uv_q *prim_uv_q(const kiln_gltf_state *st, const kiln_scene_primitive *p,
                                       uint32_t s)
{
    for (uint32_t k = 0; k <= p->mapping_count; k++) {
        int32_t m = prim_material(st->scene, p, k);
        if (m < 0) continue;
        const kiln_gltf_uv_q *q = &st->uv_q[(size_t)m * KILN_SCENE_MAX_UV_SETS + s];
        if (q->quantized) return q;
    }
    return NULL;
}

/* Writes the attributes of one primitive's vertices; names and accessors into refs. */
static uint32_t put_vertices(kiln_gltf_state *st, const prim_vertices *pv,
                             const kiln_gltf_mesh_q *q, attr_ref *refs)
{
    const kiln_gltf_out_opts *o = st->opts;
    const kiln_scene_primitive *p = pv->p;
    uint32_t nv = pv->count, n = 0;
    float *vals = kiln_alloc(st->alloc, (size_t)(nv ? nv : 1) * 4 * sizeof(float));
    if (!vals) {
        st->failed_memory = true;
        return 0;
    }
    /* POSITION */
    if (q->quantized) {
        float maxq = (float)((1u << (o->position_bits)) - 1u);
        for (uint32_t v = 0; v < nv; v++)
            for (int c = 0; c < 3; c++) {
                float x = p->positions[(size_t)pv->src[v] * 3 + c];
                vals[(size_t)v * 3 + c] = clampf(roundf((x - q->offset[c]) / q->scale), 0, maxq);
            }
        refs[n++] = (attr_ref){
            "POSITION", put_int_attribute(st, vals, nv, 3, GLTF_UNSIGNED_SHORT, false, true)};
        st->used_quantization = true;
    } else {
        refs[n++] = (attr_ref){"POSITION", put_float_attribute(st, pv, p->positions, 3, true, 1)};
    }
    uint32_t nbits = o->normal_bits;
    uint32_t ncomp = nbits <= 8 ? GLTF_BYTE : GLTF_SHORT;
    float nmax = nbits <= 8 ? 127.0f : 32767.0f;
    if (p->normals) {
        if (o->quantize) {
            for (uint32_t v = 0; v < nv; v++)
                for (int c = 0; c < 3; c++)
                    vals[(size_t)v * 3 + c] =
                        snorm_grid(p->normals[(size_t)pv->src[v] * 3 + c], nbits, nmax);
            refs[n++] =
                (attr_ref){"NORMAL", put_int_attribute(st, vals, nv, 3, ncomp, true, false)};
            st->used_quantization = true;
        } else {
            refs[n++] = (attr_ref){"NORMAL", put_float_attribute(st, pv, p->normals, 3, false, 1)};
        }
    }
    if (p->tangents) {
        if (o->quantize) {
            for (uint32_t v = 0; v < nv; v++) {
                const float *t = p->tangents + (size_t)pv->src[v] * 4;
                for (int c = 0; c < 3; c++) vals[(size_t)v * 4 + c] = snorm_grid(t[c], nbits, nmax);
                vals[(size_t)v * 4 + 3] = t[3] < 0 ? -nmax : nmax;
            }
            refs[n++] =
                (attr_ref){"TANGENT", put_int_attribute(st, vals, nv, 4, ncomp, true, false)};
            st->used_quantization = true;
        } else {
            refs[n++] =
                (attr_ref){"TANGENT", put_float_attribute(st, pv, p->tangents, 4, false, 1)};
        }
    }
    for (uint32_t s = 0; s < p->texcoord_count && s < KILN_SCENE_MAX_UV_SETS; s++) {
        const float *uv = p->texcoords[s];
        if (!uv) continue;
        attr_ref *r = &refs[n++];
        snprintf(r->name, sizeof r->name, "TEXCOORD_%u", s);
        bool unit = o->quantize;
        for (uint32_t v = 0; unit && v < nv; v++)
            for (int c = 0; c < 2; c++) {
                float x = uv[(size_t)pv->src[v] * 2 + c];
                if (!(x >= 0.0f && x <= 1.0f)) unit = false;
            }
        const kiln_gltf_uv_q *uq = prim_uv_q(st, p, s);
        if (uq) { /* the material's range, its transform undoes it */
            for (uint32_t v = 0; v < nv; v++)
                for (int c = 0; c < 2; c++) {
                    float x = uv[(size_t)pv->src[v] * 2 + c];
                    vals[(size_t)v * 2 + c] =
                        unorm_grid((x - uq->offset[c]) / uq->scale[c], o->texcoord_bits, 65535.0f);
                }
            r->accessor = put_int_attribute(st, vals, nv, 2, GLTF_UNSIGNED_SHORT, true, false);
            st->used_quantization = true;
        } else if (unit) {
            for (uint32_t v = 0; v < nv; v++)
                for (int c = 0; c < 2; c++)
                    vals[(size_t)v * 2 + c] =
                        unorm_grid(uv[(size_t)pv->src[v] * 2 + c], o->texcoord_bits, 65535.0f);
            r->accessor = put_int_attribute(st, vals, nv, 2, GLTF_UNSIGNED_SHORT, true, false);
            st->used_quantization = true;
        } else {
            r->accessor = put_float_attribute(st, pv, uv, 2, false, 1);
        }
    }
    for (uint32_t s = 0; s < p->color_count && s < KILN_SCENE_MAX_COLOR_SETS; s++) {
        const float *col = p->colors[s];
        if (!col) continue;
        attr_ref *r = &refs[n++];
        snprintf(r->name, sizeof r->name, "COLOR_%u", s);
        bool unit = o->quantize;
        for (uint32_t v = 0; unit && v < nv; v++)
            for (int c = 0; c < 4; c++) {
                float x = col[(size_t)pv->src[v] * 4 + c];
                if (!(x >= 0.0f && x <= 1.0f)) unit = false;
            }
        if (unit) { /* COLOR_n as normalized shorts is core glTF */
            for (uint32_t v = 0; v < nv; v++)
                for (int c = 0; c < 4; c++)
                    vals[(size_t)v * 4 + c] = roundf(col[(size_t)pv->src[v] * 4 + c] * 65535.0f);
            r->accessor = put_int_attribute(st, vals, nv, 4, GLTF_UNSIGNED_SHORT, true, false);
        } else {
            r->accessor = put_float_attribute(st, pv, col, 4, false, 1);
        }
    }
    for (uint32_t s = 0; s < p->joint_set_count && s < KILN_SCENE_MAX_JOINT_SETS; s++) {
        if (!p->joints[s] || !p->weights[s]) continue;
        uint32_t max = 0;
        for (uint32_t v = 0; v < nv; v++)
            for (int c = 0; c < 4; c++) {
                uint16_t j = p->joints[s][(size_t)pv->src[v] * 4 + c];
                vals[(size_t)v * 4 + c] = j;
                if (j > max) max = j;
            }
        attr_ref *r = &refs[n++];
        snprintf(r->name, sizeof r->name, "JOINTS_%u", s);
        r->accessor = put_int_attribute(
            st, vals, nv, 4, max < 256 ? GLTF_UNSIGNED_BYTE : GLTF_UNSIGNED_SHORT, false, false);
        r = &refs[n++];
        snprintf(r->name, sizeof r->name, "WEIGHTS_%u", s);
        if (o->quantize) { /* normalized bytes whose sum is exactly 255, as gltfpack writes */
            for (uint32_t v = 0; v < nv; v++) {
                const float *wt = p->weights[s] + (size_t)pv->src[v] * 4;
                float *qw = vals + (size_t)v * 4;
                int sum = 0, big = 0;
                for (int c = 0; c < 4; c++) {
                    qw[c] = roundf(clampf(wt[c], 0.0f, 1.0f) * 255.0f);
                    sum += (int)qw[c];
                    if (wt[c] > wt[big]) big = c;
                }
                if (sum > 0) qw[big] = clampf(qw[big] + (float)(255 - sum), 0.0f, 255.0f);
            }
            r->accessor = put_int_attribute(st, vals, nv, 4, GLTF_UNSIGNED_BYTE, true, false);
        } else {
            r->accessor = put_float_attribute(st, pv, p->weights[s], 4, false, 1);
        }
    }
    kiln_free(st->alloc, vals, (size_t)(nv ? nv : 1) * 4 * sizeof(float));
    return n;
}

static void write_attrs(kiln_json_out *j, const char *key, const attr_ref *refs, uint32_t n)
{
    kiln_json_out_object(j, key);
    for (uint32_t i = 0; i < n; i++) kiln_json_out_int(j, refs[i].name, refs[i].accessor);
    kiln_json_out_end(j);
}

/* Position deltas of a quantized mesh in grid steps: shorts when every one fits (what
 * KHR_mesh_quantization allows for morph POSITION), else floats. A morphed vertex is then off by
 * at most a step per axis (half of the base, half of the delta). */
static int32_t put_position_deltas(kiln_gltf_state *st, const prim_vertices *pv, const float *d,
                                   float pscale)
{
    size_t n = (size_t)pv->count * 3;
    float *vals = kiln_alloc(st->alloc, (n ? n : 1) * sizeof(float));
    if (!vals) return st->failed_memory = true, -1;
    bool fits = true;
    for (uint32_t v = 0; v < pv->count && fits; v++)
        for (int c = 0; c < 3; c++) {
            float x = roundf(d[(size_t)pv->src[v] * 3 + c] * pscale);
            if (!(x >= -32767.0f && x <= 32767.0f)) fits = false;
            vals[(size_t)v * 3 + c] = x;
        }
    int32_t a = fits ? put_int_attribute(st, vals, pv->count, 3, GLTF_SHORT, false, true)
                     : put_float_attribute(st, pv, d, 3, true, pscale);
    kiln_free(st->alloc, vals, (n ? n : 1) * sizeof(float));
    return a;
}

/* The morph targets of one primitive, deltas in the units of the stored positions. */
static void write_targets(kiln_gltf_state *st, kiln_json_out *j, const prim_vertices *pv,
                          const kiln_gltf_mesh_q *q)
{
    const kiln_scene_primitive *p = pv->p;
    if (!p->target_count) return;
    float pscale = q->quantized ? 1.0f / q->scale : 1.0f;
    kiln_json_out_array(j, "targets");
    for (uint32_t t = 0; t < p->target_count; t++) {
        const kiln_scene_morph_target *m = &p->targets[t];
        attr_ref refs[3];
        uint32_t n = 0;
        if (m->positions || (!m->normals && !m->tangents)) {
            int32_t a;
            if (m->positions && q->quantized) {
                a = put_position_deltas(st, pv, m->positions, pscale);
            } else if (m->positions) {
                a = put_float_attribute(st, pv, m->positions, 3, true, pscale);
            } else { /* a target must move something: zero position deltas */
                float *zero = kiln_calloc(st->alloc, (size_t)(pv->count ? pv->count : 1), 12);
                if (!zero) {
                    st->failed_memory = true;
                    a = -1;
                } else {
                    a = kiln_gltf_add_floats(st, zero, pv->count, 3, true, GLTF_ARRAY_BUFFER);
                    kiln_free(st->alloc, zero, (size_t)(pv->count ? pv->count : 1) * 12);
                }
            }
            refs[n++] = (attr_ref){"POSITION", a};
        }
        if (m->normals)
            refs[n++] = (attr_ref){"NORMAL", put_float_attribute(st, pv, m->normals, 3, false, 1)};
        if (m->tangents && p->tangents)
            refs[n++] =
                (attr_ref){"TANGENT", put_float_attribute(st, pv, m->tangents, 3, false, 1)};
        write_attrs(j, NULL, refs, n);
    }
    kiln_json_out_end(j);
}

/* Whether every node drawing unskinned mesh m can take the dequantization transform
 * (gltf_out_node.c: folded into a leaf's TRS, else a child node; a child breaks animated morph
 * weights of a node, so such a node must be a foldable leaf). */
static bool node_quantizable(const kiln_scene *sc, uint32_t m)
{
    const kiln_scene_mesh *mesh = &sc->meshes[m];
    for (uint32_t i = 0; i < mesh->primitive_count; i++)
        if (mesh->primitives[i].joint_set_count) return false;
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *node = &sc->nodes[n];
        if (node->mesh != (int32_t)m) continue;
        if (node->skin >= 0) return false;
        bool weights_animated = false, trs_animated = false;
        for (uint32_t a = 0; a < sc->animation_count; a++)
            for (uint32_t c = 0; c < sc->animations[a].channel_count; c++) {
                const kiln_scene_channel *ch = &sc->animations[a].channels[c];
                if (ch->node != n) continue;
                if (ch->path == KILN_SCENE_PATH_WEIGHTS) weights_animated = true;
                else trs_animated = true;
            }
        if (weights_animated && (node->child_count || trs_animated)) return false;
    }
    return true;
}

/* The skin every node drawing mesh m uses, or -1 (none, several, or drawn unskinned too). */
static int32_t only_skin(const kiln_scene *sc, uint32_t m)
{
    int32_t skin = -1;
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *node = &sc->nodes[n];
        if (node->mesh != (int32_t)m) continue;
        if (node->skin < 0 || (uint32_t)node->skin >= sc->skin_count) return -1;
        if (skin >= 0 && skin != node->skin) return -1;
        skin = node->skin;
    }
    return skin;
}

static void box_grow(const kiln_scene_mesh *mesh, float mn[3], float mx[3])
{
    for (uint32_t i = 0; i < mesh->primitive_count; i++) {
        const kiln_scene_primitive *p = &mesh->primitives[i];
        for (uint32_t v = 0; v < p->vertex_count; v++)
            for (int c = 0; c < 3; c++) {
                float x = p->positions[(size_t)v * 3 + c];
                if (x < mn[c]) mn[c] = x;
                if (x > mx[c]) mx[c] = x;
            }
    }
}

static void box_grid(const float mn_in[3], const float mx_in[3], uint32_t bits, kiln_gltf_mesh_q *q)
{
    float extent = 0;
    for (int c = 0; c < 3; c++) {
        float mn = mn_in[c], mx = mx_in[c];
        if (!(mn <= mx)) mn = mx = 0;
        q->offset[c] = mn;
        if (mx - mn > extent) extent = mx - mn;
    }
    q->scale = extent > 0 ? extent / (float)((1u << bits) - 1u) : 1.0f;
    q->quantized = true;
}

/* Which meshes get quantized positions and where their dequantization goes. An unskinned mesh:
 * into the nodes drawing it (node_quantizable). A skinned mesh: into the inverse bind matrices
 * of its skin (IBM' = IBM T(min) S(step); the skinned node's own transform does not apply),
 * when it is drawn with that one skin only and so is every mesh drawn with the skin (they then
 * share one box). Anything else keeps float positions. */
static void plan_positions(kiln_gltf_state *st)
{
    const kiln_scene *sc = st->scene;
    uint32_t bits = st->opts->position_bits;
    for (uint32_t m = 0; m < sc->mesh_count; m++) {
        memset(&st->mesh_q[m], 0, sizeof st->mesh_q[m]);
        st->mesh_q[m].scale = 1.0f;
    }
    if (!st->opts->quantize) return;
    for (uint32_t m = 0; m < sc->mesh_count; m++) {
        if (!node_quantizable(sc, m)) continue;
        float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
        box_grow(&sc->meshes[m], mn, mx);
        box_grid(mn, mx, bits, &st->mesh_q[m]);
    }
    for (uint32_t s = 0; s < sc->skin_count; s++) {
        bool ok = true, any = false;
        for (uint32_t n = 0; n < sc->node_count && ok; n++) {
            const kiln_scene_node *node = &sc->nodes[n];
            if (node->skin != (int32_t)s || node->mesh < 0 ||
                (uint32_t)node->mesh >= sc->mesh_count)
                continue;
            if (only_skin(sc, (uint32_t)node->mesh) != (int32_t)s) ok = false;
            any = true;
        }
        if (!ok || !any || !sc->skins[s].inverse_bind) continue;
        float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t m = 0; m < sc->mesh_count; m++)
            if (only_skin(sc, m) == (int32_t)s) box_grow(&sc->meshes[m], mn, mx);
        box_grid(mn, mx, bits, &st->skin_q[s]);
        st->skin_q[s].skinned = true;
        for (uint32_t m = 0; m < sc->mesh_count; m++)
            if (only_skin(sc, m) == (int32_t)s) st->mesh_q[m] = st->skin_q[s];
    }
}

/* One primitive through the mesh passes: the triangles and, per output vertex, the source
 * vertex. Returns false (nothing allocated) when it has no triangle left. */
static kiln_result build_prim(kiln_gltf_state *st, const kiln_scene_mesh *mesh,
                              const kiln_scene_primitive *p, uint32_t **tris, uint32_t *tri_count3,
                              uint32_t **src, uint32_t *vcount, kiln_error *err)
{
    const kiln_gltf_out_opts *o = st->opts;
    kiln_mesh_build_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.optimize = !o->no_optimize;
    bo.overdraw_threshold = o->no_optimize ? 0.0f : 1.05f;
    bo.no_meshlets = true;
    bo.morph_weights = mesh->weight_count ? mesh->weights : NULL;
    bo.morph_weight_count = mesh->weights ? mesh->weight_count : 0;
    if (o->simplify > 0.0f && o->simplify < 1.0f) {
        bo.lod_count = 1;
        bo.lods[0] = o->simplify;
        bo.lod_error = o->simplify_error > 0.0f ? o->simplify_error : 0.01f;
        bo.lod_min_triangles = 1;
    }
    kiln_cooked_mesh cm;
    kiln_result r = kiln_mesh_build(p, &bo, st->alloc, &cm, err);
    if (r != KILN_OK) {
        kiln_cooked_mesh_free(&cm);
        return r;
    }
    const kiln_mesh_lod *lvl = &cm.levels[cm.level_count ? cm.level_count - 1 : 0];
    uint32_t ni = cm.level_count ? lvl->index_count : 0;
    *tris = NULL, *src = NULL, *tri_count3 = 0, *vcount = 0;
    if (ni == 0 || cm.vertex_count == 0) {
        kiln_cooked_mesh_free(&cm);
        return KILN_OK;
    }
    uint32_t *idx = kiln_alloc(st->alloc, (size_t)ni * sizeof(uint32_t));
    uint32_t *remap = kiln_alloc(st->alloc, (size_t)cm.vertex_count * sizeof(uint32_t));
    uint32_t *vs = kiln_alloc(st->alloc, (size_t)cm.vertex_count * sizeof(uint32_t));
    if (!idx || !remap || !vs) {
        kiln_free(st->alloc, idx, (size_t)ni * sizeof(uint32_t));
        kiln_free(st->alloc, remap, (size_t)cm.vertex_count * sizeof(uint32_t));
        kiln_free(st->alloc, vs, (size_t)cm.vertex_count * sizeof(uint32_t));
        kiln_cooked_mesh_free(&cm);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory for a mesh");
    }
    /* The level's vertices in first-use order (level 0 uses all of them already in that order
     * after the fetch pass; a simplified level uses a subset). */
    memset(remap, 0xff, (size_t)cm.vertex_count * sizeof(uint32_t));
    uint32_t nv = 0;
    const uint32_t *in = cm.indices + lvl->index_offset;
    for (uint32_t i = 0; i < ni; i++) {
        uint32_t v = in[i];
        if (remap[v] == UINT32_MAX) {
            remap[v] = nv;
            vs[nv++] = cm.source_vertices[v];
        }
        idx[i] = remap[v];
    }
    kiln_free(st->alloc, remap, (size_t)cm.vertex_count * sizeof(uint32_t));
    /* vs keeps its full size for the free below: the caller frees vcount_cap = vertex_count. */
    *tris = idx, *tri_count3 = ni, *src = vs, *vcount = nv;
    uint32_t cap = cm.vertex_count;
    kiln_cooked_mesh_free(&cm);
    /* Shrink vs to nv so the caller frees with nv. */
    if (nv != cap) {
        uint32_t *shrunk = kiln_realloc(st->alloc, vs, (size_t)cap * sizeof(uint32_t),
                                        (size_t)nv * sizeof(uint32_t));
        if (!shrunk) {
            kiln_free(st->alloc, vs, (size_t)cap * sizeof(uint32_t));
            kiln_free(st->alloc, idx, (size_t)ni * sizeof(uint32_t));
            *tris = NULL, *src = NULL;
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
        }
        *src = shrunk;
    }
    return KILN_OK;
}

static int32_t put_indices(kiln_gltf_state *st, const uint32_t *idx, uint32_t count, uint32_t nv)
{
    bool small = nv <= 65535;
    size_t size = small ? 2 : 4;
    uint8_t *tmp = kiln_alloc(st->alloc, (size_t)count * size);
    if (!tmp) return st->failed_memory = true, -1;
    for (uint32_t i = 0; i < count; i++) {
        if (small) {
            uint16_t s = (uint16_t)idx[i];
            memcpy(tmp + (size_t)i * 2, &s, 2);
        } else {
            memcpy(tmp + (size_t)i * 4, &idx[i], 4);
        }
    }
    int32_t view = kiln_gltf_add_view(st, tmp, (size_t)count * size, KILN_GLTF_VIEW_TRIANGLES,
                                      (uint32_t)size, 0, GLTF_ELEMENT_ARRAY_BUFFER);
    kiln_free(st->alloc, tmp, (size_t)count * size);
    return kiln_gltf_add_accessor(st, view, small ? GLTF_UNSIGNED_SHORT : GLTF_UNSIGNED_INT, false,
                                  count, 1, NULL, NULL);
}

/* Streams nothing reads are not written, as gltfpack does without -kv and as the model cook
 * does: tangents (and their morph deltas) without a normal map (clearcoat normal, anisotropy
 * count), UV sets past the last one a texture of the material reads (all of them when it reads
 * none; the materials of the variants count as well). They would also keep apart vertices the weld
 * could merge. targets receives the morph targets when deltas go (capacity p->target_count). */
static void drop_unused_streams(const kiln_scene *sc, kiln_scene_primitive *p,
                                kiln_scene_morph_target *targets)
{
    uint32_t uv_sets = 0;
    bool normal_map = false;
    for (uint32_t k = 0; k <= p->mapping_count; k++) {
        int32_t m = prim_material(sc, p, k);
        for (int slot = 0; m >= 0 && slot < KILN_SCENE_SLOT_COUNT; slot++) {
            const kiln_scene_texture_ref *t = &sc->materials[m].textures[slot];
            if (t->texture < 0) continue;
            if (t->texcoord + 1 > uv_sets) uv_sets = t->texcoord + 1;
            if (slot == KILN_SCENE_SLOT_NORMAL || slot == KILN_SCENE_SLOT_CLEARCOAT_NORMAL ||
                slot == KILN_SCENE_SLOT_ANISOTROPY)
                normal_map = true;
        }
    }
    if (uv_sets < p->texcoord_count) p->texcoord_count = uv_sets;
    for (uint32_t k = p->texcoord_count; k < KILN_SCENE_MAX_UV_SETS; k++) p->texcoords[k] = NULL;
    if (normal_map || !p->tangents) return;
    p->tangents = NULL;
    for (uint32_t t = 0; t < p->target_count; t++) {
        targets[t] = p->targets[t];
        targets[t].tangents = NULL;
    }
    if (p->target_count) p->targets = targets;
}

/* Which materials' UV sets leave [0, 1] and get quantized over their range (kiln_gltf_uv_q):
 * the range of every primitive drawn with the material, when a kept texture of the material
 * reads the set (else nothing could carry the transform, and the set stays float). A primitive
 * with KHR_materials_variants stores one UV set for all its materials, so their ranges are
 * merged until every material of such a primitive has the same range. */
/* Gives every material of a primitive with variants the union of their UV ranges (min in
 * offset, max in scale for now), repeated until nothing grows: ranges only grow, so this ends. */
static void merge_variant_ranges(kiln_gltf_state *st)
{
    const kiln_scene *sc = st->scene;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t m = 0; m < sc->mesh_count; m++)
            for (uint32_t i = 0; i < sc->meshes[m].primitive_count; i++) {
                const kiln_scene_primitive *p = &sc->meshes[m].primitives[i];
                if (!p->mapping_count) continue;
                for (uint32_t s = 0; s < KILN_SCENE_MAX_UV_SETS; s++) {
                    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
                    for (uint32_t k = 0; k <= p->mapping_count; k++) {
                        int32_t mat = prim_material(sc, p, k);
                        if (mat < 0) continue;
                        const kiln_gltf_uv_q *q =
                            &st->uv_q[(size_t)mat * KILN_SCENE_MAX_UV_SETS + s];
                        for (int c = 0; c < 2; c++) {
                            if (q->offset[c] < lo[c]) lo[c] = q->offset[c];
                            if (q->scale[c] > hi[c]) hi[c] = q->scale[c];
                        }
                    }
                    for (uint32_t k = 0; k <= p->mapping_count; k++) {
                        int32_t mat = prim_material(sc, p, k);
                        if (mat < 0) continue;
                        kiln_gltf_uv_q *q = &st->uv_q[(size_t)mat * KILN_SCENE_MAX_UV_SETS + s];
                        for (int c = 0; c < 2; c++) {
                            if (q->offset[c] != lo[c] || q->scale[c] != hi[c]) grew = true;
                            q->offset[c] = lo[c];
                            q->scale[c] = hi[c];
                        }
                    }
                }
            }
    }
}

static void plan_texcoords(kiln_gltf_state *st)
{
    const kiln_scene *sc = st->scene;
    if (!st->opts->quantize || !sc->material_count) return;
    size_t n = (size_t)sc->material_count * KILN_SCENE_MAX_UV_SETS;
    for (size_t i = 0; i < n; i++) {
        st->uv_q[i].offset[0] = st->uv_q[i].offset[1] = INFINITY;
        st->uv_q[i].scale[0] = st->uv_q[i].scale[1] = -INFINITY; /* the maximum, for now */
    }
    for (uint32_t m = 0; m < sc->mesh_count; m++)
        for (uint32_t i = 0; i < sc->meshes[m].primitive_count; i++) {
            const kiln_scene_primitive *p = &sc->meshes[m].primitives[i];
            for (uint32_t k = 0; k <= p->mapping_count; k++) {
                int32_t mat = prim_material(sc, p, k);
                for (uint32_t s = 0;
                     mat >= 0 && s < p->texcoord_count && s < KILN_SCENE_MAX_UV_SETS; s++) {
                    kiln_gltf_uv_q *q = &st->uv_q[(size_t)mat * KILN_SCENE_MAX_UV_SETS + s];
                    const float *uv = p->texcoords[s];
                    for (uint32_t v = 0; uv && v < p->vertex_count; v++)
                        for (int c = 0; c < 2; c++) {
                            float x = uv[(size_t)v * 2 + c];
                            if (!isfinite(x)) continue;
                            if (x < q->offset[c]) q->offset[c] = x;
                            if (x > q->scale[c]) q->scale[c] = x;
                        }
                }
            }
        }
    merge_variant_ranges(st);
    for (uint32_t m = 0; m < sc->material_count; m++)
        for (uint32_t s = 0; s < KILN_SCENE_MAX_UV_SETS; s++) {
            kiln_gltf_uv_q *q = &st->uv_q[(size_t)m * KILN_SCENE_MAX_UV_SETS + s];
            bool read = false;
            for (int slot = 0; slot < KILN_SCENE_SLOT_COUNT; slot++) {
                const kiln_scene_texture_ref *t = &sc->materials[m].textures[slot];
                if (t->texture >= 0 && (uint32_t)t->texture < sc->texture_count &&
                    st->texture_map[t->texture] >= 0 && t->texcoord == s)
                    read = true;
            }
            bool seen = q->offset[0] <= q->scale[0] && q->offset[1] <= q->scale[1];
            bool unit = seen && q->offset[0] >= 0 && q->offset[1] >= 0 && q->scale[0] <= 1 &&
                        q->scale[1] <= 1;
            if (!seen || unit || !read) {
                memset(q, 0, sizeof *q);
                continue;
            }
            for (int c = 0; c < 2; c++) {
                float range = q->scale[c] - q->offset[c];
                q->scale[c] = range > 0 ? range : 1.0f;
            }
            q->quantized = true;
            st->used_texture_transform = true;
        }
}

/* The primitive's KHR_materials_variants mappings, those naming a material and a variant. */
static void write_mappings(const kiln_scene *sc, kiln_json_out *j, const kiln_scene_primitive *p)
{
    bool open = false;
    for (uint32_t k = 1; k <= p->mapping_count; k++) {
        const kiln_scene_variant_mapping *mp = &p->mappings[k - 1];
        int32_t mat = prim_material(sc, p, k);
        uint32_t kept = 0;
        for (uint32_t v = 0; v < mp->variant_count; v++)
            if (mp->variants[v] < sc->variant_count) kept++;
        if (mat < 0 || !kept) continue;
        if (!open) {
            kiln_json_out_object(j, "extensions");
            kiln_json_out_object(j, "KHR_materials_variants");
            kiln_json_out_array(j, "mappings");
            open = true;
        }
        kiln_json_out_object(j, NULL);
        kiln_json_out_int(j, "material", mat);
        kiln_json_out_array(j, "variants");
        for (uint32_t v = 0; v < mp->variant_count; v++)
            if (mp->variants[v] < sc->variant_count) kiln_json_out_int(j, NULL, mp->variants[v]);
        kiln_json_out_end(j);
        if (mp->name && *mp->name) kiln_json_out_string(j, "name", mp->name);
        kiln_json_out_end(j);
    }
    if (open) {
        kiln_json_out_end(j);
        kiln_json_out_end(j);
        kiln_json_out_end(j);
    }
}

kiln_result kiln_gltf_write_meshes(kiln_gltf_state *st, kiln_error *err)
{
    const kiln_scene *sc = st->scene;
    kiln_gltf_out *out = st->out;
    kiln_json_out j;
    kiln_json_out_init_elements(&j, &st->meshes_json);
    plan_positions(st);
    plan_texcoords(st);
    int32_t next = 0;
    for (uint32_t m = 0; m < sc->mesh_count; m++) {
        const kiln_scene_mesh *mesh = &sc->meshes[m];
        const kiln_gltf_mesh_q *q = &st->mesh_q[m];
        st->mesh_map[m] = -1;
        bool open = false;
        for (uint32_t i = 0; i < mesh->primitive_count; i++) {
            kiln_scene_primitive pc = mesh->primitives[i];
            const kiln_scene_primitive *p = &pc;
            out->source_vertices += p->vertex_count;
            out->source_triangles += p->index_count / 3;
            size_t targets_size = (size_t)(p->target_count + 1) * sizeof(kiln_scene_morph_target);
            kiln_scene_morph_target *targets = NULL;
            if (!st->opts->keep_attributes) {
                targets = kiln_alloc(st->alloc, targets_size);
                if (!targets)
                    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
                drop_unused_streams(sc, &pc, targets);
            }
            uint32_t *idx = NULL, *src = NULL, ni = 0, nv = 0;
            kiln_result r = build_prim(st, mesh, p, &idx, &ni, &src, &nv, err);
            if (r != KILN_OK || ni == 0) kiln_free(st->alloc, targets, targets_size);
            if (r != KILN_OK) {
                kiln_error_prefix(err, "mesh %u primitive %u: ", m, i);
                return r;
            }
            if (ni == 0) continue;
            if (!open) {
                kiln_json_out_object(&j, NULL);
                if (mesh->name && *mesh->name) kiln_json_out_string(&j, "name", mesh->name);
                kiln_json_out_array(&j, "primitives");
                open = true;
            }
            prim_vertices pv = {p, src, nv};
            attr_ref refs[4 + KILN_SCENE_MAX_UV_SETS + KILN_SCENE_MAX_COLOR_SETS +
                          2 * KILN_SCENE_MAX_JOINT_SETS];
            uint32_t nref = put_vertices(st, &pv, q, refs);
            kiln_json_out_object(&j, NULL);
            write_attrs(&j, "attributes", refs, nref);
            kiln_json_out_int(&j, "indices", put_indices(st, idx, ni, nv));
            if (p->material >= 0 && (uint32_t)p->material < sc->material_count)
                kiln_json_out_int(&j, "material", p->material);
            write_targets(st, &j, &pv, q);
            write_mappings(sc, &j, p);
            kiln_json_out_end(&j);
            out->vertices += nv;
            out->triangles += ni / 3;
            out->primitives++;
            kiln_free(st->alloc, idx, (size_t)ni * sizeof(uint32_t));
            kiln_free(st->alloc, src, (size_t)nv * sizeof(uint32_t));
            kiln_free(st->alloc, targets, targets_size);
            if (st->failed_memory)
                return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory");
        }
        if (!open) continue;
        kiln_json_out_end(&j); /* primitives */
        if (mesh->weights && mesh->weight_count)
            kiln_json_out_floats(&j, "weights", mesh->weights, mesh->weight_count);
        uint32_t targets = mesh->primitive_count ? mesh->primitives[0].target_count : 0;
        if (mesh->extras && kiln_json_out_raw(&j, "extras", mesh->extras)) {
            /* targetNames, when there are any, are part of them */
        } else if (mesh->target_names && targets) {
            if (mesh->extras) out->extras_dropped++;
            kiln_json_out_object(&j, "extras");
            kiln_json_out_array(&j, "targetNames");
            for (uint32_t t = 0; t < targets; t++)
                kiln_json_out_string(&j, NULL, mesh->target_names[t]);
            kiln_json_out_end(&j);
            kiln_json_out_end(&j);
        }
        kiln_json_out_end(&j);
        st->mesh_map[m] = next++;
    }
    out->meshes = (uint32_t)next;
    return st->failed_memory ? kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "glTF out: out of memory")
                             : KILN_OK;
}
