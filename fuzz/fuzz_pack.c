/* fuzz_pack.c — libFuzzer target for the pack reader (src/codec/pack_read.c): any input gives an
 * error of the documented codes, or a pack whose every entry lies inside the input, is found by
 * its id (binary search) and by its name, and reads back (or fails cleanly) without writing past
 * its declared size. Checked with the table checksum and without it (the structure checks alone
 * must hold, since a fuzzer rarely forges a checksum). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Entries above this are not decompressed here (a valid table may declare up to 4 GiB). */
#define FUZZ_MAX_ENTRY ((size_t)1 << 22)

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_pack p;
    kiln_error err;
    kiln_result r = kiln_pack_open_memory(data, size, flags, &p, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_LIMIT) abort();
        return;
    }
    bool verify = true;
    for (uint32_t i = 0; i < p.entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(&p, i);
        if (e.stored < data || e.stored_size > size ||
            (size_t)(e.stored - data) > size - e.stored_size)
            abort();
        if (e.name < (const char *)data || e.name + e.name_size >= (const char *)data + size ||
            e.name[e.name_size] != '\0' || strlen(e.name) != e.name_size)
            abort();
        if (kiln_pack_find(&p, e.asset_id) != i) abort();
        uint32_t by_name = kiln_pack_find_name(&p, e.name);
        if (by_name > i || strcmp(kiln_pack_entry_at(&p, by_name).name, e.name) != 0) abort();
        if (e.compression == KILN_PACK_RAW && e.stored_size != e.size) abort();
        if (e.size > FUZZ_MAX_ENTRY) {
            verify = false;
            continue;
        }
        /* One guard byte past the declared size must survive the read. */
        uint8_t *buf = malloc(e.size + 1);
        if (!buf) abort();
        buf[e.size] = 0x5A;
        r = kiln_pack_entry_read(&p, i, buf, e.size, &err);
        if (r != KILN_OK && r != KILN_E_FORMAT_INVALID && r != KILN_E_OUT_OF_MEMORY) abort();
        if (buf[e.size] != 0x5A) abort();
        if (r == KILN_OK && e.compression == KILN_PACK_RAW && e.size &&
            memcmp(buf, e.stored, e.size))
            abort();
        free(buf);
    }
    if (verify) {
        r = kiln_pack_verify(&p, NULL, &err);
        if (r != KILN_OK && r != KILN_E_FORMAT_INVALID && r != KILN_E_OUT_OF_MEMORY) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_PACK_SKIP_CHECKSUM);
    return 0;
}
