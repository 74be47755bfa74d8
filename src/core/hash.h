/* hash.h — SHA-256 (OpenSSL libcrypto; cook side only, for cache keys and manifests) and XXH3
 * (xxHash; both sides, for container and pack checksums). */
#ifndef KILN_CORE_HASH_H
#define KILN_CORE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

#define KILN_SHA256_SIZE 32
#define KILN_SHA256_HEX_SIZE 65 /* 64 digits + NUL */

/* Incremental SHA-256. init can fail only when OpenSSL cannot allocate. */
typedef struct kiln_sha256 {
    void *md_ctx; /* EVP_MD_CTX */
    bool failed;
} kiln_sha256;

kiln_result kiln_sha256_init(kiln_sha256 *h, kiln_error *err);
void kiln_sha256_update(kiln_sha256 *h, const void *data, size_t size);
/* Writes the digest and frees the context; KILN_E_INTERNAL if OpenSSL failed on the way. */
kiln_result kiln_sha256_final(kiln_sha256 *h, uint8_t out[KILN_SHA256_SIZE], kiln_error *err);
void kiln_sha256_abort(kiln_sha256 *h);    /* frees without a digest */

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

#endif
