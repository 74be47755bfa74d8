/* fuzz_draco.c — libFuzzer target for Draco streams (src/import/draco_shim.cpp, the
 * KHR_draco_mesh_compression bufferViews of glTF files): the input is decoded with a 64 MiB
 * memory limit. Checked: only documented error codes, with the output left zeroed; a decoded
 * mesh has 3 indices per triangle, each below the vertex count, and every attribute 1 to 4
 * components with one value per vertex. Seeds in fuzz/corpus/draco/ come from
 * tests/draco/draco_seeds (libdraco's encoder on kiln's fixtures). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/draco.h"

#define MEMORY_LIMIT ((size_t)64 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_draco_mesh m;
    kiln_error err;
    kiln_result r = kiln_draco_decode(data, size, NULL, MEMORY_LIMIT, &m, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_IMPORT_FAILED && r != KILN_E_LIMIT && r != KILN_E_OUT_OF_MEMORY) abort();
        if (err.code != r || err.message[0] == '\0') abort();
        if (m.indices || m.attributes || m.vertex_count || m.index_count || m.attribute_count)
            abort();
        return 0;
    }
    if (m.index_count % 3 != 0 || m.indices_size != (size_t)m.index_count * sizeof(uint32_t))
        abort();
    if (m.index_count && !m.indices) abort();
    for (uint32_t i = 0; i < m.index_count; i++)
        if (m.indices[i] >= m.vertex_count) abort();
    if (m.attributes_size != (size_t)m.attribute_count * sizeof(kiln_draco_attribute)) abort();
    size_t total = m.indices_size + m.attributes_size;
    for (uint32_t a = 0; a < m.attribute_count; a++) {
        const kiln_draco_attribute *at = &m.attributes[a];
        if (at->components < 1 || at->components > 4) abort();
        if (at->values_size != (size_t)m.vertex_count * at->components * sizeof(float)) abort();
        if (at->values_size && !at->values) abort();
        if (kiln_draco_find_attribute(&m, at->unique_id) == NULL) abort();
        /* Touch every value, so ASan sees the whole array. */
        volatile float sink = 0;
        for (size_t i = 0; i < at->values_size / sizeof(float); i++) sink += at->values[i];
        (void)sink;
        total += at->values_size;
    }
    if (total > MEMORY_LIMIT) abort();
    kiln_draco_mesh_free(NULL, &m);
    if (m.indices || m.attributes) abort();
    return 0;
}
