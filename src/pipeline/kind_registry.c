/* kind_registry.c — kinds a program registers with a project (kiln_kind.h): each registered
 * source kind becomes an internal descriptor (source_kind.h) whose functions call the program's
 * cook, with its settings object known to the parser and its cooked kinds to pack. */
#include <stdio.h>
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/path.h"
#include "pipeline/cook.h"
#include "pipeline/cook_output.h"
#include "pipeline/project.h"
#include "pipeline/source_kind.h"

#define MAX_KINDS  32
#define MAX_COOKED 64

/* A registered source kind: the internal descriptor first, so that the descriptor a kiln_asset
 * points to leads back to it. */
typedef struct registered_kind {
    kiln_source_kind kind;
    kiln_source_kind_desc desc; /* the program's, copied up to its struct_size */
    kiln_settings_section *section;
    const char *settings_groups[2]; /* its own section, import.<name> */
} registered_kind;

struct kiln_kind_registry {
    registered_kind kinds[MAX_KINDS];
    size_t count;
    kiln_settings_section sections[MAX_KINDS];
    kiln_settings_ext settings; /* over sections[0..count) */
    size_t slots_used;          /* of kiln_settings.ext */
    const kiln_cooked_kind *cooked[MAX_COOKED];
    size_t cooked_count;
};

static const registered_kind *registered_of(const kiln_asset *a)
{
    return (const registered_kind *)(const void *)a->kind;
}

static json_t *settings_json(const kiln_asset *a)
{
    const registered_kind *r = registered_of(a);
    json_t *j = json_object();
    json_object_set_new(j, "settings", kiln_settings_section_json(r->section, &a->settings));
    json_object_set_new(j, "version", json_integer(r->desc.version));
    return j;
}

/* A program's dependency report, turned into the absolute path inside the source's folder
 * that source_kind.h's dependencies give. */
typedef struct dep_report {
    const registered_kind *r;
    const kiln_asset *a;
    const char *dir; /* the source's folder, real path */
    kiln_dep_fn fn;
    void *user;
} dep_report;

static kiln_result on_report(void *user, const char *path, kiln_error *err)
{
    dep_report *d = user;
    char joined[KILN_PATH_MAX], real[KILN_PATH_MAX];
    if (!path || !path[0] || path[0] == '/') goto outside;
    kiln_result r = kiln_path_join(d->dir, path, joined, sizeof joined, err);
    if (r == KILN_OK) r = kiln_path_resolve(joined, real, sizeof real, err);
    if (r != KILN_OK) return r;
    /* Lexically ("a/../../x") and with symlinks resolved: the file itself, not only its name,
     * must lie in the folder. */
    if (!kiln_path_is_within(d->dir, joined) || !kiln_path_is_within(d->dir, real) ||
        !strcmp(real, d->dir))
        goto outside;
    return d->fn(d->user, real, err);
outside:
    kiln_error_set(err, KILN_E_OUTPUT_REFUSED,
                   "%s: the %s kind names the file \"%s\", which is not inside the source's folder",
                   d->a->rel, d->r->desc.name, path ? path : "(null)");
    kiln_error_at_path(err, d->a->rel);
    return KILN_E_OUTPUT_REFUSED;
}

static kiln_result dependencies(const kiln_asset *a, const uint8_t *source, size_t size,
                                const char *dir, kiln_dep_fn fn, void *user, kiln_error *err)
{
    const registered_kind *r = registered_of(a);
    if (!r->desc.dependencies) return KILN_OK;
    /* The key does not depend on the platform unless the settings do: "" here. */
    kiln_cook_input in = {
        source, size, a->rel, dir, a->guid, "", &a->settings.ext[r->section->first]};
    dep_report d = {r, a, dir, fn, user};
    kiln_error local;
    kiln_error *e = err ? err : &local;
    kiln_error_clear(e);
    kiln_result res = r->desc.dependencies(r->desc.user, &in, on_report, &d, e);
    if (res != KILN_OK && e->code == KILN_OK)
        kiln_error_set(e, res, "%s: the %s kind could not list its files", a->rel, r->desc.name);
    return res;
}

static kiln_result cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err)
{
    const registered_kind *r = registered_of(a);
    char dir[KILN_PATH_MAX];
    if (!kiln_path_dirname(a->abs, dir, sizeof dir))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", a->rel);
    kiln_cook_input in = {
        source, size, a->rel, dir, a->guid, p->platform, &a->settings.ext[r->section->first]};
    kiln_cook_output o;
    kiln_cook_output_init(&o, out, &p->allocator);
    kiln_error local;
    kiln_error *e = err ? err : &local;
    kiln_error_clear(e);
    kiln_result res = r->desc.cook(r->desc.user, &in, &o, e);
    if (res == KILN_OK && out->output_count == 0)
        res = kiln_error_set(e, KILN_E_IMPORT_FAILED, "%s: the %s cook made no artifact", a->rel,
                             r->desc.name);
    if (res != KILN_OK) {
        if (e->code == KILN_OK)
            kiln_error_set(e, res, "%s: the %s cook failed", a->rel, r->desc.name);
        if (!e->path[0]) kiln_error_at_path(e, a->rel);
        json_decref(o.summary); /* kiln_cook_output_finish would have handed them to out */
        json_decref(o.warnings);
        kiln_cooked_release(&p->allocator, out);
        return res;
    }
    return kiln_cook_output_finish(&o, err);
}

/* [a-z0-9_]+ of at most 31 characters. */
static bool name_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 31) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    return true;
}

static kiln_result check_field(const kiln_source_kind_desc *d, size_t i, kiln_error *err)
{
    const kiln_setting_field *f = &d->settings[i];
    if (!name_valid(f->name))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kind %s: setting %zu has no valid name "
                              "([a-z0-9_]+)",
                              d->name, i);
    for (size_t k = 0; k < i; k++)
        if (!strcmp(d->settings[k].name, f->name))
            return kiln_error_set(err, KILN_E_USAGE, "kind %s: setting %s is there twice", d->name,
                                  f->name);
    switch (f->type) {
    case KILN_SETTING_BOOL:
        if (f->default_number != 0.0 && f->default_number != 1.0) break;
        return KILN_OK;
    case KILN_SETTING_INT:
    case KILN_SETTING_NUMBER:
        if (!(f->min <= f->default_number && f->default_number <= f->max)) break;
        if (f->type == KILN_SETTING_INT &&
            (double)(long long)f->default_number != f->default_number)
            break;
        return KILN_OK;
    case KILN_SETTING_CHOICE:
        if (!f->choices || !f->choices[0] || !f->default_choice) break;
        for (const char *const *c = f->choices; *c; c++)
            if (!strcmp(*c, f->default_choice)) return KILN_OK;
        break;
    default:
        return kiln_error_set(err, KILN_E_USAGE, "kind %s: setting %s has no valid type", d->name,
                              f->name);
    }
    return kiln_error_set(err, KILN_E_USAGE,
                          "kind %s: the default of setting %s is not one of "
                          "its allowed values",
                          d->name, f->name);
}

/* Two label prefixes overlap when one starts the other: a label would then have two kinds. */
static bool label_taken(const kiln_kind_registry *reg, const char *label)
{
    const kiln_cooked_kind *k;
    for (size_t i = 0;
         (k = i < reg->cooked_count ? reg->cooked[i]
                                    : kiln_cooked_kind_at(i - reg->cooked_count)) != NULL;
         i++)
        for (const char *const *l = k->labels; *l; l++) {
            size_t n = strlen(*l) < strlen(label) ? strlen(*l) : strlen(label);
            if (!strncmp(*l, label, n)) return true;
        }
    return false;
}

static kiln_result check_cooked(const kiln_kind_registry *reg, const kiln_cooked_kind *k,
                                kiln_error *err)
{
    if (!k || !name_valid(k->name) || !k->fourcc || !k->labels || !k->labels[0] || !k->read ||
        k->view_size == 0)
        return kiln_error_set(err, KILN_E_USAGE,
                              "a cooked kind lacks its name, fourcc, labels, "
                              "view size or reader");
    if (kiln_kinds_cooked_of_fourcc(reg, k->fourcc))
        return kiln_error_set(err, KILN_E_USAGE, "cooked kind %s: its fourcc is another kind's",
                              k->name);
    for (const char *const *l = k->labels; *l; l++)
        if (!name_valid(*l) || label_taken(reg, *l))
            return kiln_error_set(err, KILN_E_USAGE,
                                  "cooked kind %s: label prefix \"%s\" is not "
                                  "[a-z0-9_]+ or overlaps another kind's",
                                  k->name, *l);
    return KILN_OK;
}

static kiln_result check_source(const kiln_kind_registry *reg, const kiln_source_kind_desc *d,
                                size_t slots_used, kiln_error *err)
{
    if (!d || !name_valid(d->name))
        return kiln_error_set(err, KILN_E_USAGE,
                              "a source kind needs a name ([a-z0-9_]+, at "
                              "most 31 characters)");
    if (!d->cook) return kiln_error_set(err, KILN_E_USAGE, "kind %s: no cook function", d->name);
    if (kiln_settings_section_is_builtin(d->name) || kiln_source_kind_named(reg, d->name))
        goto taken;
    if (!d->extensions || !d->extensions[0])
        return kiln_error_set(err, KILN_E_USAGE, "kind %s: no extensions", d->name);
    for (const char *const *e = d->extensions; *e; e++) {
        char probe[64];
        if (!name_valid(*e) || snprintf(probe, sizeof probe, "x.%s", *e) >= (int)sizeof probe)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "kind %s: extension \"%s\" is not lower "
                                  "case letters and digits",
                                  d->name, *e);
        const kiln_source_kind *o = kiln_source_kind_of(reg, probe);
        if (o)
            return kiln_error_set(err, KILN_E_USAGE, "kind %s: extension \"%s\" is kind %s's",
                                  d->name, *e, o->name);
    }
    if (d->setting_count > KILN_KIND_MAX_SETTINGS - slots_used ||
        (d->setting_count && !d->settings))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kind %s: more settings than the %d all "
                              "registered kinds may have",
                              d->name, KILN_KIND_MAX_SETTINGS);
    for (size_t i = 0; i < d->setting_count; i++) {
        kiln_result r = check_field(d, i, err);
        if (r != KILN_OK) return r;
    }
    return KILN_OK;
taken:
    return kiln_error_set(err, KILN_E_USAGE, "kind %s: the name is taken", d->name);
}

KILN_API kiln_result kiln_project_register_kind(kiln_project *p,
                                                const kiln_source_kind_desc *source,
                                                const kiln_cooked_kind *const *cooked,
                                                size_t cooked_count, kiln_error *err)
{
    if (!p) return kiln_error_set(err, KILN_E_USAGE, "kiln_project_register_kind: no project");
    if (cooked_count && !cooked)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_project_register_kind: cooked is NULL");
    if (!p->kinds) {
        p->kinds = kiln_calloc(&p->allocator, 1, sizeof *p->kinds);
        if (!p->kinds) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    kiln_kind_registry *reg = p->kinds;
    if (reg->count == MAX_KINDS || reg->cooked_count + cooked_count > MAX_COOKED)
        return kiln_error_set(err, KILN_E_LIMIT,
                              "a project takes at most %d registered kinds "
                              "and %d cooked kinds",
                              MAX_KINDS, MAX_COOKED);
    kiln_source_kind_desc d;
    memset(&d, 0, sizeof d);
    if (source) {
        size_t n = source->struct_size ? source->struct_size : sizeof d;
        memcpy(&d, source, n < sizeof d ? n : sizeof d);
    }
    kiln_result r = check_source(reg, source ? &d : NULL, reg->slots_used, err);
    /* Cooked kinds are checked against the registry and each other: added one by one, then
     * taken back when one is refused. */
    size_t cooked_before = reg->cooked_count;
    for (size_t i = 0; r == KILN_OK && i < cooked_count; i++) {
        r = check_cooked(reg, cooked[i], err);
        if (r == KILN_OK) reg->cooked[reg->cooked_count++] = cooked[i];
    }
    if (r != KILN_OK) {
        reg->cooked_count = cooked_before;
        return r;
    }
    registered_kind *k = &reg->kinds[reg->count];
    kiln_settings_section *sec = &reg->sections[reg->count];
    k->desc = d;
    *sec = (kiln_settings_section){d.name, d.settings, d.setting_count, reg->slots_used};
    k->section = sec;
    k->kind = (kiln_source_kind){
        .name = d.name,
        .extensions = d.extensions,
        .settings_json = settings_json,
        .target_dependent = NULL,
        .key_has_guid = true, /* its artifacts may name each other by asset ids */
        .dependencies = d.dependencies ? dependencies : NULL, /* none: the key as before */
        .check_settings = NULL,
        .cook = cook,
        .settings_groups = k->settings_groups,
    };
    k->settings_groups[0] = d.name;
    k->settings_groups[1] = NULL;
    reg->slots_used += d.setting_count;
    reg->count++;
    reg->settings = (kiln_settings_ext){reg->sections, reg->count};
    return KILN_OK;
}

KILN_API char *kiln_source_kind_schema(const kiln_source_kind_desc *source)
{
    if (!source || !name_valid(source->name) || (source->setting_count && !source->settings))
        return NULL;
    json_t *props = json_object(), *doc = json_object();
    for (size_t i = 0; i < source->setting_count; i++) {
        const kiln_setting_field *f = &source->settings[i];
        json_t *p = json_object();
        switch (f->type) {
        case KILN_SETTING_BOOL:
            json_object_set_new(p, "type", json_string("boolean"));
            json_object_set_new(p, "default", json_boolean(f->default_number != 0.0));
            break;
        case KILN_SETTING_INT:
        case KILN_SETTING_NUMBER:
            json_object_set_new(p, "type",
                                json_string(f->type == KILN_SETTING_INT ? "integer" : "number"));
            json_object_set_new(p, "minimum", json_real(f->min));
            json_object_set_new(p, "maximum", json_real(f->max));
            json_object_set_new(p, "default",
                                f->type == KILN_SETTING_INT
                                    ? json_integer((json_int_t)f->default_number)
                                    : json_real(f->default_number));
            break;
        case KILN_SETTING_CHOICE: {
            json_t *e = json_array();
            for (const char *const *c = f->choices; c && *c; c++)
                json_array_append_new(e, json_string(*c));
            json_object_set_new(p, "enum", e);
            if (f->default_choice)
                json_object_set_new(p, "default", json_string(f->default_choice));
            break;
        }
        }
        if (f->description) json_object_set_new(p, "description", json_string(f->description));
        if (f->name) json_object_set_new(props, f->name, p);
        else json_decref(p);
    }
    json_object_set_new(doc, "$schema",
                        json_string("https://json-schema.org/draft/2020-12/schema"));
    json_object_set_new(doc, "title", json_string(source->name));
    json_object_set_new(doc, "type", json_string("object"));
    json_object_set_new(doc, "properties", props);
    json_object_set_new(doc, "additionalProperties", json_false());
    return kiln_project_take_json(doc);
}

size_t kiln_kinds_registered_count(const kiln_kind_registry *reg) { return reg ? reg->count : 0; }

const kiln_source_kind *kiln_kinds_registered_at(const kiln_kind_registry *reg, size_t i)
{
    return reg && i < reg->count ? &reg->kinds[i].kind : NULL;
}

const kiln_settings_ext *kiln_kinds_settings(const kiln_kind_registry *reg)
{
    return reg && reg->count ? &reg->settings : NULL;
}

const kiln_cooked_kind *kiln_kinds_cooked_of_fourcc(const kiln_kind_registry *reg, uint32_t fourcc)
{
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(fourcc);
    for (size_t i = 0; !k && reg && i < reg->cooked_count; i++)
        if (reg->cooked[i]->fourcc == fourcc) k = reg->cooked[i];
    return k;
}

const kiln_cooked_kind *kiln_kinds_cooked_of_label(const kiln_kind_registry *reg, const char *label,
                                                   const char **prefix)
{
    const kiln_cooked_kind *k = kiln_cooked_kind_of_label(label, prefix);
    for (size_t i = 0; !k && reg && label && i < reg->cooked_count; i++)
        for (const char *const *l = reg->cooked[i]->labels; *l && !k; l++)
            if (!strncmp(label, *l, strlen(*l))) {
                k = reg->cooked[i];
                if (prefix) *prefix = *l;
            }
    return k;
}

void kiln_kind_registry_free(const kiln_allocator *a, kiln_kind_registry *reg)
{
    if (reg) kiln_free(a, reg, sizeof *reg);
}
