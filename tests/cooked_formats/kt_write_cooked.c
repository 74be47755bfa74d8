/* kt_write_cooked.c — writes the fixture's cooked files for the CLI cases (tests/cli/
 * inspect_cooked_*.sh): kt_write_cooked OUTDIR makes painted.matl (material 0), flat.matl
 * (material 1), default.matl (glTF's default material), demo.scen (two roots: a synthetic root),
 * one_root.scen, and tri.mesh (mesh 0 primitive 0 with the default mesh options). Exit 0, or 1
 * with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cooked_fixture.h"
#include "core/alloc.h"
#include "process/mesh.h"
#include "write/mesh_write.h"

static int put(const char *dir, const char *name, uint8_t *bytes, size_t size)
{
    if (!bytes) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(bytes, 1, size, f) != size;
    if (f && fclose(f)) bad = 1;
    if (bad) fprintf(stderr, "kt_write_cooked: cannot write %s\n", path);
    free(bytes);
    return bad;
}

/* Mesh 0 primitive 0 of the fixture, cooked with the default options; malloc'd. */
static uint8_t *mesh_bytes(size_t *size)
{
    kiln_scene *scene = kt_fixture_scene(false);
    if (!scene) return NULL;
    kiln_mesh_build_opts opts;
    kiln_mesh_build_opts_default(&opts);
    opts.material = kiln_asset_id(KT_FIXTURE_GUID, "material0");
    kiln_cooked_mesh m;
    kiln_error err;
    uint8_t *out = NULL, *copy = NULL;
    if (kiln_mesh_build(&scene->meshes[0].primitives[0], &opts, NULL, &m, &err) != KILN_OK ||
        kiln_mesh_write(&m, NULL, &out, size, &err) != KILN_OK)
        fprintf(stderr, "kt_write_cooked: mesh: %s\n", err.message);
    else if ((copy = malloc(*size))) memcpy(copy, out, *size);
    kiln_free(NULL, out, *size);
    kiln_cooked_mesh_free(&m);
    kiln_scene_free(scene);
    return copy;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kt_write_cooked OUTDIR\n");
        return 2;
    }
    static const char *const names[] = {"painted.matl", "flat.matl",     "default.matl",
                                        "demo.scen",    "one_root.scen", "tri.mesh"};
    int bad = 0;
    for (int k = 0; k < 6; k++) {
        size_t size = 0;
        uint8_t *bytes = k < 3   ? kt_fixture_material_bytes(k == 2 ? -1 : k, &size)
                         : k < 5 ? kt_fixture_scene_bytes(k == 4, &size)
                                 : mesh_bytes(&size);
        bad |= put(argv[1], names[k], bytes, size);
    }
    return bad;
}
