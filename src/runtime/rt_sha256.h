/* rt_sha256.h — a small portable SHA-256 (FIPS 180-4) for the runtime, which must not link
 * OpenSSL (src/core/sha256.c is cook-only). Used to verify loose cache files against the
 * manifest's digest. */
#ifndef KILN_RT_SHA256_H
#define KILN_RT_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct krt_sha256 {
    uint32_t state[8];
    uint64_t length;        /* bytes hashed so far */
    uint8_t block[64];
    size_t used;            /* bytes in block */
} krt_sha256;

void krt_sha256_init(krt_sha256 *h);
void krt_sha256_update(krt_sha256 *h, const void *data, size_t size);
void krt_sha256_final(krt_sha256 *h, uint8_t out[32]);
void krt_sha256_bytes(const void *data, size_t size, uint8_t out[32]);

#endif
