/* fuzz_meta.c — libFuzzer target for the .meta reader (src/pipeline/settings.c): parses the bytes
 * with no platform and with "mobile"; when a parse succeeds, dumps the canonical settings JSON and
 * checks that it means what it came from: the dump, read back as a .meta, must give the same
 * canonical JSON (the cache key must not depend on how a setting was spelled). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/settings.h"

#define CANON_FLAGS (JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17))

/* {"texture": ..., "model": ..., "fbx": ...} of s; NULL only on out-of-memory. */
static json_t *kinds_json(const kiln_settings *s)
{
    json_t *k = json_object();
    if (!k) return NULL;
    if (json_object_set_new(k, "texture", kiln_texture_settings_json(&s->texture)) != 0 ||
        json_object_set_new(k, "model", kiln_model_settings_json(s)) != 0 ||
        json_object_set_new(k, "fbx", kiln_fbx_settings_json(&s->fbx)) != 0) {
        json_decref(k);
        return NULL;
    }
    return k;
}

static void check_round_trip(const kiln_settings *s)
{
    json_t *kinds = kinds_json(s);
    if (!kinds) abort(); /* every accepted value must have a canonical form */
    char *canon = json_dumps(kinds, CANON_FLAGS);
    json_t *doc = json_object();
    if (!canon || !doc || json_object_set(doc, "import", kinds) != 0) abort();

    kiln_settings again;
    kiln_error err;
    if (kiln_settings_from_json(doc, NULL, &again, &err) != KILN_OK) abort();
    json_t *kinds2 = kinds_json(&again);
    char *canon2 = kinds2 ? json_dumps(kinds2, CANON_FLAGS) : NULL;
    if (!canon2 || strcmp(canon, canon2) != 0) abort();

    free(canon2);
    json_decref(kinds2);
    kiln_settings_clear(&again); /* its lists (material_templates, even empty) */
    json_decref(doc);
    free(canon);
    json_decref(kinds);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *platforms[] = {NULL, "mobile"};
    for (size_t i = 0; i < 2; i++) {
        kiln_settings s;
        kiln_error err;
        kiln_result r = kiln_settings_parse((const char *)data, size, platforms[i], &s, &err);
        if (r == KILN_OK) {
            check_round_trip(&s);
            kiln_settings_clear(&s);
        } else if (r != KILN_E_IMPORT_SETTINGS && r != KILN_E_OUT_OF_MEMORY) {
            abort(); /* any other code from bytes alone is a bug */
        } else if (memchr(err.message, '\0', sizeof err.message) == NULL ||
                   memchr(err.json_pointer, '\0', sizeof err.json_pointer) == NULL) {
            abort();
        }
    }
    return 0;
}
