/* inspect_model.c — the inspect document of a model (inspect.h): what a glTF 2.0 / GLB file
 * declares, or what kiln imports from an FBX or OBJ file (through assimp, in kiln's space).
 *
 * Counts are the file's, not the cook's: primitives, vertices and triangles come from
 * kiln_scene_stats (every mode; strips and fans n - 2; points and lines no triangles; meshes
 * counted once however many nodes draw them), the rest are the lengths of the scene's arrays,
 * which hold one entry per entry of the file's. */
#include "pipeline/inspect.h"

#include <math.h>

#include "kiln/kiln_scene.h"

/* A number, or null for what JSON cannot hold (a world transform may overflow to infinity). */
static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *count(uint64_t n)
{
    return json_integer(n > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)n);
}

static json_t *strings(const char *const *list, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++) json_array_append_new(a, json_string(list[i] ? list[i] : ""));
    return a;
}

static json_t *vec3(const float v[3])
{
    json_t *a = json_array();
    for (int i = 0; i < 3; i++) json_array_append_new(a, number(v[i]));
    return a;
}

static json_t *animations(const kiln_scene *s)
{
    json_t *anims = json_array();
    for (uint32_t i = 0; i < s->animation_count; i++) {
        const kiln_scene_animation *a = &s->animations[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(a->name ? a->name : ""));
        json_object_set_new(o, "channels", count(a->channel_count));
        json_object_set_new(o, "start", number(a->start));
        json_object_set_new(o, "end", number(a->end));
        json_object_set_new(o, "duration", number((double)a->end - (double)a->start));
        json_array_append_new(anims, o);
    }
    return anims;
}

static json_t *describe(const kiln_scene *s, const char *format)
{
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("model"));
    json_object_set_new(j, "format", json_string(format));
    json_object_set_new(j, "generator", json_string(s->generator ? s->generator : ""));
    json_object_set_new(j, "nodes", count(s->node_count));
    json_object_set_new(j, "meshes", count(s->mesh_count));
    json_object_set_new(j, "primitives", count(s->stats.primitives));
    json_object_set_new(j, "dropped_primitives", count(s->stats.dropped_primitives));
    json_object_set_new(j, "vertices", count(s->stats.vertices));
    json_object_set_new(j, "triangles", count(s->stats.triangles));
    json_object_set_new(j, "materials", count(s->material_count));
    json_object_set_new(j, "textures", count(s->texture_count));
    json_object_set_new(j, "images", count(s->image_count));
    json_object_set_new(j, "samplers", count(s->sampler_count));
    json_object_set_new(j, "skins", count(s->skin_count));
    json_object_set_new(j, "joints", count(s->stats.joints));
    json_object_set_new(j, "animations", count(s->animation_count));
    json_object_set_new(j, "cameras", count(s->camera_count));
    json_object_set_new(j, "lights", count(s->light_count));
    json_object_set_new(j, "scenes", count(s->scene_count));
    json_object_set_new(j, "default_scene",
                        s->default_scene >= 0 ? json_integer(s->default_scene) : json_null());
    json_object_set_new(j, "roots", count(s->root_count));
    json_object_set_new(j, "animation_list", animations(s));
    if (s->has_bounds) {
        json_t *b = json_object();
        json_object_set_new(b, "min", vec3(s->bounds_min));
        json_object_set_new(b, "max", vec3(s->bounds_max));
        json_object_set_new(j, "bounds", b);
    } else {
        json_object_set_new(j, "bounds", json_null());
    }
    json_object_set_new(j, "extensions_used",
                        strings(s->extensions_used, s->extensions_used_count));
    json_object_set_new(j, "extensions_required",
                        strings(s->extensions_required, s->extensions_required_count));
    json_object_set_new(j, "files", strings(s->files, s->file_count));
    json_object_set_new(j, "warnings", strings(s->warnings, s->warning_count));
    return j;
}

kiln_result kiln_inspect_model(const char *path, const char *format, json_t **out, kiln_error *err)
{
    kiln_scene_opts o = {0};
    o.struct_size = sizeof o;
    /* Inspect counts; it needs the buffers (vertex counts, bounds) but no pixels, and nothing the
     * cook would add (normals, tangents). */
    o.flags = KILN_SCENE_LOAD_NO_IMAGES | KILN_SCENE_LOAD_NO_NORMALS | KILN_SCENE_LOAD_NO_TANGENTS;
    kiln_scene *scene = NULL;
    kiln_result r = kiln_scene_load(path, &o, &scene, err);
    if (r != KILN_OK) return r;
    *out = describe(scene, format);
    kiln_scene_free(scene);
    return KILN_OK;
}
