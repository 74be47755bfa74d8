/* fbx_legacy.c — FBX 6.x into a kiln scene with kiln's own reader (fbx_legacy.h).
 *
 * FBX 6 keeps geometry inside its Model objects and names objects by "Class::Name" strings:
 *   Objects { Model: "Model::Ball", "Mesh" { Properties60 {...}, Vertices, PolygonVertexIndex,
 *             LayerElementNormal/UV/Color/Material: i {...} }, Material: "Material::Red", "" {...},
 *             Texture: "Texture::wood", "TextureVideoClip" {...}, Deformer, Pose, GlobalSettings }
 *   Connections { Connect: "OO", child, parent  ·  "OP", child, parent, property }
 *   Takes { Take: "name" { Model: "Model::Ball" { Channel: ... } } }
 * (Blender's io_scene_fbx export_fbx.py of 2.7x writes exactly this; the FBX SDK's 6.1 files the
 * same with binary arrays.)
 *
 * The result is an assimp_doc (assimp_doc.h), filled here directly and handed to
 * kiln_assimp_build, the same code that turns assimp's output into a scene: kiln's space,
 * materials, texture lookup next to the model and every check there apply unchanged. It is made
 * in the parent, from kiln's own bounded tree, so no child process and no blob are needed. */
#define _GNU_SOURCE /* qsort_r */
#include "import/fbx_legacy.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/xform.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/hash.h"
#include "import/assimp_private.h"
#include "import/fbx_tree.h"

#define MAX_UV_LAYERS    ASSIMP_MAX_SETS /* the doc's limit; kiln keeps 4 (the builder warns) */
#define MAX_COLOR_LAYERS ASSIMP_MAX_SETS
#define MAX_NAME         65536u /* the doc's longest string */
#define MAX_WARNINGS     4096u  /* the builder keeps 256 anyway */
#define PI               3.14159265358979323846

typedef struct object {
    const kiln_fbx_node *node;
    const char *full; /* "Model::Ball" as written: connections use it */
    const char *name; /* "Ball" */
    const char *kind; /* the second value: "Mesh", "Camera", "Light", "" ... */
    int32_t parent;   /* Model objects: the parent model (object index), -1 = the root */
    bool has_parent;
    int32_t doc_node; /* doc node index, -1 when not a node */
} object;

typedef struct texref {
    uint32_t texture; /* object index of the Texture */
    uint32_t type;    /* aiTextureType */
} texref;

typedef struct legacy {
    const kiln_fbx_tree *t;
    kiln_arena *tmp;  /* the doc's own parts and the reader's scratch */
    kiln_arena *keep; /* the scene's arena: the doc's [scene] parts */
    kiln_error *err;
    assimp_doc *doc; /* what is filled */
    uint32_t warning_cap, mesh_cap;
    const kiln_fbx_node *objects, *connections;
    object *objs;
    uint32_t obj_count;
    uint32_t *sorted; /* object indices sorted by full name */
    bool skip_animations;
    bool warn_failed; /* a warning found no memory: the fill fails at its end */
} legacy;

/* ---- small helpers --------------------------------------------------------------------------- */

static kiln_result nomem(legacy *L, const char *what)
{
    if (L->tmp->over_limit || L->keep->over_limit)
        return kiln_error_set(L->err, KILN_E_LIMIT, "FBX: %s passes the memory limit", what);
    return kiln_error_set(L->err, KILN_E_OUT_OF_MEMORY, "FBX: out of memory for %s", what);
}

/* s copied into a, cut at MAX_NAME bytes; NULL when memory runs out. */
static const char *name_copy(kiln_arena *a, const char *s)
{
    size_t n = strlen(s);
    if (n > MAX_NAME) n = MAX_NAME;
    char *c = kiln_arena_alloc(a, n + 1, 1);
    if (!c) return NULL;
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* Grows an array of the arena to hold one more than count (count == *cap: doubled). */
static bool grow(kiln_arena *a, void **items, uint32_t count, uint32_t *cap, size_t size)
{
    if (count < *cap) return true;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    void *n = ncap > *cap ? kiln_arena_array(a, ncap, size) : NULL;
    if (!n) return false;
    if (count) memcpy(n, *items, (size_t)count * size);
    *items = n;
    *cap = ncap;
    return true;
}

/* A warning for the scene: the doc's list, as the child's warnings are. One that finds no
 * memory fails the whole fill at its end (warn_failed), so callers need not check. */
static void warn(legacy *L, const char *fmt, ...) KILN_PRINTF(2, 3);
static void warn(legacy *L, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    assimp_doc *d = L->doc;
    if (d->warning_count >= MAX_WARNINGS) return;
    void *items = d->warnings;
    const char *copy = NULL;
    if (!grow(L->tmp, &items, d->warning_count, &L->warning_cap, sizeof *d->warnings) ||
        !(copy = name_copy(L->tmp, text))) {
        L->warn_failed = true;
        return;
    }
    d->warnings = items;
    d->warnings[d->warning_count++] = copy;
}

static float to_f32(double v)
{
    if (!isfinite(v)) return 0.0f;
    if (v > 3e38) return 3e38f;
    if (v < -3e38) return -3e38f;
    return (float)v;
}

static int by_full_cmp(const void *x, const void *y, void *ctx)
{
    const object *o = ctx;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    int d = strcmp(o[a].full, o[b].full);
    return d ? d : (a > b) - (a < b);
}

/* The object whose full name is full, or -1. */
static int32_t find_object(const legacy *L, const char *full)
{
    uint32_t lo = 0, hi = L->obj_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(L->objs[L->sorted[mid]].full, full) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < L->obj_count && !strcmp(L->objs[L->sorted[lo]].full, full) ? (int32_t)L->sorted[lo]
                                                                           : -1;
}

static bool is_class(const object *o, const char *cls) { return !strcmp(o->node->name, cls); }

/* ---- matrices (column-major doubles)
 * ------------------------------------------------------------- */

static void m_translate(double m[16], const double t[3], double sign)
{
    kiln_mat4d_identity(m);
    m[12] = sign * t[0], m[13] = sign * t[1], m[14] = sign * t[2];
}

/* Euler angles in degrees, FBX order (0 XYZ .. 5 ZYX: the first letter is applied first). */
static void m_euler(double m[16], const double deg[3], int64_t order)
{
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0},
                                     {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    const int *o = orders[order >= 0 && order < 6 ? order : 0];
    kiln_mat4d_identity(m);
    for (int k = 0; k < 3; k++) {
        int axis = o[k];
        double a = deg[axis] * PI / 180.0, c = cos(a), s = sin(a), r[16];
        kiln_mat4d_identity(r);
        int i = (axis + 1) % 3, j = (axis + 2) % 3;
        r[i * 4 + i] = c, r[j * 4 + i] = -s;
        r[i * 4 + j] = s, r[j * 4 + j] = c;
        kiln_mat4d_mul(r, m, m);
    }
}

static void m_scale(double m[16], const double s[3])
{
    kiln_mat4d_identity(m);
    m[0] = s[0], m[5] = s[1], m[10] = s[2];
}

/* Inverse of a rotation (transpose of the 3x3). */
static void m_transpose3(double m[16])
{
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) {
            double t = m[i * 4 + j];
            m[i * 4 + j] = m[j * 4 + i];
            m[j * 4 + i] = t;
        }
}

/* General 4x4 inverse (cofactors); false when singular. */
static bool m_inverse(const double m[16], double out[16])
{
    double inv[16];
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] +
             m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] -
             m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] +
             m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] -
              m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] -
             m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] +
             m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] -
             m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] +
              m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] +
             m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] -
             m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] +
              m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] -
              m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] -
             m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] +
             m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] -
              m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] +
              m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
    double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (!(fabs(det) > 1e-300) || !isfinite(det)) return false;
    for (int i = 0; i < 16; i++) out[i] = inv[i] / det;
    return true;
}

/* A 16-number matrix child (column-major, as FBX stores it), identity when absent or short. */
static void matrix_child(const kiln_fbx_node *obj, const char *name, double out[16])
{
    kiln_fbx_values v;
    kiln_mat4d_identity(out);
    if (!kiln_fbx_values_of(kiln_fbx_child(obj, name), &v) || v.count < 16) return;
    for (size_t k = 0; k < 16; k++) {
        double x = kiln_fbx_values_f64(&v, k);
        out[k] = isfinite(x) ? x : (k % 5 == 0 ? 1 : 0);
    }
}

static void prop3(const kiln_fbx_node *obj, const char *name, double dflt, double out[3])
{
    for (uint32_t k = 0; k < 3; k++) {
        out[k] = kiln_fbx_property_number(obj, name, k, dflt);
        if (!isfinite(out[k])) out[k] = dflt;
    }
}

/* The local transform of a Model: T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1 (the FBX
 * SDK's, with pre/post rotation applied whether or not RotationActive is set). */
static void model_local_trs(const kiln_fbx_node *obj, const double *at, const double *ar,
                            const double *as, double out[16])
{
    double t[3], r[3], s[3], roff[3], rp[3], pre[3], post[3], soff[3], sp[3], m[16];
    prop3(obj, "Lcl Translation", 0, t);
    prop3(obj, "Lcl Rotation", 0, r);
    prop3(obj, "Lcl Scaling", 1, s);
    if (at) memcpy(t, at, sizeof t);
    if (ar) memcpy(r, ar, sizeof r);
    if (as) memcpy(s, as, sizeof s);
    prop3(obj, "RotationOffset", 0, roff);
    prop3(obj, "RotationPivot", 0, rp);
    prop3(obj, "PreRotation", 0, pre);
    prop3(obj, "PostRotation", 0, post);
    prop3(obj, "ScalingOffset", 0, soff);
    prop3(obj, "ScalingPivot", 0, sp);
    double order = kiln_fbx_property_number(obj, "RotationOrder", 0, 0);
    int64_t ord = order >= 0 && order < 6 ? (int64_t)order : 0;
    m_translate(out, t, 1);
    m_translate(m, roff, 1), kiln_mat4d_mul(out, m, out);
    m_translate(m, rp, 1), kiln_mat4d_mul(out, m, out);
    m_euler(m, pre, 0), kiln_mat4d_mul(out, m, out);
    m_euler(m, r, ord), kiln_mat4d_mul(out, m, out);
    m_euler(m, post, 0), m_transpose3(m), kiln_mat4d_mul(out, m, out);
    m_translate(m, rp, -1), kiln_mat4d_mul(out, m, out);
    m_translate(m, soff, 1), kiln_mat4d_mul(out, m, out);
    m_translate(m, sp, 1), kiln_mat4d_mul(out, m, out);
    m_scale(m, s), kiln_mat4d_mul(out, m, out);
    m_translate(m, sp, -1), kiln_mat4d_mul(out, m, out);
}

static void model_local(const kiln_fbx_node *obj, double out[16])
{
    model_local_trs(obj, NULL, NULL, NULL, out);
}

/* GeometricTranslation/Rotation/Scaling: moves the mesh only, not the children. */
static bool geometric(const kiln_fbx_node *obj, double out[16])
{
    double t[3], r[3], s[3], m[16];
    prop3(obj, "GeometricTranslation", 0, t);
    prop3(obj, "GeometricRotation", 0, r);
    prop3(obj, "GeometricScaling", 1, s);
    bool identity =
        !t[0] && !t[1] && !t[2] && !r[0] && !r[1] && !r[2] && s[0] == 1 && s[1] == 1 && s[2] == 1;
    m_translate(out, t, 1);
    m_euler(m, r, 0), kiln_mat4d_mul(out, m, out);
    m_scale(m, s), kiln_mat4d_mul(out, m, out);
    return !identity;
}

/* ---- objects and connections
 * ---------------------------------------------------------------------- */

static kiln_result gather_objects(legacy *L)
{
    const kiln_fbx_node *objs = L->objects;
    uint32_t n = objs ? objs->child_count : 0;
    L->objs = kiln_arena_array(L->tmp, n ? n : 1, sizeof *L->objs);
    L->sorted = kiln_arena_array(L->tmp, n ? n : 1, sizeof *L->sorted);
    if (!L->objs || !L->sorted) return nomem(L, "objects");
    for (uint32_t i = 0; i < n; i++) {
        const kiln_fbx_node *nd = &objs->children[i];
        size_t len = 0;
        const char *full = kiln_fbx_string(nd, 0, &len);
        if (!full) continue; /* GlobalSettings and other records without a name */
        object *o = &L->objs[L->obj_count];
        o->node = nd;
        o->full = full;
        o->name = kiln_fbx_object_name(full, len + 1, NULL);
        o->kind = kiln_fbx_string(nd, 1, NULL);
        if (!o->kind) o->kind = "";
        o->parent = -1;
        o->doc_node = -1;
        L->sorted[L->obj_count] = L->obj_count;
        L->obj_count++;
    }
    qsort_r(L->sorted, L->obj_count, sizeof *L->sorted, by_full_cmp, L->objs);
    return KILN_OK;
}

/* A link of a connection: child object, parent object, the texture type for textures. */
typedef struct link {
    uint32_t child, parent, type, seq;
} link;

static int link_cmp(const void *x, const void *y)
{
    const link *a = x, *b = y;
    if (a->parent != b->parent) return a->parent < b->parent ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

typedef struct links {
    link *v;
    uint32_t count, cap;
} links;

static kiln_result add_link(legacy *L, links *ls, uint32_t child, uint32_t parent, uint32_t type)
{
    if (ls->count == ls->cap) {
        uint32_t cap = ls->cap ? ls->cap * 2 : 64;
        link *nv = cap > ls->cap ? kiln_arena_array(L->tmp, cap, sizeof *nv) : NULL;
        if (!nv) return nomem(L, "connections");
        if (ls->count) memcpy(nv, ls->v, ls->count * sizeof *nv);
        ls->v = nv;
        ls->cap = cap;
    }
    ls->v[ls->count] = (link){child, parent, type, ls->count};
    ls->count++;
    return KILN_OK;
}

/* The range of links whose parent is p (ls sorted by link_cmp). */
static uint32_t links_of(const links *ls, uint32_t p, uint32_t *first)
{
    uint32_t lo = 0, hi = ls->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ls->v[mid].parent < p) lo = mid + 1;
        else hi = mid;
    }
    uint32_t end = lo;
    while (end < ls->count && ls->v[end].parent == p) end++;
    *first = lo;
    return end - lo;
}

/* aiTextureType of a material property a texture is connected to. */
static uint32_t texture_type(const char *prop)
{
    if (!prop || !*prop || !strcmp(prop, "DiffuseColor") || !strcmp(prop, "Diffuse")) return 1;
    if (!strcmp(prop, "SpecularColor") || !strcmp(prop, "Specular")) return 2;
    if (!strcmp(prop, "AmbientColor") || !strcmp(prop, "Ambient")) return 3;
    if (!strcmp(prop, "EmissiveColor") || !strcmp(prop, "Emissive")) return 4;
    if (!strcmp(prop, "Bump") || !strcmp(prop, "BumpFactor")) return 5;
    if (!strcmp(prop, "NormalMap")) return 6;
    if (!strcmp(prop, "ShininessExponent") || !strcmp(prop, "Shininess")) return 7;
    if (!strcmp(prop, "TransparentColor") || !strcmp(prop, "TransparencyFactor")) return 8;
    if (!strcmp(prop, "DisplacementColor")) return 9;
    if (!strcmp(prop, "ReflectionColor")) return 11;
    return 18; /* unknown: the builder warns */
}

typedef struct graph {
    links mats;       /* Material -> Model */
    links texs;       /* Texture -> Material (type set) */
    links tex_models; /* Texture -> Model: the model's materials get it as diffuse */
    links deformers;  /* Deformer -> Model */
    links clusters;   /* Cluster -> Skin */
    links bones;      /* bone Model -> Cluster */
    links mat_models; /* mats turned round: Model -> Material */
} graph;

static kiln_result read_connections(legacy *L, graph *g)
{
    const kiln_fbx_node *cs = L->connections;
    for (uint32_t i = 0; cs && i < cs->child_count; i++) {
        const kiln_fbx_node *c = &cs->children[i];
        if (strcmp(c->name, "Connect")) continue;
        const char *type = kiln_fbx_string(c, 0, NULL), *child = kiln_fbx_string(c, 1, NULL),
                   *parent = kiln_fbx_string(c, 2, NULL);
        if (!type || !child || !parent) continue;
        int32_t ci = find_object(L, child);
        if (ci < 0) continue;
        object *co = &L->objs[ci];
        bool scene = !strcmp(parent, "Model::Scene");
        int32_t pi = scene ? -1 : find_object(L, parent);
        if (!scene && pi < 0) continue;
        kiln_result r = KILN_OK;
        if (is_class(co, "Model")) {
            if (!co->has_parent && (scene || is_class(&L->objs[pi], "Model")) && pi != ci) {
                co->parent = pi;
                co->has_parent = true;
            } else if (pi >= 0 && is_class(&L->objs[pi], "Deformer") &&
                       !strcmp(L->objs[pi].kind, "Cluster")) {
                r = add_link(L, &g->bones, (uint32_t)ci, (uint32_t)pi, 0);
            }
        } else if (pi >= 0 && is_class(co, "Material") && is_class(&L->objs[pi], "Model")) {
            r = add_link(L, &g->mats, (uint32_t)ci, (uint32_t)pi, 0);
        } else if (pi >= 0 && is_class(co, "Texture")) {
            const object *po = &L->objs[pi];
            if (is_class(po, "Material"))
                r = add_link(
                    L, &g->texs, (uint32_t)ci, (uint32_t)pi,
                    texture_type(!strcmp(type, "OP") ? kiln_fbx_string(c, 3, NULL) : NULL));
            else if (is_class(po, "Model"))
                r = add_link(L, &g->tex_models, (uint32_t)ci, (uint32_t)pi, 1);
        } else if (pi >= 0 && is_class(co, "Deformer") && is_class(&L->objs[pi], "Model")) {
            r = add_link(L, &g->deformers, (uint32_t)ci, (uint32_t)pi, 0);
        } else if (pi >= 0 && is_class(co, "Deformer") && !strcmp(co->kind, "Cluster") &&
                   is_class(&L->objs[pi], "Deformer") && !strcmp(L->objs[pi].kind, "Skin")) {
            r = add_link(L, &g->clusters, (uint32_t)ci, (uint32_t)pi, 0);
        }
        if (r) return r;
    }
    for (uint32_t k = 0; k < g->mats.count; k++) {
        kiln_result r = add_link(L, &g->mat_models, g->mats.v[k].parent, g->mats.v[k].child, 0);
        if (r) return r;
    }
    links *all[7] = {&g->mats,     &g->texs,  &g->tex_models, &g->deformers,
                     &g->clusters, &g->bones, &g->mat_models};
    for (int k = 0; k < 7; k++)
        if (all[k]->count) qsort(all[k]->v, all[k]->count, sizeof *all[k]->v, link_cmp);
    return KILN_OK;
}

/* ---- materials
 * ------------------------------------------------------------------------------------ */

/* A colour property times its factor when the file has one (as assimp's FBX reader does); the
 * 6.x "Diffuse"/"Emissive" properties as the fallback. */
static void colour(const kiln_fbx_node *m, const char *name, const char *factor, const char *old,
                   double dflt, float out[3])
{
    uint32_t first;
    bool has = kiln_fbx_property(m, name, &first) != NULL;
    double f = has ? kiln_fbx_property_number(m, factor, 0, 1.0) : 1.0;
    for (uint32_t k = 0; k < 3; k++) {
        double v = has ? kiln_fbx_property_number(m, name, k, dflt) * f
                       : kiln_fbx_property_number(m, old, k, dflt);
        out[k] = to_f32(v);
    }
}

static const char *texture_file(const object *tex)
{
    static const char *const keys[3] = {"RelativeFilename", "FileName", "Filename"};
    for (int k = 0; k < 3; k++) {
        const char *s = kiln_fbx_string(kiln_fbx_child(tex->node, keys[k]), 0, NULL);
        if (s && *s) return s;
    }
    return NULL;
}

/* Adds a texture to m (room for it was made): UV set 0, wrap, UV mapping. */
static kiln_result add_texture(legacy *L, uint32_t type, const object *tex, assimp_doc_material *m)
{
    const char *file = texture_file(tex);
    if (!file) {
        warn(L, "texture \"%s\" names no file; not imported", tex->name);
        return KILN_OK;
    }
    assimp_doc_texture *t = &m->textures[m->texture_count];
    t->type = type, t->uv = 0, t->mode = 0;
    if (!(t->path = name_copy(L->tmp, file))) return nomem(L, "the materials");
    m->texture_count++;
    return KILN_OK;
}

/* Most textures a material takes from the models that draw with it. */
#define MAX_MODEL_TEXTURES 64u

static kiln_result fill_materials(legacy *L, const graph *g, int32_t *mat_index)
{
    for (uint32_t t = 0; t < g->tex_models.count; t++) {
        uint32_t f, model = g->tex_models.v[t].parent;
        if (!links_of(&g->mats, model, &f))
            warn(L, "texture \"%s\" of model \"%s\" not imported (the model has no material)",
                 L->objs[g->tex_models.v[t].child].name, L->objs[model].name);
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < L->obj_count; i++) {
        mat_index[i] = -1;
        if (is_class(&L->objs[i], "Material")) mat_index[i] = (int32_t)n++;
    }
    assimp_doc *d = L->doc;
    if (n && !(d->materials = kiln_arena_array(L->tmp, n, sizeof *d->materials)))
        return nomem(L, "the materials");
    d->material_count = n;
    for (uint32_t i = 0; i < L->obj_count; i++) {
        if (mat_index[i] < 0) continue;
        const object *o = &L->objs[i];
        assimp_doc_material *dm = &d->materials[mat_index[i]];
        const kiln_fbx_node *m = o->node;
        float base[3], emissive[3];
        colour(m, "DiffuseColor", "DiffuseFactor", "Diffuse", 1.0, base);
        colour(m, "EmissiveColor", "EmissiveFactor", "Emissive", 0.0, emissive);
        uint32_t first;
        float opacity = to_f32(kiln_fbx_property_number(m, "Opacity", 0, 1.0));
        double shin = kiln_fbx_property(m, "ShininessExponent", &first)
                          ? kiln_fbx_property_number(m, "ShininessExponent", 0, -1)
                          : kiln_fbx_property_number(m, "Shininess", 0, -1);
        if (!(dm->name = name_copy(L->keep, o->name))) return nomem(L, "the materials");
        dm->base[0] = base[0], dm->base[1] = base[1], dm->base[2] = base[2], dm->base[3] = 1.0f;
        memcpy(dm->emissive, emissive, sizeof emissive);
        dm->opacity = opacity;
        dm->shininess = to_f32(shin);
        dm->metallic = dm->roughness = -1.0f; /* absent */
        dm->flags = 0;
        /* Textures: connected to the material, then those of models drawing with it. */
        uint32_t f, k = links_of(&g->texs, i, &f);
        if (!(dm->textures =
                  kiln_arena_array(L->tmp, (size_t)k + MAX_MODEL_TEXTURES, sizeof *dm->textures)))
            return nomem(L, "the materials");
        kiln_result r;
        for (uint32_t t = 0; t < k; t++)
            if ((r = add_texture(L, g->texs.v[f + t].type, &L->objs[g->texs.v[f + t].child], dm)))
                return r;
        if (g->tex_models.count) {
            uint32_t seen = 0, mf, mk = links_of(&g->mat_models, i, &mf);
            for (uint32_t l = mf; l < mf + mk && seen < MAX_MODEL_TEXTURES; l++) {
                uint32_t tf, tk = links_of(&g->tex_models, g->mat_models.v[l].child, &tf);
                for (uint32_t t = 0; t < tk && seen < MAX_MODEL_TEXTURES; t++, seen++)
                    if ((r = add_texture(L, 1, &L->objs[g->tex_models.v[tf + t].child], dm)))
                        return r;
            }
        }
    }
    return KILN_OK;
}

/* ---- geometry
 * ------------------------------------------------------------------------------------- */

enum { MAP_NONE, MAP_CORNER, MAP_VERTEX, MAP_POLYGON, MAP_ALL };

typedef struct layer {
    int mapping;
    bool indexed;
    uint32_t comps;
    kiln_fbx_values data, index;
    const char *name;
} layer;

/* Opens a LayerElement* node: its mapping, reference, data values and index values. false
 * (with a warning) when it cannot be used. */
static bool layer_open(legacy *L, const object *model, const kiln_fbx_node *el,
                       const char *data_name, const char *index_name, const char *index_name2,
                       uint32_t comps, layer *out)
{
    memset(out, 0, sizeof *out);
    out->comps = comps;
    out->name = el->name;
    const char *map = kiln_fbx_string(kiln_fbx_child(el, "MappingInformationType"), 0, NULL);
    const char *ref = kiln_fbx_string(kiln_fbx_child(el, "ReferenceInformationType"), 0, NULL);
    if (!map) map = "";
    if (!ref) ref = "Direct";
    out->mapping =
        !strcmp(map, "ByPolygonVertex") ? MAP_CORNER
        : !strcmp(map, "ByVertice") || !strcmp(map, "ByVertex") || !strcmp(map, "ByControlPoint")
            ? MAP_VERTEX
        : !strcmp(map, "ByPolygon") ? MAP_POLYGON
        : !strcmp(map, "AllSame")   ? MAP_ALL
                                    : MAP_NONE;
    if (out->mapping == MAP_NONE) {
        warn(L, "mesh \"%s\": %s mapped \"%s\" not imported", model->name, el->name, map);
        return false;
    }
    if (!kiln_fbx_values_of(kiln_fbx_child(el, data_name), &out->data) || !out->data.count) {
        warn(L, "mesh \"%s\": %s without %s not imported", model->name, el->name, data_name);
        return false;
    }
    out->indexed = !strcmp(ref, "IndexToDirect") || !strcmp(ref, "Index");
    if (out->indexed && !kiln_fbx_values_of(kiln_fbx_child(el, index_name), &out->index) &&
        !(index_name2 && kiln_fbx_values_of(kiln_fbx_child(el, index_name2), &out->index))) {
        if (!strcmp(el->name, "LayerElementMaterial")) {
            out->indexed = false; /* material layers hold the indices themselves */
            return true;
        }
        warn(L, "mesh \"%s\": %s has no %s; not imported", model->name, el->name, index_name);
        return false;
    }
    if (!strcmp(el->name, "LayerElementMaterial")) out->indexed = false;
    return true;
}

/* Component values of a layer for one corner into out; false when an index is out of range. */
static bool layer_get(const layer *ly, size_t corner, size_t polygon, size_t vertex, double *out)
{
    size_t i = ly->mapping == MAP_CORNER    ? corner
               : ly->mapping == MAP_VERTEX  ? vertex
               : ly->mapping == MAP_POLYGON ? polygon
                                            : 0;
    if (ly->indexed) {
        if (i >= ly->index.count) return false;
        int64_t j = kiln_fbx_values_i64(&ly->index, i);
        if (j < 0) return false;
        i = (size_t)j;
    }
    size_t at;
    if (!kiln_size_mul(i, ly->comps, &at) || at >= ly->data.count ||
        ly->data.count - at < ly->comps)
        return false;
    for (uint32_t k = 0; k < ly->comps; k++) out[k] = kiln_fbx_values_f64(&ly->data, at + k);
    return true;
}

/* The layer elements of one kind, in the order of their index value (TypedIndex). */
static uint32_t find_layers(const kiln_fbx_node *geo, const char *name, const kiln_fbx_node **out,
                            uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < geo->child_count && n < max; i++)
        if (!strcmp(geo->children[i].name, name)) out[n++] = &geo->children[i];
    /* Insertion sort by the element's index value (at most max elements). */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0; j--) {
            int64_t a = 0, b = 0;
            kiln_fbx_integer(out[j - 1], 0, &a);
            kiln_fbx_integer(out[j], 0, &b);
            if (a <= b) break;
            const kiln_fbx_node *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

typedef struct poly {
    uint32_t start, count; /* corners */
    int32_t group;         /* material slot + 1 (0: none) */
    uint32_t index;        /* the polygon's number in the file (ByPolygon layers) */
} poly;

/* Ear clipping costs up to n^3 steps a polygon: concave polygons past this are fans. */
#define MAX_EAR_CORNERS 32u

/* Triangulates one polygon (corners cv[0..n), positions at verts + cv[k] * stride) into
 * out ((n - 2) * 3 indices): a concave polygon is ear-clipped in the plane of its Newell
 * normal, so it keeps its shape as assimp's Triangulate keeps it; a convex one (or one past
 * MAX_EAR_CORNERS, or what is left when no ear is found: degenerate polygons) is a fan.
 * work holds 2n uint32_t. */
static size_t triangulate(const float *verts, uint32_t stride, const uint32_t *cv, uint32_t n,
                          uint32_t *work, uint32_t *out)
{
    size_t k = 0;
    if (n > 3 && n <= MAX_EAR_CORNERS) {
        double nx = 0, ny = 0, nz = 0;
        for (uint32_t i = 0; i < n; i++) {
            const float *a = verts + (size_t)cv[i] * stride,
                        *b = verts + (size_t)cv[(i + 1) % n] * stride;
            nx += ((double)a[1] - b[1]) * ((double)a[2] + b[2]);
            ny += ((double)a[2] - b[2]) * ((double)a[0] + b[0]);
            nz += ((double)a[0] - b[0]) * ((double)a[1] + b[1]);
        }
        /* Project onto the plane of the largest normal component, keeping the winding. */
        int ax = fabs(nx) >= fabs(ny) && fabs(nx) >= fabs(nz) ? 0 : fabs(ny) >= fabs(nz) ? 1 : 2;
        int u = (ax + 1) % 3, w = (ax + 2) % 3;
        double sign = (ax == 0 ? nx : ax == 1 ? ny : nz) < 0 ? -1.0 : 1.0;
        bool convex = true;
        for (uint32_t i = 0; i < n && convex; i++) {
            const float *a = verts + (size_t)cv[i] * stride,
                        *b = verts + (size_t)cv[(i + 1) % n] * stride,
                        *c = verts + (size_t)cv[(i + 2) % n] * stride;
            convex = sign * (((double)b[u] - a[u]) * ((double)c[w] - a[w]) -
                             ((double)b[w] - a[w]) * ((double)c[u] - a[u])) >=
                     0;
        }
        uint32_t *ring = work, m = n;
        for (uint32_t i = 0; i < n; i++) ring[i] = i;
        uint32_t guard = 0, i = 0;
        while (!convex && m > 3 && guard < m) {
            uint32_t i0 = ring[(i + m - 1) % m], i1 = ring[i % m], i2 = ring[(i + 1) % m];
            const float *a = verts + (size_t)cv[i0] * stride, *b = verts + (size_t)cv[i1] * stride,
                        *c = verts + (size_t)cv[i2] * stride;
            double cross = sign * (((double)b[u] - a[u]) * ((double)c[w] - a[w]) -
                                   ((double)b[w] - a[w]) * ((double)c[u] - a[u]));
            bool ear = cross > 0;
            for (uint32_t j = 0; ear && j < m; j++) {
                uint32_t q = ring[j];
                if (q == i0 || q == i1 || q == i2) continue;
                const float *pt = verts + (size_t)cv[q] * stride;
                /* Inside or on the triangle a, b, c (same side of all three edges)? */
                double d1 = sign * (((double)b[u] - a[u]) * ((double)pt[w] - a[w]) -
                                    ((double)b[w] - a[w]) * ((double)pt[u] - a[u]));
                double d2 = sign * (((double)c[u] - b[u]) * ((double)pt[w] - b[w]) -
                                    ((double)c[w] - b[w]) * ((double)pt[u] - b[u]));
                double d3 = sign * (((double)a[u] - c[u]) * ((double)pt[w] - c[w]) -
                                    ((double)a[w] - c[w]) * ((double)pt[u] - c[u]));
                if (d1 >= 0 && d2 >= 0 && d3 >= 0) ear = false;
            }
            if (!ear) {
                i = (i + 1) % m;
                guard++;
                continue;
            }
            out[k++] = cv[i0], out[k++] = cv[i1], out[k++] = cv[i2];
            uint32_t at = i % m;
            memmove(ring + at, ring + at + 1, (size_t)(m - at - 1) * sizeof *ring);
            m--;
            i = at % m;
            guard = 0;
        }
        /* What is left (a triangle, or a degenerate rest): a fan. */
        for (uint32_t j = 1; j + 1 < m; j++)
            out[k++] = cv[ring[0]], out[k++] = cv[ring[j]], out[k++] = cv[ring[j + 1]];
        return k;
    }
    for (uint32_t j = 1; j + 1 < n; j++) out[k++] = cv[0], out[k++] = cv[j], out[k++] = cv[j + 1];
    return k;
}

/* The skin of a model: its clusters that name a bone (Deformer "Skin" -> clusters -> bone
 * models). */
typedef struct skin {
    uint32_t *clusters, *bones;
    uint32_t count;
} skin;

static kiln_result find_skin(legacy *L, const object *model, const graph *g, skin *sk)
{
    memset(sk, 0, sizeof *sk);
    uint32_t df, dn = links_of(&g->deformers, (uint32_t)(model - L->objs), &df);
    for (uint32_t k = 0; k < dn; k++) {
        uint32_t d = g->deformers.v[df + k].child;
        if (strcmp(L->objs[d].kind, "Skin")) continue;
        uint32_t cf, cn = links_of(&g->clusters, d, &cf);
        if (!cn) return KILN_OK;
        sk->clusters = kiln_arena_array(L->tmp, cn, sizeof *sk->clusters);
        sk->bones = kiln_arena_array(L->tmp, cn, sizeof *sk->bones);
        if (!sk->clusters || !sk->bones) return nomem(L, "a skin");
        for (uint32_t c = 0; c < cn; c++) {
            uint32_t cl = g->clusters.v[cf + c].child, bf;
            if (!links_of(&g->bones, cl, &bf)) {
                warn(L, "mesh \"%s\": cluster \"%s\" names no bone; its weights are dropped",
                     model->name, L->objs[cl].name);
                continue;
            }
            sk->clusters[sk->count] = cl;
            sk->bones[sk->count++] = g->bones.v[bf].child;
        }
        return KILN_OK; /* one skin per mesh */
    }
    return KILN_OK;
}

/* The bones of one doc mesh: for each cluster, the bone's name, the offset matrix
 * TransformLink^-1 * Transform (mesh space to bone space at bind time, as assimp's) and the
 * weights of the mesh's vertices whose control point the cluster lists. */
static kiln_result fill_bones(legacy *L, const object *model, const skin *sk, const uint32_t *vcp,
                              uint32_t vcount, size_t points, assimp_doc_mesh *m)
{
    if (!sk->count) return KILN_OK;
    /* Vertices of each control point (counting sort). */
    uint32_t *start = kiln_arena_array(L->tmp, points + 1, sizeof *start);
    uint32_t *list = kiln_arena_array(L->tmp, vcount, sizeof *list);
    uint32_t *fill = kiln_arena_array(L->tmp, points + 1, sizeof *fill);
    if (!start || !list || !fill) return nomem(L, "skin weights");
    for (uint32_t v = 0; v < vcount; v++) start[vcp[v] + 1]++;
    for (size_t p = 0; p < points; p++) start[p + 1] += start[p];
    for (uint32_t v = 0; v < vcount; v++) list[start[vcp[v]] + fill[vcp[v]]++] = v;
    if (!(m->bones = kiln_arena_array(L->tmp, sk->count, sizeof *m->bones)))
        return nomem(L, "skin weights");
    size_t bad = 0;
    for (uint32_t c = 0; c < sk->count; c++) {
        const kiln_fbx_node *cl = L->objs[sk->clusters[c]].node;
        double tr[16], tlink[16], inv[16], off[16];
        matrix_child(cl, "Transform", tr);
        matrix_child(cl, "TransformLink", tlink);
        if (!m_inverse(tlink, inv)) {
            kiln_mat4d_identity(inv);
            warn(L, "mesh \"%s\": bone \"%s\" has a singular bind matrix", model->name,
                 L->objs[sk->bones[c]].name);
        }
        kiln_mat4d_mul(inv, tr, off);
        assimp_doc_bone *bo = &m->bones[m->bone_count++];
        if (!(bo->name = name_copy(L->tmp, L->objs[sk->bones[c]].name)))
            return nomem(L, "skin weights");
        for (int k = 0; k < 16; k++) bo->offset[k] = to_f32(off[k]);
        kiln_fbx_values idx, wts;
        bool ok = kiln_fbx_values_of(kiln_fbx_child(cl, "Indexes"), &idx) &&
                  kiln_fbx_values_of(kiln_fbx_child(cl, "Weights"), &wts);
        size_t n = ok ? (idx.count < wts.count ? idx.count : wts.count) : 0;
        /* Two passes: the number of (vertex, weight) pairs, then the pairs. */
        uint32_t pairs = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t cp = kiln_fbx_values_i64(&idx, i);
            if (cp < 0 || (uint64_t)cp >= points) {
                bad++;
                continue;
            }
            uint32_t here = start[cp + 1] - start[cp];
            pairs = here < UINT32_MAX - pairs ? pairs + here : UINT32_MAX;
        }
        if (pairs && !(bo->weights = kiln_arena_array(L->tmp, pairs, sizeof *bo->weights)))
            return nomem(L, "skin weights");
        uint32_t at = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t cp = kiln_fbx_values_i64(&idx, i);
            if (cp < 0 || (uint64_t)cp >= points) continue;
            float w = to_f32(kiln_fbx_values_f64(&wts, i));
            for (uint32_t k = start[cp]; k < start[cp + 1] && at < pairs; k++, at++)
                bo->weights[at] = (assimp_doc_weight){list[k], w};
        }
        bo->weight_count = pairs;
    }
    if (bad) warn(L, "mesh \"%s\": %zu skin weights name no vertex (dropped)", model->name, bad);
    return KILN_OK;
}

#define MAX_SHAPES 1024u

/* FBX 6 blend shapes: "Shape: "name" { Indexes, Vertices, Normals }" children of the mesh model
 * (position and normal deltas per listed control point), given to every vertex made from
 * each control point; the default weight is the model's property of the shape's name
 * (percent), else 0. */
static kiln_result fill_shapes(legacy *L, const object *model, const uint32_t *vcp, uint32_t vcount,
                               size_t points, bool normals, assimp_doc_mesh *m)
{
    const kiln_fbx_node *geo = model->node;
    uint32_t n = 0;
    for (uint32_t i = 0; i < geo->child_count; i++) n += !strcmp(geo->children[i].name, "Shape");
    if (n > MAX_SHAPES) {
        warn(L, "mesh \"%s\": %u blend shapes, past %u; none imported", model->name, n, MAX_SHAPES);
        n = 0;
    }
    if (!n) return KILN_OK;
    float *dense = kiln_arena_array(L->tmp, points, 6 * sizeof *dense);
    if (!dense || !(m->targets = kiln_arena_array(L->tmp, n, sizeof *m->targets)))
        return nomem(L, "blend shapes");
    size_t bad = 0;
    for (uint32_t i = 0; i < geo->child_count; i++) {
        const kiln_fbx_node *sh = &geo->children[i];
        if (strcmp(sh->name, "Shape")) continue;
        const char *name = kiln_fbx_string(sh, 0, NULL);
        if (!name) name = "";
        kiln_fbx_values idx, dv, dn;
        bool ok = kiln_fbx_values_of(kiln_fbx_child(sh, "Indexes"), &idx) &&
                  kiln_fbx_values_of(kiln_fbx_child(sh, "Vertices"), &dv);
        bool has_n = normals && kiln_fbx_values_of(kiln_fbx_child(sh, "Normals"), &dn) &&
                     dn.count == dv.count;
        memset(dense, 0, points * 6 * sizeof *dense);
        for (size_t k = 0; ok && k < idx.count && k < dv.count / 3; k++) {
            int64_t cp = kiln_fbx_values_i64(&idx, k);
            if (cp < 0 || (uint64_t)cp >= points) {
                bad++;
                continue;
            }
            for (size_t e = 0; e < 3; e++) {
                dense[(size_t)cp * 6 + e] = to_f32(kiln_fbx_values_f64(&dv, k * 3 + e));
                if (has_n)
                    dense[(size_t)cp * 6 + 3 + e] = to_f32(kiln_fbx_values_f64(&dn, k * 3 + e));
            }
        }
        assimp_doc_target *t = &m->targets[m->target_count++];
        if (!(t->name = name_copy(L->keep, name))) return nomem(L, "blend shapes");
        t->weight = to_f32(kiln_fbx_property_number(geo, name, 0, 0.0) / 100.0);
        for (int part = 0; part < (has_n ? 2 : 1); part++) {
            float *delta = kiln_arena_array(L->keep, vcount, 3 * sizeof *delta);
            if (!delta) return nomem(L, "blend shapes");
            for (uint32_t v = 0; v < vcount; v++)
                for (size_t e = 0; e < 3; e++)
                    delta[(size_t)v * 3 + e] = dense[(size_t)vcp[v] * 6 + (size_t)part * 3 + e];
            *(part ? &t->normals : &t->positions) = delta;
        }
    }
    if (bad)
        warn(L, "mesh \"%s\": %zu blend shape entries name no vertex (dropped)", model->name, bad);
    return KILN_OK;
}

/* A float array of count * comps from the arena, filled from comps consecutive floats at
 * offset `at` of each of count records of stride floats. */
static float *column(kiln_arena *a, const float *records, uint32_t stride, uint32_t at,
                     uint32_t count, uint32_t comps)
{
    float *out = kiln_arena_array(a, count, (size_t)comps * sizeof *out);
    if (!out) return NULL;
    for (uint32_t i = 0; i < count; i++)
        memcpy(out + (size_t)i * comps, records + (size_t)i * stride + at, comps * sizeof *out);
    return out;
}

/* The doc mesh of one material group: vertex records (stride floats: position, normal, UV
 * sets, colour sets) split into the doc's arrays. */
static kiln_result add_mesh(legacy *L, const object *model, uint32_t material, const float *verts,
                            uint32_t stride, uint32_t vcount, const uint32_t *idx, size_t icount,
                            bool normals, uint32_t uvs, uint32_t cols, assimp_doc_mesh **out)
{
    assimp_doc *d = L->doc;
    void *items = d->meshes;
    if (!grow(L->tmp, &items, d->mesh_count, &L->mesh_cap, sizeof *d->meshes))
        return nomem(L, "a mesh");
    d->meshes = items;
    assimp_doc_mesh *m = &d->meshes[d->mesh_count];
    memset(m, 0, sizeof *m);
    m->material = material;
    m->vertex_count = vcount;
    m->index_count = (uint32_t)icount;
    m->uv_count = uvs;
    m->color_count = cols;
    bool ok = (m->name = name_copy(L->keep, model->name)) &&
              (m->positions = column(L->keep, verts, stride, 0, vcount, 3)) &&
              (!normals || (m->normals = column(L->keep, verts, stride, 3, vcount, 3))) &&
              (m->indices = kiln_arena_array(L->keep, icount ? icount : 1, sizeof *m->indices));
    /* Sets past what kiln keeps only have to last for the build. */
    for (uint32_t u = 0; ok && u < uvs; u++)
        ok = (m->uvs[u] = column(u < KILN_SCENE_MAX_UV_SETS ? L->keep : L->tmp, verts, stride,
                                 6 + 2 * u, vcount, 2)) != NULL;
    for (uint32_t q = 0; ok && q < cols; q++)
        ok = (m->colors[q] = column(q < KILN_SCENE_MAX_COLOR_SETS ? L->keep : L->tmp, verts, stride,
                                    6 + 2 * uvs + 4 * q, vcount, 4)) != NULL;
    if (!ok) return nomem(L, "a mesh");
    memcpy(m->indices, idx, icount * sizeof *idx);
    d->mesh_count++;
    *out = m;
    return KILN_OK;
}

/* Adds one doc mesh per material group of a model's geometry; *first and *count get the doc
 * mesh indices. */
static kiln_result fill_geometry(legacy *L, const object *model, const graph *g,
                                 const int32_t *mat_index, uint32_t *first_mesh,
                                 uint32_t *mesh_count)
{
    const kiln_fbx_node *geo = model->node;
    *first_mesh = L->doc->mesh_count;
    *mesh_count = 0;
    kiln_fbx_values pos, pvi;
    if (!kiln_fbx_values_of(kiln_fbx_child(geo, "Vertices"), &pos) ||
        !kiln_fbx_values_of(kiln_fbx_child(geo, "PolygonVertexIndex"), &pvi) || pos.count < 3 ||
        !pvi.count) {
        warn(L, "mesh \"%s\" has no polygons; not imported", model->name);
        return KILN_OK;
    }
    size_t points = pos.count / 3, corners = pvi.count;
    if (corners > UINT32_MAX / 2 || points > UINT32_MAX)
        return kiln_error_set(L->err, KILN_E_LIMIT, "FBX: mesh \"%s\" has %zu polygon corners",
                              model->name, corners);
    /* Layers: normals (first), UV sets, colour sets, materials (first). */
    const kiln_fbx_node *els[MAX_UV_LAYERS];
    layer nrm, uv[MAX_UV_LAYERS], col[MAX_COLOR_LAYERS], mat;
    bool has_nrm = false, has_mat = false;
    uint32_t uvs = 0, cols = 0;
    if (find_layers(geo, "LayerElementNormal", els, 1))
        has_nrm = layer_open(L, model, els[0], "Normals", "NormalsIndex", "NormalIndex", 3, &nrm);
    uint32_t n = find_layers(geo, "LayerElementUV", els, MAX_UV_LAYERS);
    for (uint32_t i = 0; i < n; i++)
        if (layer_open(L, model, els[i], "UV", "UVIndex", NULL, 2, &uv[uvs])) uvs++;
    n = find_layers(geo, "LayerElementColor", els, MAX_COLOR_LAYERS);
    for (uint32_t i = 0; i < n; i++)
        if (layer_open(L, model, els[i], "Colors", "ColorIndex", "ColorsIndex", 4, &col[cols]))
            cols++;
    if (find_layers(geo, "LayerElementMaterial", els, 1))
        has_mat = layer_open(L, model, els[0], "Materials", "MaterialsIndex", NULL, 1, &mat);
    /* The model's materials, in connection order. */
    uint32_t mfirst, mslots = links_of(&g->mats, (uint32_t)(model - L->objs), &mfirst);
    /* Polygons: a negative index (bitwise not) ends one. */
    poly *polys = kiln_arena_array(L->tmp, corners, sizeof *polys);
    uint32_t *group_count = kiln_arena_array(L->tmp, (size_t)mslots + 1, sizeof *group_count);
    size_t *group_corners = kiln_arena_array(L->tmp, (size_t)mslots + 1, sizeof *group_corners);
    uint32_t *group_start = kiln_arena_array(L->tmp, (size_t)mslots + 2, sizeof *group_start);
    if (!polys || !group_count || !group_corners || !group_start) return nomem(L, "polygons");
    size_t np = 0, dropped = 0, bad_index = 0, start = 0, number = 0;
    for (size_t c = 0; c < corners; c++) {
        int64_t v = kiln_fbx_values_i64(&pvi, c);
        bool end = v < 0 || c + 1 == corners;
        if (!end) continue;
        uint32_t count = (uint32_t)(c + 1 - start);
        size_t pnum = number++;
        if (count < 3) {
            dropped++;
        } else {
            int32_t group = 0;
            if (has_mat) {
                double m;
                /* A per-corner or per-vertex material layer: the polygon's first corner decides. */
                int64_t first = kiln_fbx_values_i64(&pvi, start);
                size_t cp0 = (size_t)(first < 0 ? ~first : first);
                if (layer_get(&mat, start, pnum, cp0, &m) && m >= 0 && m < mslots)
                    group = (int32_t)m + 1;
            } else if (mslots) {
                group = 1;
            }
            polys[np] = (poly){(uint32_t)start, count, group, (uint32_t)pnum};
            group_count[group]++;
            group_corners[group] += count;
            np++;
        }
        start = c + 1;
    }
    if (dropped)
        warn(L, "mesh \"%s\": %zu point and line primitives dropped (kiln cooks triangles)",
             model->name, dropped);
    double geo_m[16], nrm_m[9] = {0}; /* set below when used; zero for GCC -O3 */
    bool geo_on = geometric(geo, geo_m);
    if (geo_on) {
        /* Normals move by the inverse transpose: the cofactors of the 3x3 (scale ignored). */
        const double *a = geo_m;
        nrm_m[0] = a[5] * a[10] - a[6] * a[9], nrm_m[1] = a[6] * a[8] - a[4] * a[10],
        nrm_m[2] = a[4] * a[9] - a[5] * a[8];
        nrm_m[3] = a[2] * a[9] - a[1] * a[10], nrm_m[4] = a[0] * a[10] - a[2] * a[8],
        nrm_m[5] = a[1] * a[8] - a[0] * a[9];
        nrm_m[6] = a[1] * a[6] - a[2] * a[5], nrm_m[7] = a[2] * a[4] - a[0] * a[6],
        nrm_m[8] = a[0] * a[5] - a[1] * a[4];
    }
    uint32_t stride = 3 + 3 + 2 * uvs + 4 * cols;
    skin sk;
    kiln_result res = find_skin(L, model, g, &sk);
    if (res) return res;
    /* Normals must be whole: one corner without one drops them for the mesh (kiln computes). */
    /* Polygons ordered by group (counting sort), so each group is one pass over its own. */
    uint32_t *order = kiln_arena_array(L->tmp, np ? np : 1, sizeof *order);
    uint32_t *fill = kiln_arena_array(L->tmp, (size_t)mslots + 1, sizeof *fill);
    if (!order || !fill) return nomem(L, "polygons");
    for (uint32_t grp = 0; grp <= mslots; grp++)
        group_start[grp + 1] = group_start[grp] + group_count[grp];
    for (size_t p = 0; p < np; p++) {
        uint32_t grp = (uint32_t)polys[p].group;
        order[group_start[grp] + fill[grp]++] = (uint32_t)p;
    }
    for (uint32_t grp = 0; grp <= mslots; grp++) {
        if (!group_count[grp]) continue;
        size_t gcorners = group_corners[grp];
        float *verts = kiln_arena_array(L->tmp, gcorners, (size_t)stride * sizeof(float));
        uint32_t *idx = kiln_arena_array(L->tmp, gcorners, 3 * sizeof(uint32_t));
        size_t hcap = 16;
        while (hcap < gcorners * 2) hcap *= 2;
        uint32_t *table = kiln_arena_array(L->tmp, hcap, sizeof *table);
        uint32_t *vcp = kiln_arena_array(L->tmp, gcorners, sizeof *vcp); /* control points */
        if (!verts || !idx || !table || !vcp) return nomem(L, "vertices");
        memset(table, 0xFF, hcap * sizeof *table);
        uint32_t vcount = 0;
        size_t icount = 0;
        bool normals_ok = has_nrm;
        uint32_t *corner_vertex = kiln_arena_array(L->tmp, 3 * 64, sizeof *corner_vertex);
        size_t cv_cap = 64;
        if (!corner_vertex) return nomem(L, "vertices");
        for (uint32_t o = group_start[grp]; o < group_start[grp + 1]; o++) {
            const poly *pl = &polys[order[o]];
            size_t p = pl->index;
            if (pl->count > cv_cap) {
                while (cv_cap < pl->count) cv_cap *= 2;
                if (!(corner_vertex =
                          kiln_arena_array(L->tmp, 3 * (size_t)cv_cap, sizeof *corner_vertex)))
                    return nomem(L, "vertices");
            }
            for (uint32_t k = 0; k < pl->count; k++) {
                size_t c = (size_t)pl->start + k;
                int64_t raw = kiln_fbx_values_i64(&pvi, c);
                int64_t cp = raw < 0 ? ~raw : raw;
                float *v = verts + (size_t)vcount * stride;
                memset(v, 0, (size_t)stride * sizeof *v);
                if ((uint64_t)cp >= points) {
                    bad_index++;
                    cp = 0;
                }
                double x[4];
                for (int e = 0; e < 3; e++)
                    x[e] = kiln_fbx_values_f64(&pos, (size_t)cp * 3 + (size_t)e);
                if (geo_on) {
                    double y[3];
                    for (int e = 0; e < 3; e++)
                        y[e] = geo_m[e] * x[0] + geo_m[4 + e] * x[1] + geo_m[8 + e] * x[2] +
                               geo_m[12 + e];
                    memcpy(x, y, sizeof y);
                }
                for (int e = 0; e < 3; e++) v[e] = to_f32(x[e]);
                if (normals_ok) {
                    if (!layer_get(&nrm, c, p, (size_t)cp, x)) normals_ok = false;
                    if (geo_on) {
                        double y[3];
                        for (int e = 0; e < 3; e++)
                            y[e] = nrm_m[e * 3] * x[0] + nrm_m[e * 3 + 1] * x[1] +
                                   nrm_m[e * 3 + 2] * x[2];
                        memcpy(x, y, sizeof y);
                    }
                    for (int e = 0; e < 3; e++) v[3 + e] = to_f32(x[e]);
                }
                for (uint32_t u = 0; u < uvs; u++) {
                    if (!layer_get(&uv[u], c, p, (size_t)cp, x)) x[0] = x[1] = 0;
                    v[6 + 2 * u] = to_f32(x[0]);
                    v[6 + 2 * u + 1] = to_f32(1.0 - x[1]); /* glTF's V, as assimp's FlipUVs */
                }
                for (uint32_t q = 0; q < cols; q++) {
                    if (!layer_get(&col[q], c, p, (size_t)cp, x)) x[0] = x[1] = x[2] = x[3] = 1;
                    for (int e = 0; e < 4; e++) v[6 + 2 * uvs + 4 * q + (uint32_t)e] = to_f32(x[e]);
                }
                /* Join identical vertices (what assimp's JoinIdenticalVertices does); of one
                 * control point only, so skin weights stay exact. */
                size_t h = (size_t)(kiln_xxh3_64(v, (size_t)stride * sizeof *v) ^ (uint64_t)cp) &
                           (hcap - 1);
                uint32_t found = UINT32_MAX;
                while (table[h] != UINT32_MAX) {
                    if (vcp[table[h]] == (uint32_t)cp &&
                        !memcmp(verts + (size_t)table[h] * stride, v, (size_t)stride * sizeof *v)) {
                        found = table[h];
                        break;
                    }
                    h = (h + 1) & (hcap - 1);
                }
                if (found == UINT32_MAX) {
                    vcp[vcount] = (uint32_t)cp;
                    table[h] = found = vcount++;
                }
                corner_vertex[k] = found;
            }
            icount += triangulate(verts, stride, corner_vertex, pl->count, corner_vertex + cv_cap,
                                  idx + icount);
        }
        if (!vcount) continue;
        if (has_nrm && !normals_ok)
            warn(L, "mesh \"%s\": some corners have no normal; normals are computed", model->name);
        uint32_t material = grp && mat_index[g->mats.v[mfirst + grp - 1].child] >= 0
                                ? (uint32_t)mat_index[g->mats.v[mfirst + grp - 1].child]
                                : UINT32_MAX;
        assimp_doc_mesh *m = NULL;
        if ((res = add_mesh(L, model, material, verts, stride, vcount, idx, icount, normals_ok, uvs,
                            cols, &m)) ||
            (res = fill_bones(L, model, &sk, vcp, vcount, points, m)) ||
            (res = fill_shapes(L, model, vcp, vcount, points, normals_ok, m)))
            return res;
        (*mesh_count)++;
    }
    if (bad_index)
        warn(L, "mesh \"%s\": %zu polygon corners name no vertex (set to vertex 0)", model->name,
             bad_index);
    return KILN_OK;
}

/* ---- nodes
 * ---------------------------------------------------------------------------------------- */

static bool is_model(const object *o) { return is_class(o, "Model"); }

/* Cameras, lights and camera switchers are not imported; their models become nodes only when
 * something hangs below them. */
static const char *dropped_kind(const object *o)
{
    if (!strcmp(o->kind, "Camera")) return "camera";
    if (!strcmp(o->kind, "Light")) return "light";
    if (!strcmp(o->kind, "CameraSwitcher")) return "camera switcher";
    return NULL;
}

/* The next doc node (the array has room): its name, parent, local matrix and meshes. */
static kiln_result add_node(legacy *L, const char *name, int32_t parent, const double m[16],
                            uint32_t first_mesh, uint32_t meshes)
{
    assimp_doc_node *nd = &L->doc->nodes[L->doc->node_count];
    if (!(nd->name = name_copy(L->keep, name)) ||
        (meshes && !(nd->meshes = kiln_arena_array(L->tmp, meshes, sizeof *nd->meshes))))
        return nomem(L, "nodes");
    nd->parent = parent;
    for (int k = 0; k < 16; k++) nd->matrix[k] = to_f32(m[k]);
    for (uint32_t k = 0; k < meshes; k++) nd->meshes[k] = first_mesh + k;
    nd->mesh_count = meshes;
    L->doc->node_count++;
    return KILN_OK;
}

static kiln_result fill_meshes_and_nodes(legacy *L, const graph *g, const int32_t *mat_index)
{
    uint32_t n = L->obj_count;
    uint32_t *first = kiln_arena_array(L->tmp, n ? n : 1, sizeof *first);
    uint32_t *count = kiln_arena_array(L->tmp, n ? n : 1, sizeof *count);
    uint32_t *kids = kiln_arena_array(L->tmp, n + 1, sizeof *kids); /* child counts; [n] = root */
    bool *needed = kiln_arena_array(L->tmp, n ? n : 1, sizeof *needed);
    if (!first || !count || !kids || !needed) return nomem(L, "nodes");
    /* Meshes first (nodes refer to them). */
    for (uint32_t i = 0; i < n; i++) {
        const object *o = &L->objs[i];
        if (!is_model(o) || strcmp(o->kind, "Mesh")) continue;
        kiln_result r = fill_geometry(L, o, g, mat_index, &first[i], &count[i]);
        if (r) return r;
    }
    /* Which models are nodes: all but childless cameras and lights. */
    for (uint32_t i = 0; i < n; i++) {
        const object *o = &L->objs[i];
        if (is_model(o) && o->parent >= 0) kids[o->parent]++;
    }
    for (uint32_t i = 0; i < n; i++) {
        const object *o = &L->objs[i];
        if (!is_model(o)) continue;
        const char *kind = dropped_kind(o);
        needed[i] = !kind || kids[i];
        if (kind) warn(L, "%s \"%s\" not imported", kind, o->name);
    }
    /* Children lists (parent -1 = the root, slot n), then parents first from the root. */
    uint32_t *offset = kiln_arena_array(L->tmp, n + 2, sizeof *offset);
    uint32_t *list = kiln_arena_array(L->tmp, n ? n : 1, sizeof *list);
    uint32_t *stack = kiln_arena_array(L->tmp, n + 1, sizeof *stack);
    int32_t *doc_parent = kiln_arena_array(L->tmp, n + 1, sizeof *doc_parent);
    /* The root and at most every model. */
    L->doc->nodes = kiln_arena_array(L->tmp, (size_t)n + 1, sizeof *L->doc->nodes);
    if (!offset || !list || !stack || !doc_parent || !L->doc->nodes) return nomem(L, "nodes");
    for (uint32_t i = 0; i <= n; i++) offset[i + 1] = offset[i] + (i < n ? kids[i] : 0);
    /* The root's children go last: recount them. */
    uint32_t root_kids = 0;
    for (uint32_t i = 0; i < n; i++) root_kids += is_model(&L->objs[i]) && L->objs[i].parent < 0;
    offset[n + 1] = offset[n] + root_kids;
    uint32_t *fill = kiln_arena_array(L->tmp, n + 1, sizeof *fill);
    uint32_t *slots = kiln_arena_array(L->tmp, (size_t)offset[n + 1] + 1, sizeof *slots);
    if (!fill || !slots) return nomem(L, "nodes");
    for (uint32_t i = 0; i < n; i++) {
        const object *o = &L->objs[i];
        if (!is_model(o)) continue;
        uint32_t p = o->parent >= 0 ? (uint32_t)o->parent : n;
        slots[offset[p] + fill[p]++] = i;
    }
    (void)list;
    double id[16];
    kiln_mat4d_identity(id);
    kiln_result r = add_node(L, "RootNode", -1, id, 0, 0);
    if (r) return r;
    uint32_t top = 0;
    /* Explicit stack of objects to visit; doc_parent[i] is the doc index of i's parent. */
    for (uint32_t k = offset[n + 1]; k-- > offset[n];) {
        stack[top++] = slots[k];
        doc_parent[slots[k]] = 0;
    }
    while (top) {
        uint32_t i = stack[--top];
        object *o = &L->objs[i];
        if (o->doc_node >= 0) continue; /* cannot happen: each has one parent */
        int32_t parent = doc_parent[i];
        if (needed[i]) {
            double m[16];
            model_local(o->node, m);
            o->doc_node = (int32_t)L->doc->node_count;
            if ((r = add_node(L, o->name, parent, m, first[i], count[i]))) return r;
            parent = o->doc_node;
        }
        for (uint32_t k = offset[i + 1]; k-- > offset[i];) {
            if (top > n) break;
            stack[top++] = slots[k];
            doc_parent[slots[k]] = parent;
        }
    }
    uint32_t lost = 0;
    for (uint32_t i = 0; i < n; i++)
        lost += is_model(&L->objs[i]) && needed[i] && L->objs[i].doc_node < 0;
    if (lost) warn(L, "%u models are in a parent loop and not imported", lost);
    return KILN_OK;
}

/* ---- takes: FBX 6 animation
 * ------------------------------------------------------------------------ */

#define MAX_TAKE_KEYS 10000000u /* key times of one model's channels together */

/* One animated component: key times (seconds from the take's start) and values; step[k] holds
 * key k's value until the next key (type C). */
typedef struct fcurve {
    double *t, *v;
    bool *step;
    uint32_t n;
} fcurve;

/* The child "Channel" of n whose name value is name, or NULL. */
static const kiln_fbx_node *channel(const kiln_fbx_node *n, const char *name)
{
    for (uint32_t i = 0; n && i < n->child_count; i++) {
        const char *s = kiln_fbx_string(&n->children[i], 0, NULL);
        if (!strcmp(n->children[i].name, "Channel") && s && !strcmp(s, name))
            return &n->children[i];
    }
    return NULL;
}

/* The keys of a channel: "Key: time, value, type[, extra]..." with KeyVer 4005 types L (linear)
 * and C (constant, one letter after); other types (cubic U, TCB T) are not read: false. */
static bool read_fcurve(legacy *L, const kiln_fbx_node *ch, double start, fcurve *out,
                        const char **why)
{
    memset(out, 0, sizeof *out);
    const kiln_fbx_node *key = kiln_fbx_child(ch, "Key");
    if (!key || !key->prop_count) return true;
    uint32_t cap = key->prop_count / 3 + 1;
    out->t = kiln_arena_array(L->tmp, cap, sizeof *out->t);
    out->v = kiln_arena_array(L->tmp, cap, sizeof *out->v);
    out->step = kiln_arena_array(L->tmp, cap, sizeof *out->step);
    if (!out->t || !out->v || !out->step) {
        *why = "out of memory";
        return false;
    }
    for (uint32_t i = 0; i < key->prop_count;) {
        double t, v;
        const char *type = kiln_fbx_string(key, i + 2, NULL);
        if (!kiln_fbx_number(key, i, &t) || !kiln_fbx_number(key, i + 1, &v) || !type ||
            out->n >= cap) {
            *why = "malformed keys";
            return false;
        }
        i += 3;
        bool step = !strcmp(type, "C");
        if (step) {
            if (!kiln_fbx_string(key, i, NULL)) {
                *why = "malformed keys";
                return false;
            }
            i++;
        } else if (strcmp(type, "L")) {
            *why = "keys that are not linear or constant";
            return false;
        }
        double sec = (t - start) / KILN_FBX_TICKS_PER_SECOND;
        if (!isfinite(sec) || !isfinite(v) || (out->n && sec < out->t[out->n - 1])) {
            *why = "keys out of order";
            return false;
        }
        out->t[out->n] = sec, out->v[out->n] = v, out->step[out->n] = step;
        out->n++;
    }
    int64_t declared;
    if (kiln_fbx_integer(kiln_fbx_child(ch, "KeyCount"), 0, &declared) && declared != out->n) {
        *why = "a key count that does not match its keys";
        return false;
    }
    return true;
}

static double fcurve_at(const fcurve *c, double t)
{
    if (t <= c->t[0]) return c->v[0];
    if (t >= c->t[c->n - 1]) return c->v[c->n - 1];
    uint32_t lo = 0, hi = c->n - 1;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->t[mid] <= t) lo = mid;
        else hi = mid;
    }
    if (c->step[lo] || c->t[hi] <= c->t[lo]) return c->v[lo];
    return c->v[lo] + (c->v[hi] - c->v[lo]) * (t - c->t[lo]) / (c->t[hi] - c->t[lo]);
}

static int double_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* One model's channel of a take: its T, R and S curves sampled together at every key time
 * (and just before the key after a constant one), each time's whole local transform (pivots,
 * pre/post rotation, rotation order) split into translation, rotation and scale keys, into
 * *ch. Fills nothing (*filled false) when the model is not animated (no curve moves off its
 * rest). */
static kiln_result fill_take_model(legacy *L, const char *take, const object *o,
                                   const kiln_fbx_node *tm, double start, assimp_doc_channel *ch,
                                   bool *filled)
{
    *filled = false;
    const kiln_fbx_node *tr = channel(tm, "Transform");
    static const char *const groups[3] = {"T", "R", "S"}, *const axes[3] = {"X", "Y", "Z"};
    static const char *const props[3] = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};
    fcurve c[3][3];
    double rest[3][3];
    size_t total = 0;
    bool moves = false;
    for (int g = 0; g < 3; g++) {
        prop3(o->node, props[g], g == 2 ? 1 : 0, rest[g]);
        for (int a = 0; a < 3; a++) {
            const char *why = NULL;
            if (!read_fcurve(L, channel(channel(tr, groups[g]), axes[a]), start, &c[g][a], &why)) {
                if (!strcmp(why, "out of memory")) return nomem(L, "keys");
                warn(L, "take \"%s\": %s %s channel of \"%s\" not imported (%s)", take, groups[g],
                     axes[a], o->name, why);
                c[g][a].n = 0;
            }
            total += (size_t)c[g][a].n * 2;
            for (uint32_t k = 0; k < c[g][a].n; k++)
                /* Exporters round: a take holding the rest pose to 1e-5 is no animation. */
                moves = moves || fabs(c[g][a].v[k] - rest[g][a]) > 1e-5 * (1 + fabs(rest[g][a]));
        }
    }
    if (!moves) return KILN_OK;
    if (total > MAX_TAKE_KEYS) {
        warn(L, "take \"%s\": \"%s\" has %zu keys, past %u; not imported", take, o->name, total,
             MAX_TAKE_KEYS);
        return KILN_OK;
    }
    double *times = kiln_arena_array(L->tmp, total, sizeof *times);
    if (!times) return nomem(L, "keys");
    size_t n = 0;
    for (int g = 0; g < 3; g++)
        for (int a = 0; a < 3; a++)
            for (uint32_t k = 0; k < c[g][a].n; k++) {
                times[n++] = c[g][a].t[k];
                /* A constant key holds until just before the next one. */
                if (c[g][a].step[k] && k + 1 < c[g][a].n)
                    times[n++] = nextafter(c[g][a].t[k + 1], -INFINITY);
            }
    qsort(times, n, sizeof *times, double_cmp);
    size_t u = 0;
    for (size_t k = 0; k < n; k++)
        if (!u || times[k] != times[u - 1]) times[u++] = times[k];
    if (u > UINT32_MAX) return nomem(L, "keys");
    memset(ch, 0, sizeof *ch);
    if (!(ch->node = name_copy(L->tmp, o->name))) return nomem(L, "keys");
    for (int g = 0; g < 3; g++) {
        assimp_doc_keys *k = &ch->keys[g];
        k->count = (uint32_t)u;
        k->times = kiln_arena_array(L->tmp, u, sizeof *k->times);
        k->values = kiln_arena_array(L->tmp, u, (g == 1 ? 4 : 3) * sizeof *k->values);
        if (!k->times || !k->values) return nomem(L, "keys");
    }
    for (size_t k = 0; k < u; k++) {
        double v[3][3], m[16];
        for (int g = 0; g < 3; g++)
            for (int a = 0; a < 3; a++)
                v[g][a] = c[g][a].n ? fcurve_at(&c[g][a], times[k]) : rest[g][a];
        model_local_trs(o->node, v[0], v[1], v[2], m);
        float fm[16], t[3], q[4], sc[3];
        for (int e = 0; e < 16; e++) fm[e] = to_f32(m[e]);
        kiln_mat4_decompose_f(fm, t, q, sc);
        const float *vals[3] = {t, q, sc};
        for (int g = 0; g < 3; g++) {
            size_t w = g == 1 ? 4 : 3;
            ch->keys[g].times[k] = times[k];
            memcpy(ch->keys[g].values + k * w, vals[g], w * sizeof *vals[g]);
        }
    }
    *filled = true;
    return KILN_OK;
}

/* The animations of the doc: one per Take, with a channel per animated imported model; times
 * are in seconds (ticks_per_second 1). */
static kiln_result fill_takes(legacy *L)
{
    const kiln_fbx_node *takes = kiln_fbx_child(&L->t->root, "Takes");
    assimp_doc *d = L->doc;
    if (!takes || L->skip_animations) return KILN_OK;
    if (takes->child_count &&
        !(d->animations = kiln_arena_array(L->tmp, takes->child_count, sizeof *d->animations)))
        return nomem(L, "animations");
    for (uint32_t i = 0; i < takes->child_count; i++) {
        const kiln_fbx_node *tk = &takes->children[i];
        if (strcmp(tk->name, "Take")) continue;
        const char *name = kiln_fbx_string(tk, 0, NULL);
        if (!name) name = "";
        double start = 0, stop = 0;
        const kiln_fbx_node *lt = kiln_fbx_child(tk, "LocalTime");
        kiln_fbx_values lv;
        if (kiln_fbx_values_of(lt, &lv) && lv.count >= 2) {
            start = kiln_fbx_values_f64(&lv, 0);
            stop = kiln_fbx_values_f64(&lv, 1);
        }
        double duration =
            stop > start && isfinite(stop - start) ? (stop - start) / KILN_FBX_TICKS_PER_SECOND : 0;
        assimp_doc_animation *an = &d->animations[d->animation_count];
        if (!(an->name = name_copy(L->keep, name)) ||
            (tk->child_count &&
             !(an->channels = kiln_arena_array(L->tmp, tk->child_count, sizeof *an->channels))))
            return nomem(L, "animations");
        an->duration = duration;
        an->ticks_per_second = 1.0;
        for (uint32_t k = 0; k < tk->child_count; k++) {
            const kiln_fbx_node *tm = &tk->children[k];
            const char *full = kiln_fbx_string(tm, 0, NULL);
            if (strcmp(tm->name, "Model") || !full) continue;
            int32_t oi = find_object(L, full);
            if (oi < 0 || !is_class(&L->objs[oi], "Model") || L->objs[oi].doc_node < 0) continue;
            bool filled;
            kiln_result r = fill_take_model(L, name, &L->objs[oi], tm, start,
                                            &an->channels[an->channel_count], &filled);
            if (r) return r;
            an->channel_count += filled;
        }
        d->animation_count++;
    }
    return KILN_OK;
}

/* ---- what is not imported
 * ------------------------------------------------------------------------- */

static void warn_dropped(legacy *L, const graph *g)
{
    for (uint32_t l = 0; l < g->deformers.count; l++) {
        const object *d = &L->objs[g->deformers.v[l].child];
        const object *m = &L->objs[g->deformers.v[l].parent];
        /* Skins are imported; 6.x blend shapes are read from the mesh's Shape children. */
        if ((!strcmp(d->kind, "Skin") || !strcmp(d->kind, "BlendShape")) &&
            !strcmp(m->kind, "Mesh"))
            continue;
        warn(L, "mesh \"%s\": %s deformer \"%s\" not imported (FBX 6 %s are not read)", m->name,
             d->kind, d->name, "deformers but skins");
    }
}

/* ---- the whole
 * ------------------------------------------------------------------------------------ */

static int32_t axis(const kiln_fbx_node *gs, const char *name)
{
    uint32_t first;
    if (!gs || !kiln_fbx_property(gs, name, &first)) return -1;
    double v = kiln_fbx_property_number(gs, name, 0, -1);
    return v >= -1 && v <= 2 && v == floor(v) ? (int32_t)v : -1;
}

static kiln_result fill_doc(legacy *L)
{
    const kiln_fbx_node *root = &L->t->root;
    L->objects = kiln_fbx_child(root, "Objects");
    L->connections = kiln_fbx_child(root, "Connections");
    kiln_result r = gather_objects(L);
    if (r) return r;
    graph g;
    memset(&g, 0, sizeof g);
    if ((r = read_connections(L, &g))) return r;
    int32_t *mat_index =
        kiln_arena_array(L->tmp, L->obj_count ? L->obj_count : 1, sizeof *mat_index);
    if (!mat_index) return nomem(L, "materials");
    /* No embedded textures, and no files: textures are looked up by the builder. */
    if ((r = fill_materials(L, &g, mat_index))) return r;
    if ((r = fill_meshes_and_nodes(L, &g, mat_index))) return r;
    if ((r = fill_takes(L))) return r;
    warn_dropped(L, &g);
    if (L->warn_failed) return nomem(L, "the scene");
    /* The header: axes and unit from GlobalSettings (6.x keeps it among the objects). */
    const kiln_fbx_node *gs = kiln_fbx_child(L->objects, "GlobalSettings");
    if (!gs) gs = kiln_fbx_child(root, "GlobalSettings");
    uint32_t first;
    double unit = gs && kiln_fbx_property(gs, "UnitScaleFactor", &first)
                      ? kiln_fbx_property_number(gs, "UnitScaleFactor", 0, 0)
                      : 0;
    L->doc->format = KILN_ASSIMP_FBX;
    L->doc->unit_scale_factor = isfinite(unit) && unit > 0 ? unit : 0;
    static const char *const keys[6] = {"UpAxis",        "UpAxisSign", "FrontAxis",
                                        "FrontAxisSign", "CoordAxis",  "CoordAxisSign"};
    for (int k = 0; k < 6; k++) L->doc->axes[k] = axis(gs, keys[k]);
    return KILN_OK;
}

kiln_result kiln_fbx_legacy_import_tree(const kiln_fbx_tree *tree, const char *base_dir,
                                        const kiln_assimp_opts *opts, uint32_t flags,
                                        kiln_scene *scene, kiln_error *err)
{
    kiln_arena tmp;
    kiln_arena_init(&tmp, &kiln_scene_arena(scene)->allocator, kiln_scene_arena(scene)->limit);
    assimp_doc doc;
    memset(&doc, 0, sizeof doc);
    legacy L;
    memset(&L, 0, sizeof L);
    L.t = tree;
    L.tmp = &tmp;
    L.keep = kiln_scene_arena(scene);
    L.err = err;
    L.doc = &doc;
    L.skip_animations = opts && opts->skip_animations;
    kiln_result r = fill_doc(&L);
    kiln_assimp_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    if (r == KILN_OK) r = kiln_assimp_build(&doc, base_dir, &o, flags, scene, err);
    kiln_arena_release(&tmp);
    if (r == KILN_OK) scene->generator = "FBX 6 (kiln's own reader)";
    return r;
}

kiln_result kiln_fbx_legacy_import(const void *data, size_t size, const char *base_dir,
                                   const kiln_assimp_opts *opts, uint32_t flags, kiln_scene *scene,
                                   kiln_error *err)
{
    kiln_arena *sa = kiln_scene_arena(scene);
    kiln_fbx_limits lim = {sa->limit, 0, 0};
    kiln_fbx_tree tree;
    kiln_result r = kiln_fbx_tree_parse(data, size, &sa->allocator, &lim, &tree, err);
    if (r == KILN_OK && tree.version >= KILN_FBX_LEGACY_BELOW)
        r = kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "FBX %u is not a 6.x file",
                           tree.version);
    if (r == KILN_OK) r = kiln_fbx_legacy_import_tree(&tree, base_dir, opts, flags, scene, err);
    kiln_fbx_tree_free(&tree);
    return r;
}
