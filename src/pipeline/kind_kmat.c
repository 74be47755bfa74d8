/* kind_kmat.c — the typed material source kind: a .kmat document naming a vertex and a fragment
 * shader, parameter values, textures and render state, cooked against the shaders' reflection
 * into one TMAT container (cook_kmat.c). Its dependencies are sources of the project (parent,
 * shaders, textures): their keys enter its key, so an edit to a shader or to one of its includes
 * makes the materials that use it stale. */
#include <string.h>

#include "core/error.h"
#include "pipeline/cook_kmat.h"
#include "pipeline/roots.h"
#include "pipeline/source_kind.h"

static const char *const extensions[] = {"kmat", NULL};

static json_t *settings_json(const kiln_asset *a)
{
    (void)a;
    return json_object(); /* a .kmat is its own settings */
}

static kiln_result dependencies(const kiln_asset *a, const uint8_t *source, size_t size,
                                const char *dir, kiln_dep_fn fn, void *user, kiln_error *err)
{
    return kiln_kmat_source_dependencies(dir, kiln_roots_below(a->abs, dir, a->rel), source, size,
                                         fn, user, err);
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    const kiln_asset_root *root = kiln_roots_holding(p, a->abs);
    if (!root) return kiln_error_set(err, KILN_E_ASSET_IO, "%s: outside every asset root", a->rel);
    return kiln_cook_kmat_source(p, root->dir, kiln_roots_below(a->abs, root->dir, a->rel), source,
                                 size, out, err);
}

const kiln_source_kind kiln_source_kind_kmat = {
    .name = "material",
    .extensions = extensions,
    .settings_json = settings_json,
    .target_dependent = NULL,
    .key_has_guid = false,
    .dependencies = dependencies,
    .deps_from_root = true,
    .deps_are_assets = true,
    .standalone = NULL,
    .tools = NULL,
    .failures_follow_key = true,
    .check_settings = NULL,
    .cook = cook,
    .settings_schema = NULL,
    .settings_groups = NULL,
};
