/* cache.c — publishing and reading content-addressed cache entries. An entry is built in a
 * private temporary folder and renamed into place in one step, so a reader sees either no
 * entry or a whole one; a crash leaves only a temporary folder that gc removes. */
#include "pipeline/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/log.h"
#include "core/path.h"

#define MANIFEST_MAX_SIZE (16u << 20)
#define RECORD_MAX_SIZE   (1u << 20)

void kiln_cache_entry_dir(const kiln_project *p, const char *key, char out[KILN_PATH_MAX])
{
    kiln_path_format(out, KILN_PATH_MAX, "%s/objects/%.2s/%s", p->cache, key, key);
}

/* The cache's own folders must be real folders: a symlink planted there would lead entries,
 * records and gc's deletions out of the allowed folders (the cache root itself is checked with
 * symlinks resolved by kiln_project_check_write). */
static kiln_result refuse_symlink(const char *path, kiln_error *err)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        kiln_error_set(err, KILN_E_OUTPUT_REFUSED,
                       "refusing to use %s: cache folders must not be symbolic links", path);
        kiln_error_at_path(err, path);
        return KILN_E_OUTPUT_REFUSED;
    }
    return KILN_OK;
}

void kiln_cache_records_root(const kiln_project *p, char out[KILN_PATH_MAX])
{
    if (p->platform[0])
        kiln_path_format(out, KILN_PATH_MAX, "%s/platforms/%s", p->cache, p->platform);
    else kiln_path_format(out, KILN_PATH_MAX, "%s", p->cache);
}

kiln_result kiln_cache_prepare(kiln_project *p, kiln_error *err)
{
    char root[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    const char *const subdirs[] = {"objects", "tmp", p->platform[0] ? "platforms" : NULL};
    kiln_result r = kiln_project_check_write(p, p->cache, err);
    for (size_t i = 0; r == KILN_OK && i < 3; i++) {
        if (!subdirs[i]) continue;
        char d[KILN_PATH_MAX];
        kiln_path_format(d, sizeof d, "%s/%s", p->cache, subdirs[i]);
        r = refuse_symlink(d, err);
        if (r == KILN_OK) r = kiln_mkdirs(d, err);
    }
    /* the platform's own folder, then its records' (each a real folder: see refuse_symlink) */
    char d[KILN_PATH_MAX];
    if (r == KILN_OK && p->platform[0]) r = refuse_symlink(root, err);
    kiln_path_format(d, sizeof d, "%s/assets", root);
    if (r == KILN_OK) r = refuse_symlink(d, err);
    if (r == KILN_OK) r = kiln_mkdirs(d, err);
    return r;
}

static bool is_plain_name(const char *s)
{
    return s && s[0] && s[0] != '.' && !strchr(s, '/') && !strchr(s, '\\') && strlen(s) < 128;
}

json_t *kiln_cache_entry_load(const kiln_project *p, const char *key, bool deep)
{
    char dir[KILN_PATH_MAX], path[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    kiln_path_format(path, sizeof path, "%s/manifest.json", dir);
    if (!kiln_file_exists(path)) return NULL;
    json_t *m = kiln_json_load_file(path, MANIFEST_MAX_SIZE, KILN_E_CACHE_CORRUPT, NULL);
    if (!m) return NULL;
    if (kiln_json_int(m, "kiln_manifest", 0) != KILN_MANIFEST_VERSION ||
        strcmp(kiln_json_str(m, "key", ""), key) != 0)
        goto broken;
    json_t *outs = json_object_get(m, "outputs");
    if (!json_is_array(outs) || json_array_size(outs) == 0) goto broken;
    size_t i;
    json_t *o;
    json_array_foreach (outs, i, o) {
        const char *file = kiln_json_str(o, "file", NULL);
        long long size = kiln_json_int(o, "size", -1);
        const char *sha = kiln_json_str(o, "sha256", "");
        if (!is_plain_name(file) || size < 0 || strlen(sha) != 64) goto broken;
        char fp[KILN_PATH_MAX];
        kiln_path_format(fp, sizeof fp, "%s/%s", dir, file);
        kiln_file_info info;
        if (kiln_file_stat(fp, &info, NULL) != KILN_OK || !info.is_file ||
            info.size != (uint64_t)size)
            goto broken;
        if (deep) {
            uint8_t d[KILN_SHA256_SIZE];
            char hex[KILN_SHA256_HEX_SIZE];
            if (kiln_sha256_file(fp, d, NULL, NULL) != KILN_OK) goto broken;
            kiln_hex(d, sizeof d, hex);
            if (strcmp(hex, sha) != 0) goto broken;
        }
    }
    return m;
broken:
    json_decref(m);
    return NULL;
}

static void unique_suffix(char *out, size_t n)
{
    kiln_path_format(out, n, "%ld-%lx-%llx", (long)getpid(), (unsigned long)pthread_self(),
                     (unsigned long long)kiln_time_now_ns());
}

kiln_result kiln_output_json(const kiln_output *o, json_t **out, kiln_error *err)
{
    *out = NULL;
    char hex[KILN_SHA256_HEX_SIZE];
    uint8_t d[KILN_SHA256_SIZE];
    kiln_result r = kiln_sha256_bytes(o->data, o->size, d, err);
    if (r != KILN_OK) return r;
    kiln_hex(d, sizeof d, hex);
    /* A second, fast digest for readers that check whole files on every load (libkiln_rt
     * verifies KTX2 files with it: XXH3 runs at memory speed, SHA-256 at ~1.3 GB/s). */
    uint8_t x[16];
    kiln_xxh3_128(o->data, o->size, x);
    char xhex[2 * sizeof x + 1];
    kiln_hex(x, sizeof x, xhex);
    json_t *e = json_object();
    json_object_set_new(e, "label", json_string(o->label));
    json_object_set_new(e, "file", json_string(o->file));
    json_object_set_new(e, "size", json_integer((json_int_t)o->size));
    json_object_set_new(e, "sha256", json_string(hex));
    json_object_set_new(e, "xxh3_128", json_string(xhex));
    *out = e;
    return KILN_OK;
}

kiln_result kiln_cache_entry_publish(kiln_project *p, const char *key, json_t *manifest,
                                     const kiln_output *outputs, size_t output_count,
                                     bool *already_present, kiln_error *err)
{
    *already_present = false;
    kiln_result r = kiln_cache_prepare(p, err);
    if (r != KILN_OK) return r;
    char tmp[KILN_PATH_MAX], suffix[96];
    unique_suffix(suffix, sizeof suffix);
    kiln_path_format(tmp, sizeof tmp, "%s/tmp/%s.%s", p->cache, key, suffix);
    if (mkdir(tmp, 0777) != 0) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot create %s: %s", tmp, strerror(errno));
        kiln_error_at_path(err, tmp);
        return KILN_E_ASSET_IO;
    }
    json_t *list = json_array();
    for (size_t i = 0; r == KILN_OK && i < output_count; i++) {
        const kiln_output *o = &outputs[i];
        if (KILN_NEVER(!is_plain_name(o->file) || !strcmp(o->file, "manifest.json"))) {
            r = kiln_error_set(err, KILN_E_INTERNAL, "bad output name %s", o->file);
            break;
        }
        char fp[KILN_PATH_MAX];
        kiln_path_format(fp, sizeof fp, "%s/%s", tmp, o->file);
        r = kiln_file_write_new(fp, o->data, o->size, err);
        json_t *e = NULL;
        if (r == KILN_OK) r = kiln_output_json(o, &e, err);
        if (r != KILN_OK) break;
        json_array_append_new(list, e);
    }
    json_object_set_new(manifest, "outputs", list);
    json_object_set_new(manifest, "key", json_string(key));
    json_object_set_new(manifest, "kiln_manifest", json_integer(KILN_MANIFEST_VERSION));
    char mp[KILN_PATH_MAX];
    kiln_path_format(mp, sizeof mp, "%s/manifest.json", tmp);
    if (r == KILN_OK) r = kiln_json_write_new(mp, manifest, err);
    if (r == KILN_OK) r = kiln_fsync_dir(tmp, err);

    char final[KILN_PATH_MAX], shard[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, final);
    kiln_path_format(shard, sizeof shard, "%s/objects/%.2s", p->cache, key);
    if (r == KILN_OK) r = refuse_symlink(shard, err);
    if (r == KILN_OK) r = kiln_mkdirs(shard, err);
    for (int attempt = 0; r == KILN_OK && attempt < 4; attempt++) {
        if (rename(tmp, final) == 0) {
            return kiln_fsync_dir(shard, err);
        }
        if (errno != EEXIST && errno != ENOTEMPTY) {
            r = kiln_error_set(err, KILN_E_ASSET_IO, "cannot rename %s to %s: %s", tmp, final,
                               strerror(errno));
            break;
        }
        json_t *existing = kiln_cache_entry_load(p, key, false);
        if (existing) {
            /* Another writer published the same key first: equal key, equal bytes. */
            json_decref(existing);
            *already_present = true;
            kiln_remove_tree(tmp, NULL);
            return KILN_OK;
        }
        /* A folder without a whole manifest: move it aside (atomic), then delete it. */
        kiln_log(&p->logger, KILN_LOG_WARNING,
                 "replacing cache entry %s: its folder has no whole manifest", key);
        char trash[KILN_PATH_MAX];
        unique_suffix(suffix, sizeof suffix);
        kiln_path_format(trash, sizeof trash, "%s/tmp/broken-%s.%s", p->cache, key, suffix);
        if (rename(final, trash) == 0) kiln_remove_tree(trash, NULL);
    }
    if (r == KILN_OK)
        r = kiln_error_set(err, KILN_E_ASSET_IO, "cannot publish cache entry %s", final);
    kiln_remove_tree(tmp, NULL);
    return r;
}

kiln_result kiln_cache_entry_discard(kiln_project *p, const char *key, kiln_error *err)
{
    kiln_result r = kiln_cache_prepare(p, err);
    if (r != KILN_OK) return r;
    char dir[KILN_PATH_MAX], shard[KILN_PATH_MAX], trash[KILN_PATH_MAX], suffix[96];
    kiln_cache_entry_dir(p, key, dir);
    kiln_path_format(shard, sizeof shard, "%s/objects/%.2s", p->cache, key);
    struct stat st;
    if (lstat(dir, &st) != 0) return KILN_OK;
    unique_suffix(suffix, sizeof suffix);
    kiln_path_format(trash, sizeof trash, "%s/tmp/broken-%s.%s", p->cache, key, suffix);
    if (rename(dir, trash) != 0) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot remove the cache entry %s: %s", dir,
                       strerror(errno));
        kiln_error_at_path(err, dir);
        return KILN_E_ASSET_IO;
    }
    r = kiln_fsync_dir(shard, err);
    kiln_remove_tree(trash, NULL); /* what is left is in tmp/, which gc clears */
    return r;
}

bool kiln_cache_entry_equals(const kiln_project *p, const char *key, const kiln_output *outputs,
                             size_t output_count)
{
    json_t *m = kiln_cache_entry_load(p, key, false);
    if (!m) return false;
    bool equal = json_array_size(json_object_get(m, "outputs")) == output_count;
    json_decref(m);
    char dir[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    for (size_t i = 0; equal && i < output_count; i++) {
        char fp[KILN_PATH_MAX];
        kiln_path_format(fp, sizeof fp, "%s/%s", dir, outputs[i].file);
        kiln_mapped_file f;
        if (kiln_file_map(fp, SIZE_MAX, &f, NULL) != KILN_OK) return false;
        equal = f.size == outputs[i].size && memcmp(f.data, outputs[i].data, f.size) == 0;
        kiln_file_unmap(&f);
    }
    return equal;
}

bool kiln_cache_entry_touch(const kiln_project *p, const char *key)
{
    char dir[KILN_PATH_MAX];
    kiln_cache_entry_dir(p, key, dir);
    /* best effort: LRU order is a hint, not a contract; only a missing folder is an answer */
    return utimensat(AT_FDCWD, dir, NULL, 0) == 0 || errno != ENOENT;
}

static void record_path(const kiln_project *p, const char *guid, char out[KILN_PATH_MAX])
{
    char root[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(out, KILN_PATH_MAX, "%s/assets/%s.json", root, guid);
}

json_t *kiln_cache_record_load(const kiln_project *p, const char *guid)
{
    char path[KILN_PATH_MAX];
    record_path(p, guid, path);
    if (!kiln_file_exists(path)) return NULL;
    json_t *rec = kiln_json_load_file(path, RECORD_MAX_SIZE, KILN_E_CACHE_CORRUPT, NULL);
    /* A record of another platform is not this one's: caches written before records were kept
     * per platform hold whichever platform imported last under assets/. */
    const json_t *pf = json_object_get(rec, "platform");
    const char *name = json_is_string(pf) ? json_string_value(pf) : "";
    if (rec && strcmp(name, p->platform) != 0) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}

kiln_result kiln_cache_record_write(kiln_project *p, const char *guid, const json_t *record,
                                    kiln_error *err)
{
    kiln_result r = kiln_cache_prepare(p, err);
    if (r != KILN_OK) return r;
    char path[KILN_PATH_MAX];
    record_path(p, guid, path);
    return kiln_json_write_atomic(path, record, err);
}

void kiln_cache_record_touch(const kiln_project *p, const char *guid)
{
    char root[KILN_PATH_MAX], path[KILN_PATH_MAX], dir[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(path, sizeof path, "%s/assets/%s.json", root, guid);
    kiln_path_format(dir, sizeof dir, "%s/assets", root);
    utimensat(AT_FDCWD, path, NULL, 0); /* best effort, as kiln_cache_entry_touch */
    utimensat(AT_FDCWD, dir, NULL, 0);
}

kiln_result kiln_cache_record_remove(kiln_project *p, const char *guid, kiln_error *err)
{
    char root[KILN_PATH_MAX], path[KILN_PATH_MAX], dir[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(path, sizeof path, "%s/assets/%s.json", root, guid);
    kiln_path_format(dir, sizeof dir, "%s/assets", root);
    if (remove(path) != 0 && errno != ENOENT)
        return kiln_error_set(err, KILN_E_ASSET_IO, "cannot remove the record %s: %s", path,
                              strerror(errno));
    return kiln_fsync_dir(dir, err);
}

static uint64_t tree_size(const char *dir, int depth)
{
    if (depth > 16) return 0;
    kiln_dir_list l;
    if (kiln_dir_list_read(dir, NULL, &l, NULL) != KILN_OK) return 0;
    uint64_t total = 0;
    for (size_t i = 0; i < l.count; i++) {
        char path[KILN_PATH_MAX];
        kiln_path_format(path, sizeof path, "%s/%s", dir, l.names[i]);
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) total += tree_size(path, depth + 1);
        else if (S_ISREG(st.st_mode)) total += (uint64_t)st.st_size;
    }
    kiln_dir_list_free(&l);
    return total;
}

uint64_t kiln_cache_size(const kiln_project *p) { return tree_size(p->cache, 0); }
