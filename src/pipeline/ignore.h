/* ignore.h — ignore rules in gitignore's syntax: the lines of <root>/.kilnignore and the
 * "exclude" patterns of kiln.json, turned into globs (glob.h) and matched against paths relative
 * to the asset root, the last matching rule deciding. */
#ifndef KILN_PIPELINE_IGNORE_H
#define KILN_PIPELINE_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln.h"

typedef struct kiln_ignore_rule {
    char *glob;         /* as matched: anchored at the root ("**" + "/" prepended to a pattern
                           without a slash, a leading '/' dropped) (owned) */
    char *text;         /* the pattern as written, for messages: "*.psd", "!keep.png" (owned) */
    const char *origin; /* where it was written (static or the caller's string): ".kilnignore" */
    size_t line;        /* 1-based line in origin; for kiln.json the index in "exclude" */
    bool negate;        /* "!pattern": takes back what an earlier rule ignored */
    bool dir_only;      /* "pattern/": folders only */
} kiln_ignore_rule;

typedef struct kiln_ignore {
    kiln_allocator allocator;
    kiln_ignore_rule *rules;
    size_t count, capacity;
} kiln_ignore;

#define KILN_IGNORE_MAX_PATTERN 1024 /* bytes of one pattern; longer ones are refused */

/* Adds one pattern line (size bytes, no newline; a trailing '\r' is dropped). A blank line or a
 * '#' comment adds nothing (*added false). Trailing spaces are dropped unless escaped ("\ ");
 * "\#" and "\!" start a pattern with a literal '#' or '!'. Errors: KILN_E_LIMIT for a pattern above
 * KILN_IGNORE_MAX_PATTERN bytes (the caller names the place), KILN_E_OUT_OF_MEMORY. origin must
 * outlive ig. */
kiln_result kiln_ignore_add(kiln_ignore *ig, const char *line, size_t size, const char *origin,
                            size_t line_no, bool *added, kiln_error *err);

/* Adds every line of a file's text (size bytes, need not end with a newline); errors name
 * origin and the line. */
kiln_result kiln_ignore_add_text(kiln_ignore *ig, const char *text, size_t size, const char *origin,
                                 kiln_error *err);

/* The last rule that matches rel (relative to the root, '/'-separated; is_dir: rel is a folder),
 * or NULL when none does. rel is ignored when that rule is not a negation. */
const kiln_ignore_rule *kiln_ignore_match(const kiln_ignore *ig, const char *rel, bool is_dir);

/* Frees the rules; ig is empty again (its allocator kept). */
void kiln_ignore_free(kiln_ignore *ig);

#endif
