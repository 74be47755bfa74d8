/* test_kind_schema.c — the schema of the built-in kinds' settings is stated by their descriptors
 * (kiln_source_kind.settings_schema) and must agree with the documents that restate it:
 *   - docs/schemas/meta.schema.json: $defs.<object> equals the descriptor's schema of that
 *     object, $defs.kinds lists exactly the objects the descriptors state, each by $ref, and
 *     $defs.textureFormat lists "auto" and the rows of the texture format table in order;
 *   - the settings parser: every object a descriptor states is one the parser knows, with the
 *     same fields, and each schema default is the parser's default;
 *   - docs/schemas/model.schema.json: `kiln model --json`'s settings name the model fields.
 * On a difference the descriptor's schema is printed, to be copied where it belongs. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "codec/texture_format.h"
#include "pipeline/settings.h"
#include "pipeline/source_kind.h"

static json_t *load_doc(const char *name)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *path = kt_format("%s/docs/schemas/%s", src, name);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) fail_msg("%s: %s (line %d)", path, je.text, je.line);
    free(path);
    return doc;
}

/* Every object of every built-in kind's settings_schema, by name. */
static json_t *descriptor_schemas(void)
{
    json_t *all = json_object();
    const kiln_source_kind *k;
    for (size_t i = 0; (k = kiln_source_kind_at(NULL, i)) != NULL; i++) {
        if (!k->settings_schema) continue;
        json_error_t je;
        json_t *s = json_loads(k->settings_schema, 0, &je);
        if (!s)
            fail_msg("kind %s: settings_schema is not JSON: %s (column %d)", k->name, je.text,
                     je.column);
        assert_true(json_is_object(s));
        const char *name;
        json_t *v;
        json_object_foreach (s, name, v) {
            if (json_object_get(all, name)) fail_msg("settings object %s stated twice", name);
            json_object_set(all, name, v);
        }
        json_decref(s);
    }
    return all;
}

static void print_schema(const char *what, const json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    print_error("%s:\n%s\n", what, text ? text : "(null)");
    free(text);
}

static void meta_schema_states_what_the_descriptors_state(void **state)
{
    (void)state;
    json_t *meta = load_doc("meta.schema.json"), *desc = descriptor_schemas();
    json_t *defs = json_object_get(meta, "$defs");
    json_t *listed = json_object_get(json_object_get(defs, "kinds"), "properties");
    assert_true(json_object_size(desc) >= 2);
    const char *name;
    json_t *schema;
    size_t differ = 0;
    json_object_foreach (desc, name, schema) {
        if (!json_equal(schema, json_object_get(defs, name))) {
            print_error("docs/schemas/meta.schema.json $defs.%s differs from the descriptor's\n",
                        name);
            print_schema("the descriptor's", schema);
            differ++;
        }
        char *ref = kt_format("#/$defs/%s", name);
        const char *to = json_string_value(json_object_get(json_object_get(listed, name), "$ref"));
        if (!to || strcmp(to, ref)) {
            print_error("meta.schema.json $defs.kinds does not refer to %s\n", ref);
            differ++;
        }
        free(ref);
    }
    json_object_foreach (listed, name, schema)
        if (!json_object_get(desc, name)) {
            print_error("meta.schema.json lists settings object %s that no kind states\n", name);
            differ++;
        }
    assert_int_equal(differ, 0);
    json_decref(desc);
    json_decref(meta);
}

static void texture_format_enum_is_the_format_table(void **state)
{
    (void)state;
    json_t *meta = load_doc("meta.schema.json");
    json_t *e =
        json_object_get(json_object_get(json_object_get(meta, "$defs"), "textureFormat"), "enum");
    assert_int_equal(json_array_size(e), KILN_TEXFMT_COUNT);
    for (int f = KILN_TEXFMT_AUTO; f < KILN_TEXFMT_COUNT; f++)
        assert_string_equal(json_string_value(json_array_get(e, (size_t)f)),
                            kiln_texture_format_name((kiln_texture_format)f));
    json_decref(meta);
}

/* Numbers compare by value (the schema writes 1, the parser's JSON 1.0); the rest as JSON. */
static bool same_value(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return fabs(json_number_value(a) - json_number_value(b)) <= 1e-12;
    if (json_is_array(a) && json_is_array(b)) {
        if (json_array_size(a) != json_array_size(b)) return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_value(json_array_get(a, i), json_array_get(b, i))) return false;
        return true;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

static void descriptor_schemas_hold_the_parsers_fields_and_defaults(void **state)
{
    (void)state;
    kiln_settings s;
    kiln_settings_default(&s);
    json_t *defaults = json_object();
    json_object_set_new(defaults, "texture", kiln_texture_settings_json(&s.texture));
    json_object_set_new(defaults, "model", kiln_model_settings_json(&s));
    json_object_set_new(defaults, "fbx", kiln_fbx_settings_json(&s.fbx));
    json_object_set_new(defaults, "shader", kiln_shader_settings_json(&s));
    json_t *desc = descriptor_schemas();
    const char *name;
    json_t *schema;
    size_t differ = 0;
    json_object_foreach (desc, name, schema) {
        assert_true(kiln_settings_section_is_builtin(name));
        json_t *parser = json_object_get(defaults, name),
               *props = json_object_get(schema, "properties");
        assert_non_null(parser);
        const char *field;
        json_t *v;
        json_object_foreach (parser, field, v) {
            json_t *p = json_object_get(props, field);
            if (!p) {
                print_error("%s.%s: a field of the parser without a schema\n", name, field);
                differ++;
            } else if (!same_value(json_object_get(p, "default"), v)) {
                print_error("%s.%s: the schema's default is not the parser's\n", name, field);
                differ++;
            }
        }
        json_object_foreach (props, field, v)
            if (!json_object_get(parser, field)) {
                print_error("%s.%s: in the schema, not a field of the parser\n", name, field);
                differ++;
            }
    }
    /* Every settings object the parser knows is some kind's. */
    json_object_foreach (defaults, name, schema)
        if (!json_object_get(desc, name)) {
            print_error("settings object %s: no kind states its schema\n", name);
            differ++;
        }
    assert_int_equal(differ, 0);
    json_decref(desc);
    json_decref(defaults);
}

static void model_command_schema_names_the_model_fields(void **state)
{
    (void)state;
    json_t *doc = load_doc("model.schema.json"), *desc = descriptor_schemas();
    json_t *settings = json_object_get(json_object_get(doc, "properties"), "settings");
    json_t *props = json_object_get(json_object_get(desc, "model"), "properties");
    json_t *required = json_object_get(settings, "required");
    assert_int_equal(json_array_size(required), json_object_size(props));
    assert_int_equal(json_object_size(json_object_get(settings, "properties")),
                     json_object_size(props));
    size_t i;
    json_t *v;
    json_array_foreach (required, i, v) {
        if (!json_object_get(props, json_string_value(v)))
            fail_msg("model.schema.json settings require %s, not a model field",
                     json_string_value(v));
    }
    json_decref(desc);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(meta_schema_states_what_the_descriptors_state),
        cmocka_unit_test(texture_format_enum_is_the_format_table),
        cmocka_unit_test(descriptor_schemas_hold_the_parsers_fields_and_defaults),
        cmocka_unit_test(model_command_schema_names_the_model_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
