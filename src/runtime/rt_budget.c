/* rt_budget.c — the memory budget: assets released to zero references keep their CPU data
 * (not their GPU objects) in a least-recently-released list while the bytes of such assets stay
 * within krt_desc.budget_bytes; past it, or when a slot is needed, the oldest is freed. A load
 * of a kept asset takes it back from the list without I/O (krt_load_locked). */
#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

void krt_budget_keep_locked(krt_context *c, krt_asset *a)
{
    a->cached = true;
    a->lru_next = NULL;
    a->lru_prev = c->lru_tail;
    if (c->lru_tail) c->lru_tail->lru_next = a;
    else c->lru_head = a;
    c->lru_tail = a;
    c->cached_count++;
    c->cached_bytes += a->dec.resident;
}

void krt_budget_unlink_locked(krt_context *c, krt_asset *a)
{
    if (KILN_NEVER(!a->cached)) return;
    if (a->lru_prev) a->lru_prev->lru_next = a->lru_next;
    else c->lru_head = a->lru_next;
    if (a->lru_next) a->lru_next->lru_prev = a->lru_prev;
    else c->lru_tail = a->lru_prev;
    a->lru_prev = a->lru_next = NULL;
    c->cached_count--;
    c->cached_bytes -= a->dec.resident;
}

void krt_budget_evict_locked(krt_context *c, krt_asset *a)
{
    krt_budget_unlink_locked(c, a);
    krt_map_remove_locked(c, a->id);
    c->evictions++;
    krt_reap_locked(c, a); /* a->cached still set: it was not counted live */
}

void krt_budget_trim_locked(krt_context *c)
{
    while (c->lru_head && c->cached_bytes > c->desc.budget_bytes)
        krt_budget_evict_locked(c, c->lru_head);
}
