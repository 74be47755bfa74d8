/* fuzz_skeleton.c — libFuzzer target for kiln_skeleton_read: any input gives an error or a
 * skeleton whose every joint has an earlier parent, whose names lie inside the input, and whose
 * every named joint is found by its name (at its index or an earlier one of the same name).
 * Checked with the checksum and without it (a fuzzer rarely forges a checksum). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_skeleton_view v;
    kiln_error err;
    kiln_result r = kiln_skeleton_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    const char *lo = (const char *)data, *hi = (const char *)data + size;
    if (v.joint_count == 0 || v.name < lo || v.name + v.name_size >= hi || v.name[v.name_size])
        abort();
    for (uint32_t j = 0; j < v.joint_count; j++) {
        kiln_skeleton_joint jt = kiln_skeleton_joint_at(&v, j);
        if (jt.parent >= (int32_t)j || jt.parent < -1) abort();
        if (jt.name < lo || jt.name + jt.name_size >= hi || jt.name[jt.name_size]) abort();
        if (strlen(jt.name) != jt.name_size) abort();
        if (jt.name_size) {
            int32_t found = kiln_skeleton_find_joint_n(&v, jt.name, jt.name_size);
            if (found < 0 || found > (int32_t)j) abort();
            kiln_skeleton_joint other = kiln_skeleton_joint_at(&v, (uint32_t)found);
            if (other.name_size != jt.name_size || memcmp(other.name, jt.name, jt.name_size))
                abort();
        }
    }
    kiln_skeleton_find_joint(&v, "");
    kiln_skeleton_find_joint(&v, "hips");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
