/* file.h — reading, mapping and atomically writing files; folders. Errors are KILN_E_ASSET_IO
 * (with errno's text and the path) unless said otherwise. */
#ifndef KILN_CORE_FILE_H
#define KILN_CORE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#define KILN_PATH_MAX 4096

typedef struct kiln_file_info {
    uint64_t size;
    int64_t mtime_ns; /* modification time, nanoseconds since the epoch */
    int64_t ctime_ns; /* inode change time */
    uint64_t ino, dev;
    bool is_file, is_dir;
} kiln_file_info;

/* stat() (follows symlinks). A missing file is KILN_E_ASSET_IO. */
kiln_result kiln_file_stat(const char *path, kiln_file_info *out, kiln_error *err);
bool kiln_file_exists(const char *path);
bool kiln_dir_exists(const char *path);

/* Reads a whole regular file into memory from the allocator (free with kiln_free(a, p, size+1);
 * a NUL is appended for text parsers). A file above max_size bytes is KILN_E_LIMIT. */
kiln_result kiln_file_read(const char *path, size_t max_size, const kiln_allocator *a,
                           uint8_t **data, size_t *size, kiln_error *err);

/* A read-only memory map of a whole file; an empty file maps to data = "" and size 0. */
typedef struct kiln_mapped_file {
    const uint8_t *data;
    size_t size;
    void *mapping; /* NULL when size is 0 */
} kiln_mapped_file;
kiln_result kiln_file_map(const char *path, size_t max_size, kiln_mapped_file *out,
                          kiln_error *err);
void kiln_file_unmap(kiln_mapped_file *m);

/* Writes a file so that readers see either the old bytes or all the new ones: a temporary file
 * in the same folder, written, fsync'ed, renamed over path, then the folder fsync'ed. The folder
 * must exist; errors name path (and a missing folder as such), never the temporary file. */
kiln_result kiln_file_write_atomic(const char *path, const void *data, size_t size,
                                   kiln_error *err);

/* Writes and fsyncs a new file (O_EXCL: it must not exist), for files inside a private
 * temporary folder that is published by renaming the folder. */
kiln_result kiln_file_write_new(const char *path, const void *data, size_t size, kiln_error *err);

kiln_result kiln_fsync_dir(const char *path, kiln_error *err);

/* mkdir -p (mode 0777 & ~umask). Existing folders are fine. */
kiln_result kiln_mkdirs(const char *path, kiln_error *err);

/* rm -rf that never follows symlinks. A missing path is not an error. */
kiln_result kiln_remove_tree(const char *path, kiln_error *err);

/* The names in a folder (no "." or ".."), sorted bytewise so every walk is deterministic.
 * Free with kiln_dir_list_free. */
typedef struct kiln_dir_list {
    char **names;
    size_t count, capacity;
    const kiln_allocator *alloc;
} kiln_dir_list;
kiln_result kiln_dir_list_read(const char *path, const kiln_allocator *a, kiln_dir_list *out,
                               kiln_error *err);
/* What the listing said entry i is, without a stat: a folder or a regular file (never a link:
 * readdir reports a link as a link), or OTHER (a link, a device, or a file system that does not
 * say): stat it to know. */
typedef enum kiln_dir_entry_kind {
    KILN_DIR_ENTRY_OTHER = 1,
    KILN_DIR_ENTRY_FILE = 2,
    KILN_DIR_ENTRY_DIR = 3,
} kiln_dir_entry_kind;
kiln_dir_entry_kind kiln_dir_list_kind(const kiln_dir_list *l, size_t i);
/* Whether the listing holds name (a binary search: the names are sorted by strcmp). */
bool kiln_dir_list_has(const kiln_dir_list *l, const char *name);
/* The index of name in the listing, or l->count when it holds no such name. */
size_t kiln_dir_list_index(const kiln_dir_list *l, const char *name);
void kiln_dir_list_free(kiln_dir_list *l);

/* Wall-clock time in nanoseconds (CLOCK_REALTIME): for file-time comparisons only, never in
 * cooked output. */
int64_t kiln_time_now_ns(void);

#endif
