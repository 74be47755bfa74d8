/* fuzz_fbx.c — libFuzzer target for the FBX and OBJ importer: the guarded assimp import
 * (src/import/assimp_*.c) over the input bytes, without a folder (no .mtl or texture is read),
 * then the scene completion. Inputs that are neither FBX nor OBJ by content are given to assimp
 * as FBX, so mutated binary headers still reach its reader. assimp runs in a child process with
 * a 5 s timeout: a crash or hang there must come back as KILN_E_IMPORT_FAILED, and libFuzzer
 * only ever sees kiln's own code fail.
 *
 * libFuzzer sees no coverage from the child, so an input that starts with the blob's magic
 * ("KASB", assimp_private.h) goes straight to the parent's side (kiln_assimp_build_blob): the
 * blob reader (assimp_blob_read.c) and the build of its doc into a scene (assimp_scene.c), the
 * code that turns whatever the child sent into a scene; the blob_*.kasb seeds are real blobs
 * (tests/fbx with KILN_WRITE_FUZZ_SEEDS=1). The input's length picks the up axis.
 *
 * Checked: only documented result codes; an error message on failure; on success every
 * invariant of kiln_scene.h (scene_check.h). A violation aborts, so libFuzzer keeps it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/assimp.h"
#include "import/assimp_private.h"
#include "import/scene_build.h"
#include "kiln/kiln_scene.h"
#include "process/scene_complete.h"
#include "scene_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_fbx: %s: %s\n", what, detail);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_assimp_format f = kiln_assimp_detect(data, size);
    if (f == KILN_ASSIMP_NONE) f = KILN_ASSIMP_FBX;
    kiln_scene *scene;
    kiln_error err;
    if (kiln_scene_create(NULL, (size_t)256 << 20, &scene, &err) != KILN_OK) return 0;
    kiln_assimp_opts o = {0};
    o.timeout_ms = 5000;
    o.child_memory = (size_t)1 << 30;
    uint32_t flags = KILN_SCENE_LOAD_NO_PIXELS;
    kiln_result r;
    if (size >= 4 && !memcmp(data, "KASB", 4)) {
        o.animation_fps = 30;
        o.up_axis = (int)(size % 3);
        r = kiln_assimp_build_blob(data, size, NULL, &o, flags, scene, &err);
    } else {
        r = kiln_assimp_import(data, size, f, NULL, &o, flags, scene, &err);
    }
    if (r == KILN_OK) r = kiln_scene_complete(scene, flags, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_IMPORT_FAILED && r != KILN_E_IMPORT_UNSUPPORTED && r != KILN_E_LIMIT &&
            r != KILN_E_OUT_OF_MEMORY)
            die("undocumented result", kiln_result_name(r));
        if (!err.message[0]) die("no message", kiln_result_name(r));
    } else {
        char why[256];
        const char *bad = kiln_scene_check(scene, flags, why, sizeof why);
        if (bad) die("scene invariant", bad);
    }
    kiln_scene_free(scene);
    return 0;
}
