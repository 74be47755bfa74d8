/* test_settings.c — the .meta document: defaults, every field's accepted and rejected values with
 * the exact JSON pointer (meta_cases.c), the texture rules, platform overrides, syntax errors,
 * canonical JSON, and the reimport edits (assignments and merges). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "meta_cases.h"
#include "pipeline/settings.h"

#define CANON_FLAGS (JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17))

/* kiln_settings_parse over a C string. */
static kiln_result parse(const char *json, const char *platform, kiln_settings *out,
                         kiln_error *err)
{
    memset(err, 0, sizeof *err);
    return kiln_settings_parse(json, strlen(json), platform, out, err);
}

/* The canonical dump of all three kinds of s, as a cache key would see them. malloc'd. */
static char *canonical(const kiln_settings *s)
{
    json_t *all = json_object();
    assert_non_null(all);
    assert_int_equal(json_object_set_new(all, "texture", kiln_texture_settings_json(&s->texture)),
                     0);
    assert_int_equal(json_object_set_new(all, "model", kiln_model_settings_json(s)), 0);
    assert_int_equal(json_object_set_new(all, "fbx", kiln_fbx_settings_json(&s->fbx)), 0);
    char *text = json_dumps(all, CANON_FLAGS);
    json_decref(all);
    assert_non_null(text);
    return text;
}

static char *canonical_of(const char *json, const char *platform)
{
    kiln_settings s;
    kiln_error err;
    kiln_result r = parse(json, platform, &s, &err);
    if (r != KILN_OK) fail_msg("%s: %s (at %s)", json, err.message, err.json_pointer);
    return canonical(&s);
}

static json_t *load(const char *json)
{
    json_error_t je;
    json_t *j = json_loads(json, 0, &je);
    if (!j) fail_msg("test JSON does not parse: %s: %s", json, je.text);
    return j;
}

/* The shader's lists in the key: integers as their text, keys sorted; a platform's defines replace
 * import's (each field replaces the one below it); copies share the lists and outlive the
 * original. */
static void shader_lists_are_canonical_and_replaced_by_platforms(void **state)
{
    (void)state;
    const char *doc = "{\"import\":{\"shader\":{\"defines\":{\"B\":2,\"A\":null},"
                      "\"variants\":{\"x\":{\"X\":\"1\"}}}},\"platforms\":{\"mobile\":"
                      "{\"shader\":{\"defines\":{\"M\":1},\"entry\":\"VSMain\"}}}}";
    kiln_settings s, copy;
    kiln_error err;
    assert_int_equal(parse(doc, NULL, &s, &err), KILN_OK);
    json_t *j = kiln_shader_settings_json(&s);
    char *text = json_dumps(j, CANON_FLAGS);
    assert_string_equal(text,
                        "{\"debug_info\":false,\"defines\":{\"A\":null,\"B\":\"2\"},\"entry\":"
                        "\"main\",\"include_dirs\":[],\"language\":\"auto\",\"optimize\":"
                        "\"performance\",\"stage\":\"auto\",\"target\":\"vulkan1.2\","
                        "\"variants\":{\"x\":{\"X\":\"1\"}},\"warnings_as_errors\":true}");
    free(text);
    json_decref(j);
    kiln_settings_clear(&s);
    assert_int_equal(parse(doc, "mobile", &s, &err), KILN_OK);
    kiln_settings_copy(&copy, &s);
    kiln_settings_clear(&s);
    assert_null(s.lists);
    assert_string_equal(copy.shader.entry, "VSMain");
    const json_t *defines = kiln_settings_list(&copy, "shader", "defines");
    assert_int_equal(json_object_size(defines), 1);
    assert_string_equal(json_string_value(json_object_get(defines, "M")), "1");
    assert_int_equal(json_object_size(kiln_settings_list(&copy, "shader", "variants")), 1);
    kiln_settings_clear(&copy);
    /* Nothing set: no lists at all, and every list field has its empty default. */
    assert_int_equal(parse("{}", NULL, &s, &err), KILN_OK);
    assert_null(s.lists);
    assert_null(kiln_settings_list(&s, "shader", "defines"));
    kiln_settings_clear(&s);
}

static void settings_defaults_are_the_documented_values(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_settings_default(&s);
    assert_string_equal(s.guid, "");
    assert_int_equal(s.texture.format, KILN_TEXFMT_AUTO);
    assert_int_equal(s.texture.srgb, KILN_TRI_NULL);
    assert_true(s.texture.mipmaps);
    assert_false(s.texture.normal_map);
    assert_false(s.texture.flip_green);
    assert_int_equal(s.texture.max_size, 16384);
    assert_int_equal(s.texture.quality, KILN_QUALITY_NORMAL);
    assert_int_equal(s.texture.supercompression, KILN_SUPERCOMPRESSION_NONE);
    assert_int_equal(s.model.lod_count, 3);
    assert_true(s.model.lods[0] == 0.5 && s.model.lods[1] == 0.25 && s.model.lods[2] == 0.125);
    assert_true(s.model.lod_error == 0.05);
    assert_int_equal(s.model.lod_min_triangles, 64);
    assert_true(s.model.quantize);
    assert_true(s.model.optimize);
    assert_true(s.model.overdraw_threshold == 1.05);
    assert_int_equal(s.model.meshlet_max_vertices, 64);
    assert_int_equal(s.model.meshlet_max_triangles, 124);
    assert_int_equal(s.model.texture_format, KILN_TEXFMT_AUTO);
    assert_int_equal(s.model.texture_quality, KILN_QUALITY_NORMAL);
    assert_int_equal(s.model.texture_max_size, 4096);
    assert_true(s.fbx.scale == 1.0);
    assert_int_equal(s.fbx.up_axis, KILN_UP_AUTO);
    assert_true(s.fbx.skins);
    assert_true(s.fbx.animations);
    assert_int_equal(s.fbx.animation_fps, 30);
}

static void settings_json_of_defaults_has_every_field_with_its_default(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_settings_default(&s);
    char *got = canonical(&s);
    json_t *expected = load(
        "{\"texture\":{\"format\":\"auto\",\"srgb\":null,\"mipmaps\":true,\"normal_map\":false,"
        "\"flip_green\":false,\"max_size\":16384,\"quality\":\"normal\","
        "\"supercompression\":\"none\",\"shape\":\"auto\",\"ibl\":false,\"cube_layout\":\"auto\",\"basis_quality\":128,\"uastc_rdo\":0.0},"
        "\"model\":{\"lods\":[0.5,0.25,0.125],\"lod_error\":0.05,\"lod_min_triangles\":64,"
        "\"quantize\":true,\"optimize\":true,\"overdraw_threshold\":1.05,"
        "\"meshlet_max_vertices\":64,\"meshlet_max_triangles\":124,\"texture_format\":\"auto\","
        "\"texture_quality\":\"normal\",\"texture_max_size\":4096,\"textures\":true,"
        "\"compress\":\"none\",\"animation_reduce\":true,\"animation_resample_fps\":0,"
        "\"meshlets\":true,\"tangents\":\"generate\",\"material_templates\":{},"
        "\"virtual_geometry\":false},"
        "\"fbx\":{\"scale\":1.0,\"up_axis\":\"auto\",\"skins\":true,\"animations\":true,"
        "\"animation_fps\":30}}");
    char *want = json_dumps(expected, CANON_FLAGS);
    assert_string_equal(got, want);
    /* Integer fields are integers and number fields reals, whatever the .meta spelled. */
    json_t *tex = kiln_texture_settings_json(&s.texture);
    assert_true(json_is_integer(json_object_get(tex, "max_size")));
    assert_true(json_is_null(json_object_get(tex, "srgb")));
    json_t *fbx = kiln_fbx_settings_json(&s.fbx);
    assert_true(json_is_real(json_object_get(fbx, "scale")));
    json_decref(tex);
    json_decref(fbx);
    free(want);
    json_decref(expected);
    free(got);
}

static void every_table_case_gives_its_verdict_and_exact_pointer(void **state)
{
    (void)state;
    char text[1024];
    size_t failures = 0;
    for (size_t i = 0; i < meta_case_count; i++) {
        const meta_case *c = &meta_cases[i];
        meta_case_text(c, text, sizeof text);
        /* Every platform is validated whatever is chosen: the verdict cannot depend on it. */
        const char *platforms[] = {NULL, "mobile", "pc"};
        for (size_t p = 0; p < 3; p++) {
            kiln_settings s;
            kiln_error err;
            kiln_result r = parse(text, platforms[p], &s, &err);
            if (r == KILN_OK) kiln_settings_clear(&s);
            bool ok;
            if (!c->pointer) {
                ok = r == KILN_OK;
            } else {
                ok = r == KILN_E_IMPORT_SETTINGS && strcmp(err.json_pointer, c->pointer) == 0 &&
                     err.message[0] != '\0';
                /* Value errors say what is allowed; syntax errors (pointer "") give a place. */
                if (ok && strncmp(err.message, "JSON syntax error", 17) != 0)
                    ok = strstr(err.message, "; allowed: ") != NULL;
                if (ok && strncmp(err.message, "JSON syntax error", 17) == 0)
                    ok = strstr(err.message, "line ") && strstr(err.message, "column ");
            }
            if (!ok) {
                print_error("case \"%s\" (platform %s): %s\n  got %s at \"%s\": %s\n", c->name,
                            platforms[p] ? platforms[p] : "none", text, kiln_result_name(r),
                            err.json_pointer, err.message);
                failures++;
            }
        }
    }
    assert_int_equal(failures, 0);
}

static void empty_document_gives_defaults(void **state)
{
    (void)state;
    kiln_settings d, s;
    kiln_settings_default(&d);
    kiln_error err;
    memset(&s, 0xAB, sizeof s);
    assert_int_equal(parse("{}", NULL, &s, &err), KILN_OK);
    char *a = canonical(&d), *b = canonical(&s);
    assert_string_equal(a, b);
    assert_string_equal(s.guid, "");
    free(a);
    free(b);
}

static void guid_is_returned_when_present(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    assert_int_equal(parse("{\"guid\":\"00112233445566778899aabbccddeeff\"}", NULL, &s, &err),
                     KILN_OK);
    assert_string_equal(s.guid, "00112233445566778899aabbccddeeff");
}

static void parsed_values_reach_the_struct(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    const char *doc =
        "{\"import\":{\"texture\":{\"format\":\"bc5\",\"srgb\":false,\"mipmaps\":false,"
        "\"normal_map\":true,\"flip_green\":true,\"max_size\":2048,\"quality\":\"high\","
        "\"supercompression\":\"zstd\"},"
        "\"model\":{\"lods\":[0.6,0.3],\"lod_error\":0.1,\"lod_min_triangles\":100,"
        "\"quantize\":false,\"optimize\":false,\"overdraw_threshold\":0,"
        "\"meshlet_max_vertices\":128,\"meshlet_max_triangles\":256,\"texture_format\":\"bc1\","
        "\"texture_quality\":\"fast\",\"texture_max_size\":1024},"
        "\"fbx\":{\"scale\":0.01,\"up_axis\":\"z\",\"skins\":false,\"animations\":false,"
        "\"animation_fps\":60}}}";
    assert_int_equal(parse(doc, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_BC5);
    assert_int_equal(s.texture.srgb, KILN_TRI_FALSE);
    assert_false(s.texture.mipmaps);
    assert_true(s.texture.normal_map);
    assert_true(s.texture.flip_green);
    assert_int_equal(s.texture.max_size, 2048);
    assert_int_equal(s.texture.quality, KILN_QUALITY_HIGH);
    assert_int_equal(s.texture.supercompression, KILN_SUPERCOMPRESSION_ZSTD);
    assert_int_equal(s.model.lod_count, 2);
    assert_true(s.model.lods[0] == 0.6 && s.model.lods[1] == 0.3);
    assert_true(s.model.lod_error == 0.1);
    assert_int_equal(s.model.lod_min_triangles, 100);
    assert_false(s.model.quantize);
    assert_false(s.model.optimize);
    assert_true(s.model.overdraw_threshold == 0.0);
    assert_int_equal(s.model.meshlet_max_vertices, 128);
    assert_int_equal(s.model.meshlet_max_triangles, 256);
    assert_int_equal(s.model.texture_format, KILN_TEXFMT_BC1);
    assert_int_equal(s.model.texture_quality, KILN_QUALITY_FAST);
    assert_int_equal(s.model.texture_max_size, 1024);
    assert_true(s.fbx.scale == 0.01);
    assert_int_equal(s.fbx.up_axis, KILN_UP_Z);
    assert_false(s.fbx.skins);
    assert_false(s.fbx.animations);
    assert_int_equal(s.fbx.animation_fps, 60);
}

static void integral_reals_are_read_as_integers(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    assert_int_equal(parse("{\"import\":{\"texture\":{\"max_size\":5.12e2}}}", NULL, &s, &err),
                     KILN_OK);
    assert_int_equal(s.texture.max_size, 512);
    json_t *j = kiln_texture_settings_json(&s.texture);
    assert_true(json_is_integer(json_object_get(j, "max_size")));
    assert_int_equal(json_integer_value(json_object_get(j, "max_size")), 512);
    json_decref(j);
}

static void equivalent_documents_give_equal_canonical_json(void **state)
{
    (void)state;
    char *empty = canonical_of("{}", NULL);
    /* Every default spelled out, with other spellings of the same numbers. */
    char *spelled = canonical_of(
        "{\"import\":{\"texture\":{\"format\":\"auto\",\"srgb\":null,\"mipmaps\":true,"
        "\"normal_map\":false,\"flip_green\":false,\"max_size\":16384.0,\"quality\":\"normal\","
        "\"supercompression\":\"none\",\"shape\":\"auto\",\"ibl\":false,\"cube_layout\":\"auto\",\"basis_quality\":128,\"uastc_rdo\":0.0},"
        "\"model\":{\"lods\":[5e-1,0.250,1.25e-1],\"lod_error\":5e-2,\"lod_min_triangles\":6.4e1,"
        "\"quantize\":true,\"optimize\":true,\"overdraw_threshold\":1.050,"
        "\"meshlet_max_vertices\":64,\"meshlet_max_triangles\":124.0,\"texture_format\":\"auto\","
        "\"texture_quality\":\"normal\",\"texture_max_size\":4096},"
        "\"fbx\":{\"scale\":1,\"up_axis\":\"auto\",\"skins\":true,\"animations\":true,"
        "\"animation_fps\":30}}}",
        NULL);
    assert_string_equal(empty, spelled);
    /* A guid, and platforms that are not chosen, are not settings of the asset's cook. */
    char *with_guid = canonical_of("{\"guid\":\"00112233445566778899aabbccddeeff\","
                                   "\"platforms\":{\"mobile\":{\"texture\":{\"format\":\"bc7\"}}}}",
                                   "pc");
    assert_string_equal(empty, with_guid);
    /* A platform that repeats the import values means the same settings. */
    char *a = canonical_of("{\"import\":{\"texture\":{\"format\":\"bc7\"}}}", NULL);
    char *b = canonical_of("{\"import\":{\"texture\":{\"format\":\"bc7\"}},"
                           "\"platforms\":{\"mobile\":{\"texture\":{\"format\":\"bc7\"}}}}",
                           "mobile");
    assert_string_equal(a, b);
    /* -0.0 and 0 are one setting. */
    char *z1 = canonical_of("{\"import\":{\"model\":{\"lod_error\":-0.0}}}", NULL);
    char *z2 = canonical_of("{\"import\":{\"model\":{\"lod_error\":0}}}", NULL);
    assert_string_equal(z1, z2);
    free(z1);
    free(z2);
    free(a);
    free(b);
    free(with_guid);
    free(spelled);
    free(empty);
}

static void different_settings_give_different_canonical_json(void **state)
{
    (void)state;
    const char *docs[] = {
        "{}",
        "{\"import\":{\"texture\":{\"max_size\":512}}}",
        "{\"import\":{\"texture\":{\"srgb\":false}}}",
        "{\"import\":{\"texture\":{\"srgb\":true}}}",
        "{\"import\":{\"model\":{\"lods\":[0.5,0.25]}}}",
        "{\"import\":{\"model\":{\"lods\":[]}}}",
        "{\"import\":{\"model\":{\"lod_error\":0.050000000000000010}}}",
        "{\"import\":{\"fbx\":{\"up_axis\":\"y\"}}}",
    };
    size_t n = sizeof docs / sizeof docs[0];
    char *c[8];
    for (size_t i = 0; i < n; i++) c[i] = canonical_of(docs[i], NULL);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(c[i], c[j]) == 0) fail_msg("%s and %s give equal JSON", docs[i], docs[j]);
    for (size_t i = 0; i < n; i++) free(c[i]);
}

static const char *platform_doc =
    "{\"import\":{\"texture\":{\"format\":\"bc7\",\"max_size\":1024},"
    "\"model\":{\"lods\":[0.5,0.25,0.125],\"lod_error\":0.1}},"
    "\"platforms\":{\"mobile\":{\"texture\":{\"format\":\"astc4x4\"},\"model\":{\"lods\":[0.4]}},"
    "\"pc\":{\"texture\":{\"format\":\"bc1\",\"max_size\":8192}}}}";

static void platform_overrides_apply_field_by_field_for_the_chosen_platform(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    assert_int_equal(parse(platform_doc, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_BC7);
    assert_int_equal(s.texture.max_size, 1024);

    assert_int_equal(parse(platform_doc, "mobile", &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_ASTC4X4);
    assert_int_equal(s.texture.max_size, 1024); /* not overridden: from import */
    assert_true(s.model.lod_error == 0.1);
    /* An array is one field: the override replaces it whole. */
    assert_int_equal(s.model.lod_count, 1);
    assert_true(s.model.lods[0] == 0.4);

    assert_int_equal(parse(platform_doc, "pc", &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_BC1);
    assert_int_equal(s.texture.max_size, 8192);
    assert_int_equal(s.model.lod_count, 3);
}

static void a_platform_the_document_lacks_gets_the_import_settings(void **state)
{
    (void)state;
    char *none = canonical_of(platform_doc, NULL);
    char *console = canonical_of(platform_doc, "console");
    assert_string_equal(none, console);
    free(none);
    free(console);
}

static void a_platform_override_of_srgb_null_replaces_an_imported_true(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    const char *doc = "{\"import\":{\"texture\":{\"srgb\":true}},"
                      "\"platforms\":{\"mobile\":{\"texture\":{\"srgb\":null}}}}";
    assert_int_equal(parse(doc, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.texture.srgb, KILN_TRI_TRUE);
    assert_int_equal(parse(doc, "mobile", &s, &err), KILN_OK);
    assert_int_equal(s.texture.srgb, KILN_TRI_NULL);
}

static void out_is_left_untouched_on_error(void **state)
{
    (void)state;
    kiln_settings s, before;
    kiln_error err;
    memset(&s, 0x5A, sizeof s);
    before = s;
    assert_int_equal(
        parse("{\"import\":{\"texture\":{\"format\":\"bc7\",\"max_size\":1}}}", NULL, &s, &err),
        KILN_E_IMPORT_SETTINGS);
    assert_memory_equal(&s, &before, sizeof s);
}

static void messages_say_what_is_wrong_and_what_is_allowed(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    parse("{\"import\":{\"texture\":{\"max_size\":3}}}", NULL, &s, &err);
    assert_string_equal(err.message, "max_size is 3; allowed: an integer from 4 to 16384");
    parse("{\"platforms\":{\"mobile\":{\"texture\":{\"formt\":\"bc7\"}}}}", NULL, &s, &err);
    assert_non_null(strstr(err.message, "unknown field \"formt\""));
    assert_non_null(strstr(err.message, "allowed: format, srgb"));
    parse("{\"import\":{\"texture\":{\"format\":\"bc8\"}}}", NULL, &s, &err);
    assert_non_null(strstr(err.message, "\"bc8\""));
    assert_non_null(strstr(err.message, "astc4x4"));
    parse("{\"import\":{\"model\":{\"lods\":[0.5,0.6]}}}", NULL, &s, &err);
    assert_non_null(strstr(err.message, "not below lods[0] = 0.5"));
    parse("{\"import\":{\"texture\":{\"normal_map\":true}},"
          "\"platforms\":{\"mobile\":{\"texture\":{\"srgb\":true}}}}",
          NULL, &s, &err);
    assert_non_null(strstr(err.message, "platform mobile"));
    assert_non_null(strstr(err.message, "normal map"));
}

static void syntax_errors_give_line_and_column_and_an_empty_pointer(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    const char *doc = "{\n  \"import\": {\n    \"texture\": {\"format\": bc7}\n  }\n}\n";
    assert_int_equal(parse(doc, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "");
    /* The place where the bad token "bc" ends: line 3, column 28 (1-based, in characters;
     * 'b' is column 27), 44 bytes into the text. */
    assert_non_null(strstr(err.message, "line 3, column 28"));
    assert_int_equal(err.offset, 44);
    /* Columns count characters, not bytes. */
    assert_int_equal(parse("{\"guid\":\"\xc3\xa9\xc3\xa9\xc3\xa9\" x}", NULL, &s, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "line 1, column 15:"));
}

static void a_duplicate_key_is_rejected(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    const char *doc = "{\"import\":{\"texture\":{\"format\":\"bc7\",\"format\":\"bc1\"}}}";
    assert_int_equal(parse(doc, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "duplicate"));
    assert_non_null(strstr(err.message, "line 1"));
}

static void malformed_bytes_are_rejected_without_a_crash(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    assert_int_equal(kiln_settings_parse("", 0, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_int_equal(kiln_settings_parse(NULL, 0, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_int_equal(kiln_settings_parse(NULL, 3, NULL, &s, &err), KILN_E_USAGE);
    assert_int_equal(parse("{} x", NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_int_equal(kiln_settings_parse("{}\0{}", 5, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_int_equal(parse("{\"guid\":\"\\u0000\"}", NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_int_equal(parse("{\"import\":{\"fbx\":{\"scale\":1e999}}}", NULL, &s, &err),
                     KILN_E_IMPORT_SETTINGS);
    /* Invalid UTF-8 in a key: a syntax error, and the message stays printable ASCII. */
    assert_int_equal(parse("{\"\xff\xfe\":1}", NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    for (const char *m = err.message; *m; m++) assert_true(*m >= 0x20 && *m < 0x7f);
}

static void deep_nesting_is_rejected_without_exhausting_the_stack(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *doc = malloc(2 * depth + 32);
    assert_non_null(doc);
    size_t n = (size_t)sprintf(doc, "{\"import\":{\"model\":{\"lods\":");
    for (size_t i = 0; i < depth; i++) doc[n++] = '[';
    for (size_t i = 0; i < depth; i++) doc[n++] = ']';
    n += (size_t)sprintf(doc + n, "}}}");
    kiln_settings s;
    kiln_error err;
    assert_int_equal(kiln_settings_parse(doc, n, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "depth"));
    free(doc);
}

static void every_truncation_of_a_document_is_rejected(void **state)
{
    (void)state;
    const char *doc = platform_doc;
    size_t len = strlen(doc);
    kiln_settings s;
    kiln_error err;
    for (size_t n = 0; n < len; n++) {
        kiln_result r = kiln_settings_parse(doc, n, "mobile", &s, &err);
        if (r != KILN_E_IMPORT_SETTINGS) fail_msg("prefix of %zu bytes gave %d", n, r);
    }
    assert_int_equal(kiln_settings_parse(doc, len, "mobile", &s, &err), KILN_OK);
}

static void an_over_long_unknown_key_gives_a_truncated_pointer_that_is_valid_utf8(void **state)
{
    (void)state;
    /* 200 two-byte characters: the pointer cannot hold them all and must not end mid-character. */
    char doc[1024];
    size_t n = (size_t)sprintf(doc, "{\"");
    for (int i = 0; i < 200; i++) {
        doc[n++] = (char)0xC3;
        doc[n++] = (char)0xA9; /* é */
    }
    n += (size_t)sprintf(doc + n, "\":1}");
    kiln_settings s;
    kiln_error err;
    assert_int_equal(kiln_settings_parse(doc, n, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    size_t plen = strlen(err.json_pointer);
    assert_true(plen > 100 && plen < sizeof err.json_pointer);
    assert_int_equal(err.json_pointer[0], '/');
    assert_int_equal((plen - 1) % 2, 0); /* whole two-byte characters after the '/' */
    assert_int_equal((unsigned char)err.json_pointer[plen - 1], 0xA9);
    for (const char *m = err.message; *m; m++) assert_true(*m >= 0x20 && *m < 0x7f);
}

static void from_json_refuses_null_arguments(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_error err;
    assert_int_equal(kiln_settings_from_json(NULL, NULL, &s, &err), KILN_E_USAGE);
    json_t *doc = json_object();
    assert_int_equal(kiln_settings_from_json(doc, NULL, NULL, &err), KILN_E_USAGE);
    assert_int_equal(kiln_settings_from_json(doc, NULL, &s, NULL), KILN_OK);
    json_decref(doc);
}

static void names_of_formats_and_qualities_match_the_document_spelling(void **state)
{
    (void)state;
    const char *formats[] = {"auto", "bc7", "bc5", "bc4", "bc1", "astc4x4", "rgba8", "rgba16f"};
    for (int f = KILN_TEXFMT_AUTO; f <= KILN_TEXFMT_RGBA16F; f++) {
        assert_string_equal(kiln_texture_format_name((kiln_texture_format)f), formats[f]);
        char doc[128];
        kiln_settings s;
        kiln_error err;
        snprintf(doc, sizeof doc, "{\"import\":{\"texture\":{\"format\":\"%s\"}}}", formats[f]);
        assert_int_equal(parse(doc, NULL, &s, &err), KILN_OK);
        assert_int_equal(s.texture.format, f);
    }
    assert_string_equal(kiln_quality_name(KILN_QUALITY_FAST), "fast");
    assert_string_equal(kiln_quality_name(KILN_QUALITY_NORMAL), "normal");
    assert_string_equal(kiln_quality_name(KILN_QUALITY_HIGH), "high");
}

static void settings_json_of_an_out_of_range_enum_is_null(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_settings_default(&s);
    s.texture.format = (kiln_texture_format)99;
    assert_null(kiln_texture_settings_json(&s.texture));
    s.model.lod_count = KILN_MAX_LODS + 1;
    assert_null(kiln_model_settings_json(&s));
}

/* ---- assignments (reimport --set) ------------------------------------------------------- */

static kiln_result assign(json_t *doc, const char *a, kiln_error *err)
{
    memset(err, 0, sizeof *err);
    return kiln_settings_apply_assignment(doc, a, err);
}

static void dump_equals(const json_t *doc, const char *expected)
{
    json_t *e = load(expected);
    char *a = json_dumps(doc, JSON_SORT_KEYS | JSON_COMPACT);
    char *b = json_dumps(e, JSON_SORT_KEYS | JSON_COMPACT);
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_decref(e);
}

static void assignment_sets_fields_below_import(void **state)
{
    (void)state;
    json_t *doc = load("{\"guid\":\"00112233445566778899aabbccddeeff\","
                       "\"import\":{\"texture\":{\"mipmaps\":false}}}");
    kiln_error err;
    assert_int_equal(assign(doc, "texture.format=rgba8", &err), KILN_OK);
    assert_int_equal(assign(doc, "texture.max_size=512", &err), KILN_OK);
    assert_int_equal(assign(doc, "texture.srgb=null", &err), KILN_OK);
    assert_int_equal(assign(doc, "model.lods=[0.5,0.2]", &err), KILN_OK);
    assert_int_equal(assign(doc, "import.fbx.up_axis=z", &err), KILN_OK);
    assert_int_equal(assign(doc, "texture.quality=\"high\"", &err), KILN_OK);
    dump_equals(doc, "{\"guid\":\"00112233445566778899aabbccddeeff\","
                     "\"import\":{\"texture\":{\"mipmaps\":false,\"format\":\"rgba8\","
                     "\"max_size\":512,\"srgb\":null,\"quality\":\"high\"},"
                     "\"model\":{\"lods\":[0.5,0.2]},\"fbx\":{\"up_axis\":\"z\"}}}");
    kiln_settings s;
    assert_int_equal(kiln_settings_from_json(doc, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_RGBA8);
    assert_int_equal(s.texture.max_size, 512);
    assert_int_equal(s.model.lod_count, 2);
    json_decref(doc);
}

static void assignment_sets_platform_overrides(void **state)
{
    (void)state;
    json_t *doc = json_object();
    kiln_error err;
    assert_int_equal(assign(doc, "platforms.mobile.texture.format=astc4x4", &err), KILN_OK);
    dump_equals(doc, "{\"platforms\":{\"mobile\":{\"texture\":{\"format\":\"astc4x4\"}}}}");
    kiln_settings s;
    assert_int_equal(kiln_settings_from_json(doc, "mobile", &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_ASTC4X4);
    assert_int_equal(kiln_settings_from_json(doc, NULL, &s, &err), KILN_OK);
    assert_int_equal(s.texture.format, KILN_TEXFMT_AUTO);
    assert_int_equal(assign(doc, "platforms.pc={\"texture\":{\"format\":\"bc7\"}}", &err), KILN_OK);
    assert_int_equal(assign(doc, "model={\"lod_error\":0.2}", &err), KILN_OK);
    dump_equals(doc, "{\"platforms\":{\"mobile\":{\"texture\":{\"format\":\"astc4x4\"}},"
                     "\"pc\":{\"texture\":{\"format\":\"bc7\"}}},"
                     "\"import\":{\"model\":{\"lod_error\":0.2}}}");
    json_decref(doc);
}

static void assignment_value_that_is_not_json_is_a_string(void **state)
{
    (void)state;
    json_t *doc = json_object();
    kiln_error err;
    assert_int_equal(assign(doc, "texture.format=bc7", &err), KILN_OK);
    assert_int_equal(assign(doc, "fbx.up_axis=y", &err), KILN_OK);
    assert_int_equal(assign(doc, "texture.quality=", &err), KILN_OK); /* "" - invalid later */
    dump_equals(doc, "{\"import\":{\"texture\":{\"format\":\"bc7\",\"quality\":\"\"},"
                     "\"fbx\":{\"up_axis\":\"y\"}}}");
    kiln_settings s;
    assert_int_equal(kiln_settings_from_json(doc, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture/quality");
    json_decref(doc);
}

static void assignment_to_an_unknown_path_names_it(void **state)
{
    (void)state;
    json_t *doc = json_object();
    kiln_error err;
    struct {
        const char *assignment, *pointer, *in_message;
    } bad[] = {
        {"texture.formt=bc7", "/import/texture/formt", "texture.formt"},
        {"textures.format=bc7", "/import/textures", "textures.format"},
        {"texture.format.x=1", "/import/texture/format/x", "texture.format.x"},
        {"platforms.Mobile.texture.format=bc7", "/platforms/Mobile", "Mobile"},
        {"platforms=1", "/platforms", "platforms"},
        {"platforms.mobile.import.format=bc7", "/platforms/mobile/import", "import"},
        {"texture..format=bc7", "", "texture..format"},
        {"=bc7", "", "empty"},
        {"texture.format", "", "not an assignment"},
        {"texture=5", "/import/texture", "must be a JSON object"},
        {"guid=00112233445566778899aabbccddeeff", "/import/guid", "guid"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kiln_result r = assign(doc, bad[i].assignment, &err);
        if (r != KILN_E_IMPORT_SETTINGS || strcmp(err.json_pointer, bad[i].pointer) != 0 ||
            !strstr(err.message, bad[i].in_message))
            fail_msg("%s: got %s at \"%s\": %s", bad[i].assignment, kiln_result_name(r),
                     err.json_pointer, err.message);
    }
    dump_equals(doc, "{}"); /* nothing was changed by a refused assignment */
    json_decref(doc);
}

static void assignment_below_a_value_that_is_not_an_object_is_refused(void **state)
{
    (void)state;
    json_t *doc = load("{\"import\":{\"texture\":7}}");
    kiln_error err;
    assert_int_equal(assign(doc, "texture.format=bc7", &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture");
    dump_equals(doc, "{\"import\":{\"texture\":7}}");
    json_decref(doc);
}

/* ---- merges (reimport --settings) ------------------------------------------------------- */

static void merge_combines_objects_and_replaces_other_values(void **state)
{
    (void)state;
    json_t *doc = load("{\"guid\":\"00112233445566778899aabbccddeeff\","
                       "\"import\":{\"texture\":{\"max_size\":512,\"format\":\"bc1\"},"
                       "\"model\":{\"lods\":[0.5,0.25,0.125]}},"
                       "\"platforms\":{\"mobile\":{}}}");
    json_t *patch = load("{\"texture\":{\"format\":\"bc7\",\"srgb\":null},"
                         "\"model\":{\"lods\":[0.3]},\"fbx\":{\"scale\":2}}");
    kiln_error err;
    assert_int_equal(kiln_settings_merge_import(doc, patch, &err), KILN_OK);
    dump_equals(doc, "{\"guid\":\"00112233445566778899aabbccddeeff\","
                     "\"import\":{\"texture\":{\"max_size\":512,\"format\":\"bc7\",\"srgb\":null},"
                     "\"model\":{\"lods\":[0.3]},\"fbx\":{\"scale\":2}},"
                     "\"platforms\":{\"mobile\":{}}}");
    /* The document holds copies: changing the patch afterwards changes nothing. */
    json_object_set_new(json_object_get(patch, "texture"), "format", json_string("bc4"));
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(json_object_get(doc, "import"), "texture"), "format")),
                        "bc7");
    json_decref(patch);
    json_decref(doc);
}

static void merge_into_a_document_without_import_creates_it(void **state)
{
    (void)state;
    json_t *doc = json_object();
    json_t *patch = load("{\"texture\":{\"format\":\"bc7\"}}");
    kiln_error err;
    assert_int_equal(kiln_settings_merge_import(doc, patch, &err), KILN_OK);
    dump_equals(doc, "{\"import\":{\"texture\":{\"format\":\"bc7\"}}}");
    json_decref(patch);
    json_decref(doc);
}

static void merge_refuses_a_patch_that_is_not_an_object(void **state)
{
    (void)state;
    json_t *doc = load("{\"import\":{\"texture\":{\"format\":\"bc1\"}}}");
    kiln_error err;
    json_t *patch = load("[1]");
    assert_int_equal(kiln_settings_merge_import(doc, patch, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "");
    assert_int_equal(kiln_settings_merge_import(doc, NULL, &err), KILN_E_IMPORT_SETTINGS);
    json_decref(patch);
    /* Deeper than any settings can be: refused before anything is copied. */
    char deep[256] = "{\"texture\":";
    for (int i = 0; i < 40; i++) strcat(deep, "[");
    for (int i = 0; i < 40; i++) strcat(deep, "]");
    strcat(deep, "}");
    patch = load(deep);
    assert_int_equal(kiln_settings_merge_import(doc, patch, &err), KILN_E_IMPORT_SETTINGS);
    assert_non_null(strstr(err.message, "deeper"));
    dump_equals(doc, "{\"import\":{\"texture\":{\"format\":\"bc1\"}}}");
    json_decref(patch);
    json_decref(doc);
}

static void merge_result_is_validated_by_the_caller(void **state)
{
    (void)state;
    json_t *doc = json_object();
    json_t *patch = load("{\"texture\":{\"formt\":\"bc7\"}}");
    kiln_error err;
    assert_int_equal(kiln_settings_merge_import(doc, patch, &err), KILN_OK);
    kiln_settings s;
    assert_int_equal(kiln_settings_from_json(doc, NULL, &s, &err), KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/import/texture/formt");
    json_decref(patch);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(settings_defaults_are_the_documented_values),
        cmocka_unit_test(shader_lists_are_canonical_and_replaced_by_platforms),
        cmocka_unit_test(settings_json_of_defaults_has_every_field_with_its_default),
        cmocka_unit_test(every_table_case_gives_its_verdict_and_exact_pointer),
        cmocka_unit_test(empty_document_gives_defaults),
        cmocka_unit_test(guid_is_returned_when_present),
        cmocka_unit_test(parsed_values_reach_the_struct),
        cmocka_unit_test(integral_reals_are_read_as_integers),
        cmocka_unit_test(equivalent_documents_give_equal_canonical_json),
        cmocka_unit_test(different_settings_give_different_canonical_json),
        cmocka_unit_test(platform_overrides_apply_field_by_field_for_the_chosen_platform),
        cmocka_unit_test(a_platform_the_document_lacks_gets_the_import_settings),
        cmocka_unit_test(a_platform_override_of_srgb_null_replaces_an_imported_true),
        cmocka_unit_test(out_is_left_untouched_on_error),
        cmocka_unit_test(messages_say_what_is_wrong_and_what_is_allowed),
        cmocka_unit_test(syntax_errors_give_line_and_column_and_an_empty_pointer),
        cmocka_unit_test(a_duplicate_key_is_rejected),
        cmocka_unit_test(malformed_bytes_are_rejected_without_a_crash),
        cmocka_unit_test(deep_nesting_is_rejected_without_exhausting_the_stack),
        cmocka_unit_test(every_truncation_of_a_document_is_rejected),
        cmocka_unit_test(an_over_long_unknown_key_gives_a_truncated_pointer_that_is_valid_utf8),
        cmocka_unit_test(from_json_refuses_null_arguments),
        cmocka_unit_test(names_of_formats_and_qualities_match_the_document_spelling),
        cmocka_unit_test(settings_json_of_an_out_of_range_enum_is_null),
        cmocka_unit_test(assignment_sets_fields_below_import),
        cmocka_unit_test(assignment_sets_platform_overrides),
        cmocka_unit_test(assignment_value_that_is_not_json_is_a_string),
        cmocka_unit_test(assignment_to_an_unknown_path_names_it),
        cmocka_unit_test(assignment_below_a_value_that_is_not_an_object_is_refused),
        cmocka_unit_test(merge_combines_objects_and_replaces_other_values),
        cmocka_unit_test(merge_into_a_document_without_import_creates_it),
        cmocka_unit_test(merge_refuses_a_patch_that_is_not_an_object),
        cmocka_unit_test(merge_result_is_validated_by_the_caller),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
