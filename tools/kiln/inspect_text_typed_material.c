/* inspect_text_typed_material.c — the "typed_material" summary of a cooked typed material's
 * inspect document, for people: its two stages (shader id and variant), the parameter block
 * (kind, binding, name, size) with its bytes as 32-bit little-endian words 16 bytes a line, the
 * render state, and the texture of every binding with its image id and sampler. */
#include <stdio.h>
#include <string.h>

#include "inspect_text.h"

#define I(o, k) json_integer_value(json_object_get(o, k))
#define S(o, k) json_string_value(json_object_get(o, k))
#define B(o, k) json_is_true(json_object_get(o, k))

static const char *or_null(const char *s) { return s ? s : "null"; }

/* One row of the block: up to 16 bytes as hex pairs ("hex" strings), printed as the 32-bit
 * little-endian words a shader reads ("0x3f800000"), a short tail as bytes. */
static void print_row(size_t offset, const char *hex)
{
    size_t n = strlen(hex) / 2;
    printf("      %6zu ", offset);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        printf(" 0x%.2s%.2s%.2s%.2s", hex + 2 * i + 6, hex + 2 * i + 4, hex + 2 * i + 2,
               hex + 2 * i);
    for (; i < n; i++) printf(" %.2s", hex + 2 * i);
    putchar('\n');
}

void kiln_inspect_print_typed_material(const json_t *m)
{
    const char *name = S(m, "name");
    printf("  typed material \"%s\"\n", name ? name : "");
    static const char *const stages[] = {"vertex", "fragment"};
    for (size_t s = 0; s < 2; s++) {
        const json_t *st = json_object_get(m, stages[s]);
        printf("    %-8s shader %s variant \"%s\"\n", stages[s], or_null(S(st, "shader")),
               or_null(S(st, "variant")));
    }
    const json_t *b = json_object_get(m, "block");
    if (json_is_object(b)) {
        if (!strcmp(or_null(S(b, "kind")), "push"))
            printf("    block %s: push constants, %lld bytes\n", S(b, "name"), I(b, "size"));
        else
            printf("    block %s: uniform buffer at set %lld binding %lld, %lld bytes\n",
                   S(b, "name"), I(b, "set"), I(b, "binding"), I(b, "size"));
        size_t i;
        json_t *row;
        json_array_foreach (json_object_get(b, "hex"), i, row)
            if (json_is_string(row)) print_row(16 * i, json_string_value(row));
    } else {
        printf("    no parameter block\n");
    }
    printf("    alpha %s (cutoff %g), blend %s%s%s%s\n", or_null(S(m, "alpha_mode")),
           json_number_value(json_object_get(m, "alpha_cutoff")), or_null(S(m, "blend")),
           B(m, "double_sided") ? ", double-sided" : "", B(m, "depth_test") ? ", depth test" : "",
           B(m, "depth_write") ? ", depth write" : "");
    size_t i;
    json_t *t;
    json_array_foreach (json_object_get(m, "textures"), i, t)
        printf("    set %lld binding %-3lld %-16s image %s  mag %s min %s mip %s wrap %s/%s\n",
               I(t, "set"), I(t, "binding"), or_null(S(t, "name")), or_null(S(t, "image")),
               or_null(S(t, "mag_filter")), or_null(S(t, "min_filter")),
               or_null(S(t, "mip_filter")), or_null(S(t, "wrap_s")), or_null(S(t, "wrap_t")));
}
