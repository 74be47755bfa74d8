/* cmd_cache.c — kiln cache gc [--max-size SIZE] and kiln cache verify [--repair]. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One line per damaged entry or record, what was cooked again, and a summary; exit 1 when
 * some damage is left. */
static int print_verify(const kiln_cli *c, const char *doc)
{
    json_t *d = json_loads(doc, 0, NULL);
    size_t i;
    json_t *row;
    json_array_foreach (json_object_get(d, "damaged"), i, row) {
        const char *what = json_string_value(json_object_get(row, "what"));
        bool fixed = json_is_true(json_object_get(row, "repaired"));
        if (what && !strcmp(what, "record"))
            printf("damaged record  %s: %s%s\n", json_string_value(json_object_get(row, "asset")),
                   json_string_value(json_object_get(row, "reason")),
                   fixed ? "; cooked again" : "");
        else
            printf("damaged entry   %s: %s%s\n", json_string_value(json_object_get(row, "key")),
                   json_string_value(json_object_get(row, "reason")),
                   !c->repair ? ""
                   : fixed    ? (json_array_size(json_object_get(row, "assets"))
                                     ? "; removed, its assets cooked again"
                                     : "; removed (no asset uses it)")
                              : "; NOT repaired");
    }
    json_array_foreach (json_object_get(d, "cooked"), i, row) {
        json_t *e = json_object_get(row, "error");
        if (e)
            fprintf(stderr, "kiln cache verify: %s: %s: %s\n",
                    json_string_value(json_object_get(row, "path")),
                    json_string_value(json_object_get(e, "code")),
                    json_string_value(json_object_get(e, "message")));
    }
    json_t *t = json_object_get(d, "totals");
    long long entries = json_integer_value(json_object_get(t, "entries"));
    long long bad = json_integer_value(json_object_get(t, "damaged_entries"));
    long long records = json_integer_value(json_object_get(t, "damaged_records"));
    long long left = json_integer_value(json_object_get(t, "unrepaired"));
    printf("%lld entries checked: %lld damaged, %lld damaged records", entries, bad, records);
    if (c->repair)
        printf("; %lld repaired, %lld cooked again",
               json_integer_value(json_object_get(t, "repaired")),
               json_integer_value(json_object_get(t, "cooked")));
    else if (bad || records) printf("; kiln cache verify --repair removes and cooks them again");
    putchar('\n');
    json_decref(d);
    return left ? KILN_EXIT_FAILED : KILN_EXIT_OK;
}

static int cache_verify(kiln_cli *cp)
{
    kiln_cli c = *cp;
    c.command = "cache verify";
    if (c.positional_count != 1 || c.max_size)
        return kiln_cli_usage(&c, "usage: kiln cache verify [--repair]");
    int code = KILN_EXIT_OK;
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_cache_verify(p, c.repair ? KILN_CACHE_VERIFY_REPAIR : 0, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else {
        if (c.json) kiln_cli_print_json(doc);
        json_t *d = json_loads(doc, 0, NULL);
        bool left = json_integer_value(json_object_get(json_object_get(d, "totals"), "unrepaired"));
        json_decref(d);
        code = c.json ? (left ? KILN_EXIT_FAILED : KILN_EXIT_OK) : print_verify(&c, doc);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}

int kiln_cmd_cache(int argc, char **argv)
{
    kiln_cli c = {.command = "cache gc"}; /* the name errors of parsing give */
    if (!kiln_cli_parse(&c, argc, argv, "--max-size --repair")) {
        kiln_cli_free(&c);
        return KILN_EXIT_USAGE;
    }
    if (c.positional_count >= 1 && !strcmp(c.positional[0], "verify")) return cache_verify(&c);
    if (c.repair) return kiln_cli_usage(&c, "--repair is an option of kiln cache verify");
    int code = KILN_EXIT_OK;
    uint64_t max_size = 0;
    if (c.positional_count != 1 || strcmp(c.positional[0], "gc") != 0)
        return kiln_cli_usage(&c, "usage: kiln cache gc [--max-size SIZE]");
    if (c.max_size && !kiln_cli_parse_size(c.max_size, &max_size))
        return kiln_cli_usage(&c,
                              "--max-size takes a size (bytes, or 50MB, 50MiB, 1.5G), not "
                              "\"%.100s\"",
                              c.max_size);
    kiln_project *p = kiln_cli_open(&c, &code);
    if (!p) {
        kiln_cli_free(&c);
        return code;
    }
    char *doc = NULL;
    kiln_error err;
    kiln_result r = kiln_cache_gc(p, max_size, &doc, &err);
    if (r != KILN_OK) {
        code = kiln_cli_fail(&c, r, &err);
    } else if (c.json) {
        kiln_cli_print_json(doc);
    } else {
        json_t *d = json_loads(doc, 0, NULL);
        char freed[32], size[32];
        printf(
            "removed %zu entries, freed %s; %lld entries kept, cache %s\n",
            json_array_size(json_object_get(d, "removed")),
            kiln_cli_format_size((uint64_t)json_integer_value(json_object_get(d, "freed")), freed),
            json_integer_value(json_object_get(d, "kept")),
            kiln_cli_format_size((uint64_t)json_integer_value(json_object_get(d, "cache_size")),
                                 size));
        json_decref(d);
    }
    kiln_string_free(doc);
    kiln_project_close(p);
    kiln_cli_free(&c);
    return code;
}
