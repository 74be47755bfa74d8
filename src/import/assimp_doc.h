/* assimp_doc.h — a model file as assimp describes it (the parts of an aiScene kiln uses), in
 * memory and typed: what kiln_assimp_build turns into a kiln_scene. Two things fill one:
 * assimp_blob_read.c from the blob the assimp child sends (assimp_private.h), and kiln's own
 * FBX 6 reader (fbx_legacy.c) directly. Values are the file's own, before kiln's space
 * conversion and before any check the build makes (non-finite numbers, unit lengths, names that
 * match no node): the build does those, once, for both.
 *
 * Memory: arrays and strings marked [scene] are allocated from the scene's arena (the scene the
 * doc is built into): the build keeps them as they are, and fixes their values in place (a
 * non-finite position becomes 0, normals are normalised). Everything else lives wherever the
 * filler likes (its scratch arena, or the blob for embedded texture bytes) and only has to last
 * until kiln_assimp_build returns; the build may also change it in place (key times become
 * seconds, rotation keys are normalised). Strings are NUL-terminated, at most 65536 bytes.
 *
 * What the fillers guarantee (the blob reader checks it, refusing the blob otherwise; the FBX 6
 * reader makes it so): at least one node; a node's parent is -1 or an earlier node; mesh
 * references are below mesh_count; a mesh has at least one vertex, index_count a multiple of 3,
 * every index below vertex_count, at most ASSIMP_MAX_SETS UV and colour sets. */
#ifndef KILN_IMPORT_ASSIMP_DOC_H
#define KILN_IMPORT_ASSIMP_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include "import/assimp.h"

#define ASSIMP_MAX_SETS 8u /* UV and colour sets a mesh may carry (kiln keeps 4 and 2) */

#define ASSIMP_MAT_TWO_SIDED 1u /* assimp_doc_material.flags */
#define ASSIMP_MAT_UNLIT     2u

/* A texture of a material: aiTextureType, UV set, aiTextureMapMode | aiTextureMapping << 8, the
 * path as the file names it ("*<n>" for embedded texture n). */
typedef struct assimp_doc_texture {
    uint32_t type, uv, mode;
    const char *path;
} assimp_doc_texture;

typedef struct assimp_doc_material {
    const char *name; /* [scene] */
    float base[4], emissive[3];
    float opacity, shininess;
    float metallic, roughness; /* < 0: absent */
    uint32_t flags;            /* ASSIMP_MAT_* */
    assimp_doc_texture *textures;
    uint32_t texture_count;
} assimp_doc_material;

/* One influence of a bone: a vertex of its mesh and a weight (not yet checked). */
typedef struct assimp_doc_weight {
    uint32_t vertex;
    float weight;
} assimp_doc_weight;

typedef struct assimp_doc_bone {
    const char *name;
    float offset[16]; /* mesh space to bone space at bind time, column-major */
    assimp_doc_weight *weights;
    uint32_t weight_count;
} assimp_doc_bone;

/* A morph target: per-vertex deltas, NULL when the target has none of that kind. */
typedef struct assimp_doc_target {
    const char *name;           /* [scene] */
    float weight;               /* default weight */
    float *positions, *normals; /* [scene] 3 floats a vertex */
} assimp_doc_target;

/* One triangle list (an aiMesh). Vertex arrays hold vertex_count entries. */
typedef struct assimp_doc_mesh {
    const char *name;  /* [scene] */
    uint32_t material; /* an index into materials; past them: none */
    uint32_t vertex_count, index_count;
    float *positions;               /* [scene] xyz */
    float *normals;                 /* [scene] xyz, or NULL */
    float *tangents;                /* [scene] xyzw, or NULL */
    float *uvs[ASSIMP_MAX_SETS];    /* uv; [scene] for the first KILN_SCENE_MAX_UV_SETS */
    float *colors[ASSIMP_MAX_SETS]; /* rgba; [scene] for the first KILN_SCENE_MAX_COLOR_SETS */
    uint32_t uv_count, color_count;
    uint32_t *indices; /* [scene] */
    assimp_doc_bone *bones;
    uint32_t bone_count;
    assimp_doc_target *targets;
    uint32_t target_count;
} assimp_doc_mesh;

/* Parents come before their children. */
typedef struct assimp_doc_node {
    const char *name; /* [scene] */
    int32_t parent;   /* -1: a root */
    float matrix[16]; /* local, column-major */
    uint32_t *meshes; /* indices into meshes */
    uint32_t mesh_count;
} assimp_doc_node;

/* Keys of one property: times in ticks (ascending, not yet checked), count * 3 or 4 floats. */
typedef struct assimp_doc_keys {
    uint32_t count;
    double *times;
    float *values;
} assimp_doc_keys;

/* A node's translation (3), rotation (4: x, y, z, w) and scale (3) keys. */
typedef struct assimp_doc_channel {
    const char *node;
    assimp_doc_keys keys[3];
} assimp_doc_channel;

typedef struct assimp_doc_morph_value {
    uint32_t target;
    double weight;
} assimp_doc_morph_value;

typedef struct assimp_doc_morph_key {
    double time; /* ticks */
    assimp_doc_morph_value *values;
    uint32_t value_count;
} assimp_doc_morph_key;

/* Blend shape weights of one mesh instance; assimp names it "<node>*<mesh>". */
typedef struct assimp_doc_morph_channel {
    const char *name;
    assimp_doc_morph_key *keys;
    uint32_t key_count;
} assimp_doc_morph_channel;

typedef struct assimp_doc_animation {
    const char *name;        /* [scene] */
    double duration;         /* ticks */
    double ticks_per_second; /* not yet checked: <= 0 means assimp's 25 */
    assimp_doc_channel *channels;
    uint32_t channel_count;
    assimp_doc_morph_channel *morphs;
    uint32_t morph_count;
} assimp_doc_animation;

/* A file assimp asked for besides the model (an OBJ's .mtl), relative to the model's folder. */
typedef struct assimp_doc_file {
    const char *name;
    bool found;
} assimp_doc_file;

/* A texture inside the model file: encoded bytes (height 0, format_hint "png", "jpg" ...) or
 * raw texels (height > 0, which kiln does not import). */
typedef struct assimp_doc_embedded {
    const char *name, *format_hint;
    uint32_t width, height, size;
    const uint8_t *bytes;
} assimp_doc_embedded;

typedef struct assimp_doc {
    kiln_assimp_format format;
    double unit_scale_factor; /* FBX UnitScaleFactor (centimetres per unit); 0: none */
    int32_t axes[6];          /* up, up sign, front, front sign, coord, coord sign; -1: none */
    const char **warnings;    /* what the reader left out, in order */
    uint32_t warning_count;
    assimp_doc_file *files;
    uint32_t file_count;
    assimp_doc_embedded *embedded;
    uint32_t embedded_count;
    assimp_doc_material *materials;
    uint32_t material_count;
    assimp_doc_mesh *meshes;
    uint32_t mesh_count;
    assimp_doc_node *nodes;
    uint32_t node_count;
    assimp_doc_animation *animations;
    uint32_t animation_count;
} assimp_doc;

#endif
