/* project.h — the internal shape of a kiln_project: its folders, the allowed write roots, the
 * job pool, logger and allocator that every pipeline stage receives. */
#ifndef KILN_PIPELINE_PROJECT_H
#define KILN_PIPELINE_PROJECT_H

#include <jansson.h>
#include <stdbool.h>

#include "core/file.h"
#include "core/jobs.h"
#include "core/log.h"
#include "kiln/kiln.h"
#include "pipeline/roots.h"

struct kiln_project {
    char project_dir[KILN_PATH_MAX]; /* absolute, symlinks resolved */
    /* The asset roots (roots.h), sorted by prefix; names go through kiln_roots_file_of and
     * kiln_roots_name_of. roots_named: kiln.json "roots" named them (names carry a prefix). */
    kiln_asset_root roots[KILN_ROOTS_MAX];
    size_t root_count;
    bool roots_named;
    char roots_id[KILN_PATH_MAX]; /* kiln_roots_id */
    char out[KILN_PATH_MAX];      /* output folder, absolute, resolved */
    char cache[KILN_PATH_MAX];    /* cache folder, absolute, resolved */
    char platform[64];            /* "" = none */
    bool progress;
    kiln_logger logger;
    kiln_log_hook public_sink; /* the caller's sink, wrapped by logger */
    kiln_allocator allocator;
    kiln_jobs *jobs;
    struct kiln_remote_set *remote;    /* remote caches (pipeline/remote.h); NULL = none */
    uint32_t shard_index, shard_count; /* import only this shard of the assets; count 0 = all */
    struct kiln_kind_registry *kinds;  /* kinds a program registered (source_kind.h); NULL = none */
    /* The shader cooks' compilers, kept while the project is open (shader_compilers.h). */
    struct kiln_shader_compilers *shader_compilers;
};

/* The folders kiln may write into (project and output folder) for kiln_path_confine. */
size_t kiln_project_write_roots(const kiln_project *p, const char *roots[2]);

/* Checks that a path kiln is about to write lies inside the write roots (symlinks resolved). */
kiln_result kiln_project_check_write(const kiln_project *p, const char *path, kiln_error *err);

/* The read rule for a file of the project (kiln_path_confine_read): a file under an asset root
 * (a source, its .meta, a folder.meta, a .kilnignore) must resolve inside that root, any other
 * (kiln.json) inside the project folder. path is absolute and normalised; which folder applies
 * is decided by where path lies by name, before symlinks. Errors: KILN_E_ASSET_IO naming path. */
kiln_result kiln_project_check_read(const kiln_project *p, const char *path, kiln_error *err);

/* Turns a JSON document into the malloc'd string handed out by the public API. Steals doc. */
char *kiln_project_take_json(json_t *doc);

/* An error record as the JSON object used in every document: {code, message, path?, ...}. */
json_t *kiln_error_json(const kiln_error *err);

#endif
