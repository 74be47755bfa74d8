/* rt_dependents.c — reverse dependencies: each asset lists the assets that hold a reference on
 * it as a dependency (a material on its textures, a mesh on its material, a scene on what it
 * names; a staged reload on the dependencies of its new data). A texture's reload rebuilds the
 * materials on its list, and a failure or a create wakes the assets and reloads on it that
 * wait (rt_worklist.c), instead of a walk over every slot. The list is a multiset: a material
 * sampling one texture in two slots is on it twice, as it holds two references. Entries change
 * only with the references (krt_load_deps_locked, krt_release_deps_locked, a reload's swap), all
 * under the context's lock. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

bool krt_dependent_add_locked(krt_context *c, krt_asset *d, krt_asset *owner)
{
    if (d->dependent_count == d->dependent_cap) {
        uint32_t cap = d->dependent_cap ? d->dependent_cap * 2 : 4;
        if (cap < d->dependent_cap) return false; /* 2^32 references cannot be held anyway */
        krt_asset **n = kiln_realloc(&c->allocator, d->dependents,
                                     (size_t)d->dependent_cap * sizeof *n, (size_t)cap * sizeof *n);
        if (!n) return false;
        d->dependents = n;
        d->dependent_cap = cap;
    }
    d->dependents[d->dependent_count++] = owner;
    c->dep_serial++;
    return true;
}

/* Removes one entry equal to owner, keeping the others' order. */
void krt_dependent_remove_locked(krt_context *c, krt_asset *d, krt_asset *owner)
{
    for (uint32_t i = 0; i < d->dependent_count; i++) {
        if (d->dependents[i] != owner) continue;
        memmove(&d->dependents[i], &d->dependents[i + 1],
                (size_t)(d->dependent_count - i - 1) * sizeof *d->dependents);
        d->dependent_count--;
        c->dep_serial++;
        return;
    }
}

static void replace_one(krt_asset *d, const krt_asset *from, krt_asset *to)
{
    for (uint32_t i = 0; i < d->dependent_count; i++)
        if (d->dependents[i] == from) {
            d->dependents[i] = to;
            return;
        }
}

void krt_dependents_swapped_locked(krt_context *c, krt_asset *a, krt_asset *n)
{
    /* A dependency both hold a reference on has both on its list: first every n becomes a
     * (the new data's references), then as many a as the old data held become n again. */
    for (size_t i = 0; a->dec.deps && i < a->dec.dep_count; i++) {
        krt_asset *d = krt_resolve_locked(c, a->dec.deps[i]);
        if (d) replace_one(d, n, a);
    }
    for (size_t i = 0; n->dec.deps && i < n->dec.dep_count; i++) {
        krt_asset *d = krt_resolve_locked(c, n->dec.deps[i]);
        if (d) replace_one(d, a, n);
    }
    c->dep_serial++;
}

void krt_dependents_wake_locked(krt_context *c, krt_asset *a)
{
    for (uint32_t i = 0; i < a->dependent_count; i++) {
        krt_asset *o = a->dependents[i];
        /* a staged reload whose job still runs is listed when it ends */
        if (o->is_staged ? !o->staged->reload_running : !o->dying && !o->cached)
            krt_pending_add_locked(c, o);
    }
}

void krt_dependents_ready_locked(krt_context *c, krt_asset *a)
{
    for (uint32_t i = 0; i < a->dependent_count; i++)
        if (a->dependents[i]->parked) krt_pending_add_locked(c, a->dependents[i]);
}

void krt_dependents_free(krt_context *c, krt_asset *a)
{
    kiln_free(&c->allocator, a->dependents, (size_t)a->dependent_cap * sizeof *a->dependents);
    a->dependents = NULL;
    a->dependent_count = a->dependent_cap = 0;
}
