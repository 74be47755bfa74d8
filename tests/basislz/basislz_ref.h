/* basislz_ref.h — what the BasisLZ tests share: files made by the reference tool (basisu, a
 * test-time tool only), a minimal reader of the KTX2 files it writes (header, level index,
 * global data) and of the KTX1 files `basisu -unpack` writes (the blocks of each level). */
#ifndef KILN_TEST_BASISLZ_REF_H
#define KILN_TEST_BASISLZ_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The tool's path, or NULL (the caller skips) when it is not installed. malloc'd. */
char *br_basisu(void);

/* A KTX2 file of ETC1S/BasisLZ. levels[i] points into bytes. */
typedef struct br_ktx2 {
    uint8_t *bytes;
    size_t size;
    uint32_t width, height, layers, faces, levels, scheme;
    const uint8_t *sgd;
    size_t sgd_size;
    const uint8_t *level[16];
    size_t level_size[16];
} br_ktx2;
bool br_ktx2_load(const char *path, br_ktx2 *out); /* false: not a file this reader takes */
void br_ktx2_free(br_ktx2 *k);

/* The blocks of level `level` of a KTX1 file (whole file read into *file, free it). */
bool br_ktx1_level(const char *path, uint32_t level, uint8_t **file, const uint8_t **blocks,
                   size_t *size);

/* Encodes src with basisu (args such as "-q 128 -mipmap") into dir/name.ktx2 and unpacks it in
 * dir/name/ unless that was done before (the build folder keeps them). Returns the .ktx2 path
 * (malloc'd) or NULL when the tool failed. */
char *br_make(const char *basisu, const char *dir, const char *name, const char *src,
              const char *args);

#endif
