/* scene_load.c — kiln_scene_load: a model file through its importer (chosen by the file's
 * extension, which the importer confirms; by content only for other names: glTF, else FBX or OBJ
 * through assimp), then completed by the processors (normals, tangents, UV sets that textures
 * need). */
#include <string.h>

#include "core/alloc.h"
#include "core/file.h"
#include "core/path.h"
#include "import/assimp.h"
#include "import/gltf.h"
#include "import/model_format.h"
#include "import/scene_build.h"
#include "kiln/kiln_scene.h"
#include "pipeline/scene_load.h"
#include "process/scene_complete.h"

#define MAX_MODEL_FILE       ((size_t)2 << 30)
#define DEFAULT_MEMORY_LIMIT ((size_t)4 << 30)

static kiln_scene_opts resolve_opts(const kiln_scene_opts *opts)
{
    kiln_scene_opts o;
    memset(&o, 0, sizeof o);
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    if (!o.memory_limit) o.memory_limit = DEFAULT_MEMORY_LIMIT;
    return o;
}

kiln_result kiln_scene_load_model(const void *data, size_t size, const char *name,
                                  const char *base_dir, const kiln_scene_opts *opts,
                                  const kiln_assimp_opts *fbx, kiln_scene **out, kiln_error *err)
{
    kiln_error_clear(err);
    if (!out || (!data && size)) return kiln_error_set(err, KILN_E_USAGE, "no data or no output");
    *out = NULL;
    kiln_scene_opts o = resolve_opts(opts);
    kiln_model_format format = kiln_model_format_choose(name, data, size);
    if (format == KILN_MODEL_FORMAT_NONE)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "not a model kiln reads (glTF 2.0 .gltf or .glb, FBX, OBJ)");
    kiln_scene *scene;
    kiln_result r = kiln_scene_create(&o.allocator, o.memory_limit, &scene, err);
    if (r != KILN_OK) return r;
    /* The importer the name chose refuses bytes of another format itself, naming itself. */
    r = format == KILN_MODEL_FORMAT_GLTF
            ? kiln_gltf_import(data, size, base_dir, o.flags, scene, err)
            : kiln_assimp_import(data, size, kiln_model_format_assimp(format), base_dir, fbx,
                                 o.flags, scene, err);
    if (r != KILN_OK || (r = kiln_scene_complete(scene, o.flags, err)) != KILN_OK) {
        kiln_scene_free(scene);
        return r;
    }
    *out = scene;
    return KILN_OK;
}

void kiln_assimp_opts_from_settings(const kiln_fbx_settings *s, kiln_assimp_opts *out)
{
    memset(out, 0, sizeof *out);
    if (!s) return;
    out->scale = s->scale;
    out->up_axis = s->up_axis == KILN_UP_Y ? 1 : s->up_axis == KILN_UP_Z ? 2 : 0;
    out->skip_skins = !s->skins;
    out->skip_animations = !s->animations;
    out->animation_fps = s->animation_fps;
}

KILN_API kiln_result kiln_scene_load_memory(const void *data, size_t size, const char *base_dir,
                                            const kiln_scene_opts *opts, kiln_scene **out,
                                            kiln_error *err)
{
    return kiln_scene_load_model(data, size, NULL, base_dir, opts, NULL, out, err);
}

KILN_API kiln_result kiln_scene_load(const char *path, const kiln_scene_opts *opts,
                                     kiln_scene **out, kiln_error *err)
{
    kiln_error_clear(err);
    if (!out || !path) return kiln_error_set(err, KILN_E_USAGE, "no path or no output");
    *out = NULL;
    kiln_mapped_file file;
    kiln_result r = kiln_file_map(path, MAX_MODEL_FILE, &file, err);
    if (r != KILN_OK) return r;
    char dir[KILN_PATH_MAX];
    if (!kiln_path_dirname(path, dir, sizeof dir)) {
        kiln_file_unmap(&file);
        return kiln_error_set(err, KILN_E_LIMIT, "path too long");
    }
    r = kiln_scene_load_model(file.data, file.size, path, dir, opts, NULL, out, err);
    kiln_file_unmap(&file);
    if (r != KILN_OK && err && !err->path[0]) kiln_error_at_path(err, path);
    return r;
}
