/* kmat_cases.c — see kmat_cases.h. */
#include "kmat_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* both shaders, for documents without a parent */
#define B "\"vertex\": \"shaders/lit.vert\", \"fragment\": \"shaders/lit.frag\""
#define P "\"parent\": \"base.kmat\""

static const struct {
    const char *name, *text;
    bool accepts;
    const char *pointer, *words;
    int schema;
} fixed[] = {
    /* accepted */
    {"minimal", "{" B "}", true, NULL, NULL, 0},
    {"everything",
     "{\"$schema\": \"../docs/schemas/kmat.schema.json\",\n"
     " \"vertex\": {\"shader\": \"shaders/pbr_forward.vert\", \"variant\": \"skinned\"},\n"
     " \"fragment\": {\"shader\": \"/shaders/pbr_forward.frag\"},\n"
     " \"block\": \"Material\",\n"
     " \"parameters\": {\"base_color_factor\": [1, 0.5, 0.25, 1], \"metallic_factor\": 0,\n"
     "   \"lights[2].color\": [1, 1, 1], \"basis\": [[1, 0], [0, 1]], \"enabled\": true,\n"
     "   \"shadow\": {\"bias\": 0.001, \"key\": {\"dir\": [0, -1, 0, 0]}}},\n"
     " \"textures\": {\"base_color_texture\": \"textures/wood.png\",\n"
     "   \"normal_texture\": {\"texture\": \"textures/wood_n.png\", \"sampler\": {\"mag_filter\": "
     "\"nearest\", \"min_filter\": \"linear\", \"mip_filter\": \"linear\", \"wrap_s\": "
     "\"clamp\", \"wrap_t\": \"mirror\"}}},\n"
     " \"render_state\": {\"alpha_mode\": \"blend\", \"blend\": \"premultiplied\", "
     "\"double_sided\": true, \"depth_write\": false, \"depth_test\": true}}",
     true, NULL, NULL, 0},
    {"derived: parent only", "{" P "}", true, NULL, NULL, 0},
    {"derived: a variant of the parent's shader", "{" P ", \"vertex\": {\"variant\": \"skinned\"}}",
     true, NULL, NULL, 0},
    {"derived: cutoff alone (the mode comes from the parent)",
     "{" P ", \"render_state\": {\"alpha_cutoff\": 0.3}}", true, NULL, NULL, 0},
    {"derived: blend alone", "{" P ", \"render_state\": {\"blend\": \"additive\"}}", true, NULL,
     NULL, 0},
    {"block: set and binding", "{" B ", \"block\": {\"set\": 1, \"binding\": 0}}", true, NULL, NULL,
     0},
    {"block: push constants", "{" B ", \"block\": {\"push_constants\": true}}", true, NULL, NULL,
     0},
    {"block: name object", "{" B ", \"block\": {\"name\": \"material\"}}", true, NULL, NULL, 0},
    {"mask with a cutoff",
     "{" B ", \"render_state\": {\"alpha_mode\": \"mask\", \"alpha_cutoff\": 0}}", true, NULL, NULL,
     0},
    {"blend mode alone (blend defaults to alpha)",
     "{" B ", \"render_state\": {\"alpha_mode\": \"blend\"}}", true, NULL, NULL, 0},
    {"depth test off, depth write unsaid", "{" B ", \"render_state\": {\"depth_test\": false}}",
     true, NULL, NULL, 0},
    {"empty parameters and textures", "{" B ", \"parameters\": {}, \"textures\": {}}", true, NULL,
     NULL, 0},
    {"blend none with opaque",
     "{" B ", \"render_state\": {\"alpha_mode\": \"opaque\", \"blend\": \"none\"}}", true, NULL,
     NULL, 0},

    /* the document */
    {"not an object", "[1, 2]", false, "", "a .kmat is a JSON object", 0},
    {"syntax error", "{\"vertex\": ", false, "", "JSON syntax error", KMAT_NOT_JSON},
    {"duplicate key", "{" B ", \"vertex\": \"x.vert\"}", false, "", "JSON syntax error",
     KMAT_SCHEMA_GAP},
    {"unknown field", "{" B ", \"vertx\": \"a.vert\"}", false, "/vertx",
     "unknown field \"vertx\"; fields: parent, vertex", 0},
    {"no fragment shader", "{\"vertex\": \"a.vert\"}", false, "", "no fragment shader", 0},
    {"no shaders at all", "{}", false, "", "no vertex shader", 0},
    {"a variant without a shader or parent",
     "{\"vertex\": {\"variant\": \"x\"}, \"fragment\": \"a.frag\"}", false, "/vertex",
     "no vertex shader", 0},
    {"parent: a number", "{" B ", \"parent\": 3}", false, "/parent", "\"parent\" is a string", 0},
    {"parent: empty", "{\"parent\": \"\"}", false, "/parent", "\"parent\" is empty", 0},
    /* jansson refuses \u0000 in strings (without JSON_ALLOW_NUL); the schema's pattern too */
    {"parent: a NUL", "{\"parent\": \"a\\u0000b\"}", false, "", "JSON syntax error", 0},

    /* shaders */
    {"vertex: a number", "{\"vertex\": 3, \"fragment\": \"a.frag\"}", false, "/vertex",
     "\"vertex\" is a shader path or", 0},
    {"vertex: empty", "{\"vertex\": \"\", \"fragment\": \"a.frag\"}", false, "/vertex",
     "\"vertex\" is empty", 0},
    {"fragment: unknown field",
     "{\"vertex\": \"a.vert\", \"fragment\": {\"shader\": \"a.frag\", \"varaint\": \"x\"}}", false,
     "/fragment/varaint", "unknown field \"varaint\" of \"fragment\"", 0},
    {"fragment: empty object", "{\"vertex\": \"a.vert\", \"fragment\": {}}", false, "/fragment",
     "names no shader and no variant", 0},
    {"fragment: empty variant",
     "{\"vertex\": \"a.vert\", \"fragment\": {\"shader\": \"a.frag\", \"variant\": \"\"}}", false,
     "/fragment/variant", "variant is empty", 0},
    {"fragment: shader not a string",
     "{\"vertex\": \"a.vert\", \"fragment\": {\"shader\": [\"a.frag\"]}}", false,
     "/fragment/shader", "shader is a string, not an array", 0},

    /* block */
    {"block: a number", "{" B ", \"block\": 1}", false, "/block", "\"block\" is a block name", 0},
    {"block: two forms", "{" B ", \"block\": {\"name\": \"M\", \"set\": 1, \"binding\": 0}}", false,
     "/block", "exactly one of them", 0},
    {"block: set without binding", "{" B ", \"block\": {\"set\": 1}}", false, "/block",
     "gives both set and binding", 0},
    {"block: negative set", "{" B ", \"block\": {\"set\": -1, \"binding\": 0}}", false,
     "/block/set", "set is an integer from 0", 0},
    {"block: fractional binding", "{" B ", \"block\": {\"set\": 1, \"binding\": 0.5}}", false,
     "/block/binding", "binding is an integer", 0},
    {"block: push_constants false", "{" B ", \"block\": {\"push_constants\": false}}", false,
     "/block/push_constants", "push_constants is true", 0},
    {"block: unknown field", "{" B ", \"block\": {\"nam\": \"M\"}}", false, "/block/nam",
     "unknown field \"nam\" of \"block\"", 0},
    {"block: empty name", "{" B ", \"block\": \"\"}", false, "/block", "\"block\" is empty", 0},

    /* parameters */
    {"parameters: an array", "{" B ", \"parameters\": [1]}", false, "/parameters",
     "\"parameters\" is an object", 0},
    {"parameter: a space in the path", "{" B ", \"parameters\": {\"base color\": 1}}", false,
     "/parameters/base color", "is not a parameter path", 0},
    {"parameter: empty index", "{" B ", \"parameters\": {\"a[]\": 1}}", false, "/parameters/a[]",
     "is not a parameter path", 0},
    {"parameter: trailing dot", "{" B ", \"parameters\": {\"a.b.\": 1}}", false, "/parameters/a.b.",
     "is not a parameter path", 0},
    {"parameter: a digit first", "{" B ", \"parameters\": {\"2a\": 1}}", false, "/parameters/2a",
     "is not a parameter path", 0},
    {"parameter: ten-digit index", "{" B ", \"parameters\": {\"a[1234567890]\": 1}}", false,
     "/parameters/a[1234567890]", "is not a parameter path", 0},
    {"parameter: slash escaped in the pointer", "{" B ", \"parameters\": {\"a/b\": 1}}", false,
     "/parameters/a~1b", "is not a parameter path", 0},
    {"parameter: a string value", "{" B ", \"parameters\": {\"roughness\": \"0.5\"}}", false,
     "/parameters/roughness", "\"0.5\" is not a parameter value", 0},
    {"parameter: null", "{" B ", \"parameters\": {\"roughness\": null}}", false,
     "/parameters/roughness", "null is not a parameter value", 0},
    {"parameter: a string inside an array", "{" B ", \"parameters\": {\"tint\": [1, \"a\", 3]}}",
     false, "/parameters/tint/1", "is not a parameter value", 0},
    {"parameter: a struct key that is no member name",
     "{" B ", \"parameters\": {\"light\": {\"the color\": [1, 1, 1]}}}", false,
     "/parameters/light/the color", "is not a member name", 0},

    /* textures */
    {"textures: a string", "{" B ", \"textures\": \"a.png\"}", false, "/textures",
     "\"textures\" is an object", 0},
    {"texture: a binding name with a dash", "{" B ", \"textures\": {\"base-color\": \"a.png\"}}",
     false, "/textures/base-color", "is not a binding name", 0},
    {"texture: a number", "{" B ", \"textures\": {\"t\": 1}}", false, "/textures/t",
     "a texture is a path or", 0},
    {"texture: an empty path", "{" B ", \"textures\": {\"t\": \"\"}}", false, "/textures/t",
     "a texture path is empty", 0},
    {"texture: object without texture",
     "{" B ", \"textures\": {\"t\": {\"sampler\": {\"wrap_s\": \"clamp\"}}}}", false, "/textures/t",
     "names its \"texture\"", 0},
    {"texture: unknown field",
     "{" B ", \"textures\": {\"t\": {\"texture\": \"a.png\", \"sample\": {}}}}", false,
     "/textures/t/sample", "unknown field \"sample\" of a texture", 0},
    {"sampler: not an object",
     "{" B ", \"textures\": {\"t\": {\"texture\": \"a.png\", \"sampler\": \"linear\"}}}", false,
     "/textures/t/sampler", "\"sampler\" is an object", 0},
    {"sampler: a bad filter",
     "{" B ", \"textures\": {\"t\": {\"texture\": \"a.png\", \"sampler\": {\"mag_filter\": "
     "\"cubic\"}}}}",
     false, "/textures/t/sampler/mag_filter", "mag_filter is one of nearest, linear", 0},
    {"sampler: a bad wrap",
     "{" B ", \"textures\": {\"t\": {\"texture\": \"a.png\", \"sampler\": {\"wrap_t\": "
     "\"border\"}}}}",
     false, "/textures/t/sampler/wrap_t", "wrap_t is one of repeat, clamp, mirror", 0},
    {"sampler: unknown field",
     "{" B ", \"textures\": {\"t\": {\"texture\": \"a.png\", \"sampler\": {\"wrap\": "
     "\"clamp\"}}}}",
     false, "/textures/t/sampler/wrap", "unknown field \"wrap\" of \"sampler\"", 0},

    /* render state */
    {"render_state: an array", "{" B ", \"render_state\": []}", false, "/render_state",
     "\"render_state\" is an object", 0},
    {"alpha_mode: transparent", "{" B ", \"render_state\": {\"alpha_mode\": \"transparent\"}}",
     false, "/render_state/alpha_mode", "alpha_mode is one of opaque, mask, blend", 0},
    {"alpha_cutoff: above 1",
     "{" B ", \"render_state\": {\"alpha_mode\": \"mask\", \"alpha_cutoff\": 1.5}}", false,
     "/render_state/alpha_cutoff", "alpha_cutoff is a number from 0 to 1", 0},
    {"alpha_cutoff: a string",
     "{" B ", \"render_state\": {\"alpha_mode\": \"mask\", \"alpha_cutoff\": \"0.5\"}}", false,
     "/render_state/alpha_cutoff", "alpha_cutoff is a number", 0},
    {"double_sided: yes", "{" B ", \"render_state\": {\"double_sided\": \"yes\"}}", false,
     "/render_state/double_sided", "double_sided is true or false", 0},
    {"depth_write: 1", "{" B ", \"render_state\": {\"depth_write\": 1}}", false,
     "/render_state/depth_write", "depth_write is true or false", 0},
    {"depth_test: null", "{" B ", \"render_state\": {\"depth_test\": null}}", false,
     "/render_state/depth_test", "depth_test is true or false", 0},
    {"blend: multiply",
     "{" B ", \"render_state\": {\"alpha_mode\": \"blend\", \"blend\": \"multiply\"}}", false,
     "/render_state/blend", "blend is one of none, alpha, premultiplied, additive", 0},
    {"render_state: unknown field", "{" B ", \"render_state\": {\"cull\": \"back\"}}", false,
     "/render_state/cull", "unknown field \"cull\" of \"render_state\"", 0},
    {"blend with opaque",
     "{" B ", \"render_state\": {\"alpha_mode\": \"opaque\", \"blend\": \"alpha\"}}", false,
     "/render_state/blend", "blend alpha with alpha_mode opaque", 0},
    {"blend with mask (derived too)",
     "{" P ", \"render_state\": {\"alpha_mode\": \"mask\", \"blend\": \"additive\"}}", false,
     "/render_state/blend", "blend additive with alpha_mode mask", 0},
    {"blend without a mode (opaque by default)",
     "{" B ", \"render_state\": {\"blend\": \"additive\"}}", false, "/render_state/blend",
     "blend additive with alpha_mode opaque", 0},
    {"alpha_mode blend with blend none",
     "{" B ", \"render_state\": {\"alpha_mode\": \"blend\", \"blend\": \"none\"}}", false,
     "/render_state/blend", "alpha_mode blend needs a blend", 0},
    {"cutoff with opaque",
     "{" B ", \"render_state\": {\"alpha_mode\": \"opaque\", \"alpha_cutoff\": 0.5}}", false,
     "/render_state/alpha_cutoff", "the cutoff applies to mask only", 0},
    {"cutoff without a mode (opaque by default)",
     "{" B ", \"render_state\": {\"alpha_cutoff\": 0.5}}", false, "/render_state/alpha_cutoff",
     "with alpha_mode opaque", 0},
    {"depth write without depth test",
     "{" B ", \"render_state\": {\"depth_test\": false, \"depth_write\": true}}", false,
     "/render_state/depth_write", "depth_write without depth_test", 0},
    {"depth write without depth test (derived too)",
     "{" P ", \"render_state\": {\"depth_test\": false, \"depth_write\": true}}", false,
     "/render_state/depth_write", "depth_write without depth_test", 0},
};

static void add(kmat_case **cases, size_t *n, const char *name, char *text, bool accepts,
                const char *pointer, const char *words, int schema)
{
    *cases = realloc(*cases, (*n + 1) * sizeof **cases);
    if (!*cases) abort();
    (*cases)[(*n)++] = (kmat_case){name, text, accepts, pointer, words, schema};
}

/* "{B, "parameters": {"p0": 0, ... }}" with n parameters, or textures */
static char *many(const char *field, size_t n, bool texture)
{
    size_t cap = 64 + n * 32 + sizeof B, len = 0;
    char *s = malloc(cap);
    if (!s) abort();
    len += (size_t)snprintf(s, cap, "{" B ", \"%s\": {", field);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s\"p%zu\": %s", i ? ", " : "", i,
                                texture ? "\"t.png\"" : "0");
    snprintf(s + len, cap - len, "}}");
    return s;
}

static char *nested(size_t depth)
{
    size_t cap = sizeof B + 64 + 2 * depth;
    char *s = malloc(cap);
    if (!s) abort();
    size_t len = (size_t)snprintf(s, cap, "{" B ", \"parameters\": {\"x\": ");
    for (size_t i = 0; i < depth; i++) s[len++] = '[';
    s[len++] = '1';
    for (size_t i = 0; i < depth; i++) s[len++] = ']';
    snprintf(s + len, cap - len, "}}");
    return s;
}

static char *long_parent(size_t bytes)
{
    char *s = malloc(bytes + 32);
    if (!s) abort();
    size_t len = (size_t)snprintf(s, bytes + 32, "{\"parent\": \"");
    memset(s + len, 'a', bytes);
    snprintf(s + len + bytes, 32, "\"}");
    return s;
}

static char *long_param(size_t bytes)
{
    char *s = malloc(bytes + 64 + sizeof B);
    if (!s) abort();
    size_t len = (size_t)snprintf(s, bytes + 64, "{" B ", \"parameters\": {\"");
    memset(s + len, 'p', bytes);
    snprintf(s + len + bytes, 64, "\": 1}}");
    return s;
}

kmat_case *kmat_cases(size_t *count)
{
    kmat_case *cases = NULL;
    size_t n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        add(&cases, &n, fixed[i].name, kt_format("%s", fixed[i].text), fixed[i].accepts,
            fixed[i].pointer, fixed[i].words, fixed[i].schema);
    add(&cases, &n, "4096 parameters", many("parameters", 4096, false), true, NULL, NULL, 0);
    add(&cases, &n, "4097 parameters", many("parameters", 4097, false), false, "/parameters",
        "4097 parameters (at most 4096)", 0);
    add(&cases, &n, "256 textures", many("textures", 256, true), true, NULL, NULL, 0);
    add(&cases, &n, "257 textures", many("textures", 257, true), false, "/textures",
        "257 textures (at most 256)", 0);
    add(&cases, &n, "a value 32 deep", nested(32), true, NULL, NULL, 0);
    add(&cases, &n, "a value 33 deep", nested(33), false, NULL, "nested deeper than 32",
        KMAT_SCHEMA_GAP);
    add(&cases, &n, "a 1024-byte parent", long_parent(1024), true, NULL, NULL, 0);
    add(&cases, &n, "a 1025-byte parent", long_parent(1025), false, "/parent",
        "1025 bytes long (at most 1024)", 0);
    add(&cases, &n, "a 255-byte parameter path", long_param(255), true, NULL, NULL, 0);
    add(&cases, &n, "a 256-byte parameter path", long_param(256), false, NULL,
        "a parameter path of 256 bytes (at most 255)", 0);
    *count = n;
    return cases;
}

void kmat_cases_free(kmat_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) free(cases[i].text);
    free(cases);
}
