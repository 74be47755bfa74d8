/* ktx2_fixtures.h — KTX2 files for the tests, made by kiln's own writer from placeholder level
 * data of the right sizes (the bytes are a fixed function of format, level and seed). */
#ifndef KILN_TEST_KTX2_FIXTURES_H
#define KILN_TEST_KTX2_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "write/ktx2_write.h"

typedef struct ktx2_fixture {
    kiln_ktx2_write_desc desc;
    uint8_t *level_data[KILN_KTX2_MAX_LEVELS]; /* malloc'd, desc.levels point here */
} ktx2_fixture;

/* Fills desc and placeholder levels; level_count 0 means the full chain. Fails the test if the
 * format is unknown. */
void fx_init(ktx2_fixture *fx, uint32_t vk_format, uint32_t width, uint32_t height,
             uint32_t level_count, uint32_t supercompression, uint32_t seed);
/* The same for a shape (kiln_texture_shape) with its layers (arrays) and depth (volumes). */
void fx_init_shape(ktx2_fixture *fx, uint32_t vk_format, uint32_t width, uint32_t height,
                   uint32_t shape, uint32_t layers, uint32_t depth, uint32_t level_count,
                   uint32_t supercompression, uint32_t seed);
void fx_free(ktx2_fixture *fx);
/* Writes the file (asserting success); malloc'd bytes, size out. */
uint8_t *fx_write(const ktx2_fixture *fx, size_t *size);
/* fx_init + fx_write + fx_free. */
uint8_t *fx_make(uint32_t vk_format, uint32_t width, uint32_t height, uint32_t level_count,
                 uint32_t supercompression, uint32_t seed, size_t *size);

/* Where the source tree is: $KILN_SOURCE_DIR, else the folder CMake compiled in. */
const char *fx_source_dir(void);

#endif
