/* cache_size.c — the size of the cache without walking all of it (cache_size.h). Entry folders
 * never change once published, and a record is replaced by a rename, so a change in the bytes
 * under objects/<xx> or a records folder changes that folder's stamp (mtime, ctime, inode). The
 * memo, <cache>/size.memo, keeps each such folder's bytes under its stamp:
 *
 *   kiln-size-memo 1
 *   <folder relative to the cache> <mtime_ns> <ctime_ns> <ino> <bytes> NL ...   sorted by folder
 *   checksum <16 hex: XXH3-64 of every byte before this line>
 *
 * A folder whose stamp is not the memo's, or was taken within 2 s of its change (racy), is
 * walked. Everything else under the cache (tmp, indexes, loose files) is walked every time: it
 * is small. The memo is a cache: missing or damaged, it is ignored. */
#include "pipeline/cache_size.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/hash.h"
#include "core/path.h"
#include "pipeline/record_index.h"

#define MEMO_MAX_SIZE ((size_t)1 << 20)
#define MEMO_MAX_DIRS 4096

typedef struct memo_dir {
    char rel[128];
    int64_t mtime_ns, ctime_ns;
    uint64_t ino, bytes;
} memo_dir;

typedef struct memo {
    memo_dir *dirs;
    size_t count, capacity;
    bool failed;
} memo;

static int by_rel(const void *x, const void *y)
{
    return strcmp(((const memo_dir *)x)->rel, ((const memo_dir *)y)->rel);
}

static void memo_add(memo *m, const memo_dir *d)
{
    if (m->count == m->capacity) {
        size_t nc = m->capacity ? m->capacity * 2 : 64;
        memo_dir *nd = nc <= MEMO_MAX_DIRS
                           ? kiln_realloc(NULL, m->dirs, m->capacity * sizeof *nd, nc * sizeof *nd)
                           : NULL;
        if (!nd) {
            m->failed = true;
            return;
        }
        m->dirs = nd;
        m->capacity = nc;
    }
    m->dirs[m->count++] = *d;
}

bool kiln_cache_size_memo_parse(const char *text, size_t size, kiln_cache_size_memo *out)
{
    memo *m = kiln_calloc(NULL, 1, sizeof *m);
    out->opaque = m;
    if (!m || size < 26 || text[size - 1] != '\n') return false;
    const char *last = text + size - 1;
    while (last > text && last[-1] != '\n') last--;
    unsigned long long sum;
    int used = 0;
    if (sscanf(last, "checksum %16llx%n", &sum, &used) != 1 || last + used != text + size - 1 ||
        kiln_xxh3_64(text, (size_t)(last - text)) != sum)
        return false;
    const char *at = text, *end = last;
    const char *nl = memchr(at, '\n', (size_t)(end - at));
    if (!nl || (size_t)(nl - at) != 16 || memcmp(at, "kiln-size-memo 1", 16) != 0) return false;
    at = nl + 1;
    while (at < end) {
        nl = memchr(at, '\n', (size_t)(end - at));
        if (!nl || nl - at > 400) return false;
        char line[401];
        memcpy(line, at, (size_t)(nl - at));
        line[nl - at] = '\0';
        memo_dir d;
        long long mt, ct;
        unsigned long long ino, bytes;
        int n = 0;
        if (sscanf(line, "%127s %lld %lld %llu %llu%n", d.rel, &mt, &ct, &ino, &bytes, &n) != 5 ||
            line[n] != '\0')
            return false;
        d.mtime_ns = mt;
        d.ctime_ns = ct;
        d.ino = ino;
        d.bytes = bytes;
        if (m->count && strcmp(m->dirs[m->count - 1].rel, d.rel) >= 0) return false;
        memo_add(m, &d);
        if (m->failed) return false;
        at = nl + 1;
    }
    return true;
}

void kiln_cache_size_memo_free(kiln_cache_size_memo *mm)
{
    memo *m = mm->opaque;
    if (m) {
        kiln_free(NULL, m->dirs, m->capacity * sizeof *m->dirs);
        kiln_free(NULL, m, sizeof *m);
    }
    mm->opaque = NULL;
}

static const memo_dir *memo_find(const memo *m, const char *rel)
{
    if (!m) return NULL;
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->dirs[mid].rel, rel);
        if (c == 0) return &m->dirs[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The folders whose bytes are kept under their stamp: objects/<xx>, assets, platforms/<P>/assets
 * (rel is relative to the cache). */
static bool memoised(const char *rel)
{
    if (!strcmp(rel, "assets")) return true;
    if (!strncmp(rel, "objects/", 8)) return strlen(rel) == 10 && !strchr(rel + 8, '/');
    if (!strncmp(rel, "platforms/", 10)) {
        const char *slash = strchr(rel + 10, '/');
        return slash && slash > rel + 10 && !strcmp(slash, "/assets");
    }
    return false;
}

typedef struct walk {
    const memo *old;
    memo fresh;    /* the folders this walk can vouch for */
    int64_t clock; /* read before the walk: the racy rule */
    bool changed;  /* fresh differs from old */
} walk;

static uint64_t tree(walk *w, const char *dir, const char *rel, int depth);

static uint64_t entry_size(walk *w, const char *path, const char *rel, int depth)
{
    struct stat st;
    if (lstat(path, &st) != 0) return 0;
    if (S_ISREG(st.st_mode)) return (uint64_t)st.st_size;
    if (!S_ISDIR(st.st_mode)) return 0;
    if (!memoised(rel) || strlen(rel) >= sizeof((memo_dir *)0)->rel)
        return tree(w, path, rel, depth + 1);
    memo_dir d;
    snprintf(d.rel, sizeof d.rel, "%s", rel);
    d.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    d.ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
    d.ino = (uint64_t)st.st_ino;
    const memo_dir *o = memo_find(w->old, rel);
    bool same = o && o->mtime_ns == d.mtime_ns && o->ctime_ns == d.ctime_ns && o->ino == d.ino;
    bool trusted =
        d.mtime_ns <= w->clock - KILN_INDEX_RACY_NS && d.ctime_ns <= w->clock - KILN_INDEX_RACY_NS;
    d.bytes = same && trusted ? o->bytes : tree(w, path, rel, depth + 1);
    if (trusted) memo_add(&w->fresh, &d);
    if (!same || !trusted) w->changed = true;
    return d.bytes;
}

static uint64_t tree(walk *w, const char *dir, const char *rel, int depth)
{
    if (depth > 16) return 0;
    kiln_dir_list l;
    if (kiln_dir_list_read(dir, NULL, &l, NULL) != KILN_OK) return 0;
    uint64_t total = 0;
    for (size_t i = 0; i < l.count; i++) {
        char path[KILN_PATH_MAX], sub[KILN_PATH_MAX];
        kiln_path_format(path, sizeof path, "%s/%s", dir, l.names[i]);
        kiln_path_format(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", l.names[i]);
        total += entry_size(w, path, sub, depth);
    }
    kiln_dir_list_free(&l);
    return total;
}

static void memo_path(const kiln_project *p, char out[KILN_PATH_MAX])
{
    kiln_path_format(out, KILN_PATH_MAX, "%s/size.memo", p->cache);
}

static void memo_write(const kiln_project *p, memo *m)
{
    if (m->count) qsort(m->dirs, m->count, sizeof *m->dirs, by_rel);
    kiln_buf b;
    kiln_buf_init(&b, NULL);
    kiln_buf_append_str(&b, "kiln-size-memo 1\n");
    for (size_t i = 0; i < m->count; i++) {
        char line[256];
        const memo_dir *d = &m->dirs[i];
        snprintf(line, sizeof line, "%s %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIu64 "\n", d->rel,
                 d->mtime_ns, d->ctime_ns, d->ino, d->bytes);
        kiln_buf_append_str(&b, line);
    }
    if (!b.failed) {
        char line[64];
        snprintf(line, sizeof line, "checksum %016" PRIx64 "\n", kiln_xxh3_64(b.data, b.size));
        kiln_buf_append_str(&b, line);
    }
    char path[KILN_PATH_MAX];
    memo_path(p, path);
    if (!b.failed) (void)kiln_file_write_atomic(path, b.data, b.size, NULL);
    kiln_buf_free(&b);
}

uint64_t kiln_cache_size_known(const kiln_project *p, bool update)
{
    char path[KILN_PATH_MAX];
    memo_path(p, path);
    uint8_t *text = NULL;
    size_t size = 0;
    kiln_cache_size_memo old = {0};
    bool have = kiln_file_read(path, MEMO_MAX_SIZE, NULL, &text, &size, NULL) == KILN_OK &&
                kiln_cache_size_memo_parse((const char *)text, size, &old);
    if (text) kiln_free(NULL, text, size + 1);
    walk w = {have ? old.opaque : NULL, {0}, kiln_time_now_ns(), !have};
    uint64_t total = tree(&w, p->cache, "", 0);
    if (w.old && w.fresh.count != w.old->count) w.changed = true; /* a folder went */
    if (update && w.changed && !w.fresh.failed) memo_write(p, &w.fresh);
    kiln_free(NULL, w.fresh.dirs, w.fresh.capacity * sizeof *w.fresh.dirs);
    kiln_cache_size_memo_free(&old);
    return total;
}
