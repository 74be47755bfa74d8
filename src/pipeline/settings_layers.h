/* settings_layers.h — folder defaults (docs/settings.md "Layers"): an asset's settings are built
 * from kiln.json "defaults" (the project), then the folder.meta of every folder from the asset
 * root down to the asset's own folder (nearest last, so nearest wins), then the asset's own
 * .meta, then the .meta's overrides for the platform. Each layer is a settings object shaped like
 * a .meta's "import" ({"texture": {...}, "model": {...}}) plus entries keyed by a path pattern
 * ("*_n.png": {"texture": {...}}) that apply to the paths below the layer's folder they match.
 * The merge is field by field, and it records where each value came from. */
#ifndef KILN_PIPELINE_SETTINGS_LAYERS_H
#define KILN_PIPELINE_SETTINGS_LAYERS_H

#include <jansson.h>
#include <stddef.h>

#include "pipeline/project.h"
#include "pipeline/settings.h"

/* The name of a folder's defaults file. It ends in .meta like every settings file (editors and
 * `kiln watch` treat it like one), and cannot be any asset's own .meta: "folder" has no
 * extension, so it is no source kiln imports. */
#define KILN_FOLDER_META "folder.meta"

/* Folders from the root down: the scan refuses folders nested deeper than 64. */
#define KILN_LAYERS_MAX_FOLDERS 66

typedef struct kiln_folder_layer {
    json_t *doc;        /* the validated folder.meta; NULL when the folder has none */
    kiln_result result; /* not KILN_OK: the folder.meta is bad; every asset below gets error */
    kiln_error error;
    uint64_t chain; /* XXH3 over the defaults and every folder.meta down to here; 0: none */
} kiln_folder_layer;

/* The layers above the assets of one folder; the scan keeps one and pushes a folder as it walks
 * down, so each folder.meta is read and validated once per scan, not once per asset. */
typedef struct kiln_settings_layers {
    json_t *defaults;       /* kiln.json "defaults", validated; NULL when there are none */
    uint64_t defaults_hash; /* XXH3 of their canonical JSON; 0 when there are none */
    kiln_folder_layer folders[KILN_LAYERS_MAX_FOLDERS]; /* [0] the root, [d] d levels down */
    size_t depth;                                       /* folders in use */
} kiln_settings_layers;

/* Reads the "defaults" object of <project>/kiln.json and validates it like a .meta's settings.
 * Absent file or field: KILN_OK, *out NULL. Errors: KILN_E_IMPORT_SETTINGS naming kiln.json, with
 * the JSON pointer (/defaults/...) or the line and column of a syntax error. */
kiln_result kiln_project_defaults_load(const kiln_project *p, json_t **out, kiln_error *err);

/* A new set of layers holding the project's defaults and no folder yet (heap: it is large).
 * Errors: those of kiln_project_defaults_load, KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_settings_layers_create(kiln_project *p, kiln_settings_layers **out,
                                        kiln_error *err);
void kiln_settings_layers_destroy(kiln_project *p, kiln_settings_layers *l); /* NULL: no-op */

/* Adds the folder.meta of dir (absolute; rel its name, roots.h: "" for the one root, the prefix
 * for a root of several) as the next folder down; dir NULL adds a folder with no file (the top
 * above several roots, whose names start with a prefix). A bad file is kept as the folder's error,
 * not returned. KILN_E_LIMIT past KILN_LAYERS_MAX_FOLDERS. */
kiln_result kiln_settings_layers_push(kiln_project *p, kiln_settings_layers *l, const char *dir,
                                      const char *rel, kiln_error *err);
void kiln_settings_layers_pop(kiln_settings_layers *l);

/* What the layers in use hash to (kiln_asset.layers_hash): 0 when no file gives defaults. */
uint64_t kiln_settings_layers_hash(const kiln_settings_layers *l);

/* The layers of one asset (rel: its path from the root): the defaults and every folder from the
 * root to its folder. */
kiln_result kiln_settings_layers_for(kiln_project *p, const char *rel, kiln_settings_layers **out,
                                     kiln_error *err);

/* Builds the asset's settings from the layers and its own .meta document (own_doc: validated,
 * may be NULL). *out must hold the settings of own_doc alone (or the defaults); it is replaced
 * only when a layer applies. *origins (new reference, NULL when no value comes from a file) maps
 * "texture.mipmaps" to the file it came from: "kiln.json defaults", "kiln.json
 * defaults['*_n.png']", "ui/folder.meta", "ui/a.png.meta", "ui/a.png.meta platforms.mobile".
 * *layered tells whether any folder or project default applied. Errors: a folder.meta's own, or
 * KILN_E_IMPORT_SETTINGS when the merged settings break a rule, naming the file of the field. */
kiln_result kiln_settings_resolve(kiln_project *p, const kiln_settings_layers *l, const char *rel,
                                  const json_t *own_doc, kiln_settings *out, json_t **origins,
                                  bool *layered, kiln_error *err);

/* A kind's settings (the object that enters its key) flattened to dotted names
 * ("texture.mipmaps": false, "model.lods": [...]), kind_name naming objects that are not settings
 * sections. New reference. */
json_t *kiln_settings_flatten(const kiln_project *p, const char *kind_name, const json_t *settings);

/* Which layer an origin names: "project", "folder", "meta" or "platform". */
const char *kiln_settings_origin_layer(const char *origin);

#endif
