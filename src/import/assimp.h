/* assimp.h — FBX and OBJ (+MTL) into a kiln_scene through Debian's libassimp (C API).
 *
 * assimp runs in a forked child process with a wall-clock timeout and CPU, address-space and
 * core-dump limits; the child sends its result back as a small serialized blob through a pipe
 * (assimp_private.h), which the parent reads as untrusted bytes. A crash, hang or allocation storm
 * inside assimp is then KILN_E_IMPORT_FAILED, never a crash of kiln. */
#ifndef KILN_IMPORT_ASSIMP_H
#define KILN_IMPORT_ASSIMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/gltf_deps.h"
#include "kiln/kiln_scene.h"

typedef enum kiln_assimp_format {
    KILN_ASSIMP_NONE = 0,
    KILN_ASSIMP_FBX =
        1, /* binary (6.x/7.x) or ASCII FBX; assimp reads 7.x, kiln's own reader 6.x */
    KILN_ASSIMP_OBJ = 2, /* Wavefront OBJ; its .mtl files are read next to it */
} kiln_assimp_format;

/* Import options; `= {0}` gives the documented defaults (import.fbx in docs/settings.md). */
typedef struct kiln_assimp_opts {
    double scale;           /* on top of the file's unit in metres; 0 = 1 */
    int up_axis;            /* 0 auto (the FBX header; OBJ: +Y), 1 = +Y up, 2 = +Z up */
    bool skip_skins;        /* import.fbx.skins false: no skins, joints or weights */
    bool skip_animations;   /* import.fbx.animations false: no clips */
    uint32_t animation_fps; /* bake rate, 1..240; 0 = 30 */
    uint32_t timeout_ms;    /* the child's wall-clock limit; 0 = by the model's size
                             * (kiln_assimp_default_timeout_ms) */
    size_t child_memory;    /* the child's address-space limit; 0 = 8 GiB */
    const char *library;    /* libassimp as dlopen finds it; NULL = "libassimp.so.5" (tests
                             * name a missing one) */
} kiln_assimp_opts;

/* The format of data by content, for a file whose name does not say (model_format.h): the
 * binary FBX magic, ASCII FBX text ("; FBX" or an FBXHeaderExtension near the start), or text
 * (NUL bytes at the very end are padding) whose first statement is an OBJ keyword.
 * KILN_ASSIMP_NONE for anything else (glTF is detected before this is asked). */
kiln_assimp_format kiln_assimp_detect(const void *data, size_t size);

/* Do the bytes a file name chose format for agree with it? KILN_OK, or KILN_E_IMPORT_UNSUPPORTED
 * "not an OBJ file: ..." / "not an FBX file: ..." saying why: the bytes are another format kiln
 * knows (named), or an FBX has neither header, or an OBJ's first statement (past blank and
 * comment lines) is not a keyword followed by a blank. Only evidence refutes: what follows the
 * first statement of an OBJ (trailing NULs, junk) is for assimp to judge. kiln_assimp_import
 * asks this first. */
kiln_result kiln_assimp_confirm(const void *data, size_t size, kiln_assimp_format format,
                                kiln_error *err);

/* "FBX" or "OBJ" ("unknown" for KILN_ASSIMP_NONE). */
const char *kiln_assimp_format_name(kiln_assimp_format f);

/* The child's deadline when kiln_assimp_opts.timeout_ms is 0, for a model of size bytes: 10 s
 * plus 1 s per MiB, at most 30 min (assimp.c says why). */
uint32_t kiln_assimp_default_timeout_ms(size_t size);

/* Imports data (borrowed for the call) into scene (fresh, from kiln_scene_create): nodes,
 * meshes, materials, textures found next to the model (assimp_textures.c), skins and baked
 * clips, in kiln's space (right-handed, +Y up, metres). base_dir: the model's folder, where
 * .mtl files and textures are read (NULL: none are read, each is a warning). flags:
 * KILN_SCENE_LOAD_*. Every file read or looked for is in scene->files; what is not imported is
 * in scene->warnings. FBX 6.x (version < 7000) is read by kiln's own reader in this process
 * instead (fbx_legacy.h), and blend shapes assimp drops from FBX 7 files are added by it
 * (fbx_blend.h). Errors: KILN_E_IMPORT_FAILED (assimp refused the file, crashed or timed
 * out: the message says which), KILN_E_IMPORT_UNSUPPORTED (bytes that are not format, as
 * kiln_assimp_confirm says; an FBX version assimp lacks; libassimp cannot be loaded: kiln loads it
 * only in the child, never links it), KILN_E_LIMIT, KILN_E_OUT_OF_MEMORY. On error the scene holds
 * what was built: free it. */
kiln_result kiln_assimp_import(const void *data, size_t size, kiln_assimp_format format,
                               const char *base_dir, const kiln_assimp_opts *opts, uint32_t flags,
                               kiln_scene *scene, kiln_error *err);

/* The files a model reads (each .mtl assimp opens, each texture candidate path), absolute under
 * base_dir, reported once each in first-use order, for the cache key. Runs the guarded import
 * (the texture names are only known once the file is parsed). Errors as kiln_assimp_import, or
 * fn's. */
kiln_result kiln_assimp_dependencies(const void *data, size_t size, kiln_assimp_format format,
                                     const char *base_dir, const kiln_assimp_opts *opts,
                                     kiln_gltf_dep_fn fn, void *user, kiln_error *err);

#endif
