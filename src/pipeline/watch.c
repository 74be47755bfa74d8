/* watch.c — `kiln watch`: the asset root watched with Linux inotify, and each settled batch of
 * changes imported. Every folder under the root is watched (those created or moved in later as
 * they appear; dot-folders and the output and cache folders are skipped), and the project folder
 * for kiln.json. Events only note which paths changed; once nothing happened for the debounce
 * time (editors write a temporary file and rename it over, or write in several steps), the root
 * is scanned again (kiln_database_scan decides what is an asset) and the assets the batch
 * touched are imported through the ordinary import: changed or new sources, moved ones, models
 * whose recorded dependencies changed, and every asset when settings files changed (only stale
 * ones cook). Assets that left the scan lose their record. docs/cli.md ("watch") is the guide. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/import.h"
#include "pipeline/source.h"

#define WATCH_DEBOUNCE_MS 150
#define WATCH_MAX_WAIT    20 /* times the debounce: a batch is imported this late at the most */
#define WATCH_MAX_DEPTH   64 /* as kiln_database_scan */
#define WATCH_EVENTS                                                                               \
    (IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE)

typedef struct watch_dir {
    int wd;
    char *rel; /* the folder relative to the root, "" for the root itself (owned) */
} watch_dir;

struct kiln_watch {
    kiln_project *p;
    int fd;         /* inotify, non-blocking */
    int project_wd; /* the project folder (kiln.json); -1 when it lies in the root */
    bool has_wake;
    int wake_fd;
    int64_t debounce_ns, max_wait_ns;
    watch_dir *dirs;
    size_t dir_count, dir_cap;
    /* The batch being gathered: changed paths relative to the root, and whether every asset is
     * to be looked at (settings files changed, or the kernel's event queue overflowed). */
    json_t *pending; /* {rel: true} */
    json_t *causes;  /* [what made the batch look at every asset] */
    int64_t first_ns, last_ns;
    /* What the last imports said of each asset: {guid: {"path", "deps": [absolute paths],
     * "good": the key of its last import that worked}}. */
    json_t *known;
};

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Files whose change can change the settings or the asset list of many assets. */
static bool is_settings_file(const char *rel)
{
    const char *base = kiln_path_basename(rel);
    return ends_with(base, ".meta") || !strcmp(base, ".kilnignore") || !strcmp(base, "kiln.json");
}

static void batch_note(kiln_watch *w)
{
    int64_t t = now_ns();
    if (!json_object_size(w->pending) && !json_array_size(w->causes)) w->first_ns = t;
    w->last_ns = t;
}

static void pending_add(kiln_watch *w, const char *rel)
{
    batch_note(w);
    json_object_set_new(w->pending, rel, json_true());
    if (is_settings_file(rel)) json_array_append_new(w->causes, json_string(rel));
}

/* ---- the watched folders ------------------------------------------------------------------ */

static size_t dir_find(const kiln_watch *w, int wd)
{
    for (size_t i = 0; i < w->dir_count; i++)
        if (w->dirs[i].wd == wd) return i;
    return SIZE_MAX;
}

static void dir_remove_at(kiln_watch *w, size_t i)
{
    kiln_free(&w->p->allocator, w->dirs[i].rel, strlen(w->dirs[i].rel) + 1);
    w->dirs[i] = w->dirs[--w->dir_count];
}

static kiln_result dir_put(kiln_watch *w, int wd, const char *rel, kiln_error *err)
{
    char *copy = kiln_strdup(&w->p->allocator, rel);
    if (!copy) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory watching %s", rel);
    size_t i = dir_find(w, wd); /* the same folder under another name: it moved */
    if (i != SIZE_MAX) {
        kiln_free(&w->p->allocator, w->dirs[i].rel, strlen(w->dirs[i].rel) + 1);
        w->dirs[i].rel = copy;
        return KILN_OK;
    }
    if (w->dir_count == w->dir_cap) {
        size_t cap = w->dir_cap ? w->dir_cap * 2 : 32;
        watch_dir *d =
            kiln_realloc(&w->p->allocator, w->dirs, w->dir_cap * sizeof *d, cap * sizeof *d);
        if (!d) {
            kiln_free(&w->p->allocator, copy, strlen(copy) + 1);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory watching %s", rel);
        }
        w->dirs = d;
        w->dir_cap = cap;
    }
    w->dirs[w->dir_count++] = (watch_dir){wd, copy};
    return KILN_OK;
}

/* A folder that left the root (or its place): its watch and those of the folders below go. */
static void dirs_drop_under(kiln_watch *w, const char *rel)
{
    size_t n = strlen(rel);
    for (size_t i = 0; i < w->dir_count;) {
        const char *d = w->dirs[i].rel;
        if (!strncmp(d, rel, n) && (d[n] == '\0' || d[n] == '/')) {
            inotify_rm_watch(w->fd, w->dirs[i].wd);
            dir_remove_at(w, i);
        } else {
            i++;
        }
    }
}

static bool rel_join(const char *dir, const char *name, char *out, size_t size)
{
    return dir[0] ? kiln_path_format(out, size, "%s/%s", dir, name)
                  : kiln_path_format(out, size, "%s", name);
}

/* Watches the folder rel and every folder below it. mark: the files found are changes (a folder
 * created or moved in: what it holds arrived with it, and may have been written before its watch
 * was in place). */
static kiln_result add_tree(kiln_watch *w, const char *rel, int depth, bool mark, kiln_error *err)
{
    kiln_project *p = w->p;
    if (!rel[0] && kiln_roots_named(p)) { /* the top of several roots is no folder: each root */
        kiln_result r = KILN_OK;
        for (size_t i = 0; i < p->root_count && r == KILN_OK; i++)
            r = add_tree(w, p->roots[i].prefix, depth, mark, err);
        return r;
    }
    char abs[KILN_PATH_MAX];
    if (!kiln_roots_file_of(p, rel, abs, sizeof abs))
        return kiln_error_set(err, KILN_E_LIMIT, "%s: path too long", rel);
    if (depth > WATCH_MAX_DEPTH) {
        const kiln_asset_root *root = kiln_roots_holding(p, abs);
        return kiln_error_set(err, KILN_E_LIMIT, "folders nested deeper than %d under %s",
                              WATCH_MAX_DEPTH, root ? root->dir : abs);
    }
    if (!strcmp(abs, p->out) || !strcmp(abs, p->cache)) return KILN_OK; /* kiln's own output */
    int wd = inotify_add_watch(w->fd, abs, WATCH_EVENTS | IN_ONLYDIR | IN_DONT_FOLLOW);
    if (wd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return KILN_OK; /* gone again already */
        if (errno == ENOSPC)
            return kiln_error_set(err, KILN_E_LIMIT,
                                  "cannot watch %s: the inotify watch limit is reached (raise "
                                  "/proc/sys/fs/inotify/max_user_watches)",
                                  abs);
        return kiln_error_set(err, KILN_E_ASSET_IO, "cannot watch %s: %s", abs, strerror(errno));
    }
    kiln_result r = dir_put(w, wd, rel, err);
    if (r != KILN_OK) return r;
    kiln_dir_list names;
    if (kiln_dir_list_read(abs, &p->allocator, &names, NULL) != KILN_OK) return KILN_OK;
    for (size_t i = 0; i < names.count && r == KILN_OK; i++) {
        const char *name = names.names[i];
        if (name[0] == '.') continue; /* as the scan: .git, .kiln, editors' files */
        char child_rel[KILN_PATH_MAX], child[KILN_PATH_MAX];
        if (!rel_join(rel, name, child_rel, sizeof child_rel) ||
            !kiln_path_format(child, sizeof child, "%s/%s", abs, name))
            continue;
        struct stat st;
        if (lstat(child, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) r = add_tree(w, child_rel, depth + 1, mark, err);
        else if (mark) pending_add(w, child_rel);
    }
    kiln_dir_list_free(&names);
    return r;
}

/* ---- events -------------------------------------------------------------------------------- */

static kiln_result on_event(kiln_watch *w, const struct inotify_event *ev, kiln_error *err)
{
    if (ev->mask & IN_Q_OVERFLOW) { /* events were lost: look at everything */
        batch_note(w);
        json_array_append_new(w->causes,
                              json_string("(events lost: the inotify queue overflowed)"));
        return KILN_OK;
    }
    const char *name = ev->len ? ev->name : "";
    if (w->project_wd >= 0 && ev->wd == w->project_wd) {
        if (!strcmp(name, "kiln.json") || !strcmp(name, ".kilnignore")) {
            batch_note(w);
            json_array_append_new(w->causes, json_string(name));
        }
        return KILN_OK;
    }
    size_t i = dir_find(w, ev->wd);
    if (i == SIZE_MAX) return KILN_OK;
    if (ev->mask & IN_IGNORED) { /* the kernel dropped the watch: the folder is gone */
        dir_remove_at(w, i);
        return KILN_OK;
    }
    if (!name[0]) return KILN_OK; /* about the folder itself: its parent says what happened */
    char rel[KILN_PATH_MAX];
    if (!rel_join(w->dirs[i].rel, name, rel, sizeof rel)) return KILN_OK;
    if (ev->mask & IN_ISDIR) {
        if (name[0] == '.') return KILN_OK;
        if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
            dirs_drop_under(w, rel);
            pending_add(w, rel); /* its assets leave the scan */
        }
        if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
            pending_add(w, rel);
            return add_tree(w, rel, 1, true, err);
        }
        return KILN_OK;
    }
    /* Dot-files are not assets (editors' temporary files); .kilnignore decides what is. */
    if (name[0] == '.' && strcmp(name, ".kilnignore") != 0) return KILN_OK;
    pending_add(w, rel);
    return KILN_OK;
}

static kiln_result read_events(kiln_watch *w, kiln_error *err)
{
    _Alignas(struct inotify_event) char buf[16384];
    for (;;) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return KILN_OK;
        if (n <= 0)
            return kiln_error_set(err, KILN_E_ASSET_IO, "reading inotify events: %s",
                                  n < 0 ? strerror(errno) : "end of file");
        size_t size = (size_t)n, pos = 0;
        while (size - pos >= sizeof(struct inotify_event)) {
            const struct inotify_event *ev = (const struct inotify_event *)(buf + pos);
            if (size - pos - sizeof *ev < ev->len) break; /* the kernel never splits one */
            kiln_result r = on_event(w, ev, err);
            if (r != KILN_OK) return r;
            pos += sizeof *ev + ev->len;
        }
    }
}

/* ---- importing a batch ---------------------------------------------------------------------- */

/* Remembers what an import of a said: its path, the files it read, its last good entry. */
static void remember(kiln_watch *w, const kiln_asset *a, const json_t *rec)
{
    const char *status = kiln_json_str(rec, "status", "");
    if (!strcmp(status, "unsupported")) return;
    json_t *old = json_object_get(w->known, a->guid);
    json_t *k = json_object();
    json_object_set_new(k, "path", json_string(a->rel));
    json_object_set_new(k, "deps", kiln_deps_recorded_paths(w->p, a));
    const char *key = kiln_json_str(rec, "key", NULL);
    if (strcmp(status, "failed") != 0 && key) json_object_set_new(k, "good", json_string(key));
    else if (json_object_get(old, "good")) json_object_set(k, "good", json_object_get(old, "good"));
    json_object_set_new(w->known, a->guid, k);
}

/* What in the batch concerns asset a: its own path ("changed", or "added" when it is new), its
 * old path ("moved"), a file it read ("changed"), or the settings files that make the batch look
 * at every asset (*quiet then: it is said only when it was cooked or failed). NULL: nothing. */
static const char *cause_of(kiln_watch *w, const kiln_asset *a, const char **change, bool *quiet)
{
    *quiet = false;
    *change = "changed";
    json_t *k = json_object_get(w->known, a->guid);
    if (!k) {
        *change = "added";
        return a->rel;
    }
    const char *was = kiln_json_str(k, "path", "");
    if (strcmp(was, a->rel) != 0) {
        *change = "moved";
        return was;
    }
    if (json_object_get(w->pending, a->rel)) return a->rel;
    size_t i;
    json_t *dep;
    json_array_foreach (json_object_get(k, "deps"), i, dep) {
        char name[KILN_PATH_MAX];
        if (kiln_roots_name_of(w->p, json_string_value(dep), name, sizeof name) &&
            json_object_get(w->pending, name))
            return json_object_iter_key(json_object_iter_at(w->pending, name)); /* stays put */
    }
    if (json_array_size(w->causes)) {
        *quiet = true;
        return json_string_value(json_array_get(w->causes, 0));
    }
    return NULL;
}

static json_t *sorted_changes(const kiln_watch *w)
{
    json_t *list = json_array();
    const char *rel;
    json_t *v;
    json_object_foreach (w->pending, rel, v) json_array_append_new(list, json_string(rel));
    size_t n = json_array_size(list);
    for (size_t i = 1; i < n; i++) /* insertion sort: batches are small */
        for (size_t j = i; j > 0 && strcmp(json_string_value(json_array_get(list, j - 1)),
                                           json_string_value(json_array_get(list, j))) > 0;
             j--) {
            json_t *t = json_incref(json_array_get(list, j));
            json_array_set(list, j, json_array_get(list, j - 1));
            json_array_set_new(list, j - 1, t);
        }
    size_t i;
    json_array_foreach (w->causes, i, v) {
        if (!json_object_get(w->pending, json_string_value(v))) json_array_append(list, v);
    }
    return list;
}

static void batch_clear(kiln_watch *w)
{
    json_object_clear(w->pending);
    json_array_clear(w->causes);
}

static kiln_result import_batch(kiln_watch *w, char **result_json, kiln_error *err)
{
    kiln_project *p = w->p;
    kiln_asset *assets = NULL;
    size_t n = 0;
    kiln_result r = kiln_database_scan(p, &assets, &n, err);
    if (r != KILN_OK) {
        batch_clear(w);
        return r;
    }
    json_t *changes = sorted_changes(w);
    json_t *seen = json_object(), *causes = json_array(), *quiet = json_array();
    size_t picked = 0;
    for (size_t i = 0; i < n; i++) {
        json_object_set_new(seen, assets[i].guid, json_true());
        bool q;
        const char *change;
        const char *cause = cause_of(w, &assets[i], &change, &q);
        if (!cause) continue;
        json_array_append_new(causes, json_pack("{s:s,s:s}", "because", cause, "change", change));
        json_array_append_new(quiet, json_boolean(q));
        kiln_asset t = assets[picked]; /* picked ones to the front, in scan order */
        assets[picked++] = assets[i];
        assets[i] = t;
    }
    /* Sources that left the scan: their records go, so the runtime stops mounting them. */
    json_t *removed = json_array(), *gone = json_array();
    const char *guid;
    json_t *k;
    json_object_foreach (w->known, guid, k) {
        if (json_object_get(seen, guid)) continue;
        json_t *row = json_object();
        json_object_set(row, "path", json_object_get(k, "path"));
        json_object_set_new(row, "guid", json_string(guid));
        kiln_error e;
        if (kiln_cache_record_remove(p, guid, &e) == KILN_OK) {
            json_object_set_new(row, "record", json_string("removed"));
        } else {
            json_object_set_new(row, "record", json_string("kept"));
            json_object_set_new(row, "error", kiln_error_json(&e));
        }
        json_array_append_new(removed, row);
        json_array_append_new(gone, json_string(guid));
    }
    size_t i;
    json_t *g;
    json_array_foreach (gone, i, g) json_object_del(w->known, json_string_value(g));
    json_decref(gone);
    json_decref(seen);
    batch_clear(w);

    json_t *idoc = NULL;
    kiln_error ierr;
    kiln_error_clear(&ierr);
    kiln_result ir = KILN_OK;
    if (picked) ir = kiln_import_assets(p, assets, picked, 0, &idoc, &ierr);
    if (picked && !idoc) { /* the import as a whole failed (the cache cannot be prepared) */
        kiln_assets_free(p, assets, n);
        json_decref(changes);
        json_decref(causes);
        json_decref(quiet);
        json_decref(removed);
        if (err) *err = ierr;
        return ir;
    }
    json_t *records = json_array(), *failed = json_array();
    size_t imported = 0, cached = 0, nfailed = 0;
    json_t *rec;
    json_array_foreach (json_object_get(idoc, "records"), i, rec) {
        if (i >= picked) break;
        const char *status = kiln_json_str(rec, "status", "");
        const char *good = kiln_json_str(json_object_get(w->known, assets[i].guid), "good", NULL);
        bool is_failed = !strcmp(status, "failed"), is_cached = !strcmp(status, "cached");
        remember(w, &assets[i], rec);
        if (is_cached && json_is_true(json_array_get(quiet, i))) continue; /* nothing to say */
        json_t *row = json_deep_copy(json_array_get(causes, i));           /* because, change */
        json_object_set(row, "import", rec);
        if (is_failed && good) json_object_set_new(row, "kept_key", json_string(good));
        json_array_append_new(records, row);
        imported += !strcmp(status, "imported");
        cached += is_cached;
        if (is_failed) {
            nfailed++;
            json_t *f = json_object();
            json_object_set(f, "path", json_object_get(rec, "path"));
            json_object_set(f, "error", json_object_get(rec, "error"));
            json_array_append_new(failed, f);
        }
    }
    json_decref(idoc);
    json_decref(causes);
    json_decref(quiet);
    kiln_assets_free(p, assets, n);
    if (!json_array_size(records) && !json_array_size(removed)) { /* touched no asset */
        json_decref(changes);
        json_decref(records);
        json_decref(failed);
        json_decref(removed);
        return KILN_OK;
    }
    json_t *totals = json_object();
    json_object_set_new(totals, "imported", json_integer((json_int_t)imported));
    json_object_set_new(totals, "cached", json_integer((json_int_t)cached));
    json_object_set_new(totals, "failed", json_integer((json_int_t)nfailed));
    json_object_set_new(totals, "removed", json_integer((json_int_t)json_array_size(removed)));
    json_t *doc = json_object();
    json_object_set_new(doc, "command", json_string("watch"));
    kiln_roots_json_set(p, doc);
    json_object_set_new(doc, "cache", json_string(p->cache));
    json_object_set_new(doc, "platform", p->platform[0] ? json_string(p->platform) : json_null());
    json_object_set_new(doc, "changes", changes);
    json_object_set_new(doc, "records", records);
    json_object_set_new(doc, "removed", removed);
    json_object_set_new(doc, "failed", failed);
    json_object_set_new(doc, "totals", totals);
    *result_json = kiln_project_take_json(doc);
    if (ir != KILN_OK && err) *err = ierr;
    return ir;
}

/* ---- the public API ------------------------------------------------------------------------- */

KILN_API kiln_result kiln_watch_open(kiln_project *p, const kiln_watch_opts *opts, kiln_watch **out,
                                     char **result_json, kiln_error *err)
{
    *out = NULL;
    *result_json = NULL;
    kiln_watch_opts o = {0};
    if (opts) {
        size_t size = opts->struct_size ? opts->struct_size : sizeof o;
        memcpy(&o, opts, size < sizeof o ? size : sizeof o);
    }
    kiln_watch *w = kiln_calloc(&p->allocator, 1, sizeof *w);
    if (!w) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    w->p = p;
    w->project_wd = -1;
    w->has_wake = o.has_wake_fd;
    w->wake_fd = o.wake_fd;
    uint32_t ms = o.debounce_ms ? o.debounce_ms : WATCH_DEBOUNCE_MS;
    w->debounce_ns = (int64_t)ms * 1000000;
    w->max_wait_ns = w->debounce_ns * WATCH_MAX_WAIT;
    w->pending = json_object();
    w->causes = json_array();
    w->known = json_object();
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    kiln_result r = KILN_OK;
    if (w->fd < 0) {
        r = kiln_error_set(err, errno == ENOSYS ? KILN_E_USAGE : KILN_E_ASSET_IO,
                           "cannot watch files: inotify: %s", strerror(errno));
        goto fail;
    }
    /* The watches first, then the import: what changes while it runs is the first batch. */
    r = add_tree(w, "", 0, false, err);
    if (r != KILN_OK) goto fail;
    if (!kiln_roots_holding(p, p->project_dir)) {
        w->project_wd = inotify_add_watch(w->fd, p->project_dir,
                                          IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |
                                              IN_CREATE | IN_ONLYDIR);
    }
    kiln_asset *assets = NULL;
    size_t n = 0;
    r = kiln_database_scan(p, &assets, &n, err);
    if (r != KILN_OK) goto fail;
    json_t *doc = NULL;
    r = kiln_import_assets(p, assets, n, KILN_IMPORT_ALL, &doc, err);
    if (!doc) {
        kiln_assets_free(p, assets, n);
        goto fail;
    }
    size_t i;
    json_t *rec;
    json_array_foreach (json_object_get(doc, "records"), i, rec) {
        if (i < n) remember(w, &assets[i], rec);
    }
    kiln_assets_free(p, assets, n);
    *result_json = kiln_project_take_json(doc);
    *out = w;
    return r;
fail:
    kiln_watch_close(w);
    return r;
}

KILN_API kiln_result kiln_watch_poll(kiln_watch *w, int timeout_ms, char **result_json,
                                     kiln_error *err)
{
    *result_json = NULL;
    int64_t deadline = timeout_ms < 0 ? INT64_MAX : now_ns() + (int64_t)timeout_ms * 1000000;
    for (;;) {
        int64_t now = now_ns(), until = deadline;
        if (json_object_size(w->pending) || json_array_size(w->causes)) {
            int64_t settled = w->last_ns + w->debounce_ns, late = w->first_ns + w->max_wait_ns;
            int64_t due = settled < late ? settled : late;
            if (now >= due) return import_batch(w, result_json, err);
            if (due < until) until = due;
        }
        if (until != INT64_MAX && now >= until) return KILN_OK; /* the time ran out */
        int ms = -1;
        if (until != INT64_MAX) { /* rounded up: a wait of 0 ms would spin until the due time */
            int64_t wait = (until - now + 999999) / 1000000;
            ms = wait > INT_MAX ? INT_MAX : (int)wait;
        }
        struct pollfd fds[2] = {{w->fd, POLLIN, 0}, {w->wake_fd, POLLIN, 0}};
        int got = poll(fds, w->has_wake ? 2 : 1, ms);
        if (got < 0 && errno == EINTR) return KILN_OK; /* a signal: the caller decides */
        if (got < 0)
            return kiln_error_set(err, KILN_E_ASSET_IO, "waiting for changes: %s", strerror(errno));
        if (w->has_wake && fds[1].revents) return KILN_OK;
        if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL))
            return kiln_error_set(err, KILN_E_ASSET_IO, "the inotify descriptor failed");
        if (fds[0].revents & POLLIN) {
            kiln_result r = read_events(w, err);
            if (r != KILN_OK) return r;
        }
    }
}

KILN_API int kiln_watch_fd(const kiln_watch *w) { return w->fd; }

KILN_API void kiln_watch_close(kiln_watch *w)
{
    if (!w) return;
    if (w->fd >= 0) close(w->fd); /* drops every watch */
    for (size_t i = 0; i < w->dir_count; i++)
        kiln_free(&w->p->allocator, w->dirs[i].rel, strlen(w->dirs[i].rel) + 1);
    kiln_free(&w->p->allocator, w->dirs, w->dir_cap * sizeof *w->dirs);
    json_decref(w->pending);
    json_decref(w->causes);
    json_decref(w->known);
    kiln_free(&w->p->allocator, w, sizeof *w);
}
