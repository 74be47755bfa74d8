/* kind_model.c — the model source kind: glTF 2.0 (.gltf, .glb) read by kiln's importer, FBX and
 * OBJ read by assimp in a guarded child (the extension chooses, the importer confirms), cooked into
 * meshes, materials, images, skeletons, clips and a scene (cook_model.c) with the import.model
 * settings, and import.fbx for what only FBX and OBJ need. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/path.h"
#include "import/assimp.h"
#include "import/gltf_deps.h"
#include "import/model_format.h"
#include "pipeline/cook.h"
#include "pipeline/cook_kmat.h"
#include "pipeline/roots.h"
#include "pipeline/scene_load.h"
#include "pipeline/settings.h"
#include "pipeline/source_kind.h"

static json_t *settings_json(const kiln_asset *a)
{
    json_t *j = json_object();
    json_object_set_new(j, "model", kiln_model_settings_json(&a->settings));
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
        kiln_model_format_assimp(kiln_model_format_choose(a->rel, source, size));
    if (other == KILN_ASSIMP_NONE) return kiln_gltf_dependencies(source, size, dir, fn, user, err);
    kiln_assimp_opts o;
    kiln_assimp_opts_from_settings(&a->settings.fbx, &o);
    return kiln_assimp_dependencies(source, size, other, dir, &o, fn, user, err);
}

/* The templates import.model.material_templates names: {"<material>" or "*": "<path>"}. */
static const json_t *templates_of(const kiln_asset *a)
{
    const json_t *t = kiln_settings_list(&a->settings, "model", "material_templates");
    return json_object_size(t) ? t : NULL;
}

static int path_order(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Each distinct template, once, in path order: its key enters the model's. */
static kiln_result asset_dependencies(const kiln_asset *a, const char *root, kiln_dep_fn fn,
                                      void *user, kiln_error *err)
{
    const json_t *t = templates_of(a);
    const char *paths[KILN_MODEL_MAX_TEMPLATES]; /* the settings hold at most this many */
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)t, key, v)
        if (k < KILN_MODEL_MAX_TEMPLATES) paths[k++] = json_string_value(v);
    qsort(paths, k, sizeof *paths, path_order);
    kiln_result r = KILN_OK;
    char abs[KILN_PATH_MAX];
    for (size_t i = 0; r == KILN_OK && i < k; i++) {
        if (i && !strcmp(paths[i], paths[i - 1])) continue;
        if (!kiln_path_format(abs, sizeof abs, "%s/%s", root, paths[i]))
            r = kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", paths[i]);
        else r = fn(user, abs, err);
    }
    return r;
}

/* Loads the templates (each path once) into items (one per entry). */
static kiln_result load_templates(kiln_project *p, const kiln_asset *a, kiln_model_template *items,
                                  kiln_kmat_template **loaded, size_t *count, kiln_error *err)
{
    const json_t *t = templates_of(a);
    const kiln_asset_root *root = kiln_roots_holding(p, a->abs);
    if (!root) return kiln_error_set(err, KILN_E_ASSET_IO, "%s: outside every asset root", a->rel);
    const char *key;
    json_t *v;
    size_t k = 0;
    kiln_result r = KILN_OK;
    json_object_foreach ((json_t *)t, key, v) {
        const char *path = json_string_value(v);
        size_t same = k;
        for (size_t i = 0; i < k; i++)
            if (!strcmp(kiln_kmat_template_name(loaded[i]), path)) same = i;
        if (same == k) r = kiln_kmat_template_load_file(p, root->dir, path, &loaded[k], err);
        if (r != KILN_OK) {
            kiln_error_prefix(err, "material template %s: ", path);
            break;
        }
        items[k] = (kiln_model_template){key, loaded[same]};
        k++;
    }
    *count = k;
    return r;
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    kiln_cook_env env = {
        .allocator = &p->allocator, .jobs = p->jobs, .platform = p->platform, .name = a->rel};
    char dir[KILN_PATH_MAX];
    if (!kiln_path_dirname(a->abs, dir, sizeof dir))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", a->rel);
    size_t n = json_object_size(templates_of(a)), count = 0;
    kiln_model_template *items = n ? kiln_calloc(&p->allocator, n, sizeof *items) : NULL;
    kiln_kmat_template **loaded = n ? kiln_calloc(&p->allocator, n, sizeof *loaded) : NULL;
    kiln_result r = KILN_OK;
    if (n && (!items || !loaded)) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (r == KILN_OK && n) r = load_templates(p, a, items, loaded, &count, err);
    env.templates = items;
    env.template_count = count;
    if (r == KILN_OK)
        r = kiln_cook_model_source_fbx(&env, &a->settings.model, &a->settings.fbx, a->guid, dir,
                                       source, size, out, err);
    for (size_t i = 0; loaded && i < n; i++) kiln_kmat_template_free(loaded[i]);
    kiln_free(&p->allocator, loaded, n * sizeof *loaded);
    kiln_free(&p->allocator, items, n * sizeof *items);
    return r;
}

/* The schema of import.model and import.fbx (source_kind.h: settings_schema), as
 * docs/schemas/meta.schema.json states it; tests/settings/test_kind_schema.c holds the two and the
 * settings parser together. */
static const char settings_schema[] =
    "{"
    "\"model\": {"
    "\"description\": \"glTF, FBX and OBJ models.\", "
    "\"type\": \"object\", "
    "\"additionalProperties\": false, "
    "\"properties\": {"
    "\"lods\": {\"description\": \"Triangle-count fractions of LOD 1, 2, ... Must be "
    "strictly decreasing (kiln checks; JSON Schema cannot).\", \"type\": \"array\", "
    "\"maxItems\": 8, \"uniqueItems\": true, \"items\": {\"type\": \"number\", "
    "\"exclusiveMinimum\": 0, \"exclusiveMaximum\": 1}, \"default\": [0.5, 0.25, 0.125]}, "
    ""
    "\"lod_error\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 1, \"default\": "
    "0.05}, "
    "\"lod_min_triangles\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": "
    "2147483647, \"default\": 64}, "
    "\"quantize\": {\"type\": \"boolean\", \"default\": true}, "
    "\"optimize\": {\"type\": \"boolean\", \"default\": true}, "
    "\"overdraw_threshold\": {\"type\": \"number\", \"anyOf\": [{\"const\": 0}, "
    "{\"minimum\": 1, \"maximum\": 3}], \"default\": 1.05}, "
    "\"meshlet_max_vertices\": {\"type\": \"integer\", \"minimum\": 3, \"maximum\": 255, "
    "\"default\": 64}, "
    "\"meshlet_max_triangles\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 512, "
    "\"multipleOf\": 4, \"default\": 124}, "
    "\"texture_format\": {\"$ref\": \"#/$defs/textureFormat\", \"default\": \"auto\"}, "
    "\"texture_quality\": {\"$ref\": \"#/$defs/quality\", \"default\": \"normal\"}, "
    "\"texture_max_size\": {\"type\": \"integer\", \"minimum\": 4, \"maximum\": 16384, "
    "\"default\": 4096}, "
    "\"textures\": {\"description\": \"Cook the images the materials use (false: geometry "
    "only, material slots empty).\", \"type\": \"boolean\", \"default\": true}, "
    "\"compress\": {\"description\": \"meshopt: vertex and index streams stored with "
    "meshoptimizer's codecs (the runtime decodes them).\", \"enum\": [\"none\", "
    "\"meshopt\"], \"default\": \"none\"}, "
    "\"animation_reduce\": {\"description\": \"Drop animation keys that their neighbours "
    "reproduce within the clip error bounds (docs/animation.md).\", \"type\": "
    "\"boolean\", \"default\": true}, "
    "\"meshlets\": {\"description\": \"Build meshlets (with bounds and cones) for every "
    "LOD, for mesh-shader and compute renderers; false skips them (nearly half the cook "
    "time of a large mesh).\", \"type\": \"boolean\", \"default\": true}, "
    "\"virtual_geometry\": {\"description\": \"Also cook the cluster DAG of every unskinned "
    "mesh (vgeo<i>/prim<p>, docs/virtual_geometry.md): clusters simplified level by level "
    "with locked borders, for renderers that draw a per-view cut; skinned meshes get a "
    "warning.\", \"type\": \"boolean\", \"default\": false}, "
    "\"tangents\": {\"description\": \"generate: tangents from the file, and MikkTSpace "
    "tangents where a normal map needs them and the file has none; file: only the file's "
    "own (the renderer derives missing tangent frames, e.g. from screen-space "
    "derivatives).\", \"enum\": [\"generate\", \"file\"], \"default\": \"generate\"}, "
    "\"animation_resample_fps\": {\"description\": \"0 keeps the authored keys; otherwise "
    "linear and cubic-spline tracks are resampled at this rate.\", \"type\": \"integer\", "
    "\"anyOf\": [{\"const\": 0}, {\"minimum\": 1, \"maximum\": 240}], \"default\": 0}, "
    "\"material_templates\": "
    "{\"description\": \"Materials cooked against a .kmat template as well (typed_material<i>, "
    "docs/shaders.md \\\"Templates for glTF materials\\\"): a material's name, or \\\"*\\\" for"
    " every material without an entry of its own, mapped to a .kmat path relative to the projec"
    "t root.\", \"type\": \"object\", \"maxProperties\": 256, \"default\": {}, \"propertyNames"
    "\": {\"minLength\": 1, \"maxLength\": 255}, \"additionalProperties\": {\"type\": \"string"
    "\", \"maxLength\": 255, \"pattern\": \"^(?!\\\\.\\\\.?(/|$))[^/\\\\\\\\\\\\u0000-\\\\u001f"
    "\\\\u007f]+(/(?!\\\\.\\\\.?(/|$))[^/\\\\\\\\\\\\u0000-\\\\u001f\\\\u007f]+)*\\\\.kmat$\"}}"
    "}}, "
    "\"fbx\": {"
    "\"description\": \"What the FBX and OBJ importer (assimp) needs: units, axes, skins, "
    "clips. glTF ignores it.\", "
    "\"type\": \"object\", "
    "\"additionalProperties\": false, "
    "\"properties\": {"
    "\"scale\": {\"type\": \"number\", \"exclusiveMinimum\": 0, \"maximum\": 1000000, "
    "\"default\": 1}, "
    "\"up_axis\": {\"enum\": [\"auto\", \"y\", \"z\"], \"default\": \"auto\"}, "
    "\"skins\": {\"type\": \"boolean\", \"default\": true}, "
    "\"animations\": {\"type\": \"boolean\", \"default\": true}, "
    "\"animation_fps\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 240, "
    "\"default\": 30}"
    "}}"
    "}";

static const char *const settings_groups[] = {"model", "fbx", NULL};

const kiln_source_kind kiln_source_kind_model = {
    .name = "model",
    .extensions = kiln_model_extensions,
    .settings_json = settings_json,
    .target_dependent = target_dependent,
    .key_has_guid = true,
    .dependencies = dependencies,
    .asset_dependencies = asset_dependencies,
    .check_settings = NULL,
    .cook = cook,
    .settings_schema = settings_schema,
    .settings_groups = settings_groups,
};
