/* rt_source_check.c — see rt_source_check.h. kiln publishes a record by writing a temporary file
 * and renaming it into <cache>/assets/ (docs/cache.md), so every record added, replaced or
 * removed changes the folder itself: its mtime and ctime (and often its size). A poll without
 * the watcher stats that folder and, while it shows no change, not the records. */
#include "runtime/rt_source_check.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/file.h"
#include "core/hash.h"
#include "runtime/rt_mount.h"

void krt_dir_stamp_take(const char *path, krt_dir_stamp *out)
{
    memset(out, 0, sizeof *out);
    struct timespec now;
    /* before the stat: a later clock would make a stamp look older than it is */
    if (clock_gettime(CLOCK_REALTIME, &now) != 0) return;
    out->clock_ns = (int64_t)now.tv_sec * 1000000000ll + now.tv_nsec;
    kiln_file_info fi;
    if (kiln_file_stat(path, &fi, NULL) != KILN_OK || !fi.is_dir) return;
    out->mtime_ns = fi.mtime_ns;
    out->ctime_ns = fi.ctime_ns;
    out->ino = fi.ino;
    out->dev = fi.dev;
    out->size = fi.size;
    out->valid = true;
}

bool krt_dir_stamp_unchanged(const krt_dir_stamp *seen, const krt_dir_stamp *now)
{
    if (!seen->valid || !now->valid) return false;
    if (seen->mtime_ns != now->mtime_ns || seen->ctime_ns != now->ctime_ns ||
        seen->ino != now->ino || seen->dev != now->dev || seen->size != now->size)
        return false;
    /* racy: changed within KRT_RACY_NS of the check that saw it (or in that check's future) */
    return seen->mtime_ns < seen->clock_ns - KRT_RACY_NS;
}

kiln_result krt_source_signature(const char *cache_dir, const char *platform,
                                 const kiln_allocator *al, uint64_t *sig, krt_dir_stamp *stamp,
                                 size_t *stats, kiln_error *err)
{
    char adir[KILN_PATH_MAX];
    int n;
    if (!krt_records_dir(cache_dir, platform, adir, sizeof adir))
        return kiln_error_set(err, KILN_E_LIMIT, "cache path too long");
    krt_dir_stamp now;
    krt_dir_stamp_take(adir, &now); /* before the listing: a change during it shows next time */
    if (stats) (*stats)++;
    if (krt_dir_stamp_unchanged(stamp, &now)) return KILN_OK;
    *stamp = now;
    *sig = 0;
    if (!now.valid) return KILN_OK; /* no folder: krt_mounts_read_cache says what is wrong */
    kiln_dir_list list;
    kiln_result r = kiln_dir_list_read(adir, al, &list, err);
    if (r) {
        stamp->valid = false; /* not checked: the next call lists again */
        return r;
    }
    /* A sum of per-record hashes: the order of the listing does not matter. Records are written
     * to a temporary file and renamed, so a new import gives a new inode and time. */
    uint64_t sum = list.count;
    for (size_t i = 0; i < list.count; i++) {
        char path[KILN_PATH_MAX];
        n = snprintf(path, sizeof path, "%s/%s", adir, list.names[i]);
        if (n < 0 || (size_t)n >= sizeof path) continue;
        kiln_file_info fi;
        struct {
            uint64_t name, size, ino;
            int64_t mtime, ctime;
        } k;
        memset(&k, 0, sizeof k);
        k.name = kiln_xxh3_64(list.names[i], strlen(list.names[i]));
        if (stats) (*stats)++;
        if (kiln_file_stat(path, &fi, NULL) == KILN_OK) {
            k.size = fi.size;
            k.ino = fi.ino;
            k.mtime = fi.mtime_ns;
            k.ctime = fi.ctime_ns;
        }
        sum += kiln_xxh3_64(&k, sizeof k);
    }
    kiln_dir_list_free(&list);
    *sig = sum;
    return KILN_OK;
}
