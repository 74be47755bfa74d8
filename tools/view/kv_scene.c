/* kv_scene.c — drawing scenes and meshes: the pipelines (cull / winding / blend), the frame's
 * buffers (frame UBO, libkiln_rt's material table with a default record appended, the draw
 * records, joint matrices, morph weights), the draw list of a posed scene with each mesh's level
 * chosen by kiln_lod_select, opaque draws first, then blended ones back to front. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kv_pipeline.h"
#include "kv_scene.h"
#include "kv_shader.h"
#include "kv_target.h"

#define PIPELINE_COUNT 8 /* blend 4, double-sided 2, mirrored 1 */

struct kv_scene_renderer {
    VkPipeline pipelines[PIPELINE_COUNT];
    VkDescriptorPool pool; /* set 0, reset every frame */
    kv_mesh *sphere;       /* what materials are drawn on, made on first use */
    kv_draw_stats stats;
};

/* mesh_common.glsl's Frame (std140) and Draw (std430) */
typedef struct frame_ubo {
    float view[16], proj[16];
    float camera_position[4], light_direction[4], light_color[4];
    uint32_t mode[4];
} frame_ubo;

typedef struct draw_record {
    float model[16], normal_matrix[16];
    uint32_t material, joints, weights, lod, first_triangle, flags, pad[2];
} draw_record;

enum {
    DRAW_MIRRORED = 1u,
    DRAW_FLAT_NORMALS = 2u,
    DRAW_HAS_TANGENTS = 4u,
    DRAW_MESHLETS = 8u,
    DRAW_CLUSTERS = 16u, /* the pulled triangles are a cut's: keys carry the DAG level */
};

/* One draw of the frame, as the list is built. */
typedef struct draw_item {
    const kv_mesh *mesh;
    const kv_clusters *clusters; /* a cut drawn instead of the level, or NULL */
    VkDescriptorSet material_set;
    uint32_t pipeline;
    uint32_t level;
    float depth; /* view-space distance of the mesh's centre: blended draws sort by it */
    draw_record rec;
} draw_item;

const char *kv_view_name(kv_view v)
{
    static const char *const names[KV_VIEW_COUNT] = {"lit", "unlit", "normals",
                                                     "uv",  "lod",   "meshlets"};
    return (unsigned)v < KV_VIEW_COUNT ? names[v] : "?";
}

int kv_view_parse(const char *name)
{
    for (int v = 0; v < KV_VIEW_COUNT; v++)
        if (strcmp(kv_view_name((kv_view)v), name) == 0) return v;
    return -1;
}

static kiln_result make_pipeline(kv_context *ctx, kv_layouts *l, const kv_target *t,
                                 const kv_shader *vert, const kv_shader *frag, uint32_t index,
                                 VkPipeline *out, kiln_error *err)
{
    bool blend = index & 4, double_sided = index & 2, mirrored = index & 1;
    /* glTF's front faces are counter-clockwise as seen on screen. Vulkan decides facing in
     * framebuffer coordinates (y down), and the projection's y flip makes that the same
     * orientation as OpenGL's: counter-clockwise stays front. A mirroring node matrix
     * (negative determinant) reverses it, as glTF requires. */
    kv_pipeline_desc d = {
        .vert = vert,
        .frag = frag,
        .layout = l->pipeline,
        .pass = t->pass,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
        .cull = double_sided ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT,
        .front_face = mirrored ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .depth_test = true,
        .depth_write = !blend,
        .depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL,
        .blend = blend,
    };
    return kv_pipeline_create(ctx, &d, out, err);
}

kiln_result kv_scene_renderer_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                                     const kv_shader *frag, kv_scene_renderer **out,
                                     kiln_error *err)
{
    *out = NULL;
    if (!vert || !frag || vert->stage != KILN_SHADER_VERTEX || frag->stage != KILN_SHADER_FRAGMENT)
        return kv_error(err, KILN_E_USAGE,
                        "kv_scene_renderer_create: needs a vertex and a fragment shader");
    kv_layouts *l;
    kiln_result k = kv_layouts_get(ctx, &l, err);
    if (k) return k;
    kv_scene_renderer *r = kv_calloc(ctx, sizeof *r);
    if (!r) return kv_error(err, KILN_E_OUT_OF_MEMORY, "vulkan: out of memory");
    for (uint32_t i = 0; i < PIPELINE_COUNT && !k; i++)
        k = make_pipeline(ctx, l, t, vert, frag, i, &r->pipelines[i], err);
    if (!k) {
        VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}};
        VkDescriptorPoolCreateInfo pi = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
            .maxSets = 1,
            .poolSizeCount = 2,
            .pPoolSizes = sizes,
        };
        VkResult vr = ctx->vk.vkCreateDescriptorPool(ctx->device, &pi, NULL, &r->pool);
        if (vr != VK_SUCCESS) k = kv_vk_fail(err, vr, "vkCreateDescriptorPool (frame)");
    }
    if (k) {
        kv_scene_renderer_destroy(ctx, r);
        return k;
    }
    *out = r;
    return KILN_OK;
}

void kv_scene_renderer_destroy(kv_context *ctx, kv_scene_renderer *r)
{
    if (!r) return;
    ctx->vk.vkDeviceWaitIdle(ctx->device);
    for (uint32_t i = 0; i < PIPELINE_COUNT; i++)
        if (r->pipelines[i]) ctx->vk.vkDestroyPipeline(ctx->device, r->pipelines[i], NULL);
    if (r->pool) ctx->vk.vkDestroyDescriptorPool(ctx->device, r->pool, NULL);
    if (r->sphere) kv_destroy_mesh(ctx, (krt_handle){0}, r->sphere);
    kv_free(ctx, r, sizeof *r);
}

void kv_draw_stats_get(const kv_scene_renderer *r, kv_draw_stats *out) { *out = r->stats; }

/* ---- the draw list ------------------------------------------------------------------------- */

typedef struct frame_lists {
    kv_context *ctx;
    draw_item *items;
    size_t count, cap;
    float *joints; /* 16 floats each */
    size_t joint_count, joint_cap;
    float *weights;
    size_t weight_count, weight_cap;
} frame_lists;

static bool grow(kv_context *ctx, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *q = kv_alloc(ctx, n * elem);
    if (!q) return false;
    if (*p) memcpy(q, *p, *cap * elem);
    kv_free(ctx, *p, *cap * elem);
    *p = q;
    *cap = n;
    return true;
}

static void lists_free(frame_lists *f)
{
    kv_free(f->ctx, f->items, f->cap * sizeof *f->items);
    kv_free(f->ctx, f->joints, f->joint_cap * 16 * sizeof(float));
    kv_free(f->ctx, f->weights, f->weight_cap * sizeof(float));
}

/* The level to draw: the override, or the coarsest whose error covers at most the threshold
 * at the mesh's distance (its bounding sphere's surface; errors scale with the node). */
static uint32_t choose_level(const kv_mesh *m, const float model[16], const kv_camera *cam,
                             const kv_draw_desc *desc, float screen_height)
{
    if (m->level_count <= 1) return 0;
    if (desc->lod >= 0)
        return (uint32_t)desc->lod < m->level_count ? (uint32_t)desc->lod : m->level_count - 1;
    float c[3], e[3], centre[3];
    for (int i = 0; i < 3; i++) c[i] = 0.5f * (m->bounds_min[i] + m->bounds_max[i]);
    for (int i = 0; i < 3; i++) e[i] = 0.5f * (m->bounds_max[i] - m->bounds_min[i]);
    kv_mat4_point(model, c, centre);
    float scale = kv_mat4_max_scale(model);
    float radius = sqrtf(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) * scale;
    float dx = centre[0] - cam->eye[0], dy = centre[1] - cam->eye[1], dz = centre[2] - cam->eye[2];
    float dist = sqrtf(dx * dx + dy * dy + dz * dz) - radius;
    if (dist < 1e-6f * (radius > 0 ? radius : 1.0f)) return 0;
    float errors[KILN_MESH_MAX_LEVELS];
    for (uint32_t l = 0; l < m->level_count; l++) errors[l] = m->levels[l].error * scale;
    float threshold = desc->lod_pixels > 0 ? desc->lod_pixels : 1.0f;
    return kiln_lod_select(errors, m->level_count, 0, dist, screen_height, cam->fov_y, threshold,
                           0.0f);
}

static float view_depth(const kv_camera *cam, const kv_mesh *m, const float model[16])
{
    float c[3], w[3];
    for (int i = 0; i < 3; i++) c[i] = 0.5f * (m->bounds_min[i] + m->bounds_max[i]);
    kv_mat4_point(model, c, w);
    return -(cam->view[2] * w[0] + cam->view[6] * w[1] + cam->view[10] * w[2] + cam->view[14]);
}

/* Adds one draw of mesh m (its cooked view v, NULL for kv's own sphere) with a material handle
 * (0: the default material): its level, morph weights (the node's, reordered as mesh.vert reads
 * them: targets with positions, then with normals, then with tangents) and skin (joint matrices
 * already in the list at joints, or KV_NONE). */
static kiln_result add_mesh(frame_lists *f, krt_context *rt, const kv_mesh *m,
                            const kiln_mesh_view *v, krt_handle material, const float model[16],
                            const float *node_weights, uint32_t node_weight_count, uint32_t joints,
                            uint32_t default_material, const kv_camera *cam,
                            const kv_draw_desc *desc, float screen_height, kiln_error *err)
{
    kv_layouts *l = f->ctx->layouts;
    if (!grow(f->ctx, (void **)&f->items, &f->cap, f->count + 1, sizeof *f->items))
        return kv_error(err, KILN_E_OUT_OF_MEMORY, "draw list: out of memory");
    draw_item *it = &f->items[f->count];
    memset(it, 0, sizeof *it);
    it->mesh = m;
    const kv_material *mat = material.id ? krt_gpu(rt, material) : NULL;
    uint32_t index = material.id ? krt_material_index(rt, material) : KRT_INVALID_INDEX;
    it->material_set = mat ? mat->set : l->default_material;
    it->rec.material = index != KRT_INVALID_INDEX ? index : default_material;
    bool blend = mat && mat->blend, double_sided = mat && mat->double_sided;
    bool mirrored = joints == KV_NONE && kv_mat4_det3(model) < 0.0f;
    it->pipeline = (blend ? 4u : 0u) | (double_sided ? 2u : 0u) | (mirrored ? 1u : 0u);
    it->level = choose_level(m, model, cam, desc, screen_height);
    it->depth = view_depth(cam, m, model);
    memcpy(it->rec.model, model, 16 * sizeof(float));
    kv_mat4_normal(model, it->rec.normal_matrix);
    it->rec.joints = m->skinned ? joints : KV_NONE;
    it->rec.lod = it->level;
    it->rec.first_triangle = m->levels[it->level].first_triangle;
    it->rec.flags = (mirrored ? DRAW_MIRRORED : 0) |
                    ((m->flags & KILN_MESH_FLAT_NORMALS) ? DRAW_FLAT_NORMALS : 0) |
                    (m->has_tangents ? DRAW_HAS_TANGENTS : 0);
    if (desc->view == KV_VIEW_MESHLETS && m->levels[it->level].triangle_count > 0)
        it->rec.flags |= DRAW_MESHLETS;
    it->rec.weights = KV_NONE;
    if (v && v->target_count > 0) {
        static const uint32_t order[3] = {KILN_MESH_TARGET_HAS_POSITIONS,
                                          KILN_MESH_TARGET_HAS_NORMALS,
                                          KILN_MESH_TARGET_HAS_TANGENTS};
        size_t need = f->weight_count + 3 * (size_t)v->target_count;
        if (!grow(f->ctx, (void **)&f->weights, &f->weight_cap, need, sizeof(float)))
            return kv_error(err, KILN_E_OUT_OF_MEMORY, "draw list: out of memory");
        it->rec.weights = (uint32_t)f->weight_count;
        for (int o = 0; o < 3; o++)
            for (uint32_t i = 0; i < v->target_count; i++)
                if (kiln_mesh_target_flags(v, i) & order[o])
                    f->weights[f->weight_count++] =
                        i < node_weight_count ? node_weights[i] : kiln_mesh_target_weight(v, i);
    }
    f->count++;
    return KILN_OK;
}

/* Adds a cooked mesh's draw (skipped while it has no object: loading or failed). */
static kiln_result add_draw(frame_lists *f, krt_context *rt, krt_handle mh, const float model[16],
                            const float *node_weights, uint32_t node_weight_count, uint32_t joints,
                            uint32_t default_material, const kv_camera *cam,
                            const kv_draw_desc *desc, float screen_height, kiln_error *err)
{
    const kv_mesh *m = krt_gpu(rt, mh);
    if (!m || krt_state_of(rt, mh) != KRT_STATE_READY) return KILN_OK;
    krt_mesh_data md;
    if (krt_get_mesh(rt, mh, &md, err)) return err->code;
    return add_mesh(f, rt, m, md.view, md.material, model, node_weights, node_weight_count, joints,
                    default_material, cam, desc, screen_height, err);
}

/* The mesh's draw (the list's last) shows the cut c instead of its level: every view pulls the
 * cut's triangles, keyed by cluster and DAG level (kv_vgeo.c). */
static kiln_result use_clusters(frame_lists *f, krt_context *rt, krt_handle mh,
                                const kv_clusters *c, kiln_error *err)
{
    if (c->mesh != krt_gpu(rt, mh))
        return kv_error(err, KILN_E_USAGE, "kv_draw: the clusters were made for another mesh");
    if (f->count == 0) return KILN_OK; /* the mesh has no object: nothing drawn */
    draw_item *it = &f->items[f->count - 1];
    it->clusters = c;
    it->level = 0;
    it->rec.lod = 0;
    it->rec.first_triangle = 0;
    it->rec.flags |= DRAW_MESHLETS | DRAW_CLUSTERS;
    return KILN_OK;
}

/* The joint matrices of the skeleton with asset id `id` in a posed scene, appended to the list
 * (once per skeleton and frame: *cached remembers where). */
static kiln_result add_skin(frame_lists *f, krt_context *rt, const krt_scene_data *sd,
                            const kv_pose *pose, uint64_t id, uint32_t *at, kiln_error *err)
{
    *at = KV_NONE;
    for (uint32_t k = 0; k < sd->skeleton_count; k++) {
        if (krt_asset_id(rt, sd->skeletons[k]) != id) continue;
        const kiln_skeleton_view *sk;
        if (krt_state_of(rt, sd->skeletons[k]) != KRT_STATE_READY ||
            krt_get_skeleton(rt, sd->skeletons[k], &sk, err))
            return KILN_OK; /* drawn unskinned */
        if (!grow(f->ctx, (void **)&f->joints, &f->joint_cap, f->joint_count + sk->joint_count,
                  16 * sizeof(float)))
            return kv_error(err, KILN_E_OUT_OF_MEMORY, "draw list: out of memory");
        kv_pose_skin(pose, sk, f->joints + f->joint_count * 16);
        *at = (uint32_t)f->joint_count;
        f->joint_count += sk->joint_count;
        return KILN_OK;
    }
    return KILN_OK;
}

static kiln_result build_scene(frame_lists *f, krt_context *rt, krt_handle h, const kv_camera *cam,
                               const kv_draw_desc *desc, uint32_t default_material,
                               float screen_height, kiln_error *err)
{
    krt_scene_data sd;
    if (krt_get_scene(rt, h, &sd, err)) return err->code;
    const kiln_cooked_scene_view *s = sd.view;
    const kiln_clip_view *clip = NULL;
    if (desc->clip != KV_NO_CLIP) {
        if (desc->clip >= s->clip_count)
            return kv_error(err, KILN_E_USAGE, "the scene has %u clips; clip %u asked for",
                            s->clip_count, desc->clip);
        if (krt_state_of(rt, sd.clips[desc->clip]) == KRT_STATE_READY &&
            krt_get_clip(rt, sd.clips[desc->clip], &clip, err))
            return err->code;
    }
    kv_pose pose;
    kiln_result k = kv_pose_scene(f->ctx, s, clip, desc->time, &pose, err);
    if (k) return k;
    /* Skins: one set of joint matrices per skeleton, shared by the nodes it deforms. */
    uint64_t skin_ids[16];
    uint32_t skin_at[16], skins = 0;
    for (uint32_t i = 0; i < s->node_count && !k; i++) {
        kiln_cooked_node nd = kiln_cooked_scene_node(s, i);
        if (nd.primitive_count == 0) continue;
        uint32_t joints = KV_NONE;
        if (nd.skin != KILN_COOKED_NONE) {
            uint32_t j = 0;
            while (j < skins && skin_ids[j] != nd.skeleton) j++;
            if (j < skins) joints = skin_at[j];
            else {
                k = add_skin(f, rt, &sd, &pose, nd.skeleton, &joints, err);
                if (skins < 16) skin_ids[skins] = nd.skeleton, skin_at[skins++] = joints;
            }
        }
        const float *world = pose.world + (size_t)i * 16;
        for (uint32_t p = 0; p < nd.primitive_count && !k; p++)
            k = add_draw(f, rt, sd.primitives[nd.first_primitive + p], world,
                         pose.weights + nd.first_weight, nd.weight_count, joints, default_material,
                         cam, desc, screen_height, err);
    }
    kv_pose_free(f->ctx, &pose);
    return k;
}

static int by_depth_far_first(const void *a, const void *b)
{
    const draw_item *x = a, *y = b;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return x->rec.pad[0] < y->rec.pad[0] ? -1 : x->rec.pad[0] > y->rec.pad[0] ? 1 : 0;
}

/* Opaque and masked draws keep their order; blended ones go last, the farthest first (stable:
 * equal depths keep the scene's order, as the index breaks ties). */
static void order_draws(frame_lists *f)
{
    size_t w = 0;
    for (size_t i = 0; i < f->count; i++)
        if (!(f->items[i].pipeline & 4)) {
            draw_item t = f->items[i];
            memmove(&f->items[w + 1], &f->items[w], (i - w) * sizeof *f->items);
            f->items[w++] = t;
        }
    /* qsort is not stable: tie-break by the position the depth sort starts from */
    for (size_t i = w; i < f->count; i++) f->items[i].rec.pad[0] = (uint32_t)i;
    size_t n = f->count - w;
    if (n > 1) qsort(f->items + w, n, sizeof *f->items, by_depth_far_first);
}

/* ---- the frame ----------------------------------------------------------------------------- */

static float srgb_to_linear(uint8_t v)
{
    float c = v / 255.0f;
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

static void default_record(krt_gpu_material *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 4; i++) m->base_color[i] = 1.0f;
    m->emissive_strength = 1.0f;
    m->metallic = m->roughness = 1.0f;
    m->normal_scale = m->occlusion_strength = 1.0f;
    m->alpha_cutoff = 0.5f;
    m->flags = KRT_GPU_MATERIAL_LIVE;
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) m->textures[s] = KRT_INVALID_INDEX;
}

static kiln_result record_and_submit(kv_context *ctx, kv_scene_renderer *r, kv_target *t,
                                     krt_context *rt, frame_lists *f, const kv_camera *cam,
                                     const kv_draw_desc *desc, kiln_error *err)
{
    const krt_gpu_material *records = NULL;
    size_t record_count = 0;
    krt_material_table(rt, &records, &record_count, NULL);
    VkDeviceSize ssbo_align = ctx->properties.limits.minStorageBufferOffsetAlignment;
    VkDeviceSize ubo_align = ctx->properties.limits.minUniformBufferOffsetAlignment;
    VkDeviceSize a = ssbo_align > ubo_align ? ssbo_align : ubo_align;
    if (a < 16) a = 16;
    VkDeviceSize at[5], size[5];
    size[0] = sizeof(frame_ubo);
    size[1] = (record_count + 1) * sizeof(krt_gpu_material);
    size[2] = (f->count ? f->count : 1) * sizeof(draw_record);
    size[3] = (f->joint_count ? f->joint_count : 1) * 16 * sizeof(float);
    size[4] = (f->weight_count ? f->weight_count : 1) * sizeof(float);
    VkDeviceSize total = 0;
    for (int i = 0; i < 5; i++) {
        at[i] = total;
        total = align_up(total + size[i], a);
    }
    kv_buffer buf;
    kiln_result k = kv_buffer_create(
        ctx, total, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &buf,
        err);
    if (k) return k;
    uint8_t *base = buf.mapped;
    memset(base, 0, (size_t)total);
    frame_ubo fu;
    memset(&fu, 0, sizeof fu);
    memcpy(fu.view, cam->view, sizeof fu.view);
    memcpy(fu.proj, cam->proj, sizeof fu.proj);
    memcpy(fu.camera_position, cam->eye, 3 * sizeof(float));
    /* The light: from above, over the camera's right shoulder (view space (0.4, 0.8, 0.45)). */
    float light[3] = {0.4f, 0.8f, 0.45f}, ll = sqrtf(0.16f + 0.64f + 0.2025f);
    for (int i = 0; i < 3; i++) /* the view matrix's rows are the camera's axes */
        fu.light_direction[i] = (cam->view[i * 4 + 0] * light[0] + cam->view[i * 4 + 1] * light[1] +
                                 cam->view[i * 4 + 2] * light[2]) /
                                ll;
    fu.light_color[0] = fu.light_color[1] = fu.light_color[2] = 2.5f;
    fu.light_color[3] = 0.6f;
    fu.mode[0] = (uint32_t)desc->view;
    memcpy(base + at[0], &fu, sizeof fu);
    if (record_count) memcpy(base + at[1], records, record_count * sizeof *records);
    krt_gpu_material def;
    default_record(&def);
    memcpy(base + at[1] + record_count * sizeof def, &def, sizeof def);
    for (size_t i = 0; i < f->count; i++)
        memcpy(base + at[2] + i * sizeof(draw_record), &f->items[i].rec, sizeof(draw_record));
    if (f->joint_count) memcpy(base + at[3], f->joints, f->joint_count * 16 * sizeof(float));
    if (f->weight_count) memcpy(base + at[4], f->weights, f->weight_count * sizeof(float));

    kv_layouts *l = ctx->layouts;
    ctx->vk.vkResetDescriptorPool(ctx->device, r->pool, 0);
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = r->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &l->frame,
    };
    VkResult vr = ctx->vk.vkAllocateDescriptorSets(ctx->device, &ai, &set);
    if (vr != VK_SUCCESS) {
        kv_buffer_destroy(ctx, &buf);
        return kv_vk_fail(err, vr, "vkAllocateDescriptorSets (frame)");
    }
    VkDescriptorBufferInfo bi[5];
    VkWriteDescriptorSet w[5];
    for (uint32_t i = 0; i < 5; i++) {
        bi[i] = (VkDescriptorBufferInfo){buf.buffer, at[i], size[i]};
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType =
                i == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &bi[i],
        };
    }
    ctx->vk.vkUpdateDescriptorSets(ctx->device, 5, w, 0, NULL);

    VkCommandBuffer cmd;
    k = kv_once_begin(ctx, &cmd, err);
    if (k) {
        kv_buffer_destroy(ctx, &buf);
        return k;
    }
    VkClearValue clear[2];
    memset(clear, 0, sizeof clear);
    for (int i = 0; i < 3; i++) clear[0].color.float32[i] = srgb_to_linear(desc->background[i]);
    clear[0].color.float32[3] = desc->background[3] / 255.0f;
    clear[1].depthStencil = (VkClearDepthStencilValue){1.0f, 0};
    VkRenderPassBeginInfo rp = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = t->pass,
        .framebuffer = t->framebuffer,
        .renderArea = {{0, 0}, {t->width, t->height}},
        .clearValueCount = 2,
        .pClearValues = clear,
    };
    ctx->vk.vkCmdBeginRenderPass(cmd, &rp, VK_SUBPASS_CONTENTS_INLINE);
    VkViewport vp = {0.0f, 0.0f, (float)t->width, (float)t->height, 0.0f, 1.0f};
    VkRect2D sc = {{0, 0}, {t->width, t->height}};
    ctx->vk.vkCmdSetViewport(cmd, 0, 1, &vp);
    ctx->vk.vkCmdSetScissor(cmd, 0, 1, &sc);
    ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, l->pipeline, 0, 1, &set,
                                    0, NULL);
    uint32_t bound = UINT32_MAX;
    memset(&r->stats, 0, sizeof r->stats);
    for (uint32_t i = 0; i < f->count; i++) {
        const draw_item *it = &f->items[i];
        const kv_mesh_level *lv = &it->mesh->levels[it->level];
        if (it->pipeline != bound) {
            ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS,
                                      r->pipelines[it->pipeline]);
            bound = it->pipeline;
        }
        VkDescriptorSet sets[2] = {it->material_set,
                                   it->clusters ? it->clusters->set : it->mesh->set};
        ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, l->pipeline, 1, 2,
                                        sets, 0, NULL);
        ctx->vk.vkCmdPushConstants(
            cmd, l->pipeline, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &i);
        if (it->rec.flags & DRAW_MESHLETS) {
            uint32_t n = it->clusters ? it->clusters->triangle_count : lv->triangle_count;
            if (n) ctx->vk.vkCmdDraw(cmd, n * 3, 1, 0, 0);
            r->stats.triangles += n;
        } else {
            ctx->vk.vkCmdBindIndexBuffer(cmd, it->mesh->buffer.buffer, it->mesh->index_at,
                                         it->mesh->index_type);
            ctx->vk.vkCmdDrawIndexed(cmd, lv->index_count, 1, lv->index_offset, 0, 0);
            r->stats.triangles += lv->index_count / 3;
        }
        r->stats.draws++;
        r->stats.level_histogram[it->level]++;
    }
    ctx->vk.vkCmdEndRenderPass(cmd);
    k = kv_once_end(ctx, cmd, true, err);
    if (!k) t->drawn = true;
    kv_buffer_destroy(ctx, &buf);
    return k;
}

kiln_result kv_draw(kv_context *ctx, kv_scene_renderer *r, kv_target *t, krt_context *rt,
                    krt_handle h, const kv_camera *camera, const kv_draw_desc *desc,
                    kiln_error *err)
{
    if (!ctx->layouts) return kv_error(err, KILN_E_USAGE, "kv_draw: no scene renderer made");
    if (krt_state_of(rt, h) != KRT_STATE_READY)
        return kv_error(err, KILN_E_USAGE, "kv_draw: the asset is not ready");
    if ((unsigned)desc->view >= KV_VIEW_COUNT)
        return kv_error(err, KILN_E_USAGE, "kv_draw: unknown view %d", (int)desc->view);
    if (desc->clusters && krt_handle_type(h) != KRT_TYPE_MESH)
        return kv_error(err, KILN_E_USAGE, "kv_draw: clusters are drawn over a mesh");
    frame_lists f = {.ctx = ctx};
    size_t record_count = 0;
    krt_material_table(rt, NULL, &record_count, NULL);
    uint32_t default_material = (uint32_t)record_count;
    float height = (float)t->height;
    kiln_result k;
    krt_type type = krt_handle_type(h);
    if (type == KRT_TYPE_SCENE) {
        k = build_scene(&f, rt, h, camera, desc, default_material, height, err);
    } else if (type == KRT_TYPE_MESH) {
        float identity[16];
        kv_mat4_identity(identity);
        k = add_draw(&f, rt, h, identity, NULL, 0, KV_NONE, default_material, camera, desc, height,
                     err);
        if (!k && desc->clusters) k = use_clusters(&f, rt, h, desc->clusters, err);
    } else if (type == KRT_TYPE_MATERIAL) {
        if (!r->sphere) k = kv_sphere_create(ctx, &r->sphere, err);
        else k = KILN_OK;
        float identity[16];
        kv_mat4_identity(identity);
        if (!k)
            k = add_mesh(&f, rt, r->sphere, NULL, h, identity, NULL, 0, KV_NONE, default_material,
                         camera, desc, height, err);
    } else {
        k = kv_error(err, KILN_E_USAGE, "kv_draw: draws scenes, meshes and materials only");
    }
    if (!k) {
        order_draws(&f);
        k = record_and_submit(ctx, r, t, rt, &f, camera, desc, err);
    }
    lists_free(&f);
    return k;
}
