/* kv.h — tools/view, kiln's Vulkan reference renderer (docs/rendering.md): a headless Vulkan
 * context, the renderer side of libkiln_rt's callbacks for textures and shaders, an offscreen
 * target with read-back, and a textured quad drawn with kiln-cooked shaders. It is a client of
 * the public headers only (kiln_rt.h, kiln_format.h). Thread rules: one thread (the renderer
 * thread) for everything except kv_supports_format, which any thread may call. */
#ifndef KV_H
#define KV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_rt.h"

/* The stable code kv reports when Vulkan is not usable here: no loader (libvulkan.so.1), no
 * Vulkan 1.1 instance, no physical device with a graphics queue. Tests skip (exit 77) on it.
 * kiln_result has no code of its own for it (yet): kv uses "a feature it lacks". */
#define KV_E_UNAVAILABLE KILN_E_IMPORT_UNSUPPORTED

typedef struct kv_context kv_context;

/* What the debug-utils messenger saw: every warning and error, counted, the first few kept. */
#define KV_MAX_KEPT_MESSAGES 8
typedef struct kv_messages {
    uint32_t warnings, errors;
    uint32_t kept;
    char text[KV_MAX_KEPT_MESSAGES][512];
} kv_messages;

typedef struct kv_context_desc {
    uint32_t struct_size;     /* sizeof(kv_context_desc); 0 is taken as the current size */
    kiln_allocator allocator; /* all NULL = libc */
    const char *loader;       /* the Vulkan loader to open; NULL = "libvulkan.so.1" */
    bool no_validation;       /* do not enable VK_LAYER_KHRONOS_validation even when present */
    bool require_validation;  /* fail (KV_E_UNAVAILABLE) when the layer is absent */
    /* Presentation (kiln view): the instance extensions the window system needs (GLFW's
     * glfwGetRequiredInstanceExtensions), enabled with VK_KHR_swapchain on the device. None:
     * headless. */
    const char *const *instance_extensions;
    uint32_t instance_extension_count;
} kv_context_desc;

/* Creates the instance (Vulkan 1.1+, the validation layer when present, a messenger), picks a
 * physical device with a graphics queue, makes the device, its queue and a command pool.
 * Errors: KV_E_UNAVAILABLE (see above), KILN_E_OUT_OF_MEMORY, KILN_E_INTERNAL (a Vulkan call
 * failed: the message names it and its VkResult). */
kiln_result kv_context_create(const kv_context_desc *desc, kv_context **out, kiln_error *err);
void kv_context_destroy(kv_context *ctx); /* NULL is a no-op; waits for the device first */
/* The same, returning how many validation messages the device's destruction brought (the
 * layer's object tracker names every Vulkan object still alive then; each is printed on stderr):
 * tests fail on a non-zero count. */
uint32_t kv_context_destroy_checked(kv_context *ctx);

/* The device's name and whether the validation layer is on. */
const char *kv_device_name(const kv_context *ctx);
bool kv_validation_enabled(const kv_context *ctx);
/* The Vulkan version in use (VK_MAKE_API_VERSION): the lower of the loader's and the device's,
 * at most 1.3. Shaders cooked for a newer target are refused by create_shader. */
uint32_t kv_api_version(const kv_context *ctx);

/* A copy of the messages so far (the messenger also runs during instance creation and
 * destruction of the objects made after it). */
void kv_messages_get(kv_context *ctx, kv_messages *out);

/* Whether a kiln_vk_format can be sampled with linear filtering on this device (a table made
 * at creation; any thread). */
bool kv_supports_format(const kv_context *ctx, uint32_t vk_format);

/* ---- offscreen target ---------------------------------------------------------------------- */

/* An R8G8B8A8_SRGB colour image and a depth image of one size, with the render pass and
 * framebuffer that draw into them. */
typedef struct kv_target kv_target;
kiln_result kv_target_create(kv_context *ctx, uint32_t width, uint32_t height, kv_target **out,
                             kiln_error *err);
void kv_target_destroy(kv_context *ctx, kv_target *t);
void kv_target_size(const kv_target *t, uint32_t *width, uint32_t *height);
/* Copies the colour image into rgba (width * height * 4 bytes, rows top to bottom, sRGB-encoded
 * as stored). Errors: KILN_E_USAGE (size too small), KILN_E_INTERNAL. */
kiln_result kv_target_read(kv_context *ctx, kv_target *t, uint8_t *rgba, size_t size,
                           kiln_error *err);

/* ---- libkiln_rt's renderer callbacks ------------------------------------------------------- */

/* Fills the renderer's callbacks for textures (create/destroy, supports_format) and shaders
 * (create/destroy), meshes and materials (create/destroy), with ctx as user pointer. */
void kv_renderer_fill(kv_context *ctx, krt_renderer *r, krt_renderer_shaders *s);

/* The objects the callbacks make (krt_gpu returns them). */
typedef struct kv_texture kv_texture;
typedef struct kv_shader kv_shader;
uint32_t kv_texture_format(const kv_texture *t); /* the kiln_vk_format uploaded */

/* ---- drawing ------------------------------------------------------------------------------- */

/* A pipeline for a textured quad covering the target: the vertex shader makes the four corners
 * from gl_VertexIndex, the fragment shader samples set 0 binding 0 (a combined image sampler with
 * nearest filtering; tools/view/shaders/quad.frag reads level 0). Both shaders' variant
 * "default" (else variant 0). The pipeline works with any kv_target (they share one render
 * pass layout). Errors: KILN_E_USAGE (not a vertex and a fragment shader), Vulkan failures. */
typedef struct kv_quad kv_quad;
kiln_result kv_quad_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                           const kv_shader *frag, kv_quad **out, kiln_error *err);
void kv_quad_destroy(kv_context *ctx, kv_quad *q);
/* Clears the target and draws the quad sampling tex; waits for the GPU. */
kiln_result kv_quad_draw(kv_context *ctx, kv_quad *q, kv_target *t, const kv_texture *tex,
                         kiln_error *err);

/* ---- meshes, materials and scenes (docs/rendering.md) ---------------------------------------- */

/* What a mesh draw shows. LIT: metal-rough PBR, one directional light over the camera's shoulder
 * and a sky/ground ambient; UNLIT: base colour x texture x vertex colour (the three.js
 * reference's mode); NORMALS: the shading normal (normal map applied) as 0.5 + 0.5 n; UV: set 0's
 * fractional UV in red and green; LOD: the level drawn, one colour each; MESHLETS: each meshlet of
 * the level in its own colour. A cut of a virtual geometry (kv_draw_desc.clusters): MESHLETS
 * colours each cluster, LOD each cluster's DAG level (the same ramp: 0 green, 1 blue, ...). */
typedef enum kv_view {
    KV_VIEW_LIT = 0,
    KV_VIEW_UNLIT = 1,
    KV_VIEW_NORMALS = 2,
    KV_VIEW_UV = 3,
    KV_VIEW_LOD = 4,
    KV_VIEW_MESHLETS = 5,
    KV_VIEW_COUNT = 6,
} kv_view;

/* The view's name ("lit", "unlit", "normals", "uv", "lod", "meshlets") and back; -1 unknown. */
const char *kv_view_name(kv_view v);
int kv_view_parse(const char *name);

/* A camera: column-major matrices, the projection in Vulkan's clip space (y down, depth 0..1). */
typedef struct kv_camera {
    float view[16], proj[16];
    float eye[3];
    float fov_y; /* radians: what LOD selection takes */
} kv_camera;

/* The camera rule of docs/rendering-reference.md, shared with the three.js reference: bounds in
 * world space (min > max on any axis: empty), a preset (auto, front, back, left, right, top,
 * bottom; NULL = auto) and the viewport. Errors: KILN_E_USAGE (an unknown preset, an empty
 * viewport). */
kiln_result kv_camera_frame(const float bounds_min[3], const float bounds_max[3],
                            const char *preset, uint32_t width, uint32_t height, kv_camera *out,
                            kiln_error *err);
bool kv_camera_preset_known(const char *name);
/* A preset's direction as kv_camera_orbit takes it (NULL = auto): what an orbiting viewer starts
 * from. False for an unknown preset. */
bool kv_camera_preset_angles(const char *name, double *yaw_degrees, double *pitch_degrees);
/* The same rule from any direction (yaw about +Y from +Z towards +X, pitch above the horizon,
 * clamped to +-90, in degrees) and closer by zoom (1 = the rule's distance, 2 = half of it):
 * what an orbiting viewer uses. Errors: KILN_E_USAGE (empty viewport, zoom not above 0). */
kiln_result kv_camera_orbit(const float bounds_min[3], const float bounds_max[3],
                            double yaw_degrees, double pitch_degrees, double zoom, uint32_t width,
                            uint32_t height, kv_camera *out, kiln_error *err);

#define KV_NO_CLIP 0xFFFFFFFFu

typedef struct kv_clusters kv_clusters; /* a cut of a virtual geometry (below) */

typedef struct kv_draw_desc {
    kv_view view;
    uint32_t clip;    /* the scene's clip index to pose by, or KV_NO_CLIP (the rest pose) */
    float time;       /* seconds on the clip's timeline (clamped by the sampler) */
    int32_t lod;      /* < 0: each mesh's level by kiln_lod_select; else that level (clamped) */
    float lod_pixels; /* selection threshold in pixels; 0 = 1 */
    uint8_t background[4]; /* sRGB RGBA the target is cleared to */
    /* A mesh (KRT_TYPE_MESH) drawn as these clusters of a cut instead of a level (made by
     * kv_clusters_create for that mesh); NULL: its level. lod and lod_pixels do not apply. */
    const kv_clusters *clusters;
} kv_draw_desc;

/* Draws scenes and meshes loaded through libkiln_rt with kv as the renderer (kv_renderer_fill):
 * one pipeline per cull / winding / blend state, made from tools/view/shaders/mesh.vert and
 * mesh.frag (kiln-cooked, their "default" variants) for the target's render pass. */
typedef struct kv_scene_renderer kv_scene_renderer;
kiln_result kv_scene_renderer_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                                     const kv_shader *frag, kv_scene_renderer **out,
                                     kiln_error *err);
void kv_scene_renderer_destroy(kv_context *ctx, kv_scene_renderer *r);

/* Clears the target and draws a ready scene (KRT_TYPE_SCENE: every mesh instance, posed at the
 * clip's time, skinned and morphed), a ready mesh (KRT_TYPE_MESH, at the origin) or a ready
 * material (KRT_TYPE_MATERIAL, on a unit sphere at the origin); waits for the GPU. Meshes or
 * materials not ready are drawn with what libkiln_rt's fallbacks give, or skipped when they have
 * none. Errors: KILN_E_USAGE (another type, not ready), Vulkan failures. */
kiln_result kv_draw(kv_context *ctx, kv_scene_renderer *r, kv_target *t, krt_context *rt,
                    krt_handle h, const kv_camera *camera, const kv_draw_desc *desc,
                    kiln_error *err);

/* The world box a camera frames, by the reference's rule (docs/rendering-reference.md): every
 * vertex of every mesh instance of a ready scene at rest (node transforms as written, morph
 * targets at the nodes' weights, skins by their joints at rest), decoded on the CPU; or a ready
 * mesh's box; for a material, a box whose corner sphere (radius 1.1) holds the unit sphere. Empty
 * (min > max) when nothing is drawn. Errors: KILN_E_USAGE (another type), KILN_E_OUT_OF_MEMORY, a
 * damaged compressed stream. */
kiln_result kv_bounds(kv_context *ctx, krt_context *rt, krt_handle h, float bounds_min[3],
                      float bounds_max[3], kiln_error *err);

/* How many triangles and draws the last kv_draw issued, and the levels it chose. */
typedef struct kv_draw_stats {
    uint64_t triangles;
    uint32_t draws;
    uint32_t level_histogram[KILN_MESH_MAX_LEVELS];
} kv_draw_stats;
void kv_draw_stats_get(const kv_scene_renderer *r, kv_draw_stats *out);

/* ---- virtual geometry (kv_vgeo.c; docs/virtual_geometry.md) -------------------------------- */

/* The clusters of a cut through a virtual geometry, chosen by the caller (kiln_vgeo_select's
 * list), made ready to draw over the mesh whose vertices they index (krt_vgeo_data.mesh, ready,
 * with kv's object): every cluster's triangles as that mesh's vertex indices, with the cluster's
 * index and DAG level per triangle. kv_draw draws them in place of the mesh's level
 * (kv_draw_desc.clusters). They use the mesh's GPU object: destroy them before the mesh goes.
 * Errors: KILN_E_USAGE (the mesh not ready or without kv's object, a vertex count other than the
 * VGEO's, a cluster index past the VGEO's), KILN_E_LIMIT (2^24 clusters or more in the VGEO, or
 * 2^30 triangles in the cut), KILN_E_OUT_OF_MEMORY, Vulkan failures. */
kiln_result kv_clusters_create(kv_context *ctx, krt_context *rt, krt_handle mesh,
                               const kiln_vgeo_view *v, const uint32_t *clusters, size_t count,
                               kv_clusters **out, kiln_error *err);
void kv_clusters_destroy(kv_context *ctx, kv_clusters *c); /* NULL is a no-op */

/* ---- presentation (a window; kiln view) ---------------------------------------------------- */

/* The VkInstance, for the window system to make a surface with (glfwCreateWindowSurface). */
void *kv_instance(const kv_context *ctx);

/* A swapchain on a surface (a VkSurfaceKHR, which it then owns and destroys) of a context made
 * with instance_extensions. kv_present blits the target's last picture into the next image and
 * presents it; *resized is set when the window's size changed (the swapchain was made again:
 * make the target anew at kv_swapchain_size). Errors: KILN_E_USAGE (a headless context, a queue
 * that cannot present), Vulkan failures. */
typedef struct kv_swapchain kv_swapchain;
kiln_result kv_swapchain_create(kv_context *ctx, uint64_t surface, uint32_t width, uint32_t height,
                                kv_swapchain **out, kiln_error *err);
void kv_swapchain_destroy(kv_context *ctx, kv_swapchain *sc);
void kv_swapchain_size(const kv_swapchain *sc, uint32_t *width, uint32_t *height);
kiln_result kv_present(kv_context *ctx, kv_swapchain *sc, kv_target *t, uint32_t width,
                       uint32_t height, bool *resized, kiln_error *err);

/* ---- output -------------------------------------------------------------------------------- */

/* Writes RGBA8 pixels as a PNG (libspng). Errors: KILN_E_ASSET_IO, KILN_E_INTERNAL. */
kiln_result kv_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                         kiln_error *err);

/* ---- textures as pictures (kiln thumbnail, golden images; kv_texture_view.c) ---------------- */

/* How a texel becomes a colour in the picture (docs/rendering.md "kiln thumbnail"). */
typedef enum kv_view_mode {
    KV_VIEW_COLOR = 0,     /* sRGB formats: the colour as sampled (decoded to linear) */
    KV_VIEW_STORED = 1,    /* UNORM formats: the stored values are the picture's sRGB values */
    KV_VIEW_GREY = 2,      /* one channel (BC4): R as grey, opaque */
    KV_VIEW_NORMAL_XY = 3, /* two channels (BC5): x, y from R, G; z = sqrt(1 - x^2 - y^2);
                              shown as n * 0.5 + 0.5 (the usual blue-ish normal map), opaque */
    KV_VIEW_FLOAT = 4,     /* R16G16B16A16_SFLOAT: linear, clamped to 0..1 (no tone mapping) */
} kv_view_mode;

/* The checkerboard behind the picture: squares of this many pixels, sRGB grey 204 and 153. */
#define KV_VIEW_CHECKER 8

/* The mode for a texture cooked in vk_format (the cooked format, not the one a CPU fallback
 * uploaded: a BC5 transcoded to RGBA8 is still a normal map). */
kv_view_mode kv_view_mode_for(uint32_t vk_format);

/* The picture's size for a level of width x height fitted into size x size: the longer side
 * becomes size, the other keeps the aspect (rounded, at least 1). 0 x 0 for a 0 argument. */
void kv_fit_size(uint32_t width, uint32_t height, uint32_t size, uint32_t *out_width,
                 uint32_t *out_height);

/* A pipeline that draws one level of a texture over the whole target: each pixel averages
 * n x n texels of the level (n = ceil(texels per pixel), at most 8 a side; a smaller level is
 * magnified without filtering), composited over the checkerboard; alpha of the result 255.
 * vert, frag: the cooked tools/view/shaders/thumb_texture.{vert,frag}. Works with any kv_target.
 * Errors: KILN_E_USAGE (not a vertex and a fragment shader), Vulkan failures. */
typedef struct kv_texture_view kv_texture_view;
kiln_result kv_texture_view_create(kv_context *ctx, kv_target *t, const kv_shader *vert,
                                   const kv_shader *frag, kv_texture_view **out, kiln_error *err);
void kv_texture_view_destroy(kv_context *ctx, kv_texture_view *v); /* NULL is a no-op */
/* Clears the target and draws level `level` of tex in `mode`, and of a cube, array or volume its
 * face, layer or slice `layer` (0 for 2D); waits for the GPU. A volume needs a view made with
 * thumb_volume.frag, the other shapes thumb_texture.frag. Errors: KILN_E_USAGE (no such level or
 * layer: the message gives the range; a bad mode), Vulkan failures. */
kiln_result kv_texture_view_draw(kv_context *ctx, kv_texture_view *v, kv_target *t,
                                 const kv_texture *tex, uint32_t level, uint32_t layer,
                                 kv_view_mode mode, kiln_error *err);

#endif
