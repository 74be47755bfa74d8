/* rt_unmount.c — the mount set after krt_mount_*: listing what is mounted (krt_mount_list),
 * unmounting (krt_unmount), and the reference counts of pack mappings: a pack no longer mounted
 * (unmounted, or replaced by a new file at the same path in krt_poll_changes) is unmapped the
 * moment its last user — the mount table, a job, a poll, an asset whose file is in it — lets
 * go. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

size_t krt_mount_list(krt_context *c, krt_artifact_fn fn, void *user)
{
    if (!c || !fn) return 0;
    size_t n = 0;
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; i < c->mounts.count; i++) {
        const krt_artifact *x = &c->mounts.items[i];
        krt_artifact_info info = {x->name, x->id,   (krt_type)x->type,
                                  x->size, x->path, x->pack != NULL};
        n++;
        if (!fn(user, &info)) break;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}

kiln_result krt_unmount(krt_context *c, const char *path, kiln_error *err)
{
    if (!c || !path) return kiln_error_set(err, KILN_E_USAGE, "krt_unmount: NULL argument");
    pthread_mutex_lock(&c->mu);
    size_t i = c->source_count;
    while (i > 0 && strcmp(c->sources[i - 1].dir, path) != 0) i--;
    if (!i) {
        pthread_mutex_unlock(&c->mu);
        return kiln_error_set(err, KILN_E_USAGE, "krt_unmount: nothing is mounted as %s", path);
    }
    krt_mount_source gone = c->sources[--i];
    memmove(&c->sources[i], &c->sources[i + 1], (c->source_count - i - 1) * sizeof *c->sources);
    c->source_count--;
    c->mount_serial++;
    c->recheck = true; /* the poll below (or a later one) reads the other mounts again */
    if (gone.pack) krt_pack_retire_locked(c, gone.pack, true); /* the table still names it */
    krt_watch_remove_locked(c, gone.watch);
    pthread_mutex_unlock(&c->mu);
    kiln_free(&c->allocator, gone.dir, strlen(gone.dir) + 1);
    krt_memo_destroy(c, gone.memo);
    return krt_poll_changes(c, NULL, err);
}

krt_pack_mount *krt_pack_mount_of(const kiln_pack *pack)
{
    return (krt_pack_mount *)(uintptr_t)((const uint8_t *)pack - offsetof(krt_pack_mount, pack));
}

void krt_pack_ref_locked(krt_pack_mount *pm) { pm->refs++; }

void krt_pack_unref_locked(krt_context *c, krt_pack_mount *pm)
{
    if (KILN_NEVER(pm->refs == 0)) return;
    if (--pm->refs == 0) krt_pack_free(c, pm);
}

void krt_pack_retire_locked(krt_context *c, krt_pack_mount *pm, bool in_table)
{
    if (!in_table) {
        krt_pack_unref_locked(c, pm);
        return;
    }
    pm->next_retired = c->retired;
    c->retired = pm;
}

void krt_pack_table_replaced_locked(krt_context *c)
{
    while (c->retired) {
        krt_pack_mount *pm = c->retired;
        c->retired = pm->next_retired;
        pm->next_retired = NULL;
        krt_pack_unref_locked(c, pm);
    }
}

void krt_pack_hand_over_locked(krt_context *c, krt_asset *a, krt_pack_mount *pm)
{
    const uint8_t *lo = pm->map.data, *p = a->dec.file;
    if (a->dec.file_borrowed && p && p >= lo && (size_t)(p - lo) < pm->map.size && !a->dec.pack_ref)
        a->dec.pack_ref = pm; /* the job's reference is the asset's now */
    else krt_pack_unref_locked(c, pm);
}

void krt_asset_drop_data_locked(krt_context *c, krt_asset *a)
{
    krt_pack_mount *pm = a->dec.pack_ref;
    c->resident -= a->dec.resident;
    krt_asset_free_data(a, &c->allocator); /* clears pack_ref with the rest */
    if (pm) krt_pack_unref_locked(c, pm);
}
