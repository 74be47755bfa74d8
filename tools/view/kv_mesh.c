/* kv_mesh.c — create_mesh / destroy_mesh: a cooked mesh in one host-visible buffer the vertex
 * shader pulls from: every present vertex and morph stream exactly as kiln cooked it (quantized
 * or not: mesh.vert decodes), the index buffer of every level, the meshlet view's expanded
 * triangles with each one's meshlet number, and the mesh's UBO (offsets, formats, quantization
 * ranges). One descriptor set (set 2) points at the parts. */
#include <string.h>

#include "kv_scene.h"

/* Streams the vertex shader reads, and where its offset goes in the UBO. */
typedef struct stream_slot {
    kiln_mesh_stream_id id;
    size_t word; /* index into the UBO's at0..at2 as one uint32 array */
} stream_slot;

static const stream_slot slots[] = {
    {KILN_MESH_POSITION, 0},         {KILN_MESH_NORMAL, 1},
    {KILN_MESH_TANGENT, 2},          {KILN_MESH_UV0, 3},
    {KILN_MESH_UV0 + 1, 4},          {KILN_MESH_COLOR0, 5},
    {KILN_MESH_JOINTS, 6},           {KILN_MESH_WEIGHTS, 7},
    {KILN_MESH_TARGET_POSITIONS, 8}, {KILN_MESH_TARGET_NORMALS, 9},
    {KILN_MESH_TARGET_TANGENTS, 10},
};
#define SLOT_COUNT (sizeof slots / sizeof slots[0])

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

static uint32_t targets_with(const kiln_mesh_view *v, uint32_t flag)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->target_count; i++)
        if (kiln_mesh_target_flags(v, i) & flag) n++;
    return n;
}

static uint32_t meshlet_triangles(const kiln_mesh_view *v)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->meshlet_count; i++) n += kiln_mesh_meshlet(v, i).triangle_count;
    return n;
}

static void fill_info(const kiln_mesh_view *v, const uint32_t *at, kv_mesh_info *info)
{
    memset(info, 0, sizeof *info);
    for (int c = 0; c < 3; c++) {
        info->bounds_min[c] = v->bounds_min[c];
        info->position_scale[c] = v->position_scale[c];
    }
    for (int s = 0; s < 2; s++) {
        info->uv[s][0] = v->uv_offset[s][0];
        info->uv[s][1] = v->uv_offset[s][1];
        info->uv[s][2] = v->uv_scale[s][0];
        info->uv[s][3] = v->uv_scale[s][1];
    }
    uint32_t *words = info->at0; /* at0, at1, at2 are consecutive */
    for (size_t i = 0; i < SLOT_COUNT; i++) words[slots[i].word] = at[i];
    info->at2[3] = v->vertex_count;
    info->counts[0] = targets_with(v, KILN_MESH_TARGET_HAS_POSITIONS);
    info->counts[1] = targets_with(v, KILN_MESH_TARGET_HAS_NORMALS);
    info->counts[2] = targets_with(v, KILN_MESH_TARGET_HAS_TANGENTS);
    info->counts[3] =
        ((v->flags & KILN_MESH_QUANTIZED) ? KV_MESH_INFO_QUANTIZED : 0) |
        (v->streams[KILN_MESH_JOINTS].format == KILN_MESH_FORMAT_U16X4 ? KV_MESH_INFO_JOINTS16 : 0);
}

void kv_expand_cluster(const uint8_t *vertices, const uint8_t *triangles, kiln_meshlet c,
                       uint32_t *indices)
{
    for (uint32_t i = 0; i < 3 * c.triangle_count; i++) {
        uint8_t local = triangles[c.triangle_offset + i];
        const uint8_t *p = vertices + ((size_t)c.vertex_offset + local) * 4;
        indices[i] =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

/* The meshlet view's triangles: for every meshlet in order, its triangles as global vertex
 * indices, and the meshlet's number per triangle. */
static void expand_meshlets(const kiln_mesh_view *v, uint32_t *indices, uint32_t *ids)
{
    size_t t = 0;
    for (uint32_t m = 0; m < v->meshlet_count; m++) {
        kiln_meshlet ml = kiln_mesh_meshlet(v, m);
        kv_expand_cluster(v->meshlet_vertices, v->meshlet_triangles, ml, indices + t * 3);
        for (uint32_t i = 0; i < ml.triangle_count; i++) ids[t++] = m;
    }
}

static void mesh_free(kv_context *ctx, kv_mesh *m)
{
    if (!m) return;
    if (m->pool) ctx->vk.vkDestroyDescriptorPool(ctx->device, m->pool, NULL);
    kv_buffer_destroy(ctx, &m->buffer);
    kv_free(ctx, m, sizeof *m);
}

kiln_result kv_mesh_set_make(kv_context *ctx, const VkBuffer buffers[4], const VkDeviceSize at[4],
                             const VkDeviceSize size[4], VkDescriptorPool *pool,
                             VkDescriptorSet *set, kiln_error *err)
{
    kv_layouts *l;
    kiln_result k = kv_layouts_get(ctx, &l, err);
    if (k) return k;
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3},
                                     {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    VkResult r = ctx->vk.vkCreateDescriptorPool(ctx->device, &pi, NULL, pool);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkCreateDescriptorPool (mesh)");
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = *pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &l->mesh,
    };
    r = ctx->vk.vkAllocateDescriptorSets(ctx->device, &ai, set);
    if (r != VK_SUCCESS) return kv_vk_fail(err, r, "vkAllocateDescriptorSets (mesh)");
    VkDescriptorBufferInfo b[4];
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < 4; i++) {
        b[i] = (VkDescriptorBufferInfo){buffers[i], at[i], size[i]};
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = *set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType =
                i == 3 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &b[i],
        };
    }
    ctx->vk.vkUpdateDescriptorSets(ctx->device, 4, w, 0, NULL);
    return KILN_OK;
}

kiln_result kv_create_mesh(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                           kiln_error *err)
{
    (void)h;
    kv_context *ctx = user;
    const kiln_mesh_view *v = d->view;
    kv_layouts *l;
    kiln_result k = kv_layouts_get(ctx, &l, err);
    if (k) return k;
    if (!v || !d->streams[KILN_MESH_POSITION] || !d->streams[KILN_MESH_INDICES])
        return kv_error(err, KILN_E_USAGE, "create_mesh: no positions or indices");
    VkDeviceSize ssbo_align = ctx->properties.limits.minStorageBufferOffsetAlignment;
    VkDeviceSize ubo_align = ctx->properties.limits.minUniformBufferOffsetAlignment;
    if (ssbo_align < 16) ssbo_align = 16;
    if (ubo_align < 16) ubo_align = 16;
    /* Layout: the streams (4-byte aligned, offsets in words), indices, meshlet indices, meshlet
     * ids, the UBO. */
    uint32_t at[SLOT_COUNT];
    VkDeviceSize total = 0;
    for (size_t i = 0; i < SLOT_COUNT; i++) {
        at[i] = KV_NONE;
        if (!d->streams[slots[i].id]) continue;
        if (total / 4 >= KV_NONE)
            return kv_error(err, KILN_E_LIMIT, "create_mesh: streams above 16 GiB");
        at[i] = (uint32_t)(total / 4);
        total = align_up(total + d->stream_sizes[slots[i].id], 4);
    }
    VkDeviceSize streams_size = total ? total : 4;
    uint32_t tris = meshlet_triangles(v);
    VkDeviceSize index_at = align_up(streams_size, ssbo_align);
    VkDeviceSize index_size = d->stream_sizes[KILN_MESH_INDICES];
    VkDeviceSize ml_index_at = align_up(index_at + index_size, ssbo_align);
    VkDeviceSize ml_index_size = tris ? (VkDeviceSize)tris * 12 : 4;
    VkDeviceSize ml_id_at = align_up(ml_index_at + ml_index_size, ssbo_align);
    VkDeviceSize ml_id_size = tris ? (VkDeviceSize)tris * 4 : 4;
    VkDeviceSize info_at = align_up(ml_id_at + ml_id_size, ubo_align);
    VkDeviceSize buffer_size = info_at + sizeof(kv_mesh_info);

    kv_mesh *m = kv_calloc(ctx, sizeof *m);
    if (!m) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    k = kv_buffer_create(ctx, buffer_size,
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                             VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                         &m->buffer, err);
    if (k) {
        kv_free(ctx, m, sizeof *m);
        return k;
    }
    uint8_t *base = m->buffer.mapped;
    for (size_t i = 0; i < SLOT_COUNT; i++)
        if (at[i] != KV_NONE)
            memcpy(base + (size_t)at[i] * 4, d->streams[slots[i].id], d->stream_sizes[slots[i].id]);
    memcpy(base + index_at, d->streams[KILN_MESH_INDICES], index_size);
    if (tris) expand_meshlets(v, (uint32_t *)(base + ml_index_at), (uint32_t *)(base + ml_id_at));
    kv_mesh_info info;
    fill_info(v, at, &info);
    memcpy(base + info_at, &info, sizeof info);

    m->index_at = index_at;
    m->index_type = v->streams[KILN_MESH_INDICES].format == KILN_MESH_FORMAT_U16
                        ? VK_INDEX_TYPE_UINT16
                        : VK_INDEX_TYPE_UINT32;
    m->flags = v->flags;
    m->has_tangents = d->streams[KILN_MESH_TANGENT] != NULL;
    m->skinned = d->streams[KILN_MESH_JOINTS] && d->streams[KILN_MESH_WEIGHTS];
    m->target_count = v->target_count;
    m->level_count = v->level_count;
    for (uint32_t lv = 0; lv < v->level_count; lv++) {
        kv_mesh_level *ml = &m->levels[lv];
        ml->index_offset = v->levels[lv].index_offset;
        ml->index_count = v->levels[lv].index_count;
        ml->error = v->levels[lv].error_absolute;
        uint32_t first = 0, count = 0;
        for (uint32_t i = 0; i < v->levels[lv].meshlet_offset + v->levels[lv].meshlet_count; i++) {
            uint32_t n = kiln_mesh_meshlet(v, i).triangle_count;
            if (i < v->levels[lv].meshlet_offset) first += n;
            else count += n;
        }
        ml->first_triangle = first;
        ml->triangle_count = count;
    }
    memcpy(m->bounds_min, v->bounds_min, sizeof m->bounds_min);
    memcpy(m->bounds_max, v->bounds_max, sizeof m->bounds_max);
    m->streams_size = streams_size;
    m->info_at = info_at;
    m->vertex_count = v->vertex_count;
    VkBuffer parts[4] = {m->buffer.buffer, m->buffer.buffer, m->buffer.buffer, m->buffer.buffer};
    VkDeviceSize parts_at[4] = {0, ml_index_at, ml_id_at, info_at};
    VkDeviceSize parts_size[4] = {streams_size, ml_index_size, ml_id_size, sizeof(kv_mesh_info)};
    k = kv_mesh_set_make(ctx, parts, parts_at, parts_size, &m->pool, &m->set, err);
    if (k) {
        mesh_free(ctx, m);
        return k;
    }
    *gpu = m;
    return KILN_OK;
}

void kv_destroy_mesh(void *user, krt_handle h, void *gpu)
{
    (void)h;
    kv_context *ctx = user;
    if (gpu) ctx->vk.vkDeviceWaitIdle(ctx->device); /* a draw may still read it */
    mesh_free(ctx, gpu);
}
