/* support.c — helpers shared by kiln's tests. */
#define _GNU_SOURCE
#include "support.h"

#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kiln/kiln.h"

char *kt_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    va_end(ap);
    assert_non_null(s);
    return s;
}

char *kt_tempdir(const char *tag)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    char *tmpl = kt_format("%s/kiln-test-%s-XXXXXX", base, tag);
    if (!mkdtemp(tmpl)) fail_msg("mkdtemp %s: %s", tmpl, strerror(errno));
    return tmpl;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void kt_rmtree(const char *path)
{
    if (path) nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void *kt_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0; /* n < cap here: a text file reads as a C string */
    if (size) *size = n;
    return buf;
}

static void mkdirs_for(const char *path)
{
    char *p = strdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    }
    free(p);
}

void kt_write_file(const char *path, const void *data, size_t size)
{
    mkdirs_for(path);
    FILE *f = fopen(path, "wb");
    if (!f) fail_msg("cannot write %s: %s", path, strerror(errno));
    if (size && fwrite(data, 1, size, f) != size) fail_msg("short write %s", path);
    fclose(f);
}

int kt_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

char *kt_corpus_path(const char *rel)
{
    const char *c = getenv("KILN_CORPUS");
    if (!c || !*c) return NULL;
    struct stat st;
    if (stat(c, &st) != 0) return NULL;
    return kt_format("%s/%s", c, rel);
}

void kt_require_corpus(void)
{
    const char *c = getenv("KILN_CORPUS");
    struct stat st;
    if (!c || !*c || stat(c, &st) != 0) {
        fprintf(stderr, "SKIP: the third-party corpus is absent (KILN_CORPUS=%s)\n", c ? c : "");
        exit(77);
    }
}

int kt_run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    if (buf) buf[n] = '\0';
    int st = pclose(p);
    if (out) *out = buf;
    else free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void kt_write_png(const char *path, const uint8_t *pixels, uint32_t w, uint32_t h, int channels)
{
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    assert_non_null(ctx);
    assert_int_equal(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), 0);
    struct spng_ihdr ihdr = {0};
    ihdr.width = w;
    ihdr.height = h;
    ihdr.bit_depth = 8;
    ihdr.color_type = channels == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR;
    assert_int_equal(spng_set_ihdr(ctx, &ihdr), 0);
    int e = spng_encode_image(ctx, pixels, (size_t)w * h * (size_t)channels, SPNG_FMT_PNG,
                              SPNG_ENCODE_FINALIZE);
    if (e) fail_msg("spng_encode_image %s: %s", path, spng_strerror(e));
    size_t len = 0;
    void *buf = spng_get_png_buffer(ctx, &len, &e);
    if (!buf) fail_msg("spng_get_png_buffer %s: %s", path, spng_strerror(e));
    kt_write_file(path, buf, len);
    free(buf);
    spng_ctx_free(ctx);
}

void kt_check_golden(const char *name, const void *bytes, size_t size)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src || !*src) fail_msg("KILN_SOURCE_DIR is not set (run the test through ctest)");
    char *path = kt_format("%s/tests/golden/%s", src, name);
    const char *update = getenv("KILN_GOLDEN_UPDATE");
    if (update && strcmp(update, "1") == 0) {
        kt_write_file(path, bytes, size);
        printf("golden: wrote %s (%zu bytes)\n", path, size);
        free(path);
        return;
    }
    size_t gsize = 0;
    uint8_t *golden = kt_read_file(path, &gsize);
    if (!golden) fail_msg("%s is missing: run `make golden-update` and review the diff", path);
    const uint8_t *b = bytes;
    if (gsize != size || memcmp(golden, b, size) != 0) {
        size_t i = 0;
        while (i < size && i < gsize && golden[i] == b[i]) i++;
        fail_msg("%s differs from the output at byte %zu (golden %zu bytes, now %zu); if "
                 "intended, run `make golden-update` and review",
                 path, i, gsize, size);
    }
    free(golden);
    free(path);
}

void kt_container_reseal(uint8_t *bytes, size_t size)
{
    XXH3_state_t st;
    static const uint8_t zeros[8];
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, bytes, 24);
    XXH3_64bits_update(&st, zeros, 8);
    XXH3_64bits_update(&st, bytes + 32, size - 32);
    uint64_t h = XXH3_64bits_digest(&st);
    for (int i = 0; i < 8; i++) bytes[24 + i] = (uint8_t)(h >> (8 * i));
}

kt_flip_counts kt_container_flips(uint8_t *bytes, size_t size,
                                  kiln_result (*read)(void *user, const uint8_t *b, size_t n),
                                  void (*check)(void *user), void *user)
{
    kt_flip_counts c = {0, 0};
    for (size_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8; bit++) {
            bytes[i] ^= (uint8_t)(1u << bit);
            kiln_result r = read(user, bytes, size);
            if (r == KILN_OK) fail_msg("flipping bit %d of byte %zu was not noticed", bit, i);
            assert_true(r == KILN_E_FORMAT_INVALID || r == KILN_E_FORMAT_VERSION);
            /* With a valid checksum the kind's own checks must hold the line: refused, or a
             * view that keeps every promise (a factor's low bits may flip harmlessly). */
            if (i >= 32) {
                uint8_t keep[8];
                memcpy(keep, bytes + 24, 8);
                kt_container_reseal(bytes, size);
                if (read(user, bytes, size) == KILN_OK) {
                    check(user);
                    c.accepted++;
                } else {
                    c.refused++;
                }
                memcpy(bytes + 24, keep, 8);
            }
            bytes[i] ^= (uint8_t)(1u << bit);
        }
    for (size_t n = 0; n < size; n++) assert_int_equal(read(user, bytes, n), KILN_E_FORMAT_INVALID);
    assert_int_equal(read(user, bytes, size), KILN_OK);
    return c;
}

typedef struct path_list {
    char **paths;
    size_t count, capacity;
} path_list;

static void collect_gltf(path_list *l, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot read the folder %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p = kt_format("%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) fail_msg("cannot stat %s", p);
        size_t n = strlen(p);
        if (S_ISDIR(st.st_mode)) {
            collect_gltf(l, p);
            free(p);
        } else if ((n > 5 && strcmp(p + n - 5, ".gltf") == 0) ||
                   (n > 4 && strcmp(p + n - 4, ".glb") == 0)) {
            if (l->count == l->capacity) {
                l->capacity = l->capacity ? l->capacity * 2 : 64;
                l->paths = realloc(l->paths, l->capacity * sizeof *l->paths);
                if (!l->paths) fail_msg("out of memory");
            }
            l->paths[l->count++] = p;
        } else {
            free(p);
        }
    }
    closedir(d);
}

static int path_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **kt_gltf_files(const char *dir, size_t *count)
{
    path_list l = {0};
    collect_gltf(&l, dir);
    if (l.count) qsort(l.paths, l.count, sizeof *l.paths, path_order);
    *count = l.count;
    return l.paths;
}

void kt_paths_free(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++) free(paths[i]);
    free(paths);
}

void kt_import_all(const char *dir)
{
    kiln_project_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.project_dir = dir;
    o.jobs = 2;
    kiln_project *p = NULL;
    kiln_error err;
    assert_int_equal(kiln_project_open(&o, &p, &err), KILN_OK);
    char *doc = NULL;
    kiln_result r = kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &err);
    if (r) fprintf(stderr, "import: %s\n%s\n", err.message, doc ? doc : "");
    assert_int_equal(r, KILN_OK);
    kiln_string_free(doc);
    kiln_project_close(p);
}

void kt_gltf_validate(const char *cmd, size_t files)
{
    char *report = NULL;
    char *full = kt_format("command -v node >/dev/null || exit 77; %s", cmd);
    int st = kt_run(full, &report);
    free(full);
    if (st == 77) {
        print_message("skipped the validator: node or gltf-validator is missing\n");
    } else {
        size_t clean = 0;
        for (const char *p = report; p && (p = strstr(p, ": 0 errors,")); p++) clean++;
        if (st != 0 || clean != files)
            fail_msg("glTF Validator: %zu of %zu outputs without errors (exit %d):\n%s", clean,
                     files, st, report ? report : "");
        print_message("glTF Validator: 0 errors in all %zu outputs\n", files);
    }
    free(report);
}
