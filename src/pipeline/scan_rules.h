/* scan_rules.h — what decides which files under the asset root are assets besides their kind:
 * the ignore rules (kiln.json "exclude", then <root>/.kilnignore) and whether the images a model
 * names stay assets of their own (kiln.json "standalone_model_images"). */
#ifndef KILN_PIPELINE_SCAN_RULES_H
#define KILN_PIPELINE_SCAN_RULES_H

#include <stdbool.h>

#include "pipeline/ignore.h"
#include "pipeline/project.h"

#define KILN_IGNORE_FILE ".kilnignore"

typedef struct kiln_scan_rules {
    kiln_ignore ignore;           /* kiln.json's "exclude" patterns first, then .kilnignore's */
    bool standalone_model_images; /* true: a file a model names is an asset all the same */
    /* With several roots (roots.h): each root's .kilnignore, matched against paths below that
     * root, after kiln.json's patterns (which match names), so they decide last as they do with
     * one root. Indexed like p->roots; origin "engine/.kilnignore". */
    kiln_ignore root_ignore[KILN_ROOTS_MAX];
    char root_origin[KILN_ROOTS_MAX][KILN_ROOT_PREFIX_MAX + sizeof KILN_IGNORE_FILE];
} kiln_scan_rules;

/* Reads the scan's part of <project>/kiln.json ("exclude": [pattern...], each one line of
 * .kilnignore syntax; "standalone_model_images": boolean; other fields are not this function's)
 * into out. Absent file or fields: no rules, false. Errors (KILN_E_IMPORT_SETTINGS with the
 * file and the JSON pointer): not JSON, a field of the wrong type, an empty or comment pattern. */
kiln_result kiln_scan_config_load(const kiln_project *p, kiln_scan_rules *out, kiln_error *err);

/* kiln_scan_config_load, then the lines of <root>/.kilnignore when it exists (KILN_E_ASSET_IO
 * when it cannot be read, KILN_E_LIMIT above 1 MiB or for a pattern too long). Free with
 * kiln_scan_rules_free, also on error. */
kiln_result kiln_scan_rules_load(const kiln_project *p, kiln_scan_rules *out, kiln_error *err);
void kiln_scan_rules_free(kiln_scan_rules *r);

/* The last rule that matches the asset or folder name (roots.h), or NULL: the root's .kilnignore
 * (against the path below the root), then kiln.json's "exclude" (against the name). */
const kiln_ignore_rule *kiln_scan_rules_match(const kiln_project *p, const kiln_scan_rules *rules,
                                              const char *name, bool is_dir);

/* Whether a rule comes from a .kilnignore (it has a line) rather than kiln.json (an index). */
bool kiln_scan_rule_has_line(const kiln_ignore_rule *rule);

/* "excluded by .kilnignore:3 'raw/'" or "excluded by kiln.json exclude '*.psd'". */
void kiln_scan_rule_describe(const kiln_ignore_rule *rule, char *out, size_t out_size);

#endif
