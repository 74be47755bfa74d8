/* roots.h — the asset roots of a project and the names of the files under them. A project has
 * one root (--root, default <project>/assets) whose files are named by their path below it, or
 * several roots named in kiln.json ({"roots": {"engine": "../engine/assets", "game": "assets"}})
 * whose files are named "<prefix>/<path below the root>". Every place that turns a name into a
 * file or a file into a name goes through these functions, so the rest of the pipeline sees names
 * only (docs/settings.md "Several asset roots"). */
#ifndef KILN_PIPELINE_ROOTS_H
#define KILN_PIPELINE_ROOTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/file.h"
#include "kiln/kiln.h"

#define KILN_ROOTS_MAX       16 /* roots one project may name */
#define KILN_ROOT_PREFIX_MAX 64 /* bytes of a prefix, with its NUL */

typedef struct kiln_asset_root {
    char prefix[KILN_ROOT_PREFIX_MAX]; /* "" for the one root of a project without "roots" */
    char dir[KILN_PATH_MAX];           /* absolute, symlinks resolved */
} kiln_asset_root;

/* Fills p's roots: the "roots" object of <project>/kiln.json when it has one, else the one root
 * root_opt (relative to cwd) or <project>/assets. p->project_dir must be set. Sorted by prefix.
 * A kiln.json that cannot be parsed is left to its other readers (they report it), so the
 * project then has the one root. Errors: KILN_E_USAGE for --root together with "roots";
 * KILN_E_IMPORT_SETTINGS naming kiln.json and the JSON pointer (/roots/engine) for a bad prefix
 * (empty, with '/' or '#', "." or ".."), a value that is not a string, a folder that does not
 * exist or lies inside another root (or holds it), more than KILN_ROOTS_MAX; KILN_E_ASSET_IO
 * when the one root does not exist; KILN_E_LIMIT for a path too long. */
kiln_result kiln_roots_open(kiln_project *p, const char *root_opt, const char *cwd,
                            kiln_error *err);

/* Whether the project names its roots (kiln.json "roots"): names then start with a prefix. */
bool kiln_roots_named(const kiln_project *p);

/* The file a name stands for: the root's folder joined with the name (one root), or the folder
 * of the root its first segment names joined with the rest ("engine/a.png"; "engine" is the
 * root's folder). False when the name names no root ("" or an unknown prefix with several
 * roots) or the path does not fit. Lexical: the caller checks what it needs (safe, exists). */
bool kiln_roots_file_of(const kiln_project *p, const char *name, char *out, size_t size);

/* The name of a file (absolute, normalised): its path below the root holding it, after that
 * root's prefix. A root's own folder is "" (one root) or its prefix. False when the file lies in
 * no root or the name does not fit. */
bool kiln_roots_name_of(const kiln_project *p, const char *abs, char *out, size_t size);

/* A file's path below the folder root (as both are spelled: a root's folder, or the real path a
 * kind's dependencies get), without the root's prefix: what a shader's diagnostics print and
 * relative includes and a .kmat's relative paths start from. fallback when abs does not lie
 * below root. Lexical. */
const char *kiln_roots_below(const char *abs, const char *root, const char *fallback);

/* The root a file lies in (its folder or below), or NULL. */
const kiln_asset_root *kiln_roots_holding(const kiln_project *p, const char *abs);

/* For messages ("... is not inside %s"): "the asset root /p/assets" or "any of the asset roots
 * (engine, game)". */
void kiln_roots_describe(const kiln_project *p, char *out, size_t size);

/* Sets "root" in a document (the one root's folder; with several roots the first one's) and,
 * with several roots, "roots": {prefix: folder}. */
void kiln_roots_json_set(const kiln_project *p, json_t *doc);

/* What identifies the roots in the record index's context: the one root's folder, or
 * "named <hash of every prefix and folder>". */
const char *kiln_roots_id(const kiln_project *p);

#endif
