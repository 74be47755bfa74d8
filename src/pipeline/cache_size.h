/* cache_size.h — the size of the cache from a memo of its stable folders (cache_size.c), so that
 * a report does not walk every entry and record: objects/<xx> and the records folders are walked
 * only when their stamp changed since the memo was written. */
#ifndef KILN_PIPELINE_CACHE_SIZE_H
#define KILN_PIPELINE_CACHE_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipeline/project.h"

/* A parsed memo (opaque). */
typedef struct kiln_cache_size_memo {
    void *opaque;
} kiln_cache_size_memo;

/* Parses a memo's text (size bytes). False when any check fails; free *out either way. Reads
 * nothing else: the fuzz target's entry. */
bool kiln_cache_size_memo_parse(const char *text, size_t size, kiln_cache_size_memo *out);
void kiln_cache_size_memo_free(kiln_cache_size_memo *m);

/* The bytes of every regular file under the cache, as kiln_cache_size walks them, with the memo
 * answering for the folders it holds. update: write the memo again when it could say more (a
 * writer: import, gc); a report passes false and writes nothing. */
uint64_t kiln_cache_size_known(const kiln_project *p, bool update);

#endif
