/* hash.h — SHA-256 (kiln's own, sha256.c and sha256_block.c; for cache keys, manifests and the
 * runtime's checks of loose files) and XXH3 (xxHash; for container and pack checksums). */
#ifndef KILN_CORE_HASH_H
#define KILN_CORE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#define KILN_SHA256_SIZE     32
#define KILN_SHA256_HEX_SIZE 65 /* 64 digits + NUL */

/* Incremental SHA-256 (FIPS 180-4). No memory of its own: init never fails (it keeps the
 * kiln_result for callers written against the earlier OpenSSL version). */
typedef struct kiln_sha256 {
    uint32_t state[8];
    uint64_t length;   /* bytes hashed so far */
    uint8_t block[64]; /* a partial block */
    size_t used;       /* bytes in block */
    bool extensions;   /* the CPU's SHA instructions are used */
} kiln_sha256;

kiln_result kiln_sha256_init(kiln_sha256 *h, kiln_error *err);
void kiln_sha256_update(kiln_sha256 *h, const void *data, size_t size);
/* Writes the digest (always KILN_OK). */
kiln_result kiln_sha256_final(kiln_sha256 *h, uint8_t out[KILN_SHA256_SIZE], kiln_error *err);
void kiln_sha256_abort(kiln_sha256 *h); /* forgets the data without a digest */

/* One-shot digest. */
kiln_result kiln_sha256_bytes(const void *data, size_t size, uint8_t out[KILN_SHA256_SIZE],
                              kiln_error *err);
/* Digest of a file read in chunks (constant memory). KILN_E_ASSET_IO when unreadable. */
kiln_result kiln_sha256_file(const char *path, uint8_t out[KILN_SHA256_SIZE], uint64_t *size,
                             kiln_error *err);

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void kiln_hex(const uint8_t *bytes, size_t n, char *out);
/* Parses exactly 2n hex digits; false on anything else. */
bool kiln_unhex(const char *hex, uint8_t *out, size_t n);

/* XXH3 64-bit of data (seed 0). */
uint64_t kiln_xxh3_64(const void *data, size_t size);
/* XXH3 128-bit of data (seed 0) in xxHash's canonical byte order (big-endian, as its tools print
 * it): the manifests' "xxh3_128". */
void kiln_xxh3_128(const void *data, size_t size, uint8_t out[16]);
/* XXH3 64-bit of data with the 8 bytes at `field` taken as zeros: the self-checksum of kiln's
 * container header (field 24) and pack header (field 48). size must be at least field + 8. */
uint64_t kiln_xxh3_64_field_zeroed(const void *data, size_t size, size_t field);

#endif
