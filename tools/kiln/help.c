/* help.c — `kiln COMMAND --help` (each subcommand's usage and options, and for the commands that
 * read settings one line per settings group with its fields) and `kiln help settings [GROUP]
 * [--json]`: every settings field with its type, default and allowed values, from the document
 * kiln_settings_describe builds out of the tables the validator uses. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct command_help {
    const char *name;
    const char *usage; /* the usage lines and the command's own options */
    /* The settings groups its assets read ("*": every group), NULL: it reads none. */
    const char *settings;
} command_help;

static const command_help helps[] = {
    {"import",
     "usage: kiln import [PATH...|--all] [--force] [--verbose] [--remote-cache URL ...]\n"
     "                   [--shard I/N]\n"
     "\n"
     "Imports sources into the cache; an asset whose key has an entry is reused (cached).\n"
     "\n"
     "  --all               every source under the root\n"
     "  --force             cook again even when cached; say whether the output changed\n"
     "  --verbose           print the warnings of cached assets again\n"
     "  --remote-cache URL  share entries through a remote cache (repeatable; docs/scale-out.md)\n"
     "  --shard I/N         import only shard I of N\n",
     "*"},
    {"reimport",
     "usage: kiln reimport PATH [--set GROUP.FIELD=VALUE ...] [--settings JSON]\n"
     "                      [--remote-cache URL ...]\n"
     "\n"
     "Writes settings into PATH.meta (validated first; the GUID and other fields kept), cooks\n"
     "the asset again and prints what changed: settings before -> after, output sizes.\n"
     "\n"
     "  --set GROUP.FIELD=VALUE  one setting (texture.format=bc7, platforms.mobile.texture.\n"
     "                           format=astc4x4); a group the asset's kind does not read is\n"
     "                           refused\n"
     "  --settings JSON          a patch shaped like the .meta \"import\" object\n"
     "  --remote-cache URL       share entries through a remote cache\n",
     "*"},
    {"report",
     "usage: kiln report [--check] [--verbose] [--why [PATH...]]\n"
     "\n"
     "Says which assets are up to date; processes and writes nothing.\n"
     "\n"
     "  --check     exit 1 unless every asset is up to date, with one line per other asset on\n"
     "              stderr (for CI gates)\n"
     "  --verbose   also list each file the scan skipped and why (owned by a model, excluded\n"
     "              by kiln.json \"exclude\" or .kilnignore)\n"
     "  --why       for each stale asset (of the PATHs: assets or folders), one line per thing\n"
     "              that changed since its import: source bytes, a dependency, a setting (old\n"
     "              -> new, and the file it comes from), kiln's pipeline version\n",
     NULL},
    {"meta",
     "usage: kiln meta [PATH...|--all]\n"
     "\n"
     "Writes a .meta with a fresh GUID beside each source that has none (every source without\n"
     "PATH); existing .meta files are not touched.\n"
     "\n"
     "  --all   every source under the root (the default without PATH)\n",
     "*"},
    {"inspect",
     "usage: kiln inspect FILE|NAME#label [--compare IMAGE]\n"
     "\n"
     "Describes an image, a KTX2 file, a model (.gltf .glb .fbx .obj), a cooked file, a .kpak\n"
     "or a cache entry folder (its artifacts; a folder `kiln model` wrote too). In a project,\n"
     "NAME#label (models/car.gltf#scene) is that artifact of the source's current cache entry;\n"
     "the common options choose the project, which also names an entry folder's assets.\n"
     "\n"
     "  --compare IMAGE   KTX2 only: PSNR of level 0 against an 8-bit image of its size\n",
     NULL},
    {"texture",
     "usage: kiln texture IN OUT.ktx2 [--format F] [--quality Q] [--set texture.FIELD=VALUE ...]\n"
     "                    [--settings JSON]\n"
     "\n"
     "Converts one image into a KTX2 file without a project, through the import's code path.\n"
     "\n"
     "  --format F                 = --set texture.format=F\n"
     "  --quality Q                = --set texture.quality=Q\n"
     "  --set texture.FIELD=VALUE  one setting\n"
     "  --settings JSON            a patch shaped like the .meta \"import\" object\n",
     "texture"},
    {"model",
     "usage: kiln model IN.gltf|IN.glb|IN.fbx|IN.obj OUTDIR [--textures all|none]\n"
     "                  [--set model.FIELD=VALUE ...] [--settings JSON]\n"
     "\n"
     "Cooks one model into OUTDIR without a project, one file per artifact, and a\n"
     "manifest.json: krt_mount_cache mounts OUTDIR, naming the artifacts IN's file name#label.\n"
     "\n"
     "  --textures all|none      = --set model.textures=true|false\n"
     "  --set GROUP.FIELD=VALUE  one setting (model.lods=[0.5], fbx.scale=0.01)\n"
     "  --settings JSON          a patch shaped like the .meta \"import\" object\n",
     "model fbx"},
    {"pack",
     "usage: kiln pack [-o FILE] [--all|ASSET...] [--keep-going] [--compress none|zstd|auto]\n"
     "                 [--level N] [--align 16|4096]\n"
     "       kiln pack --verify FILE\n"
     "\n"
     "Imports the assets (cached ones are reused) and packs their artifacts, and what they\n"
     "need, into one .kpak.\n"
     "\n"
     "  -o, --output FILE   the pack (default OUT/game.kpak); anywhere, folders created\n"
     "  --all               every asset under the root\n"
     "  --keep-going        pack the assets that did not fail; exit 1\n"
     "  --compress MODE     none, zstd or auto (default: zstd where it pays)\n"
     "  --level N           Zstandard level 1..22 (default 9)\n"
     "  --align 16|4096     payload alignment\n"
     "  --verify FILE       check every checksum of a .kpak\n",
     "*"},
    {"graph",
     "usage: kiln graph --ninja [-o FILE]\n"
     "\n"
     "Writes a build.ninja: one `kiln import` edge per cache key.\n"
     "\n"
     "  --ninja    write build.ninja (OUT/build.ninja, or FILE)\n"
     "  -o FILE    where to write it\n",
     NULL},
    {"watch",
     "usage: kiln watch\n"
     "\n"
     "Imports every asset, then watches the root (Linux inotify) and imports again what changes:\n"
     "a batch is imported once the root was quiet for 150 ms; a changed .bin or image imports\n"
     "the model that reads it, a changed .meta or kiln.json every stale asset; a deleted source\n"
     "loses its record; a broken one keeps its last good entry. One line per change (--json: one\n"
     "document per line) until SIGINT or SIGTERM, which exit 0. See docs/cli.md \"watch\".\n",
     "*"},
    {"cache",
     "usage: kiln cache gc [--max-size SIZE]\n"
     "\n"
     "Removes entries no asset record points to, then the least recently used ones until the\n"
     "cache is at most SIZE.\n"
     "\n"
     "  --max-size SIZE   bytes, or with a unit: 50MB, 50MiB, 1.5G (K, M, G, T and KiB, MiB,\n"
     "                    GiB, TiB are powers of 1024; KB, MB, GB, TB powers of 1000)\n",
     NULL},
};

static const char common_options[] = "\n" KILN_CLI_COMMON_OPTIONS "  -q, --quiet     errors only\n"
                                     "  -h, --help      this text\n";

static bool word_in(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

/* The groups and their fields, from kiln_settings_describe; NULL when it fails. */
static json_t *describe_settings(void)
{
    char *doc = NULL;
    kiln_error err;
    if (kiln_settings_describe(NULL, &doc, &err) != KILN_OK) return NULL;
    json_t *d = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    return d;
}

/* "  texture  format srgb mipmaps ..." per group the command's assets read, wrapped. */
static void print_settings_lines(const char *which)
{
    json_t *d = describe_settings();
    printf("\nsettings (--set GROUP.FIELD=VALUE, or in PATH.meta; `kiln help settings` gives each "
           "field's\ntype, default and allowed values):\n");
    size_t i, f;
    json_t *g, *field;
    json_array_foreach (json_object_get(d, "groups"), i, g) {
        const char *name = json_string_value(json_object_get(g, "name"));
        if (!name || (strcmp(which, "*") != 0 && !word_in(which, name))) continue;
        int col = printf("  %-8s", name);
        json_array_foreach (json_object_get(g, "fields"), f, field) {
            const char *fname = json_string_value(json_object_get(field, "name"));
            if (col + 1 + (int)strlen(fname) > 99) col = printf("\n  %-8s", "") - 1;
            col += printf(" %s", fname);
        }
        putchar('\n');
    }
    json_decref(d);
}

bool kiln_cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
    return false;
}

int kiln_cli_print_command_help(const char *command)
{
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        if (strcmp(helps[i].name, command) != 0) continue;
        fputs(helps[i].usage, stdout);
        if (helps[i].settings) print_settings_lines(helps[i].settings);
        fputs(common_options, stdout);
        return KILN_EXIT_OK;
    }
    return -1;
}

/* A number of the descriptor as people write it: 16384, 0.05, 1000000. */
static void print_value(const json_t *v)
{
    if (json_is_real(v)) printf("%.15g", json_real_value(v));
    else {
        char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
        fputs(s ? s : "?", stdout);
        free(s);
    }
}

/* kiln help settings [GROUP] [--json] */
static int help_settings(int argc, char **argv)
{
    kiln_cli c = {.command = "help settings"};
    bool json = false;
    const char *group = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = c.json = true;
        else if (argv[i][0] == '-') return kiln_cli_usage(&c, "unknown option %s", argv[i]);
        else if (group) return kiln_cli_usage(&c, "help settings takes at most one GROUP");
        else group = argv[i];
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_settings_describe(NULL, &doc, &err);
    if (r != KILN_OK) return kiln_cli_fail(&c, r, &err);
    json_t *d = json_loads(doc, 0, NULL);
    kiln_string_free(doc);
    json_t *groups = json_object_get(d, "groups");
    if (group) { /* keep that group alone */
        json_t *kept = json_array();
        size_t i;
        json_t *g;
        json_array_foreach (groups, i, g)
            if (!strcmp(json_string_value(json_object_get(g, "name")), group))
                json_array_append(kept, g);
        if (json_array_size(kept) == 0) {
            char names[128] = "";
            json_array_foreach (groups, i, g) {
                size_t n = strlen(names);
                snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                         json_string_value(json_object_get(g, "name")));
            }
            json_decref(kept);
            json_decref(d);
            return kiln_cli_usage(&c, "no settings group \"%.60s\"; groups: %s", group, names);
        }
        json_object_set_new(d, "groups", kept);
        groups = kept;
    }
    if (json) {
        char *s = json_dumps(d, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
        if (s) kiln_cli_print_json(s);
        free(s);
        json_decref(d);
        return KILN_EXIT_OK;
    }
    size_t i, f;
    json_t *g, *field;
    json_array_foreach (groups, i, g) {
        printf("%s%s settings (import.%s in a .meta; read by:", i ? "\n" : "",
               json_string_value(json_object_get(g, "name")),
               json_string_value(json_object_get(g, "name")));
        size_t k;
        json_t *kind;
        json_array_foreach (json_object_get(g, "kinds"), k, kind)
            printf(" %s", json_string_value(kind));
        if (json_array_size(json_object_get(g, "kinds")) == 0) printf(" no kind");
        printf(")\n");
        json_array_foreach (json_object_get(g, "fields"), f, field) {
            printf("  %-34s %-17s default ", json_string_value(json_object_get(field, "path")),
                   json_string_value(json_object_get(field, "type")));
            print_value(json_object_get(field, "default"));
            printf("\n  %-34s allowed: %s\n", "",
                   json_string_value(json_object_get(field, "allowed")));
        }
    }
    printf("\nSet one with `kiln reimport PATH --set GROUP.FIELD=VALUE` (or --set "
           "platforms.P.GROUP.FIELD=VALUE);\ndocs/settings.md says what each field does.\n");
    json_decref(d);
    return KILN_EXIT_OK;
}

int kiln_cmd_help(int argc, char **argv)
{
    /* argv[0] is "help"; argv[1] the topic. */
    if (argc >= 2 && !strcmp(argv[1], "settings")) return help_settings(argc - 2, argv + 2);
    if (argc >= 2 && kiln_cli_print_command_help(argv[1]) == KILN_EXIT_OK) return KILN_EXIT_OK;
    kiln_cli c = {.command = "help"};
    return kiln_cli_usage(&c,
                          "no help on \"%.60s\"; try kiln help, kiln help settings or "
                          "kiln COMMAND --help",
                          argv[1]);
}
