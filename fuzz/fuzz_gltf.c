/* fuzz_gltf.c — libFuzzer target for the glTF importer: kiln_scene_load_memory over .gltf / .glb
 * bytes, without a folder (external URIs are refused; data URIs and the GLB BIN chunk work), and
 * kiln_gltf_dependencies (the cache key's file list) over the same bytes.
 * The first input byte picks options, the rest is the file: bit 0 KILN_SCENE_LOAD_NO_PIXELS,
 * bit 1 a 16 MiB memory limit instead of 256 MiB (so the limit paths run), bit 2 no normals and
 * tangents. A byte that is not a flag byte ('{', 'g', whitespace) is taken as part of the file
 * with the defaults, so plain .gltf/.glb seeds work unchanged.
 *
 * Checked: only documented result codes; *out NULL and an error message on failure; on success
 * every invariant of kiln_scene.h (scene_check.h). A violation aborts, so libFuzzer keeps it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/gltf_deps.h"
#include "kiln/kiln_scene.h"
#include "scene_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_gltf: %s: %s\n", what, detail);
    abort();
}

static kiln_result count_dep(void *user, const char *path, kiln_error *err)
{
    (void)path, (void)err;
    (*(size_t *)user)++;
    return KILN_OK;
}

/* The dependency lister reads the same bytes: a folder that does not exist, so nothing resolves
 * to a real file; any documented code will do. */
static void check_dependencies(const uint8_t *data, size_t size)
{
    size_t deps = 0;
    kiln_error err;
    kiln_result r =
        kiln_gltf_dependencies(data, size, "/nonexistent/kiln-fuzz", count_dep, &deps, &err);
    if (r == KILN_E_INTERNAL || r == KILN_E_USAGE || (unsigned)r > KILN_E_INTERNAL)
        die("kiln_gltf_dependencies", err.message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t opt = 0;
    /* Flag bytes are 0x00..0x07: never the start of JSON text or a GLB. */
    if (size && data[0] < 8) {
        opt = data[0];
        data++, size--;
    }
    kiln_scene_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.flags = (opt & 1) ? KILN_SCENE_LOAD_NO_PIXELS : 0;
    if (opt & 4) opts.flags |= KILN_SCENE_LOAD_NO_NORMALS | KILN_SCENE_LOAD_NO_TANGENTS;
    opts.memory_limit = (opt & 2) ? (size_t)16 << 20 : (size_t)256 << 20;
    check_dependencies(data, size);
    kiln_scene *scene = (kiln_scene *)(uintptr_t)1;
    kiln_error err;
    kiln_result r = kiln_scene_load_memory(data, size, NULL, &opts, &scene, &err);
    switch (r) {
    case KILN_OK: {
        if (!scene) die("success", "no scene");
        char why[256];
        const char *bad = kiln_scene_check(scene, opts.flags, why, sizeof why);
        if (bad) die("scene invariant", bad);
        kiln_scene_free(scene);
        break;
    }
    case KILN_E_IMPORT_FAILED:
    case KILN_E_IMPORT_UNSUPPORTED:
    case KILN_E_OUTPUT_REFUSED:
    case KILN_E_LIMIT:
    case KILN_E_OUT_OF_MEMORY:
        if (scene) die("error", "*out is not NULL");
        if (err.code != r || !err.message[0]) die("error record", kiln_result_name(r));
        break;
    default:
        /* KILN_E_ASSET_IO needs a folder, KILN_E_INTERNAL is a bug, the rest do not apply. */
        die(kiln_result_name(r), err.message);
    }
    return 0;
}
