/* fixtures.c — source trees and helpers for the pipeline tests. */
#define _GNU_SOURCE
#include "fixtures.h"

#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/file.h"
#include "core/hash.h"
#include "support.h"

void fx_write_png(const char *path, uint32_t w, uint32_t h, int channels, uint32_t seed)
{
    size_t n = (size_t)w * h * (size_t)channels;
    uint8_t *px = malloc(n);
    uint32_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        px[i] = (uint8_t)((i * 7 + (s & 31)) & 0xff);
        if (channels == 4 && i % 4 == 3) px[i] = (uint8_t)(i / 4 % 2 ? 255 : 128);
    }
    kt_write_png(path, px, w, h, channels);
    free(px);
}

void fx_age(const char *path, int seconds_ago)
{
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec -= seconds_ago;
    ts[1] = ts[0];
    assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

void fx_make_tree(const char *root, int count)
{
    for (int i = 0; i < count; i++) {
        char *p = kt_format("%s/tex/img%02d.png", root, i);
        fx_write_png(p, 8u + (uint32_t)(i % 5) * 7u, 8u + (uint32_t)(i % 3) * 5u, i % 2 ? 4 : 3,
                     (uint32_t)i);
        fx_age(p, 10);
        free(p);
    }
}

kiln_project *fx_open(const char *root, const char *out, unsigned jobs)
{
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    /* The project folder is the one holding the output folder (and, in these tests, the root). */
    char *project = kt_format("%s", out);
    char *slash = strrchr(project, '/');
    if (slash && slash != project) *slash = '\0';
    o.project_dir = project;
    o.root = root;
    o.out = out;
    o.jobs = jobs;
    kiln_project *p = NULL;
    kiln_error e;
    kiln_result r = kiln_project_open(&o, &p, &e);
    free(project);
    if (r != KILN_OK) fail_msg("open: %s", e.message);
    return p;
}

void *fx_import_all(kiln_project *p, kiln_result *code)
{
    char *doc = NULL;
    kiln_error e;
    *code = kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &doc, &e);
    assert_non_null(doc);
    json_t *j = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    assert_non_null(j);
    return j;
}

void *fx_report(kiln_project *p)
{
    char *doc = NULL;
    kiln_error e;
    kiln_result r = kiln_project_report(p, &doc, &e);
    if (r != KILN_OK) fail_msg("report: %s", e.message);
    json_t *j = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    assert_non_null(j);
    return j;
}

int fx_count_state(void *report, const char *state)
{
    int n = 0;
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get((json_t *)report, "assets"), i, row) {
        const char *s = json_string_value(json_object_get(row, "state"));
        if (s && !strcmp(s, state)) n++;
    }
    return n;
}

static void fingerprint_walk(const char *base, const char *rel, char **acc, size_t *len)
{
    char *dir = rel[0] ? kt_format("%s/%s", base, rel) : kt_format("%s", base);
    kiln_dir_list l;
    if (kiln_dir_list_read(dir, NULL, &l, NULL) != KILN_OK) {
        free(dir);
        return;
    }
    for (size_t i = 0; i < l.count; i++) {
        char *r = rel[0] ? kt_format("%s/%s", rel, l.names[i]) : kt_format("%s", l.names[i]);
        char *full = kt_format("%s/%s", base, r);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            fingerprint_walk(base, r, acc, len);
        } else {
            uint8_t d[32];
            char hex[65];
            uint64_t size = 0;
            assert_int_equal(kiln_sha256_file(full, d, &size, NULL), KILN_OK);
            kiln_hex(d, 32, hex);
            char *line = kt_format("%s %llu %s\n", r, (unsigned long long)size, hex);
            size_t ll = strlen(line);
            *acc = realloc(*acc, *len + ll + 1);
            memcpy(*acc + *len, line, ll + 1);
            *len += ll;
            free(line);
        }
        free(full);
        free(r);
    }
    kiln_dir_list_free(&l);
    free(dir);
}

char *fx_tree_fingerprint(const char *dir)
{
    char *acc = calloc(1, 1);
    size_t len = 0;
    fingerprint_walk(dir, "", &acc, &len);
    return acc;
}
