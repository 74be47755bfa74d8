/* cache_verify.h — the deep check of a cache entry (every output against both digests of its
 * manifest) shared by `kiln cache verify`, `report --verify`, `import --force` and pack, which
 * re-cook an entry it finds damaged. docs/cache.md "Damage and repair". */
#ifndef KILN_PIPELINE_CACHE_VERIFY_H
#define KILN_PIPELINE_CACHE_VERIFY_H

#include "pipeline/project.h"

#define KILN_ENTRY_REASON_SIZE 256

typedef enum kiln_entry_state {
    KILN_ENTRY_ABSENT = 0,  /* nothing under the key's name */
    KILN_ENTRY_WHOLE = 1,   /* the manifest checks and every output has both its digests */
    KILN_ENTRY_DAMAGED = 2, /* something is there, and reason says what is wrong with it */
} kiln_entry_state;

/* Checks the entry of key: its folder is a folder, manifest.json parses, has this manifest
 * version and key, lists at least one output, each a plain file name with a size, a SHA-256 (64
 * hex digits) and, when present, an XXH3-128 (32 hex digits); each output is a regular file of
 * that size whose bytes give both digests. Reads every byte of the entry. reason (may be NULL)
 * gets "texture.ktx2: does not match the SHA-256 of its manifest" when damaged, else "". */
kiln_entry_state kiln_cache_entry_verify(const kiln_project *p, const char *key,
                                         char reason[KILN_ENTRY_REASON_SIZE]);

#endif
