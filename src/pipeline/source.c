/* source.c — source digests with the stat shortcut (see source.h). */
#include "pipeline/source.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"

bool kiln_stat_matches(const json_t *st, const kiln_file_info *fi, uint8_t sha[KILN_SHA256_SIZE])
{
    if (!json_is_object(st)) return false;
    long long checked = kiln_json_int(st, "checked_ns", -1);
    if (kiln_json_int(st, "size", -1) != (long long)fi->size ||
        kiln_json_int(st, "mtime_ns", -1) != fi->mtime_ns ||
        kiln_json_int(st, "ctime_ns", -1) != fi->ctime_ns ||
        kiln_json_int(st, "ino", -1) != (long long)fi->ino)
        return false;
    /* Racily clean: modified so close to the hash that a same-tick edit would keep the mtime.
     * (An edit of an older file always moves mtime, so only a recent mtime is suspect.) */
    if (checked < 0 || fi->mtime_ns > checked - KILN_RACY_WINDOW_NS) return false;
    return kiln_unhex(kiln_json_str(st, "sha256", ""), sha, KILN_SHA256_SIZE);
}

json_t *kiln_stat_json(const kiln_file_info *fi, const uint8_t sha[KILN_SHA256_SIZE],
                       int64_t checked_ns)
{
    char hex[KILN_SHA256_HEX_SIZE];
    kiln_hex(sha, KILN_SHA256_SIZE, hex);
    json_t *j = json_object();
    json_object_set_new(j, "size", json_integer((json_int_t)fi->size));
    json_object_set_new(j, "mtime_ns", json_integer(fi->mtime_ns));
    json_object_set_new(j, "ctime_ns", json_integer(fi->ctime_ns));
    json_object_set_new(j, "ino", json_integer((json_int_t)fi->ino));
    json_object_set_new(j, "sha256", json_string(hex));
    json_object_set_new(j, "checked_ns", json_integer(checked_ns));
    return j;
}

kiln_result kiln_source_digest(kiln_project *p, const kiln_asset *a, const json_t *record,
                               bool need_bytes, kiln_source *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t checked = kiln_time_now_ns();
    kiln_file_info fi;
    kiln_result r = kiln_file_stat(a->abs, &fi, err);
    if (r != KILN_OK) return r;
    const json_t *st = json_object_get(record, "source");
    if (!need_bytes && kiln_stat_matches(st, &fi, out->sha)) {
        out->size = fi.size;
        out->stat = json_deep_copy(st);
        return KILN_OK;
    }
    r = kiln_file_read(a->abs, KILN_SOURCE_MAX_SIZE, &p->allocator, &out->data, &out->size, err);
    if (r != KILN_OK) return r;
    out->read = true;
    r = kiln_sha256_bytes(out->data, out->size, out->sha, err);
    if (r != KILN_OK) {
        kiln_source_free(p, out);
        return r;
    }
    /* Stat again: if the file changed while it was read, record nothing the shortcut could trust
     * (checked 0 makes every later look racy). */
    kiln_file_info after;
    bool stable = kiln_file_stat(a->abs, &after, NULL) == KILN_OK && after.size == out->size &&
                  after.mtime_ns == fi.mtime_ns && after.ctime_ns == fi.ctime_ns &&
                  after.ino == fi.ino;
    out->stat = kiln_stat_json(&fi, out->sha, stable ? checked : 0);
    return KILN_OK;
}

void kiln_source_free(kiln_project *p, kiln_source *s)
{
    if (s->data) kiln_free(&p->allocator, s->data, s->size + 1);
    json_decref(s->stat);
    memset(s, 0, sizeof *s);
}
