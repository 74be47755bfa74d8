/* cmd_pack.c — kiln pack: cooked artifacts of a project into one .kpak file (import first, then
 * gather, check and write; docs/packs.md), and kiln pack --verify FILE: every checksum again.
 *
 *   kiln pack [-o FILE] [--all [--under NAME] | ASSET...] [--keep-going] [--platform P]
 *             [--compress none|zstd|auto] [--level N] [--align 16|4096] [--json]
 *   kiln pack --verify FILE [--json]
 *
 * The options only pack takes are taken out here before the common parser sees the rest. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct pack_args {
    const char *output, *compress, *level, *align, *verify, *under;
    bool keep_going;
} pack_args;

/* Moves pack's own options out of argv into *a; the rest go to rest[] (rest[0] = argv[0]).
 * Returns the name of an option that lacks its value, or NULL. */
static const char *take_pack_options(int argc, char **argv, pack_args *a, char **rest,
                                     int *rest_count)
{
    *rest_count = 0;
    rest[(*rest_count)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--keep-going")) {
            a->keep_going = true;
            continue;
        }
        const char **slot = !strcmp(o, "-o") || !strcmp(o, "--output") ? &a->output
                            : !strcmp(o, "--compress")                 ? &a->compress
                            : !strcmp(o, "--level")                    ? &a->level
                            : !strcmp(o, "--align")                    ? &a->align
                            : !strcmp(o, "--verify")                   ? &a->verify
                            : !strcmp(o, "--under")                    ? &a->under
                                                                       : NULL;
        if (!slot) {
            rest[(*rest_count)++] = argv[i];
            continue;
        }
        if (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2)) return o;
        *slot = argv[++i];
    }
    return NULL;
}

static void print_human(json_t *d)
{
    json_t *t = json_object_get(d, "totals");
    long long entry_bytes = json_integer_value(json_object_get(t, "entry_bytes"));
    long long file_size = json_integer_value(json_object_get(t, "file_size"));
    printf("packed %lld entries from %lld assets into %s\n",
           json_integer_value(json_object_get(t, "entries")),
           json_integer_value(json_object_get(t, "assets")),
           json_string_value(json_object_get(d, "output")));
    printf("  %lld payloads (identical bytes stored once), %lld compressed with zstd "
           "(--compress %s)\n",
           json_integer_value(json_object_get(t, "payloads")),
           json_integer_value(json_object_get(t, "compressed")),
           json_string_value(json_object_get(d, "compress")));
    char raw[32], packed[32];
    printf("  %s of artifacts, %s packed (%.1f%%), aligned to %lld\n",
           kiln_cli_format_size((uint64_t)entry_bytes, raw),
           kiln_cli_format_size((uint64_t)file_size, packed),
           entry_bytes ? 100.0 * (double)file_size / (double)entry_bytes : 100.0,
           json_integer_value(json_object_get(d, "align")));
    size_t i;
    json_t *s;
    json_array_foreach (json_object_get(d, "skipped"), i, s)
        printf("  skipped %s: %s\n", json_string_value(json_object_get(s, "path")),
               json_string_value(json_object_get(s, "status")));
}

/* Every failure, one line each on stderr: "kiln pack: PATH: CODE: message (at pointer)". */
static void print_failures(const json_t *d)
{
    size_t i;
    const json_t *f;
    json_array_foreach (json_object_get(d, "failed"), i, f) {
        const json_t *e = json_object_get(f, "error");
        const char *ptr = json_string_value(json_object_get(e, "json_pointer"));
        fprintf(stderr, "kiln pack: %s: %s: %s", json_string_value(json_object_get(f, "path")),
                json_string_value(json_object_get(e, "code")),
                json_string_value(json_object_get(e, "message")));
        if (ptr && ptr[0]) fprintf(stderr, " (at %s)", ptr);
        fputc('\n', stderr);
    }
}

static int verify(kiln_cli *c, const char *path)
{
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_pack_verify_file(path, &doc, &err);
    int code = KILN_EXIT_OK;
    if (r != KILN_OK) {
        code = kiln_cli_fail(c, r, &err);
    } else if (c->json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        char size[32];
        printf("%s: every checksum matches: %lld entries, %lld payloads (%lld compressed), %s\n",
               path, json_integer_value(json_object_get(d, "entries")),
               json_integer_value(json_object_get(d, "payloads")),
               json_integer_value(json_object_get(d, "compressed")),
               kiln_cli_format_size((uint64_t)json_integer_value(json_object_get(d, "file_size")),
                                    size));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_cli_free(c);
    return code;
}

int kiln_cmd_pack(int argc, char **argv)
{
    kiln_cli c = {.command = "pack"};
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--json")) c.json = true;
    pack_args a = {0};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) return KILN_EXIT_FAILED;
    int rest_count;
    const char *missing = take_pack_options(argc, argv, &a, rest, &rest_count);
    bool parsed = !missing && kiln_cli_parse(&c, rest_count, rest, "--all");
    free(rest);
    if (missing) return kiln_cli_usage(&c, "%s needs a value", missing);
    if (!parsed) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (a.verify) {
        if (c.positional_count || c.all || a.output || a.compress || a.level || a.align ||
            a.keep_going || a.under)
            return kiln_cli_usage(&c, "--verify FILE takes no other file, asset or pack option");
        return verify(&c, a.verify);
    }
    kiln_pack_opts o = {0};
    o.struct_size = sizeof o;
    o.output = a.output;
    o.keep_going = a.keep_going;
    o.under = a.under;
    if (a.compress) {
        if (!strcmp(a.compress, "auto")) o.compress = KILN_PACK_COMPRESS_AUTO;
        else if (!strcmp(a.compress, "none")) o.compress = KILN_PACK_COMPRESS_NONE;
        else if (!strcmp(a.compress, "zstd")) o.compress = KILN_PACK_COMPRESS_ZSTD;
        else return kiln_cli_usage(&c, "--compress takes none, zstd or auto, not %s", a.compress);
    }
    if (a.level) {
        char *end;
        long v = strtol(a.level, &end, 10);
        if (*end || v < 1 || v > 22)
            return kiln_cli_usage(&c, "--level takes 1..22, not %s", a.level);
        o.level = (int)v;
    }
    if (a.align) {
        if (!strcmp(a.align, "4096")) o.align_4096 = true;
        else if (strcmp(a.align, "16") != 0)
            return kiln_cli_usage(&c, "--align takes 16 or 4096, not %s", a.align);
    }
    if (c.all && c.positional_count) return kiln_cli_usage(&c, "give ASSET... or --all, not both");
    if (a.under && !c.all)
        return kiln_cli_usage(&c, "--under NAME takes --all: every asset under NAME");
    if (!c.all && !c.positional_count)
        return kiln_cli_usage(&c, "nothing to pack: give ASSET... or --all");
    int code = KILN_EXIT_OK;
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_project_pack(p, c.positional, (size_t)c.positional_count,
                                      c.all ? KILN_IMPORT_ALL : 0, &o, &doc, &err);
    if (!doc) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        json_t *e = json_object_get(d, "error"), *t = json_object_get(d, "totals");
        if (!e) print_human(d);
        print_failures(d);
        if (e) fprintf(stderr, "kiln pack: %s\n", json_string_value(json_object_get(e, "message")));
        else if (r != KILN_OK)
            fprintf(stderr,
                    "kiln pack: %lld assets failed and were left out (and any asset that "
                    "refers to one of them); the pack holds the other %lld\n",
                    json_integer_value(json_object_get(t, "failed")),
                    json_integer_value(json_object_get(t, "assets")));
        json_decref(d);
    }
    /* Assets failed (a document came back): one asset asked for exits with its own status, as
     * kiln import PATH does (2 for settings); several or --all exit 1. */
    if (doc && r != KILN_OK)
        code = c.positional_count == 1 && !c.all && !a.keep_going ? kiln_cli_exit_for(r)
                                                                  : KILN_EXIT_FAILED;
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
