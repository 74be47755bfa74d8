/* mesh_copies.c — kiln_mesh_copies_plan (mesh_copies.h). One pass over the nodes in order; a
 * per-skin memo of the last (mesh, copy) verdict makes the instances of one character cost one
 * comparison each, and the copies of a mesh are chained so a new skin is compared only with the
 * copies of its own mesh. */
#include "process/mesh_copies.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

#define NONE 0xFFFFFFFFu

/* One past the largest joint index any vertex of the mesh gives weight to (0 when none). */
static uint32_t weighted_joints(const kiln_scene_mesh *m)
{
    uint32_t used = 0;
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        const kiln_scene_primitive *pr = &m->primitives[p];
        for (uint32_t s = 0; s < pr->joint_set_count && s < KILN_SCENE_MAX_JOINT_SETS; s++) {
            const uint16_t *j = pr->joints[s];
            const float *w = pr->weights[s];
            if (!j || !w) continue;
            for (size_t i = 0; i < (size_t)pr->vertex_count * 4; i++)
                if (w[i] > 0.0f && j[i] >= used) used = (uint32_t)j[i] + 1;
        }
    }
    return used;
}

/* The cooked joint a vertex's joint index v becomes with skeleton sk (the cook's remap rule). */
static uint32_t mapped(const kiln_cooked_skeleton *sk, uint32_t v)
{
    return v < sk->joint_count ? sk->skin_to_joint[v] : v;
}

static bool same_mapping(const kiln_cooked_skeleton *a, const kiln_cooked_skeleton *b,
                         uint32_t used)
{
    for (uint32_t v = 0; v < used; v++)
        if (mapped(a, v) != mapped(b, v)) return false;
    return true;
}

/* Marks the nodes reachable from the scene's roots (those the cooked scene holds); a node
 * reached twice (a cycle: the scene cook refuses it) is not walked again. */
static void mark_reachable(const kiln_scene *sc, uint8_t *reached, uint32_t *stack)
{
    size_t top = 0;
    for (uint32_t i = 0; i < sc->root_count; i++)
        if (sc->roots[i] < sc->node_count && !reached[sc->roots[i]]) {
            reached[sc->roots[i]] = 1;
            stack[top++] = sc->roots[i];
        }
    while (top) {
        const kiln_scene_node *n = &sc->nodes[stack[--top]];
        for (uint32_t c = 0; c < n->child_count; c++) {
            uint32_t k = n->children[c];
            if (k >= sc->node_count || reached[k]) continue;
            reached[k] = 1;
            stack[top++] = k; /* each node is pushed once: node_count entries suffice */
        }
    }
}

typedef struct plan_tmp {
    uint32_t *used;      /* per mesh: weighted_joints, NONE until needed */
    uint32_t *head;      /* per mesh: first further copy (index into the node-order list) */
    uint32_t *tail;      /* per mesh: last one */
    uint32_t *next;      /* per copy: the next copy of the same mesh */
    uint32_t *mesh;      /* per copy, node order */
    int32_t *skin;       /* per copy, node order */
    uint32_t *memo_mesh; /* per skin: the mesh of the last verdict, NONE */
    int32_t *memo_copy;  /* per skin: that verdict (-1 or a copy's skin) */
    uint8_t *reached;    /* per node: reachable from the roots */
} plan_tmp;

/* The copy of mesh i that skin s draws: -1 for the first copy, else the skin of the copy. A new
 * copy is appended to the node-order list (capacity: one per node). */
static int32_t copy_for(const kiln_scene *sc, const kiln_cooked_skeleton *sk, plan_tmp *t,
                        uint32_t *count, int32_t first, uint32_t i, int32_t s)
{
    if (s == first) return -1;
    if (t->used[i] == NONE) t->used[i] = weighted_joints(&sc->meshes[i]);
    uint32_t used = t->used[i];
    if (same_mapping(&sk[first], &sk[s], used)) return -1;
    for (uint32_t c = t->head[i]; c != NONE; c = t->next[c])
        if (same_mapping(&sk[t->skin[c]], &sk[s], used)) return t->skin[c];
    uint32_t c = (*count)++;
    t->mesh[c] = i;
    t->skin[c] = s;
    t->next[c] = NONE;
    if (t->head[i] == NONE) t->head[i] = c;
    else t->next[t->tail[i]] = c;
    t->tail[i] = c;
    return s;
}

kiln_result kiln_mesh_copies_plan(const kiln_scene *sc, const kiln_cooked_skeleton *skeletons,
                                  const kiln_allocator *a, kiln_mesh_copies *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_copies_plan: no output");
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    if (!sc || (sc->skin_count && !skeletons))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_mesh_copies_plan: no scene or skeletons");
    a = &out->allocator;
    size_t meshes = sc->mesh_count ? sc->mesh_count : 1,
           nodes = sc->node_count ? sc->node_count : 1, skins = sc->skin_count ? sc->skin_count : 1;
    out->mesh_count = sc->mesh_count;
    out->node_count = sc->node_count;
    out->mesh_skin = kiln_alloc(a, meshes * sizeof *out->mesh_skin);
    out->node_copy = kiln_alloc(a, nodes * sizeof *out->node_copy);
    plan_tmp t = {
        kiln_alloc(a, meshes * sizeof *t.used),
        kiln_alloc(a, meshes * sizeof *t.head),
        kiln_alloc(a, meshes * sizeof *t.tail),
        kiln_alloc(a, nodes * sizeof *t.next),
        kiln_alloc(a, nodes * sizeof *t.mesh),
        kiln_alloc(a, nodes * sizeof *t.skin),
        kiln_alloc(a, skins * sizeof *t.memo_mesh),
        kiln_alloc(a, skins * sizeof *t.memo_copy),
        kiln_calloc(a, nodes, 1),
    };
    kiln_result r = KILN_OK;
    if (!out->mesh_skin || !out->node_copy || !t.used || !t.head || !t.tail || !t.next || !t.mesh ||
        !t.skin || !t.memo_mesh || !t.memo_copy || !t.reached) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "mesh copies: out of memory");
        goto done;
    }
    for (size_t i = 0; i < meshes; i++) {
        out->mesh_skin[i] = -1;
        t.used[i] = t.head[i] = t.tail[i] = NONE;
    }
    for (size_t s = 0; s < skins; s++) t.memo_mesh[s] = NONE;
    mark_reachable(sc, t.reached, t.next); /* next is free until the first copy */
    uint32_t count = 0;
    for (uint32_t n = 0; n < sc->node_count; n++) {
        const kiln_scene_node *node = &sc->nodes[n];
        out->node_copy[n] = -1;
        /* Indices out of range are the scene cook's to refuse; here they draw nothing. */
        if (node->mesh < 0 || node->skin < 0 || (uint32_t)node->mesh >= sc->mesh_count ||
            (uint32_t)node->skin >= sc->skin_count)
            continue;
        uint32_t i = (uint32_t)node->mesh;
        int32_t s = node->skin;
        if (out->mesh_skin[i] < 0) out->mesh_skin[i] = s;
        /* A node outside the scene draws nothing: no copy for it. */
        if (!t.reached[n]) continue;
        int32_t copy;
        if (t.memo_mesh[s] == i) {
            copy = t.memo_copy[s];
        } else {
            copy = copy_for(sc, skeletons, &t, &count, out->mesh_skin[i], i, s);
            t.memo_mesh[s] = i;
            t.memo_copy[s] = copy;
        }
        out->node_copy[n] = copy;
        if (copy != s && !(copy < 0 && s == out->mesh_skin[i])) out->shared++;
    }
    /* Group the further copies by mesh, keeping node order within a mesh: the chains already
     * are that order. */
    if (count) {
        out->copy_mesh = kiln_alloc(a, (size_t)count * sizeof *out->copy_mesh);
        out->copy_skin = kiln_alloc(a, (size_t)count * sizeof *out->copy_skin);
        out->copy_count = count; /* what the free sizes both by */
        if (!out->copy_mesh || !out->copy_skin) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "mesh copies: out of memory");
            goto done;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < sc->mesh_count; i++)
            for (uint32_t c = t.head[i]; c != NONE; c = t.next[c], k++) {
                out->copy_mesh[k] = i;
                out->copy_skin[k] = t.skin[c];
            }
    }
done:
    kiln_free(a, t.used, meshes * sizeof *t.used);
    kiln_free(a, t.head, meshes * sizeof *t.head);
    kiln_free(a, t.tail, meshes * sizeof *t.tail);
    kiln_free(a, t.next, nodes * sizeof *t.next);
    kiln_free(a, t.mesh, nodes * sizeof *t.mesh);
    kiln_free(a, t.skin, nodes * sizeof *t.skin);
    kiln_free(a, t.memo_mesh, skins * sizeof *t.memo_mesh);
    kiln_free(a, t.memo_copy, skins * sizeof *t.memo_copy);
    kiln_free(a, t.reached, nodes);
    if (r != KILN_OK) kiln_mesh_copies_free(out);
    return r;
}

void kiln_mesh_copies_free(kiln_mesh_copies *c)
{
    if (!c) return;
    const kiln_allocator *a = &c->allocator;
    size_t meshes = c->mesh_count ? c->mesh_count : 1, nodes = c->node_count ? c->node_count : 1;
    kiln_free(a, c->mesh_skin, meshes * sizeof *c->mesh_skin);
    kiln_free(a, c->node_copy, nodes * sizeof *c->node_copy);
    kiln_free(a, c->copy_mesh, (size_t)c->copy_count * sizeof *c->copy_mesh);
    kiln_free(a, c->copy_skin, (size_t)c->copy_count * sizeof *c->copy_skin);
    memset(c, 0, sizeof *c);
}
