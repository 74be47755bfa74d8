/* cook.c — dispatch of a source to the cook of its kind, and the cooked result's lifetime. */
#include "pipeline/cook.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

kiln_result kiln_cook(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                      kiln_cooked *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (!a->kind)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "%s: not a kind kiln imports",
                              a->rel);
    return a->kind->cook(p, a, source, size, out, err);
}

kiln_result kiln_cook_check_settings(const kiln_asset *a, kiln_error *err)
{
    return a->kind && a->kind->check_settings ? a->kind->check_settings(a, err) : KILN_OK;
}

void kiln_cooked_free(kiln_project *p, kiln_cooked *c) { kiln_cooked_release(&p->allocator, c); }

void kiln_cooked_release(const kiln_allocator *a, kiln_cooked *c)
{
    if (!c) return;
    if (c->alloc) a = c->alloc;
    for (size_t i = 0; i < c->output_count; i++) {
        kiln_free(a, c->owned[i], c->owned_capacity[i]);
        for (int k = 0; k < 2; k++)
            if (c->names[2 * i + k])
                kiln_free(a, c->names[2 * i + k], strlen(c->names[2 * i + k]) + 1);
    }
    kiln_free(a, c->outputs, c->output_capacity * sizeof *c->outputs);
    kiln_free(a, c->owned, c->output_capacity * sizeof *c->owned);
    kiln_free(a, c->owned_capacity, c->output_capacity * sizeof *c->owned_capacity);
    kiln_free(a, c->names, c->output_capacity * 2 * sizeof *c->names);
    json_decref(c->summary);
    json_decref(c->warnings);
    memset(c, 0, sizeof *c);
}

/* Grows the four parallel arrays together. */
static bool grow(kiln_cooked *c, const kiln_allocator *a)
{
    size_t cap = c->output_capacity ? c->output_capacity * 2 : 8;
    kiln_output *o = kiln_calloc(a, cap, sizeof *o);
    uint8_t **ow = kiln_calloc(a, cap, sizeof *ow);
    size_t *oc = kiln_calloc(a, cap, sizeof *oc);
    char **nm = kiln_calloc(a, cap * 2, sizeof *nm);
    if (!o || !ow || !oc || !nm) {
        kiln_free(a, o, cap * sizeof *o);
        kiln_free(a, ow, cap * sizeof *ow);
        kiln_free(a, oc, cap * sizeof *oc);
        kiln_free(a, nm, cap * 2 * sizeof *nm);
        return false;
    }
    if (c->output_count) {
        memcpy(o, c->outputs, c->output_count * sizeof *o);
        memcpy(ow, c->owned, c->output_count * sizeof *ow);
        memcpy(oc, c->owned_capacity, c->output_count * sizeof *oc);
        memcpy(nm, c->names, c->output_count * 2 * sizeof *nm);
    }
    kiln_free(a, c->outputs, c->output_capacity * sizeof *c->outputs);
    kiln_free(a, c->owned, c->output_capacity * sizeof *c->owned);
    kiln_free(a, c->owned_capacity, c->output_capacity * sizeof *c->owned_capacity);
    kiln_free(a, c->names, c->output_capacity * 2 * sizeof *c->names);
    c->outputs = o;
    c->owned = ow;
    c->owned_capacity = oc;
    c->names = nm;
    c->output_capacity = cap;
    return true;
}

kiln_result kiln_cooked_add(kiln_cooked *c, const kiln_allocator *a, const char *label,
                            const char *file, uint8_t *bytes, size_t size, size_t capacity,
                            kiln_error *err)
{
    if (c->alloc) a = c->alloc;
    c->alloc = a;
    char *l = NULL, *f = NULL;
    if ((c->output_count == c->output_capacity && !grow(c, a)) || !(l = kiln_strdup(a, label)) ||
        !(f = kiln_strdup(a, file))) {
        if (l) kiln_free(a, l, strlen(l) + 1);
        kiln_free(a, bytes, capacity);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory listing outputs");
    }
    size_t i = c->output_count++;
    c->outputs[i] = (kiln_output){l, f, bytes, size};
    c->owned[i] = bytes;
    c->owned_capacity[i] = capacity;
    c->names[2 * i] = l;
    c->names[2 * i + 1] = f;
    return KILN_OK;
}
