/* kiln_format.h — what the cook side (libkiln) and the run-time side (libkiln_rt) share:
 * versions, result codes, the caller-owned error record, allocator hooks, and the readers of
 * kiln's cooked formats (KTX2 and the kiln container).
 *
 * Every function that can fail returns a kiln_result and takes a kiln_error * (may be NULL) as
 * its last parameter. Nothing here keeps global mutable state; every function is thread-safe
 * for distinct arguments. */
#ifndef KILN_FORMAT_H
#define KILN_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_VERSION_MAJOR 0
#define KILN_VERSION_MINOR 1
#define KILN_VERSION_PATCH 0
#define KILN_VERSION_NUMBER                                                                        \
    (KILN_VERSION_MAJOR * 10000 + KILN_VERSION_MINOR * 100 + KILN_VERSION_PATCH)

/* Part of every cache key and of the KTXwriter value: bumped by every change that alters the
 * bytes of any cooked output, so an old cache entry is never mistaken for a new one.
 * 3: a skinned mesh drawn with skins of different joint orders is cooked once per order.
 * 4: format auto cooks HDR sources to BC6H (ASTC 4x4 HDR on mobile), not RGBA16F.
 * 5: meshlets come from kiln's own builder (meshlet_build.h), not meshopt_buildMeshlets; LOD
 *    errors are measured bounds (kiln_mesh_deviation), and levels over lod_error are
 *    simplified again or dropped.
 * 6: the measured bounds cut a triangle by the other surface's triangles beneath it (tighter,
 *    so stored LOD and DAG errors are smaller); cooked materials (version 2) carry every
 *    KHR_materials_* extension. */
#define KILN_PIPELINE_VERSION 6

#if defined(KILN_BUILDING) && defined(__GNUC__)
#define KILN_API __attribute__((visibility("default")))
#else
#define KILN_API
#endif

/* Result codes. Values are pinned: append, never renumber. */
typedef enum kiln_result {
    KILN_OK = 0,
    KILN_E_IMPORT_UNSUPPORTED = 1, /* not a kind of source kiln imports, or a feature it lacks */
    KILN_E_IMPORT_SETTINGS = 2,    /* .meta or command-line settings invalid */
    KILN_E_IMPORT_FAILED = 3,      /* the source is damaged or cannot be processed */
    KILN_E_ASSET_IO = 4,           /* a file could not be read or written */
    KILN_E_OUTPUT_REFUSED = 5,     /* a path outside the allowed folders */
    KILN_E_FORMAT_VERSION = 6,     /* cooked data of another format version: re-cook */
    KILN_E_OUT_OF_MEMORY = 7,
    KILN_E_LIMIT = 8,           /* a size, count or memory limit was exceeded */
    KILN_E_CACHE_CORRUPT = 9,   /* a cache entry or manifest does not match its bytes */
    KILN_E_FORMAT_INVALID = 10, /* cooked bytes (KTX2, container) are malformed */
    KILN_E_USAGE = 11,          /* bad arguments to a function or the command */
    KILN_E_INTERNAL = 12,       /* a check of kiln's own invariants failed: a bug */
    KILN_E_NOT_IMPORTED = 13,   /* an asset has no current cache entry: `kiln import` it */
} kiln_result;

/* Caller-owned, fixed size: filling it never allocates. */
typedef struct kiln_error {
    kiln_result code;
    char message[256];      /* what went wrong, e.g. "level 2: byteOffset is past the end" */
    char path[512];         /* the file concerned, "" if none */
    uint64_t offset;        /* byte offset in that file, UINT64_MAX if unknown */
    char json_pointer[128]; /* "/import/texture/format" for JSON sources, "" if none */
} kiln_error;

/* The stable name of a code: "OK", "E_IMPORT_FAILED", ... ("E_UNKNOWN" for other values). */
KILN_API const char *kiln_result_name(kiln_result r);

/* The library's version as KILN_VERSION_NUMBER, to detect header/library mismatch. */
KILN_API uint32_t kiln_version(void);

/* Allocator hooks: all NULL means libc. align is a power of two, at most 64. free gets the size
 * that was allocated (arenas need no headers). */
typedef struct kiln_allocator {
    void *(*alloc)(void *user, size_t size, size_t align);
    void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} kiln_allocator;

/* ---- KTX 2.0 ----------------------------------------------------------------------------- */

/* The Vulkan formats kiln writes (VkFormat values). */
typedef enum kiln_vk_format {
    KILN_VK_FORMAT_UNDEFINED = 0,
    KILN_VK_FORMAT_R8G8B8A8_UNORM = 37,
    KILN_VK_FORMAT_R8G8B8A8_SRGB = 43,
    KILN_VK_FORMAT_R16G16_SFLOAT = 83, /* two halves: the BRDF lookup table (docs/ibl.md) */
    KILN_VK_FORMAT_R16G16B16A16_SFLOAT = 97,
    KILN_VK_FORMAT_B10G11R11_UFLOAT_PACK32 = 122,
    KILN_VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 = 123,
    KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK = 131,
    KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK = 132,
    KILN_VK_FORMAT_BC3_UNORM_BLOCK = 137, /* transcode targets of Basis textures (kiln_basis_*) */
    KILN_VK_FORMAT_BC3_SRGB_BLOCK = 138,
    KILN_VK_FORMAT_BC4_UNORM_BLOCK = 139,
    KILN_VK_FORMAT_BC5_UNORM_BLOCK = 141,
    KILN_VK_FORMAT_BC6H_UFLOAT_BLOCK = 143,
    KILN_VK_FORMAT_BC6H_SFLOAT_BLOCK = 144,
    KILN_VK_FORMAT_BC7_UNORM_BLOCK = 145,
    KILN_VK_FORMAT_BC7_SRGB_BLOCK = 146,
    KILN_VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK = 147, /* ETC1 blocks are valid ETC2 RGB8 */
    KILN_VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK = 148,
    KILN_VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK = 151,
    KILN_VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK = 152,
    KILN_VK_FORMAT_EAC_R11_UNORM_BLOCK = 153,
    KILN_VK_FORMAT_EAC_R11G11_UNORM_BLOCK = 155,
    KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK = 157,
    KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK = 158,
    KILN_VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK = 1000066000, /* VK_EXT_texture_compression_astc_hdr */
} kiln_vk_format;

#define KILN_KTX2_MAX_LEVELS 16

typedef enum kiln_ktx2_supercompression {
    KILN_KTX2_SUPERCOMPRESSION_NONE = 0,
    KILN_KTX2_SUPERCOMPRESSION_BASISLZ = 1, /* ETC1S only: global codebooks + per-image slices */
    KILN_KTX2_SUPERCOMPRESSION_ZSTD = 2,
} kiln_ktx2_supercompression;

/* A Basis Universal texture (vkFormat 0, KTX 2.0 "Basis Universal" sections): which of its two
 * formats, from the DFD's colour model. Such a file is not sampled as stored: kiln_basis_*
 * transcodes it to a GPU format (docs/basis.md). */
typedef enum kiln_ktx2_basis {
    KILN_KTX2_BASIS_NONE = 0, /* an ordinary vkFormat */
    KILN_KTX2_BASIS_ETC1S,    /* ETC1S blocks in BasisLZ (supercompressionScheme 1) */
    KILN_KTX2_BASIS_UASTC,    /* UASTC 4x4, 16 bytes a block, raw or Zstandard */
} kiln_ktx2_basis;

/* What a Basis texture's channels hold, from its DFD samples (KHR_DF_CHANNEL_ETC1S_* and
 * _UASTC_*): colour, colour and alpha, one value (R in R, G and B), one value and alpha (a
 * two-channel normal map's X and Y), or red and green (UASTC only). */
typedef enum kiln_basis_channels {
    KILN_BASIS_CHANNELS_RGB = 0,
    KILN_BASIS_CHANNELS_RGBA,
    KILN_BASIS_CHANNELS_RRR,
    KILN_BASIS_CHANNELS_RRRG,
    KILN_BASIS_CHANNELS_RG,
} kiln_basis_channels;

/* The shape of a texture: what image view a renderer makes of it. A KTX2 file says it with
 * faceCount (6: cube), pixelDepth (> 0: 3D) and layerCount (> 0: array). */
typedef enum kiln_texture_shape {
    KILN_TEXTURE_SHAPE_2D = 0,     /* one image per level */
    KILN_TEXTURE_SHAPE_CUBE,       /* six square faces per level: +X, -X, +Y, -Y, +Z, -Z */
    KILN_TEXTURE_SHAPE_ARRAY,      /* layer_count 2D images per level */
    KILN_TEXTURE_SHAPE_VOLUME,     /* a 3D texture: depth slices per level, ascending Z */
    KILN_TEXTURE_SHAPE_CUBE_ARRAY, /* layer_count cubes per level */
    KILN_TEXTURE_SHAPE_COUNT
} kiln_texture_shape;

/* What kiln calls VkFormat vk_format: its settings name ("bc7", "rgba16f", "bc6h_sf") for the
 * formats a texture setting names, else the Vulkan name without VK_FORMAT_ ("RG16F", the BRDF
 * table's); NULL for formats kiln does not know. *srgb (may be NULL): vk_format is the sRGB
 * variant; *has_srgb (may be NULL): the format has an sRGB variant (so the other one is linear). */
KILN_API const char *kiln_vk_format_label(uint32_t vk_format, bool *srgb, bool *has_srgb);

/* The texel block of vk_format (a kiln_vk_format): its width and height in texels (1x1 for
 * texel formats) and its bytes. False, outputs untouched, for formats kiln does not know. */
KILN_API bool kiln_vk_format_block(uint32_t vk_format, uint32_t *block_width,
                                   uint32_t *block_height, uint32_t *block_size);

/* "2d", "cube", "array", "volume", "cube_array"; "invalid" out of range. */
KILN_API const char *kiln_texture_shape_name(uint32_t shape);

/* Largest layerCount and pixelDepth kiln writes or reads. */
#define KILN_KTX2_MAX_LAYERS 2048u
#define KILN_KTX2_MAX_DEPTH  2048u

/* One mip level as stored in the file (level 0 is the largest). A level holds every layer, face
 * and slice: layer by layer, in each layer face by face, in each face slice by slice (KTX 2.0
 * "Mip Level Array"), each image image_size bytes once supercompression is undone. */
typedef struct kiln_ktx2_level {
    const uint8_t *data;      /* points into the file bytes given to kiln_ktx2_read */
    size_t size;              /* stored (possibly supercompressed) byte size */
    size_t uncompressed_size; /* byte size after supercompression is undone */
    uint32_t width, height;   /* texels of this level */
    uint32_t depth;           /* slices of this level: 1 unless the texture is a volume */
    size_t image_size;        /* bytes of one image (a face, layer or slice) of this level */
} kiln_ktx2_level;

/* What kiln_ktx2_read found. Views into the caller's bytes: valid while they are. */
typedef struct kiln_ktx2_info {
    uint32_t vk_format; /* kiln_vk_format */
    uint32_t type_size;
    uint32_t width, height;                         /* level 0 */
    uint32_t level_count;                           /* >= 1 */
    uint32_t supercompression;                      /* kiln_ktx2_supercompression */
    bool srgb;                                      /* from the DFD transfer function */
    bool premultiplied;                             /* from the DFD flags */
    uint32_t block_width, block_height, block_size; /* 1x1 and texel size for RGBA8/RGBA16F */
    kiln_ktx2_level levels[KILN_KTX2_MAX_LEVELS];
    const uint8_t *kv_data; /* key/value data, kv_size bytes */
    size_t kv_size;
    char orientation[8];  /* KTXorientation, "" if absent */
    char writer[128];     /* KTXwriter, "" if absent */
    uint32_t shape;       /* kiln_texture_shape */
    uint32_t face_count;  /* 6 for cubes and cube arrays, else 1 */
    uint32_t layer_count; /* layers of an array (layerCount), 1 when not an array */
    uint32_t depth;       /* level 0 slices of a volume (pixelDepth), 1 otherwise */
    /* Basis Universal (vk_format 0): the format and its channels; block_width/height are 4 and
     * block_size is 16 for UASTC, 8 for ETC1S (the size of the ETC1 block each stands for). A
     * UASTC level's uncompressed_size and image_size count UASTC blocks; an ETC1S level has
     * uncompressed_size 0 (the file says so) and image_size in ETC1 blocks. */
    uint32_t basis;          /* kiln_ktx2_basis */
    uint32_t basis_channels; /* kiln_basis_channels */
    const uint8_t *sgd;      /* BasisLZ: supercompression global data, sgd_size bytes */
    size_t sgd_size;
} kiln_ktx2_info;

/* Images (faces x layers x slices) in level `level` of a texture of info's shape. */
KILN_API uint32_t kiln_ktx2_level_images(const kiln_ktx2_info *info, uint32_t level);

/* The value of key/value pair `key` (NUL-terminated), len bytes (a string value keeps its NUL);
 * false when the file has no such key. */
KILN_API bool kiln_ktx2_find_key(const kiln_ktx2_info *info, const char *key, const uint8_t **value,
                                 size_t *len);

/* The same over key/value data alone (kv_size bytes, as kiln_ktx2_read validated them:
 * kiln_ktx2_info.kv_data, krt_texture_data.kv_data). */
KILN_API bool kiln_ktx2_kv_find(const uint8_t *kv, size_t kv_size, const char *key,
                                const uint8_t **value, size_t *len);

/* Parses and validates a KTX2 file held in memory: header, indices, every level's offset and
 * size against the file and against what the format, shape and dimensions imply, the DFD,
 * key/value data. 2D, cube, array, cube array and 3D textures of the formats above are accepted,
 * and Basis Universal ones (vkFormat 0 with an ETC1S or UASTC DFD: info->basis; the BasisLZ
 * global data is bounded here and decoded by kiln_basis_open), at most 32768 texels a side,
 * KILN_KTX2_MAX_LAYERS layers and KILN_KTX2_MAX_DEPTH slices; cube faces must be square. Does not
 * allocate. Errors: KILN_E_FORMAT_INVALID (malformed; err->offset says where),
 * KILN_E_IMPORT_UNSUPPORTED (a valid file kiln does not read, e.g. 1D, a 3D array or another
 * vkFormat), KILN_E_LIMIT (past the limits above), KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_ktx2_read(const void *data, size_t size, kiln_ktx2_info *out,
                                    kiln_error *err);

/* Copies level `level` into dst (uncompressed_size bytes), undoing Zstandard supercompression.
 * Errors: KILN_E_USAGE (bad level or dst too small, or BasisLZ data: kiln_basis_transcode reads
 * that), KILN_E_FORMAT_INVALID (zstd data damaged
 * or of the wrong length). */
KILN_API kiln_result kiln_ktx2_level_copy(const kiln_ktx2_info *info, uint32_t level, void *dst,
                                          size_t dst_size, kiln_error *err);

/* ---- Basis Universal textures --------------------------------------------------------------- */

/* A Basis Universal texture (kiln_ktx2_info.basis != KILN_KTX2_BASIS_NONE) opened for
 * transcoding: for ETC1S, its BasisLZ codebooks and Huffman tables decoded. docs/basis.md. */
typedef struct kiln_basis kiln_basis;

/* Most targets kiln_basis_targets lists. */
#define KILN_BASIS_MAX_TARGETS 8

/* Opens the texture kiln_ktx2_read described in *info for transcoding (info is copied; the file's
 * bytes must stay valid until kiln_basis_close). alloc may be NULL (malloc). Errors: KILN_E_USAGE
 * (not a Basis texture, NULL out), KILN_E_FORMAT_INVALID (damaged codebooks or tables),
 * KILN_E_IMPORT_UNSUPPORTED (ETC1S video P-frames), KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_basis_open(const kiln_ktx2_info *info, const kiln_allocator *alloc,
                                     kiln_basis **out, kiln_error *err);
KILN_API void kiln_basis_close(kiln_basis *b);

/* The GPU formats (kiln_vk_format) the texture transcodes to, best first for its format and
 * channels (docs/basis.md, "Choosing a target"), the sRGB variant for sRGB textures; the last is
 * always R8G8B8A8. Writes at most max of them into vk_formats (may be NULL with max 0) and
 * returns how many there are (<= KILN_BASIS_MAX_TARGETS; 0 for a texture that is not Basis). */
KILN_API size_t kiln_basis_targets(const kiln_ktx2_info *info, uint32_t *vk_formats, size_t max);

/* The target a renderer gets: the first of kiln_basis_targets that supports(user, vk_format)
 * says yes to, else the last (R8G8B8A8, which every GPU samples); R8G8B8A8 when supports is
 * NULL, since then nothing says what the GPU samples. UNDEFINED for a texture that is not Basis.
 * libkiln_rt's loads choose with the renderer's supports_format this way. */
KILN_API uint32_t kiln_basis_pick_target(const kiln_ktx2_info *info,
                                         bool (*supports)(void *user, uint32_t vk_format),
                                         void *user);

/* Bytes of level `level` transcoded to vk_format: its images (faces x layers x slices, in the
 * file's order) one after the other, blocks row by row (texels for R8G8B8A8). 0 when vk_format is
 * not one of the texture's targets (either sRGB variant counts) or the level does not exist. */
KILN_API size_t kiln_basis_level_size(const kiln_ktx2_info *info, uint32_t level,
                                      uint32_t vk_format);

/* Transcodes level `level` to vk_format into out (kiln_basis_level_size bytes). Several threads
 * may transcode levels of one kiln_basis at once. Allocates only a Zstandard UASTC level's
 * inflated blocks. Errors: KILN_E_USAGE (bad level, format or size), KILN_E_FORMAT_INVALID
 * (damaged level data), KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_basis_transcode(const kiln_basis *b, uint32_t level, uint32_t vk_format,
                                          void *out, size_t out_size, kiln_error *err);

/* ---- asset ids ------------------------------------------------------------------------------ */

/* The 64-bit id of an artifact: XXH3-64 (seed 0) of the bytes "<guid>#<label>", guid being the
 * asset's 32 lowercase hex digits and label the artifact's ("mesh0/prim1", "material2",
 * "texture"). Cooked files refer to each other by these ids; the runtime looks them up. */
KILN_API uint64_t kiln_asset_id(const char *guid, const char *label);

/* ---- the kiln container --------------------------------------------------------------------- */

/* Every cooked kind except textures is one container: a 64-byte header, a table of sections,
 * then the sections, each 16-byte aligned, so a reader validates the file once and then uses it
 * in place (mmap) without copying. docs/formats.md gives the bytes. */
#define KILN_CONTAINER_VERSION      1
#define KILN_CONTAINER_HEADER_SIZE  64
#define KILN_CONTAINER_SECTION_SIZE 32
#define KILN_CONTAINER_MAX_SECTIONS 256
#define KILN_CONTAINER_ALIGN        16

/* Four-character codes, stored little-endian: KILN_FOURCC('M','E','S','H') reads "MESH". */
#define KILN_FOURCC(a, b, c, d)                                                                    \
    ((uint32_t)(uint8_t)(a) | ((uint32_t)(uint8_t)(b) << 8) | ((uint32_t)(uint8_t)(c) << 16) |     \
     ((uint32_t)(uint8_t)(d) << 24))

typedef struct kiln_container_section {
    uint32_t id;           /* fourcc */
    uint32_t element_size; /* bytes of one element; 1 for plain bytes */
    uint64_t count;        /* elements */
    const uint8_t *data;   /* count * element_size bytes inside the file, 16-byte aligned */
    size_t size;
} kiln_container_section;

/* A validated container: views into the caller's bytes, valid while they are. */
typedef struct kiln_container {
    uint32_t kind;         /* fourcc of the cooked kind ("MESH", "MATL", ...) */
    uint32_t kind_version; /* the layout version of that kind */
    uint32_t section_count;
    const uint8_t *bytes; /* the whole file */
    size_t size;
} kiln_container;

enum {
    KILN_CONTAINER_SKIP_CHECKSUM = 1u << 0, /* trust the bytes (verified elsewhere) */
};

/* Validates a container in memory: magic, container version (another one is
 * KILN_E_FORMAT_VERSION: re-cook), header size, file size against size, the XXH3-64 checksum of
 * the whole file, and every section: alignment, bounds, element size times count without
 * overflow, ascending offsets without overlap, unique ids, zero padding and reserved fields.
 * Does not allocate. Errors: KILN_E_FORMAT_INVALID (err->offset says where), KILN_E_FORMAT_VERSION,
 * KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_container_read(const void *data, size_t size, uint32_t flags,
                                         kiln_container *out, kiln_error *err);

/* The section with this id whose element size is element_size: true and *out filled, or false
 * when absent or of another element size (the kind's reader then reports
 * KILN_E_FORMAT_INVALID itself). */
KILN_API bool kiln_container_find(const kiln_container *c, uint32_t id, uint32_t element_size,
                                  kiln_container_section *out);

/* Section i (0 <= i < section_count) in file order, for tools that list a file. */
KILN_API void kiln_container_section_at(const kiln_container *c, uint32_t i,
                                        kiln_container_section *out);

/* ---- cooked meshes (container kind "MESH") -------------------------------------------------- */

/* One primitive of a model, GPU-ready: vertex streams (quantized or 32-bit floats), one index
 * buffer holding every level of detail as a range, meshlets for mesh shaders, morph targets.
 * docs/formats.md ("Meshes") gives the bytes, docs/meshes.md the passes and error bounds. */
#define KILN_MESH_KIND                  KILN_FOURCC('M', 'E', 'S', 'H')
#define KILN_MESH_KIND_VERSION          1
#define KILN_MESH_MAX_LEVELS            9 /* the full mesh and up to 8 simplified levels */
#define KILN_MESH_MAX_UV_SETS           4
#define KILN_MESH_MAX_COLOR_SETS        2
#define KILN_MESH_MAX_MESHLET_VERTICES  255 /* meshoptimizer's limits */
#define KILN_MESH_MAX_MESHLET_TRIANGLES 512

enum {
    KILN_MESH_QUANTIZED = 1u << 0,  /* vertex streams use the quantized formats */
    KILN_MESH_COMPRESSED = 1u << 1, /* streams and indices are meshoptimizer-encoded */
    /* The source had no normals, which glTF says means flat shading: there is no NORMAL stream
     * (nor normal deltas); shade each triangle with its face normal, e.g. in a fragment shader
     * normalize(cross(dFdx(p), dFdy(p))) of the view-space position. Vertices are then shared
     * between faces, so the mesh is smaller and can be simplified. */
    KILN_MESH_FLAT_NORMALS = 1u << 2,
};

/* The streams of a mesh: vertex attributes (one element per vertex), the index buffer, and
 * the morph target deltas (one element per vertex per target that has that attribute). */
typedef enum kiln_mesh_stream_id {
    KILN_MESH_POSITION = 0,
    KILN_MESH_NORMAL = 1,
    KILN_MESH_TANGENT = 2,
    KILN_MESH_UV0 = 3,    /* UV1..UV3 follow */
    KILN_MESH_COLOR0 = 7, /* COLOR1 follows */
    KILN_MESH_JOINTS = 9,
    KILN_MESH_WEIGHTS = 10,
    KILN_MESH_INDICES = 11,
    KILN_MESH_TARGET_POSITIONS = 12,
    KILN_MESH_TARGET_NORMALS = 13,
    KILN_MESH_TARGET_TANGENTS = 14,
    KILN_MESH_STREAM_COUNT = 15,
} kiln_mesh_stream_id;

/* Element formats, named as GPU vertex formats (little-endian, components in order). */
typedef enum kiln_mesh_format {
    KILN_MESH_FORMAT_NONE = 0,
    KILN_MESH_FORMAT_F32X2 = 1,
    KILN_MESH_FORMAT_F32X3 = 2,
    KILN_MESH_FORMAT_F32X4 = 3,
    KILN_MESH_FORMAT_UNORM16X4 = 4,     /* position: x, y, z in the bounds, w = 0 */
    KILN_MESH_FORMAT_SNORM16X2_OCT = 5, /* normal: octahedral x, y */
    KILN_MESH_FORMAT_SNORM8X4_OCT = 6,  /* tangent: octahedral x, y, 0, handedness ±127 */
    KILN_MESH_FORMAT_UNORM16X2 = 7,     /* UV in the set's range */
    KILN_MESH_FORMAT_UNORM8X4 = 8,      /* colour (linear RGBA), weights (sum 255) */
    KILN_MESH_FORMAT_U8X4 = 9,          /* joints, at most 256 */
    KILN_MESH_FORMAT_U16X4 = 10,        /* joints, more than 256 */
    KILN_MESH_FORMAT_U16 = 11,          /* indices, at most 65536 vertices */
    KILN_MESH_FORMAT_U32 = 12,          /* indices */
} kiln_mesh_format;

typedef struct kiln_mesh_stream {
    uint32_t format;     /* kiln_mesh_format; NONE when the mesh has no such stream */
    uint32_t stride;     /* bytes of one element once unpacked */
    uint64_t count;      /* elements once unpacked */
    const uint8_t *data; /* the stored bytes: count * stride raw, or meshopt-encoded */
    size_t size;         /* stored bytes */
} kiln_mesh_stream;

/* One level of detail: a range of the index buffer and of the meshlets. */
typedef struct kiln_mesh_lod {
    uint32_t index_offset, index_count; /* in indices, not bytes; a multiple of 3 */
    uint32_t meshlet_offset, meshlet_count;
    float error;          /* geometric error relative to the extent (0 for level 0) */
    float error_absolute; /* the same in model units: error * extent */
} kiln_mesh_lod;

/* Layout of one meshlet as stored (16 bytes): its vertices are meshlet_vertices[vertex_offset
 * ..+vertex_count) (indices into the vertex streams), its triangles 3 bytes each at
 * meshlet_triangles[triangle_offset..) (indices into its own vertices). */
typedef struct kiln_meshlet {
    uint32_t vertex_offset, triangle_offset, vertex_count, triangle_count;
} kiln_meshlet;

/* Culling data of one meshlet as stored (48 bytes), model space: meshoptimizer's bounds. Cull
 * the back-facing: dot(normalize(cone_apex - camera), cone_axis) >= cone_cutoff. */
typedef struct kiln_meshlet_bounds {
    float center[3], radius;
    float cone_apex[3];
    float cone_axis[3], cone_cutoff;        /* cutoff = cos(half angle); 1 = no culling */
    int8_t cone_axis_s8[3], cone_cutoff_s8; /* the same as snorm8 (x / 127) */
} kiln_meshlet_bounds;

enum {
    KILN_MESH_TARGET_HAS_POSITIONS = 1u << 0,
    KILN_MESH_TARGET_HAS_NORMALS = 1u << 1,
    KILN_MESH_TARGET_HAS_TANGENTS = 1u << 2,
};

/* A validated cooked mesh: views into the caller's bytes, valid while they are. Multi-byte
 * values behind the pointers are little-endian; use the accessors below to read them. */
typedef struct kiln_mesh_view {
    kiln_container container;
    uint32_t flags; /* KILN_MESH_QUANTIZED, _COMPRESSED, _FLAT_NORMALS */
    uint32_t vertex_count;
    uint32_t index_count; /* all levels */
    uint32_t level_count; /* 1..KILN_MESH_MAX_LEVELS; level 0 is the full mesh */
    kiln_mesh_lod levels[KILN_MESH_MAX_LEVELS];
    uint64_t material;                  /* asset id of the material artifact; 0 = default */
    float bounds_min[3], bounds_max[3]; /* of the positions (without morphs) */
    float position_scale[3];            /* quantized: position = bounds_min + scale * unorm */
    float extent; /* largest side of the bounds: what errors are relative to */
    float uv_offset[KILN_MESH_MAX_UV_SETS][2]; /* quantized: uv = offset + scale * unorm */
    float uv_scale[KILN_MESH_MAX_UV_SETS][2];
    uint32_t uv_set_count, color_set_count;
    uint32_t joint_count; /* skinned: every joint index is below it; else 0 */
    uint32_t target_count;
    uint32_t meshlet_count, meshlet_vertex_count, meshlet_triangle_size;
    uint32_t meshlet_max_vertices, meshlet_max_triangles;
    kiln_mesh_stream streams[KILN_MESH_STREAM_COUNT];
    const uint8_t *meshlets;          /* meshlet_count × 16 bytes (kiln_meshlet) */
    const uint8_t *meshlet_bounds;    /* meshlet_count × 48 bytes (kiln_meshlet_bounds) */
    const uint8_t *meshlet_vertices;  /* meshlet_vertex_count × u32 */
    const uint8_t *meshlet_triangles; /* meshlet_triangle_size bytes */
    const uint8_t *targets;           /* target_count × 8 bytes: u32 flags, f32 default weight */
} kiln_mesh_view;

/* Parses and validates a cooked mesh: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), the kind and its version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), the header, every section's element size and count against
 * the header, every level's index and meshlet range, every meshlet's ranges and local indices,
 * every meshlet vertex, and (uncompressed) every index < vertex_count and every joint <
 * joint_count. Compressed streams are checked when unpacked. Does not allocate. Errors:
 * KILN_E_FORMAT_INVALID (err->offset says where when known), KILN_E_FORMAT_VERSION,
 * KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_mesh_read(const void *data, size_t size, uint32_t flags,
                                    kiln_mesh_view *out, kiln_error *err);

/* Copies stream `id` into dst as the GPU wants it (count * stride bytes), undoing meshopt
 * compression; decoded indices and joints are checked again. Errors: KILN_E_USAGE (absent
 * stream, dst_size too small), KILN_E_FORMAT_INVALID (damaged compressed data). */
KILN_API kiln_result kiln_mesh_unpack(const kiln_mesh_view *v, kiln_mesh_stream_id id, void *dst,
                                      size_t dst_size, kiln_error *err);

/* Element i of the meshlet tables and of the targets (i below the view's counts). */
KILN_API kiln_meshlet kiln_mesh_meshlet(const kiln_mesh_view *v, uint32_t i);
KILN_API kiln_meshlet_bounds kiln_mesh_meshlet_bounds(const kiln_mesh_view *v, uint32_t i);
KILN_API uint32_t kiln_mesh_target_flags(const kiln_mesh_view *v, uint32_t i);
KILN_API float kiln_mesh_target_weight(const kiln_mesh_view *v, uint32_t i);

/* A cooked mesh turned back into floats, for tests, tools and shader authors. Every vertex
 * array covers all vertex_count vertices (levels share them); indices are those of one level.
 * Arrays are NULL when the mesh has no such stream. Quantization error bounds: docs/meshes.md. */
typedef struct kiln_mesh_decoded {
    uint32_t vertex_count;
    float *positions;                        /* 3 per vertex */
    float *normals;                          /* 3 per vertex, unit length */
    float *tangents;                         /* 4 per vertex, w = ±1 */
    float *uvs[KILN_MESH_MAX_UV_SETS];       /* 2 per vertex */
    float *colors[KILN_MESH_MAX_COLOR_SETS]; /* 4 per vertex */
    uint16_t *joints;                        /* 4 per vertex */
    float *weights;                          /* 4 per vertex, summing to 1 */
    uint32_t index_count;
    uint32_t *indices; /* the level's triangles, < vertex_count */
    uint32_t target_count;
    float *target_positions; /* 3 per vertex per target (0 where absent) */
    float *target_normals;   /* likewise, NULL when no target has them */
    float *target_tangents;
    kiln_allocator allocator; /* kiln's own: the block below */
    void *block;
    size_t block_size;
} kiln_mesh_decoded;

/* Decodes level `level` of a mesh kiln_mesh_read validated. alloc may be NULL (libc). Free
 * with kiln_mesh_decoded_free. Errors: KILN_E_USAGE (level out of range),
 * KILN_E_FORMAT_INVALID (damaged compressed data), KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_mesh_decode(const kiln_mesh_view *v, uint32_t level,
                                      const kiln_allocator *alloc, kiln_mesh_decoded *out,
                                      kiln_error *err);
KILN_API void kiln_mesh_decoded_free(kiln_mesh_decoded *d); /* NULL or zeroed: no-op */

/* Level-of-detail selection for engines (pure functions, no state). errors[l] are the
 * levels' absolute errors (kiln_mesh_lod.error_absolute, non-decreasing), distance the
 * camera's distance to the mesh in the same units, screen_height in pixels, fov_y the
 * vertical field of view in radians.
 *
 * kiln_lod_pixels: how many pixels an error covers at that distance:
 *     error * screen_height / (2 * distance * tan(fov_y / 2))   (+inf when distance <= 0).
 *
 * kiln_lod_select: the coarsest level whose error covers at most threshold pixels. current is
 * the level drawn last frame; hysteresis in [0, 1) keeps it from flickering at a boundary: a
 * coarser level is taken only once its error is below threshold * (1 - hysteresis), a finer
 * one as soon as the current level's error exceeds threshold. Returns 0..level_count-1 (0 when
 * level_count is 0 or arguments are not finite). Worked example: docs/meshes.md. */
KILN_API float kiln_lod_pixels(float error, float distance, float screen_height, float fov_y);
KILN_API uint32_t kiln_lod_select(const float *errors, uint32_t level_count, uint32_t current,
                                  float distance, float screen_height, float fov_y, float threshold,
                                  float hysteresis);

/* ---- virtual geometry (container kind "VGEO") ---------------------------------------------- */

/* The cluster DAG of one unskinned mesh (docs/virtual_geometry.md; bytes in docs/formats.md,
 * "Virtual geometry"). The mesh is split into clusters; groups of neighbouring clusters are
 * simplified together with their outer border fixed and split again, up to one or a few roots.
 * A renderer draws a cut: per region the coarsest clusters whose error, projected on screen, is
 * below a threshold. The clusters index the vertex streams of the mesh artifact named by `mesh`
 * (its level 0 vertices; simplification only removes vertices), so a VGEO file holds no vertex
 * data of its own: it is an alternative to the mesh's index buffer, LODs and meshlets.
 *
 * Each cluster belongs to at most one group (the group whose simplification made its coarser
 * replacement, `group`) and was made by at most one (`source_group`; none at level 0). A
 * cluster's own error and error sphere are its source group's (error 0 at level 0); its
 * parent's are its group's (+inf when it has none: a root). Errors are model-space distances
 * bounding how far the cluster's surface lies from the source mesh's; they grow up the DAG and
 * each group's sphere contains the spheres of the groups that made its members, which the
 * reader checks: so kiln_vgeo_select gives one consistent cut for any camera. */
#define KILN_VGEO_KIND         KILN_FOURCC('V', 'G', 'E', 'O')
#define KILN_VGEO_KIND_VERSION 1
#define KILN_VGEO_NONE         0xFFFFFFFFu /* no group */
#define KILN_VGEO_MAX_LEVELS   64

/* One group as stored (32 bytes): its members are clusters [cluster_offset, +cluster_count);
 * simplified together they made the clusters whose source_group is this group, with this
 * error and sphere. level: the DAG level of the clusters it made (1 = made from level 0). */
typedef struct kiln_vgeo_group {
    uint32_t cluster_offset, cluster_count;
    float center[3], radius;
    float error; /* model units, >= every member's own error */
    uint32_t level;
} kiln_vgeo_group;

/* A cluster's place in the DAG as stored (16 bytes). Its triangles and vertices are the
 * kiln_meshlet of the same index (clusters section), its culling data the kiln_meshlet_bounds
 * (bounds section): the layouts of the mesh kind's meshlets, so a meshlet renderer draws
 * clusters unchanged. */
typedef struct kiln_vgeo_link {
    uint32_t group;        /* the group it belongs to, KILN_VGEO_NONE for a root */
    uint32_t source_group; /* the group that made it, KILN_VGEO_NONE at level 0 */
    uint32_t level;        /* 0 for the source mesh's clusters */
    uint32_t reserved;     /* 0 */
} kiln_vgeo_link;

enum {
    /* Simplification stalled before one root remained: the DAG has several roots (each drawn
     * whenever its own error is small enough). docs/virtual_geometry.md says when. */
    KILN_VGEO_STALLED = 1u << 0,
};

/* A validated VGEO file: views into the caller's bytes, valid while they are. */
typedef struct kiln_vgeo_view {
    kiln_container container;
    uint64_t mesh;         /* asset id of the mesh artifact whose vertices the clusters index */
    uint32_t vertex_count; /* that mesh's vertex count: every cluster vertex is below it */
    uint32_t flags;        /* KILN_VGEO_STALLED */
    uint32_t level_count;  /* 1 + the highest cluster level */
    uint32_t group_count, cluster_count;
    uint32_t root_count; /* clusters without a group (not stored: the reader counts them) */
    uint32_t cluster_vertex_count, cluster_triangle_size;
    uint32_t max_vertices, max_triangles; /* the limits clusters were built with */
    uint32_t source_triangles;            /* triangles of level 0 */
    float extent;                         /* the mesh's extent: errors relative to it / extent */
    const uint8_t *groups;                /* group_count × 32 bytes (kiln_vgeo_group) */
    const uint8_t *clusters;              /* cluster_count × 16 bytes (kiln_meshlet) */
    const uint8_t *links;                 /* cluster_count × 16 bytes (kiln_vgeo_link) */
    const uint8_t *bounds;                /* cluster_count × 48 bytes (kiln_meshlet_bounds) */
    const uint8_t *cluster_vertices;      /* cluster_vertex_count × u32 */
    /* cluster_triangle_size bytes, 3 per triangle; each cluster's start at a multiple of 4 */
    const uint8_t *cluster_triangles;
} kiln_vgeo_view;

/* Reads and checks a VGEO file: every range, index and count; links agree with the groups'
 * member ranges (a group's members are exactly the clusters that name it); a cluster's source
 * group is of the cluster's own level, its group of a higher one, so the DAG has no cycle; every
 * group made a cluster; errors and spheres are finite, non-negative and monotonic (a group's
 * error >= its members' own errors, its sphere contains their own spheres above level 0, where
 * the own error is 0); several roots exactly when KILN_VGEO_STALLED. docs/formats.md ("Virtual
 * geometry") lists every check. flags: KILN_CONTAINER_SKIP_CHECKSUM. Does not allocate.
 * Errors: KILN_E_FORMAT_INVALID (err->offset says where when known), KILN_E_FORMAT_VERSION,
 * KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_vgeo_read(const void *data, size_t size, uint32_t flags,
                                    kiln_vgeo_view *out, kiln_error *err);

/* Element i of the tables (i below the view's counts; past them: zeros, a link of NONEs). */
KILN_API kiln_vgeo_group kiln_vgeo_group_at(const kiln_vgeo_view *v, uint32_t i);
KILN_API kiln_meshlet kiln_vgeo_cluster(const kiln_vgeo_view *v, uint32_t i);
KILN_API kiln_vgeo_link kiln_vgeo_cluster_link(const kiln_vgeo_view *v, uint32_t i);
KILN_API kiln_meshlet_bounds kiln_vgeo_cluster_bounds(const kiln_vgeo_view *v, uint32_t i);

/* The sphere and error a cut tests. */
typedef struct kiln_vgeo_lod {
    float center[3], radius;
    float error; /* +inf for the parent of a root */
} kiln_vgeo_lod;

/* Cluster i's own LOD (its source group's; at level 0 its culling sphere with error 0) and its
 * parent's (its group's; for a root its own sphere with error +inf). self or parent may be
 * NULL. */
KILN_API void kiln_vgeo_cluster_lod(const kiln_vgeo_view *v, uint32_t i, kiln_vgeo_lod *self,
                                    kiln_vgeo_lod *parent);

/* The camera a cut is made for, in the mesh's model space (transform the eye into it; with a
 * uniform scale s in the model's transform, divide pixel_error by s). */
typedef struct kiln_vgeo_camera {
    float position[3];
    float fov_y;           /* vertical field of view, radians, in (0, pi) */
    float viewport_height; /* pixels */
} kiln_vgeo_camera;

/* How many pixels `lod` covers on screen: error * viewport_height / (2 tan(fov_y / 2) * d),
 * d = the distance from the eye to the sphere's surface (+inf when the eye is inside it or
 * arguments are not finite). Monotonic: a larger error in a sphere containing this one never
 * covers fewer pixels, which makes cuts consistent. */
KILN_API float kiln_vgeo_pixels(const kiln_vgeo_lod *lod, const kiln_vgeo_camera *camera);

/* The cut for camera at pixel_error: cluster i is in it when its own LOD covers at most
 * pixel_error pixels and its parent's covers more. Writes the indices of the clusters in it in
 * increasing order to out (at most capacity of them) and returns how many there are (more than
 * capacity: call again with a larger out). No culling: frustum and cone culling are the
 * renderer's, per cluster, after the cut. A CPU reference a renderer can port to a compute
 * shader: one test per cluster, no traversal. */
KILN_API size_t kiln_vgeo_select(const kiln_vgeo_view *v, const kiln_vgeo_camera *camera,
                                 float pixel_error, uint32_t *out, size_t capacity);

/* ---- cooked materials (container kind "MATL") ---------------------------------------------- */

/* A glTF metallic-roughness material: factors, alpha, flags and five texture slots, each naming
 * the image artifact it samples by asset id, with its sampler, UV set and texture transform;
 * and every ratified KHR_materials_* extension (kiln_material_ext: which are present, their
 * factors, and twelve more texture slots). docs/formats.md ("Materials") gives the bytes.
 * Version 2 added the extensions (MEXT, MXTX); version 1 files are refused: cook again. */
#define KILN_MATERIAL_KIND         KILN_FOURCC('M', 'A', 'T', 'L')
#define KILN_MATERIAL_KIND_VERSION 2
#define KILN_MATERIAL_MAX_UV_SETS  4 /* a slot's texcoord is below this */

typedef enum kiln_material_slot { /* the values of kiln_scene_slot */
                                  KILN_MATERIAL_SLOT_BASE_COLOR = 0, /* sRGB colour, alpha */
                                  KILN_MATERIAL_SLOT_METALLIC_ROUGHNESS =
                                      1, /* linear; B = metallic, G = roughness */
                                  KILN_MATERIAL_SLOT_NORMAL = 2, /* linear tangent-space normal */
                                  KILN_MATERIAL_SLOT_OCCLUSION = 3, /* linear; R */
                                  KILN_MATERIAL_SLOT_EMISSIVE = 4,  /* sRGB colour */
                                  KILN_MATERIAL_SLOT_COUNT = 5,
} kiln_material_slot;

typedef enum kiln_material_alpha {
    KILN_MATERIAL_ALPHA_OPAQUE = 0,
    KILN_MATERIAL_ALPHA_MASK = 1, /* alpha < alpha_cutoff is discarded */
    KILN_MATERIAL_ALPHA_BLEND = 2,
} kiln_material_alpha;

typedef enum kiln_material_filter {
    KILN_MATERIAL_FILTER_DEFAULT = 0, /* the file says nothing: the renderer chooses */
    KILN_MATERIAL_FILTER_NEAREST = 1,
    KILN_MATERIAL_FILTER_LINEAR = 2,
} kiln_material_filter;

typedef enum kiln_material_wrap {
    KILN_MATERIAL_WRAP_REPEAT = 0,
    KILN_MATERIAL_WRAP_CLAMP = 1,  /* clamp to edge */
    KILN_MATERIAL_WRAP_MIRROR = 2, /* mirrored repeat */
} kiln_material_wrap;

/* One texture slot. An empty slot has image 0 and every other member zero. */
typedef struct kiln_material_texture {
    uint64_t image;                 /* asset id of the image artifact; 0 = empty slot */
    uint32_t texcoord;              /* UV set, < KILN_MATERIAL_MAX_UV_SETS */
    uint8_t mag_filter, min_filter; /* kiln_material_filter */
    uint8_t mip_filter;             /* between levels; DEFAULT when mipmaps is false */
    bool mipmaps;                   /* the sampler wants mip levels */
    uint8_t wrap_s, wrap_t;         /* kiln_material_wrap */
    bool has_transform;             /* the source had KHR_texture_transform */
    /* The transform as the source gave it (offset 0, rotation 0, scale 1 without one) ... */
    float offset[2];
    float rotation; /* radians, counter-clockwise in UV space */
    float scale[2];
    /* ... and as a 3x2 column-major matrix: u' = m[0] u + m[2] v + m[4],
     * v' = m[1] u + m[3] v + m[5], i.e. translate(offset) * rotate(rotation) * scale(scale)
     * with rotate = [cos sin; -sin cos] (rows), as three.js, Cesium and the Khronos sample
     * viewer apply KHR_texture_transform. */
    float matrix[6];
} kiln_material_texture;

/* The glTF material extensions a material carries (kiln_material_ext.present). */
enum {
    KILN_MATERIAL_EXT_CLEARCOAT = 1u << 0,         /* KHR_materials_clearcoat */
    KILN_MATERIAL_EXT_SHEEN = 1u << 1,             /* KHR_materials_sheen */
    KILN_MATERIAL_EXT_TRANSMISSION = 1u << 2,      /* KHR_materials_transmission */
    KILN_MATERIAL_EXT_VOLUME = 1u << 3,            /* KHR_materials_volume */
    KILN_MATERIAL_EXT_IOR = 1u << 4,               /* KHR_materials_ior */
    KILN_MATERIAL_EXT_SPECULAR = 1u << 5,          /* KHR_materials_specular */
    KILN_MATERIAL_EXT_IRIDESCENCE = 1u << 6,       /* KHR_materials_iridescence */
    KILN_MATERIAL_EXT_ANISOTROPY = 1u << 7,        /* KHR_materials_anisotropy */
    KILN_MATERIAL_EXT_DISPERSION = 1u << 8,        /* KHR_materials_dispersion */
    KILN_MATERIAL_EXT_EMISSIVE_STRENGTH = 1u << 9, /* KHR_materials_emissive_strength */
    KILN_MATERIAL_EXT_UNLIT = 1u << 10,            /* KHR_materials_unlit (= kiln_material.unlit) */
    KILN_MATERIAL_EXT_ALL = (1u << 11) - 1,
};

/* The texture slots of the extensions (kiln_material.ext_textures), with how each is cooked:
 * sRGB colour, linear data, or a tangent-space normal map; and the channels glTF reads. */
typedef enum kiln_material_ext_slot {
    KILN_MATERIAL_EXT_SLOT_CLEARCOAT = 0,              /* linear; R */
    KILN_MATERIAL_EXT_SLOT_CLEARCOAT_ROUGHNESS = 1,    /* linear; G */
    KILN_MATERIAL_EXT_SLOT_CLEARCOAT_NORMAL = 2,       /* normal map */
    KILN_MATERIAL_EXT_SLOT_SHEEN_COLOR = 3,            /* sRGB colour; RGB */
    KILN_MATERIAL_EXT_SLOT_SHEEN_ROUGHNESS = 4,        /* linear; A */
    KILN_MATERIAL_EXT_SLOT_TRANSMISSION = 5,           /* linear; R */
    KILN_MATERIAL_EXT_SLOT_THICKNESS = 6,              /* linear; G (volume) */
    KILN_MATERIAL_EXT_SLOT_SPECULAR = 7,               /* linear; A */
    KILN_MATERIAL_EXT_SLOT_SPECULAR_COLOR = 8,         /* sRGB colour; RGB */
    KILN_MATERIAL_EXT_SLOT_IRIDESCENCE = 9,            /* linear; R */
    KILN_MATERIAL_EXT_SLOT_IRIDESCENCE_THICKNESS = 10, /* linear; G */
    KILN_MATERIAL_EXT_SLOT_ANISOTROPY = 11,            /* linear; RG direction, B strength */
    KILN_MATERIAL_EXT_SLOT_COUNT = 12,
} kiln_material_ext_slot;

/* The factors of the material extensions, as glTF names and defines them. The members of an
 * extension that is not present hold glTF's defaults (the values below in brackets). */
typedef struct kiln_material_ext {
    uint32_t present;                /* KILN_MATERIAL_EXT_* */
    float clearcoat;                 /* clearcoatFactor [0], in [0, 1] */
    float clearcoat_roughness;       /* clearcoatRoughnessFactor [0], in [0, 1] */
    float clearcoat_normal_scale;    /* clearcoatNormalTexture.scale [1] */
    float sheen_color[3];            /* sheenColorFactor [0 0 0], linear, in [0, 1] */
    float sheen_roughness;           /* sheenRoughnessFactor [0], in [0, 1] */
    float transmission;              /* transmissionFactor [0], in [0, 1] */
    float thickness;                 /* volume thicknessFactor [0], >= 0 */
    float attenuation_distance;      /* volume attenuationDistance [+inf]; 0 = infinite */
    float attenuation_color[3];      /* volume attenuationColor [1 1 1], in [0, 1] */
    float ior;                       /* ior [1.5]: 0 or >= 1 */
    float specular;                  /* specularFactor [1], in [0, 1] */
    float specular_color[3];         /* specularColorFactor [1 1 1], >= 0 (may exceed 1) */
    float iridescence;               /* iridescenceFactor [0], in [0, 1] */
    float iridescence_ior;           /* iridescenceIor [1.3], >= 1 */
    float iridescence_thickness_min; /* iridescenceThicknessMinimum [100] nm, >= 0 */
    float iridescence_thickness_max; /* iridescenceThicknessMaximum [400] nm, >= 0 */
    float anisotropy_strength;       /* anisotropyStrength [0], in [0, 1] */
    float anisotropy_rotation;       /* anisotropyRotation [0], radians */
    float dispersion;                /* dispersion [0], >= 0 */
} kiln_material_ext;

/* glTF's defaults of every extension factor, present 0 (kiln_material_ext above). */
KILN_API void kiln_material_ext_defaults(kiln_material_ext *out);

/* The glTF name of one extension bit ("KHR_materials_sheen"), and kiln's name of an extension
 * texture slot ("sheen_color", as docs/formats.md and kiln inspect print it); "" for other
 * values. */
KILN_API const char *kiln_material_ext_name(uint32_t bit);
KILN_API const char *kiln_material_ext_slot_name(uint32_t slot);

/* A material as the cook builds it and as kiln_material_read gives it back. */
typedef struct kiln_material {
    const char *name; /* name_size bytes then a NUL; "" when unnamed */
    size_t name_size;
    float base_color[4];       /* linear RGBA factor, each in [0, 1] */
    float metallic, roughness; /* [0, 1] */
    float emissive[3];         /* linear RGB factor, [0, 1] */
    float emissive_strength;   /* >= 0; emitted = emissive * strength * texture */
    float normal_scale;        /* normalTexture.scale */
    float occlusion_strength;  /* occlusionTexture.strength */
    float alpha_cutoff;        /* >= 0; used with KILN_MATERIAL_ALPHA_MASK */
    uint32_t alpha_mode;       /* kiln_material_alpha */
    bool double_sided;
    bool unlit; /* KHR_materials_unlit */
    kiln_material_texture textures[KILN_MATERIAL_SLOT_COUNT];
    kiln_material_ext ext; /* the KHR_materials_* extensions */
    kiln_material_texture ext_textures[KILN_MATERIAL_EXT_SLOT_COUNT]; /* kiln_material_ext_slot */
} kiln_material;

/* A validated cooked material. name points into the caller's bytes: valid while they are. */
typedef struct kiln_material_view {
    kiln_container container;
    kiln_material material;
} kiln_material_view;

/* Parses and validates a cooked material: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), the kind and its version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), exactly the five sections of docs/formats.md with their
 * element sizes and counts, every enum, flag and reserved byte, every float finite and in its
 * range, empty slots all zero (the slots of an extension not present too), the unlit flag and
 * bit agreeing, the name NUL-terminated without an inner NUL. Does not allocate.
 * Errors: KILN_E_FORMAT_INVALID (err->offset says where when known), KILN_E_FORMAT_VERSION,
 * KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_material_read(const void *data, size_t size, uint32_t flags,
                                        kiln_material_view *out, kiln_error *err);

/* ---- typed materials (container kind "TMAT") ------------------------------------------------ */

/* A material typed by its shaders (a .kmat source, docs/shaders.md "Typed materials"): the
 * vertex and fragment shader artifacts it draws with (by asset id, with the variant's name), its
 * parameter block packed exactly as the shaders' reflection lays it out (so a renderer uploads the
 * bytes as they are), the texture bound at each sampled-image binding (by asset id, with its
 * sampler), and its render state. docs/formats.md ("Typed materials") gives the bytes. */
#define KILN_TYPED_MATERIAL_KIND         KILN_FOURCC('T', 'M', 'A', 'T')
#define KILN_TYPED_MATERIAL_KIND_VERSION 1
#define KILN_TYPED_MATERIAL_MAX_TEXTURES 256u
#define KILN_TYPED_MATERIAL_MAX_BLOCK    (64u << 10) /* bytes of the parameter block */

typedef enum kiln_material_blend { /* kiln_typed_material.blend */
                                   KILN_MATERIAL_BLEND_NONE = 0,
                                   KILN_MATERIAL_BLEND_ALPHA = 1, /* src * a + dst * (1 - a) */
                                   KILN_MATERIAL_BLEND_PREMULTIPLIED = 2, /* src + dst * (1 - a) */
                                   KILN_MATERIAL_BLEND_ADDITIVE = 3,      /* src * a + dst */
                                   KILN_MATERIAL_BLEND_COUNT = 4,
} kiln_material_blend;

enum { /* kiln_typed_material.flags */
       KILN_TYPED_MATERIAL_DOUBLE_SIDED = 1u << 0,
       KILN_TYPED_MATERIAL_DEPTH_TEST = 1u << 1,
       KILN_TYPED_MATERIAL_DEPTH_WRITE = 1u << 2,
};

typedef enum kiln_typed_block_kind {                            /* kiln_typed_material.block_kind */
                                     KILN_TYPED_BLOCK_NONE = 0, /* the material has no block */
                                     KILN_TYPED_BLOCK_UNIFORM =
                                         1, /* a uniform buffer at set/binding */
                                     KILN_TYPED_BLOCK_PUSH = 2, /* push constants */
} kiln_typed_block_kind;

/* One stage the material draws with. */
typedef struct kiln_typed_material_stage {
    uint64_t shader;     /* asset id of the shader artifact (a .kshader, label "shader") */
    const char *variant; /* the variant's name in it */
} kiln_typed_material_stage;

/* The texture of one sampled-image binding. */
typedef struct kiln_typed_material_texture {
    const char *name; /* the binding's variable name in the shader */
    uint32_t set, binding;
    uint64_t image;                 /* asset id of the texture artifact */
    uint8_t mag_filter, min_filter; /* kiln_material_filter */
    uint8_t mip_filter;             /* kiln_material_filter */
    uint8_t wrap_s, wrap_t;         /* kiln_material_wrap */
} kiln_typed_material_texture;

/* A typed material as the cook builds it and as kiln_typed_material_read gives it back (name,
 * variant names, block and texture names point into the bytes; the textures are read with
 * kiln_typed_material_texture_at). */
typedef struct kiln_typed_material {
    const char *name; /* the source's name; "" when none */
    kiln_typed_material_stage vertex, fragment;
    uint32_t block_kind;               /* kiln_typed_block_kind */
    uint32_t block_set, block_binding; /* UNIFORM: where the block is bound; else 0 */
    const char *block_name;            /* the block's type name in the shader; "" without a block */
    const uint8_t *block;              /* block_size bytes, as the GPU reads them (little-endian) */
    uint32_t block_size;               /* 0 without a block; <= KILN_TYPED_MATERIAL_MAX_BLOCK */
    uint32_t alpha_mode;               /* kiln_material_alpha */
    float alpha_cutoff;                /* [0, 1] */
    uint32_t blend;                    /* kiln_material_blend */
    uint32_t flags;                    /* KILN_TYPED_MATERIAL_* */
    uint32_t texture_count;            /* <= KILN_TYPED_MATERIAL_MAX_TEXTURES */
    /* Writer only (kiln_typed_material_read leaves it NULL): the textures, in (set, binding)
     * order. */
    const kiln_typed_material_texture *textures;
} kiln_typed_material;

/* A validated cooked typed material; every pointer points into the caller's bytes (valid while
 * they are). material.block is NULL when block_size is 0; material.textures is NULL. */
typedef struct kiln_typed_material_view {
    kiln_container container;
    kiln_typed_material material;
    const uint8_t *texture_records; /* TTEX as stored (32 bytes a texture); NULL without any */
    const char *strings;            /* STRS: every name, each followed by a NUL */
    size_t strings_size;
} kiln_typed_material_view;

/* Parses and validates a cooked typed material: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), the kind and its version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), exactly the sections of docs/formats.md with their element
 * sizes, every enum, flag and reserved field, names inside the strings, the cutoff finite in
 * [0, 1], the block's size, the textures in strictly increasing (set, binding) order with
 * non-zero image ids. Any alignment of data. Does not allocate. Errors: KILN_E_FORMAT_INVALID
 * (err->offset says where when known), KILN_E_FORMAT_VERSION, KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_typed_material_read(const void *data, size_t size, uint32_t flags,
                                              kiln_typed_material_view *out, kiln_error *err);
/* Texture i of a validated typed material (zeroed when i is out of range). */
KILN_API kiln_typed_material_texture
kiln_typed_material_texture_at(const kiln_typed_material_view *v, uint32_t i);

/* ---- cooked scenes (container kind "SCEN") -------------------------------------------------- */

/* The node tree of a model, flattened in depth-first pre-order (parents before children, so a
 * node's subtree is the index range [i, subtree_end)), with one root: node 0. Nodes refer to
 * mesh primitives and skeletons by asset id; cameras and lights are stored in the scene. The
 * names here are kiln_cooked_*, not kiln_scene_* (that is the importer's scene, kiln_scene.h).
 * docs/formats.md ("Scenes") gives the bytes. */
#define KILN_COOKED_SCENE_KIND         KILN_FOURCC('S', 'C', 'E', 'N')
#define KILN_COOKED_SCENE_KIND_VERSION 1
#define KILN_COOKED_NONE               0xFFFFFFFFu /* no parent, mesh, camera, light, skin, source index */

enum {                                             /* kiln_cooked_scene_view.flags */
       KILN_COOKED_SCENE_SYNTHETIC_ROOT = 1u << 0, /* node 0 was added to hold several roots */
       KILN_COOKED_SCENE_HAS_BOUNDS = 1u << 1,     /* bounds_min/max are set */
};

enum {                                              /* kiln_cooked_node.flags */
       KILN_COOKED_NODE_SYNTHETIC = 1u << 0,        /* the synthetic root (not in the source) */
       KILN_COOKED_NODE_MATRIX = 1u << 1,           /* the source gave a matrix (TRS decomposed) */
       KILN_COOKED_NODE_INSTANCE_WEIGHTS = 1u << 2, /* weights are the node's, not the mesh's */
};

typedef enum kiln_cooked_camera_type {
    KILN_COOKED_CAMERA_PERSPECTIVE = 0,
    KILN_COOKED_CAMERA_ORTHOGRAPHIC = 1,
} kiln_cooked_camera_type;

typedef enum kiln_cooked_light_type {
    KILN_COOKED_LIGHT_DIRECTIONAL = 0, /* shines along the node's -Z */
    KILN_COOKED_LIGHT_POINT = 1,
    KILN_COOKED_LIGHT_SPOT = 2,
} kiln_cooked_light_type;

typedef struct kiln_cooked_node {
    const char *name; /* name_size bytes then a NUL */
    size_t name_size;
    uint32_t parent;      /* < this node's index; KILN_COOKED_NONE for node 0 */
    uint32_t subtree_end; /* one past the last node of this node's subtree */
    uint32_t flags;       /* KILN_COOKED_NODE_* */
    uint32_t source_node; /* the source's node index; NONE for the synthetic root */
    float translation[3]; /* local transform, glTF conventions */
    float rotation[4];    /* unit quaternion x, y, z, w */
    float scale[3];
    float matrix[16]; /* local, column-major: the source's, or T * R * S */
    uint32_t mesh;    /* the source mesh i (artifacts mesh<i>/prim<p>) or NONE */
    uint32_t first_primitive, primitive_count; /* range of the scene's primitive ids */
    uint32_t camera, light;              /* index into the scene's cameras / lights, or NONE */
    uint32_t first_weight, weight_count; /* range of the scene's morph weights */
    uint32_t skin;                       /* the source skin (artifact skeleton<i>) or NONE */
    uint64_t skeleton;                   /* asset id of that skeleton; 0 when skin is NONE */
} kiln_cooked_node;

typedef struct kiln_cooked_camera {
    const char *name;
    size_t name_size;
    uint32_t type;          /* kiln_cooked_camera_type */
    uint32_t source_camera; /* the source's camera index */
    float yfov;             /* perspective: radians */
    float aspect;           /* perspective: 0 = the viewport's */
    float xmag, ymag;       /* orthographic half extents */
    float znear, zfar;      /* zfar 0 = infinite (perspective) */
} kiln_cooked_camera;

typedef struct kiln_cooked_light {
    const char *name;
    size_t name_size;
    uint32_t type;                /* kiln_cooked_light_type */
    uint32_t source_light;        /* the source's KHR_lights_punctual index */
    float color[3];               /* linear RGB */
    float intensity;              /* candela (point, spot) or lux (directional) */
    float range;                  /* 0 = infinite */
    float inner_cone, outer_cone; /* spot: radians */
} kiln_cooked_light;

/* A validated cooked scene: views into the caller's bytes, valid while they are. Records are
 * little-endian as docs/formats.md lays them out; read them with the accessors below. */
typedef struct kiln_cooked_scene_view {
    kiln_container container;
    const char *name; /* the scene's name; "scene" when the source has none */
    size_t name_size;
    uint32_t flags;                     /* KILN_COOKED_SCENE_* */
    uint32_t source_scene;              /* the source's default scene index, or NONE */
    float bounds_min[3], bounds_max[3]; /* world box over mesh instances (HAS_BOUNDS) */
    uint32_t node_count;                /* 0 only for a scene without nodes */
    uint32_t primitive_count, weight_count, camera_count, light_count, clip_count;
    const uint8_t *nodes, *primitives, *weights, *cameras, *lights, *clips;
    const char *strings; /* every name, each followed by a NUL */
    size_t strings_size;
} kiln_cooked_scene_view;

/* Parses and validates a cooked scene: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), kind and version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), exactly the eight sections of docs/formats.md, every name
 * (inside the strings, NUL-terminated, no inner NUL), every node's parent (earlier; only node 0
 * has none), subtree_end (the subtrees nest exactly as a depth-first pre-order), primitive and
 * weight ranges, camera and light indices, every id non-zero where one is required, every
 * enum, flag and reserved field, every float finite. Does not allocate. Errors:
 * KILN_E_FORMAT_INVALID (err->offset says where when known), KILN_E_FORMAT_VERSION,
 * KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_cooked_scene_read(const void *data, size_t size, uint32_t flags,
                                            kiln_cooked_scene_view *out, kiln_error *err);

/* Record i of a validated scene (i below the view's counts; out of range gives a zeroed record
 * or 0). Names point into the view's bytes. */
KILN_API kiln_cooked_node kiln_cooked_scene_node(const kiln_cooked_scene_view *v, uint32_t i);
KILN_API kiln_cooked_camera kiln_cooked_scene_camera(const kiln_cooked_scene_view *v, uint32_t i);
KILN_API kiln_cooked_light kiln_cooked_scene_light(const kiln_cooked_scene_view *v, uint32_t i);
KILN_API uint64_t kiln_cooked_scene_primitive(const kiln_cooked_scene_view *v, uint32_t i);
KILN_API float kiln_cooked_scene_weight(const kiln_cooked_scene_view *v, uint32_t i);
KILN_API uint64_t kiln_cooked_scene_clip(const kiln_cooked_scene_view *v, uint32_t i);

/* ---- cooked skeletons (container kind "SKEL") ----------------------------------------------- */

/* One skin of a model: its joints in parent-before-child order with parent indices, the bind
 * pose (each joint's local TRS), inverse bind matrices, the static transforms of non-joint nodes
 * above and between joints, names, and a hashed name table for O(1) lookups by name.
 * docs/formats.md ("Skeletons") gives the bytes, docs/animation.md the rules. */
#define KILN_SKELETON_KIND             KILN_FOURCC('S', 'K', 'E', 'L')
#define KILN_SKELETON_KIND_VERSION     1
#define KILN_SKELETON_MAX_JOINT_COUNT  65536u
#define KILN_SKELETON_NO_PRE_TRANSFORM 0xFFFFFFFFu

/* One joint, decoded. world(j) = world(parent) * pre * local(translation, rotation, scale), with
 * world(-1) = identity and pre = identity when has_pre is false; the skinning matrix of joint j
 * is world(j) * inverse_bind. */
typedef struct kiln_skeleton_joint {
    const char *name; /* name_size bytes then a NUL; "" when unnamed */
    size_t name_size;
    int32_t parent;       /* < this joint's index, or -1 for a root */
    uint32_t node;        /* the source's node index (clips with node targets) */
    uint32_t skin_joint;  /* this joint's index in the source skin's list */
    float translation[3]; /* bind pose, local to the parent joint (after pre) */
    float rotation[4];    /* unit quaternion x, y, z, w */
    float scale[3];
    float inverse_bind[16]; /* column-major */
    bool has_pre;
    float pre[16]; /* column-major; identity when has_pre is false */
} kiln_skeleton_joint;

/* A validated cooked skeleton: views into the caller's bytes, valid while they are. */
typedef struct kiln_skeleton_view {
    kiln_container container;
    const char *name; /* the skin's name, NUL-terminated; "" when unnamed */
    size_t name_size;
    uint32_t skin;                 /* the source's skin index (artifact skeleton<i>) */
    uint32_t joint_count;          /* 1 .. KILN_SKELETON_MAX_JOINT_COUNT */
    uint32_t root_count;           /* joints whose parent is -1 */
    uint32_t pre_count;            /* distinct pre-transforms */
    uint32_t slot_count;           /* name table slots: a power of two */
    uint32_t hash_seed, max_probe; /* name table parameters */
    const uint8_t *joints;         /* joint_count records of 64 bytes */
    const uint8_t *inverse_binds;  /* joint_count × 16 f32 */
    const uint8_t *pre_transforms; /* pre_count × 16 f32 */
    const uint8_t *slots;          /* slot_count × (u32 joint, u32 hash bits) */
    const char *names;
    size_t names_size;
} kiln_skeleton_view;

/* Parses and validates a cooked skeleton: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), kind and version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), exactly the six sections of docs/formats.md with their
 * element sizes and counts, every parent (-1 or below the joint's own index), root count,
 * pre-transform index, every name (inside the names, NUL-terminated, no inner NUL), skin_joint
 * (a permutation of 0..joint_count-1), every float finite, reserved fields zero, and the name
 * table: every slot's joint, hash bits and probe distance, every named joint found by its name.
 * Does not allocate (an 8 KiB bitmap on the stack). Errors: KILN_E_FORMAT_INVALID (err->offset
 * says where when known), KILN_E_FORMAT_VERSION, KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_skeleton_read(const void *data, size_t size, uint32_t flags,
                                        kiln_skeleton_view *out, kiln_error *err);

/* Joint i of a validated skeleton (a zeroed record with parent -1 when i is out of range). */
KILN_API kiln_skeleton_joint kiln_skeleton_joint_at(const kiln_skeleton_view *v, uint32_t i);

/* The index of the joint with this name through the stored hash table (O(1)), or -1 when no
 * joint has it. Several joints of one name: the lowest index. "" is never found. The _n form
 * takes a length instead of a NUL-terminated string. */
KILN_API int32_t kiln_skeleton_find_joint(const kiln_skeleton_view *v, const char *name);
KILN_API int32_t kiln_skeleton_find_joint_n(const kiln_skeleton_view *v, const char *name,
                                            size_t name_size);

/* ---- cooked clips (container kind "CLIP") --------------------------------------------------- */

/* One animation of a model: every channel as a track of keys (times in seconds, values), with
 * its target (a joint of the clip's skeleton, or a node of the source) and interpolation as
 * glTF defines it. docs/formats.md ("Clips") gives the bytes, docs/animation.md the cook and
 * the sampling rules. */
#define KILN_CLIP_KIND           KILN_FOURCC('C', 'L', 'I', 'P')
#define KILN_CLIP_KIND_VERSION   1
#define KILN_CLIP_MAX_COMPONENTS 65536u /* weights tracks: one per morph target */

typedef enum kiln_clip_path {                                 /* the values of kiln_scene_path */
                              KILN_CLIP_PATH_TRANSLATION = 0, /* 3 components */
                              KILN_CLIP_PATH_ROTATION = 1,    /* 4: unit quaternion x, y, z, w */
                              KILN_CLIP_PATH_SCALE = 2,       /* 3 */
                              KILN_CLIP_PATH_WEIGHTS = 3,     /* one per morph target */
} kiln_clip_path;

typedef enum kiln_clip_interp { /* the values of kiln_scene_interp */
                                KILN_CLIP_INTERP_LINEAR =
                                    0, /* rotation: spherical linear, shortest path */
                                KILN_CLIP_INTERP_STEP = 1,
                                KILN_CLIP_INTERP_CUBICSPLINE =
                                    2, /* 3 values a key: in-tangent, value, out-tangent */
} kiln_clip_interp;

enum {                                 /* kiln_clip_track.flags */
       KILN_CLIP_TRACK_NODE = 1u << 0, /* target is a source node index, not a joint */
};

enum {                                /* kiln_clip_view.flags */
       KILN_CLIP_RESAMPLED = 1u << 0, /* some track was resampled at resample_fps */
       KILN_CLIP_REDUCED = 1u << 1,   /* key reduction ran (within the stated bounds) */
};

typedef struct kiln_clip_track {
    uint32_t target;        /* joint index, or node index with KILN_CLIP_TRACK_NODE */
    uint32_t node;          /* the source's node index, always */
    uint32_t flags;         /* KILN_CLIP_TRACK_* */
    uint32_t path;          /* kiln_clip_path */
    uint32_t interpolation; /* kiln_clip_interp */
    uint32_t components;    /* floats a value: 3, 4, 3 or the morph target count */
    uint32_t key_count;     /* >= 1 */
    uint32_t time_offset;   /* first key time: index into the clip's times */
    uint32_t value_offset;  /* first value float: index into the clip's values */
} kiln_clip_track;

/* A validated cooked clip: views into the caller's bytes, valid while they are. */
typedef struct kiln_clip_view {
    kiln_container container;
    const char *name; /* NUL-terminated; "" when unnamed */
    size_t name_size;
    uint64_t skeleton;             /* asset id of the skeleton joint targets index; 0 none */
    uint32_t skin;                 /* the source skin of that skeleton, or 0xFFFFFFFF */
    uint32_t skeleton_joint_count; /* every joint target is below it */
    uint32_t flags;                /* KILN_CLIP_RESAMPLED, KILN_CLIP_REDUCED */
    float start, end;              /* seconds: first and last key over all tracks */
    float resample_fps;            /* 0 when not resampled */
    float max_error[4];            /* measured, per kiln_clip_path (docs/animation.md) */
    uint64_t source_key_count;     /* keys over all channels before the cook */
    uint32_t track_count;
    const uint8_t *tracks; /* track_count records of 32 bytes */
    const uint8_t *times;  /* time_count f32 */
    const uint8_t *values; /* value_count f32 */
    uint64_t time_count, value_count;
} kiln_clip_view;

/* Parses and validates a cooked clip: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), kind and version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), exactly the five sections of docs/formats.md with their
 * element sizes and counts, the name, start <= end, every track's path, interpolation, flags,
 * component count, target (joint targets below skeleton_joint_count), time and value ranges,
 * key times finite, non-decreasing and within [start, end], every value finite, reserved fields
 * zero. Does not allocate. Errors: KILN_E_FORMAT_INVALID (err->offset says where when known),
 * KILN_E_FORMAT_VERSION, KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_clip_read(const void *data, size_t size, uint32_t flags,
                                    kiln_clip_view *out, kiln_error *err);

/* Track i of a validated clip (zeroed when i is out of range). */
KILN_API kiln_clip_track kiln_clip_track_at(const kiln_clip_view *v, uint32_t i);

/* The value of a track at `time` (seconds) as glTF defines it, into out[0 .. components):
 * before the first key the first value, after the last the last; STEP holds a key's value until
 * the next key's time; LINEAR interpolates (rotations by spherical linear interpolation along
 * the shorter arc); CUBICSPLINE evaluates the Hermite spline of glTF's appendix with tangents
 * scaled by the key interval. Rotations come out normalized. At a time shared by several keys
 * the last of them wins. A NaN time samples the first key. Returns the components written, 0
 * when track is out of range. Thread-safe; O(log keys). */
KILN_API uint32_t kiln_clip_sample(const kiln_clip_view *v, uint32_t track, float time, float *out);

/* ---- cooked shaders (container kind "SHDR") -------------------------------------------------- */

/* The values a cooked shader stores for its stage, its descriptor bindings, the types of block
 * members, inputs, outputs and specialization constants, and block layouts (docs/shaders.md). */
#define KILN_SHADER_NONE          0xFFFFFFFFu /* no block, no struct, no push constants, no location */
#define KILN_SHADER_RUNTIME_ARRAY 0u          /* array count of an unsized array (T x[]) */

/* Stages, as the settings name them (docs/shaders.md): the value is stored in cooked files. */
typedef enum kiln_shader_stage {
    KILN_SHADER_VERTEX = 0,
    KILN_SHADER_TESS_CONTROL = 1,
    KILN_SHADER_TESS_EVALUATION = 2,
    KILN_SHADER_GEOMETRY = 3,
    KILN_SHADER_FRAGMENT = 4,
    KILN_SHADER_COMPUTE = 5,
    KILN_SHADER_TASK = 6,
    KILN_SHADER_MESH = 7,
    KILN_SHADER_RAYGEN = 8,
    KILN_SHADER_ANY_HIT = 9,
    KILN_SHADER_CLOSEST_HIT = 10,
    KILN_SHADER_MISS = 11,
    KILN_SHADER_INTERSECTION = 12,
    KILN_SHADER_CALLABLE = 13,
    KILN_SHADER_STAGE_COUNT = 14
} kiln_shader_stage;

/* What a descriptor binding is (one Vulkan descriptor type each, combined image samplers as
 * SAMPLED_IMAGE). */
typedef enum kiln_shader_resource {
    KILN_SHADER_UNIFORM_BUFFER = 0,
    KILN_SHADER_STORAGE_BUFFER = 1,
    KILN_SHADER_SAMPLED_IMAGE = 2,  /* combined image sampler: sampler2D ... */
    KILN_SHADER_SEPARATE_IMAGE = 3, /* texture2D, HLSL Texture2D */
    KILN_SHADER_SEPARATE_SAMPLER = 4,
    KILN_SHADER_STORAGE_IMAGE = 5,
    KILN_SHADER_UNIFORM_TEXEL_BUFFER = 6,
    KILN_SHADER_STORAGE_TEXEL_BUFFER = 7,
    KILN_SHADER_SUBPASS_INPUT = 8,
    KILN_SHADER_ACCELERATION_STRUCTURE = 9,
    KILN_SHADER_RESOURCE_COUNT = 10
} kiln_shader_resource;

/* Scalar types of members, inputs, outputs and constants. */
typedef enum kiln_shader_type {
    KILN_SHADER_TYPE_UNKNOWN = 0,
    KILN_SHADER_TYPE_BOOL = 1,
    KILN_SHADER_TYPE_INT8 = 2,
    KILN_SHADER_TYPE_UINT8 = 3,
    KILN_SHADER_TYPE_INT16 = 4,
    KILN_SHADER_TYPE_UINT16 = 5,
    KILN_SHADER_TYPE_INT = 6,
    KILN_SHADER_TYPE_UINT = 7,
    KILN_SHADER_TYPE_INT64 = 8,
    KILN_SHADER_TYPE_UINT64 = 9,
    KILN_SHADER_TYPE_HALF = 10,
    KILN_SHADER_TYPE_FLOAT = 11,
    KILN_SHADER_TYPE_DOUBLE = 12,
    KILN_SHADER_TYPE_STRUCT = 13,        /* members: see kiln_shader_member.struct_block */
    KILN_SHADER_TYPE_BUFFER_ADDRESS = 14 /* a buffer_reference pointer (64-bit) */
} kiln_shader_type;

enum {
    KILN_SHADER_MEMBER_ROW_MAJOR = 1u << 0, /* matrix stored row by row */
    KILN_SHADER_BINDING_READONLY = 1u << 0, /* storage buffer/image declared readonly */
    KILN_SHADER_BINDING_WRITEONLY = 1u << 1,
};

/* How a block lays out its members (what the module's decorations give; reflection reports the
 * offsets themselves, the layout says which rule they follow). */
typedef enum kiln_shader_layout {
    KILN_SHADER_LAYOUT_STD140 = 0,
    KILN_SHADER_LAYOUT_STD430 = 1,
    KILN_SHADER_LAYOUT_SCALAR = 2, /* offsets match neither: scalar block layout or explicit */
} kiln_shader_layout;

/* A cooked shader (.kshader): one source compiled to SPIR-V once per variant (a named set of
 * defines: "default", "skinned"), each variant with its own words and its own reflection.
 * docs/formats.md ("Shaders") gives the bytes. */
#define KILN_SHADER_KIND           KILN_FOURCC('S', 'H', 'D', 'R')
#define KILN_SHADER_KIND_VERSION   1
#define KILN_SHADER_SPIRV_MAGIC    0x07230203u
#define KILN_SHADER_MAX_VARIANTS   1024u
#define KILN_SHADER_MAX_DEPTH      64u /* struct nesting below a block (kiln_shader_block_info) */
#define KILN_SHADER_LANGUAGE_COUNT 2u  /* the values of kiln_shader_language */
#define KILN_SHADER_TARGET_COUNT   4u  /* kiln_shader_target */
#define KILN_SHADER_OPTIMIZE_COUNT 3u  /* kiln_shader_optimize */

/* The source language a shader was written in. */
typedef enum kiln_shader_language {
    KILN_SHADER_GLSL = 0,
    KILN_SHADER_HLSL = 1,
} kiln_shader_language;

/* The Vulkan version a module targets; the SPIR-V version follows (1.0, 1.3, 1.5, 1.6). */
typedef enum kiln_shader_target {
    KILN_SHADER_VULKAN_1_0 = 0,
    KILN_SHADER_VULKAN_1_1 = 1,
    KILN_SHADER_VULKAN_1_2 = 2,
    KILN_SHADER_VULKAN_1_3 = 3,
} kiln_shader_target;

typedef enum kiln_shader_optimize {
    KILN_SHADER_OPTIMIZE_NONE = 0,
    KILN_SHADER_OPTIMIZE_SIZE = 1,
    KILN_SHADER_OPTIMIZE_PERFORMANCE = 2,
} kiln_shader_optimize;

enum {                                   /* kiln_shader_view.flags */
       KILN_SHADER_DEBUG_INFO = 1u << 0, /* the modules keep debug names and lines */
};

/* A validated cooked shader: views into the caller's bytes, valid while they are. Read its
 * records with the accessors below. */
typedef struct kiln_shader_view {
    kiln_container container;
    uint32_t stage;         /* kiln_shader_stage */
    uint32_t language;      /* < KILN_SHADER_LANGUAGE_COUNT */
    uint32_t target;        /* < KILN_SHADER_TARGET_COUNT */
    uint32_t optimize;      /* < KILN_SHADER_OPTIMIZE_COUNT */
    uint32_t flags;         /* KILN_SHADER_DEBUG_INFO */
    const char *entry;      /* the entry point's name, NUL-terminated */
    uint32_t variant_count; /* 1 .. KILN_SHADER_MAX_VARIANTS */
    /* The sections, as stored (docs/formats.md). */
    const uint8_t *variants, *words, *bindings, *blocks, *members, *inputs, *outputs, *constants;
    uint64_t word_count; /* over every variant */
    const char *strings; /* every name, each followed by a NUL */
    size_t strings_size;
} kiln_shader_view;

/* One variant. Its reflection's records are numbered from 0 within the variant (the index of a
 * binding's block, of a member's struct block, a block's first member, push_block). */
typedef struct kiln_shader_variant_info {
    const char *name;    /* unique within the shader, not empty */
    const char *defines; /* the defines that made it, as text ("" when none) */
    /* The SPIR-V words in host order: a pointer into the bytes when they are 4-byte aligned
     * (a buffer from malloc or mmap, a pack entry) on a little-endian host, else NULL: then
     * kiln_shader_variant_words copies them. words[0] is KILN_SHADER_SPIRV_MAGIC. */
    const uint32_t *words;
    size_t word_count; /* >= 5 */
    uint32_t binding_count, block_count, member_count, input_count, output_count, constant_count;
    uint32_t workgroup[3];      /* compute, task, mesh: local size (0 where a constant sets it) */
    uint32_t workgroup_spec[3]; /* the spec constant id that sets each size, or NONE */
    uint32_t push_block;        /* the push-constant block, or KILN_SHADER_NONE */
    uint32_t push_size;         /* bytes of push constants the stage uses; 0 without */
} kiln_shader_variant_info;

/* A descriptor binding. */
typedef struct kiln_shader_binding_info {
    const char *name; /* the variable's name, else its block's */
    uint32_t set, binding;
    uint32_t resource;         /* kiln_shader_resource */
    uint32_t count;            /* array size; 1 when not an array, KILN_SHADER_RUNTIME_ARRAY */
    uint32_t block;            /* uniform and storage buffers: their block; else NONE */
    uint32_t image_dim;        /* 0; images: 1, 2, 3, 4 cube, 5 buffer, 6 subpass */
    uint32_t image_flags;      /* bit 0 arrayed, bit 1 multisampled, bit 2 depth comparison */
    uint32_t input_attachment; /* subpass inputs: the index; else NONE */
    uint32_t flags;            /* KILN_SHADER_BINDING_* */
} kiln_shader_binding_info;

/* A block type: the members of a uniform, storage or push-constant block or a nested struct. */
typedef struct kiln_shader_block_info {
    const char *name; /* the type's name */
    uint32_t size;    /* declared bytes (a runtime array at the end counts 0) */
    uint32_t layout;  /* kiln_shader_layout */
    uint32_t first_member, member_count;
    /* 0 without struct members, else 1 + the largest depth of its members' struct blocks
     * (<= KILN_SHADER_MAX_DEPTH): walking a block's structs ends after depth steps. */
    uint32_t depth;
} kiln_shader_block_info;

typedef struct kiln_shader_member_info {
    const char *name;
    uint32_t offset;        /* bytes from the start of the block */
    uint32_t size;          /* bytes (0 for a runtime-sized array) */
    uint32_t type;          /* kiln_shader_type */
    uint32_t vec_size;      /* 1 .. 4 */
    uint32_t columns;       /* 1, or 2 .. 4 for a matrix */
    uint32_t array_count;   /* 1 not an array; KILN_SHADER_RUNTIME_ARRAY; the outermost size */
    uint32_t array_stride;  /* 0 when not an array */
    uint32_t matrix_stride; /* 0 when not a matrix */
    uint32_t flags;         /* KILN_SHADER_MEMBER_* */
    uint32_t struct_block;  /* TYPE_STRUCT: its block (depth below the member's block); NONE */
} kiln_shader_member_info;

/* A stage input or output (built-ins are not listed). */
typedef struct kiln_shader_io_info {
    const char *name;
    uint32_t location; /* NONE for an interface block member without one */
    uint32_t component;
    uint32_t type; /* kiln_shader_type */
    uint32_t vec_size, columns;
    uint32_t array_count; /* 1 when not an array */
    uint32_t flags;       /* bit 0 flat, bit 1 per-primitive */
} kiln_shader_io_info;

typedef struct kiln_shader_constant_info {
    const char *name;         /* "" when unnamed */
    uint32_t id;              /* constant_id */
    uint32_t type;            /* kiln_shader_type */
    uint32_t default_bits[2]; /* the default value's bits, low word first */
} kiln_shader_constant_info;

/* Parses and validates a cooked shader: the container (checksum unless
 * KILN_CONTAINER_SKIP_CHECKSUM is in flags), kind and version (another version is
 * KILN_E_FORMAT_VERSION: re-cook), exactly the ten sections of docs/formats.md with their
 * element sizes, the header's enums, flags and reserved fields, every name inside the strings,
 * variant names unique, each variant's word and table ranges (in order, covering each section),
 * its words starting with the SPIR-V magic, every enum, flag and index of its records, block
 * member ranges and depths (so struct nesting is acyclic and at most KILN_SHADER_MAX_DEPTH
 * deep). Any alignment of data. Does not allocate. Errors: KILN_E_FORMAT_INVALID (err->offset
 * says where when known), KILN_E_FORMAT_VERSION, KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_shader_read(const void *data, size_t size, uint32_t flags,
                                      kiln_shader_view *out, kiln_error *err);

/* The names kiln gives the shader enums in settings, inspect and JSON ("fragment", "hlsl",
 * "vulkan1.2", "performance"); NULL when the value is out of range. */
KILN_API const char *kiln_shader_stage_name(uint32_t stage);
KILN_API const char *kiln_shader_language_name(uint32_t language);
KILN_API const char *kiln_shader_target_name(uint32_t target);
KILN_API const char *kiln_shader_optimize_name(uint32_t optimize);

/* Variant i of a validated shader (zeroed when i is out of range). */
KILN_API kiln_shader_variant_info kiln_shader_variant_at(const kiln_shader_view *v, uint32_t i);
/* The index of the variant with this name, or -1. */
KILN_API int32_t kiln_shader_find_variant(const kiln_shader_view *v, const char *name);
/* Copies variant i's words in host order into dst when cap is at least its word count; returns
 * the word count (0 when i is out of range), whether or not it copied. */
KILN_API size_t kiln_shader_variant_words(const kiln_shader_view *v, uint32_t i, uint32_t *dst,
                                          size_t cap);

/* Record i of variant `variant`'s reflection (i below the variant's counts; a zeroed record
 * otherwise). Names point into the view's bytes. */
KILN_API kiln_shader_binding_info kiln_shader_binding_at(const kiln_shader_view *v,
                                                         uint32_t variant, uint32_t i);
KILN_API kiln_shader_block_info kiln_shader_block_at(const kiln_shader_view *v, uint32_t variant,
                                                     uint32_t i);
KILN_API kiln_shader_member_info kiln_shader_member_at(const kiln_shader_view *v, uint32_t variant,
                                                       uint32_t i);
KILN_API kiln_shader_io_info kiln_shader_input_at(const kiln_shader_view *v, uint32_t variant,
                                                  uint32_t i);
KILN_API kiln_shader_io_info kiln_shader_output_at(const kiln_shader_view *v, uint32_t variant,
                                                   uint32_t i);
KILN_API kiln_shader_constant_info kiln_shader_constant_at(const kiln_shader_view *v,
                                                           uint32_t variant, uint32_t i);

/* ---- packs (.kpak) -------------------------------------------------------------------------- */

/* A pack holds many cooked artifacts in one file for shipping: a 64-byte header, a table of
 * contents sorted by asset id (binary search), a payload table, the names ("path#label"), then
 * the payloads, each 16-byte (or 4096-byte) aligned, stored raw or Zstandard-compressed, each
 * with its sizes and XXH3-64 checksums. Entries with identical bytes share one payload. The
 * header's checksum covers everything before the payloads, so kiln_pack_open_memory validates
 * the whole table without touching a payload page; each payload is checked when it is read.
 * docs/formats.md ("Packs") gives the bytes, docs/packs.md the use. */
#define KILN_PACK_VERSION        1
#define KILN_PACK_HEADER_SIZE    64
#define KILN_PACK_ENTRY_SIZE     32
#define KILN_PACK_PAYLOAD_SIZE   48
#define KILN_PACK_MAX_ENTRIES    (1u << 24)          /* 16 M entries */
#define KILN_PACK_MAX_ENTRY_SIZE ((uint64_t)4 << 30) /* an entry above 4 GiB is refused */
#define KILN_PACK_NOT_FOUND      0xFFFFFFFFu

enum {                                 /* kiln_pack.flags (stored in the header) */
       KILN_PACK_ALIGN_4096 = 1u << 0, /* payloads start at 4096-byte boundaries */
};

enum {                                    /* flags of kiln_pack_open_memory */
       KILN_PACK_SKIP_CHECKSUM = 1u << 0, /* do not check the table's checksum */
};

typedef enum kiln_pack_compression {
    KILN_PACK_RAW = 0,  /* stored as is: usable in place */
    KILN_PACK_ZSTD = 1, /* one Zstandard frame */
} kiln_pack_compression;

/* The kind of an entry: KILN_PACK_KIND_KTX2 for textures, else the container kind of the
 * artifact (KILN_MESH_KIND, KILN_MATERIAL_KIND, KILN_COOKED_SCENE_KIND, KILN_SKELETON_KIND,
 * KILN_CLIP_KIND, ...). */
#define KILN_PACK_KIND_KTX2 KILN_FOURCC('K', 'T', 'X', '2')

/* A validated pack: views into the caller's bytes (an mmap of the file), valid while they are. */
typedef struct kiln_pack {
    const uint8_t *bytes; /* the whole file */
    size_t size;
    uint32_t flags;          /* KILN_PACK_ALIGN_4096 */
    uint32_t entry_count;    /* entries, sorted by asset id, ids unique */
    uint32_t payload_count;  /* distinct payloads (<= entry_count) */
    uint64_t data_offset;    /* where the first payload starts */
    uint64_t total_size;     /* sum of the entries' sizes once decompressed */
    const uint8_t *entries;  /* entry_count records of KILN_PACK_ENTRY_SIZE bytes */
    const uint8_t *payloads; /* payload_count records of KILN_PACK_PAYLOAD_SIZE bytes */
    const char *strings;     /* the names, each followed by a NUL */
    size_t strings_size;
} kiln_pack;

/* One entry, decoded. */
typedef struct kiln_pack_entry {
    uint64_t asset_id; /* kiln_asset_id(guid, label) */
    uint32_t kind;     /* KILN_PACK_KIND_KTX2 or a container kind (fourcc) */
    uint32_t payload;  /* index of its payload; entries with equal bytes share one */
    const char *name;  /* "models/fox.glb#mesh0/prim0", name_size bytes then a NUL */
    size_t name_size;
    uint32_t compression;  /* kiln_pack_compression */
    const uint8_t *stored; /* the stored bytes inside the pack (not yet checked) */
    size_t stored_size;
    size_t size;              /* bytes once decompressed: what kiln_pack_entry_read writes */
    uint64_t offset;          /* of the stored bytes in the file */
    uint64_t stored_checksum; /* XXH3-64 of the stored bytes */
    uint64_t checksum;        /* XXH3-64 of the decompressed bytes (= stored_checksum when raw) */
} kiln_pack_entry;

/* Validates a pack held in memory (typically an mmap of the .kpak): magic, version (another one
 * is KILN_E_FORMAT_VERSION: re-pack), header fields, the file size, the XXH3-64 checksum of
 * everything before the payloads, entry ids strictly ascending, every entry's kind, name (inside
 * the strings, NUL-terminated, no inner NUL) and payload index, payloads used in first-use order
 * and tiling the data region exactly (each at the next aligned offset after the previous one, no
 * overlap, none past the end), sizes (a raw payload's stored size equals its size; none above
 * KILN_PACK_MAX_ENTRY_SIZE), compression, reserved fields zero. Reads only the bytes before
 * data_offset; payload bytes are checked by kiln_pack_entry_read / _view / kiln_pack_verify.
 * flags: 0 or KILN_PACK_SKIP_CHECKSUM (tests and fuzzing: the structure checks alone). Does
 * not allocate. Errors: KILN_E_FORMAT_INVALID (err->offset says where),
 * KILN_E_FORMAT_VERSION, KILN_E_LIMIT (more than KILN_PACK_MAX_ENTRIES, an entry too large),
 * KILN_E_USAGE (NULL out, unknown flags). */
KILN_API kiln_result kiln_pack_open_memory(const void *data, size_t size, uint32_t flags,
                                           kiln_pack *out, kiln_error *err);

/* The index of the entry with this asset id (binary search, O(log n)), or KILN_PACK_NOT_FOUND. */
KILN_API uint32_t kiln_pack_find(const kiln_pack *p, uint64_t asset_id);

/* The index of the entry named "path#label" (a linear scan over the names, O(n): resolve names
 * once, then keep ids), or KILN_PACK_NOT_FOUND. The _n form takes a length. */
KILN_API uint32_t kiln_pack_find_name(const kiln_pack *p, const char *name);
KILN_API uint32_t kiln_pack_find_name_n(const kiln_pack *p, const char *name, size_t name_size);

/* Entry i (i < entry_count) decoded; a zeroed record when i is out of range. */
KILN_API kiln_pack_entry kiln_pack_entry_at(const kiln_pack *p, uint32_t index);

/* Writes entry i's bytes into dst (at least entry.size bytes): checks the stored bytes' XXH3-64,
 * copies them (raw) or decompresses them (zstd: the frame must declare exactly entry.size bytes
 * and decompress to exactly that many, never writing past it — a decompression bomb stops at
 * the declared size), then checks the XXH3-64 of the result. Thread-safe for any mix of calls
 * (each call makes its own zstd context, with malloc). Errors:
 * KILN_E_USAGE (index out of range, dst_size too small), KILN_E_FORMAT_INVALID (checksum
 * mismatch or damaged data: the message names the entry), KILN_E_OUT_OF_MEMORY (zstd context). */
KILN_API kiln_result kiln_pack_entry_read(const kiln_pack *p, uint32_t index, void *dst,
                                          size_t dst_size, kiln_error *err);

/* Entry i's bytes used in place, without a copy: for a raw entry, checks its XXH3-64 and sets
 * *data to the bytes inside the pack (entry.size bytes, aligned as the pack says). A compressed
 * entry is KILN_E_USAGE (read it with kiln_pack_entry_read). Errors as kiln_pack_entry_read. */
KILN_API kiln_result kiln_pack_entry_view(const kiln_pack *p, uint32_t index, const uint8_t **data,
                                          kiln_error *err);

/* Checks every payload of a pack kiln_pack_open_memory accepted: stored checksum,
 * decompression to the declared size and its checksum, and that every padding byte between
 * payloads is zero. Allocates one buffer of the largest entry's size (alloc may be NULL: libc).
 * Errors: those of kiln_pack_entry_read (the first damaged entry, in payload order),
 * KILN_E_FORMAT_INVALID (non-zero padding), KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_pack_verify(const kiln_pack *p, const kiln_allocator *alloc,
                                      kiln_error *err);

/* ---- CPU transcoding to RGBA8 (block decoders shared by libkiln and libkiln_rt) ------------- */

/* For renderers that cannot sample a block format: decodes one level of `vk_format` blocks into
 * tightly packed RGBA8 texels, row by row, top row first (width * height * 4 bytes). Formats:
 * BC1 RGB (alpha 255), BC4 as (R, 0, 0, 255), BC5 as (R, G, 0, 255) (what GPUs return for
 * them; a BC5 normal map's shader rebuilds Z as it does when it samples BC5), BC7, ASTC 4x4 LDR
 * (UNORM: the value the LDR profile's FP16 result rounds to in 8 bits, bit-exact with
 * libastcenc's 8-bit decode; SRGB: the 8-bit value the profile hands to sRGB conversion; illegal
 * blocks and HDR content decode to opaque magenta, as the specification's LDR profile asks,
 * where libastcenc writes 254, 0, 254, 254 in UNORM; docs/textures-runtime.md), the formats
 * Basis textures are transcoded to (BC3; ETC2 RGB8 and RGBA8 in every mode; EAC R11 and RG11
 * as BC4 and BC5), and R8G8B8A8 UNORM/SRGB copied as is. The texels stay in the format's colour
 * space: upload an
 * *_SRGB source as R8G8B8A8_SRGB (kiln_transcode_rgba8_format). Blocks are read in row-major
 * order, ceil(width/4) x ceil(height/4) of them; texels of partial blocks past the right and
 * bottom edges are dropped. Does not allocate; thread-safe; every input byte pattern decodes.
 * Errors: KILN_E_IMPORT_UNSUPPORTED (another format, e.g. R16G16B16A16_SFLOAT),
 * KILN_E_USAGE (NULL pointer, zero width or height, rgba_size below width * height * 4),
 * KILN_E_FORMAT_INVALID (size below the bytes the level needs; more is ignored),
 * KILN_E_LIMIT (sizes that do not fit in size_t). */
KILN_API kiln_result kiln_transcode_rgba8(uint32_t vk_format, const uint8_t *blocks, size_t size,
                                          uint32_t width, uint32_t height, uint8_t *rgba,
                                          size_t rgba_size, kiln_error *err);

/* How kiln_transcode_rgba16f_srgb8 maps linear light to [0, 1]. */
typedef enum kiln_tonemap {
    KILN_TONEMAP_CLAMP = 0,    /* min(x, 1): values above 1 saturate */
    KILN_TONEMAP_REINHARD = 1, /* x / (1 + x): every value keeps its order, 1 reads as 0.5 */
} kiln_tonemap;

/* For pictures of HDR textures (thumbnails, reports), not for sampling: decodes one level of
 * R16G16B16A16_SFLOAT texels (8 bytes each: R, G, B, A as little-endian halves, row by row, top
 * row first) into tightly packed RGBA8 (width * height * 4 bytes) to show on an 8-bit display.
 * Colour is taken as linear light, multiplied by 2^exposure, mapped to [0, 1] by `tonemap`
 * (kiln_tonemap) and encoded with the sRGB transfer function (IEC 61966-2-1), so the texels are
 * R8G8B8A8_SRGB (what a PNG without colour chunks means). Alpha is clamped to [0, 1] and kept
 * linear. Negative values and NaN give 0, +infinity 255. Does not allocate; thread-safe; every
 * input byte pattern decodes. Errors: KILN_E_USAGE (NULL pointer, zero width or height, an
 * unknown tonemap, exposure not finite, rgba_size below width * height * 4),
 * KILN_E_FORMAT_INVALID (size below width * height * 8; more is ignored), KILN_E_LIMIT (sizes
 * that do not fit in size_t). */
KILN_API kiln_result kiln_transcode_rgba16f_srgb8(const uint8_t *texels, size_t size,
                                                  uint32_t width, uint32_t height, uint32_t tonemap,
                                                  float exposure, uint8_t *rgba, size_t rgba_size,
                                                  kiln_error *err);

/* The format of kiln_transcode_rgba8's output for `vk_format`: R8G8B8A8_SRGB for the *_SRGB
 * formats, R8G8B8A8_UNORM for the other formats it decodes, UNDEFINED for those it does not. */
KILN_API uint32_t kiln_transcode_rgba8_format(uint32_t vk_format);

/* For renderers that cannot sample an HDR format: decodes one level of `vk_format` into tightly
 * packed R16G16B16A16_SFLOAT texels (width * height * 8 bytes: R, G, B, A as little-endian
 * halves, row by row, top row first). Formats: BC6H_UFLOAT and BC6H_SFLOAT (bit-exact with the
 * specification's decoder; reserved modes decode to (0, 0, 0, 1)), E5B9G9R9_UFLOAT_PACK32 and
 * B10G11R11_UFLOAT_PACK32 (exact), and R16G16B16A16_SFLOAT copied as is; alpha is 1.0 where the
 * format has none. Blocks are read as kiln_transcode_rgba8 reads them. Does not allocate;
 * thread-safe; every input byte pattern decodes. Errors: KILN_E_IMPORT_UNSUPPORTED (another
 * format, ASTC HDR included), KILN_E_USAGE (NULL pointer, zero width or height, out_size below
 * width * height * 8), KILN_E_FORMAT_INVALID (size below the bytes the level needs),
 * KILN_E_LIMIT. */
KILN_API kiln_result kiln_transcode_rgba16f(uint32_t vk_format, const uint8_t *data, size_t size,
                                            uint32_t width, uint32_t height, uint8_t *out,
                                            size_t out_size, kiln_error *err);

/* R16G16B16A16_SFLOAT for the formats kiln_transcode_rgba16f decodes, UNDEFINED for others. */
KILN_API uint32_t kiln_transcode_rgba16f_format(uint32_t vk_format);

#ifdef __cplusplus
}
#endif
#endif
