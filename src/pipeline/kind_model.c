/* kind_model.c — the model source kind: glTF 2.0 (.gltf, .glb) read by kiln's importer, FBX and
 * OBJ read by assimp in a guarded child (told apart by content, not by name), cooked into
 * meshes, materials, images, skeletons, clips and a scene (cook_model.c) with the import.model
 * settings, and import.fbx for what only FBX and OBJ need. */
#include <string.h>

#include "core/error.h"
#include "core/path.h"
#include "import/assimp.h"
#include "import/gltf.h"
#include "import/gltf_deps.h"
#include "pipeline/cook.h"
#include "pipeline/scene_load.h"
#include "pipeline/source_kind.h"

static const char *const extensions[] = {"gltf", "glb", "fbx", "obj", NULL};

static json_t *settings_json(const kiln_asset *a)
{
    json_t *j = json_object();
    json_object_set_new(j, "model", kiln_model_settings_json(&a->settings.model));
    json_object_set_new(j, "fbx", kiln_fbx_settings_json(&a->settings.fbx));
    return j;
}

static bool target_dependent(const kiln_asset *a)
{
    return a->settings.model.textures && a->settings.model.texture_format == KILN_TEXFMT_AUTO;
}

/* A glTF names its buffers and images; an FBX or OBJ its .mtl and texture files, as assimp
 * looks for them. */
static kiln_result dependencies(const kiln_asset *a, const uint8_t *source, size_t size,
                                const char *dir, kiln_dep_fn fn, void *user, kiln_error *err)
{
    kiln_assimp_format other =
        kiln_gltf_detect(source, size) ? KILN_ASSIMP_NONE : kiln_assimp_detect(source, size);
    if (other == KILN_ASSIMP_NONE) return kiln_gltf_dependencies(source, size, dir, fn, user, err);
    kiln_assimp_opts o;
    kiln_assimp_opts_from_settings(&a->settings.fbx, &o);
    return kiln_assimp_dependencies(source, size, other, dir, &o, fn, user, err);
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    kiln_cook_env env = {&p->allocator, p->jobs, p->platform, a->rel};
    char dir[KILN_PATH_MAX];
    if (!kiln_path_dirname(a->abs, dir, sizeof dir))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", a->rel);
    return kiln_cook_model_source_fbx(&env, &a->settings.model, &a->settings.fbx, a->guid, dir,
                                      source, size, out, err);
}

const kiln_source_kind kiln_source_kind_model = {
    .name = "model",
    .extensions = extensions,
    .settings_json = settings_json,
    .target_dependent = target_dependent,
    .key_has_guid = true,
    .dependencies = dependencies,
    .check_settings = NULL,
    .cook = cook,
};
