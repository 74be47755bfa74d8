/* fuzz_container.c — libFuzzer target for kiln_container_read: any input gives an error or a
 * container whose every section lies inside the input, aligned, in order and with a unique id.
 * Checked both with the checksum and without it (the structure checks alone must hold, since
 * a fuzzer rarely forges a checksum). */
#include <stdint.h>
#include <stdlib.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_container c;
    kiln_error err;
    kiln_result r = kiln_container_read(data, size, flags, &c, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    const uint8_t *end = data;
    for (uint32_t i = 0; i < c.section_count; i++) {
        kiln_container_section s;
        kiln_container_section_at(&c, i, &s);
        if (s.data < end || s.size > size || (size_t)(s.data - data) > size - s.size) abort();
        if ((size_t)(s.data - data) % KILN_CONTAINER_ALIGN) abort();
        if (s.size != s.count * s.element_size) abort();
        kiln_container_section f;
        if (!kiln_container_find(&c, s.id, s.element_size, &f) || f.data != s.data) abort();
        end = s.data + s.size;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
