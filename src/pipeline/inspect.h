/* inspect.h — the documents of kiln_inspect_file (kiln.h): one builder per kind of file (source
 * images, KTX2 textures, models, kiln containers, packs). What a KTX2 file or a container of a
 * cooked kind holds is said by its cooked kind's describe() (kiln_kind.h), built-in or the
 * caller's, turned into jansson values here (inspect_json.c). The members of every document are
 * specified by docs/schemas/inspect.schema.json; `kiln inspect` prints them (--json) or reads them
 * back to print text for people. Asset ids are strings "0x" + 16 hex digits (JSON numbers lose bits
 * past 2^53); indices that may be absent are null then. */
#ifndef KILN_PIPELINE_INSPECT_H
#define KILN_PIPELINE_INSPECT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"

/* ---- one builder per kind of file ---------------------------------------------------------- */

/* A source image (PNG, JPEG, TGA, BMP, HDR, EXR): "type": "image", format, size, channels, bits,
 * pixel type, alpha. name is the file's name (a hint for formats told by extension). */
kiln_result kiln_inspect_image(const uint8_t *data, size_t size, const char *name, json_t **out,
                               kiln_error *err);

/* A KTX2 texture: "type": "ktx2" and what the texture kind describes (format, size, colour space,
 * supercompression, levels); with compare (an 8-bit image of the texture's size, or NULL) also
 * "compare": the PSNR of level 0, decoded by kiln's own block decoders, against that image. */
kiln_result kiln_inspect_ktx2(const uint8_t *data, size_t size, const char *compare, json_t **out,
                              kiln_error *err);

/* A model (glTF 2.0 / GLB, FBX, OBJ) loaded from path without pixels, normals or tangents
 * (inspect only counts): "type": "model", counts, lists. format ("gltf", "glb", "fbx" or "obj")
 * is what the caller recognised by content, as kiln_scene_load does. */
kiln_result kiln_inspect_model(const char *path, const char *format, json_t **out, kiln_error *err);

/* A pack's table of contents (kiln_pack_open_memory: the table and its checksum; payloads are
 * checked by kiln_pack_verify_file): "type": "pack", entries, kinds, sizes, shared payloads. */
kiln_result kiln_inspect_pack(const uint8_t *data, size_t size, json_t **out, kiln_error *err);

/* A kiln container: "type": "container", kind, versions, checksum, the section table and, when
 * its cooked kind (a built-in one, else one of kinds[0..kind_count)) has a describe(), that
 * kind's summary under the kind's name ("mesh": {...}), read through the kind's reader. A valid
 * container of another kind gets the section table only. */
kiln_result kiln_inspect_container(const uint8_t *data, size_t size,
                                   const kiln_cooked_kind *const *kinds, size_t kind_count,
                                   json_t **out, kiln_error *err);

/* A cache entry, read from its manifest.json at manifest_path (a folder `kiln model` wrote has
 * one too): "type": "entry", the folder, key, kind and pipeline version, the assets it belongs
 * to and every artifact (label, kind, file, size, asset id and name under the first asset).
 * assets: [{"path", "guid"}] of the assets whose records name this entry (a project knows them),
 * or NULL: then the manifest's own "path" and "guid" (written by `kiln model`), if any. Errors:
 * KILN_E_ASSET_IO, KILN_E_CACHE_CORRUPT (not a kiln manifest, a malformed output). */
kiln_result kiln_inspect_entry(const char *manifest_path, const json_t *assets, json_t **out,
                               kiln_error *err);

/* Real numbers of container documents are float32 values: dump them with this many significant
 * digits (each float was stored as the shortest decimal that reads back as the same float). */
#define KILN_INSPECT_CONTAINER_REAL_PRECISION 9

/* ---- the document of a path, and its text -------------------------------------------------- */

/* The caller's options, copied up to the size it says it knows. */
kiln_inspect_opts kiln_inspect_opts_copy(const kiln_inspect_opts *opts);

/* The document of the file (or cache entry) at path, without "command" and "file", and the
 * precision its reals are dumped with (0: jansson's default). entry_assets: as for
 * kiln_inspect_entry when path is an entry. */
kiln_result kiln_inspect_doc(const char *path, const kiln_inspect_opts *o,
                             const json_t *entry_assets, json_t **out, size_t *real_precision,
                             kiln_error *err);

/* Adds "command" and "file" to doc (stolen) and dumps it into *result_json. */
kiln_result kiln_inspect_finish(json_t *doc, const char *file, size_t precision, char **result_json,
                                kiln_error *err);

/* ---- JSON values the documents share (inspect_json.c) ------------------------------------- */

/* Runs kind->describe (not NULL) on view, adding the members it writes to the object into.
 * Errors: KILN_E_USAGE when the description was not well formed (kiln_describe_finish). */
kiln_result kiln_inspect_describe(const kiln_cooked_kind *kind, const void *view, json_t *into,
                                  kiln_error *err);
json_t *kiln_inspect_fourcc(uint32_t v); /* "MESH", or "0x" + 8 hex digits */

#endif
