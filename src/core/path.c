/* path.c — lexical path normalisation, symlink-aware resolution, confinement to allowed roots. */
#include "core/path.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/file.h"

bool kiln_path_format(char *out, size_t out_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, out_size, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= out_size) {
        if (out_size) out[0] = '\0';
        return false;
    }
    return true;
}

static kiln_result too_long(kiln_error *err, const char *p)
{
    return kiln_error_set(err, KILN_E_LIMIT, "path too long: %.200s", p);
}

kiln_result kiln_path_normalize(const char *in, char *out, size_t out_size, kiln_error *err)
{
    char tmp[KILN_PATH_MAX];
    size_t n = strlen(in);
    if (n >= sizeof tmp || out_size == 0) return too_long(err, in);
    memcpy(tmp, in, n + 1);
    bool absolute = tmp[0] == '/';
    /* Split into components in place, then keep a stack of the ones that survive. */
    char *comps[KILN_PATH_MAX / 2];
    size_t depth = 0, leading_up = 0; /* leading ".." of a relative path stay */
    char *save = NULL;
    for (char *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (!strcmp(c, ".")) continue;
        if (!strcmp(c, "..")) {
            if (depth > leading_up) depth--;
            else if (!absolute) comps[depth++] = c, leading_up++;
            continue; /* "/.." is "/" */
        }
        comps[depth++] = c;
    }
    /* Every write below is checked against out_size, the NUL included: "/" and "." need 2. */
    size_t len = 0;
    if (out_size < 2) return too_long(err, in);
    if (absolute) out[len++] = '/';
    for (size_t i = 0; i < depth; i++) {
        size_t cl = strlen(comps[i]), sep = i > 0 ? 1 : 0;
        if (len + sep + cl + 1 > out_size) return too_long(err, in);
        if (sep) out[len++] = '/';
        memcpy(out + len, comps[i], cl);
        len += cl;
    }
    if (len == 0) out[len++] = '.';
    out[len] = '\0';
    return KILN_OK;
}

kiln_result kiln_path_join(const char *a, const char *b, char *out, size_t out_size,
                           kiln_error *err)
{
    char tmp[KILN_PATH_MAX];
    if (b[0] == '/' || a[0] == '\0') {
        if (strlen(b) >= sizeof tmp) return too_long(err, b);
        strcpy(tmp, b);
    } else {
        size_t la = strlen(a), lb = strlen(b);
        if (la + lb + 2 > sizeof tmp) return too_long(err, b);
        memcpy(tmp, a, la);
        tmp[la] = '/';
        memcpy(tmp + la + 1, b, lb + 1);
    }
    return kiln_path_normalize(tmp, out, out_size, err);
}

kiln_result kiln_path_absolute(const char *path, char *out, size_t out_size, kiln_error *err)
{
    if (path[0] == '/') return kiln_path_normalize(path, out, out_size, err);
    char cwd[KILN_PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return kiln_error_set(err, KILN_E_ASSET_IO, "cannot read the current folder: %s",
                              strerror(errno));
    return kiln_path_join(cwd, path, out, out_size, err);
}

kiln_result kiln_path_resolve(const char *path, char *out, size_t out_size, kiln_error *err)
{
    char norm[KILN_PATH_MAX];
    kiln_result r = kiln_path_normalize(path, norm, sizeof norm, err);
    if (r != KILN_OK) return r;
    if (norm[0] != '/') return kiln_error_set(err, KILN_E_USAGE, "not an absolute path: %s", path);
    char real[PATH_MAX], joined[KILN_PATH_MAX];
    for (int links = 0;; links++) {
        /* Walk back from the full path to the longest prefix that exists, realpath it, append
         * the rest. */
        size_t cut = strlen(norm);
        for (;;) {
            char save = norm[cut];
            norm[cut] = '\0';
            const char *prefix = cut == 0 ? "/" : norm;
            char *ok = realpath(prefix, real);
            norm[cut] = save;
            if (ok) break;
            if (errno != ENOENT && errno != ENOTDIR)
                return kiln_error_set(err, KILN_E_ASSET_IO, "cannot resolve %s: %s", path,
                                      strerror(errno));
            while (cut > 0 && norm[cut - 1 + 0] != '/') cut--;
            if (cut > 0) cut--; /* drop the '/' */
            if (cut == 0) {
                strcpy(real, "/");
                break;
            }
        }
        const char *rest = norm + cut;
        while (*rest == '/') rest++;
        if (*rest) r = kiln_path_join(real, rest, joined, sizeof joined, err);
        else r = kiln_path_normalize(real, joined, sizeof joined, err);
        if (r != KILN_OK) return r;
        if (!*rest) break;
        /* The first missing component may be a dangling symlink: open(O_CREAT) would follow it
         * and create its target, so the real place is where it points. Later components do not
         * exist yet, so they hold no symlinks. */
        size_t first = strcspn(rest, "/");
        char link[KILN_PATH_MAX], target[KILN_PATH_MAX], next[KILN_PATH_MAX];
        if (!kiln_path_format(link, sizeof link, "%s/%.*s", strcmp(real, "/") ? real : "",
                              (int)first, rest))
            return too_long(err, path);
        struct stat st;
        if (lstat(link, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        if (links >= 40) /* as the kernel's limit on nested links */
            return kiln_error_set(err, KILN_E_ASSET_IO, "cannot resolve %s: %s", path,
                                  strerror(ELOOP));
        ssize_t tn = readlink(link, target, sizeof target - 1);
        if (tn < 0)
            return kiln_error_set(err, KILN_E_ASSET_IO, "cannot resolve %s: %s", path,
                                  strerror(errno));
        target[tn] = '\0';
        /* A relative target is taken from the link's folder, which real names without links. */
        if (!kiln_path_format(next, sizeof next, "%s/%s%s", target[0] == '/' ? "" : real, target,
                              rest + first))
            return too_long(err, path);
        r = kiln_path_normalize(next, norm, sizeof norm, err);
        if (r != KILN_OK) return r;
    }
    if (strlen(joined) >= out_size) return too_long(err, path);
    strcpy(out, joined);
    return KILN_OK;
}

bool kiln_path_is_within(const char *root, const char *path)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/') return path[0] == '/';
    return strncmp(root, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

kiln_result kiln_path_confine(const char *path, const char *const *roots, size_t root_count,
                              char *out, size_t out_size, kiln_error *err)
{
    char abs[KILN_PATH_MAX], real[KILN_PATH_MAX];
    kiln_result r = kiln_path_absolute(path, abs, sizeof abs, err);
    if (r == KILN_OK) r = kiln_path_resolve(abs, real, sizeof real, err);
    if (r != KILN_OK) return r;
    for (size_t i = 0; i < root_count; i++) {
        char rabs[KILN_PATH_MAX], rreal[KILN_PATH_MAX];
        if (kiln_path_absolute(roots[i], rabs, sizeof rabs, NULL) != KILN_OK) continue;
        if (kiln_path_resolve(rabs, rreal, sizeof rreal, NULL) != KILN_OK) continue;
        if (kiln_path_is_within(rreal, real)) {
            if (strlen(real) >= out_size) return too_long(err, path);
            strcpy(out, real);
            return KILN_OK;
        }
    }
    kiln_error_set(
        err, KILN_E_OUTPUT_REFUSED,
        "refusing to write %s: it resolves to %s, outside the project and output folders", path,
        real);
    kiln_error_at_path(err, path);
    return KILN_E_OUTPUT_REFUSED;
}

kiln_result kiln_path_confine_read(const char *path, const char *folder, char *out, size_t out_size,
                                   kiln_error *err)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        kiln_error_set(err, KILN_E_ASSET_IO, "cannot resolve it: %s", strerror(errno));
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    if (!kiln_path_is_within(folder, real) || !strcmp(folder, real)) {
        kiln_error_set(err, KILN_E_ASSET_IO, "resolves to %s, outside %s; not read", real, folder);
        kiln_error_at_path(err, path);
        return KILN_E_ASSET_IO;
    }
    if (out) {
        if (strlen(real) >= out_size) return too_long(err, path);
        strcpy(out, real);
    }
    return KILN_OK;
}

const char *kiln_path_relative_to(const char *root, const char *path)
{
    if (!kiln_path_is_within(root, path)) return NULL;
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/') return path + 1;
    return path[n] == '/' ? path + n + 1 : path + n;
}

const char *kiln_path_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool kiln_path_dirname(const char *path, char *out, size_t out_size)
{
    const char *s = strrchr(path, '/');
    size_t n = !s ? 1 : s == path ? 1 : (size_t)(s - path);
    if (n >= out_size) return false;
    if (!s) memcpy(out, ".", 1);
    else memcpy(out, path, n);
    out[n] = '\0';
    return true;
}

const char *kiln_path_extension(const char *path)
{
    const char *base = kiln_path_basename(path);
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : "";
}

bool kiln_path_is_safe_relative(const char *rel)
{
    if (!rel[0] || rel[0] == '/' || strchr(rel, '\\')) return false;
    const char *p = rel;
    while (*p) {
        const char *q = strchr(p, '/');
        size_t cl = q ? (size_t)(q - p) : strlen(p);
        if (cl == 0 || (cl == 1 && p[0] == '.') || (cl == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        p += cl;
        if (*p == '/') p++;
        else break;
    }
    return rel[strlen(rel) - 1] != '/';
}
