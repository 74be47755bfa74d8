/* rt_worklist.c — krt_update's work lists, so that its work follows what changed and not how
 * much is loaded: assets with something to do (decoded ones to create, released ones to retire,
 * failed ones whose dependents must fail) on one list, staged reloads whose job ended on
 * another. An asset or staged reload that waits for a dependency is parked: on no list, counted
 * in `parked`, and put back by its dependency's becoming ready or failing (the dependents lists
 * of rt_dependents.c say who waits on whom). Both lists share an asset's pend_* links: a staged
 * record is never on the assets' list. Everything here needs the context's lock. */
#include "runtime/rt_context.h"

static void unpark_locked(krt_context *c, krt_asset *a)
{
    if (!a->parked) return;
    a->parked = false;
    c->parked--;
}

void krt_pending_add_locked(krt_context *c, krt_asset *a)
{
    unpark_locked(c, a);
    if (a->pending) return;
    krt_asset **head = a->is_staged ? &c->reload_head : &c->pend_head;
    krt_asset **tail = a->is_staged ? &c->reload_tail : &c->pend_tail;
    a->pending = true;
    a->pend_next = NULL;
    a->pend_prev = *tail;
    if (*tail) (*tail)->pend_next = a;
    else *head = a;
    *tail = a;
}

void krt_pending_remove_locked(krt_context *c, krt_asset *a)
{
    if (!a->pending) return;
    krt_asset **head = a->is_staged ? &c->reload_head : &c->pend_head;
    krt_asset **tail = a->is_staged ? &c->reload_tail : &c->pend_tail;
    if (a->pend_prev) a->pend_prev->pend_next = a->pend_next;
    else *head = a->pend_next;
    if (a->pend_next) a->pend_next->pend_prev = a->pend_prev;
    else *tail = a->pend_prev;
    a->pend_prev = a->pend_next = NULL;
    a->pending = false;
}

void krt_park_locked(krt_context *c, krt_asset *a)
{
    krt_pending_remove_locked(c, a);
    if (a->parked) return;
    a->parked = true;
    c->parked++;
}

void krt_unlist_locked(krt_context *c, krt_asset *a)
{
    krt_pending_remove_locked(c, a);
    unpark_locked(c, a);
}
