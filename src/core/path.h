/* path.h — path arithmetic and confinement: every path kiln writes to is checked to lie inside
 * the allowed roots (the project and output folders), after resolving symlinks, so neither
 * "../" nor a symlink can lead a write elsewhere. */
#ifndef KILN_CORE_PATH_H
#define KILN_CORE_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "kiln/kiln_format.h"

/* snprintf for paths: false, and out set to "", when the result does not fit, so a cut path is
 * never used by mistake. */
bool kiln_path_format(char *out, size_t out_size, const char *fmt, ...) KILN_PRINTF(3, 4);

/* Lexical normalisation: "a//b/./c/../d" → "a/b/d"; a trailing slash is dropped; an absolute
 * path stays absolute; ".." above the start of a relative path is kept as leading "..". Never
 * touches the file system. out may be in (same buffer). KILN_E_LIMIT when out is too small. */
kiln_result kiln_path_normalize(const char *in, char *out, size_t out_size, kiln_error *err);

/* Joins a and b ("a/b"; b absolute → b) and normalises. */
kiln_result kiln_path_join(const char *a, const char *b, char *out, size_t out_size,
                           kiln_error *err);

/* Absolute and normalised (relative paths are taken from the current folder). */
kiln_result kiln_path_absolute(const char *path, char *out, size_t out_size, kiln_error *err);

/* Resolves symlinks in the longest existing prefix of path (realpath) and appends the rest,
 * normalised: the real place a write to path would land. path must be absolute. */
kiln_result kiln_path_resolve(const char *path, char *out, size_t out_size, kiln_error *err);

/* Is path equal to root or below it? Both absolute and normalised; lexical only. */
bool kiln_path_is_within(const char *root, const char *path);

/* Checks that path (absolute or relative to the current folder), with symlinks resolved, lies
 * inside one of the roots (also resolved). On success out holds the resolved path.
 * Errors: KILN_E_OUTPUT_REFUSED naming the path. */
kiln_result kiln_path_confine(const char *path, const char *const *roots, size_t root_count,
                              char *out, size_t out_size, kiln_error *err);

/* The read rule (docs/cache.md "What kiln reads"): a file kiln reads must, with every symlink on
 * its way resolved (its folders' and its own), lie inside folder, which is absolute, normalised
 * and already resolved (an asset root, a model's folder, the project folder). realpath only:
 * nothing is opened, so a file outside is never read, not even to be refused. On success out
 * (may be NULL) holds the real path. Errors: KILN_E_ASSET_IO naming path, when it cannot be
 * resolved (missing, a dangling link, a loop) or resolves outside folder ("resolves to /x/a.png,
 * outside /p/assets; not read": the path is in err->path, the caller prefixes its name, as the
 * three paths would not fit the message); KILN_E_LIMIT when out is too small. */
kiln_result kiln_path_confine_read(const char *path, const char *folder, char *out, size_t out_size,
                                   kiln_error *err);

/* path relative to root ("a/b.png") when path is within root, else NULL. Both normalised. */
const char *kiln_path_relative_to(const char *root, const char *path);

/* The last component ("b.png" of "a/b.png"). */
const char *kiln_path_basename(const char *path);

/* The folder of a path: "a/b.png" → "a", "/b.png" → "/", "b.png" → ".". False (out untouched)
 * when it does not fit out_size. Lexical, like kiln_path_basename. */
bool kiln_path_dirname(const char *path, char *out, size_t out_size);

/* The extension after the last '.' of the last component, without the dot, "" if none. */
const char *kiln_path_extension(const char *path);

/* Is a relative path safe to use under a root: not absolute, no ".." component, no empty or
 * "." component, no backslash? (For names that come from data.) */
bool kiln_path_is_safe_relative(const char *rel);

#endif
