/* scene_cook.c — kiln_cooked_scene_build (scene_cook.h; the bytes it becomes are in
 * docs/formats.md, "Scenes"). One walk over the tree with an explicit stack (glTF trees can be
 * deep), a visited mark that turns a node reached twice (two parents, a cycle) into an error,
 * and per-mesh, per-camera and per-light maps so shared things are stored once. */
#include "process/scene_cook.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

#define NONE        KILN_COOKED_NONE
#define MAX_RECORDS (UINT32_MAX - 1u) /* NONE stays free to mean "none" */

_Static_assert(KILN_COOKED_CAMERA_ORTHOGRAPHIC == (int)KILN_SCENE_CAMERA_ORTHOGRAPHIC &&
                   KILN_COOKED_LIGHT_POINT == (int)KILN_SCENE_LIGHT_POINT &&
                   KILN_COOKED_LIGHT_SPOT == (int)KILN_SCENE_LIGHT_SPOT,
               "camera and light types follow kiln_scene.h");

typedef struct build {
    const kiln_scene *scene;
    const kiln_cooked_scene_ids *ids;
    kiln_cooked_scene *out;
    const kiln_allocator *a;
    kiln_error *err;
    uint32_t *mesh_prims;   /* per source mesh: first primitive, count (NONE: not yet seen) */
    uint32_t *copy_prims;   /* per skin: the mesh of the last copy that follows it, first, count */
    uint32_t *mesh_weights; /* per source mesh: first weight, count (NONE: not yet stored) */
    uint32_t *camera_map;   /* source camera -> cooked index or NONE */
    uint32_t *light_map;
    kiln_result failure; /* what reserve() ran into */
} build;

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* Makes room for `need` elements in p (capacity *cap, elements of elem bytes): the array to use
 * from now on, or NULL with the error set (p is then still valid and still owned). */
static void *reserve(build *b, void *p, uint32_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return p;
    if (need > MAX_RECORDS) {
        b->failure = kiln_error_set(b->err, KILN_E_LIMIT,
                                    "cooked scene: more than %u records of a kind", MAX_RECORDS);
        return NULL;
    }
    uint64_t n = *cap ? (uint64_t)*cap * 2 : 16;
    if (n < need) n = need;
    if (n > MAX_RECORDS) n = MAX_RECORDS;
    size_t old_size = (size_t)*cap * elem, new_size;
    if (!kiln_size_mul((size_t)n, elem, &new_size)) {
        b->failure = kiln_error_set(b->err, KILN_E_LIMIT, "cooked scene: too large");
        return NULL;
    }
    void *q = p ? kiln_realloc(b->a, p, old_size, new_size) : kiln_alloc(b->a, new_size);
    if (!q) {
        b->failure = kiln_error_set(b->err, KILN_E_OUT_OF_MEMORY, "cooked scene: out of memory");
        return NULL;
    }
    *cap = (uint32_t)n;
    return q;
}

static kiln_result failed(const build *b) { return b->failure; }

static uint64_t id_of(build *b, const char *fmt, uint32_t i, uint32_t j)
{
    char label[64];
    snprintf(label, sizeof label, fmt, i, j);
    return kiln_asset_id(b->ids->guid, label);
}

static uint64_t primitive_id(build *b, uint32_t mesh, uint32_t p, int32_t copy_skin)
{
    if (b->ids->primitive) return b->ids->primitive(b->ids->user, mesh, p, copy_skin);
    if (copy_skin < 0) return id_of(b, "mesh%u/prim%u", mesh, p);
    char label[64];
    snprintf(label, sizeof label, "mesh%u/prim%u/skin%d", mesh, p, copy_skin);
    return kiln_asset_id(b->ids->guid, label);
}

/* Appends the ids of one copy of a mesh's primitives; range[0..1] = first, count. */
static kiln_result append_primitives(build *b, uint32_t mesh, int32_t copy_skin, uint32_t *range)
{
    kiln_cooked_scene *o = b->out;
    const kiln_scene_mesh *m = &b->scene->meshes[mesh];
    uint32_t first = o->primitive_count;
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        uint64_t id = primitive_id(b, mesh, p, copy_skin);
        if (!id) continue;
        uint64_t *q = reserve(b, o->primitives, &o->capacity.primitives,
                              (uint64_t)o->primitive_count + 1, sizeof *o->primitives);
        if (!q) return failed(b);
        o->primitives = q;
        o->primitives[o->primitive_count++] = id;
    }
    uint32_t count = o->primitive_count - first;
    range[0] = count ? first : 0;
    range[1] = count;
    return KILN_OK;
}

/* The node's mesh primitives: the first copy's range is shared by every node drawing it; a
 * copy that follows another skin's joint order is shared with the previous node drawing the
 * same (mesh, skin) through copy_prims (nodes of one copy are usually alike; a repeat after
 * another mesh only costs a second range). */
static kiln_result add_mesh(build *b, uint32_t node, uint32_t mesh, kiln_cooked_node *n)
{
    int32_t copy_skin = b->ids->mesh_copy ? b->ids->mesh_copy(b->ids->user, node) : -1;
    uint32_t *range = &b->mesh_prims[2 * mesh];
    if (copy_skin >= 0) {
        if ((uint32_t)copy_skin >= b->scene->skin_count)
            return kiln_error_set(b->err, KILN_E_USAGE, "node %u: copy of skin %d out of range",
                                  node, (int)copy_skin);
        uint32_t *c = &b->copy_prims[3 * (size_t)copy_skin];
        if (c[0] != mesh) {
            c[0] = mesh;
            c[1] = NONE;
        }
        range = c + 1;
    }
    if (range[0] == NONE) {
        kiln_result r = append_primitives(b, mesh, copy_skin, range);
        if (r != KILN_OK) return r;
    }
    n->mesh = mesh;
    n->first_primitive = range[0];
    n->primitive_count = range[1];
    return KILN_OK;
}

static kiln_result append_weights(build *b, const float *w, uint32_t count, uint32_t node,
                                  uint32_t *first)
{
    kiln_cooked_scene *o = b->out;
    if (!all_finite(w, count))
        return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: a morph weight is not finite",
                              node);
    float *q = reserve(b, o->weights, &o->capacity.weights, (uint64_t)o->weight_count + count,
                       sizeof *o->weights);
    if (!q) return failed(b);
    o->weights = q;
    *first = o->weight_count;
    memcpy(o->weights + o->weight_count, w, (size_t)count * sizeof *w);
    o->weight_count += count;
    return KILN_OK;
}

static kiln_result add_weights(build *b, const kiln_scene_node *sn, uint32_t node, uint32_t mesh,
                               kiln_cooked_node *n)
{
    if (sn->weight_count && sn->weights) {
        n->flags |= KILN_COOKED_NODE_INSTANCE_WEIGHTS;
        n->weight_count = sn->weight_count;
        return append_weights(b, sn->weights, sn->weight_count, node, &n->first_weight);
    }
    const kiln_scene_mesh *m = &b->scene->meshes[mesh];
    if (!m->weight_count || !m->weights) return KILN_OK;
    if (b->mesh_weights[2 * mesh] == NONE) {
        kiln_result r =
            append_weights(b, m->weights, m->weight_count, node, &b->mesh_weights[2 * mesh]);
        if (r != KILN_OK) return r;
        b->mesh_weights[2 * mesh + 1] = m->weight_count;
    }
    n->first_weight = b->mesh_weights[2 * mesh];
    n->weight_count = b->mesh_weights[2 * mesh + 1];
    return KILN_OK;
}

static const char *name_or_empty(const char *s) { return s ? s : ""; }

static kiln_result add_camera(build *b, uint32_t cam, uint32_t node, kiln_cooked_node *n)
{
    kiln_cooked_scene *o = b->out;
    if (b->camera_map[cam] == NONE) {
        const kiln_scene_camera *c = &b->scene->cameras[cam];
        float v[6] = {c->yfov, c->aspect, c->xmag, c->ymag, c->znear, c->zfar};
        if ((unsigned)c->type > KILN_SCENE_CAMERA_ORTHOGRAPHIC || !all_finite(v, 6))
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                                  "node %u: camera %u has an unknown type or a value not finite",
                                  node, cam);
        kiln_cooked_camera *q = reserve(b, o->cameras, &o->capacity.cameras,
                                        (uint64_t)o->camera_count + 1, sizeof *o->cameras);
        if (!q) return failed(b);
        o->cameras = q;
        kiln_cooked_camera *k = &o->cameras[o->camera_count];
        memset(k, 0, sizeof *k);
        k->name = name_or_empty(c->name);
        k->name_size = strlen(k->name);
        k->type = (uint32_t)c->type;
        k->source_camera = cam;
        k->yfov = c->yfov;
        k->aspect = c->aspect;
        k->xmag = c->xmag;
        k->ymag = c->ymag;
        k->znear = c->znear;
        k->zfar = c->zfar;
        b->camera_map[cam] = o->camera_count++;
    }
    n->camera = b->camera_map[cam];
    return KILN_OK;
}

static kiln_result add_light(build *b, uint32_t light, uint32_t node, kiln_cooked_node *n)
{
    kiln_cooked_scene *o = b->out;
    if (b->light_map[light] == NONE) {
        const kiln_scene_light *l = &b->scene->lights[light];
        float v[7] = {l->color[0], l->color[1],   l->color[2],  l->intensity,
                      l->range,    l->inner_cone, l->outer_cone};
        if ((unsigned)l->type > KILN_SCENE_LIGHT_SPOT || !all_finite(v, 7))
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                                  "node %u: light %u has an unknown type or a value not finite",
                                  node, light);
        kiln_cooked_light *q = reserve(b, o->lights, &o->capacity.lights,
                                       (uint64_t)o->light_count + 1, sizeof *o->lights);
        if (!q) return failed(b);
        o->lights = q;
        kiln_cooked_light *k = &o->lights[o->light_count];
        memset(k, 0, sizeof *k);
        k->name = name_or_empty(l->name);
        k->name_size = strlen(k->name);
        k->type = (uint32_t)l->type;
        k->source_light = light;
        memcpy(k->color, l->color, sizeof k->color);
        k->intensity = l->intensity;
        k->range = l->range;
        k->inner_cone = l->inner_cone;
        k->outer_cone = l->outer_cone;
        b->light_map[light] = o->light_count++;
    }
    n->light = b->light_map[light];
    return KILN_OK;
}

/* Fills cooked node n from source node `src`, whose parent (cooked) is `parent`. */
static kiln_result add_node(build *b, uint32_t src, uint32_t parent, kiln_cooked_node *n)
{
    const kiln_scene *s = b->scene;
    const kiln_scene_node *sn = &s->nodes[src];
    memset(n, 0, sizeof *n);
    n->name = name_or_empty(sn->name);
    n->name_size = strlen(n->name);
    n->parent = parent;
    n->source_node = src;
    n->flags = sn->has_matrix ? KILN_COOKED_NODE_MATRIX : 0;
    memcpy(n->translation, sn->translation, sizeof n->translation);
    memcpy(n->rotation, sn->rotation, sizeof n->rotation);
    memcpy(n->scale, sn->scale, sizeof n->scale);
    memcpy(n->matrix, sn->matrix, sizeof n->matrix);
    if (!all_finite(n->translation, 3) || !all_finite(n->rotation, 4) || !all_finite(n->scale, 3) ||
        !all_finite(n->matrix, 16))
        return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: transform not finite", src);
    n->mesh = n->camera = n->light = n->skin = NONE;
    kiln_result r = KILN_OK;
    if (sn->mesh >= 0) {
        if ((uint32_t)sn->mesh >= s->mesh_count)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: mesh %d out of range",
                                  src, (int)sn->mesh);
        if ((r = add_mesh(b, src, (uint32_t)sn->mesh, n)) ||
            (r = add_weights(b, sn, src, (uint32_t)sn->mesh, n)))
            return r;
    }
    if (sn->skin >= 0) {
        if ((uint32_t)sn->skin >= s->skin_count)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: skin %d out of range",
                                  src, (int)sn->skin);
        uint64_t id = b->ids->skeleton ? b->ids->skeleton(b->ids->user, (uint32_t)sn->skin)
                                       : id_of(b, "skeleton%u", (uint32_t)sn->skin, 0);
        if (id) {
            n->skin = (uint32_t)sn->skin;
            n->skeleton = id;
        }
    }
    if (sn->camera >= 0) {
        if ((uint32_t)sn->camera >= s->camera_count)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: camera %d out of range",
                                  src, (int)sn->camera);
        if ((r = add_camera(b, (uint32_t)sn->camera, src, n))) return r;
    }
    if (sn->light >= 0) {
        if ((uint32_t)sn->light >= s->light_count)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: light %d out of range",
                                  src, (int)sn->light);
        if ((r = add_light(b, (uint32_t)sn->light, src, n))) return r;
    }
    return KILN_OK;
}

static void identity_node(kiln_cooked_node *n, const char *name, size_t name_size)
{
    memset(n, 0, sizeof *n);
    n->name = name;
    n->name_size = name_size;
    n->parent = n->source_node = n->mesh = n->camera = n->light = n->skin = NONE;
    n->flags = KILN_COOKED_NODE_SYNTHETIC;
    n->rotation[3] = 1.0f;
    n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
    n->matrix[0] = n->matrix[5] = n->matrix[10] = n->matrix[15] = 1.0f;
}

typedef struct pending {
    uint32_t node, parent; /* source node, cooked parent */
} pending;

/* The depth-first walk: fills out->nodes in pre-order. */
static kiln_result walk(build *b, uint8_t *visited, pending *stack, size_t stack_cap)
{
    const kiln_scene *s = b->scene;
    kiln_cooked_scene *o = b->out;
    size_t top = 0;
    uint32_t root_parent = (o->flags & KILN_COOKED_SCENE_SYNTHETIC_ROOT) ? 0 : NONE;
    for (uint32_t i = s->root_count; i-- > 0;) {
        if (s->roots[i] >= s->node_count)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "root %u: node %u out of range", i,
                                  s->roots[i]);
        stack[top].node = s->roots[i];
        stack[top++].parent = root_parent;
    }
    while (top) {
        pending p = stack[--top];
        if (visited[p.node])
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                                  "node %u is reached twice (two parents, or a cycle)", p.node);
        visited[p.node] = 1;
        uint32_t at = o->node_count++;
        kiln_result r = add_node(b, p.node, p.parent, &o->nodes[at]);
        if (r != KILN_OK) return r;
        const kiln_scene_node *sn = &s->nodes[p.node];
        if (sn->child_count > stack_cap - top)
            return kiln_error_set(b->err, KILN_E_IMPORT_FAILED, "node %u: too many children",
                                  p.node);
        for (uint32_t c = sn->child_count; c-- > 0;) {
            if (sn->children[c] >= s->node_count)
                return kiln_error_set(b->err, KILN_E_IMPORT_FAILED,
                                      "node %u: child %u out of range", p.node, sn->children[c]);
            stack[top].node = sn->children[c];
            stack[top++].parent = at;
        }
    }
    /* In pre-order a subtree is contiguous: its end is the largest end among its children's. */
    for (uint32_t i = o->node_count; i-- > 0;) {
        kiln_cooked_node *n = &o->nodes[i];
        if (n->subtree_end < i + 1) n->subtree_end = i + 1;
        if (n->parent != NONE && o->nodes[n->parent].subtree_end < n->subtree_end)
            o->nodes[n->parent].subtree_end = n->subtree_end;
    }
    return KILN_OK;
}

static kiln_result build_scene(build *b, uint8_t *visited, pending *stack, size_t stack_cap)
{
    const kiln_scene *s = b->scene;
    kiln_cooked_scene *o = b->out;
    kiln_result r = walk(b, visited, stack, stack_cap);
    if (r != KILN_OK) return r;
    for (uint32_t i = 0; i < s->animation_count; i++) {
        uint64_t id = b->ids->clip ? b->ids->clip(b->ids->user, i) : id_of(b, "clip%u", i, 0);
        if (!id) continue;
        uint64_t *q =
            reserve(b, o->clips, &o->capacity.clips, (uint64_t)o->clip_count + 1, sizeof *o->clips);
        if (!q) return failed(b);
        o->clips = q;
        o->clips[o->clip_count++] = id;
    }
    return KILN_OK;
}

kiln_result kiln_cooked_scene_build(const kiln_scene *scene, const kiln_cooked_scene_ids *ids,
                                    const kiln_allocator *a, kiln_cooked_scene *out,
                                    kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_build: no output");
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    if (!scene || !ids)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_build: no scene or ids");
    if (!ids->guid && (!ids->primitive || !ids->skeleton || !ids->clip))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_cooked_scene_build: neither a guid nor every id callback");
    if (scene->root_count && !scene->roots)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_cooked_scene_build: roots missing");

    /* The scene's name, and its synthetic root when it has several. */
    out->source_scene = NONE;
    out->name = "scene";
    if (scene->default_scene >= 0 && (uint32_t)scene->default_scene < scene->scene_count) {
        out->source_scene = (uint32_t)scene->default_scene;
        const char *n = scene->scenes[scene->default_scene].name;
        if (n && *n) out->name = n;
    }
    out->name_size = strlen(out->name);
    if (scene->has_bounds) {
        out->flags |= KILN_COOKED_SCENE_HAS_BOUNDS;
        memcpy(out->bounds_min, scene->bounds_min, sizeof out->bounds_min);
        memcpy(out->bounds_max, scene->bounds_max, sizeof out->bounds_max);
        if (!all_finite(out->bounds_min, 3) || !all_finite(out->bounds_max, 3)) {
            /* A box that overflowed says nothing useful: leave it out. */
            out->flags &= ~(uint32_t)KILN_COOKED_SCENE_HAS_BOUNDS;
            memset(out->bounds_min, 0, sizeof out->bounds_min);
            memset(out->bounds_max, 0, sizeof out->bounds_max);
        }
    }
    bool synthetic = scene->root_count > 1;
    if (synthetic) out->flags |= KILN_COOKED_SCENE_SYNTHETIC_ROOT;

    /* Every temporary sized by the scene's own counts (the walk visits each node at most once). */
    uint64_t max_nodes = (uint64_t)scene->node_count + (synthetic ? 1 : 0);
    if (max_nodes > MAX_RECORDS)
        return kiln_error_set(err, KILN_E_LIMIT, "cooked scene: %llu nodes",
                              (unsigned long long)max_nodes);
    size_t stack_cap = scene->root_count;
    for (uint32_t i = 0; i < scene->node_count; i++)
        if (!kiln_size_add(stack_cap, scene->nodes[i].child_count, &stack_cap))
            return kiln_error_set(err, KILN_E_LIMIT, "cooked scene: too many children");
    build b = {scene, ids, out, &out->allocator, err, NULL, NULL, NULL, NULL, NULL, KILN_OK};
    a = &out->allocator;
    size_t visited_size = scene->node_count ? scene->node_count : 1;
    size_t map_count = 2 * (size_t)scene->mesh_count * 2 + 3 * (size_t)scene->skin_count +
                       scene->camera_count + scene->light_count;
    size_t stack_size = 0, map_size = 0, nodes_size = 0;
    uint8_t *visited = kiln_calloc(a, 1, visited_size);
    pending *stack = NULL;
    uint32_t *maps = NULL;
    kiln_result r = KILN_OK;
    if (!kiln_size_mul(stack_cap ? stack_cap : 1, sizeof *stack, &stack_size) ||
        !kiln_size_mul(map_count ? map_count : 1, sizeof *maps, &map_size) ||
        !kiln_size_mul(max_nodes ? (size_t)max_nodes : 1, sizeof *out->nodes, &nodes_size))
        r = kiln_error_set(err, KILN_E_LIMIT, "cooked scene: too large");
    if (r == KILN_OK) {
        stack = kiln_alloc(a, stack_size);
        maps = kiln_alloc(a, map_size);
        out->nodes = kiln_calloc(a, 1, nodes_size);
        if (out->nodes) out->capacity.nodes = (uint32_t)(max_nodes ? max_nodes : 1);
        if (!visited || !stack || !maps || !out->nodes)
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "cooked scene: out of memory");
    }
    if (r == KILN_OK) {
        memset(maps, 0xFF, map_size); /* NONE everywhere */
        b.mesh_prims = maps;
        b.mesh_weights = maps + 2 * (size_t)scene->mesh_count;
        b.camera_map = maps + 4 * (size_t)scene->mesh_count;
        b.light_map = b.camera_map + scene->camera_count;
        b.copy_prims = b.light_map + scene->light_count;
        if (synthetic) {
            identity_node(&out->nodes[0], out->name, out->name_size);
            out->node_count = 1;
        }
        r = build_scene(&b, visited, stack, stack_cap);
    }
    kiln_free(a, visited, visited_size);
    kiln_free(a, stack, stack_size);
    kiln_free(a, maps, map_size);
    if (r != KILN_OK) kiln_cooked_scene_free(out);
    return r;
}

void kiln_cooked_scene_free(kiln_cooked_scene *s)
{
    if (!s) return;
    const kiln_allocator *a = &s->allocator;
    kiln_free(a, s->nodes, (size_t)s->capacity.nodes * sizeof *s->nodes);
    kiln_free(a, s->primitives, (size_t)s->capacity.primitives * sizeof *s->primitives);
    kiln_free(a, s->weights, (size_t)s->capacity.weights * sizeof *s->weights);
    kiln_free(a, s->cameras, (size_t)s->capacity.cameras * sizeof *s->cameras);
    kiln_free(a, s->lights, (size_t)s->capacity.lights * sizeof *s->lights);
    kiln_free(a, s->clips, (size_t)s->capacity.clips * sizeof *s->clips);
    memset(s, 0, sizeof *s);
}
