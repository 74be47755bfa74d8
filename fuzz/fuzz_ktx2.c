/* fuzz_ktx2.c — libFuzzer target for kiln_ktx2_read and kiln_ktx2_level_copy: any input must
 * give an error or a valid info whose levels all lie inside the input and copy out (or fail
 * cleanly), never a crash, overread or unbounded allocation. */
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
    return 0;
}
