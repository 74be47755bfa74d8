/* kiln_scene.h — the in-memory scene that kiln's model importers (glTF 2.0 today; FBX and OBJ
 * next) fill and the model cook reads.
 *
 * A scene is a plain read-only tree: every object lives in one array of the scene and refers to
 * others by index into the scene's arrays (-1 = none). Everything it points at (names, vertex
 * streams, pixels) is owned by the scene and freed by one kiln_scene_free. Vertex data is already
 * decoded: floats for every attribute (normalized integers turned into [0,1] / [-1,1], quantized
 * inputs dequantized, sparse accessors applied, compressed buffers decoded), joints as uint16,
 * indices as uint32 triangle lists. Conventions are glTF's: right-handed, +Y up, metres,
 * counter-clockwise front faces, column-major matrices, quaternions as x, y, z, w. */
#ifndef KILN_SCENE_H
#define KILN_SCENE_H

#include "kiln/kiln_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_SCENE_MAX_UV_SETS    4 /* TEXCOORD_0..3; more are dropped with a warning */
#define KILN_SCENE_MAX_COLOR_SETS 2 /* COLOR_0..1 */
#define KILN_SCENE_MAX_JOINT_SETS 2 /* JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1 */

/* ---- images, samplers, textures ---------------------------------------------------------- */

typedef enum kiln_scene_image_source {
    KILN_SCENE_IMAGE_FILE = 0,        /* a file next to the model (uri holds the decoded name) */
    KILN_SCENE_IMAGE_DATA_URI = 1,    /* a base64 data: URI */
    KILN_SCENE_IMAGE_BUFFER_VIEW = 2, /* bytes inside a buffer (GLB) */
} kiln_scene_image_source;

typedef enum kiln_scene_pixel {
    KILN_SCENE_PIXEL_NONE = 0, /* not decoded (KILN_SCENE_LOAD_NO_PIXELS, or a missing file) */
    KILN_SCENE_PIXEL_U8 = 1,   /* 8 bits per channel as stored (sRGB-encoded colour stays so) */
    KILN_SCENE_PIXEL_U16 = 2,  /* 16 bits per channel (16-bit PNG) */
    KILN_SCENE_PIXEL_F32 = 3,  /* 32-bit float, linear (HDR, EXR) */
} kiln_scene_pixel;

typedef struct kiln_scene_image {
    const char *name;      /* "" when the file gives none */
    const char *uri;       /* percent-decoded file URI; "" for data and buffer views */
    const char *path;      /* the resolved file read (absolute); "" if not a file */
    const char *mime_type; /* as declared, or "" */
    kiln_scene_image_source source;
    const uint8_t *encoded; /* the image file's bytes as stored (PNG, JPEG, ...) */
    size_t encoded_size;
    uint32_t width, height; /* 0 when not decoded */
    kiln_scene_pixel pixel;
    const void *pixels;       /* width * height * 4 channels (RGBA) of `pixel`, or NULL */
    uint32_t source_channels; /* channels in the file: 1..4 */
    bool has_alpha;           /* some texel is not fully opaque */
} kiln_scene_image;

typedef enum kiln_scene_filter {
    KILN_SCENE_FILTER_DEFAULT = 0, /* the file says nothing: the renderer chooses */
    KILN_SCENE_FILTER_NEAREST = 1,
    KILN_SCENE_FILTER_LINEAR = 2,
} kiln_scene_filter;

typedef enum kiln_scene_wrap {
    KILN_SCENE_WRAP_REPEAT = 0,
    KILN_SCENE_WRAP_CLAMP = 1,  /* CLAMP_TO_EDGE */
    KILN_SCENE_WRAP_MIRROR = 2, /* MIRRORED_REPEAT */
} kiln_scene_wrap;

typedef struct kiln_scene_sampler {
    const char *name;
    kiln_scene_filter mag_filter;
    kiln_scene_filter min_filter; /* filter within a level */
    kiln_scene_filter mip_filter; /* between levels; DEFAULT also when min has no mip part */
    bool mipmaps;                 /* minFilter is unset or one of the *_MIPMAP_* modes */
    kiln_scene_wrap wrap_s, wrap_t;
} kiln_scene_sampler;

typedef struct kiln_scene_texture {
    const char *name;
    int32_t image;   /* -1: no image kiln can use (e.g. only an unknown extension) */
    int32_t sampler; /* -1: the default sampler (repeat, renderer's filters) */
} kiln_scene_texture;

/* ---- materials ------------------------------------------------------------------------------ */

typedef enum kiln_scene_slot {
    KILN_SCENE_SLOT_BASE_COLOR = 0,
    KILN_SCENE_SLOT_METALLIC_ROUGHNESS = 1, /* B = metallic, G = roughness */
    KILN_SCENE_SLOT_NORMAL = 2,
    KILN_SCENE_SLOT_OCCLUSION = 3, /* R */
    KILN_SCENE_SLOT_EMISSIVE = 4,
    KILN_SCENE_SLOT_CORE_COUNT = 5, /* the slots above: kiln_material.textures */
    /* The extensions' slots: KILN_SCENE_SLOT_CORE_COUNT + kiln_material_ext_slot, in its order
     * (kiln_material.ext_textures) */
    KILN_SCENE_SLOT_CLEARCOAT = 5,
    KILN_SCENE_SLOT_CLEARCOAT_ROUGHNESS = 6,
    KILN_SCENE_SLOT_CLEARCOAT_NORMAL = 7, /* scale: clearcoatNormalTexture.scale */
    KILN_SCENE_SLOT_SHEEN_COLOR = 8,
    KILN_SCENE_SLOT_SHEEN_ROUGHNESS = 9,
    KILN_SCENE_SLOT_TRANSMISSION = 10,
    KILN_SCENE_SLOT_THICKNESS = 11,
    KILN_SCENE_SLOT_SPECULAR = 12,
    KILN_SCENE_SLOT_SPECULAR_COLOR = 13,
    KILN_SCENE_SLOT_IRIDESCENCE = 14,
    KILN_SCENE_SLOT_IRIDESCENCE_THICKNESS = 15,
    KILN_SCENE_SLOT_ANISOTROPY = 16,
    KILN_SCENE_SLOT_COUNT = 17,
} kiln_scene_slot;

typedef struct kiln_scene_texture_ref {
    int32_t texture;    /* -1: the slot is empty */
    uint32_t texcoord;  /* UV set; KHR_texture_transform's texCoord already applied */
    float scale;        /* normal: normalTexture.scale; occlusion: strength; else 1 */
    bool has_transform; /* KHR_texture_transform present */
    float offset[2];    /* uv' = T(offset) * R(rotation) * S(scale) * uv */
    float rotation;     /* radians, counter-clockwise in UV space */
    float uv_scale[2];
} kiln_scene_texture_ref;

typedef enum kiln_scene_alpha_mode {
    KILN_SCENE_ALPHA_OPAQUE = 0,
    KILN_SCENE_ALPHA_MASK = 1,
    KILN_SCENE_ALPHA_BLEND = 2,
} kiln_scene_alpha_mode;

typedef struct kiln_scene_material {
    const char *name;
    float base_color[4]; /* linear RGBA factor */
    float metallic, roughness;
    float emissive[3];       /* linear RGB factor */
    float emissive_strength; /* KHR_materials_emissive_strength; 1 without it */
    kiln_scene_alpha_mode alpha_mode;
    float alpha_cutoff; /* MASK only; 0.5 by default */
    bool double_sided;
    bool unlit; /* KHR_materials_unlit */
    kiln_scene_texture_ref textures[KILN_SCENE_SLOT_COUNT];
    /* The KHR_materials_* extensions: which the material has (KILN_MATERIAL_EXT_*, emissive
     * strength and unlit included) and their factors; an absent one's factors are glTF's
     * defaults. Their textures are textures[KILN_SCENE_SLOT_CLEARCOAT ...]. */
    kiln_material_ext ext;
    const char *extras; /* the material's "extras" as compact JSON text, or NULL */
} kiln_scene_material;

/* KHR_materials_variants on a primitive: the material to use when one of variants is active. */
typedef struct kiln_scene_variant_mapping {
    int32_t material;         /* index into kiln_scene.materials */
    const uint32_t *variants; /* indices into kiln_scene.variants */
    uint32_t variant_count;
    const char *name; /* the mapping's name, or NULL */
} kiln_scene_variant_mapping;

/* ---- meshes --------------------------------------------------------------------------------- */

/* A morph target: per-vertex deltas, each NULL when the target does not move that attribute. */
typedef struct kiln_scene_morph_target {
    const float *positions; /* 3 per vertex */
    const float *normals;   /* 3 per vertex */
    const float *tangents;  /* 3 per vertex (no handedness) */
} kiln_scene_morph_target;

typedef enum kiln_scene_mode {
    KILN_SCENE_MODE_TRIANGLES = 4, /* the glTF mode values */
    KILN_SCENE_MODE_TRIANGLE_STRIP = 5,
    KILN_SCENE_MODE_TRIANGLE_FAN = 6,
} kiln_scene_mode;

enum {
    KILN_SCENE_PRIM_NORMALS_GENERATED = 1u << 0,    /* angle-weighted, not from the file */
    KILN_SCENE_PRIM_TANGENTS_GENERATED = 1u << 1,   /* MikkTSpace, not from the file */
    KILN_SCENE_PRIM_UV0_FILLED = 1u << 2,           /* TEXCOORD_0 zero-filled for a texture */
    KILN_SCENE_PRIM_INDICES_GENERATED = 1u << 3,    /* the file had none: 0, 1, 2, ... */
    KILN_SCENE_PRIM_WEIGHTS_RENORMALIZED = 1u << 4, /* some vertex's weights did not sum to 1 */
    KILN_SCENE_PRIM_POSITIONS_SANITIZED = 1u << 5,  /* NaN/Inf coordinates were set to 0 */
    KILN_SCENE_PRIM_DRACO = 1u << 6,                /* decoded from KHR_draco_mesh_compression */
};

/* One draw: a triangle list (strips and fans are converted; points and lines are dropped with a
 * warning and appear only in kiln_scene_stats). Every index is < vertex_count. */
typedef struct kiln_scene_primitive {
    uint32_t vertex_count;
    const float *positions;                         /* 3 per vertex; never NULL */
    const float *normals;                           /* 3 per vertex (unit length) or NULL */
    const float *tangents;                          /* 4 per vertex, w = ±1 handedness, or NULL */
    const float *texcoords[KILN_SCENE_MAX_UV_SETS]; /* 2 per vertex; [0..texcoord_count) set */
    uint32_t texcoord_count;
    const float *colors[KILN_SCENE_MAX_COLOR_SETS]; /* 4 per vertex, linear RGBA (A = 1 for RGB) */
    uint32_t color_count;
    const uint16_t *joints[KILN_SCENE_MAX_JOINT_SETS]; /* 4 per vertex: indices into skin joints */
    const float *weights[KILN_SCENE_MAX_JOINT_SETS];   /* 4 per vertex; all sets sum to 1 */
    uint32_t joint_set_count;
    const uint32_t *indices; /* index_count, a multiple of 3 */
    uint32_t index_count;
    int32_t material;     /* -1: the default material */
    kiln_scene_mode mode; /* the mode the file declared */
    const kiln_scene_morph_target *targets;
    uint32_t target_count;
    float bounds_min[3], bounds_max[3];         /* of positions (without morphs) */
    uint32_t flags;                             /* KILN_SCENE_PRIM_* */
    const kiln_scene_variant_mapping *mappings; /* KHR_materials_variants, in file order */
    uint32_t mapping_count;
} kiln_scene_primitive;

typedef struct kiln_scene_mesh {
    const char *name;
    const kiln_scene_primitive *primitives;
    uint32_t primitive_count;
    const float *weights; /* default morph weights: target_count values, or NULL */
    uint32_t weight_count;
    const char *const *target_names; /* extras.targetNames when present, else NULL */
    const char *extras;              /* the mesh's "extras" as compact JSON text, or NULL */
} kiln_scene_mesh;

/* ---- nodes, skins, cameras, lights ----------------------------------------------------------- */

typedef struct kiln_scene_node {
    const char *name;
    int32_t parent; /* -1 for a root */
    const uint32_t *children;
    uint32_t child_count;
    bool has_matrix; /* the file gave a matrix (TRS below decomposed from it) */
    float translation[3];
    float rotation[4]; /* unit quaternion x, y, z, w */
    float scale[3];
    float matrix[16]; /* local, column-major: the file's matrix, or T * R * S */
    float world[16];  /* parent's world * matrix */
    int32_t mesh, skin, camera, light;
    const float *weights; /* instance morph weights (node.weights), or NULL */
    uint32_t weight_count;
    const char *extras; /* the node's "extras" as compact JSON text, or NULL */
    /* EXT_mesh_gpu_instancing: the mesh is drawn instance_count times, instance i at
     * node world * T(translation i) * R(rotation i) * S(scale i); each array NULL when the file
     * gives no such attribute (0, identity, 1). instance_count 0: no instancing. */
    uint32_t instance_count;
    const float *instance_translations; /* 3 per instance */
    const float *instance_rotations;    /* 4 per instance: quaternion x, y, z, w as stored */
    const float *instance_scales;       /* 3 per instance */
} kiln_scene_node;

typedef struct kiln_scene_skin {
    const char *name;
    const uint32_t *joints; /* node indices */
    uint32_t joint_count;
    const float *inverse_bind; /* 16 per joint, column-major; identity when the file has none */
    int32_t skeleton;          /* the common root node the file names, or -1 */
} kiln_scene_skin;

typedef enum kiln_scene_camera_type {
    KILN_SCENE_CAMERA_PERSPECTIVE = 0,
    KILN_SCENE_CAMERA_ORTHOGRAPHIC = 1,
} kiln_scene_camera_type;

typedef struct kiln_scene_camera {
    const char *name;
    kiln_scene_camera_type type;
    float yfov;       /* perspective: radians */
    float aspect;     /* perspective: 0 = the viewport's */
    float xmag, ymag; /* orthographic half extents */
    float znear;
    float zfar; /* 0 = infinite (perspective only) */
} kiln_scene_camera;

typedef enum kiln_scene_light_type {
    KILN_SCENE_LIGHT_DIRECTIONAL = 0, /* KHR_lights_punctual; shines along the node's -Z */
    KILN_SCENE_LIGHT_POINT = 1,
    KILN_SCENE_LIGHT_SPOT = 2,
} kiln_scene_light_type;

typedef struct kiln_scene_light {
    const char *name;
    kiln_scene_light_type type;
    float color[3];               /* linear */
    float intensity;              /* candela (point, spot) or lux (directional) */
    float range;                  /* 0 = infinite */
    float inner_cone, outer_cone; /* spot: radians */
} kiln_scene_light;

/* ---- animation ------------------------------------------------------------------------------- */

typedef enum kiln_scene_path {
    KILN_SCENE_PATH_TRANSLATION = 0,
    KILN_SCENE_PATH_ROTATION = 1,
    KILN_SCENE_PATH_SCALE = 2,
    KILN_SCENE_PATH_WEIGHTS = 3,
} kiln_scene_path;

typedef enum kiln_scene_interp {
    KILN_SCENE_INTERP_LINEAR = 0, /* rotation: spherical linear */
    KILN_SCENE_INTERP_STEP = 1,
    KILN_SCENE_INTERP_CUBICSPLINE = 2,
} kiln_scene_interp;

/* One animated property. times: key_count values, non-decreasing (checked); values:
 * key_count * components floats, or for CUBICSPLINE 3 * key_count * components laid out as
 * glTF does (in-tangent, value, out-tangent per key). components: 3 for translation and scale, 4
 * for rotation, the morph target count for weights. */
typedef struct kiln_scene_channel {
    uint32_t node;
    kiln_scene_path path;
    kiln_scene_interp interpolation;
    uint32_t key_count;
    uint32_t components;
    const float *times; /* seconds */
    const float *values;
} kiln_scene_channel;

typedef struct kiln_scene_animation {
    const char *name;
    const kiln_scene_channel *channels;
    uint32_t channel_count;
    float start, end; /* first and last key time over all channels */
} kiln_scene_animation;

typedef struct kiln_scene_root_set {
    const char *name;
    const uint32_t *nodes; /* root nodes of this scene */
    uint32_t node_count;
} kiln_scene_root_set;

/* What the file declares, counted as the glTF says (before any conversion): meshes' primitives
 * of every mode, POSITION counts summed over primitives, triangles over meshes (not instances),
 * strips and fans as n - 2, points and lines as none. */
typedef struct kiln_scene_stats {
    uint64_t primitives;
    uint64_t vertices;
    uint64_t triangles;
    uint64_t dropped_primitives; /* points and lines */
    uint64_t joints;             /* summed over skins */
} kiln_scene_stats;

typedef struct kiln_scene {
    const kiln_scene_image *images;
    uint32_t image_count;
    const kiln_scene_sampler *samplers;
    uint32_t sampler_count;
    const kiln_scene_texture *textures;
    uint32_t texture_count;
    const kiln_scene_material *materials;
    uint32_t material_count;
    const kiln_scene_mesh *meshes;
    uint32_t mesh_count;
    const kiln_scene_node *nodes;
    uint32_t node_count;
    const kiln_scene_skin *skins;
    uint32_t skin_count;
    const kiln_scene_animation *animations;
    uint32_t animation_count;
    const kiln_scene_camera *cameras;
    uint32_t camera_count;
    const kiln_scene_light *lights;
    uint32_t light_count;
    const kiln_scene_root_set *scenes;
    uint32_t scene_count;
    int32_t default_scene; /* "scene", or -1 */
    /* The nodes drawn: the default scene's roots ("scene"), else every node without a parent. */
    const uint32_t *roots;
    uint32_t root_count;
    bool has_bounds;                    /* some mesh is reachable from the roots */
    float bounds_min[3], bounds_max[3]; /* world space, over mesh instances under the roots */
    kiln_scene_stats stats;
    const char *const *extensions_used;
    uint32_t extensions_used_count;
    const char *const *extensions_required;
    uint32_t extensions_required_count;
    /* Every external file the model refers to (buffers read, image files whether read or not,
     * missing ones too), absolute, in first-use order: the dependencies of a cooked result. */
    const char *const *files;
    uint32_t file_count;
    /* Things kiln changed or left out, one sentence each ("mesh 2 primitive 0: POINTS dropped"). */
    const char *const *warnings;
    uint32_t warning_count;
    const char *generator; /* asset.generator, or "" */
    /* KHR_materials_variants: the variants' names (primitives map them to materials) */
    const char *const *variants;
    uint32_t variant_count;
    struct kiln_scene_storage *storage; /* kiln's own: the memory all of this lives in */
} kiln_scene;

enum {
    KILN_SCENE_LOAD_NO_PIXELS = 1u << 0,   /* keep images encoded; do not decode pixels */
    KILN_SCENE_LOAD_NO_NORMALS = 1u << 1,  /* do not compute missing normals */
    KILN_SCENE_LOAD_NO_TANGENTS = 1u << 2, /* do not generate tangents for normal maps */
    /* Do not read images at all (implies NO_PIXELS): they keep name, URI, source and resolved
     * path, but no bytes. For tools that only describe a model (kiln inspect). */
    KILN_SCENE_LOAD_NO_IMAGES = 1u << 3,
    /* NO_NORMALS and NO_TANGENTS do not hold for a primitive whose material needs a tangent
     * space that glTF cannot make from a normalTexture: one with a clearcoatNormalTexture or an
     * anisotropyTexture and no normalTexture (Khronos' validator: MESH_PRIMITIVE_NO_TANGENT_SPACE).
     * kiln gltf loads with it, so that what it writes stays valid. */
    KILN_SCENE_LOAD_TANGENT_SPACE = 1u << 4,
};

typedef struct kiln_scene_opts {
    uint32_t struct_size; /* sizeof(kiln_scene_opts); 0 is taken as the current size */
    uint32_t flags;       /* KILN_SCENE_LOAD_* */
    size_t memory_limit;  /* bytes the scene may hold; 0 = 4 GiB (KILN_E_LIMIT above) */
    kiln_allocator allocator;
} kiln_scene_opts;

/* Loads a model file into a scene. The extension chooses the importer (.gltf and .glb: glTF 2.0
 * in either form; .fbx, .obj: through assimp, docs/fbx.md), which refuses bytes of another format
 * naming itself; a file of any other name is told by its content. External buffers and images are
 * read from the model's folder tree only. opts may be NULL (defaults).
 * Errors: KILN_E_ASSET_IO (a file cannot be read), KILN_E_IMPORT_FAILED (damaged: the message
 * says what and json_pointer where, e.g. "/accessors/3/count"), KILN_E_IMPORT_UNSUPPORTED (not
 * the format its extension names, or no model at all; a required extension kiln lacks, named),
 * KILN_E_OUTPUT_REFUSED (a URI that leads outside the model's folder, named), KILN_E_LIMIT,
 * KILN_E_OUT_OF_MEMORY. On error *out is NULL. Thread-safe for distinct calls. */
KILN_API kiln_result kiln_scene_load(const char *path, const kiln_scene_opts *opts,
                                     kiln_scene **out, kiln_error *err);

/* The same from bytes in memory, the importer chosen by content (glTF, else FBX or OBJ as
 * docs/fbx.md says). base_dir is the folder external URIs are resolved in; NULL
 * refuses every external URI (only data URIs and GLB buffers work). */
KILN_API kiln_result kiln_scene_load_memory(const void *data, size_t size, const char *base_dir,
                                            const kiln_scene_opts *opts, kiln_scene **out,
                                            kiln_error *err);

KILN_API void kiln_scene_free(kiln_scene *scene); /* NULL is a no-op */

#ifdef __cplusplus
}
#endif
#endif
