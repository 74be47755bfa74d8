/* rt_source_check.h — whether a mounted cache's records changed, as cheaply as it can be told:
 * the assets/ folder's stamp first, every record's only when that moved or cannot be trusted. */
#ifndef KILN_RT_SOURCE_CHECK_H
#define KILN_RT_SOURCE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "kiln/kiln_rt.h"

/* How far (ns) a folder's mtime must lie before the clock of the check that saw it for the stamp
 * to be trusted: well above the kernel's timestamp tick (1-4 ms) and small clock steps. */
#define KRT_RACY_NS 2000000000ll

/* A folder's stat as a check saw it, with that check's clock (CLOCK_REALTIME, read before the
 * stat). valid is false when it could not be stat'ed (or was never taken). */
typedef struct krt_dir_stamp {
    int64_t mtime_ns, ctime_ns;
    uint64_t ino, dev, size;
    int64_t clock_ns;
    bool valid;
} krt_dir_stamp;

/* Stats path into *out (one stat; out->valid false when it fails or is no folder). */
void krt_dir_stamp_take(const char *path, krt_dir_stamp *out);

/* Whether the folder is surely unchanged since `seen`: `now` is equal to it in every field, and
 * seen was not racy — its mtime lay at least KRT_RACY_NS before seen's clock. A rename into the
 * folder after seen was taken then moves mtime (the kernel stamps with the current, coarse time,
 * later than an mtime that old) or ctime, inode or size. A racy stamp may hide one made in the
 * same tick right after the check (equal times): then the records are checked again, and the
 * stamp that check records is trusted once its mtime is old enough (git's racy-index rule). */
bool krt_dir_stamp_unchanged(const krt_dir_stamp *seen, const krt_dir_stamp *now);

/* Brings a cache's records' signature (*sig: a sum over their names, sizes, times and inodes;
 * 0 without an assets/ folder) and its folder stamp (*stamp) up to date for cache_dir: one stat
 * of the folder when krt_dir_stamp_unchanged says nothing moved (*sig kept), else a listing and
 * a stat of every record. *stats (may be NULL) counts the stat calls. */
kiln_result krt_source_signature(const char *cache_dir, const char *platform,
                                 const kiln_allocator *al, uint64_t *sig, krt_dir_stamp *stamp,
                                 size_t *stats, kiln_error *err);

#endif
