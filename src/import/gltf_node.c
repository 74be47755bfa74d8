/* gltf_node.c — the node hierarchy (checked: one parent each, no cycles), local and world
 * transforms, skins, cameras, KHR_lights_punctual lights, scenes, the roots and world bounds. */
#include "import/gltf_private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "codec/xform.h"

/* ---- nodes
 * ----------------------------------------------------------------------------------------- */

/* The children of node self, checked against the rules of glTF 2.0 §3.5.2 (the hierarchy is a
 * set of disjoint strict trees: no node its own child, none listed twice, none with two parents)
 * before their list is allocated: a list that keeps the rules is no longer than the node count.
 * parents[child] gets self. Longer cycles are found by world_transforms. */
static kiln_result read_children(gltf_ctx *c, const json_t *children, const char *ptr,
                                 kiln_scene_node *n, int32_t *parents, uint32_t self)
{
    const kiln_scene *s = c->scene;
    size_t cn = json_array_size(children);
    for (size_t i = 0; i < cn; i++) {
        json_t *e = json_array_get(children, i);
        char cptr[96];
        snprintf(cptr, sizeof cptr, "%s/children/%zu", ptr, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            (uint64_t)json_integer_value(e) >= s->node_count)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, cptr, "not a node index below %u",
                             s->node_count);
        uint32_t child = (uint32_t)json_integer_value(e);
        if (child == self)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, cptr,
                             "node %u is its own child: the node hierarchy must not contain "
                             "cycles",
                             self);
        if (parents[child] == (int32_t)self)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, cptr,
                             "node %u appears twice among the children of node %u: each child "
                             "is listed once",
                             child, self);
        if (parents[child] >= 0)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, cptr,
                             "node %u has two parents (nodes %d and %u): a node has at most one",
                             child, parents[child], self);
        parents[child] = (int32_t)self;
    }
    uint32_t *kids = kiln_arena_array(c->arena, cn ? cn : 1, sizeof *kids);
    if (!kids) return gltf_nomem(c, "node children");
    for (size_t i = 0; i < cn; i++)
        kids[i] = (uint32_t)json_integer_value(json_array_get(children, i));
    n->children = kids;
    n->child_count = (uint32_t)cn;
    return KILN_OK;
}

/* EXT_mesh_gpu_instancing: TRANSLATION, ROTATION and SCALE accessors of one count (decoded to
 * floats, normalized integers as the extension allows them); attributes of the application
 * ("_ID", ...) are not kept, with a warning. */
static kiln_result read_instancing(gltf_ctx *c, const json_t *nj, const char *ptr,
                                   kiln_scene_node *n)
{
    json_t *ij = gltf_extension(nj, "EXT_mesh_gpu_instancing");
    if (!ij) return KILN_OK;
    char iptr[128], aptr[160];
    snprintf(iptr, sizeof iptr, "%s/extensions/EXT_mesh_gpu_instancing", ptr);
    snprintf(aptr, sizeof aptr, "%s/attributes", iptr);
    if (n->mesh < 0)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr, "instancing on a node without a mesh");
    json_t *attrs;
    kiln_result r = gltf_get_object(c, ij, "attributes", iptr, &attrs);
    if (r != KILN_OK) return r;
    if (!attrs) return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr, "\"attributes\" is missing");
    static const char *const names[3] = {"TRANSLATION", "ROTATION", "SCALE"};
    const float **outs[3] = {&n->instance_translations, &n->instance_rotations,
                             &n->instance_scales};
    bool any = false;
    for (int k = 0; k < 3; k++) {
        int32_t acc;
        if ((r = gltf_get_index(c, attrs, names[k], aptr, c->accessor_count, false, &acc)))
            return r;
        if (acc < 0) continue;
        const gltf_accessor *a;
        if ((r = gltf_accessor_info(c, (uint32_t)acc, &a))) return r;
        uint32_t want = k == 1 ? 4 : 3;
        if (a->components != want || a->count == 0 || (any && a->count != n->instance_count))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, aptr,
                             "%s must be a VEC%u accessor with as many elements as the other "
                             "instance attributes",
                             names[k], want);
        if ((r = gltf_accessor_floats(c, (uint32_t)acc, outs[k]))) return r;
        n->instance_count = a->count;
        any = true;
    }
    const char *key;
    json_t *v;
    json_object_foreach (attrs, key, v) {
        if (!strcmp(key, "TRANSLATION") || !strcmp(key, "ROTATION") || !strcmp(key, "SCALE"))
            continue;
        if (!kiln_scene_warn(c->scene, "%s: instance attribute \"%.64s\" not kept", aptr, key))
            return gltf_nomem(c, "a warning");
    }
    return KILN_OK;
}

static kiln_result read_node(gltf_ctx *c, const json_t *nj, const char *ptr, kiln_scene_node *n,
                             int32_t *parents, uint32_t self)
{
    kiln_scene *s = c->scene;
    kiln_result r;
    json_t *children, *matrix, *weights;
    if ((r = gltf_get_name(c, nj, ptr, &n->name)) || (r = gltf_get_extras(c, nj, &n->extras)) ||
        (r = gltf_get_index(c, nj, "mesh", ptr, s->mesh_count, false, &n->mesh)) ||
        (r = gltf_get_index(c, nj, "skin", ptr, s->skin_count, false, &n->skin)) ||
        (r = gltf_get_index(c, nj, "camera", ptr, s->camera_count, false, &n->camera)) ||
        (r = gltf_get_array(c, nj, "children", ptr, KILN_GLTF_MAX_ITEMS, &children)) ||
        (r = gltf_get_array(c, nj, "matrix", ptr, KILN_GLTF_MAX_ITEMS, &matrix)) ||
        (r = gltf_get_array(c, nj, "weights", ptr, KILN_GLTF_MAX_ITEMS, &weights)))
        return r;
    n->light = -1;
    json_t *lp = gltf_extension(nj, "KHR_lights_punctual");
    if (lp) {
        char lptr[96];
        snprintf(lptr, sizeof lptr, "%s/extensions/KHR_lights_punctual", ptr);
        if ((r = gltf_get_index(c, lp, "light", lptr, s->light_count, true, &n->light))) return r;
    }
    if (n->skin >= 0 && n->mesh < 0)
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "a node with a \"skin\" needs a \"mesh\"");
    if ((r = read_instancing(c, nj, ptr, n))) return r;
    n->rotation[3] = 1.0f;
    n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
    bool trs = json_object_get(nj, "translation") || json_object_get(nj, "rotation") ||
               json_object_get(nj, "scale");
    if (matrix) {
        if (trs)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "a node has a \"matrix\" or translation/rotation/scale, not both");
        if ((r = gltf_get_floats(c, nj, "matrix", ptr, 16, n->matrix))) return r;
        n->has_matrix = true;
        kiln_mat4_decompose(n->matrix, n->translation, n->rotation, n->scale);
    } else {
        if ((r = gltf_get_floats(c, nj, "translation", ptr, 3, n->translation)) ||
            (r = gltf_get_floats(c, nj, "rotation", ptr, 4, n->rotation)) ||
            (r = gltf_get_floats(c, nj, "scale", ptr, 3, n->scale)))
            return r;
        if (!(kiln_quat_normalize(n->rotation) > 1e-6f))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "\"rotation\" is not a unit quaternion");
        kiln_mat4_compose(n->translation, n->rotation, n->scale, n->matrix);
    }
    if (weights) {
        size_t wn = json_array_size(weights);
        /* As many as the mesh's morph targets (its default weights when it lost every
         * primitive to a dropped mode); checked before anything is allocated for them. */
        const kiln_scene_mesh *m = n->mesh >= 0 ? &s->meshes[n->mesh] : NULL;
        uint32_t targets = !m                   ? 0
                           : m->primitive_count ? m->primitives[0].target_count
                                                : m->weight_count;
        if (!m || wn != targets)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "\"weights\" has %zu values; the mesh has %u morph targets", wn,
                             targets);
        float *w = kiln_arena_array(c->arena, wn ? wn : 1, sizeof *w);
        if (!w) return gltf_nomem(c, "node weights");
        if ((r = gltf_get_floats(c, nj, "weights", ptr, wn, w))) return r;
        n->weights = w;
        n->weight_count = (uint32_t)wn;
    }
    if (children) return read_children(c, children, ptr, n, parents, self);
    return KILN_OK;
}

/* World matrices top-down from the roots; a node never reached lies on a cycle. */
static kiln_result world_transforms(gltf_ctx *c, kiln_scene_node *nodes, uint32_t count)
{
    uint32_t *queue = kiln_arena_array(&c->scratch, count, sizeof *queue);
    if (!queue) return gltf_nomem(c, "the node walk");
    size_t head = 0, tail = 0;
    for (uint32_t i = 0; i < count; i++)
        if (nodes[i].parent < 0) {
            memcpy(nodes[i].world, nodes[i].matrix, sizeof nodes[i].world);
            queue[tail++] = i;
        }
    while (head < tail) {
        const kiln_scene_node *n = &nodes[queue[head++]];
        for (uint32_t k = 0; k < n->child_count; k++) {
            kiln_scene_node *child = &nodes[n->children[k]];
            kiln_mat4_mul(n->world, child->matrix, child->world);
            queue[tail++] = n->children[k];
        }
    }
    if (tail < count) {
        /* Every node has at most one parent, so the unreached ones form cycles. */
        uint32_t first = 0;
        bool *seen = kiln_arena_array(&c->scratch, count, sizeof *seen);
        if (!seen) return gltf_nomem(c, "the node walk");
        for (size_t i = 0; i < tail; i++) seen[queue[i]] = true;
        while (seen[first]) first++;
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/nodes/%u", first);
        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                         "node %u is part of a cycle of parents and children", first);
    }
    return KILN_OK;
}

/* ---- skins, cameras, lights ------------------------------------------------------------------ */

static kiln_result read_skins(gltf_ctx *c)
{
    kiln_scene *s = c->scene;
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "skins", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK || !list || !json_array_size(list)) return r;
    size_t n = json_array_size(list);
    kiln_scene_skin *skins = kiln_arena_array(c->arena, n, sizeof *skins);
    if (!skins) return gltf_nomem(c, "skins");
    for (size_t i = 0; i < n; i++) {
        char ptr[48];
        snprintf(ptr, sizeof ptr, "/skins/%zu", i);
        json_t *sj = json_array_get(list, i), *joints;
        if (!json_is_object(sj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        kiln_scene_skin *k = &skins[i];
        int32_t ibm;
        if ((r = gltf_get_name(c, sj, ptr, &k->name)) ||
            (r = gltf_get_array(c, sj, "joints", ptr, 65536, &joints)) ||
            (r = gltf_get_index(c, sj, "skeleton", ptr, s->node_count, false, &k->skeleton)) ||
            (r = gltf_get_index(c, sj, "inverseBindMatrices", ptr, c->accessor_count, false, &ibm)))
            return r;
        if (!joints || !json_array_size(joints))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "\"joints\" must hold at least one node");
        size_t jn = json_array_size(joints);
        uint32_t *j = kiln_arena_array(c->arena, jn, sizeof *j);
        float *inv = kiln_arena_array(c->arena, jn * 16, sizeof *inv);
        if (!j || !inv) return gltf_nomem(c, "skin joints");
        for (size_t q = 0; q < jn; q++) {
            json_t *e = json_array_get(joints, q);
            if (!json_is_integer(e) || json_integer_value(e) < 0 ||
                (uint64_t)json_integer_value(e) >= s->node_count) {
                char jptr[80];
                snprintf(jptr, sizeof jptr, "%s/joints/%zu", ptr, q);
                return gltf_fail(c, KILN_E_IMPORT_FAILED, jptr, "not a node index below %u",
                                 s->node_count);
            }
            j[q] = (uint32_t)json_integer_value(e);
            kiln_mat4_identity(inv + q * 16);
        }
        if (ibm >= 0) {
            const gltf_accessor *a;
            const float *m;
            char iptr[80];
            snprintf(iptr, sizeof iptr, "%s/inverseBindMatrices", ptr);
            if ((r = gltf_accessor_info(c, (uint32_t)ibm, &a))) return r;
            if (a->components != 16 || a->count < jn)
                return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr,
                                 "accessor %d must be MAT4 with at least %zu elements", ibm, jn);
            if ((r = gltf_accessor_floats(c, (uint32_t)ibm, &m))) return r;
            memcpy(inv, m, jn * 16 * sizeof *inv);
            for (size_t q = 0; q < jn * 16; q++)
                if (!isfinite(inv[q]))
                    return gltf_fail(c, KILN_E_IMPORT_FAILED, iptr, "a matrix value is not finite");
        }
        k->joints = j;
        k->joint_count = (uint32_t)jn;
        k->inverse_bind = inv;
        s->stats.joints += jn;
    }
    s->skins = skins;
    s->skin_count = (uint32_t)n;
    return KILN_OK;
}

static kiln_result read_cameras(gltf_ctx *c)
{
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "cameras", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK || !list || !json_array_size(list)) return r;
    size_t n = json_array_size(list);
    kiln_scene_camera *cams = kiln_arena_array(c->arena, n, sizeof *cams);
    if (!cams) return gltf_nomem(c, "cameras");
    for (size_t i = 0; i < n; i++) {
        char ptr[48], sptr[80];
        snprintf(ptr, sizeof ptr, "/cameras/%zu", i);
        json_t *cj = json_array_get(list, i), *sub;
        if (!json_is_object(cj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        kiln_scene_camera *k = &cams[i];
        const char *type;
        if ((r = gltf_get_name(c, cj, ptr, &k->name)) ||
            (r = gltf_get_string(c, cj, "type", ptr, &type)))
            return r;
        bool persp = type && strcmp(type, "perspective") == 0;
        if (!type || (!persp && strcmp(type, "orthographic") != 0)) {
            snprintf(sptr, sizeof sptr, "%s/type", ptr);
            return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr,
                             "\"type\" must be \"perspective\" or \"orthographic\"");
        }
        k->type = persp ? KILN_SCENE_CAMERA_PERSPECTIVE : KILN_SCENE_CAMERA_ORTHOGRAPHIC;
        if ((r = gltf_get_object(c, cj, type, ptr, &sub))) return r;
        if (!sub) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "\"%s\" is missing", type);
        snprintf(sptr, sizeof sptr, "%s/%s", ptr, type);
        if ((r = gltf_get_float(c, sub, "znear", sptr, -1.0f, &k->znear)) ||
            (r = gltf_get_float(c, sub, "zfar", sptr, 0.0f, &k->zfar)))
            return r;
        if (persp) {
            if ((r = gltf_get_float(c, sub, "yfov", sptr, -1.0f, &k->yfov)) ||
                (r = gltf_get_float(c, sub, "aspectRatio", sptr, 0.0f, &k->aspect)))
                return r;
            if (!(k->yfov > 0) || !(k->znear > 0) || k->aspect < 0 ||
                (k->zfar != 0 && !(k->zfar > k->znear)))
                return gltf_fail(
                    c, KILN_E_IMPORT_FAILED, sptr,
                    "needs yfov > 0, znear > 0, zfar > znear if given, aspectRatio > 0");
        } else {
            if ((r = gltf_get_float(c, sub, "xmag", sptr, 0.0f, &k->xmag)) ||
                (r = gltf_get_float(c, sub, "ymag", sptr, 0.0f, &k->ymag)))
                return r;
            if (!json_object_get(sub, "xmag") || !json_object_get(sub, "ymag") ||
                !json_object_get(sub, "zfar") || k->znear < 0 || !(k->zfar > k->znear))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, sptr,
                                 "needs xmag, ymag, znear >= 0 and zfar > znear");
        }
    }
    c->scene->cameras = cams;
    c->scene->camera_count = (uint32_t)n;
    return KILN_OK;
}

static kiln_result read_lights(gltf_ctx *c)
{
    json_t *ext = gltf_extension(c->root, "KHR_lights_punctual"), *list;
    if (!ext) return KILN_OK;
    const char *eptr = "/extensions/KHR_lights_punctual";
    kiln_result r = gltf_get_array(c, ext, "lights", eptr, KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK || !list || !json_array_size(list)) return r;
    size_t n = json_array_size(list);
    kiln_scene_light *lights = kiln_arena_array(c->arena, n, sizeof *lights);
    if (!lights) return gltf_nomem(c, "lights");
    for (size_t i = 0; i < n; i++) {
        char ptr[80];
        snprintf(ptr, sizeof ptr, "%s/lights/%zu", eptr, i);
        json_t *lj = json_array_get(list, i), *spot;
        if (!json_is_object(lj)) return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
        kiln_scene_light *l = &lights[i];
        const char *type;
        l->color[0] = l->color[1] = l->color[2] = 1.0f;
        if ((r = gltf_get_name(c, lj, ptr, &l->name)) ||
            (r = gltf_get_string(c, lj, "type", ptr, &type)) ||
            (r = gltf_get_floats(c, lj, "color", ptr, 3, l->color)) ||
            (r = gltf_get_float(c, lj, "intensity", ptr, 1.0f, &l->intensity)) ||
            (r = gltf_get_float(c, lj, "range", ptr, 0.0f, &l->range)) ||
            (r = gltf_get_object(c, lj, "spot", ptr, &spot)))
            return r;
        if (type && strcmp(type, "directional") == 0) l->type = KILN_SCENE_LIGHT_DIRECTIONAL;
        else if (type && strcmp(type, "point") == 0) l->type = KILN_SCENE_LIGHT_POINT;
        else if (type && strcmp(type, "spot") == 0) l->type = KILN_SCENE_LIGHT_SPOT;
        else {
            char mp[96];
            snprintf(mp, sizeof mp, "%s/type", ptr);
            return gltf_fail(c, KILN_E_IMPORT_FAILED, mp,
                             "\"type\" must be \"directional\", \"point\" or \"spot\"");
        }
        l->outer_cone = 0.78539816f;
        if (spot) {
            char sptr[96];
            snprintf(sptr, sizeof sptr, "%s/spot", ptr);
            if ((r = gltf_get_float(c, spot, "innerConeAngle", sptr, 0.0f, &l->inner_cone)) ||
                (r = gltf_get_float(c, spot, "outerConeAngle", sptr, 0.78539816f, &l->outer_cone)))
                return r;
        }
        if (l->type == KILN_SCENE_LIGHT_SPOT &&
            !(l->inner_cone >= 0 && l->inner_cone < l->outer_cone && l->outer_cone <= 1.5707964f))
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "spot cones need 0 <= inner < outer <= pi/2");
        if (l->intensity < 0 || l->range < 0)
            return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                             "intensity and range must not be negative");
    }
    c->scene->lights = lights;
    c->scene->light_count = (uint32_t)n;
    return KILN_OK;
}

/* ---- scenes, roots, bounds
 * ----------------------------------------------------------------------- */

static kiln_result read_scenes(gltf_ctx *c, const int32_t *parents)
{
    kiln_scene *s = c->scene;
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "scenes", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK) return r;
    size_t n = list ? json_array_size(list) : 0;
    if ((r = gltf_get_index(c, c->root, "scene", "", n, false, &s->default_scene))) return r;
    if (n) {
        kiln_scene_root_set *sets = kiln_arena_array(c->arena, n, sizeof *sets);
        /* listed[node] = 1 + the last scene that listed it: one array for every scene (one per
         * scene would cost scenes * nodes bytes). */
        uint32_t *listed =
            kiln_arena_array(&c->scratch, s->node_count ? s->node_count : 1, sizeof *listed);
        if (!sets || !listed) return gltf_nomem(c, "scenes");
        for (size_t i = 0; i < n; i++) {
            char ptr[48];
            snprintf(ptr, sizeof ptr, "/scenes/%zu", i);
            json_t *sj = json_array_get(list, i), *nodes;
            if (!json_is_object(sj))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
            if ((r = gltf_get_name(c, sj, ptr, &sets[i].name)) ||
                (r = gltf_get_array(c, sj, "nodes", ptr, KILN_GLTF_MAX_ITEMS, &nodes)))
                return r;
            size_t nn = nodes ? json_array_size(nodes) : 0;
            uint32_t *roots = kiln_arena_array(c->arena, nn ? nn : 1, sizeof *roots);
            if (!roots) return gltf_nomem(c, "scene nodes");
            for (size_t k = 0; k < nn; k++) {
                json_t *e = json_array_get(nodes, k);
                char nptr[80];
                snprintf(nptr, sizeof nptr, "%s/nodes/%zu", ptr, k);
                if (!json_is_integer(e) || json_integer_value(e) < 0 ||
                    (uint64_t)json_integer_value(e) >= s->node_count) {
                    if (!s->node_count)
                        return gltf_fail(c, KILN_E_IMPORT_FAILED, nptr,
                                         "not a node index: the file has no \"nodes\"");
                    return gltf_fail(c, KILN_E_IMPORT_FAILED, nptr, "not a node index below %u",
                                     s->node_count);
                }
                roots[k] = (uint32_t)json_integer_value(e);
                if (parents[roots[k]] >= 0)
                    return gltf_fail(c, KILN_E_IMPORT_FAILED, nptr,
                                     "node %u is listed as a root but has parent %d", roots[k],
                                     parents[roots[k]]);
                if (listed[roots[k]] == i + 1)
                    return gltf_fail(c, KILN_E_IMPORT_FAILED, nptr, "node %u is listed twice",
                                     roots[k]);
                listed[roots[k]] = (uint32_t)i + 1;
            }
            sets[i].nodes = roots;
            sets[i].node_count = (uint32_t)nn;
        }
        s->scenes = sets;
        s->scene_count = (uint32_t)n;
    }
    if (s->default_scene >= 0) {
        s->roots = s->scenes[s->default_scene].nodes;
        s->root_count = s->scenes[s->default_scene].node_count;
        return KILN_OK;
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < s->node_count; i++) count += parents[i] < 0;
    uint32_t *roots = kiln_arena_array(c->arena, count ? count : 1, sizeof *roots);
    if (!roots) return gltf_nomem(c, "the roots");
    count = 0;
    for (uint32_t i = 0; i < s->node_count; i++)
        if (parents[i] < 0) roots[count++] = i;
    s->roots = roots;
    s->root_count = count;
    return KILN_OK;
}

static void grow_bounds(kiln_scene *s, const float world[16], const float lo[3], const float hi[3])
{
    for (int corner = 0; corner < 8; corner++) {
        float v[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1],
                      corner & 4 ? hi[2] : lo[2]};
        for (int k = 0; k < 3; k++) {
            float w = world[k] * v[0] + world[4 + k] * v[1] + world[8 + k] * v[2] + world[12 + k];
            if (!s->has_bounds || w < s->bounds_min[k]) s->bounds_min[k] = w;
            if (!s->has_bounds || w > s->bounds_max[k]) s->bounds_max[k] = w;
        }
        s->has_bounds = true;
    }
}

/* (instance, primitive) pairs the bounds take one by one; past them each instance takes its
 * mesh's box instead (as right, looser when turned), since a file of a few megabytes can have a
 * million nodes share a mesh of 65536 primitives. */
#define BOUNDS_PAIRS ((uint64_t)1 << 22)

/* Bounds over mesh instances below the roots (the hierarchy is acyclic by now). */
static kiln_result scene_bounds(gltf_ctx *c)
{
    kiln_scene *s = c->scene;
    if (!s->node_count) return KILN_OK;
    uint32_t *stack = kiln_arena_array(&c->scratch, s->node_count, sizeof *stack);
    if (!stack) return gltf_nomem(c, "the node walk");
    float identity[16];
    kiln_mat4_identity(identity);
    float *boxes = NULL; /* per mesh: min xyz, max xyz over its primitives */
    uint64_t pairs = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t top = 0;
        for (uint32_t i = 0; i < s->root_count; i++) stack[top++] = s->roots[i];
        while (top) {
            const kiln_scene_node *n = &s->nodes[stack[--top]];
            for (uint32_t k = 0; k < n->child_count; k++) stack[top++] = n->children[k];
            if (n->mesh < 0) continue;
            const kiln_scene_mesh *m = &s->meshes[n->mesh];
            /* A skinned mesh is posed by its joints; its bind pose lies in mesh space. */
            const float *world = n->skin >= 0 ? identity : n->world;
            if (pass == 0) pairs += m->primitive_count;
            else if (boxes && m->primitive_count)
                grow_bounds(s, world, boxes + (size_t)n->mesh * 6, boxes + (size_t)n->mesh * 6 + 3);
            else if (!boxes)
                for (uint32_t p = 0; p < m->primitive_count; p++)
                    grow_bounds(s, world, m->primitives[p].bounds_min, m->primitives[p].bounds_max);
        }
        if (pass == 0 && pairs > BOUNDS_PAIRS) {
            if (!(boxes = kiln_arena_array(&c->scratch, (size_t)s->mesh_count * 6, sizeof *boxes)))
                return gltf_nomem(c, "mesh bounds");
            for (uint32_t i = 0; i < s->mesh_count; i++)
                for (uint32_t p = 0; p < s->meshes[i].primitive_count; p++)
                    for (int k = 0; k < 3; k++) {
                        const kiln_scene_primitive *pr = &s->meshes[i].primitives[p];
                        float *b = boxes + (size_t)i * 6;
                        if (p == 0 || pr->bounds_min[k] < b[k]) b[k] = pr->bounds_min[k];
                        if (p == 0 || pr->bounds_max[k] > b[3 + k]) b[3 + k] = pr->bounds_max[k];
                    }
        }
    }
    return KILN_OK;
}

/* Joint indices of skinned primitives must name joints of the skin (where they carry weight).
 * Each mesh is scanned once for its largest such index and its primitives without joints, so
 * many nodes sharing a big mesh do not each scan it; only a node that fails looks for where. */
static kiln_result check_skinned_meshes(gltf_ctx *c)
{
    kiln_scene *s = c->scene;
    uint32_t *needed = NULL, *bare = NULL; /* per mesh: 1 + largest joint (UINT32_MAX: unknown) */
    for (uint32_t i = 0; i < s->node_count; i++) {
        const kiln_scene_node *n = &s->nodes[i];
        if (n->skin < 0) continue;
        uint32_t joints = s->skins[n->skin].joint_count;
        const kiln_scene_mesh *m = &s->meshes[n->mesh];
        if (!needed) {
            needed = kiln_arena_array(&c->scratch, s->mesh_count, sizeof *needed);
            bare = kiln_arena_array(&c->scratch, s->mesh_count, sizeof *bare);
            if (!needed || !bare) return gltf_nomem(c, "the joint check");
            for (uint32_t k = 0; k < s->mesh_count; k++) needed[k] = UINT32_MAX;
        }
        if (needed[n->mesh] == UINT32_MAX) {
            needed[n->mesh] = 0;
            for (uint32_t p = 0; p < m->primitive_count; p++) {
                const kiln_scene_primitive *pr = &m->primitives[p];
                bare[n->mesh] += !pr->joint_set_count;
                for (uint32_t set = 0; set < pr->joint_set_count; set++)
                    for (size_t v = 0; v < (size_t)pr->vertex_count * 4; v++)
                        if (pr->weights[set][v] > 0 && pr->joints[set][v] >= needed[n->mesh])
                            needed[n->mesh] = pr->joints[set][v] + 1u;
            }
        }
        if (bare[n->mesh] &&
            !kiln_scene_warn(s, "/nodes/%u: skinned, but %u primitives of mesh %d have no joints",
                             i, bare[n->mesh], n->mesh))
            return gltf_nomem(c, "a warning");
        if (needed[n->mesh] <= joints) continue;
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            const kiln_scene_primitive *pr = &m->primitives[p];
            for (uint32_t set = 0; set < pr->joint_set_count; set++)
                for (size_t v = 0; v < (size_t)pr->vertex_count * 4; v++)
                    if (pr->weights[set][v] > 0 && pr->joints[set][v] >= joints) {
                        char ptr[48];
                        snprintf(ptr, sizeof ptr, "/nodes/%u", i);
                        return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr,
                                         "mesh %d primitive %u: vertex %zu names joint %u; skin %d "
                                         "has %u",
                                         n->mesh, p, v / 4, pr->joints[set][v], n->skin, joints);
                    }
        }
    }
    return KILN_OK;
}

kiln_result gltf_read_nodes(gltf_ctx *c)
{
    kiln_scene *s = c->scene;
    json_t *list;
    kiln_result r = gltf_get_array(c, c->root, "nodes", "", KILN_GLTF_MAX_ITEMS, &list);
    if (r != KILN_OK) return r;
    size_t n = list ? json_array_size(list) : 0;
    s->node_count = (uint32_t)n; /* skins and children check indices against it */
    if ((r = read_skins(c)) || (r = read_cameras(c)) || (r = read_lights(c))) return r;
    kiln_scene_node *nodes = NULL;
    int32_t *parents = kiln_arena_array(&c->scratch, n ? n : 1, sizeof *parents);
    if (!parents) return gltf_nomem(c, "nodes");
    for (size_t i = 0; i < n; i++) parents[i] = -1;
    if (n) {
        if (!(nodes = kiln_arena_array(c->arena, n, sizeof *nodes))) return gltf_nomem(c, "nodes");
        for (size_t i = 0; i < n; i++) {
            char ptr[48];
            snprintf(ptr, sizeof ptr, "/nodes/%zu", i);
            json_t *nj = json_array_get(list, i);
            if (!json_is_object(nj))
                return gltf_fail(c, KILN_E_IMPORT_FAILED, ptr, "not an object");
            if ((r = read_node(c, nj, ptr, &nodes[i], parents, (uint32_t)i))) return r;
        }
        for (size_t i = 0; i < n; i++) nodes[i].parent = parents[i];
        if ((r = world_transforms(c, nodes, (uint32_t)n))) return r;
    }
    s->nodes = nodes;
    if ((r = read_scenes(c, parents)) || (r = scene_bounds(c)) || (r = check_skinned_meshes(c)))
        return r;
    return KILN_OK;
}
