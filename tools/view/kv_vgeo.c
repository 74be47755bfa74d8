/* kv_vgeo.c — a cut of a virtual geometry made ready to draw (kv.h "virtual geometry"). The
 * caller chooses the clusters (kiln_vgeo_select for its camera); kv only uploads and draws them.
 * Clusters have the meshlets' layout, so a cut is drawn exactly as the meshlet view draws a
 * level: its triangles expanded to the mesh's vertex indices with a key per triangle, pulled by
 * mesh.vert from the mesh's own streams. The key carries the cluster's index and its DAG level
 * (KV_CLUSTER_KEY), which the meshlet and LOD views colour by. */
#include <string.h>

#include "kv_scene.h"

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

/* The cut's triangles and keys into indices and keys (sizes checked by the caller). */
static void expand_cut(const kiln_vgeo_view *v, const uint32_t *clusters, size_t count,
                       uint32_t *indices, uint32_t *keys)
{
    size_t t = 0;
    for (size_t i = 0; i < count; i++) {
        kiln_meshlet c = kiln_vgeo_cluster(v, clusters[i]);
        uint32_t level = kiln_vgeo_cluster_link(v, clusters[i]).level;
        kv_expand_cluster(v->cluster_vertices, v->cluster_triangles, c, indices + t * 3);
        for (uint32_t k = 0; k < c.triangle_count; k++)
            keys[t++] = KV_CLUSTER_KEY(clusters[i], level);
    }
}

kiln_result kv_clusters_create(kv_context *ctx, krt_context *rt, krt_handle mesh,
                               const kiln_vgeo_view *v, const uint32_t *clusters, size_t count,
                               kv_clusters **out, kiln_error *err)
{
    *out = NULL;
    const kv_mesh *m = krt_state_of(rt, mesh) == KRT_STATE_READY ? krt_gpu(rt, mesh) : NULL;
    if (!v || (count && !clusters))
        return kv_error(err, KILN_E_USAGE, "kv_clusters_create: no VGEO view or cluster list");
    if (!m || krt_handle_type(mesh) != KRT_TYPE_MESH)
        return kv_error(err, KILN_E_USAGE, "kv_clusters_create: the mesh is not ready");
    if (m->vertex_count != v->vertex_count)
        return kv_error(err, KILN_E_USAGE,
                        "kv_clusters_create: the mesh has %u vertices, the VGEO indexes %u",
                        m->vertex_count, v->vertex_count);
    if (v->cluster_count >= KV_CLUSTER_MAX || count > UINT32_MAX)
        return kv_error(err, KILN_E_LIMIT, "kv_clusters_create: %u clusters (at most %u)",
                        v->cluster_count, KV_CLUSTER_MAX - 1);
    /* Every cluster vertex is below v->vertex_count (kiln_vgeo_read checked): so below the
     * mesh's. */
    uint64_t tris = 0;
    for (size_t i = 0; i < count; i++) {
        if (clusters[i] >= v->cluster_count)
            return kv_error(err, KILN_E_USAGE, "kv_clusters_create: cluster %u of %u", clusters[i],
                            v->cluster_count);
        tris += kiln_vgeo_cluster(v, clusters[i]).triangle_count;
    }
    if (tris >= (1u << 30))
        return kv_error(err, KILN_E_LIMIT, "kv_clusters_create: %llu triangles in the cut",
                        (unsigned long long)tris);
    VkDeviceSize align = ctx->properties.limits.minStorageBufferOffsetAlignment;
    if (align < 16) align = 16;
    VkDeviceSize index_size = tris ? tris * 12 : 4, key_size = tris ? tris * 4 : 4;
    VkDeviceSize key_at = align_up(index_size, align);

    kv_clusters *c = kv_calloc(ctx, sizeof *c);
    if (!c) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    kiln_result k = kv_buffer_create(ctx, key_at + key_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                     &c->buffer, err);
    if (!k) {
        uint8_t *base = c->buffer.mapped;
        memset(base, 0, (size_t)(key_at + key_size));
        expand_cut(v, clusters, count, (uint32_t *)base, (uint32_t *)(base + key_at));
        VkBuffer parts[4] = {m->buffer.buffer, c->buffer.buffer, c->buffer.buffer,
                             m->buffer.buffer};
        VkDeviceSize at[4] = {0, 0, key_at, m->info_at};
        VkDeviceSize size[4] = {m->streams_size, index_size, key_size, sizeof(kv_mesh_info)};
        k = kv_mesh_set_make(ctx, parts, at, size, &c->pool, &c->set, err);
    }
    if (k) {
        kv_clusters_destroy(ctx, c);
        return k;
    }
    c->mesh = m;
    c->cluster_count = (uint32_t)count;
    c->triangle_count = (uint32_t)tris;
    *out = c;
    return KILN_OK;
}

void kv_clusters_destroy(kv_context *ctx, kv_clusters *c)
{
    if (!c) return;
    ctx->vk.vkDeviceWaitIdle(ctx->device); /* a draw may still read it */
    if (c->pool) ctx->vk.vkDestroyDescriptorPool(ctx->device, c->pool, NULL);
    kv_buffer_destroy(ctx, &c->buffer);
    kv_free(ctx, c, sizeof *c);
}
