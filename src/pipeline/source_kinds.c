/* source_kinds.c — the registry of built-in source kinds (one line per kind) and the lookups
 * over it and the kinds a program registered (kind_registry.c). */
#include "pipeline/source_kind.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/path.h"

static const kiln_source_kind *const registry[] = {
    &kiln_source_kind_texture, &kiln_source_kind_model, &kiln_source_kind_shader,
    &kiln_source_kind_kmat,    &kiln_source_kind_ktex,
};

const kiln_source_kind *kiln_source_kind_at(const kiln_kind_registry *reg, size_t i)
{
    size_t n = sizeof registry / sizeof registry[0];
    return i < n ? registry[i] : kiln_kinds_registered_at(reg, i - n);
}

const kiln_source_kind *kiln_source_kind_of(const kiln_kind_registry *reg, const char *path)
{
    const char *ext = kiln_path_extension(path);
    if (!ext[0]) return NULL;
    const kiln_source_kind *k;
    for (size_t i = 0; (k = kiln_source_kind_at(reg, i)) != NULL; i++)
        for (const char *const *e = k->extensions; *e; e++)
            if (!strcasecmp(ext, *e)) return k;
    return NULL;
}

const kiln_source_kind *kiln_source_kind_named(const kiln_kind_registry *reg, const char *name)
{
    const kiln_source_kind *k;
    for (size_t i = 0; (k = kiln_source_kind_at(reg, i)) != NULL; i++)
        if (!strcmp(k->name, name)) return k;
    return NULL;
}

const char *kiln_source_kind_name(const kiln_source_kind *k) { return k ? k->name : "none"; }

const char *kiln_source_kind_extension_list(const kiln_kind_registry *reg, char *out, size_t cap)
{
    size_t n = 0;
    if (cap) out[0] = '\0';
    const kiln_source_kind *k;
    for (size_t i = 0; (k = kiln_source_kind_at(reg, i)) != NULL; i++)
        for (const char *const *e = k->extensions; *e; e++) {
            const char *sep = e != k->extensions ? ", " : i ? "; " : "";
            int w = snprintf(n < cap ? out + n : NULL, n < cap ? cap - n : 0, "%s%s", sep, *e);
            if (w > 0) n += (size_t)w;
        }
    return out;
}
