/* mesh_meshlet.c — meshlets of every level, for mesh-shader and compute renderers (docs/meshes.md,
 * "Meshlets"): kiln_meshlet_build (meshlet_build.h: at most meshlet_max_vertices vertices and
 * meshlet_max_triangles triangles each, cone weight 0.25 so normal cones stay useful for
 * back-face culling), meshopt_computeMeshletBounds for the culling data, and a vertex-cache
 * pass inside each meshlet: meshoptimizer 0.18 has no meshopt_optimizeMeshlet, so each
 * meshlet's triangles are reordered with meshopt_optimizeVertexCache on its local indices and its
 * vertices renumbered in first-use order (what optimizeMeshlet does in later versions).
 *
 * Layout: meshlets of level 0 first, then level 1, ...; each meshlet's triangles take
 * 3 * triangle_count bytes padded with zeros to a multiple of 4, so a shader may read them as
 * u32 words. */
#include <math.h>
#include <meshoptimizer.h>
#include <string.h>

#include "process/mesh_private.h"
#include "process/meshlet_build.h"

#define CONE_WEIGHT 0.25f

/* A growable byte array. */
typedef struct grow {
    uint8_t *data;
    size_t size, capacity;
} grow;

static bool grow_reserve(grow *g, const kiln_allocator *a, size_t more)
{
    size_t need;
    if (!kiln_size_add(g->size, more, &need)) return false;
    if (need <= g->capacity) return true;
    size_t cap = g->capacity ? g->capacity : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) return false;
        cap *= 2;
    }
    uint8_t *p = kiln_realloc(a, g->data, g->capacity, cap);
    if (!p) return false;
    g->data = p;
    g->capacity = cap;
    return true;
}

static void *grow_take(grow *g, size_t n)
{
    void *p = g->data + g->size;
    g->size += n;
    return p;
}

/* Copies a grown array into an exact-size allocation (freed by kiln_cooked_mesh_free, which
 * knows only the element counts). */
static void *grow_finish(grow *g, const kiln_allocator *a)
{
    if (g->size == 0) {
        kiln_free(a, g->data, g->capacity);
        return NULL;
    }
    void *p = kiln_alloc(a, g->size);
    if (p) memcpy(p, g->data, g->size);
    kiln_free(a, g->data, g->capacity);
    g->data = NULL;
    g->capacity = g->size = 0;
    return p;
}

/* Reorders one meshlet's triangles for the vertex cache and its vertices in first-use order. */
static void optimize_meshlet(uint32_t *verts, uint8_t *tris, uint32_t vcount, uint32_t tcount,
                             uint32_t *scratch /* 2 * 3 * max triangles + 2 * max vertices */)
{
    uint32_t *local = scratch, *ordered = local + (size_t)tcount * 3;
    uint32_t *map = ordered + (size_t)tcount * 3, *old_verts = map + vcount;
    for (size_t i = 0; i < (size_t)tcount * 3; i++) local[i] = tris[i];
    meshopt_optimizeVertexCache(ordered, local, (size_t)tcount * 3, vcount);
    for (uint32_t v = 0; v < vcount; v++) map[v] = UINT32_MAX;
    memcpy(old_verts, verts, vcount * sizeof *verts);
    uint32_t next = 0;
    for (size_t i = 0; i < (size_t)tcount * 3; i++) {
        uint32_t o = ordered[i];
        if (map[o] == UINT32_MAX) {
            map[o] = next;
            verts[next++] = old_verts[o];
        }
        tris[i] = (uint8_t)map[o];
    }
    /* the builder adds only vertices some triangle uses, so next == vcount; keep any
     * straggler rather than lose it. */
    for (uint32_t v = 0; KILN_NEVER(next < vcount) && v < vcount; v++)
        if (map[v] == UINT32_MAX) map[v] = next, verts[next++] = old_verts[v];
}

kiln_result kiln_mesh_build_meshlets(const kiln_mesh_work *w, kiln_cooked_mesh *out,
                                     kiln_error *err)
{
    const kiln_allocator *a = w->alloc;
    size_t max_v = out->meshlet_max_vertices, max_t = out->meshlet_max_triangles;
    if (KILN_NEVER(max_v < 3 || max_v > KILN_MESH_MAX_MESHLET_VERTICES || max_t < 4 ||
                   max_t > KILN_MESH_MAX_MESHLET_TRIANGLES || max_t % 4 != 0))
        return kiln_error_set(err, KILN_E_INTERNAL, "mesh: meshlet limits not checked");
    grow meshlets = {0}, bounds = {0}, verts = {0}, tris = {0};
    kiln_result rc = KILN_OK;
    uint32_t *scratch = kiln_mesh_array(a, 6 * max_t + 2 * max_v, sizeof(uint32_t));
    if (!scratch) return kiln_mesh_nomem(err, "meshlets");
    kiln_meshlet *ml = NULL;
    uint32_t *mv = NULL;
    uint8_t *mt = NULL;
    size_t ml_cap = 0, mv_cap = 0, mt_cap = 0;

    for (uint32_t l = 0; l < w->level_count && rc == KILN_OK; l++) {
        const kiln_mesh_lod *lvl = &w->levels[l];
        out->levels[l].meshlet_offset = (uint32_t)(meshlets.size / sizeof(kiln_meshlet));
        out->levels[l].meshlet_count = 0;
        if (lvl->index_count == 0) continue;
        const uint32_t *idx = w->indices + lvl->index_offset;
        size_t bound = kiln_meshlet_bound(lvl->index_count, max_v, max_t);
        size_t need_v, need_t;
        if (!kiln_size_mul(bound, max_v, &need_v) || !kiln_size_mul(bound, max_t * 3, &need_t)) {
            rc = kiln_error_set(err, KILN_E_LIMIT, "mesh: meshlet arrays too large");
            break;
        }
        kiln_free(a, ml, ml_cap * sizeof *ml);
        kiln_free(a, mv, mv_cap * sizeof *mv);
        kiln_free(a, mt, mt_cap);
        ml = kiln_mesh_array(a, bound, sizeof *ml);
        mv = kiln_mesh_array(a, need_v, sizeof *mv);
        mt = kiln_mesh_array(a, need_t, 1);
        ml_cap = bound, mv_cap = need_v, mt_cap = need_t;
        if (!ml || !mv || !mt) {
            rc = kiln_mesh_nomem(err, "meshlets");
            break;
        }
        size_t n = 0;
        rc = kiln_meshlet_build(a, idx, lvl->index_count, w->positions, w->vertex_count, max_v,
                                max_t, CONE_WEIGHT, ml, mv, mt, &n, err);
        if (rc != KILN_OK) break;
        if (!grow_reserve(&meshlets, a, n * sizeof(kiln_meshlet)) ||
            !grow_reserve(&bounds, a, n * sizeof(kiln_meshlet_bounds))) {
            rc = kiln_mesh_nomem(err, "meshlets");
            break;
        }
        for (size_t m = 0; m < n; m++) {
            const kiln_meshlet *src = &ml[m];
            uint32_t vc = src->vertex_count, tc = src->triangle_count;
            size_t tri_bytes = ((size_t)tc * 3 + 3) & ~(size_t)3;
            if (!grow_reserve(&verts, a, (size_t)vc * sizeof(uint32_t)) ||
                !grow_reserve(&tris, a, tri_bytes)) {
                rc = kiln_mesh_nomem(err, "meshlets");
                break;
            }
            if (verts.size / 4 > UINT32_MAX - vc || tris.size > UINT32_MAX - tri_bytes) {
                rc = kiln_error_set(err, KILN_E_LIMIT, "mesh: meshlet data over 4 GiB");
                break;
            }
            kiln_meshlet *dst = grow_take(&meshlets, sizeof *dst);
            dst->vertex_offset = (uint32_t)(verts.size / sizeof(uint32_t));
            dst->triangle_offset = (uint32_t)tris.size;
            dst->vertex_count = vc;
            dst->triangle_count = tc;
            uint32_t *dv = grow_take(&verts, (size_t)vc * sizeof(uint32_t));
            uint8_t *dt = grow_take(&tris, tri_bytes);
            memcpy(dv, mv + src->vertex_offset, (size_t)vc * sizeof(uint32_t));
            memset(dt, 0, tri_bytes);
            memcpy(dt, mt + src->triangle_offset, (size_t)tc * 3);
            optimize_meshlet(dv, dt, vc, tc, scratch);
            struct meshopt_Bounds b = meshopt_computeMeshletBounds(
                dv, dt, tc, w->positions, w->vertex_count, 3 * sizeof(float));
            kiln_meshlet_bounds *db = grow_take(&bounds, sizeof *db);
            memset(db, 0, sizeof *db);
            memcpy(db->center, b.center, sizeof db->center);
            db->radius = b.radius;
            memcpy(db->cone_apex, b.cone_apex, sizeof db->cone_apex);
            memcpy(db->cone_axis, b.cone_axis, sizeof db->cone_axis);
            db->cone_cutoff = b.cone_cutoff;
            for (int c = 0; c < 3; c++) db->cone_axis_s8[c] = b.cone_axis_s8[c];
            db->cone_cutoff_s8 = b.cone_cutoff_s8;
            /* Finite coordinates near FLT_MAX still overflow a bounding sphere: such a mesh
             * cannot be culled (the reader refuses infinite bounds), so it is refused here. */
            float check = db->center[0] + db->center[1] + db->center[2] + db->radius +
                          db->cone_apex[0] + db->cone_apex[1] + db->cone_apex[2];
            if (!isfinite(check)) {
                rc = kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                    "mesh: coordinates too large: meshlet bounds overflow a float");
                break;
            }
        }
        if (rc != KILN_OK) break;
        out->levels[l].meshlet_count = (uint32_t)n;
    }
    kiln_free(a, ml, ml_cap * sizeof *ml);
    kiln_free(a, mv, mv_cap * sizeof *mv);
    kiln_free(a, mt, mt_cap);
    kiln_free(a, scratch, (6 * max_t + 2 * max_v) * sizeof(uint32_t));
    if (rc != KILN_OK) {
        kiln_free(a, meshlets.data, meshlets.capacity);
        kiln_free(a, bounds.data, bounds.capacity);
        kiln_free(a, verts.data, verts.capacity);
        kiln_free(a, tris.data, tris.capacity);
        return rc;
    }
    size_t count = meshlets.size / sizeof(kiln_meshlet);
    size_t vcount = verts.size / sizeof(uint32_t), tsize = tris.size;
    out->meshlets = grow_finish(&meshlets, a);
    out->meshlet_bounds = grow_finish(&bounds, a);
    out->meshlet_vertices = grow_finish(&verts, a);
    out->meshlet_triangles = grow_finish(&tris, a);
    /* Counts are set only for what was allocated, so kiln_cooked_mesh_free frees right. */
    if ((count && (!out->meshlets || !out->meshlet_bounds)) || (vcount && !out->meshlet_vertices) ||
        (tsize && !out->meshlet_triangles)) {
        kiln_free(a, out->meshlets, count * sizeof(kiln_meshlet));
        kiln_free(a, out->meshlet_bounds, count * sizeof(kiln_meshlet_bounds));
        kiln_free(a, out->meshlet_vertices, vcount * sizeof(uint32_t));
        kiln_free(a, out->meshlet_triangles, tsize);
        out->meshlets = NULL, out->meshlet_bounds = NULL;
        out->meshlet_vertices = NULL, out->meshlet_triangles = NULL;
        return kiln_mesh_nomem(err, "meshlets");
    }
    out->meshlet_count = (uint32_t)count;
    out->meshlet_vertex_count = (uint32_t)vcount;
    out->meshlet_triangle_size = (uint32_t)tsize;
    return KILN_OK;
}
