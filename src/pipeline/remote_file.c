/* remote_file.c — the file: transport of the remote cache: a shared folder (NFS, SMB, a mounted
 * bucket) with the same ac/<key> and cas/<sha256> layout as the HTTP cache. Writers create a
 * private temporary file beside the target and rename it into place, so a reader sees a whole
 * object or none, and concurrent writers of one key simply replace equal bytes. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/path.h"
#include "pipeline/remote_transport.h"

typedef struct file_transport {
    kiln_remote_transport base; /* first */
    kiln_allocator alloc;
    char dir[KILN_PATH_MAX];
} file_transport;

static bool object_path(file_transport *f, const char *path, char out[KILN_PATH_MAX],
                        kiln_error *err)
{
    if (!kiln_path_format(out, KILN_PATH_MAX, "%s/%s", f->dir, path)) {
        kiln_error_set(err, KILN_E_LIMIT, "remote cache path too long");
        return false;
    }
    return true;
}

static kiln_remote_status file_get(kiln_remote_transport *t, const char *path, size_t max_size,
                                   uint8_t **data, size_t *size, size_t *capacity, kiln_error *err)
{
    file_transport *f = (file_transport *)t;
    *data = NULL;
    *size = *capacity = 0;
    char p[KILN_PATH_MAX];
    if (!object_path(f, path, p, err)) return KILN_REMOTE_ERROR;
    kiln_file_info fi;
    if (kiln_file_stat(p, &fi, NULL) != KILN_OK || !fi.is_file) return KILN_REMOTE_MISS;
    if (fi.size > max_size) {
        kiln_error_set(err, KILN_E_LIMIT, "%s: more than %zu bytes", p, max_size);
        return KILN_REMOTE_TOO_LARGE;
    }
    uint8_t *d = NULL;
    size_t n = 0;
    kiln_result r = kiln_file_read(p, max_size, &f->alloc, &d, &n, err);
    if (r == KILN_E_LIMIT) return KILN_REMOTE_TOO_LARGE;
    if (r != KILN_OK) {
        /* Gone between stat and open (evicted): a miss. Anything else: the share is unwell. */
        return kiln_file_exists(p) ? KILN_REMOTE_ERROR : KILN_REMOTE_MISS;
    }
    *data = d;
    *size = n;
    *capacity = n + 1; /* kiln_file_read appends a NUL */
    return KILN_REMOTE_OK;
}

static kiln_remote_status file_head(kiln_remote_transport *t, const char *path, uint64_t *size,
                                    kiln_error *err)
{
    file_transport *f = (file_transport *)t;
    *size = UINT64_MAX;
    char p[KILN_PATH_MAX];
    if (!object_path(f, path, p, err)) return KILN_REMOTE_ERROR;
    kiln_file_info fi;
    if (kiln_file_stat(p, &fi, NULL) != KILN_OK || !fi.is_file) return KILN_REMOTE_MISS;
    *size = fi.size;
    return KILN_REMOTE_OK;
}

static kiln_remote_status file_put(kiln_remote_transport *t, const char *path, const void *data,
                                   size_t size, kiln_error *err)
{
    file_transport *f = (file_transport *)t;
    char p[KILN_PATH_MAX], folder[KILN_PATH_MAX], tmp[KILN_PATH_MAX];
    if (!object_path(f, path, p, err)) return KILN_REMOTE_ERROR;
    if (!kiln_path_dirname(p, folder, sizeof folder)) return KILN_REMOTE_ERROR;
    if (kiln_mkdirs(folder, err) != KILN_OK) return KILN_REMOTE_ERROR;
    if (!kiln_path_format(tmp, sizeof tmp, "%s/.tmp-%ld-%lx-%llx", folder, (long)getpid(),
                          (unsigned long)pthread_self(), (unsigned long long)kiln_time_now_ns())) {
        kiln_error_set(err, KILN_E_LIMIT, "remote cache path too long");
        return KILN_REMOTE_ERROR;
    }
    if (kiln_file_write_new(tmp, data, size, err) != KILN_OK) {
        unlink(tmp);
        return KILN_REMOTE_ERROR;
    }
    if (rename(tmp, p) != 0) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot rename %s to %s: %s", tmp, p, strerror(errno));
        unlink(tmp);
        return KILN_REMOTE_ERROR;
    }
    return KILN_REMOTE_OK;
}

static void file_destroy(kiln_remote_transport *t)
{
    file_transport *f = (file_transport *)t;
    if (!f) return;
    kiln_allocator a = f->alloc;
    kiln_free(&a, f, sizeof *f);
}

kiln_result kiln_remote_file_create(const char *dir, const kiln_allocator *a,
                                    kiln_remote_transport **out, kiln_error *err)
{
    *out = NULL;
    if (strlen(dir) >= KILN_PATH_MAX - 256)
        return kiln_error_set(err, KILN_E_LIMIT, "remote cache folder path too long");
    file_transport *f = kiln_calloc(a, 1, sizeof *f);
    if (!f) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (a) f->alloc = *a;
    strcpy(f->dir, dir);
    f->base.get = file_get;
    f->base.head = file_head;
    f->base.put = file_put;
    f->base.destroy = file_destroy;
    f->base.alloc = &f->alloc;
    *out = &f->base;
    return KILN_OK;
}
