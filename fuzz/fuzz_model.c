/* fuzz_model.c — libFuzzer target for the whole model cook over untrusted glTF bytes: the
 * importer, scene completion, then every processor and writer (meshes with LODs and meshlets,
 * materials, skeletons, clips with reduction, the scene) through kiln_cook_model_source, as
 * `kiln import` runs them — textures off (the image decoders have their own target), no folder
 * (external URIs are refused). The first byte picks settings when it is not part of the file:
 * bit 0 quantize off, bit 1 meshopt compression, bit 2 animation resampling at 30 fps.
 *
 * Checked: only documented result codes; on success every artifact passes its own reader (a
 * writer that wrote what its reader refuses aborts here). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/cook.h"
#include "pipeline/settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_artifact(const kiln_output *o)
{
    kiln_error err;
    if (strncmp(o->label, "image", 5) == 0) return; /* textures are off */
    kiln_container c;
    if (kiln_container_read(o->data, o->size, 0, &c, &err) != KILN_OK) {
        fprintf(stderr, "fuzz_model: %s is no container: %s\n", o->label, err.message);
        abort();
    }
    kiln_mesh_view mesh;
    kiln_material_view mat;
    kiln_skeleton_view skel;
    kiln_clip_view clip;
    kiln_cooked_scene_view scene;
    kiln_result r = KILN_E_INTERNAL;
    if (strncmp(o->label, "mesh", 4) == 0) r = kiln_mesh_read(o->data, o->size, 0, &mesh, &err);
    else if (strncmp(o->label, "material", 8) == 0)
        r = kiln_material_read(o->data, o->size, 0, &mat, &err);
    else if (strncmp(o->label, "skeleton", 8) == 0)
        r = kiln_skeleton_read(o->data, o->size, 0, &skel, &err);
    else if (strncmp(o->label, "clip", 4) == 0)
        r = kiln_clip_read(o->data, o->size, 0, &clip, &err);
    else if (strcmp(o->label, "scene") == 0)
        r = kiln_cooked_scene_read(o->data, o->size, 0, &scene, &err);
    if (r != KILN_OK) {
        fprintf(stderr, "fuzz_model: %s does not pass its reader: %s\n", o->label, err.message);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_settings s;
    kiln_settings_default(&s);
    s.model.textures = false;
    if (size > 0 && data[0] < 8) {
        if (data[0] & 1) s.model.quantize = false;
        if (data[0] & 2) s.model.compress_meshopt = true;
        if (data[0] & 4) s.model.animation_resample_fps = 30;
        data++, size--;
    }
    kiln_cook_env env = {.platform = "", .name = "fuzz.gltf"};
    kiln_cooked out;
    kiln_error err;
    kiln_result r = kiln_cook_model_source(&env, &s.model, "00000000000000000000000000000000", NULL,
                                           data, size, &out, &err);
    switch (r) {
    case KILN_OK:
        for (size_t i = 0; i < out.output_count; i++) check_artifact(&out.outputs[i]);
        kiln_cooked_release(NULL, &out);
        break;
    case KILN_E_IMPORT_FAILED:
    case KILN_E_IMPORT_UNSUPPORTED:
    case KILN_E_OUTPUT_REFUSED:
    case KILN_E_LIMIT:
    case KILN_E_OUT_OF_MEMORY:
    case KILN_E_ASSET_IO:
        if (!err.message[0]) abort();
        break;
    default:
        abort();
    }
    return 0;
}
