/* record_index.c — the record index (record_index.h). The file is text, one row per line:
 *
 *   kiln-index 2
 *   context <16 hex: XXH3-64 of what the key depends on besides the files: pipeline version,
 *            platform, root, each kind's name and default settings>
 *   records <mtime_ns> <ctime_ns> <ino> <size> <clock_ns>   the records folder when written
 *   shards <n>
 *   <xx> <mtime_ns> <ctime_ns> <ino> NL ...      objects/<xx> as the run that wrote it began
 *   rows <count>
 *   <rel> TAB <guid> TAB <key> TAB <source sig> TAB <.meta sig or -> TAB <warnings>
 *         TAB <n deps> (TAB <dep path> TAB <dep sig or missing>)* TAB <view ref> NL ...
 *   checksum <16 hex: XXH3-64 of every byte before this line>
 *
 * A signature is "size,mtime_ns,ctime_ns,ino,checked_ns" (checked_ns: a clock read before the
 * stat). Rows are sorted by rel (strcmp), so a look-up is a binary search. The views (compact
 * JSON of what import and report show of an entry: only --verbose and --json print them) are in
 * assets.views beside it, one per line; a view ref is "offset,size,XXH3-64 of the view", so a
 * no-op that prints no view reads a third of the bytes, and a view that does not check (another
 * writer's file) is a miss. In memory, before writing, a row is the same line with the view's
 * text in place of its ref. */
#include "pipeline/record_index.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/cook.h"
#include "pipeline/roots.h"
#include "pipeline/source.h"

typedef struct index_sig {
    uint64_t size, ino;
    int64_t mtime_ns, ctime_ns, checked_ns;
} index_sig;

struct kiln_index_row {
    const char *rel, *guid, *key, *source, *meta, *deps;
    size_t dep_count, warnings;
    uint64_t view_at, view_size, view_sum; /* the view's bytes in assets.views */
};

#define VIEW_MAX_SIZE ((uint64_t)16 << 20)

static void index_path(kiln_project *p, char out[KILN_PATH_MAX])
{
    char root[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(out, KILN_PATH_MAX, "%s/assets.index", root);
}

static void views_path(kiln_project *p, char out[KILN_PATH_MAX])
{
    char root[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(out, KILN_PATH_MAX, "%s/assets.views", root);
}

static void records_dir(kiln_project *p, char out[KILN_PATH_MAX])
{
    char root[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(out, KILN_PATH_MAX, "%s/assets", root);
}

/* What a key depends on besides the bytes of the files a row signs. */
static uint64_t context_of(kiln_project *p)
{
    kiln_buf b;
    kiln_buf_init(&b, &p->allocator);
    char head[KILN_PATH_MAX * 2 + 128];
    snprintf(head, sizeof head, "pipeline %d\nplatform %s\nroot %s\ncache %s\n",
             KILN_PIPELINE_VERSION, p->platform, kiln_roots_id(p), p->cache);
    kiln_buf_append_str(&b, head);
    const kiln_source_kind *k;
    for (size_t i = 0; (k = kiln_source_kind_at(p->kinds, i)) != NULL; i++) {
        kiln_asset a;
        memset(&a, 0, sizeof a);
        a.kind = k;
        kiln_settings_default_ext(&a.settings, kiln_kinds_settings(p->kinds));
        a.prefers_astc = kiln_platform_prefers_astc(p->platform);
        json_t *s = k->settings_json(&a);
        char *canon = s ? kiln_json_dump_canonical(s) : NULL;
        json_decref(s);
        kiln_buf_append_str(&b, k->name);
        kiln_buf_append_str(&b, "\n");
        if (canon) kiln_buf_append_str(&b, canon);
        kiln_buf_append_str(&b, "\n");
        free(canon);
        /* the versions of a kind's external tools enter its keys (a compiler): a row written
         * by a kiln linked against another compiler must not hold */
        if (k->tools) {
            char tools[512];
            kiln_buf_append_str(&b, "tools ");
            kiln_buf_append_str(&b, k->tools(tools, sizeof tools));
            kiln_buf_append_str(&b, "\n");
        }
    }
    uint64_t h = b.failed ? 0 : kiln_xxh3_64(b.data, b.size);
    kiln_buf_free(&b);
    return h;
}

/* The next number of a signature, then its separator (sep; '\0' for the last). No sscanf: a
 * no-op runs this for every asset and sscanf was a third of its time. */
static bool sig_number(const char **at, char sep, bool sign, uint64_t *out)
{
    const char *s = *at;
    bool negative = sign && *s == '-';
    if (negative) s++;
    uint64_t v = 0;
    const char *first = s;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (s == first || *s != sep || (sign && v > (uint64_t)INT64_MAX)) return false;
    *out = negative ? (uint64_t)0 - v : v;
    *at = sep ? s + 1 : s;
    return true;
}

static bool sig_parse(const char *s, index_sig *out)
{
    uint64_t size, m, c, ino, k;
    if (!sig_number(&s, ',', false, &size) || !sig_number(&s, ',', true, &m) ||
        !sig_number(&s, ',', true, &c) || !sig_number(&s, ',', false, &ino) ||
        !sig_number(&s, '\0', true, &k))
        return false;
    *out = (index_sig){size, ino, (int64_t)m, (int64_t)c, (int64_t)k};
    return true;
}

/* The signature still describes fi, and was not taken so soon after the file's last change that
 * a change in the same clock tick could hide (racy). */
static bool sig_holds(const char *text, const kiln_file_info *fi)
{
    index_sig s;
    return sig_parse(text, &s) && s.size == fi->size && s.mtime_ns == fi->mtime_ns &&
           s.ctime_ns == fi->ctime_ns && s.ino == fi->ino &&
           fi->mtime_ns <= s.checked_ns - KILN_INDEX_RACY_NS &&
           fi->ctime_ns <= s.checked_ns - KILN_INDEX_RACY_NS;
}

static void sig_format(char *out, size_t n, const kiln_file_info *fi, int64_t checked_ns)
{
    snprintf(out, n, "%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRId64, fi->size,
             fi->mtime_ns, fi->ctime_ns, fi->ino, checked_ns);
}

/* Cuts the next tab- or newline-ended field out of [*at, end); NULL when there is none. */
static char *field(char **at, char *end, char sep)
{
    char *s = *at;
    char *e = memchr(s, sep, (size_t)(end - s));
    if (!e) return NULL;
    *e = '\0';
    *at = e + 1;
    return s;
}

static bool parse_row(char *line, char *end, kiln_index_row *r)
{
    char *at = line;
    memset(r, 0, sizeof *r);
    r->rel = field(&at, end, '\t');
    r->guid = field(&at, end, '\t');
    r->key = field(&at, end, '\t');
    r->source = field(&at, end, '\t');
    r->meta = field(&at, end, '\t');
    const char *w = field(&at, end, '\t');
    const char *n = field(&at, end, '\t');
    if (!r->rel || !r->guid || !r->key || !r->source || !r->meta || !w || !n) return false;
    char *stop;
    unsigned long warnings = strtoul(w, &stop, 10);
    if (!w[0] || *stop || warnings > 1000000) return false;
    r->warnings = warnings;
    unsigned long count = strtoul(n, &stop, 10);
    if (!n[0] || *stop || count > 4096) return false;
    r->dep_count = count;
    r->deps = at;
    for (size_t i = 0; i < 2 * count; i++)
        if (!field(&at, end, '\t')) return false;
    /* the rest of the line (the caller cut it at its newline): the view ref */
    uint64_t at_, size_, sum_;
    const char *ref = at;
    if (!sig_number(&ref, ',', false, &at_) || !sig_number(&ref, ',', false, &size_) ||
        strlen(ref) != 16 || size_ > VIEW_MAX_SIZE || at_ > KILN_INDEX_MAX_SIZE)
        return false;
    char *hex_end;
    sum_ = strtoull(ref, &hex_end, 16);
    if (*hex_end || ref[0] == '-' || ref[0] == '+' || ref[0] == ' ') return false;
    r->view_at = at_;
    r->view_size = size_;
    r->view_sum = sum_;
    return strlen(r->guid) == 32 && strlen(r->key) == 64 && r->rel[0];
}

static bool stamp_of(const char *dir, kiln_file_info *fi)
{
    return kiln_file_stat(dir, fi, NULL) == KILN_OK && fi->is_dir;
}

bool kiln_cache_index_parse(kiln_cache_index *ix, const kiln_allocator *a, kiln_index_header *head)
{
    char *text = (char *)ix->text, *end = text + ix->size;
    /* the checksum line: the last one */
    if (ix->size < 26 || text[ix->size - 1] != '\n') return false;
    char *last = end - 1;
    while (last > text && last[-1] != '\n') last--;
    unsigned long long sum;
    int used = 0;
    if (sscanf(last, "checksum %16llx%n", &sum, &used) != 1 || last + used != end - 1 ||
        kiln_xxh3_64(text, (size_t)(last - text)) != sum)
        return false;
    end = last;
    char *at = text;
    char *l1 = field(&at, end, '\n'), *l2 = field(&at, end, '\n'), *l3 = field(&at, end, '\n');
    char *l4 = field(&at, end, '\n');
    unsigned long long ctx, count, shards;
    long long rm, rc, rclock;
    unsigned long long rino, rsize;
    char magic[32];
    snprintf(magic, sizeof magic, "kiln-index %d", KILN_INDEX_VERSION);
    if (!l1 || !l2 || !l3 || !l4 || strcmp(l1, magic) != 0 ||
        sscanf(l2, "context %16llx", &ctx) != 1 ||
        sscanf(l3, "records %lld %lld %llu %llu %lld", &rm, &rc, &rino, &rsize, &rclock) != 5 ||
        sscanf(l4, "shards %llu", &shards) != 1 || shards > 256)
        return false;
    memset(ix->stored, 0, sizeof ix->stored);
    for (size_t i = 0; i < shards; i++) {
        char *line = field(&at, end, '\n');
        unsigned x;
        long long m, c;
        unsigned long long ino;
        int taken = 0;
        if (!line || sscanf(line, "%2x %lld %lld %llu%n", &x, &m, &c, &ino, &taken) != 4 ||
            line[taken] != '\0' || x > 255 || ix->stored[x].present)
            return false;
        ix->stored[x] = (kiln_index_shard){m, c, ino, true};
    }
    char *l5 = field(&at, end, '\n');
    if (!l5 || sscanf(l5, "rows %llu", &count) != 1 || count > ix->size / 8) return false;
    *head = (kiln_index_header){ctx, rm, rc, rino, rsize, rclock};
    ix->context = ctx;
    ix->rows = kiln_calloc(a, count ? (size_t)count : 1, sizeof *ix->rows);
    if (!ix->rows) return false;
    ix->capacity = (size_t)count;
    for (size_t i = 0; i < count; i++) {
        char *line = field(&at, end, '\n');
        if (!line || !parse_row(line, line + strlen(line), &ix->rows[i])) return false;
        if (i && strcmp(ix->rows[i - 1].rel, ix->rows[i].rel) >= 0) return false;
        ix->count = i + 1;
    }
    return at == end;
}

/* Reads and checks the file; rows are cut into it. Returns false (nothing kept) when any check
 * fails. records_check: also require the records folder to be as the writer left it. */
static bool load_file(kiln_project *p, kiln_cache_index *ix, bool records_check)
{
    char path[KILN_PATH_MAX];
    index_path(p, path);
    if (!kiln_file_exists(path)) return false;
    if (kiln_file_read(path, KILN_INDEX_MAX_SIZE, &p->allocator, &ix->text, &ix->size, NULL) !=
        KILN_OK)
        return false;
    kiln_index_header h;
    if (!kiln_cache_index_parse(ix, &p->allocator, &h) || h.context != context_of(p)) return false;
    if (records_check) {
        char rd[KILN_PATH_MAX];
        records_dir(p, rd);
        kiln_file_info fi;
        if (!stamp_of(rd, &fi) || fi.mtime_ns != h.records_mtime_ns ||
            fi.ctime_ns != h.records_ctime_ns || fi.ino != h.records_ino ||
            fi.size != h.records_size || fi.mtime_ns > h.written_ns - KILN_INDEX_RACY_NS ||
            fi.ctime_ns > h.written_ns - KILN_INDEX_RACY_NS)
            return false;
    }
    return true;
}

static void index_load(kiln_project *p, kiln_cache_index *out, bool records_check)
{
    memset(out, 0, sizeof *out);
    out->valid = load_file(p, out, records_check);
    if (!out->valid) {
        kiln_cache_index_free(p, out);
        memset(out, 0, sizeof *out);
    }
}

static bool trusted(const kiln_index_shard *s, int64_t clock)
{
    return s->present && s->mtime_ns <= clock - KILN_INDEX_RACY_NS &&
           s->ctime_ns <= clock - KILN_INDEX_RACY_NS;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The objects/<xx> folders now, and which are as the index says (their entries unchanged). */
static void shards_take(kiln_project *p, kiln_cache_index *ix)
{
    memset(ix->now, 0, sizeof ix->now);
    ix->now_clock_ns = kiln_time_now_ns(); /* before the stats: the racy rule */
    char dir[KILN_PATH_MAX];
    kiln_path_format(dir, sizeof dir, "%s/objects", p->cache);
    kiln_dir_list l;
    if (kiln_dir_list_read(dir, &p->allocator, &l, NULL) == KILN_OK) {
        for (size_t i = 0; i < l.count; i++) {
            const char *n = l.names[i];
            int hi = hex_digit(n[0]), lo = hi < 0 ? -1 : hex_digit(n[1]);
            if (lo < 0 || n[2]) continue;
            char path[KILN_PATH_MAX];
            kiln_file_info fi;
            kiln_path_format(path, sizeof path, "%s/%s", dir, n);
            struct stat lst; /* a planted link is not a shard */
            if (lstat(path, &lst) != 0 || !S_ISDIR(lst.st_mode) ||
                kiln_file_stat(path, &fi, NULL) != KILN_OK)
                continue;
            ix->now[hi * 16 + lo] = (kiln_index_shard){fi.mtime_ns, fi.ctime_ns, fi.ino, true};
        }
        kiln_dir_list_free(&l);
    }
    ix->shards_stale = false;
    for (size_t i = 0; i < 256; i++) {
        const kiln_index_shard *a = &ix->stored[i], *b = &ix->now[i];
        ix->shard_ok[i] = ix->valid && a->present && b->present && a->mtime_ns == b->mtime_ns &&
                          a->ctime_ns == b->ctime_ns && a->ino == b->ino;
        if (!ix->shard_ok[i] && trusted(b, ix->now_clock_ns)) ix->shards_stale = true;
    }
}

void kiln_cache_index_load_rows(kiln_project *p, kiln_cache_index *out)
{
    index_load(p, out, false);
}

void kiln_cache_index_load(kiln_project *p, kiln_cache_index *out)
{
    index_load(p, out, true);
    shards_take(p, out);
    if (out->valid) {
        char path[KILN_PATH_MAX];
        views_path(p, path);
        out->views_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        out->views_open = out->views_fd >= 0;
    }
}

void kiln_cache_index_clear(kiln_cache_index *ix, const kiln_allocator *a)
{
    if (ix->views_open) close(ix->views_fd);
    if (ix->text) kiln_free(a, ix->text, ix->size + 1);
    if (ix->rows) kiln_free(a, ix->rows, (ix->capacity ? ix->capacity : 1) * sizeof *ix->rows);
    memset(ix, 0, sizeof *ix);
}

void kiln_cache_index_free(kiln_project *p, kiln_cache_index *ix)
{
    kiln_cache_index_clear(ix, &p->allocator);
}

static int by_asset_rel(const void *x, const void *y)
{
    return strcmp((*(const kiln_asset *const *)x)->rel, (*(const kiln_asset *const *)y)->rel);
}

static const kiln_index_row *find(const kiln_cache_index *ix, const char *rel)
{
    size_t lo = 0, hi = ix->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(ix->rows[mid].rel, rel);
        if (c == 0) return &ix->rows[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The .meta column: the .meta's signature or "-", then ";L" and the hash of the folder defaults
 * above the asset when it has any (settings_layers.h), so an edited folder.meta or kiln.json
 * "defaults" is a miss. */
static void meta_column_tail(const kiln_asset *a, char out[24])
{
    out[0] = '\0';
    if (a->layers_hash) snprintf(out, 24, ";L%016" PRIx64, a->layers_hash);
}

static bool meta_column_holds(const char *col, const kiln_asset *a)
{
    char sig[160], tail[24];
    const char *semi = strchr(col, ';');
    size_t n = semi ? (size_t)(semi - col) : strlen(col);
    if (n >= sizeof sig) return false;
    memcpy(sig, col, n);
    sig[n] = '\0';
    meta_column_tail(a, tail);
    if (strcmp(semi ? semi : "", tail) != 0) return false;
    return a->has_meta ? sig_holds(sig, &a->meta_stat) : strcmp(sig, "-") == 0;
}

kiln_result kiln_index_env_init(kiln_index_env *env, kiln_project *p, const kiln_asset *assets,
                                size_t count, kiln_error *err)
{
    memset(env, 0, sizeof *env);
    env->p = p;
    env->alloc = &p->allocator;
    bool wanted = false;
    for (size_t i = 0; i < count && !wanted; i++)
        wanted = assets[i].kind && assets[i].kind->deps_are_assets;
    if (!wanted) return KILN_OK;
    env->by_rel = kiln_calloc(env->alloc, count, sizeof *env->by_rel);
    if (!env->by_rel) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    env->count = count;
    for (size_t i = 0; i < count; i++) env->by_rel[i] = &assets[i];
    qsort(env->by_rel, count, sizeof *env->by_rel, by_asset_rel);
    return KILN_OK;
}

void kiln_index_env_free(kiln_index_env *env)
{
    if (env->by_rel) kiln_free(env->alloc, env->by_rel, env->count * sizeof *env->by_rel);
    memset(env, 0, sizeof *env);
}

static const kiln_asset *env_asset(const kiln_index_env *env, const char *rel)
{
    size_t lo = 0, hi = env && env->by_rel ? env->count : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(env->by_rel[mid]->rel, rel);
        if (c == 0) return env->by_rel[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The folder a's dependency paths are relative to, as deps.c (deps_base) finds it: the asset
 * root holding a for deps_from_root kinds (a real path already), else a's folder (resolved only
 * when a recorded-missing file is there, below). */
static bool deps_folder(const kiln_project *p, const kiln_asset *a, char out[KILN_PATH_MAX])
{
    if (a->kind->deps_from_root) {
        const kiln_asset_root *root = p ? kiln_roots_holding(p, a->abs) : NULL;
        return root && kiln_path_format(out, KILN_PATH_MAX, "%s", root->dir);
    }
    return kiln_path_dirname(a->abs, out, KILN_PATH_MAX);
}

/* A chain of sources through sources (a material's parent's parent's shader) longer than this is
 * a miss: the cook refuses parent chains of more than 16 (cook_kmat.c), and rows cannot form a
 * cycle, but a row is a file anyone can edit. */
#define INDEX_ASSET_DEPTH 32

static bool lookup_at(const kiln_cache_index *ix, const kiln_index_env *env, const kiln_asset *a,
                      kiln_index_hit *hit, unsigned depth);

/* A dependency that is a source (deps_are_assets, or a "/<path>" asset_dependencies lists: a
 * model's template), recorded as "asset:<key>:<guid>": its asset
 * in this run has that GUID and a row that holds with that key. The key of a row that holds is
 * the key of the source now (the row's signatures cover every input of the key; the context
 * covers the rest), so the material's key, made of those keys and GUIDs, is the recorded one. */
static bool asset_dep_holds(const kiln_cache_index *ix, const kiln_index_env *env, const char *abs,
                            const char *sig, unsigned depth)
{
    const char *key = sig + 6, *guid = sig + 6 + 64 + 1;
    char name[KILN_PATH_MAX];
    if (strncmp(sig, "asset:", 6) != 0 || strlen(sig) != 6 + 64 + 1 + 32 || sig[6 + 64] != ':' ||
        depth >= INDEX_ASSET_DEPTH || !env || !env->p ||
        !kiln_roots_name_of(env->p, abs, name, sizeof name))
        return false;
    const kiln_asset *dep = env_asset(env, name);
    kiln_index_hit h;
    return dep && strcmp(dep->guid, guid) == 0 && lookup_at(ix, env, dep, &h, depth + 1) &&
           memcmp(h.key, key, 64) == 0;
}

static bool lookup_at(const kiln_cache_index *ix, const kiln_index_env *env, const kiln_asset *a,
                      kiln_index_hit *hit, unsigned depth)
{
    if (!ix->valid || !a->has_source_stat || !a->kind || a->settings_result != KILN_OK)
        return false;
    const kiln_index_row *r = find(ix, a->rel);
    if (!r || strcmp(r->guid, a->guid) != 0 || !sig_holds(r->source, &a->source_stat)) return false;
    if (!meta_column_holds(r->meta, a)) return false;
    if (r->dep_count) {
        char dir[KILN_PATH_MAX];
        if (!deps_folder(env ? env->p : NULL, a, dir)) return false;
        const char *d = r->deps;
        for (size_t i = 0; i < r->dep_count; i++) {
            const char *rel = d, *sig = d + strlen(d) + 1;
            d = sig + strlen(sig) + 1;
            char abs[KILN_PATH_MAX];
            if (rel[0] == '/') { /* a source asset_dependencies lists (a model's template) */
                const kiln_asset_root *root =
                    env && env->p ? kiln_roots_holding(env->p, a->abs) : NULL;
                if (!root || !kiln_path_is_safe_relative(rel + 1) ||
                    kiln_path_join(root->dir, rel + 1, abs, sizeof abs, NULL) != KILN_OK)
                    return false;
                kiln_file_info fi;
                if (kiln_file_stat(abs, &fi, NULL) != KILN_OK || !fi.is_file
                        ? strcmp(sig, "missing") != 0
                        : !asset_dep_holds(ix, env, abs, sig, depth))
                    return false;
                continue;
            }
            if (!kiln_path_is_safe_relative(rel) ||
                kiln_path_join(dir, rel, abs, sizeof abs, NULL) != KILN_OK)
                return false;
            kiln_file_info fi;
            bool present = kiln_file_stat(abs, &fi, NULL) == KILN_OK && (fi.is_file || fi.is_dir);
            /* A file that is there but recorded missing may be a symlink out of the folder,
             * which the read rule counts as missing (deps.c): only then resolve. */
            char real_dir[KILN_PATH_MAX];
            if (present && !strcmp(sig, "missing") && realpath(dir, real_dir) &&
                kiln_path_confine_read(abs, real_dir, NULL, 0, NULL) != KILN_OK)
                present = false;
            if (!present) {
                if (strcmp(sig, "missing") != 0) return false;
            } else if (a->kind->deps_are_assets) {
                if (!asset_dep_holds(ix, env, abs, sig, depth)) return false;
            } else if (!sig_holds(sig, &fi)) {
                return false;
            }
        }
    }
    memcpy(hit->key, r->key, KILN_SHA256_HEX_SIZE);
    hit->warnings = r->warnings;
    hit->view_at = r->view_at;
    hit->view_size = r->view_size;
    hit->view_sum = r->view_sum;
    int hi = hex_digit(r->key[0]), lo = hex_digit(r->key[1]);
    hit->entry_known = hi >= 0 && lo >= 0 && ix->shard_ok[hi * 16 + lo];
    return true;
}

bool kiln_cache_index_lookup(const kiln_cache_index *ix, const kiln_index_env *env,
                             const kiln_asset *a, kiln_index_hit *hit)
{
    return lookup_at(ix, env, a, hit, 0);
}

json_t *kiln_cache_index_named(const kiln_cache_index *ix, const kiln_asset *a)
{
    if (!ix->valid || !a->has_source_stat) return NULL;
    const kiln_index_row *r = find(ix, a->rel);
    if (!r || strcmp(r->guid, a->guid) != 0 || !sig_holds(r->source, &a->source_stat)) return NULL;
    json_t *names = json_array();
    const char *d = r->deps;
    for (size_t i = 0; i < r->dep_count; i++) {
        const char *sig = d + strlen(d) + 1;
        json_array_append_new(names, json_string(d));
        d = sig + strlen(sig) + 1;
    }
    return names;
}

json_t *kiln_cache_index_view(const kiln_cache_index *ix, const kiln_index_hit *hit)
{
    if (!ix->views_open || hit->view_size == 0 || hit->view_size > VIEW_MAX_SIZE) return NULL;
    size_t n = (size_t)hit->view_size;
    char *text = malloc(n + 1);
    if (!text) return NULL;
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(ix->views_fd, text + got, n - got, (off_t)(hit->view_at + got));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    json_t *view = NULL;
    if (got == n && kiln_xxh3_64(text, n) == hit->view_sum) view = json_loadb(text, n, 0, NULL);
    free(text);
    if (!json_is_object(view) || !json_is_array(json_object_get(view, "outputs"))) {
        json_decref(view);
        return NULL;
    }
    return view;
}

static void touch_stamp_path(kiln_project *p, char out[KILN_PATH_MAX])
{
    char root[KILN_PATH_MAX];
    kiln_cache_records_root(p, root);
    kiln_path_format(out, KILN_PATH_MAX, "%s/assets.touched", root);
}

bool kiln_cache_index_touch_due(kiln_project *p)
{
    char path[KILN_PATH_MAX];
    touch_stamp_path(p, path);
    kiln_file_info fi;
    return kiln_file_stat(path, &fi, NULL) != KILN_OK ||
           fi.mtime_ns < kiln_time_now_ns() - KILN_INDEX_TOUCH_NS;
}

void kiln_cache_index_touched(kiln_project *p)
{
    char path[KILN_PATH_MAX];
    touch_stamp_path(p, path);
    if (utimensat(AT_FDCWD, path, NULL, 0) != 0)
        (void)kiln_file_write_atomic(path, "", 0, NULL); /* best effort, as every touch */
}

static bool plain(const char *s) { return s && !strpbrk(s, "\t\n\r"); }

/* The signature of a dependency from its recorded stat. The record keeps the stat the file was
 * hashed with while it holds (deps.c), and the stat shortcut trusts a hash taken 1 s after the
 * file's change; the index wants 2 s, so such a dependency would keep its asset out of the index
 * for good. A recorded stat between the two is taken again now (the clock read first): when the
 * file still has it, the key is the one the full check computes from this record, which the
 * shortcut trusts (and which is all the row caches). One hashed within 1 s of its change is
 * left racy: the next full check hashes it again. */
static void dep_sig(const kiln_project *p, const kiln_asset *a, const char *rel, const json_t *st,
                    char *out, size_t n)
{
    kiln_file_info fi = {0};
    fi.size = (uint64_t)kiln_json_int(st, "size", -1);
    fi.mtime_ns = kiln_json_int(st, "mtime_ns", -1);
    fi.ctime_ns = kiln_json_int(st, "ctime_ns", -1);
    fi.ino = (uint64_t)kiln_json_int(st, "ino", -1);
    int64_t checked = kiln_json_int(st, "checked_ns", 0);
    char dir[KILN_PATH_MAX], abs[KILN_PATH_MAX];
    if ((fi.mtime_ns > checked - KILN_INDEX_RACY_NS ||
         fi.ctime_ns > checked - KILN_INDEX_RACY_NS) &&
        fi.mtime_ns <= checked - KILN_RACY_WINDOW_NS && kiln_path_is_safe_relative(rel) &&
        deps_folder(p, a, dir) && kiln_path_join(dir, rel, abs, sizeof abs, NULL) == KILN_OK) {
        int64_t now = kiln_time_now_ns();
        kiln_file_info cur;
        if (kiln_file_stat(abs, &cur, NULL) == KILN_OK && (cur.is_file || cur.is_dir) &&
            cur.size == fi.size && cur.mtime_ns == fi.mtime_ns && cur.ctime_ns == fi.ctime_ns &&
            cur.ino == fi.ino)
            checked = now;
    }
    sig_format(out, n, &fi, checked);
}

json_t *kiln_index_row_make(const kiln_project *p, const kiln_asset *a, const char *key,
                            const json_t *record, const json_t *view)
{
    if (!a->has_source_stat || !plain(a->rel) || !key || strlen(key) != 64) return NULL;
    int64_t checked_ns = a->stat_clock_ns;
    kiln_buf b;
    kiln_buf_init(&b, NULL);
    char sig[160];
    kiln_buf_append_str(&b, a->rel);
    kiln_buf_append_str(&b, "\t");
    kiln_buf_append_str(&b, a->guid);
    kiln_buf_append_str(&b, "\t");
    kiln_buf_append_str(&b, key);
    kiln_buf_append_str(&b, "\t");
    sig_format(sig, sizeof sig, &a->source_stat, checked_ns);
    kiln_buf_append_str(&b, sig);
    kiln_buf_append_str(&b, "\t");
    if (a->has_meta) sig_format(sig, sizeof sig, &a->meta_stat, checked_ns);
    kiln_buf_append_str(&b, a->has_meta ? sig : "-");
    char tail[24];
    meta_column_tail(a, tail);
    kiln_buf_append_str(&b, tail);
    snprintf(sig, sizeof sig, "\t%zu", json_array_size(json_object_get(view, "warnings")));
    kiln_buf_append_str(&b, sig);
    bool ok = true;
    const json_t *deps = json_object_get(record, "deps");
    if (a->kind && a->kind->dependencies) {
        /* the record of this key names the dependencies and their stats as the key saw them */
        ok = json_is_array(deps) && !strcmp(kiln_json_str(record, "key", ""), key);
        snprintf(sig, sizeof sig, "\t%zu", json_array_size(deps));
        kiln_buf_append_str(&b, sig);
        size_t i;
        const json_t *d;
        json_array_foreach (deps, i, d) {
            const char *rel = kiln_json_str(d, "path", NULL);
            const json_t *st = json_object_get(d, "stat");
            ok = ok && plain(rel);
            kiln_buf_append_str(&b, "\t");
            kiln_buf_append_str(&b, rel ? rel : "");
            kiln_buf_append_str(&b, "\t");
            if (json_is_null(st)) {
                kiln_buf_append_str(&b, "missing");
                continue;
            }
            if (a->kind->deps_are_assets || (rel && rel[0] == '/')) {
                /* a source: its key and GUID (deps.c asset_digest) */
                const char *k = kiln_json_str(st, "sha256", ""), *g = kiln_json_str(st, "guid", "");
                ok = ok && strlen(k) == 64 && strlen(g) == 32 && plain(k) && plain(g);
                kiln_buf_append_str(&b, "asset:");
                kiln_buf_append_str(&b, k);
                kiln_buf_append_str(&b, ":");
                kiln_buf_append_str(&b, g);
                continue;
            }
            dep_sig(p, a, rel ? rel : "", st, sig, sizeof sig);
            kiln_buf_append_str(&b, sig);
        }
    } else {
        kiln_buf_append_str(&b, "\t0");
    }
    char *v = json_dumps(view, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    ok = ok && v && plain(v);
    kiln_buf_append_str(&b, "\t");
    if (v) kiln_buf_append_str(&b, v);
    free(v);
    kiln_buf_append(&b, "", 1);
    json_t *row = ok && !b.failed ? json_string((const char *)b.data) : NULL;
    kiln_buf_free(&b);
    return row;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool listed(const char *const *names, size_t count, const char *rel)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(names[mid], rel);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

void kiln_cache_index_write(kiln_project *p, const kiln_cache_index *run, const json_t *rows,
                            const char *const *keep, size_t keep_count, const char *const *drop,
                            size_t drop_count, bool whole_tree)
{
    /* A shard's stamp taken as this run began says its entries are there only if every row
     * keyed into it was checked by this run (a hit or a new row) or the shard had not changed
     * since the index before (whose rows it vouched for): a row kept from disk unchecked may
     * name an entry removed before the stamp was taken. */
    bool unchecked[256] = {false};
    /* The index on disk now (this run's, or another process's since): its rows stay unless this
     * run dropped them (rows are true for their signatures whoever wrote them; its records stamp
     * is not required). */
    kiln_cache_index old;
    index_load(p, &old, false);
    uint8_t *old_views = NULL;
    size_t old_views_size = 0;
    char vpath[KILN_PATH_MAX];
    views_path(p, vpath);
    if (old.count && kiln_file_read(vpath, KILN_INDEX_MAX_SIZE, &p->allocator, &old_views,
                                    &old_views_size, NULL) != KILN_OK)
        old_views = NULL;
    json_t *all = json_object();
    for (size_t i = 0; i < old.count; i++) {
        const kiln_index_row *r = &old.rows[i];
        /* a row whose view is not in the views file as its ref says goes (another writer's) */
        if (!old_views || r->view_at > old_views_size ||
            r->view_size > old_views_size - r->view_at ||
            kiln_xxh3_64(old_views + r->view_at, (size_t)r->view_size) != r->view_sum)
            continue;
        if (whole_tree ? !listed(keep, keep_count, r->rel) : listed(drop, drop_count, r->rel))
            continue;
        if (!listed(keep, keep_count, r->rel) && !json_object_get(rows, r->rel)) {
            int hi = hex_digit(r->key[0]), lo = hex_digit(r->key[1]);
            if (hi >= 0 && lo >= 0) unchecked[hi * 16 + lo] = true;
        }
        /* rebuild the line from its fields (the loader cut it at its separators) */
        kiln_buf b;
        kiln_buf_init(&b, NULL);
        const char *f[] = {r->rel, r->guid, r->key, r->source, r->meta};
        for (size_t k = 0; k < 5; k++) {
            kiln_buf_append_str(&b, f[k]);
            kiln_buf_append_str(&b, "\t");
        }
        char n[48];
        snprintf(n, sizeof n, "%zu\t%zu", r->warnings, r->dep_count);
        kiln_buf_append_str(&b, n);
        const char *d = r->deps;
        for (size_t k = 0; k < 2 * r->dep_count; k++) {
            kiln_buf_append_str(&b, "\t");
            kiln_buf_append_str(&b, d);
            d += strlen(d) + 1;
        }
        kiln_buf_append_str(&b, "\t");
        kiln_buf_append(&b, old_views + r->view_at, (size_t)r->view_size);
        kiln_buf_append(&b, "", 1);
        if (!b.failed) json_object_set_new(all, r->rel, json_string((const char *)b.data));
        kiln_buf_free(&b);
    }
    if (old_views) kiln_free(&p->allocator, old_views, old_views_size + 1);
    kiln_cache_index_free(p, &old);
    json_object_update(all, (json_t *)rows);

    size_t count = json_object_size(all);
    const char **names = calloc(count ? count : 1, sizeof *names);
    kiln_buf b, views;
    kiln_buf_init(&b, &p->allocator);
    kiln_buf_init(&views, &p->allocator);
    if (names) {
        size_t i = 0;
        const char *name;
        json_t *v;
        json_object_foreach (all, name, v) names[i++] = name;
        qsort(names, count, sizeof *names, by_name);
        char line[256], rd[KILN_PATH_MAX];
        records_dir(p, rd);
        /* the records folder as this run leaves it: read the clock before the stat */
        int64_t clock = kiln_time_now_ns();
        kiln_file_info fi;
        if (!stamp_of(rd, &fi)) memset(&fi, 0, sizeof fi);
        size_t shards = 0;
        bool keep_shard[256];
        for (size_t k = 0; k < 256; k++) {
            keep_shard[k] =
                trusted(&run->now[k], run->now_clock_ns) && (run->shard_ok[k] || !unchecked[k]);
            shards += keep_shard[k];
        }
        snprintf(line, sizeof line,
                 "kiln-index %d\ncontext %016" PRIx64 "\nrecords %" PRId64 " %" PRId64 " %" PRIu64
                 " %" PRIu64 " %" PRId64 "\nshards %zu\n",
                 KILN_INDEX_VERSION, context_of(p), fi.mtime_ns, fi.ctime_ns, fi.ino, fi.size,
                 clock, shards);
        kiln_buf_append_str(&b, line);
        for (size_t k = 0; k < 256; k++) {
            if (!keep_shard[k]) continue;
            const kiln_index_shard *sh = &run->now[k];
            snprintf(line, sizeof line, "%02zx %" PRId64 " %" PRId64 " %" PRIu64 "\n", k,
                     sh->mtime_ns, sh->ctime_ns, sh->ino);
            kiln_buf_append_str(&b, line);
        }
        snprintf(line, sizeof line, "rows %zu\n", count);
        kiln_buf_append_str(&b, line);
        for (i = 0; i < count; i++) {
            /* the fields to the index, the view (after the last tab) to the views file */
            const char *row = json_string_value(json_object_get(all, names[i]));
            const char *tab = strrchr(row, '\t');
            if (!tab) continue;
            const char *view = tab + 1;
            size_t vn = strlen(view);
            snprintf(line, sizeof line, "\t%zu,%zu,%016" PRIx64 "\n", views.size, vn,
                     kiln_xxh3_64(view, vn));
            kiln_buf_append(&b, row, (size_t)(tab - row));
            kiln_buf_append_str(&b, line);
            kiln_buf_append(&views, view, vn);
            kiln_buf_append_str(&views, "\n");
        }
        if (!b.failed) {
            snprintf(line, sizeof line, "checksum %016" PRIx64 "\n", kiln_xxh3_64(b.data, b.size));
            kiln_buf_append_str(&b, line);
        }
        /* the views first: the index names their offsets */
        char path[KILN_PATH_MAX];
        index_path(p, path);
        if (!b.failed && !views.failed &&
            kiln_file_write_atomic(vpath, views.data, views.size, NULL) == KILN_OK)
            (void)kiln_file_write_atomic(path, b.data, b.size, NULL);
    }
    free(names);
    kiln_buf_free(&b);
    kiln_buf_free(&views);
    json_decref(all);
}

void kiln_cache_index_remove_all(kiln_project *p)
{
    char path[KILN_PATH_MAX];
    kiln_path_format(path, sizeof path, "%s/assets.index", p->cache);
    remove(path);
    kiln_path_format(path, sizeof path, "%s/assets.views", p->cache);
    remove(path);
    char dir[KILN_PATH_MAX];
    kiln_path_format(dir, sizeof dir, "%s/platforms", p->cache);
    kiln_dir_list l;
    if (kiln_dir_list_read(dir, NULL, &l, NULL) != KILN_OK) return;
    for (size_t i = 0; i < l.count; i++) {
        if (l.names[i][0] == '.') continue;
        kiln_path_format(path, sizeof path, "%s/%s/assets.index", dir, l.names[i]);
        remove(path);
        kiln_path_format(path, sizeof path, "%s/%s/assets.views", dir, l.names[i]);
        remove(path);
    }
    kiln_dir_list_free(&l);
}
