/* rt_type_shader.c — the shader type: container SHDR (the shader cooked kind, a .kshader)
 * decoded into krt_shader_data — the validated view, which carries each variant's reflection,
 * and every variant's SPIR-V words in host order, 4-byte aligned — and handed to the renderer's
 * *_shader callbacks (krt_desc.renderer_shaders). A shader refers to nothing.
 *
 * The words are used in place when kiln_shader_variant_at can point into the file (aligned
 * bytes on a little-endian host: a read or mapped cache file, a raw pack entry). Otherwise the
 * job copies them once, here, with kiln_shader_variant_words, so the renderer thread never
 * converts anything. All of a file's variants share its alignment, so either every variant is
 * in place or every one is copied.
 *
 * Typed materials that name shaders (later work) get their objects rebuilt when a shader
 * reloads: this type sets KRT_TYPE_OPS_REBUILD_DEPENDENTS, so once the material kind's refs
 * list its shaders with KILN_REF_LOAD, a shader's reload walks its dependents and rebuilds each
 * ready material through its link_gpu and replace_material, as a texture's reload does today. */
#include <string.h>

#include "codec/cooked_kind.h"
#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

/* One block: the variant records, then (when they cannot be used in place) the words of every
 * variant one after another. */
static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_shader_decoded *s = &a->data.shader;
    kiln_result r =
        krt_type_shader.kind->read(a->dec.file, a->dec.file_size, x->flags, &s->view, err);
    if (r) return r;
    uint32_t n = s->view.variant_count;
    bool copy = kiln_shader_variant_at(&s->view, 0).words == NULL;
    size_t head, words = 0, total;
    if (!kiln_size_mul(n, sizeof *s->block, &head) ||
        (copy && !kiln_size_mul((size_t)s->view.word_count, 4, &words)) ||
        !kiln_size_add(head, words, &total))
        return kiln_error_set(err, KILN_E_LIMIT, "the shader's %u variants are too large", n);
    s->block = kiln_alloc_large(x->alloc, total);
    if (!s->block)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                              "out of memory for %zu bytes of shader variants", total);
    s->block_size = total;
    a->dec.resident += total;
    /* head is a multiple of 8 (the records' alignment), so the words after it are aligned */
    uint32_t *dst = (uint32_t *)(void *)((uint8_t *)s->block + head);
    size_t left = words / 4;
    for (uint32_t i = 0; i < n; i++) {
        kiln_shader_variant_info v = kiln_shader_variant_at(&s->view, i);
        krt_shader_variant *o = &s->block[i];
        o->name = v.name;
        o->word_count = v.word_count;
        o->words = v.words;
        if (!copy) continue;
        /* the reader checked that the variants' word ranges cover the words section */
        if (KILN_NEVER(v.word_count > left))
            return kiln_error_set(err, KILN_E_FORMAT_INVALID, "variant %u's words overrun", i);
        kiln_shader_variant_words(&s->view, i, dst, left);
        o->words = dst;
        dst += v.word_count;
        left -= v.word_count;
    }
    s->data.view = &s->view;
    s->data.variants = s->block;
    s->data.variant_count = n;
    return KILN_OK;
}

static const void *view(const krt_asset *a) { return &a->data.shader.view; }

static void free_block(krt_asset *a, const kiln_allocator *al)
{
    kiln_free_large(al, a->data.shader.block, a->data.shader.block_size);
}

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_shader_decoded, a->data.shader, b->data.shader);
    /* the record points at the view beside it */
    if (a->data.shader.data.view) a->data.shader.data.view = &a->data.shader.view;
    if (b->data.shader.data.view) b->data.shader.data.view = &b->data.shader.view;
}

KRT_TYPE_RENDERER_OPS_IN(shader, renderer_shaders)

const krt_type_ops krt_type_shader = {
    .kind = &kiln_cooked_kind_shader,
    .flags = KRT_TYPE_OPS_REBUILD_DEPENDENTS,
    .decode = decode,
    .view = view,
    .free = free_block,
    .swap = swap,
    .create = create,
    .replace = replace,
    .destroy = destroy,
};

KRT_TYPE_API(shader, KRT_TYPE_SHADER, krt_shader_data, a->data.shader.data)
