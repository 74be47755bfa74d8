/* thumbnail_resolve.c — what `kiln thumbnail`'s argument names (thumbnail.h): NAME#label of the
 * project (the artifact of the asset's current cache entry, as kiln_project_inspect finds it, and
 * the cache folder that entry lies in), a source of the project (an image: its #texture; a model:
 * its #scene), or a cooked file alone (told by content: kiln_inspect_file). */
#ifdef KILN_HAVE_VIEW
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "thumbnail.h"

/* A kiln container's fourcc ("kind" of its inspect document) as a runtime type. */
static krt_type type_of_kind(const char *kind)
{
    static const struct {
        const char *kind;
        krt_type type;
    } map[] = {{"MESH", KRT_TYPE_MESH},           {"MATL", KRT_TYPE_MATERIAL},
               {"SCEN", KRT_TYPE_SCENE},          {"SKEL", KRT_TYPE_SKELETON},
               {"CLIP", KRT_TYPE_CLIP},           {"SHDR", KRT_TYPE_SHADER},
               {"TMAT", KRT_TYPE_TYPED_MATERIAL}, {"VGEO", KRT_TYPE_VGEO}};
    for (size_t i = 0; kind && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i].kind, kind)) return map[i].type;
    return KRT_TYPE_NONE;
}

void kiln_thumb_target_free(kiln_thumb_target *t)
{
    free(t->name);
    free(t->file);
    free(t->cache);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* The type an inspect document describes: a KTX2 is a texture, a container its kind's. */
static krt_type type_of_doc(const json_t *d)
{
    const char *type = json_string_value(json_object_get(d, "type"));
    if (type && !strcmp(type, "ktx2")) return KRT_TYPE_TEXTURE;
    if (type && !strcmp(type, "container"))
        return type_of_kind(json_string_value(json_object_get(d, "kind")));
    return KRT_TYPE_NONE;
}

/* NAME#label of the project: the artifact of the asset's current entry (its cooked file, asset
 * id, type) and the cache folder that entry lies in (objects/<xx>/<key>/ of the cache). */
static kiln_result resolve_name(const kiln_cli *c, const char *name, kiln_thumb_target *t,
                                int *exit_code, kiln_error *err)
{
    kiln_project *p = kiln_cli_open(c, exit_code);
    if (!p) return KILN_E_USAGE; /* printed already */
    char *doc = NULL;
    kiln_result r = kiln_project_inspect(p, name, NULL, &doc, err);
    kiln_project_close(p);
    if (r) return r;
    json_t *d = json_loads(doc, JSON_ALLOW_NUL, NULL);
    kiln_string_free(doc);
    const json_t *art = json_object_get(d, "artifact");
    const char *path = json_string_value(json_object_get(art, "path"));
    const char *id = json_string_value(json_object_get(art, "asset_id"));
    r = path && id ? KILN_OK
                   : kiln_thumb_error(err, KILN_E_INTERNAL,
                                      "the inspect document of %.200s names "
                                      "no artifact",
                                      name);
    if (!r) {
        t->name = dup_str(name);
        t->file = dup_str(path);
        t->cache = dup_str(path);
        t->asset_id = strtoull(id, NULL, 16);
        t->type = type_of_doc(d);
        /* <cache>/objects/<xx>/<key>/<file> (a label may add folders to <file>). */
        char *objects = NULL;
        for (char *at = t->cache ? strstr(t->cache, "/objects/") : NULL; at;
             at = strstr(at + 1, "/objects/"))
            objects = at;
        if (objects) *objects = '\0';
        else if (t->cache)
            r = kiln_thumb_error(err, KILN_E_INTERNAL, "%.200s is not in a cache's objects/", path);
        if (!r && (!t->name || !t->file || !t->cache))
            r = kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    json_decref(d);
    return r;
}

kiln_result kiln_thumb_resolve(const kiln_cli *c, const char *arg, kiln_thumb_target *t,
                               int *exit_code, kiln_error *err)
{
    memset(t, 0, sizeof *t);
    struct stat st;
    if (stat(arg, &st) != 0) {
        if (strchr(arg, '#')) return resolve_name(c, arg, t, exit_code, err);
        kiln_thumb_error(err, KILN_E_ASSET_IO, "%.200s: no such file (and no NAME#label)", arg);
        snprintf(err->path, sizeof err->path, "%s", arg);
        return KILN_E_ASSET_IO;
    }
    if (!S_ISREG(st.st_mode))
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                "%.200s: not a file (give a texture, a model or NAME#label)", arg);
    char *doc = NULL;
    kiln_result r = kiln_inspect_file(arg, NULL, &doc, err);
    if (r) {
        char why[200];
        snprintf(why, sizeof why, "%.199s", err->message);
        snprintf(err->message, sizeof err->message, "%.50s: %s", arg, why);
        return r;
    }
    json_t *d = json_loads(doc, JSON_ALLOW_NUL, NULL);
    kiln_string_free(doc);
    const char *type = json_string_value(json_object_get(d, "type"));
    const char *label = !type                    ? NULL
                        : !strcmp(type, "image") ? "texture"
                        : !strcmp(type, "model") ? "scene"
                                                 : NULL;
    if (label) { /* a source: its main artifact in the project */
        size_t n = strlen(arg) + strlen(label) + 2;
        char *name = malloc(n);
        if (name) snprintf(name, n, "%s#%s", arg, label);
        json_decref(d);
        r = name ? resolve_name(c, name, t, exit_code, err)
                 : kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        free(name);
        return r;
    }
    t->type = type_of_doc(d);
    json_decref(d);
    if (t->type == KRT_TYPE_NONE)
        return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                                "%.200s: a %s has no thumbnail (give a texture, a model or "
                                "NAME#label)",
                                arg, type ? type : "file");
    t->name = dup_str(arg);
    t->file = dup_str(arg);
    if (!t->name || !t->file) return kiln_thumb_error(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    return KILN_OK;
}

#endif
