/* astc_shim.cpp — ASTC 4x4 LDR encoding and decoding through ARM's libastcenc 4.2 (Debian's
 * libastcenc3d), whose header is C++ only; see docs/astc.md.
 *
 * The encoder is set up as the astcenc command sets itself up for
 * `astcenc -cl|-cs IN OUT 4x4 -fast|-medium|-thorough [-normal]` (astcenccli_toplevel.cpp,
 * init_astcenc_config and edit_astcenc_config): the same profile, preset, flags and swizzle.
 * One setting is pinned to work around a process-wide latch in libastcenc 4.2 (see encode()),
 * so normal quality (-medium) gives the command's blocks byte for byte, and fast and high are
 * deterministic but differ from -fast / -thorough in some blocks (tests/astc checks both). The
 * decoder is set up as `astcenc -dl|-ds` is, writing 8-bit texels.
 *
 * libastcenc is opened on the first encode or decode (astcenc_dl.cpp), not linked: every call
 * goes through the table kiln_astcenc_api_get gives.
 *
 * Nothing here may throw into C: every entry point and job callback catches everything. */
#include <climits>
#include <cstddef>
#include <cstdint>
#include <new>

#include "process/astcenc_dl.h"

extern "C" {
#include "core/error.h"
#include "core/jobs.h"
#include "process/astc.h"
}

namespace
{

const unsigned kBlockDim = 4;
const size_t kBlockBytes = 16;

/* The command's -fast / -medium / -thorough. */
float preset_of(kiln_quality q)
{
    switch (q) {
    case KILN_QUALITY_FAST:
        return ASTCENC_PRE_FAST;
    case KILN_QUALITY_HIGH:
        return ASTCENC_PRE_THOROUGH;
    case KILN_QUALITY_NORMAL:
        break;
    }
    return ASTCENC_PRE_MEDIUM;
}

kiln_result astc_fail(const kiln_astcenc_api *api, kiln_error *err, astcenc_error e,
                      const char *what)
{
    const char *name = api->get_error_string(e);
    return kiln_error_set(err, e == ASTCENC_ERR_OUT_OF_MEM ? KILN_E_OUT_OF_MEMORY : KILN_E_INTERNAL,
                          "astcenc: %s failed: %s", what, name ? name : "unknown error");
}

/* Bytes of the blocks of a w x h image, or false when astcenc cannot address the image: it
 * computes texel offsets and the block bytes in 32-bit unsigned arithmetic. */
bool astc_sizes(uint32_t w, uint32_t h, bool hdr, size_t *block_bytes)
{
    if (w == 0 || h == 0) return false;
    uint64_t bx = (w + 3ull) / 4, by = (h + 3ull) / 4;
    uint64_t texel_bytes = (uint64_t)w * h * (hdr ? 8 : 4), bytes = bx * by * kBlockBytes;
    if (texel_bytes > UINT_MAX || bytes > UINT_MAX || bytes > SIZE_MAX) return false;
    *block_bytes = (size_t)bytes;
    return true;
}

struct compress_job {
    const kiln_astcenc_api *api;
    astcenc_context *ctx;
    astcenc_image *img;
    const astcenc_swizzle *swz;
    uint8_t *out;
    size_t out_size;
};

/* One astcenc thread. astcenc hands out blocks dynamically from a shared counter and its only
 * waits are for blocks already handed out to finish, so an index that runs after another on the
 * same kiln thread simply finds no work left: no index ever waits for another index to start. */
kiln_result astc_compress_index(void *user, size_t index, size_t worker, kiln_error *err)
{
    (void)worker;
    compress_job *j = static_cast<compress_job *>(user);
    try {
        astcenc_error e = j->api->compress_image(j->ctx, j->img, j->swz, j->out, j->out_size,
                                                 static_cast<unsigned>(index));
        if (e != ASTCENC_SUCCESS) return astc_fail(j->api, err, e, "compress_image");
        return KILN_OK;
    } catch (const std::bad_alloc &) {
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "astcenc: out of memory");
    } catch (...) {
        return kiln_error_set(err, KILN_E_INTERNAL, "astcenc: compress_image threw");
    }
}

/* RAII so that every path frees the context, including a throw. */
struct context_holder {
    const kiln_astcenc_api *api;
    astcenc_context *ctx = nullptr;
    explicit context_holder(const kiln_astcenc_api *a) : api(a) {}
    context_holder(const context_holder &) = delete;
    context_holder &operator=(const context_holder &) = delete;
    ~context_holder()
    {
        if (ctx) api->context_free(ctx);
    }
};

/* hdr: rgba holds half floats (8 bytes a texel) and the profile is the command's -ch
 * (HDR colour, LDR alpha). */
kiln_result encode(const uint8_t *rgba, uint32_t w, uint32_t h, bool hdr, const kiln_block_opts *o,
                   kiln_jobs *jobs, uint8_t *out, size_t out_size, kiln_error *err)
{
    if (!rgba || !o || !out)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_astc_encode: NULL argument");
    size_t need = 0;
    if (!astc_sizes(w, h, hdr, &need))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_astc_encode: %ux%u is empty or too large "
                              "for astcenc",
                              w, h);
    if (out_size < need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_astc_encode: output of %zu bytes, %zu needed", out_size, need);
    const kiln_astcenc_api *api = nullptr;
    kiln_result r = kiln_astcenc_api_get(&api, err);
    if (r != KILN_OK) return r;

    /* The command adds SELF_DECOMPRESS_ONLY to every compressing run (it only trims the tables
     * context creation builds; the blocks do not depend on it); -normal adds MAP_NORMAL, which
     * weights the two stored components for angular error, and the rrrg swizzle below. */
    unsigned flags = ASTCENC_FLG_SELF_DECOMPRESS_ONLY;
    if (o->normal_map && !hdr) flags |= ASTCENC_FLG_MAP_NORMAL;
    astcenc_profile profile = hdr       ? ASTCENC_PRF_HDR_RGB_LDR_A
                              : o->srgb ? ASTCENC_PRF_LDR_SRGB
                                        : ASTCENC_PRF_LDR;

    astcenc_config config, medium;
    astcenc_error e =
        api->config_init(profile, kBlockDim, kBlockDim, 1, preset_of(o->quality), flags, &config);
    if (e == ASTCENC_SUCCESS)
        e = api->config_init(profile, kBlockDim, kBlockDim, 1, ASTCENC_PRE_MEDIUM, flags, &medium);
    if (e != ASTCENC_SUCCESS) return astc_fail(api, err, e, "config_init");
    /* libastcenc 4.2 reads tune_refinement_mse_overshoot into a function-local static in
     * compress_block: the first context that compresses a block in the process fixes it for every
     * later one (ARM-software/astc-encoder issue 537). With each preset's own value (fast 3.5,
     * medium 2.5, thorough 10), kiln's bytes would depend on which preset the process encoded
     * first. Every kiln context carries medium's value instead, so whichever comes first latches
     * the same number: the bytes are deterministic, equal to `astcenc -medium` for normal, and
     * for fast and high they differ from the command's in the blocks where the refinement
     * early-out falls differently (docs/astc.md has the measurements). */
    config.tune_refinement_mse_overshoot = medium.tune_refinement_mse_overshoot;

    size_t threads = kiln_jobs_thread_count(jobs);
    context_holder holder(api);
    e = api->context_alloc(&config, static_cast<unsigned>(threads), &holder.ctx);
    if (e != ASTCENC_SUCCESS) return astc_fail(api, err, e, "context_alloc");

    /* astcenc only reads the input, but its image struct is not const. */
    void *slices[1] = {const_cast<uint8_t *>(rgba)};
    astcenc_image img;
    img.dim_x = w;
    img.dim_y = h;
    img.dim_z = 1;
    img.data_type = hdr ? ASTCENC_TYPE_F16 : ASTCENC_TYPE_U8;
    img.data = slices;

    /* The command's default encode swizzle is rgba; -normal stores X in RGB and Y in alpha. */
    astcenc_swizzle swz = {ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
    if (o->normal_map && !hdr) swz = {ASTCENC_SWZ_R, ASTCENC_SWZ_R, ASTCENC_SWZ_R, ASTCENC_SWZ_G};

    /* Exactly as many indices as astcenc threads: jobs.c gives concurrent calls distinct
     * indices, and sequential ones are harmless (see astc_compress_index). The context is used
     * once and freed, so no astcenc_compress_reset is needed. */
    compress_job job = {api, holder.ctx, &img, &swz, out, need};
    return kiln_jobs_for(jobs, threads, astc_compress_index, &job, err);
}

/* hdr: decode with the -ch profile to half floats (8 bytes a texel, `astcenc -dh`). */
kiln_result decode(const uint8_t *blocks, size_t size, uint32_t w, uint32_t h, bool srgb, bool hdr,
                   void *rgba, kiln_error *err)
{
    if (!blocks || !rgba)
        return kiln_error_set(err, KILN_E_USAGE, "kiln_astc_decode: NULL argument");
    size_t need = 0;
    if (!astc_sizes(w, h, hdr, &need))
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_astc_decode: %ux%u is empty or too large "
                              "for astcenc",
                              w, h);
    if (size < need)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_astc_decode: %zu bytes of blocks, %zu needed", size, need);
    const kiln_astcenc_api *api = nullptr;
    kiln_result r = kiln_astcenc_api_get(&api, err);
    if (r != KILN_OK) return r;

    /* As `astcenc -dl|-ds`: a decompress-only context (full tables: any valid block decodes;
     * invalid ones come out as the format's error colour) and the quality the command leaves at
     * 0, which a decompress-only context does not use. */
    astcenc_config config;
    astcenc_profile profile = hdr    ? ASTCENC_PRF_HDR_RGB_LDR_A
                              : srgb ? ASTCENC_PRF_LDR_SRGB
                                     : ASTCENC_PRF_LDR;
    astcenc_error e = api->config_init(profile, kBlockDim, kBlockDim, 1, 0.0f,
                                       ASTCENC_FLG_DECOMPRESS_ONLY, &config);
    if (e != ASTCENC_SUCCESS) return astc_fail(api, err, e, "config_init");
    context_holder holder(api);
    e = api->context_alloc(&config, 1, &holder.ctx);
    if (e != ASTCENC_SUCCESS) return astc_fail(api, err, e, "context_alloc");

    void *slices[1] = {rgba};
    astcenc_image img;
    img.dim_x = w;
    img.dim_y = h;
    img.dim_z = 1;
    img.data_type = hdr ? ASTCENC_TYPE_F16 : ASTCENC_TYPE_U8;
    img.data = slices;
    const astcenc_swizzle swz = {ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
    e = api->decompress_image(holder.ctx, blocks, need, &img, &swz, 0);
    if (e != ASTCENC_SUCCESS) return astc_fail(api, err, e, "decompress_image");
    return KILN_OK;
}

} // namespace

extern "C" kiln_result kiln_astc_encode(const uint8_t *rgba, uint32_t w, uint32_t h,
                                        const kiln_block_opts *o, kiln_jobs *jobs, uint8_t *out,
                                        size_t out_size, kiln_error *err)
{
    try {
        return encode(rgba, w, h, false, o, jobs, out, out_size, err);
    } catch (const std::bad_alloc &) {
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "astcenc: out of memory");
    } catch (...) {
        return kiln_error_set(err, KILN_E_INTERNAL, "astcenc: encoding threw");
    }
}

extern "C" kiln_result kiln_astc_decode(const uint8_t *blocks, size_t size, uint32_t w, uint32_t h,
                                        bool srgb, uint8_t *rgba, kiln_error *err)
{
    try {
        return decode(blocks, size, w, h, srgb, false, rgba, err);
    } catch (const std::bad_alloc &) {
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "astcenc: out of memory");
    } catch (...) {
        return kiln_error_set(err, KILN_E_INTERNAL, "astcenc: decoding threw");
    }
}

extern "C" kiln_result kiln_astc_hdr_encode(const uint8_t *rgba, uint32_t w, uint32_t h,
                                            const kiln_block_opts *o, kiln_jobs *jobs, uint8_t *out,
                                            size_t out_size, kiln_error *err)
{
    try {
        return encode(rgba, w, h, true, o, jobs, out, out_size, err);
    } catch (const std::bad_alloc &) {
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "astcenc: out of memory");
    } catch (...) {
        return kiln_error_set(err, KILN_E_INTERNAL, "astcenc: encoding threw");
    }
}

extern "C" kiln_result kiln_astc_hdr_decode(const uint8_t *blocks, size_t size, uint32_t w,
                                            uint32_t h, uint16_t *rgba, kiln_error *err)
{
    try {
        return decode(blocks, size, w, h, false, true, rgba, err);
    } catch (const std::bad_alloc &) {
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "astcenc: out of memory");
    } catch (...) {
        return kiln_error_set(err, KILN_E_INTERNAL, "astcenc: decoding threw");
    }
}
