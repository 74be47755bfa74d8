/* skeleton_hash.h — the hash of joint names in a skeleton's name table (docs/formats.md,
 * "Skeletons"): XXH3-64 of the name's bytes (no NUL) with the table's seed. The low bits pick the
 * home slot, the high 32 bits are stored in the slot to skip most string compares. Shared by the
 * builder (src/process/skeleton.c) and the reader. */
#ifndef KILN_CODEC_SKELETON_HASH_H
#define KILN_CODEC_SKELETON_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>

static inline uint64_t kiln_skeleton_name_hash(const char *name, size_t size, uint32_t seed)
{
    return XXH3_64bits_withSeed(name, size, (XXH64_hash_t)seed);
}

#endif
