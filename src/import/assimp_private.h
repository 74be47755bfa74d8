/* assimp_private.h — what the parts of the assimp importer share: the job a child runs, the
 * blob it sends back, and the functions of each part (guard, read, blob reader, scene,
 * textures, anim).
 *
 * The blob exists only across the process boundary: the child (assimp_read.c) writes it, the
 * parent reads it into an assimp_doc (assimp_blob_read.c, as untrusted bytes) and builds the
 * scene from the doc (assimp_scene.c). kiln's own FBX 6 reader fills a doc directly.
 *
 * The blob (little-endian, version ASSIMP_BLOB_VERSION; strings are u32 length + bytes, floats
 * are f32, times f64; matrices 16 floats column-major):
 *   "KASB" u32 version, u32 format
 *   f64 unit_scale_factor (0: none) · i32 up, up_sign, front, front_sign, coord, coord_sign (-1:
 * none) u32 n, str warning[n]              what the child left out (cameras, lights, points, ...)
 *   u32 n, (str name, u32 found)[n]    every file assimp asked for besides the model itself
 *   u32 n, embedded[n]: str filename, str format_hint, u32 width, u32 height, u32 size, bytes
 *   u32 n, material[n]: str name, f32 base[4], f32 emissive[3], f32 opacity, f32 shininess,
 *                       f32 metallic, f32 roughness (< 0: absent), u32 flags (ASSIMP_MAT_*),
 *                       u32 t, (u32 ai_type, u32 uv, u32 mapmode | mapping << 8, str path)[t]
 *   u32 n, mesh[n]:     str name, u32 material, u32 vertices, u32 indices, u32 flags
 *                       (ASSIMP_MESH_*), u32 uv_sets, u32 color_sets, f32 pos[3v], f32 nrm[3v]?,
 *                       f32 tan[4v]?, f32 uv[2v][uv_sets], f32 rgba[4v][color_sets], u32 idx[],
 *                       u32 b, bone[b]: str name, f32 offset[16], u32 w, (u32 vertex, f32
 * weight)[w] u32 t, target[t]: str name, f32 weight, u32 flags, f32 dpos[3v]?, f32 dnrm[3v]? u32 n,
 * node[n] (parents first): str name, i32 parent, f32 matrix[16], u32 m, u32 mesh[m] u32 n, anim[n]:
 * str name, f64 duration (ticks), f64 ticks_per_second, u32 c, channel[c]: str node, (u32 k, (f64
 * t, f32 v[3|4|3])[k]) for T, R, S u32 c, morph[c]: str name, u32 k, (f64 t, u32 v, (u32 target,
 * f64 w)[v])[k] A failed child sends "KASE" u32 code, str message instead. */
#ifndef KILN_IMPORT_ASSIMP_PRIVATE_H
#define KILN_IMPORT_ASSIMP_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/reader.h"
#include "import/assimp.h"
#include "import/assimp_doc.h"
#include "import/scene_build.h"

#define ASSIMP_BLOB_MAGIC   0x4253414Bu /* "KASB" */
#define ASSIMP_ERROR_MAGIC  0x4553414Bu /* "KASE" */
#define ASSIMP_BLOB_VERSION 1u

#define ASSIMP_MESH_NORMALS     1u
#define ASSIMP_MESH_TANGENTS    2u
#define ASSIMP_TARGET_POSITIONS 1u
#define ASSIMP_TARGET_NORMALS   2u

/* Most bytes a file read for assimp (.mtl) or a texture may have. */
#define ASSIMP_MAX_FILE ((size_t)512 << 20)

/* What the child runs: the model's bytes and where its other files are. */
typedef struct assimp_job {
    const uint8_t *data;
    size_t size;
    kiln_assimp_format format;
    const char *base_dir; /* NULL: no other file is opened */
    bool skip_animations;
    const char *library; /* libassimp's file name for dlopen; NULL: libassimp.so.5 */
} assimp_job;

/* ---- assimp_guard.c: the child process ------------------------------------------------------- */

/* Runs kiln_assimp_child_main(job, fd) in a forked child limited to timeout_ms of wall time,
 * as much CPU time, child_memory bytes of address space (not under AddressSanitizer) and no
 * core file; reads what it writes to fd, at most max_bytes, into *out (size *out_size,
 * allocated *out_cap bytes from a). Errors: KILN_E_IMPORT_FAILED when the child crashed, was
 * killed or sent nothing whole, KILN_E_LIMIT past max_bytes, KILN_E_OUT_OF_MEMORY, or the error
 * the child itself sent. */
kiln_result kiln_assimp_guard_run(const assimp_job *job, uint32_t timeout_ms, size_t child_memory,
                                  size_t max_bytes, const kiln_allocator *a, uint8_t **out,
                                  size_t *out_size, size_t *out_cap, kiln_error *err);

/* ---- assimp_read.c: inside the child --------------------------------------------------------- */

/* Imports job's bytes with assimp and writes the blob (or an error blob) to fd. Returns the
 * child's exit status. Only ever called in the child: it may use libc's allocator freely, since
 * the whole process goes away. */
int kiln_assimp_child_main(const assimp_job *job, int fd);

/* ---- assimp_blob_read.c: the blob into a doc ------------------------------------------------- */

/* Reads the child's blob (untrusted: every count, string, index and reference checked) into
 * *doc. The arrays and strings the scene will keep ([scene] in assimp_doc.h) are allocated from
 * scene's arena, the rest of the doc from tmp (the caller releases it after the build);
 * embedded texture bytes point into blob. Errors: KILN_E_IMPORT_FAILED "assimp's result is
 * damaged at byte N (what)" or an index past its mesh's vertices, KILN_E_LIMIT,
 * KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_assimp_blob_read(const uint8_t *blob, size_t size, kiln_scene *scene,
                                  kiln_arena *tmp, assimp_doc *doc, kiln_error *err);

/* ---- assimp_scene.c: a doc into the scene ---------------------------------------------------- */

/* Builds scene (fresh, from kiln_scene_create) from doc: kiln's space, materials and their
 * textures (embedded, or looked up under base_dir), one primitive per doc mesh, skins, morph
 * targets and clips baked at opts->animation_fps. Keeps doc's [scene] memory and changes doc in
 * place (assimp_doc.h). Errors: KILN_E_IMPORT_FAILED, KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY; on
 * error the scene holds what was built. */
kiln_result kiln_assimp_build(assimp_doc *doc, const char *base_dir, const kiln_assimp_opts *opts,
                              uint32_t flags, kiln_scene *scene, kiln_error *err);

/* ---- assimp.c: the two together -------------------------------------------------------------- */

/* kiln_assimp_blob_read, then kiln_assimp_build: the child's blob into scene (the fuzz target
 * feeds blobs to it too). */
kiln_result kiln_assimp_build_blob(const uint8_t *blob, size_t size, const char *base_dir,
                                   const kiln_assimp_opts *opts, uint32_t flags, kiln_scene *scene,
                                   kiln_error *err);

/* ---- assimp_textures.c: texture files next to the model -------------------------------------- */

/* Called with each candidate file of a texture name, relative to the model's folder, most
 * preferred first; returning true stops the walk. */
typedef bool (*assimp_candidate_fn)(void *user, const char *rel);

/* The candidates of a stored texture name: the name as written (separators made '/', "./"
 * dropped) when it is a safe relative path, then its bare file name, then textures/<bare name>.
 * Absolute names and names with ".." give only the bare-name candidates. Returns how many
 * candidates were offered (0 for a name without a usable file name). */
uint32_t kiln_assimp_texture_candidates(const char *name, assimp_candidate_fn fn, void *user);

/* The image of a texture name: the first candidate that exists under base_dir is read (unless
 * KILN_SCENE_LOAD_NO_IMAGES) and every candidate up to it joins scene->files; none found is a
 * warning naming what was tried. img->uri is the candidate used, or the name as written. */
kiln_result kiln_assimp_texture_file(kiln_scene *scene, const char *base_dir, const char *name,
                                     uint32_t flags, kiln_scene_image *img, kiln_error *err);

/* ---- assimp_anim.c: baking
 * ------------------------------------------------------------------------ */

/* One animated property of a node as assimp keyed it: key_count times (seconds, ascending
 * after sorting by the caller) and 3 or 4 floats each. */
typedef struct assimp_keys {
    uint32_t count;
    const double *times;
    const float *values;
} assimp_keys;

/* Samples keys (count >= 1) at t, clamped to the ends: linear, or for rotations (4 components
 * x, y, z, w) spherical linear the shorter way round. */
void kiln_assimp_sample(const assimp_keys *k, uint32_t components, bool rotation, double t,
                        float *out);

/* The baked key count of a clip of `duration` seconds at fps: one key per frame and one at the
 * end. 0 when that passes limit. */
uint32_t kiln_assimp_bake_count(double duration, uint32_t fps, uint32_t limit);

/* Fills a channel of `count` keys at i / fps (the last at duration) sampled from keys into
 * arena memory; rotations are kept on one hemisphere (q and -q are the same turn, but a
 * renderer blending keys must not take the long way). false when memory runs out. */
bool kiln_assimp_bake(kiln_arena *a, const assimp_keys *keys, uint32_t components, bool rotation,
                      double duration, uint32_t fps, uint32_t count, kiln_scene_channel *out);

#endif
