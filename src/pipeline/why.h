/* why.h — why an asset is stale: what its import record keeps besides the key (the pipeline
 * version, the resolved settings and where each came from; the source's and each dependency's
 * digest are kept already) and the comparison of that with the asset as it is now. */
#ifndef KILN_PIPELINE_WHY_H
#define KILN_PIPELINE_WHY_H

#include <jansson.h>

#include "pipeline/database.h"
#include "pipeline/source.h"

/* The asset's settings origins for its kind's fields only ({"texture.mipmaps": "ui/folder.meta"},
 * {} when every value is a default). New reference. */
json_t *kiln_asset_origin_json(const kiln_project *p, const kiln_asset *a);

/* Adds to an import record what kiln_stale_reasons compares: "pipeline_version", "settings"
 * (the object that enters the key) and "settings_origin" (left out when empty). */
void kiln_record_add_why(const kiln_project *p, const kiln_asset *a, json_t *record);

/* What changed since the record, the asset's current source and dependency digests given (from
 * kiln_asset_key): an array of {"what": "pipeline" | "kind" | "platform" | "source" |
 * "dependency" | "setting" | "unknown", ...} objects, never empty. New reference. */
json_t *kiln_stale_reasons(const kiln_project *p, const kiln_asset *a, const json_t *record,
                           const kiln_source *src, const kiln_deps *deps);

#endif
