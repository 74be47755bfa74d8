/* gltf_out_private.h — the state the files of the glTF writer share while kiln_gltf_out_write
 * runs: buffer views and accessors gathered first, sections written into JSON fragments, the
 * document put together last (gltf_out.c). */
#ifndef KILN_WRITE_GLTF_OUT_PRIVATE_H
#define KILN_WRITE_GLTF_OUT_PRIVATE_H

#include "core/alloc.h"
#include "core/buf.h"
#include "core/error.h"
#include "write/gltf_out.h"
#include "write/gltf_out_json.h"

/* glTF's numbers (glTF 2.0 section 5). */
enum {
    GLTF_BYTE = 5120,
    GLTF_UNSIGNED_BYTE = 5121,
    GLTF_SHORT = 5122,
    GLTF_UNSIGNED_SHORT = 5123,
    GLTF_UNSIGNED_INT = 5125,
    GLTF_FLOAT = 5126,
    GLTF_ARRAY_BUFFER = 34962,
    GLTF_ELEMENT_ARRAY_BUFFER = 34963,
};

/* What a buffer view holds, which decides how EXT_meshopt_compression encodes it. */
typedef enum kiln_gltf_view_kind {
    KILN_GLTF_VIEW_ATTRIBUTES = 0, /* elements of `element` bytes (a multiple of 4) */
    KILN_GLTF_VIEW_TRIANGLES = 1,  /* a triangle list of 2- or 4-byte indices */
    KILN_GLTF_VIEW_IMAGE = 2,      /* an image file's bytes: stored as they are */
} kiln_gltf_view_kind;

typedef struct kiln_gltf_view {
    size_t offset, length; /* the raw bytes in state.raw */
    uint32_t stride;       /* byteStride to write (vertex attributes), 0 = none */
    uint32_t target;       /* GLTF_ARRAY_BUFFER, GLTF_ELEMENT_ARRAY_BUFFER or 0 */
    uint32_t element;      /* bytes per element (meshopt's stride), a multiple of 4 or 2 */
    kiln_gltf_view_kind kind;
    /* Set when the buffer is laid out (gltf_out_buffer.c). */
    size_t out_offset, out_length; /* in buffer 0 */
    bool packed;                   /* meshopt-encoded; the view then lies in the fallback */
    size_t fallback_offset;
} kiln_gltf_view;

typedef struct kiln_gltf_accessor {
    uint32_t view, count, component, components;
    bool normalized;
    bool has_minmax;
    float min[16], max[16];
} kiln_gltf_accessor;

/* How a mesh's positions are stored: floats, or integers q with p = offset + q * scale (the
 * node that draws it carries that transform). */
typedef struct kiln_gltf_mesh_q {
    bool quantized;
    bool skinned; /* the transform goes into the skin's inverse bind matrices, not a node */
    float offset[3];
    float scale;
} kiln_gltf_mesh_q;

/* How a material's UV set is stored when it leaves [0, 1]: normalized shorts n with
 * uv = offset + scale * n, the transform added to every KHR_texture_transform of the material
 * that reads the set (gltf_out_material.c). */
typedef struct kiln_gltf_uv_q {
    bool quantized;
    float offset[2], scale[2];
} kiln_gltf_uv_q;

typedef struct kiln_gltf_state {
    const kiln_scene *scene;
    const kiln_gltf_out_opts *opts;
    const kiln_allocator *alloc;
    kiln_gltf_out *out;
    kiln_buf raw;       /* every view's bytes, each at a multiple of 4 */
    kiln_buf views;     /* kiln_gltf_view[view_count] */
    kiln_buf accessors; /* kiln_gltf_accessor[accessor_count] */
    uint32_t view_count, accessor_count;
    kiln_buf meshes_json, skins_json, animations_json; /* element fragments */
    int32_t *mesh_map;        /* scene mesh -> output mesh, -1 = dropped (no triangles) */
    kiln_gltf_mesh_q *mesh_q; /* per scene mesh */
    kiln_gltf_mesh_q *skin_q; /* per scene skin: quantized when its meshes are */
    kiln_gltf_uv_q *uv_q;     /* per material, KILN_SCENE_MAX_UV_SETS each */
    int32_t *image_view;      /* per scene image: GLB view, or -1 */
    int32_t *image_map;       /* scene image -> output image, -1 = dropped */
    const char **image_ext;   /* per scene image: "png", "jpg", "ktx2" or NULL */
    int32_t *texture_map;     /* scene texture -> output texture, -1 = dropped */
    uint32_t image_count, texture_count;
    bool used_quantization, used_meshopt, used_texture_transform, used_lights, used_basisu,
        used_instancing;
    uint32_t used_material_ext;       /* KILN_MATERIAL_EXT_* of every material written */
    int32_t (*instance_accessors)[3]; /* per scene node: TRANSLATION, ROTATION, SCALE or -1 */
    bool failed_memory;               /* an allocation failed somewhere: KILN_E_OUT_OF_MEMORY */
} kiln_gltf_state;

/* gltf_out_buffer.c: appends a view of size bytes (copied), returns its index; -1 and
 * failed_memory set on failure. */
int32_t kiln_gltf_add_view(kiln_gltf_state *st, const void *data, size_t size,
                           kiln_gltf_view_kind kind, uint32_t element, uint32_t stride,
                           uint32_t target);
/* An accessor over a whole view; min/max given or NULL. Returns its index or -1. */
int32_t kiln_gltf_add_accessor(kiln_gltf_state *st, int32_t view, uint32_t component,
                               bool normalized, uint32_t count, uint32_t components,
                               const float *min, const float *max);
/* count elements of components floats as one view + accessor (non-finite values written as
 * 0); with_minmax computes min and max; target as for a view, element stride 4 * components. */
int32_t kiln_gltf_add_floats(kiln_gltf_state *st, const float *data, uint32_t count,
                             uint32_t components, bool with_minmax, uint32_t target);
/* Lays out buffer 0 (images raw, other views meshopt-encoded when opts->compress) into out. */
kiln_result kiln_gltf_layout_buffer(kiln_gltf_state *st, kiln_buf *out, size_t *fallback_size,
                                    kiln_error *err);
/* Writes "accessors", "bufferViews" and "buffers" (uri NULL: the GLB chunk). */
void kiln_gltf_write_buffers(kiln_gltf_state *st, kiln_json_out *j, const char *uri,
                             size_t buffer_size, size_t fallback_size);

/* gltf_out_mesh.c: every mesh into st->meshes_json, with st->mesh_map and st->mesh_q. */
kiln_result kiln_gltf_write_meshes(kiln_gltf_state *st, kiln_error *err);

/* gltf_out_material.c: decides which images and textures are kept (st->image_map, texture_map,
 * and the GLB views of images), then writes "materials", "textures", "images", "samplers". */
kiln_result kiln_gltf_plan_images(kiln_gltf_state *st, kiln_error *err);
void kiln_gltf_write_materials(kiln_gltf_state *st, kiln_json_out *j);
/* The side file name of kept scene image `image` (.gltf output): STEM.imageN.EXT. */
void kiln_gltf_image_file_name(const kiln_gltf_state *st, uint32_t image, char *out, size_t cap);
/* Percent-encodes a file name for a URI (RFC 3986 unreserved characters kept). */
void kiln_gltf_uri_encode(const char *in, char *out, size_t cap);

/* gltf_out_anim.c: "skins" and "animations" into their fragments. */
kiln_result kiln_gltf_write_skins(kiln_gltf_state *st, kiln_error *err);
kiln_result kiln_gltf_write_animations(kiln_gltf_state *st, kiln_error *err);

/* gltf_out_node.c: "nodes" (with the holders of quantized meshes), "cameras", the lights of
 * KHR_lights_punctual are written by gltf_out.c. */
void kiln_gltf_write_nodes(kiln_gltf_state *st, kiln_json_out *j);
/* gltf_out_node.c: the EXT_mesh_gpu_instancing accessors of every instanced node whose mesh is
 * written (st->instance_accessors), before the buffer is laid out. */
kiln_result kiln_gltf_write_instances(kiln_gltf_state *st, kiln_error *err);

#endif
