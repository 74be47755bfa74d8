/* fbx_blend.c — FBX 7.x blend shapes onto meshes assimp imported (fbx_blend.h).
 *
 * FBX 7 objects carry an int64 id; Connections ("C": "OO", child, parent) link a BlendShape
 * deformer to its mesh Geometry (whose parent is the Model), BlendShapeChannel deformers to the
 * BlendShape, and Shape geometries to each channel. A Shape holds Indexes (control points) and
 * Vertices (position deltas, 3 per index), optionally Normals (deltas). assimp's vertices are
 * control points split by normals and UVs, so each is mapped back by its exact position (assimp
 * converts the file's doubles to floats, as done here); only a one-to-one match is used. */
#define _GNU_SOURCE /* memmem, qsort_r */
#include "import/fbx_blend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "import/assimp_private.h"
#include "import/fbx_tree.h"
#include "import/scene_build.h"

/* Bounds on the work of one file. */
#define MAX_CHANNELS  1024u
#define MAX_DEFORMERS 256u

typedef struct obj7 {
    int64_t id;
    const kiln_fbx_node *n;
    const char *name, *kind;
} obj7;

typedef struct conn {
    uint32_t child, parent;
    const char *prop; /* "OP" connections: the property; NULL for "OO" */
} conn;

typedef struct blend {
    kiln_scene *s;
    kiln_arena *a; /* the scene's */
    kiln_arena tmp;
    kiln_error *err;
    const kiln_assimp_opts *opts;
    obj7 *objs;
    uint32_t obj_count;
    conn *conns;
    uint32_t conn_count;
    /* Connection indices grouped by child and by parent object, each group in file order:
     * object i's are at [start[i], start[i + 1]). */
    uint32_t *child_start, *child_conns, *parent_start, *parent_conns;
} blend;

static kiln_result nomem(blend *b, const char *what)
{
    if (b->tmp.over_limit)
        return kiln_error_set(b->err, KILN_E_LIMIT, "FBX blend shapes: %s pass the memory limit",
                              what);
    return kiln_scene_alloc_error(b->s, b->err, what);
}

static int id_cmp(const void *x, const void *y)
{
    const obj7 *a = x, *c = y;
    return (a->id > c->id) - (a->id < c->id);
}

static int32_t by_id(const blend *b, int64_t id)
{
    uint32_t lo = 0, hi = b->obj_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->objs[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < b->obj_count && b->objs[lo].id == id ? (int32_t)lo : -1;
}

static bool is(const obj7 *o, const char *cls, const char *kind)
{
    return !strcmp(o->n->name, cls) && (!kind || !strcmp(o->kind, kind));
}

/* q over the connections whose parent is object i, in file order: b->conns[b->parent_conns[q]]. */
#define EACH_CHILD_CONN(b, i, q)                                                                   \
    (uint32_t q = (b)->parent_start[i]; q < (b)->parent_start[(i) + 1]; q++)

/* The first parent of object i (by OO connection) of class cls and kind, or -1. */
static int32_t parent_of(const blend *b, uint32_t i, const char *cls, const char *kind)
{
    for (uint32_t q = b->child_start[i]; q < b->child_start[i + 1]; q++) {
        const conn *c = &b->conns[b->child_conns[q]];
        if (!c->prop && is(&b->objs[c->parent], cls, kind)) return (int32_t)c->parent;
    }
    return -1;
}

/* Groups the connections by child and by parent (counting sort, stable), so that each lookup
 * walks only its object's connections: walking them all per channel made a file with many
 * channels and connections quadratic. */
static kiln_result index_conns(blend *b)
{
    size_t n = (size_t)b->obj_count + 1, m = b->conn_count ? b->conn_count : 1;
    b->child_start = kiln_arena_array(&b->tmp, n + 1, sizeof *b->child_start);
    b->parent_start = kiln_arena_array(&b->tmp, n + 1, sizeof *b->parent_start);
    b->child_conns = kiln_arena_array(&b->tmp, m, sizeof *b->child_conns);
    b->parent_conns = kiln_arena_array(&b->tmp, m, sizeof *b->parent_conns);
    uint32_t *cfill = kiln_arena_array(&b->tmp, n, sizeof *cfill);
    uint32_t *pfill = kiln_arena_array(&b->tmp, n, sizeof *pfill);
    if (!b->child_start || !b->parent_start || !b->child_conns || !b->parent_conns || !cfill ||
        !pfill)
        return nomem(b, "connections");
    for (uint32_t k = 0; k < b->conn_count; k++) {
        b->child_start[b->conns[k].child + 1]++;
        b->parent_start[b->conns[k].parent + 1]++;
    }
    for (uint32_t i = 0; i < b->obj_count; i++) {
        b->child_start[i + 1] += b->child_start[i];
        b->parent_start[i + 1] += b->parent_start[i];
    }
    for (uint32_t k = 0; k < b->conn_count; k++) {
        uint32_t c = b->conns[k].child, p = b->conns[k].parent;
        b->child_conns[b->child_start[c] + cfill[c]++] = k;
        b->parent_conns[b->parent_start[p] + pfill[p]++] = k;
    }
    return KILN_OK;
}

static kiln_result read_objects(blend *b, const kiln_fbx_tree *t)
{
    const kiln_fbx_node *objs = kiln_fbx_child(&t->root, "Objects");
    uint32_t n = objs ? objs->child_count : 0;
    b->objs = kiln_arena_array(&b->tmp, n ? n : 1, sizeof *b->objs);
    if (!b->objs) return nomem(b, "objects");
    for (uint32_t i = 0; i < n; i++) {
        const kiln_fbx_node *nd = &objs->children[i];
        int64_t id;
        size_t len;
        const char *full = kiln_fbx_string(nd, 1, &len), *kind = kiln_fbx_string(nd, 2, NULL);
        if (!kiln_fbx_integer(nd, 0, &id) || !full || nd->props[0].type == 'S') continue;
        b->objs[b->obj_count++] =
            (obj7){id, nd, kiln_fbx_object_name(full, len + 1, NULL), kind ? kind : ""};
    }
    qsort(b->objs, b->obj_count, sizeof *b->objs, id_cmp);
    const kiln_fbx_node *cs = kiln_fbx_child(&t->root, "Connections");
    uint32_t m = cs ? cs->child_count : 0;
    b->conns = kiln_arena_array(&b->tmp, m ? m : 1, sizeof *b->conns);
    if (!b->conns) return nomem(b, "connections");
    for (uint32_t i = 0; i < m; i++) {
        const kiln_fbx_node *c = &cs->children[i];
        const char *type = kiln_fbx_string(c, 0, NULL);
        int64_t child, parent;
        bool op = type && !strcmp(type, "OP");
        if (strcmp(c->name, "C") || !type || (strcmp(type, "OO") && !op) ||
            !kiln_fbx_integer(c, 1, &child) || !kiln_fbx_integer(c, 2, &parent))
            continue;
        const char *prop = op ? kiln_fbx_string(c, 3, NULL) : NULL;
        if (op && !prop) continue;
        int32_t ci = by_id(b, child), pi = by_id(b, parent);
        if (ci >= 0 && pi >= 0)
            b->conns[b->conn_count++] = (conn){(uint32_t)ci, (uint32_t)pi, prop};
    }
    return index_conns(b);
}

typedef struct point {
    float p[3];
    uint32_t index;
} point;

static int point_cmp(const void *x, const void *y)
{
    const point *a = x, *c = y;
    for (int k = 0; k < 3; k++)
        if (a->p[k] != c->p[k]) return a->p[k] < c->p[k] ? -1 : 1;
    return (a->index > c->index) - (a->index < c->index);
}

static bool same_place(const point *a, const point *b)
{
    return a->p[0] == b->p[0] && a->p[1] == b->p[1] && a->p[2] == b->p[2];
}

/* The control point at exactly p; -1 none, -2 more than one. */
static int64_t find_point(const point *pts, size_t n, const float p[3])
{
    size_t lo = 0, hi = n;
    point key = {{p[0], p[1], p[2]}, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (point_cmp(&pts[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    /* Equal as point_cmp sorts them (== per component, so -0 is 0): memcmp missed a -0
     * control point for a +0 vertex, and a -0/+0 pair as ambiguous. */
    if (lo >= n || !same_place(&pts[lo], &key)) return -1;
    if (lo + 1 < n && same_place(&pts[lo + 1], &key)) return -2;
    return pts[lo].index;
}

static float f32(double v) { return isfinite(v) && fabs(v) < 1e30 ? (float)v : 0.0f; }

static double channel_weight(const kiln_fbx_node *ch)
{
    double v;
    if (kiln_fbx_number(kiln_fbx_child(ch, "DeformPercent"), 0, &v) && isfinite(v))
        return v / 100.0;
    return kiln_fbx_property_number(ch, "DeformPercent", 0, 0.0) / 100.0;
}

/* ---- the weights' animation ------------------------------------------------------------------ */

#define MAX_KEYS 1000000u

/* The AnimationCurve giving channel ch's DeformPercent, its stack's name in *stack; -1 none. */
static int32_t weight_curve(const blend *b, uint32_t ch, const char **stack)
{
    for
        EACH_CHILD_CONN(b, ch, k)
        {
            const conn *c = &b->conns[b->parent_conns[k]];
            if (!c->prop || strcmp(c->prop, "DeformPercent") ||
                !is(&b->objs[c->child], "AnimationCurveNode", NULL))
                continue;
            int32_t layer = parent_of(b, c->child, "AnimationLayer", NULL);
            int32_t st = layer >= 0 ? parent_of(b, (uint32_t)layer, "AnimationStack", NULL) : -1;
            *stack = st >= 0 ? b->objs[st].name : "";
            /* Only the first curve node counts: one pass over the connections per channel. */
        for
            EACH_CHILD_CONN(b, c->child, j)
            {
                const conn *d = &b->conns[b->parent_conns[j]];
                if (d->prop && !strcmp(d->prop, "d|DeformPercent") &&
                    is(&b->objs[d->child], "AnimationCurve", NULL))
                    return (int32_t)d->child;
            }
        return -1;
        }
    return -1;
}

typedef struct curve {
    kiln_fbx_values t, v;
    size_t n;
} curve;

static int time_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Linear between keys, clamped at the ends (FBX's cubic keys are taken at their values). */
static double curve_at(const curve *c, double seconds)
{
    if (!c->n) return 0;
    double first = kiln_fbx_values_f64(&c->t, 0) / KILN_FBX_TICKS_PER_SECOND;
    if (seconds <= first) return kiln_fbx_values_f64(&c->v, 0);
    size_t lo = 0, hi = c->n - 1;
    if (seconds >= kiln_fbx_values_f64(&c->t, hi) / KILN_FBX_TICKS_PER_SECOND)
        return kiln_fbx_values_f64(&c->v, hi);
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (kiln_fbx_values_f64(&c->t, mid) / KILN_FBX_TICKS_PER_SECOND <= seconds) lo = mid;
        else hi = mid;
    }
    double t0 = kiln_fbx_values_f64(&c->t, lo) / KILN_FBX_TICKS_PER_SECOND;
    double t1 = kiln_fbx_values_f64(&c->t, hi) / KILN_FBX_TICKS_PER_SECOND;
    double v0 = kiln_fbx_values_f64(&c->v, lo), v1 = kiln_fbx_values_f64(&c->v, hi);
    return t1 > t0 ? v0 + (v1 - v0) * (seconds - t0) / (t1 - t0) : v1;
}

/* Drops the scene's warnings holding both a and b (the assimp path's notes about what this
 * reader has now imported). */
static void unwarn(kiln_scene *s, const char *a, const char *b)
{
    struct kiln_scene_storage *st = s->storage;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->warning_count; i++)
        if (!(strstr(st->warnings[i], a) && strstr(st->warnings[i], b)))
            st->warnings[kept++] = st->warnings[i];
    s->warning_count = kept;
}

/* A weights channel for node from the DeformPercent curves of its channels, baked at
 * animation_fps into the clip of their stack (added when assimp dropped it). */
static kiln_result animate(blend *b, uint32_t node, const uint32_t *chans, uint32_t nch, bool *done)
{
    kiln_scene *s = b->s;
    *done = false;
    if (b->opts && b->opts->skip_animations) return KILN_OK;
    curve *cs = kiln_arena_array(&b->tmp, nch, sizeof *cs);
    if (!cs) return nomem(b, "curves");
    const char *stack = NULL;
    size_t total = 0;
    for (uint32_t c = 0; c < nch; c++) {
        const char *st = "";
        int32_t cv = weight_curve(b, chans[c], &st);
        if (cv < 0) continue;
        if (stack && strcmp(stack, st)) continue; /* one clip: the first stack's */
        stack = st;
        const kiln_fbx_node *n = b->objs[cv].n;
        if (!kiln_fbx_values_of(kiln_fbx_child(n, "KeyTime"), &cs[c].t) ||
            !kiln_fbx_values_of(kiln_fbx_child(n, "KeyValueFloat"), &cs[c].v))
            continue;
        cs[c].n = cs[c].t.count < cs[c].v.count ? cs[c].t.count : cs[c].v.count;
        for (size_t k = 1; k < cs[c].n; k++)
            if (!(kiln_fbx_values_f64(&cs[c].t, k) >= kiln_fbx_values_f64(&cs[c].t, k - 1)))
                cs[c].n = 0;
        total += cs[c].n;
    }
    if (!stack || !total) return KILN_OK;
    if (total > MAX_KEYS)
        return kiln_scene_warn(s, "blend shape weights: %zu keys, past %u; not animated", total,
                               MAX_KEYS)
                   ? KILN_OK
                   : nomem(b, "a warning");
    /* Keys at every curve's key time (sorted, repeats kept: sampling does not mind), all
     * channels sampled at each, as fractions. */
    double *times = kiln_arena_array(&b->tmp, total, sizeof *times);
    float *vals = kiln_arena_array(&b->tmp, total, (size_t)nch * sizeof *vals);
    if (!times || !vals) return nomem(b, "keys");
    size_t at = 0;
    for (uint32_t c = 0; c < nch; c++)
        for (size_t k = 0; k < cs[c].n; k++)
            times[at++] = kiln_fbx_values_f64(&cs[c].t, k) / KILN_FBX_TICKS_PER_SECOND;
    /* Not an insertion sort: two channels of 300,000 keys, the second's before the first's,
     * took it 46 s (0.09 s sorted). The tree cleans non-finite numbers: the order is total. */
    qsort(times, total, sizeof *times, time_cmp);
    for (size_t k = 0; k < total; k++)
        for (uint32_t c = 0; c < nch; c++)
            vals[k * nch + c] = f32(cs[c].n ? curve_at(&cs[c], times[k]) / 100.0
                                            : s->meshes[s->nodes[node].mesh].weights[c]);
    uint32_t fps = b->opts && b->opts->animation_fps ? b->opts->animation_fps : 30;
    double duration = times[total - 1] > 0 && isfinite(times[total - 1]) ? times[total - 1] : 0;
    uint32_t count = kiln_assimp_bake_count(duration, fps, 10000000u);
    if (!count)
        return kiln_scene_warn(s, "blend shape weights last %g s; not animated", duration)
                   ? KILN_OK
                   : nomem(b, "a warning");
    assimp_keys keys = {(uint32_t)total, times, vals};
    kiln_scene_channel ch;
    memset(&ch, 0, sizeof ch);
    if (!kiln_assimp_bake(b->a, &keys, nch, false, duration, fps, count, &ch))
        return nomem(b, "keys");
    ch.node = node;
    ch.path = KILN_SCENE_PATH_WEIGHTS;
    /* Into the stack's clip when assimp kept it, else a new clip. */
    int32_t clip = -1;
    for (uint32_t i = 0; i < s->animation_count; i++)
        if (!strcmp(s->animations[i].name, stack)) clip = (int32_t)i;
    kiln_scene_animation *anims = kiln_arena_array(b->a, s->animation_count + 1, sizeof *anims);
    if (!anims) return nomem(b, "animations");
    if (s->animation_count) memcpy(anims, s->animations, s->animation_count * sizeof *anims);
    kiln_scene_animation *an;
    if (clip < 0) {
        an = &anims[s->animation_count];
        memset(an, 0, sizeof *an);
        if (!(an->name = kiln_arena_strdup(b->a, stack))) return nomem(b, "a name");
        an->start = 0;
        an->end = (float)duration;
    } else {
        an = &anims[clip];
        if ((float)duration > an->end) an->end = (float)duration;
    }
    kiln_scene_channel *chs = kiln_arena_array(b->a, an->channel_count + 1, sizeof *chs);
    if (!chs) return nomem(b, "channels");
    if (an->channel_count) memcpy(chs, an->channels, an->channel_count * sizeof *chs);
    chs[an->channel_count] = ch;
    an->channels = chs;
    an->channel_count++;
    s->animations = anims;
    if (clip < 0) s->animation_count++;
    unwarn(s, "(assimp gave its mesh no blend shapes)", s->nodes[node].name);
    char dropped[300];
    snprintf(dropped, sizeof dropped, "animation \"%s\" animates nothing", stack);
    if (clip < 0) unwarn(s, dropped, "dropped");
    *done = true;
    return KILN_OK;
}

/* One BlendShape deformer d onto the scene. */
static kiln_result apply(blend *b, uint32_t d)
{
    kiln_scene *s = b->s;
    const char *dname = b->objs[d].name;
    int32_t geo = parent_of(b, d, "Geometry", "Mesh");
    int32_t model = geo >= 0 ? parent_of(b, (uint32_t)geo, "Model", NULL) : -1;
    if (model < 0)
        return kiln_scene_warn(s, "blend shape \"%s\": no mesh model found; not imported", dname)
                   ? KILN_OK
                   : nomem(b, "a warning");
    const char *mname = b->objs[model].name;
    int32_t node = -1;
    uint32_t named = 0;
    for (uint32_t i = 0; i < s->node_count; i++)
        if (!strcmp(s->nodes[i].name, mname) && s->nodes[i].mesh >= 0) node = (int32_t)i, named++;
    if (named != 1)
        return kiln_scene_warn(s,
                               "blend shape \"%s\": %u imported meshes are named \"%s\"; not "
                               "imported",
                               dname, named, mname)
                   ? KILN_OK
                   : nomem(b, "a warning");
    kiln_scene_mesh *mesh = (kiln_scene_mesh *)&s->meshes[s->nodes[node].mesh];
    for (uint32_t p = 0; p < mesh->primitive_count; p++)
        if (mesh->primitives[p].target_count) return KILN_OK; /* assimp gave it targets */
    /* Channels, in connection order, and the shape of each (the last if several). */
    uint32_t nch = 0;
    for
        EACH_CHILD_CONN(b, d, k)
        {
            const conn *c = &b->conns[b->parent_conns[k]];
            nch += !c->prop && is(&b->objs[c->child], "Deformer", "BlendShapeChannel");
        }
    if (!nch) return KILN_OK;
    if (nch > MAX_CHANNELS)
        return kiln_scene_warn(s, "blend shape \"%s\": %u channels, past %u; not imported", dname,
                               nch, MAX_CHANNELS)
                   ? KILN_OK
                   : nomem(b, "a warning");
    uint32_t *chans = kiln_arena_array(&b->tmp, nch, sizeof *chans);
    int32_t *shapes = kiln_arena_array(&b->tmp, nch, sizeof *shapes);
    if (!chans || !shapes) return nomem(b, "channels");
    nch = 0;
    for
        EACH_CHILD_CONN(b, d, k)
        {
            const conn *c = &b->conns[b->parent_conns[k]];
            if (!c->prop && is(&b->objs[c->child], "Deformer", "BlendShapeChannel"))
                chans[nch++] = c->child;
        }
    for (uint32_t c = 0; c < nch; c++) {
        uint32_t count = 0;
        shapes[c] = -1;
        for
            EACH_CHILD_CONN(b, chans[c], k)
            {
                const conn *cn = &b->conns[b->parent_conns[k]];
                if (!cn->prop && is(&b->objs[cn->child], "Geometry", "Shape"))
                    shapes[c] = (int32_t)cn->child, count++;
            }
        if (count > 1 && !kiln_scene_warn(s,
                                          "blend shape channel \"%s\": %u in-between shapes; only "
                                          "the last is imported",
                                          b->objs[chans[c]].name, count))
            return nomem(b, "a warning");
    }
    /* Control points sorted by position: each imported vertex must match exactly one. */
    kiln_fbx_values cpv;
    if (!kiln_fbx_values_of(kiln_fbx_child(b->objs[geo].n, "Vertices"), &cpv) || cpv.count < 3)
        return kiln_scene_warn(s, "blend shape \"%s\": its mesh has no vertices; not imported",
                               dname)
                   ? KILN_OK
                   : nomem(b, "a warning");
    size_t npts = cpv.count / 3;
    point *pts = kiln_arena_array(&b->tmp, npts, sizeof *pts);
    uint32_t **cp_of = kiln_arena_array(&b->tmp, mesh->primitive_count, sizeof *cp_of);
    if (!pts || !cp_of || npts > UINT32_MAX) return nomem(b, "control points");
    for (size_t i = 0; i < npts; i++) {
        for (int k = 0; k < 3; k++) pts[i].p[k] = f32(kiln_fbx_values_f64(&cpv, i * 3 + (size_t)k));
        pts[i].index = (uint32_t)i;
    }
    qsort(pts, npts, sizeof *pts, point_cmp);
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        const kiln_scene_primitive *pr = &mesh->primitives[p];
        if (!(cp_of[p] = kiln_arena_array(&b->tmp, pr->vertex_count ? pr->vertex_count : 1,
                                          sizeof **cp_of)))
            return nomem(b, "the vertex map");
        for (uint32_t v = 0; v < pr->vertex_count; v++) {
            int64_t cp = find_point(pts, npts, pr->positions + (size_t)v * 3);
            if (cp < 0)
                return kiln_scene_warn(s,
                                       "blend shape \"%s\": vertex %u of mesh \"%s\" matches %s "
                                       "control point; not imported",
                                       dname, v, mname, cp == -1 ? "no" : "more than one")
                           ? KILN_OK
                           : nomem(b, "a warning");
            cp_of[p][v] = (uint32_t)cp;
        }
    }
    /* Deltas per control point, then per vertex. */
    float *dense = kiln_arena_array(&b->tmp, npts, 6 * sizeof *dense);
    float *weights = kiln_arena_array(b->a, nch, sizeof *weights);
    const char **names = kiln_arena_array(b->a, nch, sizeof *names);
    kiln_scene_morph_target **targets =
        kiln_arena_array(&b->tmp, mesh->primitive_count, sizeof *targets);
    if (!dense || !weights || !names || !targets) return nomem(b, "blend shapes");
    for (uint32_t p = 0; p < mesh->primitive_count; p++)
        if (!(targets[p] = kiln_arena_array(b->a, nch, sizeof **targets)))
            return nomem(b, "morph targets");
    uint32_t skipped = 0;
    for (uint32_t c = 0; c < nch; c++) {
        const obj7 *ch = &b->objs[chans[c]];
        double w = channel_weight(ch->n);
        weights[c] = isfinite(w) ? (float)w : 0.0f;
        if (!(names[c] = kiln_arena_strdup(b->a, ch->name))) return nomem(b, "a name");
        memset(dense, 0, npts * 6 * sizeof *dense);
        kiln_fbx_values idx = {0}, dv = {0}, dn = {0};
        bool normals = false;
        if (shapes[c] >= 0) {
            const kiln_fbx_node *sh = b->objs[shapes[c]].n;
            kiln_fbx_values_of(kiln_fbx_child(sh, "Indexes"), &idx);
            kiln_fbx_values_of(kiln_fbx_child(sh, "Vertices"), &dv);
            normals =
                kiln_fbx_values_of(kiln_fbx_child(sh, "Normals"), &dn) && dn.count == dv.count;
        }
        for (size_t i = 0; i < idx.count && i < dv.count / 3; i++) {
            int64_t cp = kiln_fbx_values_i64(&idx, i);
            if (cp < 0 || (uint64_t)cp >= npts) {
                skipped++;
                continue;
            }
            for (size_t k = 0; k < 3; k++) {
                dense[(size_t)cp * 6 + k] = f32(kiln_fbx_values_f64(&dv, i * 3 + k));
                if (normals)
                    dense[(size_t)cp * 6 + 3 + k] = f32(kiln_fbx_values_f64(&dn, i * 3 + k));
            }
        }
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            kiln_scene_primitive *pr = kiln_scene_prim_mut(s, (uint32_t)s->nodes[node].mesh, p);
            uint32_t v = pr->vertex_count;
            float *dp = kiln_arena_array(b->a, (size_t)v * 3 + 1, sizeof *dp);
            float *dnr = normals && pr->normals
                             ? kiln_arena_array(b->a, (size_t)v * 3 + 1, sizeof *dnr)
                             : NULL;
            if (!dp || (normals && pr->normals && !dnr)) return nomem(b, "morph deltas");
            for (uint32_t i = 0; i < v; i++)
                for (int k = 0; k < 3; k++) {
                    dp[(size_t)i * 3 + (size_t)k] = dense[(size_t)cp_of[p][i] * 6 + (size_t)k];
                    if (dnr)
                        dnr[(size_t)i * 3 + (size_t)k] =
                            dense[(size_t)cp_of[p][i] * 6 + 3 + (size_t)k];
                }
            targets[p][c] = (kiln_scene_morph_target){dp, dnr, NULL};
        }
    }
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        kiln_scene_primitive *pr = kiln_scene_prim_mut(s, (uint32_t)s->nodes[node].mesh, p);
        pr->targets = targets[p];
        pr->target_count = nch;
    }
    mesh->weights = weights;
    mesh->weight_count = nch;
    mesh->target_names = names;
    if (skipped && !kiln_scene_warn(s,
                                    "blend shape \"%s\": %u shape entries name no control point "
                                    "(dropped)",
                                    dname, skipped))
        return nomem(b, "a warning");
    bool animated = false;
    kiln_result r = animate(b, (uint32_t)node, chans, nch, &animated);
    if (r) return r;
    if (!kiln_scene_warn(s,
                         "mesh \"%s\": %u blend shapes of \"%s\" read by kiln's FBX reader "
                         "(mapped by vertex position)%s",
                         mname, nch, dname, animated ? ", their weights animated" : ""))
        return nomem(b, "a warning");
    return KILN_OK;
}

kiln_result kiln_fbx_blend_shapes(const void *data, size_t size, const kiln_assimp_opts *opts,
                                  kiln_scene *scene, kiln_error *err)
{
    if (!data || !size || !memmem(data, size, "BlendShape", 10)) return KILN_OK;
    blend b;
    memset(&b, 0, sizeof b);
    b.s = scene;
    b.a = kiln_scene_arena(scene);
    b.err = err;
    b.opts = opts;
    kiln_arena_init(&b.tmp, &b.a->allocator, b.a->limit);
    kiln_fbx_limits lim = {b.a->limit, 0, 0};
    kiln_fbx_tree t;
    kiln_error terr;
    kiln_result r = kiln_fbx_tree_parse(data, size, &b.a->allocator, &lim, &t, &terr);
    if (r != KILN_OK) {
        r = kiln_scene_warn(scene, "blend shapes not read: kiln's FBX reader refused the file (%s)",
                            terr.message)
                ? KILN_OK
                : nomem(&b, "a warning");
    } else if ((r = read_objects(&b, &t)) == KILN_OK) {
        uint32_t seen = 0;
        for (uint32_t i = 0; i < b.obj_count && r == KILN_OK; i++) {
            if (!is(&b.objs[i], "Deformer", "BlendShape")) continue;
            if (++seen > MAX_DEFORMERS) {
                r = kiln_scene_warn(scene, "blend shapes past the %uth deformer not imported",
                                    MAX_DEFORMERS)
                        ? KILN_OK
                        : nomem(&b, "a warning");
                break;
            }
            r = apply(&b, i);
        }
    }
    kiln_fbx_tree_free(&t);
    kiln_arena_release(&b.tmp);
    return r;
}
