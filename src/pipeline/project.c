/* project.c — opening a project: resolving its folders and checking that the output and cache
 * folders lie where kiln is allowed to write. */
#include "pipeline/project.h"
#include "pipeline/source_kind.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/path.h"
#include "pipeline/remote.h"
#include "pipeline/shader_compilers.h"

static void sink_bridge(void *user, kiln_log_level level, const char *message)
{
    const kiln_log_hook *s = user;
    if (s->fn) s->fn(s->user, (int)level, message);
}

size_t kiln_project_write_roots(const kiln_project *p, const char *roots[2])
{
    roots[0] = p->project_dir;
    roots[1] = p->out;
    return 2;
}

kiln_result kiln_project_check_write(const kiln_project *p, const char *path, kiln_error *err)
{
    const char *roots[2];
    char resolved[KILN_PATH_MAX];
    size_t n = kiln_project_write_roots(p, roots);
    return kiln_path_confine(path, roots, n, resolved, sizeof resolved, err);
}

kiln_result kiln_project_check_read(const kiln_project *p, const char *path, kiln_error *err)
{
    const kiln_asset_root *root = kiln_roots_holding(p, path);
    if (root) return kiln_path_confine_read(path, root->dir, NULL, 0, err);
    return kiln_path_confine_read(path, p->project_dir, NULL, 0, err);
}

/* Absolute, normalised, symlinks resolved in the existing part. */
static kiln_result resolve_dir(const char *base, const char *path, char *out, kiln_error *err)
{
    char joined[KILN_PATH_MAX];
    kiln_result r = kiln_path_join(base, path, joined, sizeof joined, err);
    if (r == KILN_OK) r = kiln_path_resolve(joined, out, KILN_PATH_MAX, err);
    return r;
}

KILN_API kiln_result kiln_project_open(const kiln_project_opts *opts, kiln_project **out,
                                       kiln_error *err)
{
    *out = NULL;
    kiln_project_opts o = {0};
    if (opts) {
        size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
        memcpy(&o, opts, n);
    }
    kiln_project *p = kiln_calloc(&o.allocator, 1, sizeof *p);
    if (!p) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    p->allocator = o.allocator;
    p->progress = o.progress;
    p->public_sink = o.log;
    p->logger.level = o.log.max_level > 0 ? (kiln_log_level)o.log.max_level : KILN_LOG_WARNING;
    p->logger.sink = o.log.fn ? sink_bridge : NULL;
    p->logger.user = &p->public_sink;

    char cwd[KILN_PATH_MAX];
    kiln_result r = kiln_path_absolute(".", cwd, sizeof cwd, err);
    if (r == KILN_OK)
        r = resolve_dir(cwd, o.project_dir ? o.project_dir : ".", p->project_dir, err);
    if (r == KILN_OK) r = kiln_roots_open(p, o.root, cwd, err);
    if (r == KILN_OK)
        r = resolve_dir(o.out ? cwd : p->project_dir, o.out ? o.out : ".kiln", p->out, err);
    if (r == KILN_OK) {
        if (o.cache) r = resolve_dir(cwd, o.cache, p->cache, err);
        else r = kiln_path_join(p->out, "cache", p->cache, sizeof p->cache, err);
    }
    if (r != KILN_OK) goto fail;
    /* Entry paths add at most ~200 bytes to the cache folder; refusing long roots up front means
     * no path below is ever cut (kiln_roots_open checks the roots). */
    if (strlen(p->cache) > KILN_PATH_MAX - 512) {
        r = kiln_error_set(err, KILN_E_LIMIT, "the cache or asset root path is too long");
        goto fail;
    }
    /* The output folder may be anywhere the user names (it is where writes are allowed), but the
     * cache must lie inside the project or the output folder. */
    r = kiln_project_check_write(p, p->cache, err);
    if (r != KILN_OK) goto fail;
    if (o.platform) {
        /* The name is a folder of the cache (platforms/<name>): letters, digits, '-' and '_'. */
        bool plain = o.platform[0] && strlen(o.platform) < sizeof p->platform;
        for (const char *c = o.platform; plain && *c; c++)
            plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                    (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';
        if (!plain) {
            r = kiln_error_set(err, KILN_E_USAGE,
                               "bad platform name \"%s\": letters, digits, '-' and '_' only",
                               o.platform);
            goto fail;
        }
        strcpy(p->platform, o.platform);
    }
    r = kiln_jobs_create(o.jobs, &p->allocator, &p->jobs, err);
    if (r == KILN_OK) r = kiln_shader_compilers_create(&p->allocator, &p->shader_compilers, err);
    if (r != KILN_OK) goto fail;
    *out = p;
    return KILN_OK;
fail:
    kiln_project_close(p);
    return r;
}

KILN_API void kiln_project_close(kiln_project *p)
{
    if (!p) return;
    kiln_jobs_destroy(p->jobs);
    kiln_shader_compilers_destroy(p->shader_compilers);
    kiln_remote_set_destroy(p->remote);
    kiln_kind_registry_free(&p->allocator, p->kinds);
    kiln_allocator a = p->allocator;
    kiln_free(&a, p, sizeof *p);
}

KILN_API void kiln_string_free(char *s) { free(s); }

char *kiln_project_take_json(json_t *doc)
{
    if (!doc) return NULL;
    char *s = json_dumps(doc, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(doc);
    return s;
}

json_t *kiln_error_json(const kiln_error *err)
{
    json_t *e = json_object();
    json_object_set_new(e, "code", json_string(kiln_result_name(err->code)));
    json_object_set_new(e, "message", json_string(err->message));
    if (err->path[0]) json_object_set_new(e, "path", json_string(err->path));
    if (err->json_pointer[0] || err->code == KILN_E_IMPORT_SETTINGS)
        json_object_set_new(e, "json_pointer", json_string(err->json_pointer));
    if (err->offset != UINT64_MAX && err->code != KILN_E_IMPORT_SETTINGS)
        json_object_set_new(e, "offset", json_integer((json_int_t)err->offset));
    return e;
}
