/* cmd_graph.c — kiln graph [--ninja] [-o FILE]: the project's build graph. With --ninja, a
 * build.ninja with one edge per asset (`kiln import PATH`; inputs: the source, its .meta and the
 * files its key depends on; outputs: a stamp and, as an implicit output, the manifest of the
 * cache entry its current key names), plus a generator edge that writes the file again when a
 * source changes (keys change with sources). Ninja, Make-like schedulers and distributed
 * runners fan the edges out; each edge is an ordinary import that a remote cache can serve. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A path in a ninja build line: '$', ' ' and ':' escaped. */
static void put_path(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '$' || *s == ' ' || *s == ':') fputc('$', f);
        fputc(*s, f);
    }
}

/* A shell word inside a ninja variable: single-quoted for sh, '$' escaped for ninja. */
static void put_shell_chars(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else if (*s == '$') fputs("$$", f);
        else fputc(*s, f);
    }
}

static void put_shell(FILE *f, const char *s)
{
    fputc('\'', f);
    put_shell_chars(f, s);
    fputc('\'', f);
}

static bool has_newline(const char *s) { return strchr(s, '\n') || strchr(s, '\r'); }

/* A path is written only inside the project or output folder, like everything kiln writes. */
static bool inside(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    return !strncmp(dir, path, n) && (path[n] == '/' || path[n] == '\0');
}

static void put_edge(FILE *f, const char *stamps, const char *guid, const char *source,
                     const char *entry, const json_t *inputs)
{
    fputs("build ", f);
    /* Written piece by piece (escaping is per character): no buffer to truncate a path. */
    put_path(f, stamps);
    fputc('/', f);
    put_path(f, guid);
    fputs(".stamp", f);
    if (entry) {
        fputs(" | ", f);
        put_path(f, entry);
        fputs("/manifest.json", f);
    }
    fputs(": kiln_import ", f);
    put_path(f, source);
    size_t i;
    const json_t *in;
    bool first = true;
    json_array_foreach(inputs, i, in) {
        if (i == 0) continue; /* the source itself */
        fputs(first ? " | " : " ", f);
        first = false;
        put_path(f, json_string_value(in));
    }
    fputs("\n  source = ", f);
    put_shell(f, source);
    if (entry) {
        /* The entry may be older than the source (equal bytes again): touching it (never
         * creating it, -c) keeps ninja from running a cached import on every build. */
        fputs("\n  manifest = '", f);
        put_shell_chars(f, entry);
        fputs("/manifest.json'", f);
    }
    fputc('\n', f);
}

static int write_ninja(const kiln_cli *c, const json_t *d, const char *path)
{
    char tmp[PATH_MAX * 2 + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        kiln_error e = {.code = KILN_E_ASSET_IO, .offset = UINT64_MAX};
        snprintf(e.message, sizeof e.message, "cannot write %.200s: %s", tmp, strerror(errno));
        return kiln_cli_fail(c, KILN_E_ASSET_IO, &e);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) exe[n] = '\0';
    else strcpy(exe, "kiln");
    const char *root = json_string_value(json_object_get(d, "root"));
    const char *out = json_string_value(json_object_get(d, "out"));
    const char *cache = json_string_value(json_object_get(d, "cache"));
    const char *platform = json_string_value(json_object_get(d, "platform"));
    char stamps[PATH_MAX];
    snprintf(stamps, sizeof stamps, "%s/graph", out);
    fputs("# build.ninja written by `kiln graph --ninja`: one edge per asset. Run `ninja -f FILE`;\n"
          "# an edge is `kiln import PATH`, so a remote cache (--remote-cache or kiln.json)\n"
          "# serves it like any import. Write it again after adding or removing assets.\n"
          "ninja_required_version = 1.7\n\n", f);
    fputs("kiln = ", f);
    put_shell(f, exe);
    fputs("\nkiln_flags = --root ", f);
    put_shell(f, root);
    fputs(" --out ", f);
    put_shell(f, out);
    fputs(" --cache ", f);
    put_shell(f, cache);
    if (platform) {
        fputs(" --platform ", f);
        put_shell(f, platform);
    }
    fputs("\n# threads per import; ninja already runs several imports at once\n"
          "kiln_jobs = 1\n\n"
          "rule kiln_import\n"
          "  command = $kiln import $kiln_flags -j $kiln_jobs $source && touch $out && touch -c $manifest\n"
          "  description = kiln import $source\n\n"
          "rule kiln_graph\n"
          "  command = $kiln graph --ninja $kiln_flags -o $out\n"
          "  description = kiln graph --ninja\n"
          "  generator = 1\n\n", f);
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(d, "assets"), i, a) {
        put_edge(f, stamps, json_string_value(json_object_get(a, "guid")),
                 json_string_value(json_array_get(json_object_get(a, "inputs"), 0)),
                 json_string_value(json_object_get(a, "entry")), json_object_get(a, "inputs"));
    }
    /* Assets whose key cannot be computed (bad settings): an edge without inputs beyond the
     * source, so `ninja` runs the import and shows its error. */
    json_array_foreach(json_object_get(d, "failed"), i, a) {
        char src[PATH_MAX * 2];
        snprintf(src, sizeof src, "%s/%s", root, json_string_value(json_object_get(a, "path")));
        json_t *in = json_pack("[s]", src);
        char guid[64];
        snprintf(guid, sizeof guid, "failed-%zu", i);
        put_edge(f, stamps, guid, src, NULL, in);
        json_decref(in);
    }
    fputs("\nbuild ", f);
    put_path(f, path);
    fputs(": kiln_graph |", f);
    json_t *seen = json_object(); /* a texture of a .gltf is also an asset: list it once */
    json_array_foreach(json_object_get(d, "assets"), i, a) {
        size_t j;
        const json_t *in;
        json_array_foreach(json_object_get(a, "inputs"), j, in) {
            if (json_object_get(seen, json_string_value(in))) continue;
            json_object_set_new(seen, json_string_value(in), json_true());
            fputc(' ', f);
            put_path(f, json_string_value(in));
        }
    }
    json_decref(seen);
    fputs("\n\ndefault", f);
    json_array_foreach(json_object_get(d, "assets"), i, a) {
        char stamp[PATH_MAX + 64];
        snprintf(stamp, sizeof stamp, "%s/%s.stamp", stamps, json_string_value(json_object_get(a, "guid")));
        fputc(' ', f);
        put_path(f, stamp);
    }
    json_array_foreach(json_object_get(d, "failed"), i, a) {
        char stamp[PATH_MAX + 64];
        snprintf(stamp, sizeof stamp, "%s/failed-%zu.stamp", stamps, i);
        fputc(' ', f);
        put_path(f, stamp);
    }
    fputc('\n', f);
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        kiln_error e = {.code = KILN_E_ASSET_IO, .offset = UINT64_MAX};
        snprintf(e.message, sizeof e.message, "cannot write %.200s: %s", path, strerror(errno));
        return kiln_cli_fail(c, KILN_E_ASSET_IO, &e);
    }
    return KILN_EXIT_OK;
}

int kiln_cmd_graph(int argc, char **argv)
{
    kiln_cli c = {.command = "graph"};
    if (!kiln_cli_parse(&c, argc, argv, "--ninja -o")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (c.positional_count != 0) return kiln_cli_usage(&c, "graph takes no paths");
    if (c.output && !c.ninja) return kiln_cli_usage(&c, "-o needs --ninja");
    int code = KILN_EXIT_OK;
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_project_graph(p, &doc, &err);
    json_t *d = doc ? json_loads(doc, 0, NULL) : NULL;
    if (r != KILN_OK || !d) {
        code = kiln_cli_fail(&c, r != KILN_OK ? r : KILN_E_OUT_OF_MEMORY, &err);
    } else if (c.ninja) {
        const char *out = json_string_value(json_object_get(d, "out"));
        const char *project = json_string_value(json_object_get(d, "project"));
        char path[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
        if (c.output) snprintf(path, sizeof path, "%s", c.output);
        else snprintf(path, sizeof path, "%s/build.ninja", out);
        /* The folder of the file, symlinks resolved, must lie in the project or output folder. */
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
        const char *folder = slash ? (dir[0] ? dir : "/") : ".";
        /* ninja cannot spell a newline in a path. */
        bool bad_chars = has_newline(path);
        size_t i, j;
        json_t *a, *in;
        json_array_foreach(json_object_get(d, "assets"), i, a)
            json_array_foreach(json_object_get(a, "inputs"), j, in)
                bad_chars = bad_chars || has_newline(json_string_value(in));
        if (!c.output) mkdir(out, 0777);
        if (bad_chars || !realpath(folder, real) || !(inside(project, real) || inside(out, real))) {
            kiln_error e = {.code = KILN_E_OUTPUT_REFUSED, .offset = UINT64_MAX};
            snprintf(e.message, sizeof e.message,
                     bad_chars ? "refusing to write %.150s: a path has a newline, which ninja cannot express"
                               : "refusing to write %.150s: it must lie in the project or output folder",
                     path);
            code = kiln_cli_fail(&c, KILN_E_OUTPUT_REFUSED, &e);
        } else {
            char full[PATH_MAX * 2];
            snprintf(full, sizeof full, "%s/%s", real, slash ? slash + 1 : path);
            code = write_ninja(&c, d, full);
            if (code == KILN_EXIT_OK && !c.json)
                printf("wrote %s: %zu edges\n", full,
                       json_array_size(json_object_get(d, "assets")) +
                           json_array_size(json_object_get(d, "failed")));
        }
        if (code == KILN_EXIT_OK && c.json) kiln_cli_print_json(doc);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        size_t i;
        json_t *a;
        json_array_foreach(json_object_get(d, "assets"), i, a)
            printf("%s  %s  (%zu inputs)\n", json_string_value(json_object_get(a, "key")),
                   json_string_value(json_object_get(a, "path")),
                   json_array_size(json_object_get(a, "inputs")));
    }
    json_decref(d);
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
