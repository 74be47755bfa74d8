/* basislz_read.c — opens BasisLZ supercompression global data (KTX 2.0 specification, section
 * "BasisLZ Global Data"): a 20-byte header, 20 bytes per image, then the endpoint codebook, the
 * selector codebook, the slice Huffman tables and extended data, each as long as the header
 * says. The codebooks are coded as the "ETC1S Texture Format" page of Basis Universal's wiki
 * describes: endpoints as Huffman-coded deltas from the previous entry, selectors raw or as
 * Huffman-coded XOR deltas. docs/basis.md lays it out byte by byte. */
#include <string.h>

#include "codec/basislz_internal.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"

#define SGD_HEADER_SIZE 20u
#define SGD_IMAGE_SIZE  20u

static kiln_result bad(kiln_error *err, uint64_t offset, const char *what)
{
    return kiln_error_bad_bytes(err, "BasisLZ", offset, "%s", what);
}

/* Fills the ETC1 byte form and the selector range of s from its rows. */
static void selector_finish(kiln_etc1s_selector *s)
{
    /* Selector 0..3 (ascending) as an ETC1 texel index: -b 3, -a 2, +a 0, +b 1. */
    static const uint8_t to_etc1[4] = {3, 2, 0, 1};
    uint32_t msb = 0, lsb = 0, used = 0;
    for (uint32_t y = 0; y < 4; y++) {
        for (uint32_t x = 0; x < 4; x++) {
            uint32_t v = (s->rows[y] >> (2 * x)) & 3, e = to_etc1[v], bit = x * 4 + y;
            msb |= (e >> 1) << bit;
            lsb |= (e & 1) << bit;
            used |= 1u << v;
        }
    }
    s->etc1[0] = (uint8_t)(msb >> 8);
    s->etc1[1] = (uint8_t)msb;
    s->etc1[2] = (uint8_t)(lsb >> 8);
    s->etc1[3] = (uint8_t)lsb;
    s->lo = 3;
    s->hi = 0;
    s->unique = 0;
    for (uint8_t v = 0; v < 4; v++) {
        if (!(used >> v & 1)) continue;
        s->unique++;
        if (v < s->lo) s->lo = v;
        if (v > s->hi) s->hi = v;
    }
}

static kiln_result read_endpoints(kiln_basislz *g, const uint8_t *data, size_t size,
                                  uint64_t offset, const kiln_allocator *al, kiln_error *err)
{
    kiln_blz_bits b;
    kiln_blz_bits_init(&b, data, size);
    kiln_blz_huff models[4]; /* colour deltas after a previous value <= 9, <= 21, above; inten */
    memset(models, 0, sizeof models);
    kiln_result r = KILN_OK;
    bool oom = false;
    for (int i = 0; i < 4 && r == KILN_OK; i++) {
        if (!kiln_blz_huff_read(&models[i], &b, al, &oom) || models[i].sym_count == 0)
            r = oom ? kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "BasisLZ: out of memory")
                    : bad(err, offset, "endpoint codebook: a Huffman table is malformed");
    }
    if (r == KILN_OK) {
        bool gray = kiln_blz_get(&b, 1) != 0;
        uint8_t prev[3] = {16, 16, 16}, prev_inten = 0;
        for (uint32_t i = 0; i < g->endpoint_count && r == KILN_OK; i++) {
            kiln_etc1s_endpoint *e = &g->endpoints[i];
            uint32_t d = kiln_blz_huff_decode(&models[3], &b);
            e->inten = (uint8_t)((d + prev_inten) & 7);
            prev_inten = e->inten;
            for (uint32_t c = 0; c < (gray ? 1u : 3u); c++) {
                const kiln_blz_huff *m = prev[c] <= 9    ? &models[0]
                                         : prev[c] <= 21 ? &models[1]
                                                         : &models[2];
                uint32_t dc = kiln_blz_huff_decode(m, &b);
                if (d == UINT32_MAX || dc == UINT32_MAX) {
                    r = bad(err, offset, "endpoint codebook: an undefined Huffman code");
                    break;
                }
                e->c5[c] = (uint8_t)((prev[c] + dc) & 31);
                prev[c] = e->c5[c];
            }
            if (gray) e->c5[1] = e->c5[2] = e->c5[0];
        }
        if (r == KILN_OK && b.over) r = bad(err, offset, "endpoint codebook: bits run out");
    }
    for (int i = 0; i < 4; i++) kiln_blz_huff_free(&models[i], al);
    return r;
}

static kiln_result read_selectors(kiln_basislz *g, const uint8_t *data, size_t size,
                                  uint64_t offset, const kiln_allocator *al, kiln_error *err)
{
    kiln_blz_bits b;
    kiln_blz_bits_init(&b, data, size);
    if (kiln_blz_get(&b, 1))
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "BasisLZ: a global selector codebook (not in KTX2 files)");
    if (kiln_blz_get(&b, 1))
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "BasisLZ: a hybrid selector codebook (not in KTX2 files)");
    bool raw = kiln_blz_get(&b, 1) != 0;
    kiln_blz_huff model;
    memset(&model, 0, sizeof model);
    bool oom = false;
    if (!raw && !kiln_blz_huff_read(&model, &b, al, &oom)) {
        kiln_blz_huff_free(&model, al);
        return oom ? kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "BasisLZ: out of memory")
                   : bad(err, offset, "selector codebook: the Huffman table is malformed");
    }
    uint8_t prev[4] = {0, 0, 0, 0};
    kiln_result r = KILN_OK;
    for (uint32_t i = 0; i < g->selector_count && r == KILN_OK; i++) {
        kiln_etc1s_selector *s = &g->selectors[i];
        for (uint32_t y = 0; y < 4; y++) {
            if (raw || i == 0) {
                s->rows[y] = (uint8_t)kiln_blz_get(&b, 8);
            } else {
                /* Each row is the previous selector's row XOR a Huffman-coded byte. */
                uint32_t d = kiln_blz_huff_decode(&model, &b);
                if (d > 255) {
                    r = bad(err, offset, "selector codebook: an undefined Huffman code");
                    break;
                }
                s->rows[y] = (uint8_t)(d ^ prev[y]);
            }
            prev[y] = s->rows[y];
        }
        selector_finish(s);
    }
    if (r == KILN_OK && b.over) r = bad(err, offset, "selector codebook: bits run out");
    kiln_blz_huff_free(&model, al);
    return r;
}

static kiln_result read_tables(kiln_basislz *g, const uint8_t *data, size_t size, uint64_t offset,
                               const kiln_allocator *al, kiln_error *err)
{
    kiln_blz_bits b;
    kiln_blz_bits_init(&b, data, size);
    kiln_blz_huff *t[4] = {&g->endpoint_pred, &g->delta_endpoint, &g->selector, &g->selector_rle};
    for (int i = 0; i < 4; i++) {
        bool oom = false;
        if (!kiln_blz_huff_read(t[i], &b, al, &oom) || t[i]->sym_count == 0)
            return oom ? kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "BasisLZ: out of memory")
                       : bad(err, offset, "slice tables: a Huffman table is malformed");
    }
    g->history_size = kiln_blz_get(&b, 13);
    if (b.over) return bad(err, offset, "slice tables: bits run out");
    if (g->history_size == 0) return bad(err, offset, "slice tables: a selector history of 0");
    if (g->history_size > KILN_BASISLZ_MAX_HISTORY)
        return kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                              "BasisLZ: a selector history of %u entries (kiln reads up to %u)",
                              g->history_size, KILN_BASISLZ_MAX_HISTORY);
    return KILN_OK;
}

kiln_result kiln_basislz_open(const uint8_t *sgd, size_t sgd_size, uint32_t image_count,
                              const kiln_allocator *al, kiln_basislz **out, kiln_error *err)
{
    if (!out || (!sgd && sgd_size))
        return kiln_error_set(err, KILN_E_USAGE, "kiln_basislz_open: NULL argument");
    *out = NULL;
    kiln_reader rd = kiln_reader_make(sgd, sgd_size);
    const uint8_t *h = kiln_reader_take(&rd, SGD_HEADER_SIZE);
    if (!h) return bad(err, 0, "the global data is shorter than its 20-byte header");
    uint32_t endpoint_count = kiln_load_u16le(h), selector_count = kiln_load_u16le(h + 2);
    uint32_t lengths[4] = {kiln_load_u32le(h + 4), kiln_load_u32le(h + 8), kiln_load_u32le(h + 12),
                           kiln_load_u32le(h + 16)};
    if (endpoint_count == 0 || selector_count == 0)
        return bad(err, 0, "an empty endpoint or selector codebook");
    if (image_count == 0) return bad(err, 0, "no images");
    /* Every length against the bytes there are, before any allocation. */
    uint64_t need = SGD_HEADER_SIZE + (uint64_t)SGD_IMAGE_SIZE * image_count;
    for (int i = 0; i < 4; i++) need += lengths[i];
    if (need > sgd_size)
        return bad(err, 0, "the image descriptors and codebooks run past the global data");

    kiln_basislz *g = kiln_calloc(al, 1, sizeof *g);
    if (!g) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "BasisLZ: out of memory");
    g->endpoint_count = endpoint_count;
    g->selector_count = selector_count;
    g->image_count = image_count;
    g->endpoints = kiln_calloc(al, endpoint_count, sizeof *g->endpoints);
    g->selectors = kiln_calloc(al, selector_count, sizeof *g->selectors);
    g->images = kiln_calloc(al, image_count, sizeof *g->images);
    kiln_result r = KILN_OK;
    if (!g->endpoints || !g->selectors || !g->images)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "BasisLZ: out of memory");

    uint32_t with_alpha = 0;
    for (uint32_t i = 0; i < image_count && r == KILN_OK; i++) {
        uint64_t at = rd.pos;
        const uint8_t *d = kiln_reader_take(&rd, SGD_IMAGE_SIZE);
        kiln_blz_image *im = &g->images[i];
        im->flags = kiln_load_u32le(d);
        im->rgb_offset = kiln_load_u32le(d + 4);
        im->rgb_length = kiln_load_u32le(d + 8);
        im->alpha_offset = kiln_load_u32le(d + 12);
        im->alpha_length = kiln_load_u32le(d + 16);
        if (im->flags & KILN_BASISLZ_P_FRAME)
            r = kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                               "BasisLZ: image %u is a P-frame (ETC1S video); kiln reads "
                               "only I-frames",
                               i);
        else if (im->rgb_length == 0) r = bad(err, at + 8, "an image without a colour slice");
        with_alpha += im->alpha_length != 0;
    }
    if (r == KILN_OK && with_alpha != 0 && with_alpha != image_count)
        r = bad(err, SGD_HEADER_SIZE, "some images have an alpha slice and some do not");
    g->has_alpha = with_alpha == image_count;

    uint64_t at = rd.pos;
    const uint8_t *ep = kiln_reader_take(&rd, lengths[0]);
    const uint8_t *sp = kiln_reader_take(&rd, lengths[1]);
    const uint8_t *tp = kiln_reader_take(&rd, lengths[2]);
    if (r == KILN_OK) r = read_endpoints(g, ep, lengths[0], at, al, err);
    if (r == KILN_OK) r = read_selectors(g, sp, lengths[1], at + lengths[0], al, err);
    if (r == KILN_OK) r = read_tables(g, tp, lengths[2], at + lengths[0] + lengths[1], al, err);
    if (r != KILN_OK) {
        kiln_basislz_close(g, al);
        return r;
    }
    *out = g;
    return KILN_OK;
}

void kiln_basislz_close(kiln_basislz *g, const kiln_allocator *al)
{
    if (!g) return;
    kiln_free(al, g->endpoints, (size_t)g->endpoint_count * sizeof *g->endpoints);
    kiln_free(al, g->selectors, (size_t)g->selector_count * sizeof *g->selectors);
    kiln_free(al, g->images, (size_t)g->image_count * sizeof *g->images);
    kiln_blz_huff_free(&g->endpoint_pred, al);
    kiln_blz_huff_free(&g->delta_endpoint, al);
    kiln_blz_huff_free(&g->selector, al);
    kiln_blz_huff_free(&g->selector_rle, al);
    kiln_free(al, g, sizeof *g);
}

uint32_t kiln_basislz_image_count(const kiln_basislz *g) { return g ? g->image_count : 0; }

bool kiln_basislz_has_alpha(const kiln_basislz *g) { return g && g->has_alpha; }

size_t kiln_basislz_output_size(kiln_basis_target target, uint32_t width, uint32_t height)
{
    size_t n = 0, per;
    switch (target) {
    case KILN_BASIS_TARGET_RGBA8:
        return kiln_size_mul((size_t)width * 4, height, &n) ? n : 0;
    case KILN_BASIS_TARGET_BC1:
    case KILN_BASIS_TARGET_BC4:
    case KILN_BASIS_TARGET_ETC1:
    case KILN_BASIS_TARGET_EAC_R11:
        per = 8;
        break;
    case KILN_BASIS_TARGET_ASTC_4X4:
    case KILN_BASIS_TARGET_BC7:
    case KILN_BASIS_TARGET_BC3:
    case KILN_BASIS_TARGET_BC5:
    case KILN_BASIS_TARGET_ETC2_RGBA:
    case KILN_BASIS_TARGET_EAC_RG11:
        per = 16;
        break;
    default:
        return 0;
    }
    size_t bx = ((size_t)width + 3) / 4, by = ((size_t)height + 3) / 4;
    return kiln_size_mul(bx * by, per, &n) ? n : 0;
}
