/* cmd_graph.c — kiln graph [--ninja] [-o FILE]: the project's build graph. With --ninja, a
 * build.ninja with one edge per cache key (`kiln import PATH...` of the assets whose current keys
 * are equal; inputs: their sources, .meta files and the files their keys depend on; outputs: a
 * stamp per asset and, as an implicit output, the manifest of the cache entry the key names),
 * plus a generator edge that writes the file again when a source changes (keys change with
 * sources). Ninja, Make-like schedulers and distributed runners fan the edges out; each edge is
 * an ordinary import that a remote cache can serve.
 *
 * Why one edge per key rather than one per asset: two sources with identical bytes and settings
 * (`cp a.png b.png`) have one key, so they name one cache entry, and ninja refuses a file where two
 * edges produce the same manifest. The entry is the real output and the key the unit of work: one
 * edge cooks it once and writes both assets' records (the second is a cache hit in the same
 * process), and the manifest stays a declared output, so ninja still runs the edge again when the
 * entry is gone (kiln gc). Per-asset outputs that differ (a stamp alone) would lose that, and two
 * edges would cook the same entry at the same time. */
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

/* One edge: the assets of group (equal keys; failed assets have one each) imported together. */
static void put_edge(FILE *f, const char *stamps, const json_t *group, const char *entry)
{
    fputs("build", f);
    json_t *seen = json_object(); /* a GUID copied with its .meta: one stamp */
    size_t i;
    const json_t *a;
    json_array_foreach (group, i, a) {
        const char *guid = json_string_value(json_object_get(a, "guid"));
        if (json_object_get(seen, guid)) continue;
        json_object_set_new(seen, guid, json_true());
        /* Written piece by piece (escaping is per character): no buffer to truncate a path. */
        fputc(' ', f);
        put_path(f, stamps);
        fputc('/', f);
        put_path(f, guid);
        fputs(".stamp", f);
    }
    json_object_clear(seen);
    if (entry) {
        fputs(" | ", f);
        put_path(f, entry);
        fputs("/manifest.json", f);
    }
    fputs(": kiln_import", f);
    json_array_foreach (group, i, a) {
        const char *source = json_string_value(json_array_get(json_object_get(a, "inputs"), 0));
        json_object_set_new(seen, source, json_true());
        fputc(' ', f);
        put_path(f, source);
    }
    bool first = true;
    json_array_foreach (group, i, a) {
        size_t j;
        const json_t *in;
        json_array_foreach (json_object_get(a, "inputs"), j, in) {
            if (json_object_get(seen, json_string_value(in))) continue; /* a source, or listed */
            json_object_set_new(seen, json_string_value(in), json_true());
            fputs(first ? " | " : " ", f);
            first = false;
            put_path(f, json_string_value(in));
        }
    }
    json_decref(seen);
    fputs("\n  source =", f);
    json_array_foreach (group, i, a) {
        fputc(' ', f);
        put_shell(f, json_string_value(json_array_get(json_object_get(a, "inputs"), 0)));
    }
    if (entry) {
        /* The entry may be older than the source (equal bytes again): touching it (never
         * creating it, -c) keeps ninja from running a cached import on every build. */
        fputs("\n  manifest = '", f);
        put_shell_chars(f, entry);
        fputs("/manifest.json'", f);
    }
    fputc('\n', f);
}

/* The assets of the graph document grouped by key, in the order of each key's first asset: an
 * array of arrays of asset objects. */
static json_t *group_by_key(const json_t *d)
{
    json_t *groups = json_array(), *index = json_object();
    size_t i;
    json_t *a;
    json_array_foreach (json_object_get(d, "assets"), i, a) {
        const char *key = json_string_value(json_object_get(a, "key"));
        json_t *group = json_object_get(index, key);
        if (!group) {
            group = json_array();
            json_array_append_new(groups, group);
            json_object_set(index, key, group);
        }
        json_array_append(group, a);
    }
    json_decref(index);
    return groups;
}

static int write_ninja(const kiln_cli *c, const json_t *d, const json_t *groups, const char *path)
{
    char tmp[PATH_MAX * 2 + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        kiln_error e = {.code = KILN_E_ASSET_IO, .offset = UINT64_MAX};
        /* the file asked for, not the temporary one beside it */
        snprintf(e.message, sizeof e.message, "cannot write %.200s: %s", path, strerror(errno));
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
    fputs(
        "# build.ninja written by `kiln graph --ninja`: one edge per cache key (assets with\n"
        "# identical bytes and settings share one). Run `ninja -f FILE`; an edge is\n"
        "# `kiln import PATH...`, so a remote cache (--remote-cache or kiln.json) serves it like\n"
        "# any import. Write it again after adding or removing assets.\n"
        "ninja_required_version = 1.7\n\n",
        f);
    fputs("kiln = ", f);
    put_shell(f, exe);
    fputs("\nkiln_flags =", f);
    if (!json_object_get(d, "roots")) { /* several roots come from kiln.json, not --root */
        fputs(" --root ", f);
        put_shell(f, root);
    }
    fputs(" --out ", f);
    put_shell(f, out);
    fputs(" --cache ", f);
    put_shell(f, cache);
    if (platform) {
        fputs(" --platform ", f);
        put_shell(f, platform);
    }
    fputs(
        "\n# threads per import; ninja already runs several imports at once\n"
        "kiln_jobs = 1\n\n"
        "rule kiln_import\n"
        "  command = $kiln import $kiln_flags -j $kiln_jobs $source && touch $out && touch -c $manifest\n"
        "  description = kiln import $source\n\n"
        "rule kiln_graph\n"
        "  command = $kiln graph --ninja $kiln_flags -o $out\n"
        "  description = kiln graph --ninja\n"
        "  generator = 1\n\n",
        f);
    size_t i;
    const json_t *a, *group;
    json_array_foreach (groups, i, group) {
        const char *entry = json_string_value(json_object_get(json_array_get(group, 0), "entry"));
        put_edge(f, stamps, group, entry);
    }
    /* Assets whose key cannot be computed (bad settings): an edge without inputs beyond the
     * source, so `ninja` runs the import and shows its error. */
    json_array_foreach (json_object_get(d, "failed"), i, a) {
        char src[PATH_MAX * 2], guid[64];
        snprintf(src, sizeof src, "%s/%s", root, json_string_value(json_object_get(a, "path")));
        snprintf(guid, sizeof guid, "failed-%zu", i);
        json_t *one = json_pack("[{s:s, s:[s]}]", "guid", guid, "inputs", src);
        put_edge(f, stamps, one, NULL);
        json_decref(one);
    }
    fputs("\nbuild ", f);
    put_path(f, path);
    fputs(": kiln_graph |", f);
    json_t *seen = json_object(); /* a texture of a .gltf is also an asset: list it once */
    json_array_foreach (json_object_get(d, "assets"), i, a) {
        size_t j;
        const json_t *in;
        json_array_foreach (json_object_get(a, "inputs"), j, in) {
            if (json_object_get(seen, json_string_value(in))) continue;
            json_object_set_new(seen, json_string_value(in), json_true());
            fputc(' ', f);
            put_path(f, json_string_value(in));
        }
    }
    json_decref(seen);
    fputs("\n\ndefault", f);
    seen = json_object();
    json_array_foreach (json_object_get(d, "assets"), i, a) {
        const char *guid = json_string_value(json_object_get(a, "guid"));
        if (json_object_get(seen, guid)) continue;
        json_object_set_new(seen, guid, json_true());
        char stamp[PATH_MAX + 64];
        snprintf(stamp, sizeof stamp, "%s/%s.stamp", stamps, guid);
        fputc(' ', f);
        put_path(f, stamp);
    }
    json_decref(seen);
    json_array_foreach (json_object_get(d, "failed"), i, a) {
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
        char path[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
        /* -o FILE goes wherever the user named it (kiln texture's OUT does too); the default goes
         * into the output folder, made when missing. */
        if (c.output) snprintf(path, sizeof path, "%s", c.output);
        else snprintf(path, sizeof path, "%s/build.ninja", out);
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
        const char *folder = slash ? (dir[0] ? dir : "/") : ".";
        /* ninja cannot spell a newline in a path. */
        bool bad_chars = has_newline(path);
        size_t i, j;
        json_t *a, *in;
        json_array_foreach (json_object_get(d, "assets"), i, a)
            json_array_foreach (json_object_get(a, "inputs"), j, in)
                bad_chars = bad_chars || has_newline(json_string_value(in));
        if (!c.output) mkdir(out, 0777);
        if (bad_chars) {
            kiln_error e = {.code = KILN_E_OUTPUT_REFUSED, .offset = UINT64_MAX};
            snprintf(e.message, sizeof e.message,
                     "refusing to write %.150s: a path has a newline, which ninja cannot express",
                     path);
            code = kiln_cli_fail(&c, KILN_E_OUTPUT_REFUSED, &e);
        } else if (!realpath(folder,
                             real)) { /* the folder is named, as kiln_file_write_atomic does */
            kiln_error e = {.code = KILN_E_ASSET_IO, .offset = UINT64_MAX};
            int why = errno;
            if (why == ENOENT)
                snprintf(e.message, sizeof e.message,
                         "cannot write %.100s: its folder %.100s does not exist", path, folder);
            else
                snprintf(e.message, sizeof e.message, "cannot write %.100s: %.80s: %.40s", path,
                         folder, strerror(why));
            snprintf(e.path, sizeof e.path, "%.500s", folder);
            code = kiln_cli_fail(&c, KILN_E_ASSET_IO, &e);
        } else {
            char full[PATH_MAX * 2];
            snprintf(full, sizeof full, "%s/%s", real, slash ? slash + 1 : path);
            json_t *groups = group_by_key(d);
            code = write_ninja(&c, d, groups, full);
            if (code == KILN_EXIT_OK && !c.json)
                printf("wrote %s: %zu edges\n", full,
                       json_array_size(groups) + json_array_size(json_object_get(d, "failed")));
            json_decref(groups);
        }
        if (code == KILN_EXIT_OK && c.json) kiln_cli_print_json(doc);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        size_t i;
        json_t *a;
        json_array_foreach (json_object_get(d, "assets"), i, a)
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
