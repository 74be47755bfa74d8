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
#define KILN_VERSION_NUMBER (KILN_VERSION_MAJOR * 10000 + KILN_VERSION_MINOR * 100 + KILN_VERSION_PATCH)

/* Part of every cache key and of the KTXwriter value: bumped by every change that alters the
 * bytes of any cooked output, so an old cache entry is never mistaken for a new one. */
#define KILN_PIPELINE_VERSION 2

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
    KILN_E_LIMIT = 8,              /* a size, count or memory limit was exceeded */
    KILN_E_CACHE_CORRUPT = 9,      /* a cache entry or manifest does not match its bytes */
    KILN_E_FORMAT_INVALID = 10,    /* cooked bytes (KTX2, container) are malformed */
    KILN_E_USAGE = 11,             /* bad arguments to a function or the command */
    KILN_E_INTERNAL = 12,          /* a check of kiln's own invariants failed: a bug */
} kiln_result;

/* Caller-owned, fixed size: filling it never allocates. */
typedef struct kiln_error {
    kiln_result code;
    char message[256];       /* what went wrong, e.g. "level 2: byteOffset is past the end" */
    char path[512];          /* the file concerned, "" if none */
    uint64_t offset;         /* byte offset in that file, UINT64_MAX if unknown */
    char json_pointer[128];  /* "/import/texture/format" for JSON sources, "" if none */
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
    KILN_VK_FORMAT_R16G16B16A16_SFLOAT = 97,
    KILN_VK_FORMAT_BC1_RGB_UNORM_BLOCK = 131,
    KILN_VK_FORMAT_BC1_RGB_SRGB_BLOCK = 132,
    KILN_VK_FORMAT_BC4_UNORM_BLOCK = 139,
    KILN_VK_FORMAT_BC5_UNORM_BLOCK = 141,
    KILN_VK_FORMAT_BC7_UNORM_BLOCK = 145,
    KILN_VK_FORMAT_BC7_SRGB_BLOCK = 146,
    KILN_VK_FORMAT_ASTC_4x4_UNORM_BLOCK = 157,
    KILN_VK_FORMAT_ASTC_4x4_SRGB_BLOCK = 158,
} kiln_vk_format;

#define KILN_KTX2_MAX_LEVELS 16

typedef enum kiln_ktx2_supercompression {
    KILN_KTX2_SUPERCOMPRESSION_NONE = 0,
    KILN_KTX2_SUPERCOMPRESSION_ZSTD = 2,
} kiln_ktx2_supercompression;

/* One mip level as stored in the file (level 0 is the largest). */
typedef struct kiln_ktx2_level {
    const uint8_t *data;       /* points into the file bytes given to kiln_ktx2_read */
    size_t size;               /* stored (possibly supercompressed) byte size */
    size_t uncompressed_size;  /* byte size after supercompression is undone */
    uint32_t width, height;    /* texels of this level */
} kiln_ktx2_level;

/* What kiln_ktx2_read found. Views into the caller's bytes: valid while they are. */
typedef struct kiln_ktx2_info {
    uint32_t vk_format;          /* kiln_vk_format */
    uint32_t type_size;
    uint32_t width, height;      /* level 0 */
    uint32_t level_count;        /* >= 1 */
    uint32_t supercompression;   /* kiln_ktx2_supercompression */
    bool srgb;                   /* from the DFD transfer function */
    bool premultiplied;          /* from the DFD flags */
    uint32_t block_width, block_height, block_size;  /* 1x1 and texel size for RGBA8/RGBA16F */
    kiln_ktx2_level levels[KILN_KTX2_MAX_LEVELS];
    const uint8_t *kv_data;      /* key/value data, kv_size bytes */
    size_t kv_size;
    char orientation[8];         /* KTXorientation, "" if absent */
    char writer[128];            /* KTXwriter, "" if absent */
} kiln_ktx2_info;

/* Parses and validates a KTX2 file held in memory: header, indices, every level's offset and
 * size against the file and against what the format and dimensions imply, the DFD, key/value
 * data. Only 2D, non-array, non-cubemap textures of the formats above are accepted, at most
 * 32768 texels a side. Does not allocate. Errors: KILN_E_FORMAT_INVALID (malformed;
 * err->offset says where), KILN_E_IMPORT_UNSUPPORTED (a valid file kiln does not read, e.g. 3D
 * or another vkFormat), KILN_E_LIMIT (wider or taller than 32768), KILN_E_USAGE (NULL out). */
KILN_API kiln_result kiln_ktx2_read(const void *data, size_t size, kiln_ktx2_info *out,
                                    kiln_error *err);

/* Copies level `level` into dst (uncompressed_size bytes), undoing Zstandard supercompression.
 * Errors: KILN_E_USAGE (bad level or dst too small), KILN_E_FORMAT_INVALID (zstd data damaged
 * or of the wrong length). */
KILN_API kiln_result kiln_ktx2_level_copy(const kiln_ktx2_info *info, uint32_t level, void *dst,
                                          size_t dst_size, kiln_error *err);


/* ---- asset ids ------------------------------------------------------------------------------ */

/* The 64-bit id of an artifact: XXH3-64 (seed 0) of the bytes "<guid>#<label>", guid being the
 * asset's 32 lowercase hex digits and label the artifact's ("mesh0/prim1", "material2",
 * "texture"). Cooked files refer to each other by these ids; the runtime looks them up. */
KILN_API uint64_t kiln_asset_id(const char *guid, const char *label);

/* ---- the kiln container --------------------------------------------------------------------- */

/* Every cooked kind except textures is one container: a 64-byte header, a table of sections,
 * then the sections, each 16-byte aligned, so a reader validates the file once and then uses it
 * in place (mmap) without copying. docs/formats.md gives the bytes. */
#define KILN_CONTAINER_VERSION 1
#define KILN_CONTAINER_HEADER_SIZE 64
#define KILN_CONTAINER_SECTION_SIZE 32
#define KILN_CONTAINER_MAX_SECTIONS 256
#define KILN_CONTAINER_ALIGN 16

/* Four-character codes, stored little-endian: KILN_FOURCC('M','E','S','H') reads "MESH". */
#define KILN_FOURCC(a, b, c, d)                                                                   \
    ((uint32_t)(uint8_t)(a) | ((uint32_t)(uint8_t)(b) << 8) | ((uint32_t)(uint8_t)(c) << 16) |   \
     ((uint32_t)(uint8_t)(d) << 24))

typedef struct kiln_container_section {
    uint32_t id;             /* fourcc */
    uint32_t element_size;   /* bytes of one element; 1 for plain bytes */
    uint64_t count;          /* elements */
    const uint8_t *data;     /* count * element_size bytes inside the file, 16-byte aligned */
    size_t size;
} kiln_container_section;

/* A validated container: views into the caller's bytes, valid while they are. */
typedef struct kiln_container {
    uint32_t kind;           /* fourcc of the cooked kind ("MESH", "MATL", ...) */
    uint32_t kind_version;   /* the layout version of that kind */
    uint32_t section_count;
    const uint8_t *bytes;    /* the whole file */
    size_t size;
} kiln_container;

enum {
    KILN_CONTAINER_SKIP_CHECKSUM = 1u << 0,  /* trust the bytes (verified elsewhere) */
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

#ifdef __cplusplus
}
#endif
#endif
