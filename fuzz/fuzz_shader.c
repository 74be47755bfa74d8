/* fuzz_shader.c — libFuzzer target for kiln_shader_read and its accessors: any input gives an
 * error or a shader whose every variant, word and reflection record can be read, every name is
 * a string inside the input, every index is inside its table, and every walk down a block's
 * struct members ends within the block's depth. Checked with the checksum and without it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NONE KILN_SHADER_NONE

static void check_variant(const kiln_shader_view *v, uint32_t vi)
{
    kiln_shader_variant_info x = kiln_shader_variant_at(v, vi);
    if (!x.name || !*x.name || !x.defines || x.word_count < 5) abort();
    uint32_t *w = malloc(x.word_count * sizeof *w);
    if (!w || kiln_shader_variant_words(v, vi, w, x.word_count) != x.word_count ||
        w[0] != KILN_SHADER_SPIRV_MAGIC || (x.words && memcmp(w, x.words, x.word_count * 4)))
        abort();
    free(w);
    if (kiln_shader_find_variant(v, x.name) != (int32_t)vi) abort();
    if (x.push_block != NONE && x.push_block >= x.block_count) abort();
    for (uint32_t i = 0; i < x.binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(v, vi, i);
        if (strlen(b.name) >= v->strings_size || b.resource >= KILN_SHADER_RESOURCE_COUNT ||
            (b.block != NONE && b.block >= x.block_count))
            abort();
    }
    for (uint32_t b = 0; b < x.block_count; b++) {
        kiln_shader_block_info bk = kiln_shader_block_at(v, vi, b);
        if (!bk.name || bk.depth > KILN_SHADER_MAX_DEPTH ||
            (uint64_t)bk.first_member + bk.member_count > x.member_count)
            abort();
        uint32_t at = b, steps = 0;
        for (;;) { /* down the last struct member of each level */
            kiln_shader_block_info cur = kiln_shader_block_at(v, vi, at);
            uint32_t next = NONE;
            for (uint32_t m = 0; m < cur.member_count; m++) {
                uint32_t sb = kiln_shader_member_at(v, vi, cur.first_member + m).struct_block;
                if (sb != NONE) next = sb;
            }
            if (next == NONE) break;
            if (next >= x.block_count || kiln_shader_block_at(v, vi, next).depth >= cur.depth ||
                ++steps > bk.depth)
                abort();
            at = next;
        }
    }
    for (uint32_t i = 0; i < x.member_count; i++)
        if (!kiln_shader_member_at(v, vi, i).name) abort();
    for (uint32_t i = 0; i < x.input_count; i++)
        if (!kiln_shader_input_at(v, vi, i).name) abort();
    for (uint32_t i = 0; i < x.output_count; i++)
        if (!kiln_shader_output_at(v, vi, i).name) abort();
    for (uint32_t i = 0; i < x.constant_count; i++)
        if (!kiln_shader_constant_at(v, vi, i).name) abort();
    if (kiln_shader_binding_at(v, vi, x.binding_count).name) abort();
}

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_shader_view v;
    kiln_error err;
    kiln_result r = kiln_shader_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    if (!v.entry || !*v.entry || v.stage >= KILN_SHADER_STAGE_COUNT || v.variant_count == 0)
        abort();
    for (uint32_t i = 0; i < v.variant_count; i++) check_variant(&v, i);
    if (kiln_shader_variant_at(&v, v.variant_count).name) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
