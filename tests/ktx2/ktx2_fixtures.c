/* ktx2_fixtures.c — placeholder KTX2 files written by kiln's writer, for the tests. */
#include "ktx2_fixtures.h"

#include <stdlib.h>
#include <string.h>

#include "codec/vk_format.h"
#include "support.h"

void fx_init(ktx2_fixture *fx, uint32_t vk_format, uint32_t width, uint32_t height,
             uint32_t level_count, uint32_t supercompression, uint32_t seed)
{
    fx_init_shape(fx, vk_format, width, height, KILN_TEXTURE_SHAPE_2D, 1, 1, level_count,
                  supercompression, seed);
}

void fx_init_shape(ktx2_fixture *fx, uint32_t vk_format, uint32_t width, uint32_t height,
                   uint32_t shape, uint32_t layers, uint32_t depth, uint32_t level_count,
                   uint32_t supercompression, uint32_t seed)
{
    memset(fx, 0, sizeof *fx);
    const kiln_vk_format_info *f = kiln_vk_format_find(vk_format);
    assert_non_null(f);
    uint32_t d = shape == KILN_TEXTURE_SHAPE_VOLUME ? depth : 1;
    if (level_count == 0) level_count = kiln_mip_level_count(width, height > d ? height : d);
    fx->desc.vk_format = vk_format;
    fx->desc.width = width;
    fx->desc.height = height;
    fx->desc.shape = shape;
    fx->desc.layer_count = layers;
    fx->desc.depth = depth;
    fx->desc.level_count = level_count;
    fx->desc.supercompression = supercompression;
    uint32_t state = seed * 2654435761u + vk_format;
    for (uint32_t i = 0; i < level_count; i++) {
        uint64_t size = 0;
        assert_true(kiln_vk_format_image_size(f, kiln_mip_extent(width, i),
                                              kiln_mip_extent(height, i), &size));
        size *= kiln_ktx2_write_images(&fx->desc, i);
        uint8_t *p = malloc((size_t)size);
        assert_non_null(p);
        /* Half runs (compressible), half noise, so zstd has something to do either way. */
        for (size_t j = 0; j < size; j++) {
            state = state * 1664525u + 1013904223u;
            p[j] = (j / 16) % 2 ? (uint8_t)(i * 16 + j / 32) : (uint8_t)(state >> 24);
        }
        fx->level_data[i] = p;
        fx->desc.levels[i].data = p;
        fx->desc.levels[i].size = (size_t)size;
    }
}

void fx_free(ktx2_fixture *fx)
{
    for (uint32_t i = 0; i < KILN_KTX2_MAX_LEVELS; i++) free(fx->level_data[i]);
    memset(fx, 0, sizeof *fx);
}

uint8_t *fx_write(const ktx2_fixture *fx, size_t *size)
{
    kiln_buf buf;
    kiln_buf_init(&buf, NULL);
    kiln_error err;
    kiln_result r = kiln_ktx2_write(&fx->desc, &buf, &err);
    if (r != KILN_OK) fail_msg("kiln_ktx2_write: %s: %s", kiln_result_name(r), err.message);
    uint8_t *copy = malloc(buf.size);
    assert_non_null(copy);
    memcpy(copy, buf.data, buf.size);
    *size = buf.size;
    kiln_buf_free(&buf);
    return copy;
}

uint8_t *fx_make(uint32_t vk_format, uint32_t width, uint32_t height, uint32_t level_count,
                 uint32_t supercompression, uint32_t seed, size_t *size)
{
    ktx2_fixture fx;
    fx_init(&fx, vk_format, width, height, level_count, supercompression, seed);
    uint8_t *bytes = fx_write(&fx, size);
    fx_free(&fx);
    return bytes;
}

const char *fx_source_dir(void)
{
    const char *s = getenv("KILN_SOURCE_DIR");
    return s && *s ? s : KILN_TEST_SOURCE_DIR;
}
