/* owned.c — dropping the files models name from the asset list (owned.h). Listing what a model
 * names costs a read and a parse of the model (an assimp child for FBX and OBJ), so the list is
 * taken from the record index (one read for every model) or else the model's import record while
 * the model is unchanged since: a no-op scan of an imported project reads no model and no record.
 * Models are listed in parallel on the project's job pool. */
#include "pipeline/owned.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "pipeline/cache.h"
#include "pipeline/record_index.h"
#include "pipeline/source.h"

typedef struct named_list {
    kiln_project *p;
    const kiln_asset *a;
    char dir[KILN_PATH_MAX]; /* the model's folder, real path (what dependencies reports in) */
    json_t *names;           /* paths relative to the model's folder */
} named_list;

static kiln_result on_named(void *user, const char *path, kiln_error *err)
{
    named_list *l = user;
    size_t n = strlen(l->dir);
    if (strncmp(path, l->dir, n) != 0 || path[n] != '/')
        return kiln_error_set(err, KILN_E_INTERNAL, "%s: a file outside its folder", path);
    if (json_array_append_new(l->names, json_string(path + n + 1)) != 0)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    return KILN_OK;
}

/* The files model a names, relative to its folder: from the index, its record, or its bytes. */
static json_t *model_names(kiln_project *p, const kiln_cache_index *ix, const kiln_asset *a)
{
    json_t *indexed = kiln_cache_index_named(ix, a);
    for (size_t i = indexed ? json_array_size(indexed) : 0; i-- > 0;)
        if (json_string_value(json_array_get(indexed, i))[0] == '/') /* a template: see below */
            json_array_remove(indexed, i);
    if (indexed) return indexed;
    json_t *record = kiln_cache_record_load(p, a->guid);
    kiln_file_info fi;
    uint8_t sha[KILN_SHA256_SIZE];
    const json_t *recorded = json_object_get(record, "deps");
    if (json_is_array(recorded) && kiln_file_stat(a->abs, &fi, NULL) == KILN_OK &&
        kiln_stat_matches(json_object_get(record, "source"), &fi, sha)) {
        json_t *names = json_array();
        size_t i;
        json_t *e;
        json_array_foreach (recorded, i, e) {
            const char *rel = kiln_json_str(e, "path", "");
            if (rel[0] != '/') /* "/<path>": a source of the root (a template), not its file */
                json_array_append_new(names, json_string(rel));
        }
        json_decref(record);
        return names;
    }
    json_decref(record);
    named_list l = {p, a, {0}, json_array()};
    char folder[KILN_PATH_MAX];
    uint8_t *data = NULL;
    size_t size = 0;
    if (!kiln_path_dirname(a->abs, folder, sizeof folder) || !realpath(folder, l.dir) ||
        kiln_file_read(a->abs, KILN_SOURCE_MAX_SIZE, &p->allocator, &data, &size, NULL) !=
            KILN_OK) {
        return l.names;
    }
    kiln_error e;
    if (a->kind->dependencies(a, data, size, l.dir, on_named, &l, &e) != KILN_OK)
        json_array_clear(l.names); /* half a list would depend on where the parse stopped */
    kiln_free(&p->allocator, data, size + 1);
    return l.names;
}

typedef struct owned_batch {
    kiln_project *p;
    kiln_asset *assets;
    const size_t *models; /* indices of the assets whose kind reads other files */
    json_t **names;       /* per model */
    const kiln_cache_index *index;
} owned_batch;

static kiln_result list_job(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker;
    owned_batch *b = user;
    b->names[index] = model_names(b->p, b->index, &b->assets[b->models[index]]);
    return b->names[index] ? KILN_OK : kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
}

typedef struct by_rel {
    const char *rel;
    size_t index;
} by_rel;

static int by_rel_cmp(const void *x, const void *y)
{
    return strcmp(((const by_rel *)x)->rel, ((const by_rel *)y)->rel);
}

/* Does a own the files its kind reads: a model its images (read in its folder). Not a shader
 * (its includes are libraries or shaders of their own) nor a material (what it names are
 * assets, by definition). */
static bool owns_its_files(const kiln_asset *a)
{
    return a->kind && a->kind->dependencies && !a->kind->deps_from_root &&
           !a->kind->deps_are_assets;
}

/* Can assets[i] be owned: a file of a kind that reads nothing else, without a .meta. */
static bool ownable(const kiln_asset *a)
{
    return a->kind && !a->kind->dependencies && !a->has_meta;
}

kiln_result kiln_owned_remove(kiln_project *p, kiln_asset *assets, size_t *count, json_t *skipped,
                              kiln_error *err)
{
    size_t n = *count, model_count = 0, ownable_count = 0;
    for (size_t i = 0; i < n; i++) {
        if (owns_its_files(&assets[i])) model_count++;
        else if (ownable(&assets[i])) ownable_count++;
    }
    if (model_count == 0 || ownable_count == 0) return KILN_OK;
    size_t *models = kiln_calloc(&p->allocator, model_count, sizeof *models);
    json_t **names = kiln_calloc(&p->allocator, model_count, sizeof *names);
    by_rel *sorted = kiln_calloc(&p->allocator, ownable_count, sizeof *sorted);
    const char **owner = kiln_calloc(&p->allocator, n, sizeof *owner); /* its rel; NULL: none */
    kiln_result r = KILN_OK;
    if (!models || !names || !sorted || !owner) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory listing models' files");
        goto out;
    }
    for (size_t i = 0, m = 0, o = 0; i < n; i++) {
        if (owns_its_files(&assets[i])) models[m++] = i;
        else if (ownable(&assets[i])) sorted[o++] = (by_rel){assets[i].rel, i};
    }
    qsort(sorted, ownable_count, sizeof *sorted, by_rel_cmp);
    kiln_cache_index index;
    kiln_cache_index_load_rows(p, &index);
    owned_batch b = {p, assets, models, names, &index};
    r = kiln_jobs_for(p->jobs, model_count, list_job, &b, err);
    kiln_cache_index_free(p, &index);
    if (r != KILN_OK) goto out;
    for (size_t m = 0; m < model_count; m++) {
        const kiln_asset *model = &assets[models[m]];
        char folder[KILN_PATH_MAX];
        const char *slash = strrchr(model->rel, '/');
        snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - model->rel) : 0, model->rel);
        size_t i;
        json_t *e;
        json_array_foreach (names[m], i, e) {
            char name[KILN_PATH_MAX], rel[KILN_PATH_MAX];
            /* A record is a file anyone can edit: a name that does not stay inside the folder
             * owns nothing. */
            if (kiln_path_normalize(json_string_value(e) ? json_string_value(e) : "", name,
                                    sizeof name, NULL) != KILN_OK ||
                name[0] == '/' || !strcmp(name, ".") || !strcmp(name, "..") ||
                !strncmp(name, "../", 3) ||
                !kiln_path_format(rel, sizeof rel, "%s%s%s", folder, folder[0] ? "/" : "", name))
                continue;
            by_rel key = {rel, 0};
            const by_rel *hit = bsearch(&key, sorted, ownable_count, sizeof *sorted, by_rel_cmp);
            if (hit && !owner[hit->index]) owner[hit->index] = model->rel;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!owner[i]) {
            if (kept != i) {
                assets[kept] = assets[i];
                memset(&assets[i], 0, sizeof assets[i]);
            }
            kept++;
            continue;
        }
        const char *by = owner[i]; /* the model's string, wherever the model moved to */
        if (skipped) {
            json_t *s = json_object();
            json_object_set_new(s, "path", json_string(assets[i].rel));
            json_object_set_new(s, "reason", json_string("owned"));
            json_object_set_new(s, "owner", json_string(by));
            json_object_set_new(s, "message", json_sprintf("owned by %s", by));
            json_array_append_new(skipped, s);
        }
        kiln_asset_clear(p, &assets[i]);
    }
    *count = kept;
out:
    for (size_t m = 0; names && m < model_count; m++) json_decref(names[m]);
    kiln_free(&p->allocator, models, model_count * sizeof *models);
    kiln_free(&p->allocator, names, model_count * sizeof *names);
    kiln_free(&p->allocator, sorted, ownable_count * sizeof *sorted);
    kiln_free(&p->allocator, owner, n * sizeof *owner);
    return r;
}
