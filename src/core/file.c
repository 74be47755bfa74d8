/* file.c — POSIX files: bounded reads, maps, atomic writes (temp + fsync + rename + fsync of the
 * folder, the sequence that survives a crash on ext4/xfs), recursive mkdir and removal. */
#include "core/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"

static kiln_result io_error(kiln_error *err, const char *what, const char *path, int e)
{
    kiln_error_set(err, KILN_E_ASSET_IO, "%s %s: %s", what, path, strerror(e));
    kiln_error_at_path(err, path);
    return KILN_E_ASSET_IO;
}

static int64_t ts_ns(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

kiln_result kiln_file_stat(const char *path, kiln_file_info *out, kiln_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) return io_error(err, "cannot stat", path, errno);
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = ts_ns(st.st_mtim);
    out->ctime_ns = ts_ns(st.st_ctim);
    out->ino = (uint64_t)st.st_ino;
    out->dev = (uint64_t)st.st_dev;
    out->is_file = S_ISREG(st.st_mode);
    out->is_dir = S_ISDIR(st.st_mode);
    return KILN_OK;
}

bool kiln_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool kiln_dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

kiln_result kiln_file_read(const char *path, size_t max_size, const kiln_allocator *a,
                           uint8_t **data, size_t *size, kiln_error *err)
{
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block us */
    if (fd < 0) return io_error(err, "cannot open", path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return io_error(err, "cannot stat", path, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        kiln_error_set(err, KILN_E_ASSET_IO, "%s is not a regular file", path);
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    if ((uint64_t)st.st_size > max_size || (uint64_t)st.st_size >= (uint64_t)SIZE_MAX) {
        close(fd);
        kiln_error_set(err, KILN_E_LIMIT, "%s is %llu bytes, above the limit of %zu", path,
                       (unsigned long long)st.st_size, max_size);
        kiln_error_at_path(err, path);
        return KILN_E_LIMIT;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *p = kiln_alloc(a, n + 1);
    if (!p) {
        close(fd);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory reading %s", path);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            int e = r < 0 ? errno : EIO;
            close(fd);
            kiln_free(a, p, n + 1);
            return io_error(err, "cannot read", path, e);
        }
        got += (size_t)r;
    }
    close(fd);
    p[n] = 0;
    *data = p;
    *size = n;
    return KILN_OK;
}

kiln_result kiln_file_map(const char *path, size_t max_size, kiln_mapped_file *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block us */
    if (fd < 0) return io_error(err, "cannot open", path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno ? errno : EINVAL;
        close(fd);
        return io_error(err, "cannot map", path, e);
    }
    if ((uint64_t)st.st_size > max_size) {
        close(fd);
        kiln_error_set(err, KILN_E_LIMIT, "%s is %llu bytes, above the limit of %zu", path,
                       (unsigned long long)st.st_size, max_size);
        kiln_error_at_path(err, path);
        return KILN_E_LIMIT;
    }
    if (st.st_size == 0) {
        close(fd);
        out->data = (const uint8_t *)"";
        return KILN_OK;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED) return io_error(err, "cannot map", path, e);
#ifdef MADV_HUGEPAGE
    /* Pages this mapping faults in from disk then arrive in large folios (up to 2 MiB) rather
     * than 4 KiB ones; later reads and mappings of the file do per-folio instead of per-page
     * kernel work. A 75 MB pack evicted and faulted back: 2.1 ms to map and touch afterwards
     * without this, 0.33 ms with it; loose cache files come back 0 % / 92 % in large folios.
     * Only advice: pages already cached keep their folios, and without THP nothing changes. */
    (void)madvise(m, (size_t)st.st_size, MADV_HUGEPAGE);
#endif
    out->data = m;
    out->size = (size_t)st.st_size;
    out->mapping = m;
    return KILN_OK;
}

void kiln_file_unmap(kiln_mapped_file *m)
{
    if (m && m->mapping) munmap(m->mapping, m->size);
    if (m) memset(m, 0, sizeof *m);
}

static kiln_result write_all(int fd, const void *data, size_t size, const char *path,
                             kiln_error *err)
{
    const uint8_t *p = data;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return io_error(err, "cannot write", path, w < 0 ? errno : EIO);
        p += w;
        size -= (size_t)w;
    }
    if (fsync(fd) != 0) return io_error(err, "cannot fsync", path, errno);
    return KILN_OK;
}

kiln_result kiln_fsync_dir(const char *path, kiln_error *err)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return io_error(err, "cannot open folder", path, errno);
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    /* Some file systems refuse fsync on folders (EINVAL); the rename is still atomic there. */
    if (rc != 0 && e != EINVAL) return io_error(err, "cannot fsync folder", path, e);
    return KILN_OK;
}

static void parent_of(const char *path, char *out, size_t out_size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(out, out_size, ".");
    } else if (slash == path) {
        snprintf(out, out_size, "/");
    } else {
        size_t n = (size_t)(slash - path);
        if (n >= out_size) n = out_size - 1;
        memcpy(out, path, n);
        out[n] = '\0';
    }
}

/* A file that cannot be created in its folder: a missing folder (or a file where a folder should
 * be) is named as such, since "No such file or directory" about a file being created misleads. */
static kiln_result create_error(kiln_error *err, const char *path, int e)
{
    char dir[KILN_PATH_MAX];
    parent_of(path, dir, sizeof dir);
    struct stat st;
    if ((e == ENOENT || e == ENOTDIR) && stat(dir, &st) != 0) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot write %s: its folder %s does not exist", path,
                       dir);
        kiln_error_at_path(err, dir);
        return KILN_E_ASSET_IO;
    }
    if (e == ENOTDIR || (e == ENOENT && !S_ISDIR(st.st_mode))) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot write %s: %s is not a folder", path, dir);
        kiln_error_at_path(err, dir);
        return KILN_E_ASSET_IO;
    }
    return io_error(err, "cannot write", path, e);
}

kiln_result kiln_file_write_new(const char *path, const void *data, size_t size, kiln_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return io_error(err, "cannot create", path, errno);
    kiln_result r = write_all(fd, data, size, path, err);
    if (close(fd) != 0 && r == KILN_OK) r = io_error(err, "cannot close", path, errno);
    if (r != KILN_OK) unlink(path);
    return r;
}

kiln_result kiln_file_write_atomic(const char *path, const void *data, size_t size, kiln_error *err)
{
    char tmp[KILN_PATH_MAX];
    /* pid, thread and clock: unique among live writers without any shared counter; O_EXCL in
     * kiln_file_write_new catches the impossible clash. */
    int n = snprintf(tmp, sizeof tmp, "%s.tmp-%ld-%lx-%llx", path, (long)getpid(),
                     (unsigned long)pthread_self(), (unsigned long long)kiln_time_now_ns());
    if (n < 0 || (size_t)n >= sizeof tmp) {
        kiln_error_set(err, KILN_E_ASSET_IO, "path too long: %s", path);
        return KILN_E_ASSET_IO;
    }
    /* Errors name path, never the temporary name: that is the file the caller asked for. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return create_error(err, path, errno);
    kiln_result r = write_all(fd, data, size, path, err);
    if (close(fd) != 0 && r == KILN_OK) r = io_error(err, "cannot write", path, errno);
    if (r != KILN_OK) {
        unlink(tmp);
        return r;
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return io_error(err, "cannot rename into", path, e);
    }
    char dir[KILN_PATH_MAX];
    parent_of(path, dir, sizeof dir);
    return kiln_fsync_dir(dir, err);
}

kiln_result kiln_mkdirs(const char *path, kiln_error *err)
{
    char buf[KILN_PATH_MAX];
    size_t n = strlen(path);
    if (n == 0) return KILN_OK;
    if (n >= sizeof buf) {
        kiln_error_set(err, KILN_E_ASSET_IO, "path too long: %.200s...", path);
        return KILN_E_ASSET_IO;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return io_error(err, "cannot create folder", buf, errno);
        if (!kiln_dir_exists(buf)) return io_error(err, "not a folder:", buf, ENOTDIR);
        buf[i] = c;
    }
    return KILN_OK;
}

static kiln_result remove_tree_at(char *buf, size_t len, size_t cap, kiln_error *err)
{
    struct stat st;
    if (lstat(buf, &st) != 0)
        return errno == ENOENT ? KILN_OK : io_error(err, "cannot stat", buf, errno);
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(buf) != 0 && errno != ENOENT) return io_error(err, "cannot remove", buf, errno);
        return KILN_OK;
    }
    DIR *d = opendir(buf);
    if (!d) return io_error(err, "cannot open folder", buf, errno);
    struct dirent *e;
    kiln_result r = KILN_OK;
    while (r == KILN_OK && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t nl = strlen(e->d_name);
        if (len + 1 + nl >= cap) {
            r = kiln_error_set(err, KILN_E_ASSET_IO, "path too long under %s", buf);
            break;
        }
        buf[len] = '/';
        memcpy(buf + len + 1, e->d_name, nl + 1);
        r = remove_tree_at(buf, len + 1 + nl, cap, err);
        buf[len] = '\0';
    }
    closedir(d);
    if (r == KILN_OK && rmdir(buf) != 0 && errno != ENOENT)
        r = io_error(err, "cannot remove folder", buf, errno);
    return r;
}

kiln_result kiln_remove_tree(const char *path, kiln_error *err)
{
    char buf[KILN_PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof buf) return kiln_error_set(err, KILN_E_ASSET_IO, "path too long");
    memcpy(buf, path, n + 1);
    return remove_tree_at(buf, n, sizeof buf, err);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

kiln_result kiln_dir_list_read(const char *path, const kiln_allocator *a, kiln_dir_list *out,
                               kiln_error *err)
{
    memset(out, 0, sizeof *out);
    out->alloc = a;
    DIR *d = opendir(path);
    if (!d) return io_error(err, "cannot open folder", path, errno);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (out->count == out->capacity) {
            size_t ncap = out->capacity ? out->capacity * 2 : 32;
            char **nn = kiln_realloc(a, out->names, out->capacity * sizeof *nn, ncap * sizeof *nn);
            if (!nn) goto oom;
            out->names = nn;
            out->capacity = ncap;
        }
        /* the name, its NUL, then what readdir said it is (kiln_dir_list_kind) */
        size_t n = strlen(e->d_name);
        char *s = kiln_alloc(a, n + 2);
        if (!s) goto oom;
        memcpy(s, e->d_name, n + 1);
        s[n + 1] = (char)(e->d_type == DT_DIR   ? KILN_DIR_ENTRY_DIR
                          : e->d_type == DT_REG ? KILN_DIR_ENTRY_FILE
                                                : KILN_DIR_ENTRY_OTHER);
        out->names[out->count++] = s;
    }
    closedir(d);
    if (out->count) qsort(out->names, out->count, sizeof *out->names, cmp_names);
    return KILN_OK;
oom:
    closedir(d);
    kiln_dir_list_free(out);
    return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory listing %s", path);
}

kiln_dir_entry_kind kiln_dir_list_kind(const kiln_dir_list *l, size_t i)
{
    const char *s = l->names[i];
    return (kiln_dir_entry_kind)s[strlen(s) + 1];
}

size_t kiln_dir_list_index(const kiln_dir_list *l, const char *name)
{
    size_t lo = 0, hi = l->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(l->names[mid], name);
        if (c == 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return l->count;
}

bool kiln_dir_list_has(const kiln_dir_list *l, const char *name)
{
    return kiln_dir_list_index(l, name) < l->count;
}

void kiln_dir_list_free(kiln_dir_list *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->count; i++) kiln_free(l->alloc, l->names[i], strlen(l->names[i]) + 2);
    kiln_free(l->alloc, l->names, l->capacity * sizeof *l->names);
    memset(l, 0, sizeof *l);
}

int64_t kiln_time_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return ts_ns(t);
}
