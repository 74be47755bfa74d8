/* inspect_text_entry.c — `kiln inspect` of a cache entry folder (or its manifest.json, or a folder
 * `kiln model` wrote) as text for people: what the entry is, the assets it belongs to and one line
 * per artifact (label, kind, bytes, asset id, file), from the document ("type": "entry"). */
#include <stdio.h>

#include "inspect_text.h"

static const char *str_or(const json_t *v, const char *fallback)
{
    const char *s = json_string_value(v);
    return s ? s : fallback;
}

void kiln_inspect_print_entry(const json_t *doc, const char *path)
{
    const char *key = json_string_value(json_object_get(doc, "key"));
    const json_t *pv = json_object_get(doc, "pipeline_version");
    printf("%s: %s, %s", path, key ? "kiln cache entry" : "kiln cooked folder (no cache key)",
           str_or(json_object_get(doc, "kind"), "unknown kind"));
    if (json_is_integer(pv)) printf(", pipeline %lld", json_integer_value(pv));
    printf(", %zu artifacts\n", json_array_size(json_object_get(doc, "artifacts")));
    if (key) printf("  key       %s\n", key);
    const json_t *assets = json_object_get(doc, "assets");
    size_t i;
    json_t *a;
    if (json_array_size(assets) == 0)
        printf("  asset     unknown: no record names this entry (asset ids need its GUID)\n");
    json_array_foreach (assets, i, a)
        printf("  asset     %s (guid %s)\n", str_or(json_object_get(a, "path"), "?"),
               str_or(json_object_get(a, "guid"), "?"));
    printf("  %-20s %-9s %10s  %-18s  %s\n", "label", "kind", "bytes", "asset id", "file");
    json_array_foreach (json_object_get(doc, "artifacts"), i, a)
        printf(
            "  %-20s %-9s %10lld  %-18s  %s\n", str_or(json_object_get(a, "label"), "?"),
            str_or(json_object_get(a, "kind"), "-"), json_integer_value(json_object_get(a, "size")),
            str_or(json_object_get(a, "asset_id"), "-"), str_or(json_object_get(a, "file"), "?"));
}
