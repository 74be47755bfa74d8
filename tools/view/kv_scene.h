/* kv_scene.h — the objects of mesh drawing that kv's files share: the descriptor set layouts and
 * fallbacks every mesh and material is made against (kv_layouts.c), a mesh's buffer and levels
 * (kv_mesh.c), a material's descriptor set (kv_material.c), and the pose of a scene at a clip
 * time (kv_pose.c). The GLSL side is tools/view/shaders/mesh_common.glsl. */
#ifndef KV_SCENE_H
#define KV_SCENE_H

#include "kv_internal.h"

#define KV_NONE 0xFFFFFFFFu

/* Made once per context, on the first mesh, material or scene renderer (renderer thread). */
typedef struct kv_layouts {
    VkDescriptorSetLayout frame;    /* set 0: frame UBO, materials, draws, joints, weights */
    VkDescriptorSetLayout material; /* set 1: five combined image samplers */
    VkDescriptorSetLayout mesh;     /* set 2: streams, meshlet indices and ids, mesh UBO */
    VkPipelineLayout pipeline;      /* sets 0..2, push constant: the draw's index */
    kv_texture *white;              /* 1x1 white RGBA8: an empty slot's texture */
    VkSampler samplers[108];        /* by filter and wrap (kv_sampler_get); made on demand */
    VkDescriptorPool pool;          /* the default material's set */
    VkDescriptorSet default_material;
} kv_layouts;

kiln_result kv_layouts_get(kv_context *ctx, kv_layouts **out, kiln_error *err);
void kv_layouts_destroy(kv_context *ctx); /* kv_context_destroy calls it */

/* A sampler for a material slot's filter and wrap modes (cached in the layouts). */
kiln_result kv_sampler_get(kv_context *ctx, const kiln_material_texture *t, VkSampler *out,
                           kiln_error *err);

/* The mesh UBO (std140), as mesh.vert's Mesh block. */
typedef struct kv_mesh_info {
    float bounds_min[4], position_scale[4];
    float uv[2][4];
    uint32_t at0[4], at1[4], at2[4], counts[4];
} kv_mesh_info;

enum {
    KV_MESH_INFO_QUANTIZED = 1u,
    KV_MESH_INFO_JOINTS16 = 2u,
};

typedef struct kv_mesh_level {
    uint32_t index_offset, index_count;      /* in indices */
    uint32_t first_triangle, triangle_count; /* of the meshlet triangles */
    float error;                             /* absolute, model units */
} kv_mesh_level;

typedef struct kv_mesh kv_mesh;
typedef struct kv_material kv_material;

struct kv_mesh {
    kv_buffer buffer; /* streams, then indices, meshlet indices and ids, then the UBO */
    VkDeviceSize index_at;
    VkIndexType index_type;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    uint32_t flags; /* kiln_mesh_view.flags */
    bool has_tangents, skinned;
    uint32_t target_count;
    uint32_t level_count;
    kv_mesh_level levels[KILN_MESH_MAX_LEVELS];
    float bounds_min[3], bounds_max[3];
    VkDeviceSize streams_size, info_at; /* the streams (at 0) and the UBO in buffer */
    uint32_t vertex_count;
};

/* A cut of a virtual geometry over its mesh (kv_vgeo.c): the clusters' triangles as the mesh's
 * vertex indices and each triangle's key (KV_CLUSTER_KEY), in a buffer of its own, and a set 2
 * that points at the mesh's streams and UBO and at these in place of the meshlets. Drawn as the
 * meshlet view's pulled triangles. */
struct kv_clusters {
    kv_buffer buffer;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    const kv_mesh *mesh;
    uint32_t cluster_count, triangle_count;
};

/* A triangle's key in a cut: its cluster's index in the VGEO, its DAG level in the top 8 bits
 * (mesh.frag: the meshlet view colours by the index, the LOD view by the level). */
#define KV_CLUSTER_KEY(cluster, level) ((cluster) | (uint32_t)(level) << 24)
#define KV_CLUSTER_MAX                 (1u << 24)

struct kv_material {
    VkDescriptorPool pool;
    VkDescriptorSet set;
    bool blend, double_sided;
};

/* A mesh's set 2 (kv_mesh.c): streams, meshlet indices, meshlet ids (storage buffers) and the
 * mesh UBO, each a range of a buffer; pool and set are made for it (destroy the pool). */
kiln_result kv_mesh_set_make(kv_context *ctx, const VkBuffer buffers[4], const VkDeviceSize at[4],
                             const VkDeviceSize size[4], VkDescriptorPool *pool,
                             VkDescriptorSet *set, kiln_error *err);
/* A meshlet's or cluster's triangles (their layouts are one) as global vertex indices:
 * 3 * c.triangle_count of them into indices. vertices: the u32 table, triangles: the u8 one. */
void kv_expand_cluster(const uint8_t *vertices, const uint8_t *triangles, kiln_meshlet c,
                       uint32_t *indices);

/* The callbacks (kv_mesh.c, kv_material.c). */
kiln_result kv_create_mesh(void *user, krt_handle h, const krt_mesh_data *d, void **gpu,
                           kiln_error *err);
void kv_destroy_mesh(void *user, krt_handle h, void *gpu);
kiln_result kv_create_material(void *user, krt_handle h, const krt_material_data *d, void **gpu,
                               kiln_error *err);
void kv_destroy_material(void *user, krt_handle h, void *gpu);
/* Points a material set's five bindings at the slots' textures (white where a slot or its object
 * is missing: slots and texture_gpu may be NULL) with the samplers the slots ask for. */
kiln_result kv_material_set_write(kv_context *ctx, VkDescriptorSet set,
                                  const kiln_material_texture *slots, void *const *texture_gpu,
                                  kiln_error *err);

/* A scene posed at a clip time (kv_pose.c): every node's world matrix and the scene's morph
 * weights with the clip's tracks applied. Tracks aim at source nodes (kiln_clip_track.node),
 * joints included: joints are nodes of the scene, so a skin is posed by its joints' nodes. */
typedef struct kv_pose {
    uint32_t node_count;
    float *world; /* node_count x 16 */
    uint32_t weight_count;
    float *weights;      /* the scene's WGHT, animated */
    uint32_t *by_source; /* source node -> scene node, KV_NONE when absent */
    uint32_t source_count;
} kv_pose;

/* clip may be NULL (the rest pose: the nodes' transforms as written). Errors: out of memory. */
kiln_result kv_pose_scene(kv_context *ctx, const kiln_cooked_scene_view *s,
                          const kiln_clip_view *clip, float time, kv_pose *out, kiln_error *err);
void kv_pose_free(kv_context *ctx, kv_pose *p);
/* The skinning matrices of a skeleton in a posed scene into out (joint_count x 16): joint j's is
 * world(its node) x inverse_bind(j); a joint whose node is not in the scene is posed from the
 * skeleton's bind pose under its parent. */
void kv_pose_skin(const kv_pose *p, const kiln_skeleton_view *sk, float *out);

/* A unit sphere with normals, tangents and UVs as a mesh object (kv_sphere.c). */
kiln_result kv_sphere_create(kv_context *ctx, kv_mesh **out, kiln_error *err);

/* Column-major 4x4 helpers (kv_math.c). */
void kv_mat4_identity(float m[16]);
void kv_mat4_mul(const float a[16], const float b[16], float out[16]); /* out = a * b */
void kv_mat4_trs(const float t[3], const float r[4], const float s[3], float out[16]);
float kv_mat4_det3(const float m[16]); /* determinant of the upper 3x3 */
/* Inverse transpose of the upper 3x3 in a 4x4 (w row and column identity); false if singular. */
bool kv_mat4_normal(const float m[16], float out[16]);
void kv_mat4_point(const float m[16], const float p[3], float out[3]);
float kv_mat4_max_scale(const float m[16]); /* the longest basis vector */

#endif
