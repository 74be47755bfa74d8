/* test_fbx_mutate.c — a deterministic mutation fuzz run over the corpus FBX and OBJ files: each
 * is imported many times with bytes flipped, runs overwritten, or the tail cut (xorshift, fixed
 * seed), through the guarded assimp import and the scene completion. Every run must end in
 * KILN_OK with a scene that keeps kiln_scene.h's promises, or in a documented error; assimp's
 * crashes and hangs count as contained when they come back as KILN_E_IMPORT_FAILED. The tally
 * is printed. Skips (77) when the corpus is absent. KILN_FBX_MUTATIONS sets the runs per file. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../fuzz/scene_check.h"
#include "import/assimp.h"
#include "import/scene_build.h"
#include "process/scene_complete.h"

static const char *const sources[] = {
    "fbx/assimp/box.fbx",
    "fbx/assimp/boxWithCompressedCTypeArray.FBX",
    "fbx/ufbx/maya_cube_7500_binary.fbx",
    "fbx/ufbx/maya_cube_7500_ascii.fbx",
    "fbx/ufbx/blender_279_sausage_7400_binary.fbx",
    "fbx/ufbx/maya_blend_shape_cube_7700_binary.fbx",
    "fbx/assimp/animation_with_skeleton.fbx",
    "obj/cube_usemtl/cube_usemtl.obj",
    "obj/blender_279_ball/blender_279_ball_0_obj.obj",
};

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void mutated_corpus_files_never_escape_the_guard(void **state)
{
    (void)state;
    const char *env = getenv("KILN_FBX_MUTATIONS");
    const char *san = getenv("KILN_TEST_SANITIZED");
    int runs = env ? atoi(env) : san && *san == '1' ? 8 : 40;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned ok = 0, failed = 0, crashed = 0, timed_out = 0, other = 0;
    for (size_t f = 0; f < sizeof sources / sizeof *sources; f++) {
        char *path = kt_corpus_path(sources[f]);
        size_t size;
        uint8_t *orig = kt_read_file(path, &size);
        if (!orig) fail_msg("cannot read %s", path);
        uint8_t *buf = malloc(size);
        for (int run = 0; run < runs; run++) {
            memcpy(buf, orig, size);
            size_t n = size;
            switch (next(&seed) % 3) {
            case 0: /* a few bytes flipped */
                for (int k = 0, c = 1 + (int)(next(&seed) % 8); k < c; k++)
                    buf[next(&seed) % n] ^= (uint8_t)(1u << (next(&seed) % 8));
                break;
            case 1: { /* a run overwritten with one value */
                size_t at = next(&seed) % n, len = 1 + next(&seed) % 64;
                if (len > n - at) len = n - at;
                memset(buf + at, (int)(next(&seed) & 0xFF), len);
                break;
            }
            default: /* the tail cut */
                n = 1 + next(&seed) % n;
            }
            kiln_scene *s;
            kiln_error err;
            assert_int_equal(kiln_scene_create(NULL, (size_t)512 << 20, &s, &err), KILN_OK);
            kiln_assimp_opts o = {0};
            o.timeout_ms = 10000;
            o.child_memory = (size_t)2 << 30;
            kiln_assimp_format fmt = kiln_assimp_detect(buf, n);
            if (fmt == KILN_ASSIMP_NONE)
                fmt = strstr(sources[f], ".obj") ? KILN_ASSIMP_OBJ : KILN_ASSIMP_FBX;
            kiln_result r =
                kiln_assimp_import(buf, n, fmt, NULL, &o, KILN_SCENE_LOAD_NO_PIXELS, s, &err);
            if (r == KILN_OK) r = kiln_scene_complete(s, KILN_SCENE_LOAD_NO_PIXELS, &err);
            if (r == KILN_OK) {
                char why[256];
                const char *bad = kiln_scene_check(s, KILN_SCENE_LOAD_NO_PIXELS, why, sizeof why);
                if (bad) fail_msg("%s run %d: %s", sources[f], run, bad);
                ok++;
            } else if (r == KILN_E_IMPORT_FAILED || r == KILN_E_IMPORT_UNSUPPORTED ||
                       r == KILN_E_LIMIT || r == KILN_E_OUT_OF_MEMORY) {
                if (!err.message[0]) fail_msg("%s run %d: no message", sources[f], run);
                failed++;
                crashed += strstr(err.message, "crashed") != NULL;
                timed_out += strstr(err.message, "did not finish") != NULL;
            } else {
                other++;
                fail_msg("%s run %d: %s (%s)", sources[f], run, kiln_result_name(r), err.message);
            }
            kiln_scene_free(s);
        }
        free(buf);
        free(orig);
        free(path);
    }
    printf("fbx mutations: %u runs: %u imported, %u refused (%u assimp crashes and %u hangs "
           "contained), %u other\n",
           ok + failed + other, ok, failed, crashed, timed_out, other);
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mutated_corpus_files_never_escape_the_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
