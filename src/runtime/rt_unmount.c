/* rt_unmount.c — the mount set after krt_mount_*: listing what is mounted (krt_mount_list),
 * unmounting (krt_unmount), and the packs that are no longer mounted (unmounted, or replaced by a
 * new file at the same path in krt_poll_changes) but whose mapping assets or jobs may still read:
 * they wait in the context's retired list until nothing uses them. */
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
        krt_artifact_info info = {x->name, x->id, (krt_type)x->type, x->size, x->path, x->pack != NULL};
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
    if (gone.pack) krt_pack_retire_locked(c, gone.pack);
    pthread_mutex_unlock(&c->mu);
    /* An inotify watch of the folder stays: it only makes a poll look when nothing changed. */
    kiln_free(&c->allocator, gone.dir, strlen(gone.dir) + 1);
    krt_memo_destroy(c, gone.memo);
    return krt_poll_changes(c, NULL, err);
}

void krt_pack_retire_locked(krt_context *c, krt_pack_mount *pm)
{
    pm->next_retired = c->retired;
    c->retired = pm;
}

static bool borrows(const krt_asset *a, const krt_pack_mount *pm)
{
    const uint8_t *lo = pm->map.data, *p = a->file;
    return p && a->file_borrowed && p >= lo && (size_t)(p - lo) < pm->map.size;
}

/* Whether the mount table, an asset (live, kept or a staged reload) uses pm's bytes. */
static bool pack_in_use_locked(const krt_context *c, const krt_pack_mount *pm)
{
    for (size_t i = 0; i < c->mounts.count; i++)
        if (c->mounts.items[i].pack == &pm->pack) return true; /* a failed poll kept the table */
    for (uint32_t s = 0; s < c->high_water; s++) {
        const krt_asset *a = c->slots[s].asset;
        if (a && (borrows(a, pm) || (a->staged && borrows(a->staged, pm)))) return true;
    }
    return false;
}

void krt_pack_collect_locked(krt_context *c)
{
    /* A job copies its source (with the pack) under the lock and reads it after; a poll reads
     * the packs it saw: neither may run. Otherwise the next poll or unmount looks again. */
    if (!c->retired || c->pollers || atomic_load(&c->inflight)) return;
    krt_pack_mount **link = &c->retired;
    while (*link) {
        krt_pack_mount *pm = *link;
        if (pack_in_use_locked(c, pm)) {
            link = &pm->next_retired;
            continue;
        }
        *link = pm->next_retired;
        krt_pack_free(c, pm);
    }
}
