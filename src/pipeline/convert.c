/* convert.c — one-shot converters: a source file straight to a cooked file, without a project
 * or cache, through the same settings validation and cook functions an import uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/jobs.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/cook.h"
#include "pipeline/cook_shader.h"
#include "pipeline/project.h"
#include "pipeline/source.h"

/* Settings from defaults, a patch and assignments, validated as a .meta would be; a group the
 * kind does not read is refused, as reimport refuses it. */
static kiln_result convert_settings(const kiln_convert_opts *o, const kiln_source_kind *kind,
                                    kiln_settings *out, kiln_error *err)
{
    json_t *doc = json_object(), *patch = NULL;
    kiln_result r = KILN_OK;
    if (o->settings_json) {
        patch = kiln_json_load(o->settings_json, strlen(o->settings_json), NULL,
                               KILN_E_IMPORT_SETTINGS, err);
        if (!patch) {
            r = KILN_E_IMPORT_SETTINGS;
            kiln_error_prefix(err, "--settings: ");
        } else {
            r = kiln_settings_merge_import(doc, patch, err);
        }
    }
    for (size_t i = 0; r == KILN_OK && i < o->assignment_count; i++)
        r = kiln_settings_apply_assignment(doc, o->assignments[i], err);
    if (r == KILN_OK)
        r = kiln_settings_check_edit_applies(NULL, doc, kind->settings_groups, kind->name, err);
    if (r == KILN_OK) r = kiln_settings_from_json(doc, o->platform, out, err);
    json_decref(patch);
    json_decref(doc);
    return r;
}

/* The caller's options, copied up to the size it says it knows. */
static kiln_convert_opts copy_opts(const kiln_convert_opts *opts)
{
    kiln_convert_opts o;
    memset(&o, 0, sizeof o);
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    return o;
}

/* What a converter cooks once the source bytes are read and the job pool runs. */
typedef kiln_result (*convert_cook_fn)(void *user, const kiln_cook_env *env, const uint8_t *src,
                                       size_t size, kiln_cooked *out, kiln_error *err);

/* Reads in_path, makes a job pool of o->jobs threads and cooks through fn, as an import would.
 * *out is zeroed first; release it with kiln_cooked_release(&o->allocator, out). */
static kiln_result convert_cook(const kiln_convert_opts *o, const char *in_path, convert_cook_fn fn,
                                void *user, kiln_cooked *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *src = NULL;
    size_t size = 0;
    kiln_result r = kiln_file_read(in_path, KILN_SOURCE_MAX_SIZE, &o->allocator, &src, &size, err);
    if (r != KILN_OK) return r;
    kiln_jobs *jobs = NULL;
    r = kiln_jobs_create(o->jobs, &o->allocator, &jobs, err);
    if (r == KILN_OK) {
        kiln_cook_env env = {.allocator = &o->allocator,
                             .jobs = jobs,
                             .platform = o->platform ? o->platform : "",
                             .name = in_path};
        r = fn(user, &env, src, size, out, err);
    }
    kiln_jobs_destroy(jobs);
    kiln_free(&o->allocator, src, size + 1);
    return r;
}

static kiln_result cook_texture(void *user, const kiln_cook_env *env, const uint8_t *src,
                                size_t size, kiln_cooked *out, kiln_error *err)
{
    const kiln_settings *s = user;
    return kiln_cook_texture_source(env, &s->texture, src, size, out, err);
}

KILN_API kiln_result kiln_convert_texture(const char *in_path, const char *out_path,
                                          const kiln_convert_opts *opts, char **result_json,
                                          kiln_error *err)
{
    *result_json = NULL;
    kiln_convert_opts o = copy_opts(opts);
    kiln_asset a;
    memset(&a, 0, sizeof a);
    a.kind = &kiln_source_kind_texture;
    kiln_result r = convert_settings(&o, a.kind, &a.settings, err);
    if (r == KILN_OK) r = kiln_cook_check_settings(&a, err);
    if (r != KILN_OK) return r;

    kiln_cooked c;
    r = convert_cook(&o, in_path, cook_texture, &a.settings, &c, err);
    if (r == KILN_OK)
        r = kiln_file_write_atomic(out_path, c.outputs[0].data, c.outputs[0].size, err);
    if (r == KILN_OK) {
        json_t *d = json_object();
        json_object_set_new(d, "command", json_string("texture"));
        json_object_set_new(d, "input", json_string(in_path));
        json_object_set_new(d, "output", json_string(out_path));
        json_object_set_new(d, "platform", o.platform ? json_string(o.platform) : json_null());
        json_object_set_new(d, "settings", kiln_texture_settings_json(&a.settings.texture));
        json_object_set(d, "summary", c.summary);
        json_object_set(d, "warnings", c.warnings);
        *result_json = kiln_project_take_json(d);
    }
    kiln_cooked_release(&o.allocator, &c);
    return r;
}

/* What an artifact is, from its label: the label prefix of its cooked kind ("mesh", "material",
 * "image", "skeleton", "clip", "scene"). */
static const char *label_kind(const char *label)
{
    const char *prefix = "unknown";
    kiln_cooked_kind_of_label(label, &prefix);
    return prefix;
}

typedef struct model_job {
    const kiln_model_settings *settings;
    const kiln_fbx_settings *fbx;
    char guid[33];           /* derived from the file name, as an import without .meta would */
    char dir[KILN_PATH_MAX]; /* the model's folder: its external files are read there */
} model_job;

static kiln_result cook_model(void *user, const kiln_cook_env *env, const uint8_t *src, size_t size,
                              kiln_cooked *out, kiln_error *err)
{
    const model_job *j = user;
    return kiln_cook_model_source_fbx(env, j->settings, j->fbx, j->guid, j->dir, src, size, out,
                                      err);
}

/* out_dir/manifest.json for the cooked model c: a cache entry's manifest (docs/cache.md) without
 * a key (there is no project), with the "guid" and "path" of the asset as a record has them:
 * the GUID the ids are made with and the model's file name, so its artifacts are named
 * "<file name>#<label>" as an import at the asset root names them. */
static kiln_result write_model_manifest(const char *in_path, const char *out_dir, const char *guid,
                                        const kiln_settings *settings, const kiln_cooked *c,
                                        kiln_error *err)
{
    json_t *m = json_object(), *list = json_array();
    kiln_result r = KILN_OK;
    for (size_t i = 0; r == KILN_OK && i < c->output_count; i++) {
        json_t *e = NULL;
        r = kiln_output_json(&c->outputs[i], &e, err);
        if (r == KILN_OK) json_array_append_new(list, e);
    }
    json_object_set_new(m, "kiln_manifest", json_integer(KILN_MANIFEST_VERSION));
    json_object_set_new(m, "kind", json_string("model"));
    json_object_set_new(m, "pipeline_version", json_integer(KILN_PIPELINE_VERSION));
    json_object_set_new(m, "guid", json_string(guid));
    json_object_set_new(m, "path", json_string(kiln_path_basename(in_path)));
    json_object_set_new(m, "settings", kiln_model_settings_json(settings));
    json_object_set_new(m, "outputs", list);
    json_object_set(m, "summary", c->summary);
    json_object_set(m, "warnings", c->warnings);
    char path[KILN_PATH_MAX];
    if (r == KILN_OK && !kiln_path_format(path, sizeof path, "%s/manifest.json", out_dir))
        r = kiln_error_set(err, KILN_E_LIMIT, "%s/manifest.json: path too long", out_dir);
    if (r == KILN_OK) r = kiln_json_write_atomic(path, m, err);
    json_decref(m);
    return r;
}

KILN_API kiln_result kiln_convert_model(const char *in_path, const char *out_dir,
                                        const kiln_convert_opts *opts, char **result_json,
                                        kiln_error *err)
{
    *result_json = NULL;
    kiln_convert_opts o = copy_opts(opts);
    kiln_settings settings;
    kiln_result r = convert_settings(&o, &kiln_source_kind_model, &settings, err);
    if (r != KILN_OK) return r;
    /* Templates are sources of a project (their shaders are cooked and keyed there). */
    if (json_object_size(kiln_settings_list(&settings, "model", "material_templates"))) {
        kiln_settings_clear(&settings);
        kiln_error_set(err, KILN_E_USAGE,
                       "material_templates needs a project: its templates and their shaders are "
                       "sources of one (kiln import the model in a project)");
        kiln_error_at_pointer(err, "/import/model/material_templates");
        return KILN_E_USAGE;
    }
    model_job job;
    job.settings = &settings.model;
    job.fbx = &settings.fbx;
    char abs[KILN_PATH_MAX];
    if ((r = kiln_path_absolute(in_path, abs, sizeof abs, err)) == KILN_OK &&
        !kiln_path_dirname(abs, job.dir, sizeof job.dir))
        r = kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", in_path);
    if (r != KILN_OK) {
        kiln_settings_clear(&settings); /* an empty material_templates leaves a list object */
        return r;
    }
    kiln_guid_derive(kiln_path_basename(abs), job.guid);
    const char *guid = job.guid;

    kiln_cooked c;
    r = convert_cook(&o, in_path, cook_model, &job, &c, err);
    if (r == KILN_OK) r = kiln_mkdirs(out_dir, err);
    json_t *written = json_array();
    for (size_t i = 0; r == KILN_OK && i < c.output_count; i++) {
        char path[KILN_PATH_MAX];
        if (!kiln_path_format(path, sizeof path, "%s/%s", out_dir, c.outputs[i].file)) {
            r = kiln_error_set(err, KILN_E_LIMIT, "%s/%s: path too long", out_dir,
                               c.outputs[i].file);
            break;
        }
        r = kiln_file_write_atomic(path, c.outputs[i].data, c.outputs[i].size, err);
        json_t *e = json_object();
        char id[17];
        snprintf(id, sizeof id, "%016llx",
                 (unsigned long long)kiln_asset_id(guid, c.outputs[i].label));
        json_object_set_new(e, "label", json_string(c.outputs[i].label));
        json_object_set_new(e, "kind", json_string(label_kind(c.outputs[i].label)));
        json_object_set_new(e, "file", json_string(c.outputs[i].file));
        json_object_set_new(e, "size", json_integer((json_int_t)c.outputs[i].size));
        json_object_set_new(e, "asset_id", json_string(id));
        json_array_append_new(written, e);
    }
    /* Last, so a folder with a manifest holds every file it lists: the manifest of a cache entry
     * that also names the asset (a record's guid and path), which makes the folder mountable
     * by krt_mount_cache and listable by kiln inspect. */
    if (r == KILN_OK) r = write_model_manifest(in_path, out_dir, guid, &settings, &c, err);
    if (r == KILN_OK) {
        json_t *d = json_object();
        json_object_set_new(d, "command", json_string("model"));
        json_object_set_new(d, "input", json_string(in_path));
        json_object_set_new(d, "output", json_string(out_dir));
        json_object_set_new(d, "guid", json_string(guid));
        json_object_set_new(d, "platform", o.platform ? json_string(o.platform) : json_null());
        json_object_set_new(d, "settings", kiln_model_settings_json(&settings));
        json_object_set_new(d, "artifacts", written);
        written = NULL;
        json_object_set(d, "summary", c.summary);
        json_object_set(d, "warnings", c.warnings);
        *result_json = kiln_project_take_json(d);
    }
    json_decref(written);
    kiln_cooked_release(&o.allocator, &c);
    kiln_settings_clear(&settings);
    return r;
}

/* ---- shaders -------------------------------------------------------------------------------- */

typedef struct shader_job {
    const kiln_settings *settings;
    const char *root; /* real path */
    const char *name; /* the source below root */
} shader_job;

static kiln_result cook_shader(void *user, const kiln_cook_env *env, const uint8_t *src,
                               size_t size, kiln_cooked *out, kiln_error *err)
{
    const shader_job *j = user;
    kiln_cook_env named = *env;
    named.name = j->name; /* diagnostics and relative includes start from the root */
    return kiln_cook_shader_source(&named, j->settings, j->root, src, size, NULL, out, err);
}

/* Keeps only the variant named (or refuses a name the settings do not give). */
static kiln_result choose_variant(kiln_settings *s, const char *variant, kiln_error *err)
{
    const json_t *variants = kiln_settings_list(s, "shader", "variants");
    if (!json_object_size(variants)) {
        if (strcmp(variant, "default") != 0)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "variant \"%.64s\": the settings name no variants; the one "
                                  "variant is \"default\"",
                                  variant);
        return KILN_OK;
    }
    const json_t *one = json_object_get(variants, variant);
    if (!one)
        return kiln_error_set(err, KILN_E_USAGE,
                              "variant \"%.64s\" is not one of the %zu in shader.variants", variant,
                              json_object_size(variants));
    json_t *lists = json_deep_copy(s->lists);
    json_t *only = json_object();
    if (!lists || !only || json_object_set(only, variant, (json_t *)one) != 0 ||
        json_object_set_new(json_object_get(lists, "shader"), "variants", only) != 0) {
        json_decref(lists);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    kiln_settings_clear(s);
    s->lists = lists;
    return KILN_OK;
}

/* The variants of a cooked shader, as the result lists them. */
static json_t *variants_json(const kiln_shader_view *v)
{
    json_t *list = json_array();
    for (uint32_t i = 0; i < v->variant_count; i++) {
        kiln_shader_variant_info vi = kiln_shader_variant_at(v, i);
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(vi.name));
        json_object_set_new(e, "defines", json_string(vi.defines));
        json_object_set_new(e, "spirv_bytes", json_integer((json_int_t)(vi.word_count * 4)));
        json_array_append_new(list, e);
    }
    return list;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* One variant's words as a .spv file (SPIR-V is stored little-endian, as kiln's hosts are). */
static kiln_result write_spv(const char *out_path, const kiln_shader_view *v, const char *variant,
                             const kiln_allocator *a, kiln_error *err)
{
    int32_t i = variant ? kiln_shader_find_variant(v, variant) : 0;
    if (!variant && v->variant_count != 1)
        return kiln_error_set(err, KILN_E_USAGE,
                              "%s: the shader has %u variants; --variant NAME chooses the one an "
                              ".spv holds",
                              out_path, v->variant_count);
    if (KILN_NEVER(i < 0))
        return kiln_error_set(err, KILN_E_INTERNAL, "variant %s missing after the cook", variant);
    size_t n = kiln_shader_variant_words(v, (uint32_t)i, NULL, 0);
    uint32_t *words = kiln_alloc(a, n * sizeof *words);
    if (!words) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_shader_variant_words(v, (uint32_t)i, words, n);
    kiln_result r = kiln_file_write_atomic(out_path, words, n * sizeof *words, err);
    kiln_free(a, words, n * sizeof *words);
    return r;
}

KILN_API kiln_result kiln_convert_shader(const char *in_path, const char *out_path,
                                         const kiln_convert_opts *opts, char **result_json,
                                         kiln_error *err)
{
    *result_json = NULL;
    kiln_convert_opts o = copy_opts(opts);
    kiln_settings s;
    kiln_result r = convert_settings(&o, &kiln_source_kind_shader, &s, err);
    if (r != KILN_OK) return r;
    if (o.variant) r = choose_variant(&s, o.variant, err);
    char abs[KILN_PATH_MAX], folder[KILN_PATH_MAX], root[KILN_PATH_MAX], real[KILN_PATH_MAX];
    if (r == KILN_OK) r = kiln_path_absolute(in_path, abs, sizeof abs, err);
    if (r == KILN_OK && !o.root && !kiln_path_dirname(abs, folder, sizeof folder))
        r = kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", in_path);
    if (r == KILN_OK && (!realpath(o.root ? o.root : folder, root) || !realpath(abs, real)))
        r = kiln_error_set(err, KILN_E_ASSET_IO, "%s: cannot resolve %s", in_path,
                           o.root ? o.root : "its folder");
    const char *name = r == KILN_OK ? kiln_path_relative_to(root, real) : NULL;
    if (r == KILN_OK && (!name || !name[0]))
        r = kiln_error_set(err, KILN_E_USAGE, "%s is not inside the root %s", in_path, root);
    kiln_cooked c;
    memset(&c, 0, sizeof c);
    shader_job job = {&s, root, name};
    if (r == KILN_OK) r = convert_cook(&o, in_path, cook_shader, &job, &c, err);
    kiln_shader_view view;
    if (r == KILN_OK) r = kiln_shader_read(c.outputs[0].data, c.outputs[0].size, 0, &view, err);
    if (r == KILN_OK && ends_with(out_path, ".spv"))
        r = write_spv(out_path, &view, o.variant, &o.allocator, err);
    else if (r == KILN_OK)
        r = kiln_file_write_atomic(out_path, c.outputs[0].data, c.outputs[0].size, err);
    if (r == KILN_OK) {
        json_t *d = json_object();
        json_object_set_new(d, "command", json_string("shader"));
        json_object_set_new(d, "input", json_string(in_path));
        json_object_set_new(d, "output", json_string(out_path));
        json_object_set_new(d, "platform", o.platform ? json_string(o.platform) : json_null());
        json_object_set_new(d, "settings", kiln_shader_settings_json(&s));
        json_object_set(d, "summary", c.summary);
        json_object_set_new(d, "variants", variants_json(&view));
        json_object_set(d, "warnings", c.warnings);
        *result_json = kiln_project_take_json(d);
    }
    kiln_cooked_release(&o.allocator, &c);
    kiln_settings_clear(&s);
    return r;
}
