/* asset_entry.h — an asset's current cache entry: the one place that goes from a source to the
 * entry its cooked artifacts are in, for what reads cooked output by name (kiln inspect
 * NAME#label, the entry listing). Its record (kiln_cache_record_load) and its current key say
 * which entry; report tells the same states for every asset. */
#ifndef KILN_PIPELINE_ASSET_ENTRY_H
#define KILN_PIPELINE_ASSET_ENTRY_H

#include <jansson.h>

#include "core/hash.h"
#include "pipeline/database.h"

/* The whole cache entry of a's current key (settings for the project's platform, the stat
 * shortcut as report uses it: nothing is cooked or written). On success key is set and
 * *manifest is the entry's manifest (new reference). Errors: KILN_E_NOT_IMPORTED when there is
 * none — never imported, imported under another key (stale), its entry collected, or its last
 * import of this key failed — with a message that says which and names `kiln import <path>`;
 * the asset's settings error; those of kiln_asset_key (the source cannot be read). */
kiln_result kiln_asset_current_entry(kiln_project *p, const kiln_asset *a,
                                     char key[KILN_SHA256_HEX_SIZE], json_t **manifest,
                                     kiln_error *err);

/* Whether a's record says it was last imported into the entry of key (stale or not): the
 * assets an entry belongs to, for listing it. */
bool kiln_asset_recorded_in(kiln_project *p, const kiln_asset *a, const char *key);

#endif
