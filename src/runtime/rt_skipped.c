/* rt_skipped.c — what the cache mounts skipped as damaged (rt_mount.c read_record): listing it
 * (krt_mount_skipped) and loads by name of a skipped entry's assets, which fail with the file
 * and the reason instead of "no mounted asset is named ..." (docs/runtime.md "Damaged entries
 * and partial mounts"). */
#include <string.h>

#include "core/error.h"
#include "runtime/rt_context.h"

size_t krt_mount_skipped(krt_context *c, krt_skipped_fn fn, void *user)
{
    if (!c) return 0;
    size_t n = 0;
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; i < c->mounts.skip_count; i++) {
        const krt_skip *s = &c->mounts.skips[i];
        krt_skipped_info info = {s->mount, s->file, s->asset, s->code, s->reason};
        n++;
        if (fn && !fn(user, &info)) break;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}

krt_handle krt_load_skipped(krt_context *c, krt_type type, const char *name, kiln_error *err)
{
    krt_handle h = {0};
    krt_asset *job = NULL;
    pthread_mutex_lock(&c->mu);
    const krt_artifact *art = krt_mounts_find_name(&c->mounts, name); /* mounted meanwhile */
    if (art) {
        uint64_t id = art->id;
        pthread_mutex_unlock(&c->mu);
        return krt_load_id(c, type, id, err);
    }
    const krt_skip *s = krt_mounts_find_skip(&c->mounts, name);
    const char *label = s ? strrchr(name, '#') + 1 : "";
    uint32_t of_label = krt_label_type(&c->types, label), t = type ? (uint32_t)type : of_label;
    if (!s || of_label == KRT_TYPE_NONE) { /* not an artifact this runtime would load */
        kiln_error_set(err, KILN_E_USAGE, "no mounted asset is named %s", name);
    } else if (t != of_label || !krt_types_at(&c->types, t)) {
        kiln_error_set(err, KILN_E_USAGE, "%s is a %s, not a %s", name, krt_type_name(c, of_label),
                       krt_type_name(c, t));
    } else {
        /* the file and the reason, once: "<cache>/objects/../manifest.json: not JSON: ..." */
        kiln_error why;
        kiln_error_set(&why, s->code, "%s: %s", s->file, s->reason);
        kiln_error_at_path(&why, s->file);
        (void)krt_load_locked(c, t, kiln_asset_id(s->guid, label), &why, &h, &job, err);
    }
    pthread_mutex_unlock(&c->mu);
    if (job) krt_submit(c, job);
    return h;
}
