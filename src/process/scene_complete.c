/* scene_complete.c — normals, zero-filled UV sets and tangents for the primitives of an
 * imported scene (see scene_complete.h). glTF 2.0 §3.7.2.1: without normals the client
 * computes them; without tangents, for a normal texture, it computes MikkTSpace tangents from
 * positions, normals and the normal texture's texture coordinates. */
#include "process/scene_complete.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "import/scene_build.h"
#include "process/material.h"
#include "process/normals.h"
#include "process/tangent.h"

static const char *const core_slot_names[KILN_SCENE_SLOT_CORE_COUNT] = {
    "base colour", "metallic-roughness", "normal", "occlusion", "emissive"};

static const char *slot_name(int k)
{
    return k < KILN_SCENE_SLOT_CORE_COUNT ? core_slot_names[k]
                                          : kiln_material_slot_name((uint32_t)k);
}

static const char *mesh_name(const kiln_scene *s, uint32_t m)
{
    const char *n = s->meshes[m].name;
    return n ? n : "";
}

/* The error for a failed arena allocation, with mesh and primitive in front. */
static kiln_result prim_alloc_error(kiln_scene *s, uint32_t m, uint32_t p, const char *what,
                                    kiln_error *err)
{
    kiln_result r = kiln_scene_alloc_error(s, err, what);
    kiln_error_prefix(err, "mesh %u primitive %u: ", m, p);
    return r;
}

/* Generated normals by (positions, indices): primitives the importer gave the same streams
 * (one accessor used many times) share one array instead of multiplying memory. */
typedef struct normals_entry {
    const float *positions;
    const uint32_t *indices;
    uint32_t vertex_count, index_count;
    const float *normals;
} normals_entry;

typedef struct normals_cache {
    normals_entry *slots; /* capacity a power of two, at most half full; in the scene arena */
    size_t capacity;
} normals_cache;

static size_t normals_slot(const normals_cache *c, const kiln_scene_primitive *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p->positions * 0x9E3779B97F4A7C15ull ^
                 (uint64_t)(uintptr_t)p->indices * 0xC2B2AE3D27D4EB4Full ^ p->index_count;
    size_t i = (size_t)(h ^ (h >> 31)) & (c->capacity - 1);
    while (c->slots[i].positions &&
           !(c->slots[i].positions == p->positions && c->slots[i].indices == p->indices &&
             c->slots[i].vertex_count == p->vertex_count &&
             c->slots[i].index_count == p->index_count))
        i = (i + 1) & (c->capacity - 1);
    return i;
}

static kiln_result add_normals(kiln_scene *s, uint32_t m, uint32_t p, normals_cache *cache,
                               kiln_error *err)
{
    kiln_scene_primitive *prim = kiln_scene_prim_mut(s, m, p);
    size_t slot = cache->capacity ? normals_slot(cache, prim) : 0;
    if (cache->capacity && cache->slots[slot].positions) {
        prim->normals = cache->slots[slot].normals;
        prim->flags |= KILN_SCENE_PRIM_NORMALS_GENERATED;
        return KILN_OK;
    }
    float *normals =
        kiln_arena_array(kiln_scene_arena(s), (size_t)prim->vertex_count * 3, sizeof *normals);
    if (!normals) return prim_alloc_error(s, m, p, "normals", err);
    kiln_normals_compute(prim->positions, prim->vertex_count, prim->indices, prim->index_count,
                         normals);
    prim->normals = normals;
    prim->flags |= KILN_SCENE_PRIM_NORMALS_GENERATED;
    if (cache->capacity)
        cache->slots[slot] = (normals_entry){prim->positions, prim->indices, prim->vertex_count,
                                             prim->index_count, normals};
    return KILN_OK;
}

static kiln_result warn(kiln_scene *s, bool ok, kiln_error *err)
{
    return ok ? KILN_OK : kiln_scene_alloc_error(s, err, "a warning");
}

/* Zero-filled UV sets up to the highest one the material's textures read. */
static kiln_result fill_uv_sets(kiln_scene *s, uint32_t m, uint32_t p,
                                const kiln_scene_material *mat, kiln_error *err)
{
    kiln_scene_primitive *prim = kiln_scene_prim_mut(s, m, p);
    uint32_t needed = prim->texcoord_count;
    int first_slot = -1; /* a slot that reads past the sets present, for the warning */
    for (int k = 0; k < KILN_SCENE_SLOT_COUNT; k++) {
        const kiln_scene_texture_ref *ref = &mat->textures[k];
        if (ref->texture < 0) continue;
        if (ref->texcoord >= KILN_SCENE_MAX_UV_SETS) {
            kiln_result r =
                warn(s,
                     kiln_scene_warn(s,
                                     "mesh %u (\"%s\") primitive %u: the %s "
                                     "texture reads TEXCOORD_%u, past the %d sets kiln keeps",
                                     m, mesh_name(s, m), p, slot_name(k), ref->texcoord,
                                     KILN_SCENE_MAX_UV_SETS),
                     err);
            if (r != KILN_OK) return r;
            continue;
        }
        if (ref->texcoord + 1 > needed) {
            needed = ref->texcoord + 1;
            if (first_slot < 0) first_slot = k;
        }
    }
    if (needed <= prim->texcoord_count) return KILN_OK;
    uint32_t from = prim->texcoord_count;
    for (uint32_t k = from; k < needed; k++) {
        float *uv = kiln_arena_array(kiln_scene_arena(s), (size_t)prim->vertex_count * 2,
                                     sizeof *uv); /* the arena hands out zeroed memory */
        if (!uv) return prim_alloc_error(s, m, p, "zero-filled texture coordinates", err);
        prim->texcoords[k] = uv;
    }
    prim->texcoord_count = needed;
    prim->flags |= KILN_SCENE_PRIM_UV0_FILLED;
    if (needed - from == 1)
        return warn(s,
                    kiln_scene_warn(s,
                                    "mesh %u (\"%s\") primitive %u: no TEXCOORD_%u for "
                                    "the %s texture, zero-filled",
                                    m, mesh_name(s, m), p, from, slot_name(first_slot)),
                    err);
    return warn(s,
                kiln_scene_warn(s,
                                "mesh %u (\"%s\") primitive %u: no TEXCOORD_%u to "
                                "TEXCOORD_%u for the %s texture, zero-filled",
                                m, mesh_name(s, m), p, from, needed - 1, slot_name(first_slot)),
                err);
}

/* A new arena array of count elements of elem bytes: element i = src element remap[i]. src
 * NULL gives NULL (and true). */
static bool remap_stream(kiln_arena *a, const void *src, size_t elem, const uint32_t *remap,
                         uint32_t count, const void **out)
{
    *out = NULL;
    if (!src) return true;
    uint8_t *dst = kiln_arena_array(a, count, elem);
    if (!dst) return false;
    const uint8_t *from = src;
    for (uint32_t i = 0; i < count; i++)
        memcpy(dst + (size_t)i * elem, from + (size_t)remap[i] * elem, elem);
    *out = dst;
    return true;
}

/* Copies every vertex stream of prim through the remap into the arena and installs them with
 * the new tangents and indices; nothing of prim changes unless all of it fits. */
static kiln_result apply_tangents(kiln_scene *s, uint32_t m, uint32_t p,
                                  const kiln_tangent_result *tr, kiln_error *err)
{
    kiln_scene_primitive *prim = kiln_scene_prim_mut(s, m, p);
    kiln_arena *a = kiln_scene_arena(s);
    uint32_t n = tr->vertex_count;
    const void *tangents = kiln_arena_memdup(a, tr->tangents, (size_t)n * 4 * sizeof(float));
    if (!tangents) return prim_alloc_error(s, m, p, "tangents", err);
    if (tr->split_count == 0) { /* no vertex split: the other streams stay as they are */
        prim->tangents = tangents;
        prim->flags |= KILN_SCENE_PRIM_TANGENTS_GENERATED;
        return KILN_OK;
    }
    kiln_scene_primitive next = *prim;
    const void *v = NULL; /* what is assigned after a failure is never installed */
    bool ok = true;
    const uint32_t *map = tr->remap;
    ok = ok && remap_stream(a, prim->positions, 3 * sizeof(float), map, n, &v);
    next.positions = v;
    ok = ok && remap_stream(a, prim->normals, 3 * sizeof(float), map, n, &v);
    next.normals = v;
    for (uint32_t k = 0; ok && k < prim->texcoord_count && k < KILN_SCENE_MAX_UV_SETS; k++) {
        ok = remap_stream(a, prim->texcoords[k], 2 * sizeof(float), map, n, &v);
        next.texcoords[k] = v;
    }
    for (uint32_t k = 0; ok && k < prim->color_count && k < KILN_SCENE_MAX_COLOR_SETS; k++) {
        ok = remap_stream(a, prim->colors[k], 4 * sizeof(float), map, n, &v);
        next.colors[k] = v;
    }
    for (uint32_t k = 0; ok && k < prim->joint_set_count && k < KILN_SCENE_MAX_JOINT_SETS; k++) {
        ok = remap_stream(a, prim->joints[k], 4 * sizeof(uint16_t), map, n, &v);
        next.joints[k] = v;
        ok = ok && remap_stream(a, prim->weights[k], 4 * sizeof(float), map, n, &v);
        next.weights[k] = v;
    }
    if (ok && prim->target_count > 0 && prim->targets) {
        kiln_scene_morph_target *targets = kiln_arena_array(a, prim->target_count, sizeof *targets);
        ok = targets != NULL;
        for (uint32_t t = 0; ok && t < prim->target_count; t++) {
            const kiln_scene_morph_target *old = &prim->targets[t];
            ok = remap_stream(a, old->positions, 3 * sizeof(float), map, n, &v);
            targets[t].positions = v;
            ok = ok && remap_stream(a, old->normals, 3 * sizeof(float), map, n, &v);
            targets[t].normals = v;
            ok = ok && remap_stream(a, old->tangents, 3 * sizeof(float), map, n, &v);
            targets[t].tangents = v;
        }
        next.targets = targets;
    }
    const uint32_t *indices = NULL;
    if (ok) {
        indices = kiln_arena_memdup(a, tr->indices, (size_t)tr->index_count * sizeof(uint32_t));
        ok = indices != NULL || tr->index_count == 0;
    }
    if (!ok) return prim_alloc_error(s, m, p, "vertices split for tangents", err);
    next.indices = indices;
    next.vertex_count = n;
    next.tangents = tangents;
    next.flags |= KILN_SCENE_PRIM_TANGENTS_GENERATED;
    *prim = next;
    return KILN_OK;
}

static kiln_result add_tangents(kiln_scene *s, uint32_t m, uint32_t p,
                                const kiln_scene_material *mat, int slot, kiln_error *err)
{
    kiln_scene_primitive *prim = kiln_scene_prim_mut(s, m, p);
    if (!prim->normals)
        return warn(s,
                    kiln_scene_warn(s,
                                    "mesh %u (\"%s\") primitive %u: no normals, so no "
                                    "tangents for the normal texture",
                                    m, mesh_name(s, m), p),
                    err);
    uint32_t set = mat->textures[slot].texcoord;
    if (set >= prim->texcoord_count || set >= KILN_SCENE_MAX_UV_SETS)
        return warn(s,
                    kiln_scene_warn(s,
                                    "mesh %u (\"%s\") primitive %u: no TEXCOORD_%u, so no "
                                    "tangents for the normal texture",
                                    m, mesh_name(s, m), p, set),
                    err);
    /* The temporary memory comes from the scene's allocator, outside its arena. */
    const kiln_allocator *alloc = &s->storage->arena.allocator;
    kiln_tangent_result tr;
    kiln_result r = kiln_tangents_generate(prim->positions, prim->normals, prim->texcoords[set],
                                           prim->vertex_count, prim->indices, prim->index_count,
                                           alloc, &tr, err);
    if (r != KILN_OK) {
        kiln_error_prefix(err, "mesh %u primitive %u: ", m, p);
        return r;
    }
    r = apply_tangents(s, m, p, &tr, err);
    kiln_tangent_result_free(alloc, &tr);
    return r;
}

kiln_result kiln_scene_complete(kiln_scene *scene, uint32_t flags, kiln_error *err)
{
    normals_cache cache = {NULL, 0};
    size_t prims = 0;
    for (uint32_t m = 0; m < scene->mesh_count; m++) prims += scene->meshes[m].primitive_count;
    if (prims > 1 && !(flags & KILN_SCENE_LOAD_NO_NORMALS)) {
        size_t cap = 4;
        while (cap < prims * 2) cap *= 2;
        cache.slots = kiln_arena_array(kiln_scene_arena(scene), cap, sizeof *cache.slots);
        if (!cache.slots) return kiln_scene_alloc_error(scene, err, "the normals table");
        cache.capacity = cap;
    }
    for (uint32_t m = 0; m < scene->mesh_count; m++) {
        for (uint32_t p = 0; p < scene->meshes[m].primitive_count; p++) {
            kiln_scene_primitive *prim = kiln_scene_prim_mut(scene, m, p);
            if (prim->vertex_count == 0 || !prim->positions) continue;
            const kiln_scene_material *mat = NULL;
            if (prim->material >= 0 && (uint32_t)prim->material < scene->material_count)
                mat = &scene->materials[prim->material];
            kiln_result r = KILN_OK;
            /* a tangent space glTF requires and cannot make from a normal texture */
            bool force = (flags & KILN_SCENE_LOAD_TANGENT_SPACE) && mat &&
                         mat->textures[KILN_SCENE_SLOT_NORMAL].texture < 0 &&
                         (mat->textures[KILN_SCENE_SLOT_CLEARCOAT_NORMAL].texture >= 0 ||
                          mat->textures[KILN_SCENE_SLOT_ANISOTROPY].texture >= 0);
            if (!prim->normals && (!(flags & KILN_SCENE_LOAD_NO_NORMALS) || force))
                r = add_normals(scene, m, p, &cache, err);
            if (r == KILN_OK && mat) r = fill_uv_sets(scene, m, p, mat, err);
            /* the normal texture's UV set, else the clearcoat normal texture's */
            int nslot = !mat ? -1
                        : mat->textures[KILN_SCENE_SLOT_NORMAL].texture >= 0
                            ? KILN_SCENE_SLOT_NORMAL
                        : mat->textures[KILN_SCENE_SLOT_CLEARCOAT_NORMAL].texture >= 0
                            ? KILN_SCENE_SLOT_CLEARCOAT_NORMAL
                        : force ? KILN_SCENE_SLOT_ANISOTROPY
                                : -1;
            if (r == KILN_OK && nslot >= 0 && !prim->tangents &&
                (!(flags & KILN_SCENE_LOAD_NO_TANGENTS) || force))
                r = add_tangents(scene, m, p, mat, nslot, err);
            if (r != KILN_OK) return r;
        }
    }
    return KILN_OK;
}
