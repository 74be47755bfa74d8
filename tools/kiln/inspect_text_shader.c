/* inspect_text_shader.c — the "shader" summary of a cooked shader's inspect document, for
 * people: the stage and entry point, then per variant its SPIR-V size, workgroup size,
 * descriptor bindings by set, every block with its members' offsets and types, push and
 * specialization constants, inputs and outputs by location. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "inspect_text.h"

#define I(o, k) json_integer_value(json_object_get(o, k))
#define S(o, k) json_string_value(json_object_get(o, k))
#define B(o, k) json_is_true(json_object_get(o, k))

/* "float", "float3", "float4x4", "struct Light" (the name of block struct_block). */
static void type_name(const json_t *x, const json_t *blocks, char *out, size_t cap)
{
    const char *t = S(x, "type");
    if (t && !strcmp(t, "struct")) {
        const json_t *sb = json_object_get(x, "struct_block");
        const json_t *b =
            json_is_integer(sb) ? json_array_get(blocks, (size_t)json_integer_value(sb)) : NULL;
        snprintf(out, cap, "struct %s", b ? S(b, "name") : "?");
        return;
    }
    long long vec = I(x, "vec_size"), cols = I(x, "columns");
    if (cols > 1) snprintf(out, cap, "%s%lldx%lld", t ? t : "?", vec, cols);
    else if (vec > 1) snprintf(out, cap, "%s%lld", t ? t : "?", vec);
    else snprintf(out, cap, "%s", t ? t : "?");
}

/* "[4]", "[]" for a runtime-sized array, "" when not an array. */
static void array_suffix(long long count, char *out, size_t cap)
{
    if (count == 1) out[0] = '\0';
    else if (count == 0) snprintf(out, cap, "[]");
    else snprintf(out, cap, "[%lld]", count);
}

static void print_bindings(const json_t *bindings, const json_t *blocks)
{
    size_t i;
    json_t *b;
    json_array_foreach (bindings, i, b) {
        char arr[32];
        array_suffix(I(b, "count"), arr, sizeof arr);
        printf("    set %lld binding %-3lld %-22s %s%s", I(b, "set"), I(b, "binding"), S(b, "type"),
               S(b, "name"), arr);
        const json_t *blk = json_object_get(b, "block");
        if (json_is_integer(blk)) {
            const json_t *bk = json_array_get(blocks, (size_t)json_integer_value(blk));
            printf(" -> block %s", bk ? S(bk, "name") : "?");
        }
        if (I(b, "image_dim")) {
            static const char *const dims[] = {"", "1D", "2D", "3D", "cube", "buffer", "subpass"};
            long long d = I(b, "image_dim");
            printf(" (%s%s%s%s)", d > 0 && d < 7 ? dims[d] : "?",
                   I(b, "image_flags") & 1 ? " array" : "", I(b, "image_flags") & 2 ? " ms" : "",
                   I(b, "image_flags") & 4 ? " depth" : "");
        }
        if (json_is_integer(json_object_get(b, "input_attachment")))
            printf(" input attachment %lld", I(b, "input_attachment"));
        if (B(b, "readonly")) printf(" readonly");
        if (B(b, "writeonly")) printf(" writeonly");
        putchar('\n');
    }
}

static void print_blocks(const json_t *blocks)
{
    size_t i, m;
    json_t *b, *mb;
    json_array_foreach (blocks, i, b) {
        printf("    block %zu %s (%s, %lld bytes)\n", i, S(b, "name"), S(b, "layout"),
               I(b, "size"));
        json_array_foreach (json_object_get(b, "members"), m, mb) {
            char type[160], arr[32];
            type_name(mb, blocks, type, sizeof type);
            array_suffix(I(mb, "array_count"), arr, sizeof arr);
            printf("      %6lld  %-16s %s%s (", I(mb, "offset"), type, S(mb, "name"), arr);
            if (I(mb, "array_count") == 0 && I(mb, "size") == 0) printf("runtime-sized");
            else printf("%lld bytes", I(mb, "size"));
            if (I(mb, "array_stride")) printf(", array stride %lld", I(mb, "array_stride"));
            if (I(mb, "matrix_stride")) printf(", matrix stride %lld", I(mb, "matrix_stride"));
            if (B(mb, "row_major")) printf(", row-major");
            printf(")\n");
        }
    }
}

static void print_io(const char *what, const json_t *list, const json_t *blocks)
{
    size_t i;
    json_t *x;
    json_array_foreach (list, i, x) {
        char type[160], arr[32];
        type_name(x, blocks, type, sizeof type);
        array_suffix(I(x, "array_count"), arr, sizeof arr);
        if (json_is_integer(json_object_get(x, "location")))
            printf("    %s location %lld", what, I(x, "location"));
        else printf("    %s (no location)", what);
        if (I(x, "component")) printf(" component %lld", I(x, "component"));
        printf("  %s %s%s%s%s\n", type, S(x, "name"), arr, B(x, "flat") ? " flat" : "",
               B(x, "per_primitive") ? " per-primitive" : "");
    }
}

static void print_variant(const json_t *v)
{
    const char *defines = S(v, "defines");
    printf("  variant \"%s\" (defines: %s): SPIR-V %lld words, %lld bytes\n", S(v, "name"),
           defines && *defines ? defines : "none", I(v, "word_count"), 4 * I(v, "word_count"));
    const json_t *wg = json_object_get(v, "workgroup"),
                 *spec = json_object_get(v, "workgroup_spec");
    bool any = false;
    for (size_t k = 0; k < 3; k++)
        any |= json_integer_value(json_array_get(wg, k)) != 0 ||
               json_is_integer(json_array_get(spec, k));
    if (any) {
        printf("    workgroup");
        for (size_t k = 0; k < 3; k++) {
            const json_t *s = json_array_get(spec, k);
            if (json_is_integer(s)) printf("%s spec(%lld)", k ? " x" : "", json_integer_value(s));
            else printf("%s %lld", k ? " x" : "", json_integer_value(json_array_get(wg, k)));
        }
        putchar('\n');
    }
    const json_t *blocks = json_object_get(v, "blocks");
    print_bindings(json_object_get(v, "bindings"), blocks);
    const json_t *push = json_object_get(v, "push_block");
    if (json_is_integer(push)) {
        const json_t *bk = json_array_get(blocks, (size_t)json_integer_value(push));
        printf("    push constants: block %s, %lld bytes used\n", bk ? S(bk, "name") : "?",
               I(v, "push_size"));
    }
    print_blocks(blocks);
    print_io("input ", json_object_get(v, "inputs"), blocks);
    print_io("output", json_object_get(v, "outputs"), blocks);
    size_t i;
    json_t *c;
    json_array_foreach (json_object_get(v, "constants"), i, c) {
        const json_t *bits = json_object_get(c, "default_bits");
        const char *name = S(c, "name");
        printf("    spec constant %lld %s %s = 0x%08llx", I(c, "id"), S(c, "type"),
               name && *name ? name : "(unnamed)",
               (unsigned long long)json_integer_value(json_array_get(bits, 0)));
        if (json_integer_value(json_array_get(bits, 1)))
            printf(" 0x%08llx", (unsigned long long)json_integer_value(json_array_get(bits, 1)));
        putchar('\n');
    }
}

void kiln_inspect_print_shader(const json_t *s)
{
    const json_t *variants = json_object_get(s, "variants");
    size_t n = json_array_size(variants);
    printf("  shader: %s stage, entry \"%s\", %s for %s, optimize %s%s, %zu variant%s\n",
           S(s, "stage"), S(s, "entry"), S(s, "language"), S(s, "target"), S(s, "optimize"),
           B(s, "debug_info") ? ", debug info" : "", n, n == 1 ? "" : "s");
    size_t i;
    json_t *v;
    json_array_foreach (variants, i, v) print_variant(v);
}
