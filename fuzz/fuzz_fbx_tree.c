/* fuzz_fbx_tree.c — libFuzzer target for kiln's own FBX reader: the node tree (fbx_tree.c, binary
 * and ASCII) and FBX 6.x into a scene (fbx_legacy.c), which runs in kiln's process, unguarded.
 * Whatever parses is walked with the lookup helpers, then imported as FBX 6 content whatever its
 * version (kiln_fbx_legacy_import_tree), given to the FBX 7 blend shape reader (fbx_blend.c),
 * completed and checked (scene_check.h). The input's
 * length picks the memory limit (64 KiB when a multiple of 4, else 256 MiB), so the limit
 * paths are reached too.
 *
 * Seeds in fuzz/corpus/fbx_tree are written by tests/fbx/test_fbx_legacy.c
 * (KILN_WRITE_FUZZ_SEEDS=1): kiln's own small FBX 6 file as ASCII, binary 6100 (raw and zlib
 * arrays) and 7500 (64-bit records), a skinned FBX 6 file, and an FBX 7.4 blend shape file
 * (ASCII and binary). Checked: only documented result codes, a message on every
 * error, every scene invariant; a violation aborts, so libFuzzer keeps the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/fbx_blend.h"
#include "import/fbx_legacy.h"
#include "import/fbx_tree.h"
#include "import/scene_build.h"
#include "kiln/kiln_scene.h"
#include "process/scene_complete.h"
#include "scene_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_fbx_tree: %s: %s\n", what, detail);
    abort();
}

static void check_error(kiln_result r, const kiln_error *err)
{
    if (r != KILN_E_IMPORT_FAILED && r != KILN_E_IMPORT_UNSUPPORTED && r != KILN_E_LIMIT &&
        r != KILN_E_OUT_OF_MEMORY)
        die("undocumented result", kiln_result_name(r));
    if (!err->message[0]) die("no message", kiln_result_name(r));
}

/* Every lookup on every node: values as numbers, strings and lists, properties. */
static uint64_t walk(const kiln_fbx_node *n, uint32_t depth)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n->prop_count; i++) {
        double d;
        int64_t v;
        size_t len;
        sum += kiln_fbx_number(n, i, &d) + kiln_fbx_integer(n, i, &v);
        const char *s = kiln_fbx_string(n, i, &len);
        if (s) sum += strlen(kiln_fbx_object_name(s, len + 1, NULL));
    }
    kiln_fbx_values vals;
    if (kiln_fbx_values_of(n, &vals) && vals.count)
        sum += (uint64_t)kiln_fbx_values_i64(&vals, vals.count - 1) +
               (kiln_fbx_values_f64(&vals, 0) > 0);
    sum += kiln_fbx_property(n, "Lcl Translation", NULL) != NULL;
    for (uint32_t i = 0; i < n->child_count; i++) sum += walk(&n->children[i], depth + 1);
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t limit = size % 4 == 0 ? (size_t)64 << 10 : (size_t)256 << 20;
    kiln_fbx_limits lim = {limit, 0, 0};
    kiln_fbx_tree tree;
    kiln_error err;
    kiln_result r = kiln_fbx_tree_parse(data, size, NULL, &lim, &tree, &err);
    if (r != KILN_OK) {
        check_error(r, &err);
        kiln_fbx_tree_free(&tree);
        return 0;
    }
    volatile uint64_t sink = walk(&tree.root, 0);
    (void)sink;
    kiln_scene *scene;
    if (kiln_scene_create(NULL, limit, &scene, &err) != KILN_OK) {
        kiln_fbx_tree_free(&tree);
        return 0;
    }
    uint32_t flags = KILN_SCENE_LOAD_NO_PIXELS;
    r = kiln_fbx_legacy_import_tree(&tree, NULL, NULL, flags, scene, &err);
    /* The FBX 7 blend shape reader over the same bytes, onto whatever scene came out. */
    if (r == KILN_OK) r = kiln_fbx_blend_shapes(data, size, NULL, scene, &err);
    if (r == KILN_OK) r = kiln_scene_complete(scene, flags, &err);
    if (r != KILN_OK) {
        check_error(r, &err);
    } else {
        char why[256];
        const char *bad = kiln_scene_check(scene, flags, why, sizeof why);
        if (bad) die("scene invariant", bad);
    }
    kiln_scene_free(scene);
    kiln_fbx_tree_free(&tree);
    return 0;
}
