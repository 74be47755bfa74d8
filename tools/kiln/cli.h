/* cli.h — what the subcommands of the kiln command share: option parsing, the project they open,
 * JSON or human output, exit statuses (0 all done, 1 some assets failed, 2 bad usage/settings). */
#ifndef KILN_TOOLS_CLI_H
#define KILN_TOOLS_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kiln/kiln.h"

enum { KILN_EXIT_OK = 0, KILN_EXIT_FAILED = 1, KILN_EXIT_USAGE = 2 };

typedef struct kiln_cli {
    const char *command; /* "import" */
    const char *root, *out, *cache, *platform;
    unsigned jobs;
    bool json, all, force;
    bool quiet;              /* -q, --quiet: errors only (no warnings, progress, lines per asset) */
    bool verbose;            /* --verbose (import): say cached assets' warnings again too */
    const char **positional; /* points into argv */
    int positional_count;
    const char **sets; /* --set values */
    int set_count;
    const char *settings; /* --settings JSON */
    const char *max_size; /* --max-size */
    const char *format;   /* --format (kiln texture) */
    const char *quality;  /* --quality (kiln texture) */
    const char *compare;  /* --compare (kiln inspect) */
    const char *textures; /* --textures all|none (kiln model) */
    const char **remotes; /* --remote-cache URL values (import, reimport) */
    int remote_count;
    const char *shard;  /* --shard i/N (import) */
    bool ninja;         /* --ninja (graph) */
    bool check;         /* --check (report): exit 1 unless every asset is up to date */
    bool why;           /* --why (report): what changed since each stale asset's import */
    bool verify;        /* --verify (report): re-hash outputs and sources */
    bool html;          /* --html (report): write a static page (-o FILE, default report.html) */
    bool repair;        /* --repair (cache verify): remove damaged entries, cook again */
    const char *output; /* -o FILE (graph, report --html) */
    /* kiln shader: --stage, --entry, --variant, and every --define and --include-dir */
    const char *stage, *entry, *variant;
    const char **defines, **include_dirs;
    int define_count, include_dir_count;
} kiln_cli;

/* Parses the common options and those `allowed` names ("--all --force --set --settings
 * --max-size"); prints a usage error and returns false on anything else. */
bool kiln_cli_parse(kiln_cli *c, int argc, char **argv, const char *allowed);

/* Frees what kiln_cli_parse allocated. */
void kiln_cli_free(kiln_cli *c);

/* Opens the project from the options; on failure prints the error (JSON or text). */
kiln_project *kiln_cli_open(const kiln_cli *c, int *exit_code);

/* Prints an error in the chosen form and returns the exit status for its code. */
int kiln_cli_fail(const kiln_cli *c, kiln_result r, const kiln_error *err);
/* Prints a usage error (E_USAGE, in the chosen form), frees c and returns KILN_EXIT_USAGE:
 * `return kiln_cli_usage(&c, "reimport takes exactly one PATH");` */
int kiln_cli_usage(kiln_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The exit status for a command-level result. */
int kiln_cli_exit_for(kiln_result r);

/* Applies --remote-cache and --shard (or the project's kiln.json) to p; on failure prints the
 * error, sets *exit_code and returns false. */
bool kiln_cli_setup_remote(const kiln_cli *c, kiln_project *p, int *exit_code);

/* Puts the remote counters of p into an import/reimport document (a JSON string, replaced). */
void kiln_cli_add_remote_stats(kiln_project *p, char **doc);

/* Prints a document on stdout (JSON mode) — pretty, sorted keys. */
void kiln_cli_print_json(const char *doc);

/* What a cook made, in a few words, from the "summary" of an import result: "3 meshes, 1200
 * triangles, ..." for a model, "bc7 64x64, 7 levels" for a texture, "fragment, 3 variants, 4.1
 * KiB of SPIR-V" for a shader. `brief` leaves out what only import lists (a model's skeletons
 * and clips). "" when s is NULL. Returns out. */
const char *kiln_cli_summary_text(const json_t *s, bool brief, char *out, size_t cap);

/* A size for people, in binary units: "512 bytes", "1.2 MiB". Returns buf. */
const char *kiln_cli_format_size(uint64_t bytes, char buf[32]);
/* A size given on the command line: plain bytes (1048576, 100B), or a number with a unit,
 * 1024-based for K M G T (also KiB, MiB ...) and 1000-based for KB MB GB TB ("1.5G", "50MB").
 * False when text is not one or does not fit 64 bits. */
bool kiln_cli_parse_size(const char *text, uint64_t *out);

/* The options every command takes, as `kiln --help` and each `kiln COMMAND --help` list them. */
#define KILN_CLI_COMMON_OPTIONS                                                                    \
    "common options:\n"                                                                            \
    "  --root DIR      asset root (default: assets/ in the current folder)\n"                      \
    "  --out DIR       output folder (default: .kiln/ in the current folder)\n"                    \
    "  --cache DIR     cache folder (default: OUT/cache; must be inside the project or OUT)\n"     \
    "  --platform P    apply the platforms.P overrides of every .meta\n"                           \
    "  -j N            worker threads (default: one per CPU)\n"                                    \
    "  --json          print one JSON document on stdout (schemas in docs/schemas/)\n"

/* The project options of the common options (root, out, cache, platform, jobs); the caller adds
 * progress and logging. */
void kiln_cli_project_opts(const kiln_cli *c, kiln_project_opts *o);

/* Whether argv (argv[0] the subcommand) asks for --help or -h. */
bool kiln_cli_wants_help(int argc, char **argv);
/* Prints a subcommand's help on stdout: its usage, options, the settings its assets read and the
 * common options. Returns KILN_EXIT_OK, or -1 when there is no such command. */
int kiln_cli_print_command_help(const char *command);

/* One subcommand (commands.c). */
typedef struct kiln_cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand */
    /* it may cook, or holds every asset of a large project at once (report): worth a heap in
     * huge pages */
    bool big_heap;
    const char *usage;    /* --help: the usage lines and the command's own options */
    const char *settings; /* the settings groups its assets read ("*": every group); NULL none */
} kiln_cli_command;

/* The subcommand called name, or NULL. */
const kiln_cli_command *kiln_cli_command_find(const char *name);

int kiln_cmd_help(int argc, char **argv); /* kiln help settings [GROUP], kiln help COMMAND */
int kiln_cmd_import(int argc, char **argv);
int kiln_cmd_reimport(int argc, char **argv);
int kiln_cmd_report(int argc, char **argv);
int kiln_cmd_meta(int argc, char **argv);
int kiln_cmd_inspect(int argc, char **argv);
int kiln_cmd_cache(int argc, char **argv);
int kiln_cmd_texture(int argc, char **argv);
int kiln_cmd_shader(int argc, char **argv);
int kiln_cmd_model(int argc, char **argv);
int kiln_cmd_gltf(int argc, char **argv);
int kiln_cmd_pack(int argc, char **argv);
int kiln_cmd_graph(int argc, char **argv);
int kiln_cmd_watch(int argc, char **argv);
int kiln_cmd_thumbnail(int argc, char **argv);
int kiln_cmd_view(int argc, char **argv);

#endif
