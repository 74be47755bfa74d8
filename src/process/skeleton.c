/* skeleton.c — kiln_skeleton_build (see skeleton.h; docs/animation.md "Skeletons"): order the
 * skin's joints parents first, find each joint's parent joint and the static transforms of the
 * non-joint nodes in between, copy the bind pose and inverse bind matrices, and build the name
 * table. Every pass is linear in nodes + joints (memoised walks), so no node tree makes it slow. */
#include "process/skeleton.h"

#include <string.h>

#include "codec/skeleton_hash.h"
#include "codec/xform.h"
#include "core/alloc.h"
#include "core/error.h"

#define UNKNOWN (-2)

typedef struct build_ctx {
    const kiln_scene *scene;
    const kiln_allocator *a;
    kiln_error *err;
    int32_t *node_joint; /* node -> skin joint index, or -1 */
    int32_t *anc;        /* node -> nearest strict-ancestor skin joint, -1 none, UNKNOWN */
    uint32_t *stack;     /* node_count entries */
    float *rel;          /* node -> transform from its joint ancestor's space (lazy) */
    uint8_t *rel_done;
    int32_t *pre_of_node; /* parent node -> pre index, -1 none, UNKNOWN not yet computed */
} build_ctx;

/* Nearest ancestor (strictly above `node`) that is a joint of the skin: one walk per chain of
 * unknown nodes, each node resolved once. */
static kiln_result nearest_joint_ancestor(build_ctx *c, uint32_t node, int32_t *out)
{
    const kiln_scene *s = c->scene;
    uint32_t depth = 0, n = node;
    for (;;) {
        if (c->anc[n] != UNKNOWN) break;
        if (depth >= s->node_count)
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED, "node %u: cycle of parents", node);
        c->stack[depth++] = n;
        int32_t p = s->nodes[n].parent;
        if (p < 0) break;
        if ((uint32_t)p >= s->node_count)
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED, "node %u: parent %d out of range",
                                  n, p);
        if (c->node_joint[p] >= 0) break;
        n = (uint32_t)p;
    }
    /* Top-most first: each node's parent is a joint, the root's none, or already resolved. */
    for (uint32_t i = depth; i-- > 0;) {
        uint32_t m = c->stack[i];
        int32_t p = s->nodes[m].parent;
        c->anc[m] = p < 0 ? -1 : c->node_joint[p] >= 0 ? c->node_joint[p] : c->anc[p];
    }
    *out = c->anc[node];
    return KILN_OK;
}

/* rel(p) for a node p that is not a joint and has a joint ancestor: the product of the local
 * matrices from just below that joint down to p. Memoised per node. */
static const float *rel_of(build_ctx *c, uint32_t p)
{
    const kiln_scene *s = c->scene;
    uint32_t depth = 0, n = p;
    while (!c->rel_done[n]) {
        c->stack[depth++] = n;
        int32_t q = s->nodes[n].parent;
        if (q < 0 || c->node_joint[q] >= 0) break; /* the walk stops below the joint */
        n = (uint32_t)q;
    }
    for (uint32_t i = depth; i-- > 0;) {
        uint32_t m = c->stack[i];
        int32_t q = s->nodes[m].parent;
        float *dst = c->rel + (size_t)m * 16;
        if (q < 0 || c->node_joint[q] >= 0) memcpy(dst, s->nodes[m].matrix, 16 * sizeof *dst);
        else kiln_mat4_mul(c->rel + (size_t)q * 16, s->nodes[m].matrix, dst);
        c->rel_done[m] = 1;
    }
    return c->rel + (size_t)p * 16;
}

static void free_ctx(build_ctx *c)
{
    size_t n = c->scene->node_count;
    kiln_free(c->a, c->node_joint, n * sizeof *c->node_joint);
    kiln_free(c->a, c->anc, n * sizeof *c->anc);
    kiln_free(c->a, c->stack, n * sizeof *c->stack);
    kiln_free(c->a, c->rel, n * 16 * sizeof *c->rel);
    kiln_free(c->a, c->rel_done, n);
    kiln_free(c->a, c->pre_of_node, n * sizeof *c->pre_of_node);
}

void kiln_cooked_skeleton_free(kiln_cooked_skeleton *s)
{
    if (!s) return;
    const kiln_allocator *a = s->alloc;
    size_t n = s->joint_count;
    kiln_free(a, s->joints, n * sizeof *s->joints);
    kiln_free(a, s->skin_to_joint, n * sizeof *s->skin_to_joint);
    kiln_free(a, s->joint_to_skin, n * sizeof *s->joint_to_skin);
    kiln_free(a, s->pre, (size_t)s->pre_count * 16 * sizeof *s->pre);
    kiln_free(a, s->names, s->names_size);
    kiln_free(a, s->slots, (size_t)s->slot_count * sizeof *s->slots);
    memset(s, 0, sizeof *s);
}

static bool name_equal(const kiln_cooked_skeleton *s, uint32_t joint, const char *name, size_t size)
{
    const kiln_cooked_joint *j = &s->joints[joint];
    return j->name_size == size && memcmp(s->names + j->name_offset, name, size) == 0;
}

int32_t kiln_cooked_skeleton_find(const kiln_cooked_skeleton *s, const char *name, size_t size)
{
    if (!s->slot_count || size == 0) return -1;
    uint64_t h = kiln_skeleton_name_hash(name, size, s->hash_seed);
    uint32_t mask = s->slot_count - 1, hi = (uint32_t)(h >> 32);
    for (uint32_t i = 0, at = (uint32_t)h & mask; i <= s->max_probe; i++, at = (at + 1) & mask) {
        const kiln_cooked_name_slot *slot = &s->slots[at];
        if (slot->joint == KILN_SKELETON_EMPTY_SLOT) return -1;
        if (slot->hash_hi == hi && name_equal(s, slot->joint, name, size))
            return (int32_t)slot->joint;
    }
    return -1;
}

int32_t kiln_cooked_skeleton_joint_of_node(const kiln_cooked_skeleton *s, uint32_t node)
{
    for (uint32_t j = 0; j < s->joint_count; j++)
        if (s->joints[j].node == node) return (int32_t)j;
    return -1;
}

/* Fills the table with one seed; false when some name lies more than MAX_PROBE past its home. */
static bool fill_table(kiln_cooked_skeleton *s, uint32_t seed)
{
    uint32_t mask = s->slot_count - 1;
    for (uint32_t i = 0; i < s->slot_count; i++) {
        s->slots[i].joint = KILN_SKELETON_EMPTY_SLOT;
        s->slots[i].hash_hi = 0;
    }
    s->hash_seed = seed;
    s->max_probe = 0;
    for (uint32_t j = 0; j < s->joint_count; j++) {
        const kiln_cooked_joint *jt = &s->joints[j];
        if (!jt->name_size) continue;
        const char *name = s->names + jt->name_offset;
        uint64_t h = kiln_skeleton_name_hash(name, jt->name_size, seed);
        uint32_t hi = (uint32_t)(h >> 32), at = (uint32_t)h & mask, dist = 0;
        bool duplicate = false;
        while (s->slots[at].joint != KILN_SKELETON_EMPTY_SLOT) {
            if (s->slots[at].hash_hi == hi &&
                name_equal(s, s->slots[at].joint, name, jt->name_size)) {
                duplicate = true; /* an earlier joint has this name: it keeps it */
                break;
            }
            at = (at + 1) & mask;
            dist++;
        }
        if (duplicate) continue;
        if (dist > KILN_SKELETON_MAX_PROBE) return false;
        s->slots[at].joint = j;
        s->slots[at].hash_hi = hi;
        if (dist > s->max_probe) s->max_probe = dist;
    }
    return true;
}

static kiln_result build_table(kiln_cooked_skeleton *s, kiln_error *err)
{
    uint32_t named = 0;
    for (uint32_t j = 0; j < s->joint_count; j++) named += s->joints[j].name_size != 0;
    uint32_t slots = 2;
    while (slots < 2 * (uint64_t)named) slots *= 2;
    /* A few seeds per size, then a larger table: equal inputs take the same path (determinism). */
    for (;;) {
        s->slots = kiln_calloc(s->alloc, slots, sizeof *s->slots);
        if (!s->slots) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "skeleton: name table");
        s->slot_count = slots;
        for (uint32_t seed = 0; seed < 8; seed++)
            if (fill_table(s, seed)) return KILN_OK;
        kiln_free(s->alloc, s->slots, (size_t)slots * sizeof *s->slots);
        s->slots = NULL;
        s->slot_count = 0;
        if (slots >= (1u << 24))
            return kiln_error_set(err, KILN_E_LIMIT, "skeleton: joint names defeat the name table");
        slots *= 2;
    }
}

static kiln_result build_names(kiln_cooked_skeleton *s, const kiln_scene *scene,
                               const kiln_scene_skin *skin, kiln_error *err)
{
    const char *sk_name = skin->name ? skin->name : "";
    size_t total = strlen(sk_name) + 1;
    for (uint32_t j = 0; j < s->joint_count; j++) {
        const char *nm = scene->nodes[s->joints[j].node].name;
        if (!kiln_size_add(total, strlen(nm ? nm : "") + 1, &total) || total > UINT32_MAX)
            return kiln_error_set(err, KILN_E_LIMIT, "skeleton: joint names over 4 GiB");
    }
    s->names = kiln_alloc(s->alloc, total);
    if (!s->names) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "skeleton: names");
    s->names_size = total;
    size_t at = 0, n = strlen(sk_name);
    memcpy(s->names, sk_name, n + 1);
    s->name_offset = 0;
    s->name_size = (uint32_t)n;
    at = n + 1;
    for (uint32_t j = 0; j < s->joint_count; j++) {
        const char *nm = scene->nodes[s->joints[j].node].name;
        if (!nm) nm = "";
        n = strlen(nm);
        memcpy(s->names + at, nm, n + 1);
        s->joints[j].name_offset = (uint32_t)at;
        s->joints[j].name_size = (uint32_t)n;
        at += n + 1;
    }
    return KILN_OK;
}

/* The pre-transform of joint j (whose node's parent is p, whose parent joint's node is pj). */
static kiln_result set_pre(build_ctx *c, kiln_cooked_skeleton *s, kiln_cooked_joint *j)
{
    const kiln_scene *scene = c->scene;
    int32_t p = scene->nodes[j->node].parent;
    j->pre = KILN_SKELETON_NO_PRE;
    if (p < 0 || c->node_joint[p] >= 0) return KILN_OK; /* parent is the joint, or no parent */
    if (c->pre_of_node[p] != UNKNOWN) {
        if (c->pre_of_node[p] >= 0) j->pre = (uint32_t)c->pre_of_node[p];
        return KILN_OK;
    }
    const float *m;
    if (j->parent < 0) {
        m = scene->nodes[p].world; /* a root: everything above it, as the scene composed it */
    } else {
        if (!c->rel) {
            c->rel = kiln_alloc(c->a, (size_t)scene->node_count * 16 * sizeof *c->rel);
            c->rel_done = kiln_calloc(c->a, scene->node_count, 1);
            if (!c->rel || !c->rel_done)
                return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "skeleton: transforms");
        }
        m = rel_of(c, (uint32_t)p);
    }
    if (kiln_mat4_is_identity(m)) {
        c->pre_of_node[p] = -1;
        return KILN_OK;
    }
    /* At most one pre-transform per joint: pre has room for joint_count matrices. */
    memcpy(s->pre + (size_t)s->pre_count * 16, m, 16 * sizeof *m);
    c->pre_of_node[p] = (int32_t)s->pre_count;
    j->pre = s->pre_count++;
    return KILN_OK;
}

static kiln_result build(build_ctx *c, const kiln_scene_skin *skin, kiln_cooked_skeleton *s)
{
    const kiln_scene *scene = c->scene;
    uint32_t n = skin->joint_count, nodes = scene->node_count;
    kiln_result r;
    c->node_joint = kiln_alloc(c->a, (size_t)nodes * sizeof *c->node_joint);
    c->anc = kiln_alloc(c->a, (size_t)nodes * sizeof *c->anc);
    c->stack = kiln_alloc(c->a, (size_t)nodes * sizeof *c->stack);
    c->pre_of_node = kiln_alloc(c->a, (size_t)nodes * sizeof *c->pre_of_node);
    s->joints = kiln_calloc(c->a, n, sizeof *s->joints);
    s->skin_to_joint = kiln_calloc(c->a, n, sizeof *s->skin_to_joint);
    s->joint_to_skin = kiln_calloc(c->a, n, sizeof *s->joint_to_skin);
    s->pre = kiln_calloc(c->a, (size_t)n * 16, sizeof *s->pre);
    s->joint_count = n;
    if (!c->node_joint || !c->anc || !c->stack || !c->pre_of_node || !s->joints ||
        !s->skin_to_joint || !s->joint_to_skin || !s->pre)
        return kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "skeleton: %u joints", n);
    for (uint32_t i = 0; i < nodes; i++) {
        c->node_joint[i] = -1;
        c->anc[i] = UNKNOWN;
        c->pre_of_node[i] = UNKNOWN;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t node = skin->joints[i];
        if (node >= nodes)
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                                  "skin %u joint %u: node %u out of "
                                  "range",
                                  s->skin, i, node);
        if (c->node_joint[node] >= 0)
            return kiln_error_set(c->err, KILN_E_IMPORT_FAILED,
                                  "skin %u: node %u is joint %d and "
                                  "joint %u",
                                  s->skin, node, c->node_joint[node], i);
        c->node_joint[node] = (int32_t)i;
    }
    int32_t *parent_skin = kiln_alloc(c->a, (size_t)n * sizeof *parent_skin);
    uint8_t *emitted = kiln_calloc(c->a, n, 1);
    uint32_t *chain = kiln_alloc(c->a, (size_t)n * sizeof *chain);
    if (!parent_skin || !emitted || !chain) {
        r = kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "skeleton: %u joints", n);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        if ((r = nearest_joint_ancestor(c, skin->joints[i], &parent_skin[i]))) goto done;
    /* Stable parents-first order: before a joint, emit the ancestors not yet emitted. */
    uint32_t next = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = 0;
        for (int32_t k = (int32_t)i; k >= 0 && !emitted[k]; k = parent_skin[k]) {
            if (len >= n) { /* cannot happen: parents come from an acyclic node tree */
                r = kiln_error_set(c->err, KILN_E_INTERNAL, "skeleton: joint parents loop");
                goto done;
            }
            chain[len++] = (uint32_t)k;
            emitted[k] = 1;
        }
        while (len > 0) {
            uint32_t k = chain[--len];
            s->skin_to_joint[k] = next;
            s->joint_to_skin[next] = k;
            next++;
        }
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t old = s->joint_to_skin[j];
        kiln_cooked_joint *jt = &s->joints[j];
        const kiln_scene_node *node = &scene->nodes[skin->joints[old]];
        jt->parent = parent_skin[old] < 0 ? -1 : (int32_t)s->skin_to_joint[parent_skin[old]];
        if (KILN_NEVER(jt->parent >= (int32_t)j)) {
            r = kiln_error_set(c->err, KILN_E_INTERNAL, "skeleton: parent after child");
            goto done;
        }
        s->root_count += jt->parent < 0;
        jt->node = skin->joints[old];
        jt->skin_joint = old;
        memcpy(jt->translation, node->translation, sizeof jt->translation);
        memcpy(jt->rotation, node->rotation, sizeof jt->rotation);
        memcpy(jt->scale, node->scale, sizeof jt->scale);
        if (skin->inverse_bind)
            memcpy(jt->inverse_bind, skin->inverse_bind + (size_t)old * 16,
                   sizeof jt->inverse_bind);
        else kiln_mat4_identity(jt->inverse_bind);
        if ((r = set_pre(c, s, jt))) goto done;
    }
    if ((r = build_names(s, scene, skin, c->err)) || (r = build_table(s, c->err))) goto done;
    /* Trim pre to what was used (its size is part of the free contract). */
    if (s->pre_count < n) {
        size_t old_size = (size_t)n * 16 * sizeof *s->pre;
        size_t new_size = (size_t)s->pre_count * 16 * sizeof *s->pre;
        if (new_size == 0) {
            kiln_free(c->a, s->pre, old_size);
            s->pre = NULL;
        } else {
            float *p = kiln_realloc(c->a, s->pre, old_size, new_size);
            if (!p) {
                r = kiln_error_set(c->err, KILN_E_OUT_OF_MEMORY, "skeleton: pre-transforms");
                s->pre_count = n; /* keep the full size for the free */
                goto done;
            }
            s->pre = p;
        }
    }
    r = KILN_OK;
done:
    kiln_free(c->a, parent_skin, (size_t)n * sizeof *parent_skin);
    kiln_free(c->a, emitted, n);
    kiln_free(c->a, chain, (size_t)n * sizeof *chain);
    return r;
}

kiln_result kiln_skeleton_build(const kiln_scene *scene, uint32_t skin, const kiln_allocator *a,
                                kiln_cooked_skeleton *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_skeleton_build: no output");
    memset(out, 0, sizeof *out);
    if (!scene || skin >= scene->skin_count)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_skeleton_build: skin %u of %u", skin,
                              scene ? scene->skin_count : 0);
    const kiln_scene_skin *sk = &scene->skins[skin];
    if (sk->joint_count == 0 || !sk->joints)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "skin %u has no joints", skin);
    if (sk->joint_count > KILN_SKELETON_MAX_JOINTS)
        return kiln_error_set(err, KILN_E_LIMIT, "skin %u: %u joints; at most %u", skin,
                              sk->joint_count, KILN_SKELETON_MAX_JOINTS);
    out->alloc = a;
    out->skin = skin;
    build_ctx c = {.scene = scene, .a = a, .err = err};
    kiln_result r = build(&c, sk, out);
    free_ctx(&c);
    if (r != KILN_OK) kiln_cooked_skeleton_free(out);
    return r;
}
