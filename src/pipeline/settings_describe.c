/* settings_describe.c — every settings field a .meta may hold, for `kiln help settings`: the
 * field tables the validator checks with (settings.c), the sections of registered kinds, and
 * for each group the source kinds that read it. */
#include <string.h>

#include "core/error.h"
#include "pipeline/project.h"
#include "pipeline/settings.h"
#include "pipeline/source_kind.h"

static bool kind_reads(const kiln_source_kind *k, const char *group)
{
    for (const char *const *g = k->settings_groups; g && *g; g++)
        if (!strcmp(*g, group)) return true;
    return false;
}

KILN_API kiln_result kiln_settings_describe(const kiln_project *p, char **result_json,
                                            kiln_error *err)
{
    if (!result_json) return kiln_error_set(err, KILN_E_USAGE, "kiln_settings_describe: no output");
    *result_json = NULL;
    const kiln_kind_registry *reg = p ? p->kinds : NULL;
    json_t *groups = kiln_settings_fields_json(kiln_kinds_settings(reg));
    if (!groups) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    size_t i;
    json_t *g;
    json_array_foreach (groups, i, g) {
        const char *name = json_string_value(json_object_get(g, "name"));
        json_t *readers = json_array();
        const kiln_source_kind *k;
        for (size_t n = 0; name && (k = kiln_source_kind_at(reg, n)) != NULL; n++)
            if (kind_reads(k, name)) json_array_append_new(readers, json_string(k->name));
        json_object_set_new(g, "kinds", readers);
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("help settings"));
    json_object_set_new(doc, "groups", groups);
    *result_json = kiln_project_take_json(doc);
    if (!*result_json) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    return KILN_OK;
}
