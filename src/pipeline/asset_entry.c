/* asset_entry.c — an asset's current cache entry (asset_entry.h): the record of its last import
 * and its current key, read as `kiln report` reads them, never cooking or writing. */
#include "pipeline/asset_entry.h"

#include <string.h>

#include "core/error.h"
#include "core/json.h"
#include "pipeline/cache.h"
#include "pipeline/source.h"

kiln_result kiln_asset_current_entry(kiln_project *p, const kiln_asset *a,
                                     char key[KILN_SHA256_HEX_SIZE], json_t **manifest,
                                     kiln_error *err)
{
    *manifest = NULL;
    if (!a->kind)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "%s: not a kind kiln imports",
                              a->rel);
    if (a->settings_result != KILN_OK) {
        if (err) *err = *kiln_asset_settings_error(a);
        return a->settings_result;
    }
    json_t *record = kiln_cache_record_load(p, a->guid);
    kiln_source src;
    kiln_deps deps;
    kiln_result r = kiln_asset_key(p, a, record, false, &src, &deps, key, err);
    kiln_source_free(p, &src);
    kiln_deps_free(&deps);
    if (r == KILN_OK) *manifest = kiln_cache_entry_load(p, key, false);
    if (r == KILN_OK && !*manifest) {
        const char *imported = kiln_json_str(record, "key", NULL);
        const char *why = "was never imported";
        if (imported && strcmp(imported, key) != 0)
            why = "is stale (its source, a file it reads or its settings changed since its last "
                  "import)";
        else if (imported && json_object_get(record, "error")) why = "failed to import";
        else if (imported) why = "has lost its cache entry (cache gc)";
        r = kiln_error_set(err, KILN_E_NOT_IMPORTED, "%s %s; run `kiln import %s`", a->rel, why,
                           a->rel);
        kiln_error_at_path(err, a->rel);
    }
    json_decref(record);
    return r;
}

bool kiln_asset_recorded_in(kiln_project *p, const kiln_asset *a, const char *key)
{
    json_t *record = kiln_cache_record_load(p, a->guid);
    bool in = !strcmp(kiln_json_str(record, "key", ""), key);
    json_decref(record);
    return in;
}
