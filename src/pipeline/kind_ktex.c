/* kind_ktex.c — the texture descriptor kind: a .ktex naming the faces of a cube, the layers of an
 * array or the slices of a volume (pipeline/ktex.h), cooked into one KTX2 file with the
 * import.texture settings (cook_ktex.c). The images it names are its dependencies, read in its
 * folder: they enter its key, and the scan leaves them out as assets of their own (owned.h). */
#include <string.h>

#include "core/error.h"
#include "core/path.h"
#include "pipeline/cook.h"
#include "pipeline/ktex.h"
#include "pipeline/project.h"
#include "pipeline/source_kind.h"

static const char *const extensions[] = {"ktex", NULL};

static json_t *settings_json(const kiln_asset *a)
{
    return kiln_texture_settings_json(&a->settings.texture);
}

static bool target_dependent(const kiln_asset *a)
{
    return a->settings.texture.format == KILN_TEXFMT_AUTO;
}

static kiln_result check_settings(const kiln_asset *a, kiln_error *err)
{
    const kiln_texture_settings *s = &a->settings.texture;
    if (s->ibl && s->shape != KILN_SHAPE_SETTING_CUBE && s->shape != KILN_SHAPE_SETTING_AUTO) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "ibl true needs a cube (faces); allowed: ibl false, or shape auto or cube");
        kiln_error_at_pointer(err, "/import/texture/ibl");
        return KILN_E_IMPORT_SETTINGS;
    }
    return kiln_texture_settings_check(s, err);
}

static kiln_result dependencies(const kiln_asset *a, const uint8_t *source, size_t size,
                                const char *dir, kiln_dep_fn fn, void *user, kiln_error *err)
{
    (void)a;
    kiln_ktex k;
    kiln_result r = kiln_ktex_parse(source, size, dir, NULL, &k, err);
    if (r == KILN_OK && k.folder) r = fn(user, k.folder, err); /* its listing (deps.c) */
    for (uint32_t i = 0; r == KILN_OK && i < k.count; i++) r = fn(user, k.files[i], err);
    kiln_ktex_free(&k);
    return r;
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    char dir[KILN_PATH_MAX], real[KILN_PATH_MAX];
    if (!kiln_path_dirname(a->abs, dir, sizeof dir))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", a->rel);
    kiln_result r = kiln_path_resolve(dir, real, sizeof real, err);
    if (r != KILN_OK) return r;
    kiln_cook_env env = {
        .allocator = &p->allocator, .jobs = p->jobs, .platform = p->platform, .name = a->rel};
    return kiln_cook_ktex_source(&env, &a->settings.texture, real, source, size, out, err);
}

static const char *const settings_groups[] = {"texture", NULL};

const kiln_source_kind kiln_source_kind_ktex = {
    .name = "texture_set",
    .extensions = extensions,
    .settings_json = settings_json,
    .target_dependent = target_dependent,
    .key_has_guid = false,
    .dependencies = dependencies,
    .check_settings = check_settings,
    .failures_follow_key = true,
    .cook = cook,
    .settings_schema = NULL,
    .settings_groups = settings_groups,
};
