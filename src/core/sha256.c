/* sha256.c — SHA-256 through OpenSSL's EVP interface (FIPS 180-4). Cook side only. */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/hash.h"

kiln_result kiln_sha256_init(kiln_sha256 *h, kiln_error *err)
{
    h->failed = false;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c || EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(c);
        h->md_ctx = NULL;
        h->failed = true;
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "cannot start a SHA-256 digest");
    }
    h->md_ctx = c;
    return KILN_OK;
}

void kiln_sha256_update(kiln_sha256 *h, const void *data, size_t size)
{
    if (h->failed || !h->md_ctx || size == 0) return;
    if (EVP_DigestUpdate((EVP_MD_CTX *)h->md_ctx, data, size) != 1) h->failed = true;
}

kiln_result kiln_sha256_final(kiln_sha256 *h, uint8_t out[KILN_SHA256_SIZE], kiln_error *err)
{
    unsigned int n = 0;
    bool ok = !h->failed && h->md_ctx &&
              EVP_DigestFinal_ex((EVP_MD_CTX *)h->md_ctx, out, &n) == 1 && n == KILN_SHA256_SIZE;
    kiln_sha256_abort(h);
    if (!ok) return kiln_error_set(err, KILN_E_INTERNAL, "SHA-256 digest failed");
    return KILN_OK;
}

void kiln_sha256_abort(kiln_sha256 *h)
{
    EVP_MD_CTX_free((EVP_MD_CTX *)h->md_ctx);
    h->md_ctx = NULL;
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
