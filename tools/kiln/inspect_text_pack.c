/* inspect_text_pack.c — `kiln inspect FILE.kpak` as text for people: the totals and one line per
 * entry of the document kiln_inspect_file returns ("type": "pack"), in the pack's order. */
#include <stdio.h>

#include "inspect_text.h"

static double pct(long long a, long long b) { return b ? 100.0 * (double)a / (double)b : 100.0; }

void kiln_inspect_print_pack(const json_t *doc, const char *path)
{
    long long entry_bytes = json_integer_value(json_object_get(doc, "entry_bytes"));
    long long stored = json_integer_value(json_object_get(doc, "stored_bytes"));
    printf("%s: kiln pack v%lld, %lld entries, %lld payloads (%lld compressed), aligned to %lld, "
           "%lld bytes\n",
           path, json_integer_value(json_object_get(doc, "version")),
           json_integer_value(json_object_get(doc, "entry_count")),
           json_integer_value(json_object_get(doc, "payload_count")),
           json_integer_value(json_object_get(doc, "compressed")),
           json_integer_value(json_object_get(doc, "align")),
           json_integer_value(json_object_get(doc, "file_size")));
    printf("  %lld bytes of entries stored in %lld (%.1f%%)\n", entry_bytes, stored,
           pct(stored, entry_bytes));
    size_t i;
    json_t *e;
    json_array_foreach (json_object_get(doc, "entries"), i, e) {
        long long size = json_integer_value(json_object_get(e, "size"));
        long long st = json_integer_value(json_object_get(e, "stored_size"));
        printf("  %s %s %-4s %10lld %10lld %6.1f%%  %s",
               json_string_value(json_object_get(e, "asset_id")),
               json_string_value(json_object_get(e, "kind")),
               json_string_value(json_object_get(e, "compression")), size, st, pct(st, size),
               json_string_value(json_object_get(e, "name")));
        if (json_is_true(json_object_get(e, "shared")))
            printf(" (shares payload %lld)", json_integer_value(json_object_get(e, "payload")));
        putchar('\n');
    }
}
