/* pack.h — gathering a project's cooked artifacts for a pack: the assets asked for are imported
 * (cached ones are not cooked again), each artifact's bytes are checked against its cache
 * manifest (size and SHA-256), the artifacts they refer to are followed, and two different
 * artifacts under one asset id are refused. kiln_project_pack (kiln.h) writes the result with
 * kiln_pack_write (format/pack_write.h). docs/packs.md describes the rules. */
#ifndef KILN_PIPELINE_PACK_H
#define KILN_PIPELINE_PACK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/file.h"
#include "pipeline/project.h"

/* One cooked artifact of the project, mapped from its cache entry. */
typedef struct kiln_pack_artifact {
    uint64_t asset_id;
    uint32_t kind;        /* KILN_PACK_KIND_KTX2 or the container kind */
    char *name;           /* "path#label" (owned) */
    char *file;           /* the cache file it was read from (owned) */
    kiln_mapped_file map; /* its bytes, checked against the manifest */
    size_t asset;         /* index of its asset in the order gathered */
    size_t canonical;     /* the first artifact with its id (itself unless duplicate) */
    bool selected;        /* asked for, or needed by an artifact asked for */
    bool duplicate;       /* same id and bytes as an earlier artifact: packed once */
    /* The ids its kind's refs listed, read once: a walk started again after an asset was
     * dropped replays them instead of reading and checking the bytes again. */
    bool refs_read;
    uint64_t *refs; /* ref_count ids (owned) */
    size_t ref_count, ref_cap;
} kiln_pack_artifact;

typedef struct kiln_pack_set {
    kiln_pack_artifact *items; /* in asset order (as given, or by path with ALL), then label */
    size_t count, capacity;
    size_t asset_count; /* assets packed (imported, not failed, not left out) */
    size_t asked;       /* assets asked for (resolved ones and arguments that were not) and
                           the sources pulled in for them */
    json_t *skipped;    /* [{"path", "status"}]: assets of kinds kiln does not import */
    json_t *failed;     /* [{"path", "error"}]: assets that failed, or were left out
                           because what they refer to is not packed; in that order */
    kiln_error first;   /* the first of them (code KILN_OK when none) */
} kiln_pack_set;

/* Gathers the artifacts of the assets (paths or "path#label"; all with KILN_IMPORT_ALL in
 * flags, or with under as well every asset whose name lies under that folder name: "engine"
 * with several roots, KILN_E_USAGE when it names no folder) into *set, marking those to pack as
 * selected and not duplicate. The sources an asset depends on when its kind's dependencies are
 * sources (deps_are_assets: a typed material's parent, shaders and textures) are pulled in,
 * transitively, and imported too; of them, only the artifacts some selected artifact refers to
 * are selected (a parent's own material is not). An asset that fails (its argument does not
 * resolve, its import fails, its cache entry is damaged) is listed in set->failed and gathered no
 * further; so is one whose artifacts refer to an id no gathered artifact has (one of a failed
 * asset, say), so what is selected never refers outside itself (E_NOT_IMPORTED naming the source it
 * depends on when one pulled in failed). Returns KILN_OK then too: only errors of the whole command
 * are returned (see kiln_project_pack). Free the set with kiln_pack_set_free (also after an error).
 */
kiln_result kiln_pack_gather(kiln_project *p, const char *const *args, size_t count, uint32_t flags,
                             const char *under, kiln_pack_set *set, kiln_error *err);
void kiln_pack_set_free(kiln_project *p, kiln_pack_set *set);

#endif
