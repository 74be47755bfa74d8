/* meshlet_build_verts.c — the meshlet builder's vertex preparation (meshlet_build_private.h):
 * renumbering the vertices a small call uses, and welding split vertices by position for the
 * adjacency. Both deterministic: numbers in first-use order, hash probes that only find, never
 * order. */
#include <string.h>

#include "process/meshlet_build_private.h"

kiln_result kiln_meshlet_compact(kiln_meshlet_compaction *c, const kiln_allocator *a,
                                 const uint32_t *indices, size_t index_count, size_t vertex_count,
                                 kiln_error *err)
{
    size_t cap = 16;
    while (cap < 2 * index_count) cap *= 2;
    size_t size = (2 * cap + 2 * index_count) * sizeof(uint32_t);
    uint32_t *block = kiln_alloc(a, size);
    if (!block) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "meshlets: vertex table");
    c->block = block, c->block_size = size;
    uint32_t *keys = block, *vals = block + cap;
    c->idx = block + 2 * cap, c->vmap = c->idx + index_count;
    memset(keys, 0, cap * sizeof *keys);
    uint32_t n = 0;
    for (size_t i = 0; i < index_count; i++) {
        uint32_t v = indices[i];
        if (v >= vertex_count)
            return kiln_error_set(err, KILN_E_USAGE, "meshlets: index %zu (%u) out of range", i,
                                  (unsigned)v);
        size_t h = ((uint32_t)(v * 2654435761u)) & (cap - 1);
        while (keys[h] != 0 && keys[h] != v + 1) h = (h + 1) & (cap - 1);
        if (keys[h] == 0) keys[h] = v + 1, vals[h] = n, c->vmap[n++] = v;
        c->idx[i] = vals[h];
    }
    c->vertex_count = n;
    return KILN_OK;
}

kiln_result kiln_meshlet_weld(uint32_t *aidx, size_t *welded_count, const uint32_t *idx,
                              size_t index_count, const float *positions, const uint32_t *vmap,
                              size_t nv, const kiln_allocator *a, kiln_error *err)
{
    size_t cap = 16;
    while (cap < 2 * nv) cap *= 2;
    size_t size = (cap + nv) * sizeof(uint32_t);
    uint32_t *table = kiln_alloc(a, size);
    if (!table) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "meshlets: weld table");
    uint32_t *rep = table + cap;
    memset(table, 0, cap * sizeof *table);
    uint32_t n = 0;
    for (size_t l = 0; l < nv; l++) {
        uint32_t k[3];
        memcpy(k, positions + (size_t)(vmap ? vmap[l] : l) * 3, sizeof k);
        size_t h = (k[0] * 73856093u ^ k[1] * 19349663u ^ k[2] * 83492791u) & (cap - 1);
        for (;; h = (h + 1) & (cap - 1)) {
            uint32_t e = table[h];
            if (e == 0) {
                table[h] = (uint32_t)l + 1, rep[l] = n++;
                break;
            }
            if (memcmp(positions + (size_t)(vmap ? vmap[e - 1] : e - 1) * 3, k, sizeof k) == 0) {
                rep[l] = rep[e - 1];
                break;
            }
        }
    }
    for (size_t i = 0; i < index_count; i++) aidx[i] = rep[idx[i]];
    *welded_count = n;
    kiln_free(a, table, size);
    return KILN_OK;
}

void kiln_meshlet_compaction_free(kiln_meshlet_compaction *c, const kiln_allocator *a)
{
    kiln_free(a, c->block, c->block_size);
    memset(c, 0, sizeof *c);
}
