/* import.h — importing one asset (key, cache lookup, cook, publish, record) and many at once. */
#ifndef KILN_PIPELINE_IMPORT_H
#define KILN_PIPELINE_IMPORT_H

#include <jansson.h>

#include "pipeline/database.h"

/* Imports one asset. *result is its record for the import document (always set, also on
 * failure, with "error"). compare_key: when not NULL, the output is compared with that entry and
 * "unchanged" reported (reimport). */
kiln_result kiln_import_asset(kiln_project *p, kiln_asset *a, uint32_t flags,
                              const char *compare_key, json_t **result, kiln_error *err);

/* Imports assets on the project's job pool; results in input order. Returns the code of the
 * first failing asset (in input order) or KILN_OK; every asset is attempted. The document is
 * {"command", "records", "totals", "failed"}. */
kiln_result kiln_import_assets(kiln_project *p, kiln_asset *assets, size_t count, uint32_t flags,
                               json_t **doc, kiln_error *err);

/* The outputs of a manifest as reported: label, file, size, sha256, asset_id (16 hex digits),
 * name ("path#label"). New reference. */
json_t *kiln_outputs_json(const kiln_asset *a, const json_t *manifest);

#endif
