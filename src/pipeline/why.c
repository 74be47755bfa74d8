/* why.c — why an asset is stale (why.h): the record's pipeline version, kind, platform, source
 * digest, dependency digests and resolved settings against the asset's as they are now. */
#include "pipeline/why.h"

#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/path.h"
#include "pipeline/cook.h"
#include "pipeline/roots.h"
#include "pipeline/settings_layers.h"

static json_t *kind_settings_flat(const kiln_project *p, const kiln_asset *a)
{
    json_t *s = kiln_asset_settings_json(a);
    json_t *flat = s ? kiln_settings_flatten(p, kiln_source_kind_name(a->kind), s) : NULL;
    json_decref(s);
    return flat;
}

json_t *kiln_asset_origin_json(const kiln_project *p, const kiln_asset *a)
{
    json_t *out = json_object();
    if (!a->settings_origin || !a->kind) return out;
    json_t *flat = kind_settings_flat(p, a);
    const char *name;
    json_t *v;
    json_object_foreach (a->settings_origin, name, v) {
        /* only the fields of the kind's own settings: a model default says nothing of a PNG */
        if (json_object_get(flat, name)) json_object_set(out, name, v);
    }
    json_decref(flat);
    return out;
}

void kiln_record_add_why(const kiln_project *p, const kiln_asset *a, json_t *record)
{
    json_object_set_new(record, "pipeline_version", json_integer(KILN_PIPELINE_VERSION));
    json_object_set_new(record, "settings", kiln_asset_settings_json(a));
    json_t *origin = kiln_asset_origin_json(p, a);
    if (json_object_size(origin)) json_object_set_new(record, "settings_origin", origin);
    else json_decref(origin); /* every value a default: kept out of the record */
}

static json_t *reason(const char *what)
{
    json_t *r = json_object();
    json_object_set_new(r, "what", json_string(what));
    return r;
}

/* A dependency's path as the project names it: the record keeps it relative to the source's
 * folder (a model's), or to its asset root (deps_from_root: a shader's includes; "/<path>": a
 * model's material template), whose name is the root's prefix. */
static json_t *dep_path(const kiln_project *p, const kiln_asset *a, const char *rel)
{
    char dir[KILN_PATH_MAX], joined[KILN_PATH_MAX];
    if (rel[0] == '/') { /* a source asset_dependencies lists: "/<root-relative>" */
        const kiln_asset_root *root = kiln_roots_holding(p, a->abs);
        snprintf(dir, sizeof dir, "%s", root ? root->prefix : "");
        rel++;
    } else if (a->kind && a->kind->deps_from_root) {
        const kiln_asset_root *root = kiln_roots_holding(p, a->abs);
        snprintf(dir, sizeof dir, "%s", root ? root->prefix : "");
    } else if (!kiln_path_dirname(a->rel, dir, sizeof dir)) {
        dir[0] = '\0';
    }
    if (!strcmp(dir, ".")) dir[0] = '\0';
    if (kiln_path_join(dir[0] ? dir : ".", rel, joined, sizeof joined, NULL) != KILN_OK)
        return json_string(rel);
    return json_string(joined[0] == '.' && joined[1] == '/' ? joined + 2 : joined);
}

static const json_t *find_path(const json_t *list, const char *path)
{
    size_t i;
    json_t *e;
    json_array_foreach (list, i, e)
        if (!strcmp(kiln_json_str(e, "path", ""), path)) return e;
    return NULL;
}

static void dependency_reasons(const kiln_project *p, const kiln_asset *a, const json_t *record,
                               const kiln_deps *deps, json_t *out)
{
    const json_t *old = json_object_get(record, "deps");
    size_t i;
    json_t *e;
    json_array_foreach (deps->digests, i, e) {
        const char *path = kiln_json_str(e, "path", "");
        const char *now = kiln_json_str(e, "sha256", NULL);
        const json_t *was = find_path(old, path);
        const char *then = kiln_json_str(json_object_get(was, "stat"), "sha256", NULL);
        const char *change = !was                       ? "added"
                             : !now && then             ? "missing"
                             : now && !then             ? "appeared"
                             : now && strcmp(now, then) ? "changed"
                                                        : NULL;
        if (!change) continue;
        json_t *r = reason("dependency");
        json_object_set_new(r, "path", dep_path(p, a, path));
        json_object_set_new(r, "change", json_string(change));
        json_object_set_new(r, "old_sha256", then ? json_string(then) : json_null());
        json_object_set_new(r, "new_sha256", now ? json_string(now) : json_null());
        json_array_append_new(out, r);
    }
    json_array_foreach (old, i, e) {
        const char *path = kiln_json_str(e, "path", "");
        if (find_path(deps->digests, path)) continue;
        json_t *r = reason("dependency");
        json_object_set_new(r, "path", dep_path(p, a, path));
        json_object_set_new(r, "change", json_string("removed"));
        const char *then = kiln_json_str(json_object_get(e, "stat"), "sha256", NULL);
        json_object_set_new(r, "old_sha256", then ? json_string(then) : json_null());
        json_object_set_new(r, "new_sha256", json_null());
        json_array_append_new(out, r);
    }
}

static void setting_reason(const json_t *record, const kiln_asset *a, const char *name,
                           const json_t *then, const json_t *now, json_t *out)
{
    const char *origin = json_string_value(json_object_get(a->settings_origin, name));
    const char *old_origin = kiln_json_str(json_object_get(record, "settings_origin"), name, NULL);
    json_t *r = reason("setting");
    json_object_set_new(r, "setting", json_string(name));
    json_object_set_new(r, "old", then ? json_deep_copy(then) : json_null());
    json_object_set_new(r, "new", now ? json_deep_copy(now) : json_null());
    json_object_set_new(r, "origin", json_string(origin ? origin : "default"));
    json_object_set_new(r, "layer", json_string(kiln_settings_origin_layer(origin)));
    json_object_set_new(r, "old_origin", json_string(old_origin ? old_origin : "default"));
    json_array_append_new(out, r);
}

static void settings_reasons(const kiln_project *p, const kiln_asset *a, const json_t *record,
                             json_t *out)
{
    const json_t *old = json_object_get(record, "settings");
    if (!json_is_object(old)) return;
    json_t *then = kiln_settings_flatten(p, kiln_source_kind_name(a->kind), old);
    json_t *now = kind_settings_flat(p, a);
    const char *name;
    json_t *v;
    json_object_foreach (now, name, v) {
        json_t *o = json_object_get(then, name);
        if (!o || !json_equal(o, v)) setting_reason(record, a, name, o, v, out);
    }
    json_object_foreach (then, name, v) {
        if (!json_object_get(now, name)) setting_reason(record, a, name, v, NULL, out);
    }
    json_decref(then);
    json_decref(now);
}

json_t *kiln_stale_reasons(const kiln_project *p, const kiln_asset *a, const json_t *record,
                           const kiln_source *src, const kiln_deps *deps)
{
    json_t *out = json_array();
    json_t *version = json_object_get(record, "pipeline_version");
    if (json_is_integer(version) && json_integer_value(version) != KILN_PIPELINE_VERSION) {
        json_t *r = reason("pipeline");
        json_object_set_new(r, "old", json_incref(version));
        json_object_set_new(r, "new", json_integer(KILN_PIPELINE_VERSION));
        json_array_append_new(out, r);
    }
    const char *kind = kiln_source_kind_name(a->kind);
    if (strcmp(kiln_json_str(record, "kind", kind), kind) != 0) {
        json_t *r = reason("kind");
        json_object_set(r, "old", json_object_get(record, "kind"));
        json_object_set_new(r, "new", json_string(kind));
        json_array_append_new(out, r);
    }
    const json_t *rp = json_object_get(record, "platform");
    const char *then_platform = json_is_string(rp) ? json_string_value(rp) : "";
    /* The platform enters the key only where format auto picks ASTC on it. */
    bool target = a->kind && a->kind->target_dependent && a->kind->target_dependent(a);
    if (target && kiln_platform_prefers_astc(then_platform) != a->prefers_astc) {
        json_t *r = reason("platform");
        json_object_set(r, "old", (json_t *)rp);
        json_object_set_new(r, "new", p->platform[0] ? json_string(p->platform) : json_null());
        json_array_append_new(out, r);
    }
    char hex[KILN_SHA256_HEX_SIZE];
    kiln_hex(src->sha, KILN_SHA256_SIZE, hex);
    const char *then = kiln_json_str(json_object_get(record, "source"), "sha256", NULL);
    if (then && strcmp(then, hex) != 0) {
        json_t *r = reason("source");
        json_object_set_new(r, "path", json_string(a->rel));
        json_object_set_new(r, "old_sha256", json_string(then));
        json_object_set_new(r, "new_sha256", json_string(hex));
        json_array_append_new(out, r);
    }
    if (deps && deps->digests) dependency_reasons(p, a, record, deps, out);
    settings_reasons(p, a, record, out);
    if (json_array_size(out) == 0) {
        json_t *r = reason("unknown");
        json_object_set_new(
            r, "message",
            json_string(json_object_get(record, "settings")
                            ? "the key changed for a reason the record does not keep"
                            : "the record was written by an older kiln and does not keep the "
                              "settings; import again to record them"));
        json_array_append_new(out, r);
    }
    return out;
}
