/* settings_layers.c — folder defaults: reading and validating kiln.json "defaults" and
 * folder.meta files, matching their path patterns, and merging the layers field by field with
 * the origin of each value (settings_layers.h, docs/settings.md "Layers"). */
#include "pipeline/settings_layers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/glob.h"
#include "pipeline/project.h"
#include "pipeline/remote.h" /* KILN_PROJECT_CONFIG */
#include "pipeline/source_kind.h"

#define LAYER_MAX_SIZE (1u << 20) /* like a .meta: a defaults file above 1 MiB is refused */
#define ORIGIN_MAX     600        /* "dir/folder.meta['pattern']" */

static bool is_section(const kiln_project *p, const char *name)
{
    if (kiln_settings_section_is_builtin(name)) return true;
    const kiln_settings_ext *ext = kiln_kinds_settings(p->kinds);
    for (size_t i = 0; ext && i < ext->count; i++)
        if (!strcmp(ext->sections[i].name, name)) return true;
    return false;
}

/* A key that is not a settings section is a path pattern when it looks like one; a plain word
 * ("textur", "guid", "platforms") is an error, so a misspelt section is never a silent no-op. */
static bool looks_like_pattern(const char *key) { return strpbrk(key, "/*?.") != NULL; }

/* ---- path patterns -------------------------------------------------------------------------- */

/* ---- validation ----------------------------------------------------------------------------- */

static void pointer_escape(const char *key, char *out, size_t size)
{
    size_t n = 0;
    for (; *key && n + 3 < size; key++) {
        if (*key == '~' || *key == '/') {
            out[n++] = '~';
            out[n++] = *key == '~' ? '0' : '1';
        } else {
            out[n++] = *key;
        }
    }
    out[n] = '\0';
}

/* Validates one settings object ({"texture": {...}}) as a .meta's "import" would be; the error's
 * pointer is moved from /import/... to prefix/.... */
static kiln_result sections_validate(const kiln_project *p, const json_t *sections,
                                     const char *prefix, kiln_error *err)
{
    json_t *wrap = json_object();
    if (!wrap || json_object_set(wrap, "import", (json_t *)sections) != 0) {
        json_decref(wrap);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    kiln_settings tmp;
    kiln_result r =
        kiln_settings_from_json_ext(wrap, NULL, kiln_kinds_settings(p->kinds), &tmp, err);
    if (r == KILN_OK) kiln_settings_clear(&tmp);
    json_decref(wrap);
    if (r != KILN_OK && err) {
        const char *rest = err->json_pointer;
        if (!strncmp(rest, "/import", 7)) rest += 7;
        char ptr[sizeof err->json_pointer * 2];
        snprintf(ptr, sizeof ptr, "%s%s", prefix, rest);
        kiln_error_at_pointer(err, ptr);
    }
    return r;
}

/* A defaults object: sections, then entries keyed by path patterns holding sections. */
static kiln_result layer_validate(const kiln_project *p, const json_t *doc, const char *prefix,
                                  kiln_error *err)
{
    if (!json_is_object(doc)) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "defaults must be a JSON object of settings (texture, model, fbx) and "
                       "path patterns");
        kiln_error_at_pointer(err, prefix);
        return KILN_E_IMPORT_SETTINGS;
    }
    json_t *base = json_object();
    if (!base) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_result r = KILN_OK;
    const char *key;
    json_t *v;
    char esc[256], ptr[512];
    json_object_foreach ((json_t *)doc, key, v) {
        if (is_section(p, key)) {
            json_object_set(base, key, v);
            continue;
        }
        pointer_escape(key, esc, sizeof esc);
        snprintf(ptr, sizeof ptr, "%s/%s", prefix, esc);
        if (!looks_like_pattern(key) || key[0] == '/') {
            r = kiln_error_set(
                err, KILN_E_IMPORT_SETTINGS,
                "\"%.60s\" is neither a settings kind nor a path pattern; allowed: "
                "texture, model, fbx, shader, a registered kind, or a pattern relative "
                "to the folder (\"ui/**\", \"**/*_n.png\")",
                key);
            kiln_error_at_pointer(err, ptr);
            break;
        }
        if (!json_is_object(v)) {
            r = kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                               "the settings of pattern \"%.60s\" must be an object shaped like "
                               "\"import\" ({\"texture\": {...}})",
                               key);
            kiln_error_at_pointer(err, ptr);
            break;
        }
        if ((r = sections_validate(p, v, ptr, err)) != KILN_OK) break;
    }
    if (r == KILN_OK) r = sections_validate(p, base, prefix, err);
    json_decref(base);
    return r;
}

/* Reads and parses a settings file; errors name it (label) and keep line and column. */
static json_t *layer_file_load(const kiln_project *p, const char *path, const char *label,
                               kiln_error *err)
{
    uint8_t *text = NULL;
    size_t size = 0;
    /* The read rule: a folder.meta inside its root, kiln.json inside the project folder. */
    kiln_result r = kiln_project_check_read(p, path, err);
    if (r == KILN_OK) r = kiln_file_read(path, LAYER_MAX_SIZE, &p->allocator, &text, &size, err);
    json_t *doc = NULL;
    if (r == KILN_OK) {
        r = kiln_settings_doc_load((const char *)text, size, &doc, err);
        kiln_free(&p->allocator, text, size + 1);
    } else if (err && r == KILN_E_LIMIT) {
        err->code = KILN_E_IMPORT_SETTINGS;
    }
    if (r != KILN_OK && err) {
        kiln_error_at_path(err, path);
        kiln_error_prefix(err, "%s: ", label);
    }
    return doc;
}

kiln_result kiln_project_defaults_load(const kiln_project *p, json_t **out, kiln_error *err)
{
    *out = NULL;
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s/%s", p->project_dir, KILN_PROJECT_CONFIG))
        return kiln_error_set(err, KILN_E_LIMIT, "project folder path too long");
    if (!kiln_file_exists(path)) return KILN_OK;
    json_t *doc = layer_file_load(p, path, KILN_PROJECT_CONFIG, err);
    if (!doc) return err ? err->code : KILN_E_IMPORT_SETTINGS;
    json_t *defaults = json_object_get(doc, "defaults");
    kiln_result r = defaults ? layer_validate(p, defaults, "/defaults", err) : KILN_OK;
    if (r != KILN_OK && err) {
        kiln_error_at_path(err, path);
        kiln_error_prefix(err, "%s: ", KILN_PROJECT_CONFIG);
    }
    if (r == KILN_OK && defaults) *out = json_incref(defaults);
    json_decref(doc);
    return r;
}

kiln_result kiln_settings_layers_create(kiln_project *p, kiln_settings_layers **out,
                                        kiln_error *err)
{
    *out = NULL;
    kiln_settings_layers *l = kiln_calloc(&p->allocator, 1, sizeof *l);
    if (!l) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_result r = kiln_project_defaults_load(p, &l->defaults, err);
    if (r != KILN_OK) {
        kiln_free(&p->allocator, l, sizeof *l);
        return r;
    }
    char *canon = l->defaults ? kiln_json_dump_canonical(l->defaults) : NULL;
    if (canon) l->defaults_hash = kiln_xxh3_64(canon, strlen(canon)) | 1; /* never 0 */
    free(canon);
    *out = l;
    return KILN_OK;
}

void kiln_settings_layers_destroy(kiln_project *p, kiln_settings_layers *l)
{
    if (!l) return;
    while (l->depth) kiln_settings_layers_pop(l);
    json_decref(l->defaults);
    kiln_free(&p->allocator, l, sizeof *l);
}

kiln_result kiln_settings_layers_push(kiln_project *p, kiln_settings_layers *l, const char *dir,
                                      const char *rel, kiln_error *err)
{
    if (l->depth == KILN_LAYERS_MAX_FOLDERS)
        return kiln_error_set(err, KILN_E_LIMIT, "folders nested deeper than %d under %s",
                              KILN_LAYERS_MAX_FOLDERS - 2, dir ? dir : rel);
    kiln_folder_layer *f = &l->folders[l->depth++];
    memset(f, 0, sizeof *f);
    f->chain = l->depth > 1 ? l->folders[l->depth - 2].chain : l->defaults_hash;
    char path[KILN_PATH_MAX], label[KILN_PATH_MAX];
    if (!dir) return KILN_OK; /* the top of several roots: no folder, no folder.meta */
    if (!kiln_path_format(path, sizeof path, "%s/%s", dir, KILN_FOLDER_META) ||
        !kiln_path_format(label, sizeof label, "%s%s%s", rel, rel[0] ? "/" : "", KILN_FOLDER_META))
        return KILN_OK; /* the scan refuses such a folder's files anyway */
    if (!kiln_file_exists(path)) return KILN_OK;
    f->doc = layer_file_load(p, path, label, &f->error);
    if (f->doc) {
        /* the parsed document, canonically: what the folder says, not how it is spaced */
        char *canon = kiln_json_dump_canonical(f->doc);
        uint64_t link[3] = {f->chain, (uint64_t)l->depth,
                            canon ? kiln_xxh3_64(canon, strlen(canon)) : 0};
        f->chain = kiln_xxh3_64(link, sizeof link) | 1;
        free(canon);
    }
    if (f->doc && layer_validate(p, f->doc, "", &f->error) != KILN_OK) {
        json_decref(f->doc);
        f->doc = NULL;
        kiln_error_at_path(&f->error, path);
        kiln_error_prefix(&f->error, "%s: ", label);
    }
    f->result = f->doc ? KILN_OK : (f->error.code != KILN_OK ? f->error.code : KILN_E_INTERNAL);
    return KILN_OK;
}

uint64_t kiln_settings_layers_hash(const kiln_settings_layers *l)
{
    return l->depth ? l->folders[l->depth - 1].chain : l->defaults_hash;
}

void kiln_settings_layers_pop(kiln_settings_layers *l)
{
    if (KILN_NEVER(l->depth == 0)) return;
    kiln_folder_layer *f = &l->folders[--l->depth];
    json_decref(f->doc);
    f->doc = NULL;
}

kiln_result kiln_settings_layers_for(kiln_project *p, const char *rel, kiln_settings_layers **out,
                                     kiln_error *err)
{
    kiln_settings_layers *l;
    kiln_result r = kiln_settings_layers_create(p, &l, err);
    if (r != KILN_OK) return r;
    char dir[KILN_PATH_MAX], sub[KILN_PATH_MAX];
    size_t len = 0;
    for (;;) {
        /* sub: the first segments of rel (len bytes); the folder holding the asset comes last */
        memcpy(sub, rel, len);
        sub[len] = '\0';
        /* several roots: "" is no folder, "engine" the root's */
        bool folder = kiln_roots_file_of(p, sub, dir, sizeof dir);
        if (!folder && (len || !kiln_roots_named(p))) break;
        if ((r = kiln_settings_layers_push(p, l, folder ? dir : NULL, sub, err)) != KILN_OK) break;
        const char *slash = strchr(rel + len + (len ? 1 : 0), '/');
        if (!slash) break;
        len = (size_t)(slash - rel);
    }
    if (r != KILN_OK) {
        kiln_settings_layers_destroy(p, l);
        return r;
    }
    *out = l;
    return KILN_OK;
}

/* ---- merging -------------------------------------------------------------------------------- */

typedef struct merge_state {
    json_t *merged;  /* {"texture": {...}}: every value some layer set */
    json_t *origins; /* "texture.mipmaps" -> where it came from */
} merge_state;

static kiln_result sections_apply(merge_state *m, const kiln_project *p, const json_t *sections,
                                  const char *origin, bool values)
{
    const char *sec, *field;
    json_t *obj, *v;
    char name[256];
    json_object_foreach ((json_t *)sections, sec, obj) {
        if (!is_section(p, sec) || !json_is_object(obj)) continue;
        json_t *dst = json_object_get(m->merged, sec);
        if (values && !dst) {
            dst = json_object();
            if (!dst || json_object_set_new(m->merged, sec, dst) != 0) return KILN_E_OUT_OF_MEMORY;
        }
        json_object_foreach (obj, field, v) {
            if (values && json_object_set(dst, field, v) != 0) return KILN_E_OUT_OF_MEMORY;
            snprintf(name, sizeof name, "%s.%s", sec, field);
            if (json_object_set_new(m->origins, name, json_string(origin)) != 0)
                return KILN_E_OUT_OF_MEMORY;
        }
    }
    return KILN_OK;
}

/* A defaults layer: its sections, then its pattern entries that match subject (the asset's path
 * below the layer's folder), in the order the file lists them. */
static kiln_result layer_apply(merge_state *m, const kiln_project *p, const json_t *doc,
                               const char *subject, const char *origin)
{
    kiln_result r = sections_apply(m, p, doc, origin, true);
    const char *key;
    json_t *v;
    char label[ORIGIN_MAX];
    json_object_foreach ((json_t *)doc, key, v) {
        if (r != KILN_OK) break;
        if (is_section(p, key) || !kiln_glob_match(key, subject)) continue;
        snprintf(label, sizeof label, "%s['%s']", origin, key);
        r = sections_apply(m, p, v, label, true);
    }
    return r;
}

/* The origin of the field an error's pointer names (/import/texture/srgb, or
 * /platforms/mobile/texture/srgb), or NULL. */
static const char *origin_of_pointer(const json_t *origins, const char *ptr)
{
    char sec[64], field[64], name[160];
    if (!strncmp(ptr, "/import/", 8)) ptr += 8;
    else return NULL;
    if (sscanf(ptr, "%63[^/]/%63[^/]", sec, field) != 2) return NULL;
    snprintf(name, sizeof name, "%s.%s", sec, field);
    return json_string_value(json_object_get(origins, name));
}

kiln_result kiln_settings_resolve(kiln_project *p, const kiln_settings_layers *l, const char *rel,
                                  const json_t *own_doc, kiln_settings *out, json_t **origins,
                                  bool *layered, kiln_error *err)
{
    *origins = NULL;
    *layered = false;
    for (size_t k = 0; k < l->depth; k++) {
        if (l->folders[k].result != KILN_OK) {
            if (err) *err = l->folders[k].error;
            return l->folders[k].result;
        }
    }
    merge_state m = {json_object(), json_object()};
    kiln_result r = m.merged && m.origins ? KILN_OK : KILN_E_OUT_OF_MEMORY;
    char label[ORIGIN_MAX];
    if (r == KILN_OK && l->defaults)
        r = layer_apply(&m, p, l->defaults, rel, KILN_PROJECT_CONFIG " defaults");
    /* folders[k] is the folder of the first k segments of rel */
    const char *subject = rel;
    for (size_t k = 0; r == KILN_OK && k < l->depth; k++) {
        if (k > 0) {
            const char *slash = strchr(subject, '/');
            if (KILN_NEVER(!slash)) break;
            subject = slash + 1;
        }
        if (!l->folders[k].doc) continue;
        snprintf(label, sizeof label, "%.*s%s", (int)(subject - rel), rel, KILN_FOLDER_META);
        r = layer_apply(&m, p, l->folders[k].doc, subject, label);
    }
    if (r == KILN_OK) *layered = json_object_size(m.merged) != 0;
    const json_t *own_import = json_object_get(own_doc, "import");
    const json_t *own_platforms = json_object_get(own_doc, "platforms");
    if (r == KILN_OK && own_import) {
        snprintf(label, sizeof label, "%s.meta", rel);
        r = sections_apply(&m, p, own_import, label, *layered);
    }
    const json_t *chosen = p->platform[0] ? json_object_get(own_platforms, p->platform) : NULL;
    if (r == KILN_OK && chosen) {
        snprintf(label, sizeof label, "%s.meta platforms.%s", rel, p->platform);
        r = sections_apply(&m, p, chosen, label, false); /* the platform is applied below */
    }
    if (r != KILN_OK) {
        json_decref(m.merged);
        json_decref(m.origins);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory merging settings");
    }
    if (*layered) {
        /* The merged import with the .meta's own GUID and platforms: validated again as one
         * document, so a rule broken only by the combination (a folder's normal_map with the
         * .meta's srgb) is still refused, and platforms override the merged values. */
        json_t *eff = json_object();
        json_object_set(eff, "import", m.merged);
        if (own_platforms) json_object_set(eff, "platforms", (json_t *)own_platforms);
        if (json_object_get(own_doc, "guid"))
            json_object_set(eff, "guid", json_object_get(own_doc, "guid"));
        kiln_settings merged;
        r = kiln_settings_from_json_ext(eff, p->platform[0] ? p->platform : NULL,
                                        kiln_kinds_settings(p->kinds), &merged, err);
        json_decref(eff);
        if (r == KILN_OK) {
            kiln_settings_clear(out);
            *out = merged;
        }
        if (r != KILN_OK && err) {
            const char *from = origin_of_pointer(m.origins, err->json_pointer);
            kiln_error_prefix(err, "%s: with its defaults (%s): ", rel,
                              from ? from : "several files");
        }
    }
    json_decref(m.merged);
    if (r == KILN_OK && json_object_size(m.origins)) *origins = m.origins;
    else json_decref(m.origins);
    return r;
}

/* ---- names of settings ---------------------------------------------------------------------- */

static void flatten_into(json_t *out, const json_t *v, char *name, size_t len, size_t cap)
{
    if (!json_is_object(v)) {
        json_object_set(out, name, (json_t *)v);
        return;
    }
    const char *k;
    json_t *c;
    json_object_foreach ((json_t *)v, k, c) {
        int n = snprintf(name + len, cap - len, "%s%s", len ? "." : "", k);
        if (n > 0 && (size_t)n < cap - len) flatten_into(out, c, name, len + (size_t)n, cap);
        name[len] = '\0';
    }
}

json_t *kiln_settings_flatten(const kiln_project *p, const char *kind_name, const json_t *settings)
{
    json_t *out = json_object();
    char name[256];
    const char *k;
    json_t *v;
    /* Top-level objects that are settings sections keep their name ("model", "fbx"); a kind
     * whose object is its one section's fields (texture) or {"settings": ..., "version": ...}
     * (registered kinds) gets its own name in front. */
    json_object_foreach ((json_t *)settings, k, v) {
        bool section = json_is_object(v) && is_section(p, k);
        snprintf(name, sizeof name, "%s", section ? k : kind_name);
        size_t len = strlen(name);
        if (!section && strcmp(k, "settings") != 0)
            snprintf(name + len, sizeof name - len, ".%s", k);
        flatten_into(out, v, name, strlen(name), sizeof name);
    }
    return out;
}

const char *kiln_settings_origin_layer(const char *origin)
{
    if (!origin) return "default";
    if (!strncmp(origin, KILN_PROJECT_CONFIG " ", sizeof KILN_PROJECT_CONFIG)) return "project";
    if (strstr(origin, ".meta platforms.")) return "platform";
    size_t n = strlen(origin), fn = sizeof KILN_FOLDER_META - 1;
    if (strstr(origin, KILN_FOLDER_META "['") ||
        (n >= fn && !strcmp(origin + n - fn, KILN_FOLDER_META) &&
         (n == fn || origin[n - fn - 1] == '/')))
        return "folder";
    return "meta";
}
