/* glob.h — matching a '/'-separated relative path against one glob of gitignore's syntax, with
 * whole-segment "**"; what the ignore rules (ignore.c) are made of. */
#ifndef KILN_PIPELINE_GLOB_H
#define KILN_PIPELINE_GLOB_H

#include <stdbool.h>

/* Whether the whole of path matches pattern. Within a segment: '*' any run of bytes but '/',
 * '?' one character but '/' (a whole UTF-8 sequence), "[a-z]" / "[!a-z]" / "[^a-z]" a class of
 * bytes (a ']' first is literal; an unclosed '[' is a literal '['), '\\' makes the next byte
 * literal. A segment that is exactly "**" matches zero or more whole segments ("**" + "/x": x at
 * any depth; "a/" + "**" + "/b": b in a or below), and as the last segment one or more ("a/" +
 * "**": everything inside a, not a itself). Any other "**" is a '*'. path is relative without a
 * leading or trailing '/'; both are NUL-terminated. No allocation, no recursion: time is
 * O(length of pattern x length of path) at worst. */
bool kiln_glob_match(const char *pattern, const char *path);

#endif
