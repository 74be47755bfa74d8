/* fuzz_uri.c — libFuzzer target for glTF URIs (src/import/uri.c). The input up to its first NUL
 * (or all of it) is the URI; what follows is ignored. It is percent-decoded, decoded as a data
 * URI (limit 1 MiB) and resolved as a file reference against a small temporary tree (a file, a
 * folder, a symlink inside and one out) made once per process. Checked: only documented error
 * codes; a decoded string never grows; accepted base64 re-encodes to the same text (one encoding
 * per byte string) and stays within the limit; a resolved path always lies inside the base
 * folder; nothing with a scheme, '?', '#' or '\' resolves. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/file.h"
#include "core/path.h"
#include "import/uri.h"

#define MAX_DATA ((size_t)1 << 20)

static char base_dir[256];
static char base_real[KILN_PATH_MAX];
static char tree_paths[5][320]; /* in creation order; removed in reverse */

static void remove_tree(void)
{
    for (int i = 4; i >= 0; i--) remove(tree_paths[i]);
    rmdir(base_dir);
}

/* The target's one piece of process state: the tree it resolves against, made on first use. */
static const char *base(void)
{
    if (base_dir[0]) return base_dir;
    const char *tmp = getenv("TMPDIR");
    snprintf(base_dir, sizeof base_dir, "%s/kiln-fuzz-uri-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base_dir)) abort();
    static const char *const names[5] = {"sub", "sub/b.bin", "a.bin", "in", "out"};
    for (int i = 0; i < 5; i++)
        snprintf(tree_paths[i], sizeof tree_paths[i], "%s/%s", base_dir, names[i]);
    FILE *f;
    if (mkdir(tree_paths[0], 0700) != 0) abort();
    if (!(f = fopen(tree_paths[1], "wb"))) abort();
    fclose(f);
    if (!(f = fopen(tree_paths[2], "wb"))) abort();
    fclose(f);
    if (symlink("sub", tree_paths[3]) != 0 || symlink("../..", tree_paths[4]) != 0) abort();
    atexit(remove_tree);
    if (!realpath(base_dir, base_real)) abort();
    return base_dir;
}

static void base64_encode(const uint8_t *in, size_t n, char *out)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t g = (uint32_t)in[i] << 16;
        if (i + 1 < n) g |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n) g |= in[i + 2];
        out[o++] = alphabet[g >> 18];
        out[o++] = alphabet[(g >> 12) & 63];
        if (i + 1 < n) out[o++] = alphabet[(g >> 6) & 63];
        if (i + 2 < n) out[o++] = alphabet[g & 63];
    }
    out[o] = '\0'; /* without padding: compared with the input's padding taken off */
}

static void check_data(const char *uri, size_t len)
{
    uint8_t *data;
    size_t size;
    char type[64];
    kiln_error err;
    kiln_result r =
        kiln_uri_decode_data(uri, MAX_DATA, NULL, &data, &size, type, sizeof type, &err);
    if (!kiln_uri_is_data(uri)) {
        if (r != KILN_E_USAGE) abort();
        return;
    }
    if (r != KILN_OK) {
        if (data || size || (r != KILN_E_IMPORT_FAILED && r != KILN_E_LIMIT)) abort();
        return;
    }
    if (size > MAX_DATA || (size == 0) != (data == NULL) || strlen(type) == 0) abort();
    const char *comma = strchr(uri, ',');
    size_t header = (size_t)(comma - uri);
    if (header >= 12 && strncasecmp(comma - 7, ";base64", 7) == 0) {
        size_t n = len - header - 1;
        while (n > 0 && comma[n] == '=') n--;
        char *again = malloc(size / 3 * 4 + 8);
        if (!again) abort();
        base64_encode(data, size, again);
        if (strlen(again) != n || memcmp(again, comma + 1, n) != 0) abort();
        free(again);
    } else if (size > len) {
        abort();
    }
    kiln_free(NULL, data, size);
}

/* An independent reading of RFC 3986 §3.1: [a-zA-Z][a-zA-Z0-9+.-]*: at the start. */
static int has_scheme(const char *u)
{
    static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (!u[0] || !strchr(first, u[0])) return 0;
    size_t n =
        1 + strspn(u + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.");
    return u[n] == ':';
}

static void check_resolve(const char *uri, size_t len)
{
    char out[KILN_PATH_MAX];
    kiln_error err;
    kiln_result r = kiln_uri_resolve_file(base(), uri, out, sizeof out, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_OUTPUT_REFUSED && r != KILN_E_IMPORT_FAILED && r != KILN_E_LIMIT &&
            r != KILN_E_ASSET_IO)
            abort();
        return;
    }
    if (has_scheme(uri)) abort();
    if (len == 0 || strpbrk(uri, "?#\\") || uri[0] == '/') abort();
    if (!kiln_path_is_within(base_real, out) || strcmp(out, base_real) == 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    size_t len = strnlen((const char *)bytes, size);
    char *uri = malloc(len + 1);
    if (!uri) return 0;
    memcpy(uri, bytes, len);
    uri[len] = '\0';

    char *decoded = malloc(len + 1);
    if (!decoded) abort();
    kiln_error err;
    kiln_result r = kiln_uri_percent_decode(uri, decoded, len + 1, &err);
    if (r == KILN_OK ? strlen(decoded) > len : r != KILN_E_IMPORT_FAILED) abort();
    free(decoded);

    check_data(uri, len);
    check_resolve(uri, len);
    free(uri);
    return 0;
}
