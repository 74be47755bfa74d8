/* sha256.c — incremental SHA-256 (FIPS 180-4) on the block function of sha256_block.c, and the
 * digest of a file. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/sha256_block.h"

kiln_result kiln_sha256_init(kiln_sha256 *h, kiln_error *err)
{
    (void)err;
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(h->state, iv, sizeof iv);
    h->length = 0;
    h->used = 0;
    h->extensions = kiln_sha256_has_extensions();
    return KILN_OK;
}

void kiln_sha256_update(kiln_sha256 *h, const void *data, size_t size)
{
    const uint8_t *p = data;
    if (size == 0) return;
    h->length += size;
    if (h->used) {
        size_t take = 64 - h->used < size ? 64 - h->used : size;
        memcpy(h->block + h->used, p, take);
        h->used += take;
        p += take;
        size -= take;
        if (h->used < 64) return;
        kiln_sha256_blocks(h->state, h->block, 1, h->extensions);
        h->used = 0;
    }
    if (size >= 64) kiln_sha256_blocks(h->state, p, size / 64, h->extensions);
    p += size / 64 * 64;
    size %= 64;
    if (size) memcpy(h->block, p, size);
    h->used = size;
}

kiln_result kiln_sha256_final(kiln_sha256 *h, uint8_t out[KILN_SHA256_SIZE], kiln_error *err)
{
    (void)err;
    uint64_t bits = h->length * 8;
    h->block[h->used++] = 0x80;
    if (h->used > 56) {
        memset(h->block + h->used, 0, 64 - h->used);
        kiln_sha256_blocks(h->state, h->block, 1, h->extensions);
        h->used = 0;
    }
    memset(h->block + h->used, 0, 56 - h->used);
    for (int i = 0; i < 8; i++) h->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    kiln_sha256_blocks(h->state, h->block, 1, h->extensions);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(h->state[i] >> 24);
        out[4 * i + 1] = (uint8_t)(h->state[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h->state[i] >> 8);
        out[4 * i + 3] = (uint8_t)h->state[i];
    }
    kiln_sha256_abort(h);
    return KILN_OK;
}

void kiln_sha256_abort(kiln_sha256 *h)
{
    h->used = 0;
    h->length = 0;
    memset(h->block, 0, sizeof h->block);
}

kiln_result kiln_sha256_bytes(const void *data, size_t size, uint8_t out[KILN_SHA256_SIZE],
                              kiln_error *err)
{
    kiln_sha256 h;
    kiln_result r = kiln_sha256_init(&h, err);
    if (r != KILN_OK) return r;
    kiln_sha256_update(&h, data, size);
    return kiln_sha256_final(&h, out, err);
}

kiln_result kiln_sha256_file(const char *path, uint8_t out[KILN_SHA256_SIZE], uint64_t *size,
                             kiln_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block us */
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        kiln_error_set(err, KILN_E_ASSET_IO, "%s is not a regular file", path);
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    if (fd < 0) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot open %s: %s", path, strerror(errno));
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    kiln_sha256 h;
    kiln_result r = kiln_sha256_init(&h, err);
    if (r != KILN_OK) {
        close(fd);
        return r;
    }
    uint8_t buf[1 << 16];
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            kiln_sha256_abort(&h);
            kiln_error_set(err, KILN_E_ASSET_IO, "cannot read %s: %s", path, strerror(e));
            kiln_error_at_path(err, path);
            return KILN_E_ASSET_IO;
        }
        if (n == 0) break;
        kiln_sha256_update(&h, buf, (size_t)n);
        total += (uint64_t)n;
    }
    close(fd);
    if (size) *size = total;
    return kiln_sha256_final(&h, out, err);
}
