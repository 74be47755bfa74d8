/* image_exr.c — OpenEXR (OpenEXR 2 file layout) through the OpenEXR 3.1 core C API, reading
 * from memory with a custom read function: the first part, scanline or tiled (level 0 of
 * mip/rip-mapped files), channels R, G, B, A or Y (luminance, copied to R, G and B) of type
 * half, float or uint, into linear KILN_PIXEL_F32 RGBA. A missing A is 1, a missing colour
 * channel 0. Deep data and subsampled (chroma) channels are refused as unsupported. The library
 * is opened on the first EXR (exr_dl.c), not linked. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/reader.h"
#include "import/exr_dl.h"
#include "import/image_private.h"

typedef struct exr_source {
    const kiln_exr_api *api;
    const uint8_t *data;
    size_t size;
    char message[160]; /* the library's last error text, from the error handler */
} exr_source;

static int64_t exr_mem_read(exr_const_context_t ctxt, void *user, void *buffer, uint64_t sz,
                            uint64_t offset, exr_stream_error_func_ptr_t error_cb)
{
    const exr_source *src = user;
    if (offset >= src->size) return 0;
    size_t n = src->size - (size_t)offset;
    if (sz < n) n = (size_t)sz;
    memcpy(buffer, src->data + offset, n);
    return (int64_t)n;
}

static int64_t exr_mem_size(exr_const_context_t ctxt, void *user)
{
    const exr_source *src = user;
    return (int64_t)src->size;
}

/* Keeps the library's message (it would otherwise print to stderr). */
static void exr_on_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    /* Only a loaded library calls this, so the table is there. */
    const kiln_exr_api *api = NULL;
    void *user = NULL;
    if (!ctxt || kiln_exr_api_get(&api, NULL) != KILN_OK ||
        api->get_user_data(ctxt, &user) != EXR_ERR_SUCCESS || !user)
        return;
    exr_source *src = user;
    snprintf(src->message, sizeof src->message, "%s", msg ? msg : "");
}

static kiln_result exr_fail(kiln_error *err, const exr_source *src, exr_result_t rv,
                            const char *stage)
{
    kiln_result code = rv == EXR_ERR_OUT_OF_MEMORY ? KILN_E_OUT_OF_MEMORY : KILN_E_IMPORT_FAILED;
    if (src->message[0]) return kiln_error_set(err, code, "EXR: %s: %s", stage, src->message);
    return kiln_error_set(err, code, "EXR: %s: %s", stage, src->api->get_default_error_message(rv));
}

enum { EXR_R, EXR_G, EXR_B, EXR_A, EXR_Y, EXR_SLOTS };

/* Which output slot a channel name fills, or -1. */
static int exr_slot(const char *name)
{
    static const char *const names[EXR_SLOTS] = {"R", "G", "B", "A", "Y"};
    for (int i = 0; i < EXR_SLOTS; i++)
        if (name && strcmp(name, names[i]) == 0) return i;
    return -1;
}

typedef struct exr_layout {
    int64_t min_x, min_y, width, height;
    bool present[EXR_SLOTS]; /* slots that are read; with R/G/B present, Y is ignored */
} exr_layout;

/* IEEE 754 binary16 to float, exact for every value (subnormals, infinities, NaN). */
static float exr_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign;
    } else { /* subnormal: renormalise */
        exp = 113;
        while (!(mant & 0x400u)) {
            mant <<= 1;
            exp--;
        }
        bits = sign | (exp << 23) | ((mant & 0x3FFu) << 13);
    }
    return kiln_f32_from_bits(bits);
}

/* The library only reads and decompresses a chunk; the unpacking is done here, from the
 * decompressed bytes whose layout the OpenEXR file layout fixes: for each line of the chunk,
 * each channel in channel-list order, that line's samples, little-endian. (The 3.1 library's
 * own unpackers crash on some damaged files, and doing it here checks every size.) */
static kiln_result exr_unpack_chunk(const exr_decode_pipeline_t *dec, const exr_layout *lay,
                                    kiln_image *out, int64_t x0, int64_t y0, kiln_error *err)
{
    int64_t cw = dec->chunk.width, chh = dec->chunk.height;
    if (cw <= 0 || chh <= 0 || x0 < 0 || y0 < 0 || x0 + cw > lay->width || y0 + chh > lay->height)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "EXR: a chunk of %lldx%lld at (%lld, %lld) lies outside the "
                              "%lldx%lld data window",
                              (long long)cw, (long long)chh, (long long)x0, (long long)y0,
                              (long long)lay->width, (long long)lay->height);
    uint64_t line = 0;
    for (int c = 0; c < dec->channel_count; c++) {
        const exr_coding_channel_info_t *ch = &dec->channels[c];
        if (ch->width != cw || ch->height != chh ||
            (ch->bytes_per_element != 2 && ch->bytes_per_element != 4))
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "EXR: channel %s has an unexpected chunk layout",
                                  ch->channel_name ? ch->channel_name : "?");
        line += (uint64_t)cw * (uint64_t)ch->bytes_per_element;
    }
    uint64_t need = line * (uint64_t)chh;
    if (!dec->unpacked_buffer || dec->chunk.unpacked_size != need)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "EXR: a chunk decompresses to %llu bytes, its lines need %llu",
                              (unsigned long long)dec->chunk.unpacked_size,
                              (unsigned long long)need);
    const uint8_t *src = dec->unpacked_buffer;
    float *px = out->pixels;
    for (int64_t y = 0; y < chh; y++) {
        float *row = px + ((size_t)(y0 + y) * (size_t)lay->width + (size_t)x0) * 4;
        for (int c = 0; c < dec->channel_count; c++) {
            const exr_coding_channel_info_t *ch = &dec->channels[c];
            size_t bpe = (size_t)ch->bytes_per_element;
            int slot = exr_slot(ch->channel_name);
            if (slot < 0 || !lay->present[slot]) {
                src += bpe * (size_t)cw;
                continue;
            }
            int comp = slot == EXR_Y ? EXR_R : slot; /* Y goes to R, copied to G, B later */
            for (int64_t x = 0; x < cw; x++, src += bpe) {
                uint32_t u = bpe == 2 ? kiln_load_u16le(src) : kiln_load_u32le(src);
                float v;
                if (ch->data_type == EXR_PIXEL_HALF) v = exr_half_to_float((uint16_t)u);
                else if (ch->data_type == EXR_PIXEL_UINT) v = (float)u;
                else v = kiln_f32_from_bits(u);
                row[(size_t)x * 4 + (size_t)comp] = v;
            }
        }
    }
    return KILN_OK;
}

static kiln_result exr_run_chunk(exr_context_t ctx, exr_source *src, exr_decode_pipeline_t *dec,
                                 bool *initialised, const exr_chunk_info_t *cinfo,
                                 const exr_layout *lay, kiln_image *out, int64_t x0, int64_t y0,
                                 kiln_error *err)
{
    exr_result_t rv = *initialised ? src->api->decoding_update(ctx, 0, cinfo, dec)
                                   : src->api->decoding_initialize(ctx, 0, cinfo, dec);
    if (rv != EXR_ERR_SUCCESS) return exr_fail(err, src, rv, "preparing a chunk");
    *initialised = true;
    /* Default read and decompress routines, with no channel bound, so no library unpacking. */
    for (int c = 0; c < dec->channel_count; c++) dec->channels[c].decode_to_ptr = NULL;
    rv = src->api->decoding_choose_default_routines(ctx, 0, dec);
    if (rv != EXR_ERR_SUCCESS) return exr_fail(err, src, rv, "choosing the decoder");
    dec->unpack_and_convert_fn = NULL;
    rv = src->api->decoding_run(ctx, 0, dec);
    if (rv != EXR_ERR_SUCCESS) return exr_fail(err, src, rv, "decoding a chunk");
    return exr_unpack_chunk(dec, lay, out, x0, y0, err);
}

static kiln_result exr_decode_pixels(exr_context_t ctx, exr_source *src, exr_storage_t storage,
                                     const exr_layout *lay, kiln_image *out, kiln_error *err)
{
    exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
    bool initialised = false;
    kiln_result r = KILN_OK;
    exr_result_t rv;
    exr_chunk_info_t cinfo;

    if (storage == EXR_STORAGE_SCANLINE) {
        int32_t lines = 0;
        rv = src->api->get_scanlines_per_chunk(ctx, 0, &lines);
        if (rv != EXR_ERR_SUCCESS || lines <= 0) {
            r = exr_fail(err, src, rv ? rv : EXR_ERR_INVALID_ATTR, "reading lines per chunk");
            goto done;
        }
        for (int64_t y = lay->min_y; y < lay->min_y + lay->height && r == KILN_OK; y += lines) {
            rv = src->api->read_scanline_chunk_info(ctx, 0, (int)y, &cinfo);
            if (rv != EXR_ERR_SUCCESS) {
                r = exr_fail(err, src, rv, "reading a scanline chunk's header");
                break;
            }
            r = exr_run_chunk(ctx, src, &dec, &initialised, &cinfo, lay, out,
                              (int64_t)cinfo.start_x - lay->min_x,
                              (int64_t)cinfo.start_y - lay->min_y, err);
        }
    } else {
        int32_t tw = 0, th = 0;
        rv = src->api->get_tile_sizes(ctx, 0, 0, 0, &tw, &th);
        if (rv != EXR_ERR_SUCCESS || tw <= 0 || th <= 0) {
            r = exr_fail(err, src, rv ? rv : EXR_ERR_INVALID_ATTR, "reading the tile size");
            goto done;
        }
        int64_t nx = (lay->width + tw - 1) / tw, ny = (lay->height + th - 1) / th;
        for (int64_t ty = 0; ty < ny && r == KILN_OK; ty++) {
            for (int64_t tx = 0; tx < nx && r == KILN_OK; tx++) {
                rv = src->api->read_tile_chunk_info(ctx, 0, (int)tx, (int)ty, 0, 0, &cinfo);
                if (rv != EXR_ERR_SUCCESS) {
                    r = exr_fail(err, src, rv, "reading a tile's header");
                    break;
                }
                r = exr_run_chunk(ctx, src, &dec, &initialised, &cinfo, lay, out, tx * tw, ty * th,
                                  err);
            }
        }
    }
done:
    if (initialised) src->api->decoding_destroy(ctx, &dec);
    return r;
}

kiln_result kiln_image_decode_exr(const void *data, size_t size, const kiln_image_limits *lim,
                                  bool header_only, kiln_image *out, kiln_error *err)
{
    exr_source src = {NULL, data, size, {0}};
    kiln_result r = kiln_exr_api_get(&src.api, err);
    if (r != KILN_OK) return r;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = exr_on_error;
    init.user_data = &src;
    init.read_fn = exr_mem_read;
    init.size_fn = exr_mem_size;
    /* Image size is left to kiln_image_check_dims, so an oversized header is KILN_E_LIMIT, not
     * a header error; the library allocates nothing by image size before the first chunk. Tiles
     * larger than the largest image kiln accepts are refused by the library as damage. */
    int dim = lim->max_dim > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)lim->max_dim;
    init.max_tile_width = dim;
    init.max_tile_height = dim;
    /* A damaged offset table is an error, not a reason to scan the file for chunks. */
    init.flags = EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION;

    exr_context_t ctx = NULL;
    exr_result_t rv = src.api->start_read(&ctx, "<memory>", &init);
    if (rv != EXR_ERR_SUCCESS) {
        r = exr_fail(err, &src, rv, "reading the header");
        goto done;
    }

    exr_storage_t storage;
    rv = src.api->get_storage(ctx, 0, &storage);
    if (rv != EXR_ERR_SUCCESS) {
        r = exr_fail(err, &src, rv, "reading the storage type");
        goto done;
    }
    if (storage != EXR_STORAGE_SCANLINE && storage != EXR_STORAGE_TILED) {
        r = kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED, "EXR: deep data is not supported");
        goto done;
    }

    exr_attr_box2i_t dw;
    rv = src.api->get_data_window(ctx, 0, &dw);
    if (rv != EXR_ERR_SUCCESS) {
        r = exr_fail(err, &src, rv, "reading the data window");
        goto done;
    }
    exr_layout lay;
    memset(&lay, 0, sizeof lay);
    lay.min_x = dw.min.x;
    lay.min_y = dw.min.y;
    lay.width = (int64_t)dw.max.x - dw.min.x + 1;
    lay.height = (int64_t)dw.max.y - dw.min.y + 1;
    r = kiln_image_check_dims(lim, "EXR", lay.width, lay.height, KILN_PIXEL_F32, NULL, err);
    if (r != KILN_OK) goto done;

    const exr_attr_chlist_t *chans = NULL;
    rv = src.api->get_channels(ctx, 0, &chans);
    if (rv != EXR_ERR_SUCCESS || !chans) {
        r = exr_fail(err, &src, rv ? rv : EXR_ERR_MISSING_REQ_ATTR, "reading the channel list");
        goto done;
    }
    uint32_t bits = 0;
    for (int i = 0; i < chans->num_channels; i++) {
        const exr_attr_chlist_entry_t *e = &chans->entries[i];
        /* Any subsampled channel changes the line layout exr_unpack_chunk relies on. */
        if (e->x_sampling != 1 || e->y_sampling != 1) {
            r = kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                               "EXR: channel %s is subsampled (%dx%d); only full-resolution "
                               "channels are supported",
                               e->name.str, e->x_sampling, e->y_sampling);
            goto done;
        }
        int slot = exr_slot(e->name.str);
        if (slot < 0) continue;
        lay.present[slot] = true;
        uint32_t b = e->pixel_type == EXR_PIXEL_HALF ? 16 : 32;
        if (b > bits) bits = b;
    }
    bool rgb = lay.present[EXR_R] || lay.present[EXR_G] || lay.present[EXR_B];
    bool lum = !rgb && lay.present[EXR_Y];
    if (!rgb && !lum) {
        r = kiln_error_set(err, KILN_E_IMPORT_UNSUPPORTED,
                           "EXR: the first part has no R, G, B or Y channel (%d channels, e.g. "
                           "\"%s\")",
                           chans->num_channels,
                           chans->num_channels > 0 && chans->entries[0].name.str
                               ? chans->entries[0].name.str
                               : "");
        goto done;
    }
    /* With colour channels present, Y is ignored. */
    if (rgb) lay.present[EXR_Y] = false;
    if (header_only) {
        out->width = (uint32_t)lay.width;
        out->height = (uint32_t)lay.height;
        goto done;
    }

    r = kiln_image_alloc_pixels(out, lim, "EXR", lay.width, lay.height, KILN_PIXEL_F32, err);
    if (r != KILN_OK) goto done;
    out->source_channels = (lum ? 1u : 3u) + (lay.present[EXR_A] ? 1u : 0u);
    out->source_bits = bits;
    size_t texels = (size_t)lay.width * (size_t)lay.height;
    float *px = out->pixels;
    for (size_t i = 0; i < texels; i++) {
        px[i * 4 + 0] = px[i * 4 + 1] = px[i * 4 + 2] = 0.0f;
        px[i * 4 + 3] = 1.0f;
    }
    r = exr_decode_pixels(ctx, &src, storage, &lay, out, err);
    if (r != KILN_OK) goto done;
    if (lum)
        for (size_t i = 0; i < texels; i++) px[i * 4 + 1] = px[i * 4 + 2] = px[i * 4];

done:
    if (ctx) src.api->finish(&ctx);
    return r;
}
