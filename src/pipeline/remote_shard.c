/* remote_shard.c — splitting work deterministically: which remote owns a cache key (rendezvous
 * or highest-random-weight hashing, Thaler and Ravishankar 1998) and which shard of an import
 * owns an asset (by GUID). Both depend on nothing but their inputs, so every machine agrees. */
#include <string.h>

#include "core/hash.h"
#include "pipeline/remote.h"

static uint64_t be64(const uint8_t *d)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | d[i];
    return v;
}

static uint64_t score(const char *id, const char *key)
{
    kiln_sha256 h;
    uint8_t d[KILN_SHA256_SIZE];
    kiln_sha256_init(&h, NULL);
    kiln_sha256_update(&h, id, strlen(id));
    kiln_sha256_update(&h, "\n", 1);
    kiln_sha256_update(&h, key, strlen(key));
    kiln_sha256_final(&h, d, NULL);
    return be64(d);
}

size_t kiln_remote_rendezvous(const char *const *ids, size_t count, const char *key)
{
    size_t best = 0;
    uint64_t best_score = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t sc = score(ids[i], key);
        /* Ties (2^-64) go to the lower index, so the choice is still the same everywhere. */
        if (i == 0 || sc > best_score) {
            best = i;
            best_score = sc;
        }
    }
    return best;
}

bool kiln_shard_contains(const char *guid, uint32_t index, uint32_t count)
{
    if (count <= 1) return true;
    kiln_sha256 h;
    uint8_t d[KILN_SHA256_SIZE];
    kiln_sha256_init(&h, NULL);
    kiln_sha256_update(&h, "kiln-shard\0", 11);
    kiln_sha256_update(&h, guid, strlen(guid));
    kiln_sha256_final(&h, d, NULL);
    return be64(d) % count == index;
}
