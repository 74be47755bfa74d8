/* inspect.h — the documents of kiln_inspect_file (kiln.h): one builder per kind of file (source
 * images, KTX2 textures, models, kiln containers, packs), and for containers one summary per
 * cooked kind, looked up by fourcc. The members of every document are specified by
 * docs/schemas/inspect.schema.json; `kiln inspect` prints them (--json) or reads them back to
 * print text for people. Asset ids are strings "0x" + 16 hex digits (JSON numbers lose bits past
 * 2^53); indices that may be absent are null then. */
#ifndef KILN_PIPELINE_INSPECT_H
#define KILN_PIPELINE_INSPECT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* ---- one builder per kind of file ---------------------------------------------------------- */

/* A source image (PNG, JPEG, TGA, BMP, HDR, EXR): "type": "image", format, size, channels, bits,
 * pixel type, alpha. name is the file's name (a hint for formats told by extension). */
kiln_result kiln_inspect_image(const uint8_t *data, size_t size, const char *name, json_t **out,
                               kiln_error *err);

/* A KTX2 texture: "type": "ktx2", format, size, colour space, supercompression, levels; with
 * compare (an 8-bit image of the texture's size, or NULL) also "compare": the PSNR of level 0,
 * decoded by kiln's own block decoders, against that image. */
kiln_result kiln_inspect_ktx2(const uint8_t *data, size_t size, const char *compare, json_t **out,
                              kiln_error *err);

/* A model (glTF 2.0 / GLB, FBX, OBJ) loaded from path without pixels, normals or tangents
 * (inspect only counts): "type": "model", counts, lists. format ("gltf", "glb", "fbx" or "obj")
 * is what the caller recognised by content, as kiln_scene_load does. */
kiln_result kiln_inspect_model(const char *path, const char *format, json_t **out, kiln_error *err);

/* A pack's table of contents (kiln_pack_open_memory: the table and its checksum; payloads are
 * checked by kiln_pack_verify_file): "type": "pack", entries, kinds, sizes, shared payloads. */
kiln_result kiln_inspect_pack(const uint8_t *data, size_t size, json_t **out, kiln_error *err);

/* A kiln container: "type": "container", kind, versions, checksum, the section table and, for a
 * cooked kind kiln reads, that kind's summary (kiln_inspect_summary_find) under its member name.
 * A valid container of an unknown kind gets the section table only. */
kiln_result kiln_inspect_container(const uint8_t *data, size_t size, json_t **out, kiln_error *err);

/* Real numbers of container documents are float32 values: dump them with this many significant
 * digits (each float was stored as the shortest decimal that reads back as the same float). */
#define KILN_INSPECT_CONTAINER_REAL_PRECISION 9

/* ---- summaries of cooked kinds ------------------------------------------------------------- */

/* What one cooked kind says about a container of its kind: the bytes are the whole container
 * (the summary validates them through the kind's public reader). On success *out is a new JSON
 * object; on failure the reader's error. */
typedef kiln_result (*kiln_inspect_summary_fn)(const uint8_t *data, size_t size, json_t **out,
                                               kiln_error *err);

typedef struct kiln_inspect_summary {
    uint32_t kind;      /* the container's fourcc, KILN_MESH_KIND ... */
    const char *member; /* the document's member holding it: "mesh" ... */
    kiln_inspect_summary_fn summary;
} kiln_inspect_summary;

/* The summary of a kind, or NULL for a kind without one. */
const kiln_inspect_summary *kiln_inspect_summary_find(uint32_t kind);

kiln_result kiln_inspect_mesh(const uint8_t *data, size_t size, json_t **out, kiln_error *err);
kiln_result kiln_inspect_material(const uint8_t *data, size_t size, json_t **out, kiln_error *err);
kiln_result kiln_inspect_cooked_scene(const uint8_t *data, size_t size, json_t **out,
                                      kiln_error *err);
kiln_result kiln_inspect_skeleton(const uint8_t *data, size_t size, json_t **out, kiln_error *err);
kiln_result kiln_inspect_clip(const uint8_t *data, size_t size, json_t **out, kiln_error *err);

/* ---- JSON values the summaries share (inspect_json.c) -------------------------------------- */

/* A float as the shortest decimal that reads back as the same float (dumped with
 * KILN_INSPECT_CONTAINER_REAL_PRECISION digits it stays short: 0.8, not 0.800000012); null when
 * not finite. */
json_t *kiln_inspect_f32(float f);
json_t *kiln_inspect_f32s(const float *v, int n);  /* an array of n of them */
json_t *kiln_inspect_id(uint64_t id);              /* "0x" + 16 hex digits; null for 0 */
json_t *kiln_inspect_index(uint32_t i);            /* null for 0xFFFFFFFF (absent) */
json_t *kiln_inspect_str(const char *s, size_t n); /* n bytes of s; "" for NULL */
json_t *kiln_inspect_fourcc(uint32_t v);           /* "MESH", or "0x" + 8 hex digits */
json_t *kiln_inspect_bounds(const float *min, const float *max); /* {"min", "max"} */
/* names[v] for v < n, else "unknown". */
const char *kiln_inspect_name(uint32_t v, const char *const *names, uint32_t n);

#endif
