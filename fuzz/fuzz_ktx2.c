/* fuzz_ktx2.c — libFuzzer target for kiln_ktx2_read and kiln_ktx2_level_copy: any input must
 * give an error or a valid info whose levels all lie inside the input and copy out (or fail
 * cleanly), never a crash, overread or unbounded allocation. A Basis Universal file goes on
 * through kiln_basis_open and kiln_basis_transcode of every level to every target (small ones:
 * the codecs' own targets fuzz the blocks further, fuzz_uastc and fuzz_basislz). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

/* Level copies larger than this are skipped: a 40-byte header may legally promise 8 GiB. */
#define MAX_COPY ((size_t)16 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ktx2_info info;
    kiln_error err;
    if (kiln_ktx2_read(data, size, &info, &err) != KILN_OK) return 0;
    for (uint32_t i = 0; i < info.level_count; i++) {
        const kiln_ktx2_level *lv = &info.levels[i];
        /* The reader promised these: check them, so a broken promise crashes here. */
        if (lv->data < data || lv->size > size || (size_t)(lv->data - data) > size - lv->size)
            abort();
        if (lv->uncompressed_size == 0 || lv->uncompressed_size > MAX_COPY) continue;
        uint8_t *dst = malloc(lv->uncompressed_size);
        if (!dst) continue;
        if (kiln_ktx2_level_copy(&info, i, dst, lv->uncompressed_size, &err) == KILN_OK &&
            info.supercompression == KILN_KTX2_SUPERCOMPRESSION_NONE &&
            memcmp(dst, lv->data, lv->size) != 0)
            abort();
        free(dst);
    }
    if (info.basis == KILN_KTX2_BASIS_NONE) return 0;
    kiln_basis *b = NULL;
    if (kiln_basis_open(&info, NULL, &b, &err) != KILN_OK) return 0;
    uint32_t targets[KILN_BASIS_MAX_TARGETS];
    size_t n = kiln_basis_targets(&info, targets, KILN_BASIS_MAX_TARGETS);
    if (n == 0 || n > KILN_BASIS_MAX_TARGETS) abort();
    for (size_t t = 0; t < n; t++)
        for (uint32_t i = 0; i < info.level_count; i++) {
            size_t need = kiln_basis_level_size(&info, i, targets[t]);
            if (need == 0) abort(); /* every listed target has a size */
            if (need > MAX_COPY) continue;
            uint8_t *dst = malloc(need);
            if (!dst) continue;
            kiln_basis_transcode(b, i, targets[t], dst, need, &err);
            free(dst);
        }
    kiln_basis_close(b);
    return 0;
}
