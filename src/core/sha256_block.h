/* sha256_block.h — SHA-256's compression function over whole blocks, shared by the cook's
 * kiln_sha256 (core/hash.h) and the runtime's manifest checks. */
#ifndef KILN_CORE_SHA256_BLOCK_H
#define KILN_CORE_SHA256_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern const uint32_t kiln_sha256_k[64];

/* Whether this CPU has the x86 SHA extensions (and the SSE levels the fast path uses). */
bool kiln_sha256_has_extensions(void);

/* Runs `blocks` 64-byte blocks at p through the compression function, updating state s (A..H).
 * extensions: use the SHA instructions (only if kiln_sha256_has_extensions() said so). */
void kiln_sha256_blocks(uint32_t s[8], const uint8_t *p, size_t blocks, bool extensions);
void kiln_sha256_blocks_portable(uint32_t s[8], const uint8_t *p, size_t blocks);

#endif
