/* test_kmat.c — the .kmat parser (every field, every refusal of kmat_cases.c with its pointer
 * and message), inheritance (kiln_kmat_resolve: shaders, block, parameters and textures by name,
 * render state field by field, the chain limit), kiln_value copies, allocation failures with a
 * checking allocator, and a derived material packed end to end against a compiled shader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "core/alloc.h"
#include "counting_alloc.h"
#include "import/kmat.h"
#include "import/value_json.h"
#include "kmat_cases.h"
#include "mb_shader.h"
#include "process/material_block.h"
#include "shaders.h"

static kiln_result parse(const char *text, kiln_kmat *m, kiln_error *err)
{
    return kiln_kmat_parse(text, strlen(text), NULL, m, err);
}

static void parse_ok(const char *text, kiln_kmat *m)
{
    kiln_error err;
    if (parse(text, m, &err) != KILN_OK)
        fail_msg("%s\n%s (at %s)", text, err.message, err.json_pointer);
}

static void resolve_ok(const kiln_kmat *child, const kiln_kmat *parent, kiln_kmat *out)
{
    kiln_error err;
    if (kiln_kmat_resolve(child, parent, NULL, out, &err) != KILN_OK)
        fail_msg("resolve: %s (at %s)", err.message, err.json_pointer);
}

/* ---- the table ------------------------------------------------------------------------------ */

static void every_case_gets_its_verdict_pointer_and_message(void **state)
{
    (void)state;
    size_t n = 0;
    kmat_case *cases = kmat_cases(&n);
    size_t accepted = 0;
    for (size_t i = 0; i < n; i++) {
        kt_counting counting;
        const kiln_allocator *a = kt_counting_init(&counting, false);
        /* the checking allocator tracks up to 2048 blocks: the limit cases use libc */
        bool big = strlen(cases[i].text) > 16384;
        if (big) a = NULL;
        kiln_kmat m;
        kiln_error err;
        memset(&err, 0, sizeof err);
        kiln_result r = kiln_kmat_parse(cases[i].text, strlen(cases[i].text), a, &m, &err);
        if (cases[i].accepts) {
            if (r != KILN_OK)
                fail_msg("%s: refused: %s (at %s)", cases[i].name, err.message, err.json_pointer);
            accepted++;
        } else {
            if (r != KILN_E_IMPORT_SETTINGS)
                fail_msg("%s: expected E_IMPORT_SETTINGS, got %s", cases[i].name,
                         kiln_result_name(r));
            if (cases[i].pointer && strcmp(err.json_pointer, cases[i].pointer) != 0)
                fail_msg("%s: pointer \"%s\", expected \"%s\" (%s)", cases[i].name,
                         err.json_pointer, cases[i].pointer, err.message);
            if (cases[i].words && !strstr(err.message, cases[i].words))
                fail_msg("%s: message \"%s\" lacks \"%s\"", cases[i].name, err.message,
                         cases[i].words);
            /* a refused document leaves *out zeroed */
            assert_null(m.params);
            assert_null(m.vertex.shader);
        }
        kiln_kmat_free(&m);
        if (!big) kt_counting_assert_clean(&counting);
    }
    assert_true(accepted >= 15);
    assert_true(n - accepted >= 60);
    kmat_cases_free(cases, n);
}

/* ---- fields --------------------------------------------------------------------------------- */

static void every_field_is_parsed_into_the_struct(void **state)
{
    (void)state;
    size_t n = 0;
    kmat_case *cases = kmat_cases(&n);
    kiln_kmat m;
    parse_ok(cases[1].text, &m); /* "everything" */
    kmat_cases_free(cases, n);
    assert_null(m.parent);
    assert_string_equal(m.vertex.shader, "shaders/pbr_forward.vert");
    assert_string_equal(m.vertex.variant, "skinned");
    assert_string_equal(m.fragment.shader, "/shaders/pbr_forward.frag");
    assert_null(m.fragment.variant);
    assert_true(m.block.given);
    assert_int_equal(m.block.pick, KILN_KMAT_BLOCK_NAME);
    assert_string_equal(m.block.name, "Material");
    /* sorted by name, whatever the document's order */
    assert_int_equal(m.param_count, 6);
    const char *names[] = {"base_color_factor", "basis",           "enabled",
                           "lights[2].color",   "metallic_factor", "shadow"};
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(m.params[i].name, names[i]);
        assert_int_equal(m.params[i].depth, 0);
    }
    assert_string_equal(m.params[3].pointer, "/parameters/lights[2].color");
    const kiln_value *v = &kiln_kmat_find_param(&m, "base_color_factor")->value;
    assert_int_equal(v->nodes[0].kind, KILN_VALUE_ARRAY);
    assert_int_equal(v->nodes[0].count, 4);
    assert_true(v->nodes[2].d == 0.5);
    v = &kiln_kmat_find_param(&m, "enabled")->value;
    assert_int_equal(v->nodes[0].kind, KILN_VALUE_BOOL);
    assert_true(v->nodes[0].boolean);
    v = &kiln_kmat_find_param(&m, "shadow")->value;
    assert_int_equal(v->nodes[0].kind, KILN_VALUE_OBJECT);
    assert_string_equal(kiln_value_string(v, kiln_value_child(v, &v->nodes[0], 0)->key), "bias");
    assert_null(kiln_kmat_find_param(&m, "roughness"));

    assert_int_equal(m.texture_count, 2);
    assert_string_equal(m.textures[0].name, "base_color_texture");
    assert_string_equal(m.textures[0].texture, "textures/wood.png");
    assert_false(m.textures[0].has_sampler);
    assert_int_equal(m.textures[0].sampler.wrap_s, KILN_MATERIAL_WRAP_REPEAT);
    const kiln_kmat_texture *t = kiln_kmat_find_texture(&m, "normal_texture");
    assert_non_null(t);
    assert_string_equal(t->texture, "textures/wood_n.png");
    assert_string_equal(t->pointer, "/textures/normal_texture");
    assert_true(t->has_sampler);
    assert_int_equal(t->sampler.mag_filter, KILN_MATERIAL_FILTER_NEAREST);
    assert_int_equal(t->sampler.min_filter, KILN_MATERIAL_FILTER_LINEAR);
    assert_int_equal(t->sampler.mip_filter, KILN_MATERIAL_FILTER_LINEAR);
    assert_int_equal(t->sampler.wrap_s, KILN_MATERIAL_WRAP_CLAMP);
    assert_int_equal(t->sampler.wrap_t, KILN_MATERIAL_WRAP_MIRROR);

    const kiln_kmat_render_state *rs = &m.render_state;
    assert_int_equal(rs->alpha_mode, KILN_MATERIAL_ALPHA_BLEND);
    assert_int_equal(rs->blend, KILN_KMAT_BLEND_PREMULTIPLIED);
    assert_true(rs->double_sided);
    assert_false(rs->depth_write);
    assert_true(rs->depth_test);
    assert_true(rs->alpha_cutoff == 0.5f); /* the default, unused */
    assert_int_equal(rs->given, KILN_KMAT_GIVEN_ALPHA_MODE | KILN_KMAT_GIVEN_BLEND |
                                    KILN_KMAT_GIVEN_DOUBLE_SIDED | KILN_KMAT_GIVEN_DEPTH_WRITE |
                                    KILN_KMAT_GIVEN_DEPTH_TEST);
    assert_int_equal(m.chain, 1);
    kiln_kmat_free(&m);
    kiln_kmat_free(&m); /* freeing twice is harmless: free zeroes */
    kiln_kmat_free(NULL);
}

static void defaults_follow_the_alpha_mode(void **state)
{
    (void)state;
    kiln_kmat m;
    parse_ok("{\"vertex\": \"a.vert\", \"fragment\": \"a.frag\"}", &m);
    assert_int_equal(m.render_state.given, 0);
    assert_int_equal(m.render_state.alpha_mode, KILN_MATERIAL_ALPHA_OPAQUE);
    assert_int_equal(m.render_state.blend, KILN_KMAT_BLEND_NONE);
    assert_true(m.render_state.depth_write);
    assert_true(m.render_state.depth_test);
    assert_false(m.render_state.double_sided);
    assert_int_equal(m.block.pick, KILN_KMAT_BLOCK_DEFAULT);
    assert_false(m.block.given);
    assert_null(m.vertex.variant);
    kiln_kmat_free(&m);
    parse_ok("{\"vertex\": \"a.vert\", \"fragment\": \"a.frag\", \"render_state\": "
             "{\"alpha_mode\": \"blend\"}}",
             &m);
    assert_int_equal(m.render_state.blend, KILN_KMAT_BLEND_ALPHA);
    assert_false(m.render_state.depth_write); /* blended: no depth writes by default */
    kiln_kmat_free(&m);
    parse_ok("{\"vertex\": \"a.vert\", \"fragment\": \"a.frag\", \"block\": {\"set\": 2, "
             "\"binding\": 7}}",
             &m);
    assert_int_equal(m.block.pick, KILN_KMAT_BLOCK_BINDING);
    assert_int_equal(m.block.set, 2);
    assert_int_equal(m.block.binding, 7);
    kiln_kmat_free(&m);
    parse_ok("{\"parent\": \"../base.kmat\", \"block\": {\"push_constants\": true}}", &m);
    assert_string_equal(m.parent, "../base.kmat");
    assert_int_equal(m.block.pick, KILN_KMAT_BLOCK_PUSH);
    assert_null(m.vertex.shader);
    kiln_kmat_free(&m);
    /* the block picks mirror process/material_block.h's */
    assert_int_equal(KILN_KMAT_BLOCK_DEFAULT, KILN_BLOCK_PICK_DEFAULT);
    assert_int_equal(KILN_KMAT_BLOCK_NAME, KILN_BLOCK_PICK_NAME);
    assert_int_equal(KILN_KMAT_BLOCK_BINDING, KILN_BLOCK_PICK_BINDING);
    assert_int_equal(KILN_KMAT_BLOCK_PUSH, KILN_BLOCK_PICK_PUSH);
    kiln_error err;
    assert_int_equal(kiln_kmat_parse(NULL, 3, NULL, &m, &err), KILN_E_USAGE);
    assert_int_equal(kiln_kmat_parse("{}", 2, NULL, NULL, &err), KILN_E_USAGE);
    assert_int_equal(kiln_kmat_parse("", 0, NULL, &m, &err), KILN_E_IMPORT_SETTINGS);
}

/* ---- inheritance ---------------------------------------------------------------------------- */

static const char base_kmat[] =
    "{\"vertex\": {\"shader\": \"pbr.vert\", \"variant\": \"skinned\"},\n"
    " \"fragment\": \"pbr.frag\", \"block\": \"Material\",\n"
    " \"parameters\": {\"base_color\": [1, 1, 1, 1], \"roughness\": 0.5, \"lights\": [{}, {}]},\n"
    " \"textures\": {\"albedo\": \"wood.png\", \"normal\": {\"texture\": \"wood_n.png\", "
    "\"sampler\": {\"wrap_s\": \"clamp\"}}},\n"
    " \"render_state\": {\"alpha_mode\": \"mask\", \"alpha_cutoff\": 0.3}}";

static void a_child_overrides_its_parent_by_name_and_field(void **state)
{
    (void)state;
    kiln_kmat base, child, out;
    parse_ok(base_kmat, &base);
    parse_ok("{\"parent\": \"base.kmat\",\n"
             " \"fragment\": {\"variant\": \"masked\"},\n"
             " \"parameters\": {\"roughness\": 0.9, \"lights[1].color\": [1, 0, 0]},\n"
             " \"textures\": {\"normal\": \"stone_n.png\", \"detail\": \"noise.png\"},\n"
             " \"render_state\": {\"double_sided\": true}}",
             &child);
    resolve_ok(&child, &base, &out);
    assert_string_equal(out.parent, "base.kmat");
    assert_int_equal(out.chain, 2);
    assert_string_equal(out.vertex.shader, "pbr.vert");
    assert_string_equal(out.vertex.variant, "skinned");
    assert_string_equal(out.fragment.shader, "pbr.frag"); /* the parent's shader ... */
    assert_string_equal(out.fragment.variant, "masked");  /* ... in the child's variant */
    assert_int_equal(out.block.pick, KILN_KMAT_BLOCK_NAME);
    assert_string_equal(out.block.name, "Material");

    assert_int_equal(out.param_count, 4);
    const kiln_kmat_param *p = kiln_kmat_find_param(&out, "roughness");
    assert_true(p->value.nodes[0].d == 0.9);
    assert_int_equal(p->depth, 0);
    assert_int_equal(kiln_kmat_find_param(&out, "base_color")->depth, 1);
    assert_int_equal(kiln_kmat_find_param(&out, "lights")->depth, 1);
    assert_int_equal(kiln_kmat_find_param(&out, "lights[1].color")->depth, 0);
    assert_string_equal(out.params[0].name, "base_color"); /* sorted by name */
    assert_string_equal(out.params[3].name, "roughness");

    assert_int_equal(out.texture_count, 3);
    const kiln_kmat_texture *t = kiln_kmat_find_texture(&out, "normal");
    assert_string_equal(t->texture, "stone_n.png");
    assert_false(t->has_sampler); /* the whole entry is replaced, sampler included */
    assert_int_equal(t->depth, 0);
    assert_int_equal(kiln_kmat_find_texture(&out, "albedo")->depth, 1);
    assert_string_equal(kiln_kmat_find_texture(&out, "detail")->texture, "noise.png");

    assert_int_equal(out.render_state.alpha_mode, KILN_MATERIAL_ALPHA_MASK);
    assert_true(out.render_state.alpha_cutoff == 0.3f);
    assert_true(out.render_state.double_sided);
    assert_true(out.render_state.depth_write);
    assert_int_equal(out.render_state.given, KILN_KMAT_GIVEN_ALPHA_MODE |
                                                 KILN_KMAT_GIVEN_ALPHA_CUTOFF |
                                                 KILN_KMAT_GIVEN_DOUBLE_SIDED);

    /* a grandchild: the chain's depths count up; its own shader drops the inherited variant */
    kiln_kmat grand, out2;
    parse_ok("{\"parent\": \"child.kmat\", \"vertex\": \"plain.vert\", \"parameters\": "
             "{\"base_color\": [0, 0, 0, 1]}, \"block\": {\"set\": 1, \"binding\": 0}}",
             &grand);
    resolve_ok(&grand, &out, &out2);
    assert_int_equal(out2.chain, 3);
    assert_string_equal(out2.vertex.shader, "plain.vert");
    assert_null(out2.vertex.variant);
    assert_string_equal(out2.fragment.variant, "masked");
    assert_int_equal(out2.block.pick, KILN_KMAT_BLOCK_BINDING);
    assert_int_equal(kiln_kmat_find_param(&out2, "base_color")->depth, 0);
    assert_int_equal(kiln_kmat_find_param(&out2, "lights")->depth, 2);
    assert_int_equal(kiln_kmat_find_param(&out2, "roughness")->depth, 1);
    assert_int_equal(kiln_kmat_find_texture(&out2, "albedo")->depth, 2);
    assert_string_equal(kiln_kmat_find_texture(&out2, "albedo")->pointer, "/textures/albedo");
    kiln_kmat_free(&grand);
    kiln_kmat_free(&out2);
    kiln_kmat_free(&out);
    kiln_kmat_free(&child);
    kiln_kmat_free(&base);
}

static void resolve_checks_the_merged_render_state(void **state)
{
    (void)state;
    const struct {
        const char *parent, *child, *pointer, *words;
    } refusals[] = {
        {"{\"vertex\": \"a\", \"fragment\": \"b\"}",
         "{\"parent\": \"p\", \"render_state\": {\"blend\": \"additive\"}}", "/render_state/blend",
         "blend additive with alpha_mode opaque"},
        {"{\"vertex\": \"a\", \"fragment\": \"b\"}",
         "{\"parent\": \"p\", \"render_state\": {\"alpha_cutoff\": 0.2}}",
         "/render_state/alpha_cutoff", "applies to mask only"},
        {"{\"vertex\": \"a\", \"fragment\": \"b\", \"render_state\": {\"alpha_mode\": \"blend\", "
         "\"blend\": \"alpha\"}}",
         "{\"parent\": \"p\", \"render_state\": {\"alpha_mode\": \"opaque\"}}",
         "/render_state/blend", "blend alpha with alpha_mode opaque"},
        {"{\"vertex\": \"a\", \"fragment\": \"b\", \"render_state\": {\"depth_write\": true}}",
         "{\"parent\": \"p\", \"render_state\": {\"depth_test\": false}}",
         "/render_state/depth_write", "depth_write without depth_test"},
        {"{\"parent\": \"q\"}", "{\"parent\": \"p\"}", "/vertex", "no vertex shader"},
        {"{\"parent\": \"q\", \"vertex\": \"a\"}", "{\"parent\": \"p\"}", "/fragment",
         "no fragment shader"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        kiln_kmat parent, child, out;
        kiln_error err;
        parse_ok(refusals[i].parent, &parent);
        parse_ok(refusals[i].child, &child);
        assert_int_equal(kiln_kmat_resolve(&child, &parent, NULL, &out, &err),
                         KILN_E_IMPORT_SETTINGS);
        assert_string_equal(err.json_pointer, refusals[i].pointer);
        if (!strstr(err.message, refusals[i].words))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.message, refusals[i].words);
        assert_null(out.params);
        kiln_kmat_free(&parent);
        kiln_kmat_free(&child);
    }
    /* a parent's alpha_mode blend with the default blend: an opaque child is fine */
    kiln_kmat parent, child, out;
    parse_ok("{\"vertex\": \"a\", \"fragment\": \"b\", \"render_state\": {\"alpha_mode\": "
             "\"blend\"}}",
             &parent);
    parse_ok("{\"parent\": \"p\", \"render_state\": {\"alpha_mode\": \"opaque\"}}", &child);
    resolve_ok(&child, &parent, &out);
    assert_int_equal(out.render_state.blend, KILN_KMAT_BLEND_NONE);
    assert_true(out.render_state.depth_write);
    kiln_kmat_free(&out);
    kiln_kmat_free(&parent);
    kiln_kmat_free(&child);
}

static void a_chain_longer_than_the_limit_is_refused(void **state)
{
    (void)state;
    kiln_kmat cur, child, next;
    kiln_error err;
    parse_ok("{\"vertex\": \"a\", \"fragment\": \"b\"}", &cur);
    parse_ok("{\"parent\": \"p\", \"parameters\": {\"x\": 1}}", &child);
    uint32_t documents = 1;
    for (;;) {
        kiln_result r = kiln_kmat_resolve(&child, &cur, NULL, &next, &err);
        if (r != KILN_OK) {
            assert_int_equal(r, KILN_E_LIMIT);
            assert_non_null(strstr(err.message, "more than 16 documents"));
            break;
        }
        documents++;
        assert_int_equal(next.chain, documents);
        kiln_kmat_free(&cur);
        cur = next;
    }
    assert_int_equal(documents, KILN_KMAT_MAX_DEPTH);
    /* the child's x overrides every ancestor's: one parameter, depth 0 */
    assert_int_equal(cur.param_count, 1);
    assert_int_equal(cur.params[0].depth, 0);
    kiln_kmat_free(&cur);
    kiln_kmat_free(&child);
    assert_int_equal(kiln_kmat_resolve(NULL, &child, NULL, &next, &err), KILN_E_USAGE);
}

/* ---- allocation failures ------------------------------------------------------------------- */

static void allocation_failures_leak_nothing(void **state)
{
    (void)state;
    kiln_kmat base, child;
    parse_ok(base_kmat, &base);
    parse_ok("{\"parent\": \"b\", \"parameters\": {\"roughness\": [1, {\"a\": 2}]}, "
             "\"textures\": {\"x\": \"y.png\"}}",
             &child);
    for (int which = 0; which < 2; which++) {
        size_t failures = 0;
        for (size_t n = 1;; n++) {
            kt_counting c;
            const kiln_allocator *a = kt_counting_init(&c, false);
            c.fail_at = n;
            kiln_kmat out;
            kiln_error err;
            kiln_result r = which == 0
                                ? kiln_kmat_parse(base_kmat, strlen(base_kmat), a, &out, &err)
                                : kiln_kmat_resolve(&child, &base, a, &out, &err);
            if (r == KILN_OK) {
                kiln_kmat_free(&out);
                kt_counting_assert_clean(&c);
                assert_int_equal(c.failures, 0);
                break;
            }
            assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
            kt_counting_assert_clean(&c);
            failures++;
        }
        assert_true(failures > 10);
    }
    kiln_kmat_free(&child);
    kiln_kmat_free(&base);

    /* the packer too */
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    kiln_kmat m;
    parse_ok("{\"vertex\": \"a\", \"fragment\": \"b\", \"parameters\": {\"lights[1].color\": "
             "[1, 2, 3], \"extra\": [1, 1, 1, 1]}}",
             &m);
    kiln_material_param ps[2];
    for (size_t i = 0; i < 2; i++)
        ps[i] = (kiln_material_param){m.params[i].name, &m.params[i].value, 0, m.params[i].pointer};
    for (size_t n = 1;; n++) {
        kt_counting c;
        const kiln_allocator *a = kt_counting_init(&c, false);
        c.fail_at = n;
        uint8_t *out;
        size_t size;
        kiln_error err;
        kiln_result r = kiln_material_block_pack(&s.view, 0, 0, ps, 2, a, &out, &size, &err);
        if (r == KILN_OK) {
            kiln_free(a, out, size);
            kt_counting_assert_clean(&c);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
        kt_counting_assert_clean(&c);
    }
    kiln_kmat_free(&m);
    mb_free(&s);
}

/* ---- values ---------------------------------------------------------------------------------- */

static void values_copy_whole_and_keep_their_strings(void **state)
{
    (void)state;
    json_t *j = json_loads("{\"a\": [1, 2.5, true, null, \"txt\"], \"b\": {\"c\": -7}}", 0, NULL);
    assert_non_null(j);
    kiln_value v, w;
    kiln_error err;
    assert_int_equal(kiln_value_from_json(j, NULL, &v, &err), KILN_OK);
    json_decref(j);
    assert_int_equal(kiln_value_copy(&v, NULL, &w, &err), KILN_OK);
    kiln_value_free(&v);
    assert_int_equal(w.node_count, 9);
    const kiln_value_node *root = &w.nodes[0], *a = kiln_value_child(&w, root, 0);
    assert_string_equal(kiln_value_string(&w, a->key), "a");
    assert_int_equal(a->count, 5);
    assert_true(kiln_value_child(&w, a, 0)->integer);
    assert_int_equal(kiln_value_child(&w, a, 0)->i, 1);
    assert_false(kiln_value_child(&w, a, 1)->integer);
    assert_true(kiln_value_child(&w, a, 1)->d == 2.5);
    assert_int_equal(kiln_value_child(&w, a, 2)->kind, KILN_VALUE_BOOL);
    assert_int_equal(kiln_value_child(&w, a, 3)->kind, KILN_VALUE_NULL);
    const kiln_value_node *txt = kiln_value_child(&w, a, 4);
    assert_int_equal(txt->kind, KILN_VALUE_STRING);
    assert_string_equal(kiln_value_string(&w, txt->first), "txt");
    assert_null(kiln_value_child(&w, a, 5));
    const kiln_value_node *b = kiln_value_child(&w, root, 1);
    assert_int_equal(kiln_value_child(&w, b, 0)->i, -7);
    assert_string_equal(kiln_value_string(&w, 9999), "");
    kiln_value_free(&w);
    kiln_value_free(&w);

    /* depth: 32 levels of arrays hold, 33 do not */
    json_t *deep = json_integer(1);
    for (int i = 0; i < 33; i++) {
        json_t *arr = json_array();
        json_array_append_new(arr, deep);
        deep = arr;
    }
    assert_int_equal(kiln_value_from_json(deep, NULL, &v, &err), KILN_E_LIMIT);
    assert_null(v.nodes);
    assert_int_equal(kiln_value_from_json(json_array_get(deep, 0), NULL, &v, &err), KILN_OK);
    assert_int_equal(v.node_count, 33);
    kiln_value_free(&v);
    json_decref(deep);
}

/* ---- end to end: a derived material packed ------------------------------------------------ */

static void a_derived_material_packs_over_its_parent(void **state)
{
    (void)state;
    mb_shader s;
    mb_build(&s, nested_frag, KILN_SHADER_FRAGMENT, 0, NULL, NULL);
    kiln_kmat base, child, out;
    parse_ok("{\"vertex\": \"a.vert\", \"fragment\": \"nested.frag\", \"parameters\": {\n"
             " \"lights\": [{\"color\": [1, 1, 1], \"intensity\": 2}, {\"color\": [3, 3, 3]}],\n"
             " \"extra\": [1, 2, 3, 4]}}",
             &base);
    parse_ok("{\"parent\": \"base.kmat\", \"parameters\": {\"lights[1].color\": [7, 8, 9], "
             "\"extra\": [5, 6, 7, 8]}}",
             &child);
    resolve_ok(&child, &base, &out);
    kiln_block_select sel = {out.block.pick, out.block.name, out.block.set, out.block.binding};
    uint32_t block;
    kiln_error err;
    assert_int_equal(kiln_material_block_find(&s.view, 0, &sel, &block, &err), KILN_OK);
    kiln_material_param ps[8];
    for (size_t i = 0; i < out.param_count; i++)
        ps[i] = (kiln_material_param){out.params[i].name, &out.params[i].value, out.params[i].depth,
                                      out.params[i].pointer};
    uint8_t *bytes;
    size_t size;
    assert_int_equal(
        kiln_material_block_pack(&s.view, 0, block, ps, out.param_count, NULL, &bytes, &size, &err),
        KILN_OK);
    assert_int_equal(size, 176);
    float f[44];
    memcpy(f, bytes, sizeof f);
    const float expected[12] = {1, 1, 1, 2, 0, 0, 0, 0, 7, 8, 9, 0}; /* lights[0], lights[1] */
    assert_memory_equal(f, expected, sizeof expected);
    const float extra[4] = {5, 6, 7, 8};
    assert_memory_equal(f + 40, extra, sizeof extra);
    kiln_free(NULL, bytes, size);

    /* a mistyped parameter in the child is reported at its pointer */
    kiln_kmat bad, out2;
    parse_ok("{\"parent\": \"base.kmat\", \"parameters\": {\"extra\": [1, 2, 3]}}", &bad);
    resolve_ok(&bad, &base, &out2);
    for (size_t i = 0; i < out2.param_count; i++)
        ps[i] = (kiln_material_param){out2.params[i].name, &out2.params[i].value,
                                      out2.params[i].depth, out2.params[i].pointer};
    assert_int_equal(kiln_material_block_pack(&s.view, 0, block, ps, out2.param_count, NULL, &bytes,
                                              &size, &err),
                     KILN_E_IMPORT_SETTINGS);
    assert_string_equal(err.json_pointer, "/parameters/extra");
    assert_non_null(strstr(err.message, "parameter \"extra\": expected 4 numbers for vec4"));
    kiln_kmat_free(&out2);
    kiln_kmat_free(&bad);
    kiln_kmat_free(&out);
    kiln_kmat_free(&child);
    kiln_kmat_free(&base);
    mb_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_case_gets_its_verdict_pointer_and_message),
        cmocka_unit_test(every_field_is_parsed_into_the_struct),
        cmocka_unit_test(defaults_follow_the_alpha_mode),
        cmocka_unit_test(a_child_overrides_its_parent_by_name_and_field),
        cmocka_unit_test(resolve_checks_the_merged_render_state),
        cmocka_unit_test(a_chain_longer_than_the_limit_is_refused),
        cmocka_unit_test(allocation_failures_leak_nothing),
        cmocka_unit_test(values_copy_whole_and_keep_their_strings),
        cmocka_unit_test(a_derived_material_packs_over_its_parent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
