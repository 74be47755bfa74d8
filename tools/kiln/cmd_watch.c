/* cmd_watch.c — kiln watch [--platform P] [-q] [--json]: import every asset, then import again
 * what changes under the root until SIGINT or SIGTERM (exit 0). One line per change on stdout
 * (flushed at once), or with --json one compact document per line: the first import's, then one
 * per batch (docs/schemas/watch.schema.json). The watching is libkiln's (kiln_watch_*). */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli.h"

static void print_summary(const json_t *s)
{
    char text[256];
    if (s) printf(" (%s)", kiln_cli_summary_text(s, true, text, sizeof text));
}

static void print_error(const json_t *e)
{
    const char *ptr = json_string_value(json_object_get(e, "json_pointer"));
    printf("%s %s", json_string_value(json_object_get(e, "code")),
           json_string_value(json_object_get(e, "message")));
    if (ptr && ptr[0]) printf(" (at %s)", ptr);
}

/* "textures/wall.png changed: textures/wall.png imported (bc7 64x64, 7 levels)" */
static void print_batch(const kiln_cli *c, const json_t *d)
{
    size_t i;
    const json_t *row, *rec;
    json_array_foreach (json_object_get(d, "records"), i, row) {
        rec = json_object_get(row, "import");
        const char *status = json_string_value(json_object_get(rec, "status"));
        bool failed = status && !strcmp(status, "failed");
        if (c->quiet && !failed) continue;
        printf("%s %s: %s %s", json_string_value(json_object_get(row, "because")),
               json_string_value(json_object_get(row, "change")),
               json_string_value(json_object_get(rec, "path")), status ? status : "?");
        if (failed) {
            printf(": ");
            print_error(json_object_get(rec, "error"));
            printf(json_object_get(row, "kept_key") ? "; its last good entry stays in use"
                                                    : "; nothing of it is in the cache");
        } else {
            print_summary(json_object_get(rec, "summary"));
        }
        putchar('\n');
        if (!failed && strcmp(status, "cached") != 0) {
            size_t k;
            const json_t *w;
            json_array_foreach (json_object_get(rec, "warnings"), k, w)
                if (!c->quiet) printf("  warning: %s\n", json_string_value(w));
        }
    }
    json_array_foreach (json_object_get(d, "removed"), i, rec) {
        if (c->quiet) continue;
        const char *what = json_string_value(json_object_get(rec, "record"));
        printf("%s removed: ", json_string_value(json_object_get(rec, "path")));
        if (what && !strcmp(what, "removed")) {
            printf("its record removed (no longer mounted; kiln cache gc frees its entry)\n");
        } else {
            printf("its record kept: ");
            print_error(json_object_get(rec, "error"));
            putchar('\n');
        }
    }
}

/* The first import: its failures and totals (the assets that imported are not listed). */
static void print_first(const kiln_cli *c, const json_t *d)
{
    size_t i;
    const json_t *rec;
    json_array_foreach (json_object_get(d, "records"), i, rec) {
        if (strcmp(json_string_value(json_object_get(rec, "status")), "failed") != 0) continue;
        printf("failed       %s: ", json_string_value(json_object_get(rec, "path")));
        print_error(json_object_get(rec, "error"));
        putchar('\n');
    }
    const json_t *t = json_object_get(d, "totals");
    if (!c->quiet)
        printf("%lld assets: %lld imported, %lld cached, %lld failed\n",
               json_integer_value(json_object_get(t, "assets")),
               json_integer_value(json_object_get(t, "imported")),
               json_integer_value(json_object_get(t, "cached")),
               json_integer_value(json_object_get(t, "failed")));
}

static void print_document(const kiln_cli *c, const char *doc, bool first)
{
    json_t *d = json_loads(doc, 0, NULL);
    if (c->json) {
        char *line = json_dumps(d, JSON_SORT_KEYS | JSON_COMPACT);
        if (line) puts(line);
        free(line);
    } else if (first) {
        print_first(c, d);
    } else {
        print_batch(c, d);
    }
    json_decref(d);
    fflush(stdout);
}

int kiln_cmd_watch(int argc, char **argv)
{
    kiln_cli c = {.command = "watch"};
    if (!kiln_cli_parse(&c, argc, argv, "")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (c.positional_count) return kiln_cli_usage(&c, "watch takes no paths: it watches the root");
    /* SIGINT and SIGTERM are read from a descriptor that wakes kiln_watch_poll: the watch stops
     * between two batches, never in the middle of an import. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    int sfd = -1;
    if (sigprocmask(SIG_BLOCK, &stop, NULL) == 0) sfd = signalfd(-1, &stop, SFD_CLOEXEC);
    if (sfd < 0) {
        perror("kiln watch: signalfd");
        kiln_cli_free(&c);
        return KILN_EXIT_FAILED;
    }
    int code = KILN_EXIT_OK;
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        close(sfd);
        kiln_cli_free(&c);
        return code;
    }
    kiln_watch_opts opts = {.struct_size = sizeof opts, .has_wake_fd = true, .wake_fd = sfd};
    kiln_watch *w = NULL;
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_watch_open(p, &opts, &w, &doc, &err);
    if (!w) {
        code = kiln_cli_fail(&c, r, &err);
        kiln_string_free(doc);
        kiln_project_close(p);
        close(sfd);
        kiln_cli_free(&c);
        return code;
    }
    print_document(&c, doc, true);
    if (!c.json && !c.quiet) {
        json_t *d = json_loads(doc, 0, NULL);
        json_t *roots = json_object_get(d, "roots"), *dir;
        const char *prefix;
        if (!roots) {
            printf("watching %s (Ctrl-C stops)\n", json_string_value(json_object_get(d, "root")));
        } else { /* several roots (kiln.json "roots"): each under its prefix */
            printf("watching");
            json_object_foreach (roots, prefix, dir)
                printf(" %s (%s)", prefix, json_string_value(dir));
            printf(" (Ctrl-C stops)\n");
        }
        json_decref(d);
        fflush(stdout);
    }
    kiln_string_free(doc);
    for (;;) {
        /* Blocks until a batch settled or a signal came; the timeout only bounds each wait. */
        struct pollfd sig = {sfd, POLLIN, 0};
        if (poll(&sig, 1, 0) > 0) break; /* SIGINT or SIGTERM: stop cleanly */
        doc = NULL;
        r = kiln_watch_poll(w, 60 * 1000, &doc, &err);
        if (doc) print_document(&c, doc, false);
        else if (r != KILN_OK) {
            /* The watch itself failed (the root went away, inotify broke): say so and stop. */
            code = kiln_cli_fail(&c, r, &err);
            break;
        }
        kiln_string_free(doc);
    }
    kiln_watch_close(w);
    kiln_project_close(p);
    close(sfd);
    kiln_cli_free(&c);
    return code;
}
