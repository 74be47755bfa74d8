/* fuzz_clip.c — libFuzzer target for kiln_clip_read and kiln_clip_sample: any input gives an
 * error or a clip whose every track can be sampled at any time (before, inside and after its
 * keys, NaN and infinities) without reading outside the input, giving finite values (unit
 * quaternions for rotations). Checked with the checksum and without it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const uint8_t *data, size_t size, uint32_t flags)
{
    kiln_clip_view v;
    kiln_error err;
    kiln_result r = kiln_clip_read(data, size, flags, &v, &err);
    if (r != KILN_OK) {
        if (r != KILN_E_FORMAT_INVALID && r != KILN_E_FORMAT_VERSION && r != KILN_E_USAGE) abort();
        return;
    }
    if (v.name[v.name_size] || !(v.start <= v.end)) abort();
    const float times[] = {
        v.start, v.end, (v.start + v.end) / 2, v.start - 1, v.end + 1, NAN, INFINITY, -INFINITY,
        0.0f,    1e-3f};
    for (uint32_t t = 0; t < v.track_count; t++) {
        kiln_clip_track tr = kiln_clip_track_at(&v, t);
        if (tr.components == 0 || tr.components > KILN_CLIP_MAX_COMPONENTS || tr.key_count == 0)
            abort();
        float *out = malloc(tr.components * sizeof *out);
        if (!out) abort();
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
            if (kiln_clip_sample(&v, t, times[i], out) != tr.components) abort();
            double len = 0;
            for (uint32_t c = 0; c < tr.components; c++) {
                if (!isfinite(out[c]) && tr.interpolation != KILN_CLIP_INTERP_CUBICSPLINE) abort();
                len += (double)out[c] * out[c];
            }
            if (tr.path == KILN_CLIP_PATH_ROTATION && fabs(len - 1.0) > 1e-3) abort();
        }
        free(out);
    }
    if (kiln_clip_sample(&v, v.track_count, 0, NULL) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size, 0);
    check(data, size, KILN_CONTAINER_SKIP_CHECKSUM);
    return 0;
}
