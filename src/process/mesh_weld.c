/* mesh_weld.c — the first passes of the mesh cook (docs/meshes.md, "Weld and clean"):
 *
 * 1. weld: vertices whose bytes are equal in every stream as stored (position, normal, tangent,
 *    UVs, colours, joints, weights: quantized when the mesh is, see mesh_quantize.c) and in every
 *    morph target's deltas become one vertex. Morph deltas
 *    are part of the key, so two vertices that coincide at rest but move apart under a morph
 *    never merge. New ids are given in order of first use by the index list, as
 *    meshopt_generateVertexRemapMulti does; that function is not used because it takes at most
 *    16 streams of at most 256 bytes each, and a mesh with a few morph targets has more.
 * 2. degenerate triangles: two corners that are at the same place in every pose (same stored
 *    position, same morph position deltas, same joints and weights) make a triangle that never
 * covers a pixel. Triangles that are merely collinear are kept: skinning can open them.
 * 3. duplicate triangles: the same three welded vertices in the same cyclic order as an earlier
 *    triangle. The opposite winding is a different (back) face and is kept.
 * 4. the vertices still used are numbered in order of first use. */
#include <math.h>
#include <string.h>
#include <xxhash.h>

#include "process/mesh_private.h"

typedef struct weld_stream {
    const uint8_t *data;
    size_t size; /* bytes per vertex (the stride too) */
} weld_stream;

typedef struct weld_table {
    uint32_t *slots;  /* id + 1, 0 = empty */
    size_t capacity;  /* power of two */
    uint64_t *hashes; /* per id */
    uint32_t *reps;   /* per id: a vertex with that key */
    uint32_t count;
} weld_table;

static uint64_t vertex_hash(const weld_stream *s, uint32_t ns, uint32_t v)
{
    /* A vertex without morph targets has a few bytes in each of a few streams: gathered and
     * hashed at once (one XXH3 call per stream was most of the pass). Only ids depend on the
     * key, not the hash, so either way welds the same vertices. */
    uint8_t key[128];
    size_t n = 0;
    for (uint32_t i = 0; i < ns && n <= sizeof key; i++) n += s[i].size;
    if (n <= sizeof key) {
        n = 0;
        for (uint32_t i = 0; i < ns; i++) {
            kiln_mesh_copy_vertex(key + n, s[i].data + (size_t)v * s[i].size, s[i].size);
            n += s[i].size;
        }
        return XXH3_64bits(key, n);
    }
    uint64_t h = 0;
    for (uint32_t i = 0; i < ns; i++)
        h = XXH3_64bits_withSeed(s[i].data + (size_t)v * s[i].size, s[i].size, h);
    return h;
}

static bool bytes_equal(const uint8_t *x, const uint8_t *y, size_t size)
{
    uint32_t a4, b4;
    uint64_t a8, b8;
    switch (size) { /* the usual strides as loads, not a library call per compare */
    case 4:
        memcpy(&a4, x, 4), memcpy(&b4, y, 4);
        return a4 == b4;
    case 8:
        memcpy(&a8, x, 8), memcpy(&b8, y, 8);
        return a8 == b8;
    default:
        return memcmp(x, y, size) == 0;
    }
}

static bool vertex_equal(const weld_stream *s, uint32_t ns, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < ns; i++)
        if (!bytes_equal(s[i].data + (size_t)a * s[i].size, s[i].data + (size_t)b * s[i].size,
                         s[i].size))
            return false;
    return true;
}

static kiln_result table_init(weld_table *t, const kiln_allocator *a, uint32_t max_ids)
{
    memset(t, 0, sizeof *t);
    size_t cap = 16;
    while (cap < (size_t)max_ids * 2) cap *= 2;
    t->capacity = cap;
    t->slots = kiln_mesh_array(a, cap, sizeof *t->slots);
    t->hashes = kiln_mesh_array(a, max_ids ? max_ids : 1, sizeof *t->hashes);
    t->reps = kiln_mesh_array(a, max_ids ? max_ids : 1, sizeof *t->reps);
    return t->slots && t->hashes && t->reps ? KILN_OK : KILN_E_OUT_OF_MEMORY;
}

static void table_free(weld_table *t, const kiln_allocator *a, uint32_t max_ids)
{
    size_t n = max_ids ? max_ids : 1;
    kiln_free(a, t->slots, t->capacity * sizeof *t->slots);
    kiln_free(a, t->hashes, n * sizeof *t->hashes);
    kiln_free(a, t->reps, n * sizeof *t->reps);
    memset(t, 0, sizeof *t);
}

/* The id of vertex v's key, a new one (the next number) if the key is new. */
static uint32_t table_id(weld_table *t, const weld_stream *s, uint32_t ns, uint32_t v)
{
    uint64_t h = vertex_hash(s, ns, v);
    size_t mask = t->capacity - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint32_t slot = t->slots[i];
        if (slot == 0) {
            uint32_t id = t->count++;
            t->slots[i] = id + 1;
            t->hashes[id] = h;
            t->reps[id] = v;
            return id;
        }
        if (t->hashes[slot - 1] == h && vertex_equal(s, ns, t->reps[slot - 1], v)) return slot - 1;
    }
}

/* Appends the streams that identify a vertex: every encoded stream and every morph delta, or
 * (pose_only) those that decide where it ends up in any pose. Returns the count written to s. */
static uint32_t key_streams(const kiln_mesh_work *w, bool pose_only, weld_stream *s)
{
    const kiln_scene_primitive *p = w->prim;
    uint32_t n = 0;
    for (int id = 0; id < KILN_MESH_INDICES; id++) {
        if (!w->encoded[id]) continue;
        if (pose_only && id != KILN_MESH_POSITION && id != KILN_MESH_JOINTS &&
            id != KILN_MESH_WEIGHTS)
            continue;
        s[n++] = (weld_stream){w->encoded[id], w->out->streams[id].stride};
    }
    for (uint32_t t = 0; t < p->target_count; t++) {
        const kiln_scene_morph_target *m = &p->targets[t];
        if (m->positions) s[n++] = (weld_stream){(const uint8_t *)m->positions, 12};
        if (pose_only) continue;
        if (m->normals) s[n++] = (weld_stream){(const uint8_t *)m->normals, 12};
        if (m->tangents) s[n++] = (weld_stream){(const uint8_t *)m->tangents, 12};
    }
    return n;
}

/* Open-addressing set of kept triangles, keyed by their rotation with the smallest id first. */
typedef struct tri_set {
    uint32_t *slots; /* kept triangle number + 1, 0 = empty */
    size_t capacity;
} tri_set;

static uint64_t tri_hash(const uint32_t *t)
{
    uint64_t h = (uint64_t)t[0] * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)t[1] * 0xC2B2AE3D27D4EB4Full + (h >> 29);
    h ^= (uint64_t)t[2] * 0x165667B19E3779F9ull + (h >> 32);
    return h ^ (h >> 31);
}

/* true when t (canonical) is already in the set; else adds kept triangle number k. */
static bool tri_set_seen(tri_set *set, const uint32_t *kept, const uint32_t *t, uint32_t k)
{
    size_t mask = set->capacity - 1;
    for (size_t i = (size_t)tri_hash(t) & mask;; i = (i + 1) & mask) {
        uint32_t slot = set->slots[i];
        if (slot == 0) {
            set->slots[i] = k + 1;
            return false;
        }
        const uint32_t *o = kept + (size_t)(slot - 1) * 3;
        if (o[0] == t[0] && o[1] == t[1] && o[2] == t[2]) return true;
    }
}

static void canonical(uint32_t a, uint32_t b, uint32_t c, uint32_t *t)
{
    if (b < a && b < c) {
        t[0] = b, t[1] = c, t[2] = a;
    } else if (c < a && c < b) {
        t[0] = c, t[1] = a, t[2] = b;
    } else {
        t[0] = a, t[1] = b, t[2] = c;
    }
}

kiln_result kiln_mesh_weld(kiln_mesh_work *w, kiln_mesh_build_stats *stats, kiln_error *err)
{
    const kiln_scene_primitive *p = w->prim;
    const kiln_allocator *a = w->alloc;
    uint32_t nv = p->vertex_count;
    size_t ni = p->index_count; /* every index was checked by kiln_mesh_encode_vertices */
    stats->input_vertices = nv;
    stats->input_triangles = (uint32_t)(ni / 3);

    kiln_result rc = KILN_OK;
    size_t tris = ni / 3, kept_cap = tris ? tris * 3 : 1;
    size_t max_streams = KILN_MESH_INDICES + 3 * (size_t)p->target_count;
    weld_stream *streams = kiln_mesh_array(a, max_streams, sizeof *streams);
    uint32_t *remap = kiln_mesh_array(a, nv ? nv : 1, sizeof *remap);
    uint32_t *final_id = NULL, *kept = NULL;
    weld_table full = {0};
    tri_set set = {0};
    uint32_t welded = 0;
    if (!streams || !remap) {
        rc = kiln_mesh_nomem(err, "welding");
        goto done;
    }
    memset(remap, 0xFF, (size_t)(nv ? nv : 1) * sizeof *remap);

    /* 1. weld, ids in first-use order. */
    uint32_t ns = key_streams(w, false, streams);
    if (table_init(&full, a, nv) != KILN_OK) {
        rc = kiln_mesh_nomem(err, "welding");
        goto done;
    }
    for (size_t i = 0; i < ni; i++) {
        uint32_t v = p->indices[i];
        if (remap[v] == UINT32_MAX) remap[v] = table_id(&full, streams, ns, v);
    }
    welded = full.count;
    stats->welded_vertices = welded;

    /* The streams that decide where a vertex is in any pose, compared directly below: a table
     * of pose keys cost a second hash of every vertex for three compares per triangle. */
    uint32_t np = key_streams(w, true, streams);
    const uint32_t *rep = full.reps;
    bool position_only = np == 1 && streams[0].size == 8; /* quantized positions */
    const uint8_t *pos8 = streams[0].data;

    /* 2-3. drop degenerate and duplicate triangles. */
    kept = kiln_mesh_array(a, kept_cap, sizeof *kept);
    set.capacity = 16;
    while (set.capacity < tris * 2) set.capacity *= 2;
    set.slots = kiln_mesh_array(a, set.capacity, sizeof *set.slots);
    if (!kept || !set.slots) {
        rc = kiln_mesh_nomem(err, "triangle cleaning");
        goto done;
    }
    uint32_t kept_count = 0;
    for (size_t t = 0; t < tris; t++) {
        uint32_t i0 = remap[p->indices[t * 3]], i1 = remap[p->indices[t * 3 + 1]],
                 i2 = remap[p->indices[t * 3 + 2]];
        bool degenerate = i0 == i1 || i1 == i2 || i0 == i2;
        if (!degenerate && position_only) { /* the usual mesh: no skin, no morph targets */
            uint64_t p0, p1, p2;
            memcpy(&p0, pos8 + (size_t)rep[i0] * 8, 8);
            memcpy(&p1, pos8 + (size_t)rep[i1] * 8, 8);
            memcpy(&p2, pos8 + (size_t)rep[i2] * 8, 8);
            degenerate = p0 == p1 || p1 == p2 || p0 == p2;
        } else if (!degenerate) {
            degenerate = vertex_equal(streams, np, rep[i0], rep[i1]) ||
                         vertex_equal(streams, np, rep[i1], rep[i2]) ||
                         vertex_equal(streams, np, rep[i0], rep[i2]);
        }
        if (degenerate) {
            stats->degenerate_triangles++;
            continue;
        }
        uint32_t *dst = kept + (size_t)kept_count * 3;
        canonical(i0, i1, i2, dst);
        if (tri_set_seen(&set, kept, dst, kept_count)) {
            stats->duplicate_triangles++;
            continue;
        }
        /* Keep the original rotation: the first corner leads the cache optimiser's order only
         * when optimize is off, but the input's order is the least surprising one then. */
        dst[0] = i0, dst[1] = i1, dst[2] = i2;
        kept_count++;
    }

    /* 4. number the used vertices in first-use order. */
    final_id = kiln_mesh_array(a, welded ? welded : 1, sizeof *final_id);
    if (!final_id) {
        rc = kiln_mesh_nomem(err, "welding");
        goto done;
    }
    memset(final_id, 0xFF, (size_t)(welded ? welded : 1) * sizeof *final_id);
    uint32_t used = 0;
    for (size_t i = 0; i < (size_t)kept_count * 3; i++) {
        uint32_t k = kept[i];
        if (final_id[k] == UINT32_MAX) final_id[k] = used++;
        kept[i] = final_id[k];
    }
    w->vertex_count = used;
    w->index_count = (size_t)kept_count * 3;
    w->index_capacity = kept_cap;
    w->indices = kept;
    kept = NULL;
    if (used) {
        w->src = kiln_mesh_array(a, used, sizeof *w->src);
        w->positions = kiln_mesh_array(a, used, 3 * sizeof(float));
        if (!w->src || !w->positions) {
            rc = kiln_mesh_nomem(err, "vertices");
            goto done;
        }
        for (uint32_t k = 0; k < welded; k++)
            if (final_id[k] != UINT32_MAX) w->src[final_id[k]] = full.reps[k];
        for (uint32_t v = 0; v < used; v++)
            for (int c = 0; c < 3; c++) {
                float x = p->positions[(size_t)w->src[v] * 3 + c];
                w->positions[(size_t)v * 3 + c] = isfinite(x) ? x : 0.0f;
            }
    }

done:
    kiln_free(a, streams, max_streams * sizeof *streams);
    kiln_free(a, remap, (size_t)(nv ? nv : 1) * sizeof *remap);
    kiln_free(a, final_id, (size_t)(welded ? welded : 1) * sizeof *final_id);
    kiln_free(a, kept, kept_cap * sizeof *kept);
    kiln_free(a, set.slots, set.capacity * sizeof *set.slots);
    table_free(&full, a, nv);
    return rc;
}
