/* cook.c — dispatch of a source to the cook of its kind, and the cooked result's lifetime. */
#include "pipeline/cook.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

kiln_result kiln_cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                      kiln_cooked *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    switch (a->kind) {
    case KILN_KIND_TEXTURE: return kiln_cook_texture(p, a, source, size, out, err);
    case KILN_KIND_MODEL:
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "%s: models are not imported by this version of kiln yet", a->rel);
    default:
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "%s: not a kind kiln imports", a->rel);
    }
}

void kiln_cooked_free(kiln_project *p, kiln_cooked *c) { kiln_cooked_release(&p->allocator, c); }

void kiln_cooked_release(const kiln_allocator *a, kiln_cooked *c)
{
    if (!c) return;
    for (size_t i = 0; i < KILN_COOK_MAX_OUTPUTS; i++) kiln_free(a, c->owned[i], c->owned_capacity[i]);
    json_decref(c->summary);
    json_decref(c->warnings);
    memset(c, 0, sizeof *c);
}
