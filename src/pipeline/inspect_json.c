/* inspect_json.c — the JSON values the inspect documents of cooked kinds share (inspect.h). */
#include "pipeline/inspect.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

json_t *kiln_inspect_f32(float f)
{
    if (!isfinite(f)) return json_null();
    char buf[32];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)f);
        if ((float)strtod(buf, NULL) == f) break;
    }
    return json_real(strtod(buf, NULL));
}

json_t *kiln_inspect_f32s(const float *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, kiln_inspect_f32(v[i]));
    return a;
}

json_t *kiln_inspect_id(uint64_t id)
{
    if (!id) return json_null();
    char buf[24];
    snprintf(buf, sizeof buf, "0x%016" PRIx64, id);
    return json_string(buf);
}

json_t *kiln_inspect_index(uint32_t i)
{
    return i == 0xFFFFFFFFu ? json_null() : json_integer(i);
}

json_t *kiln_inspect_str(const char *s, size_t n)
{
    return json_stringn(s ? s : "", s ? n : 0);
}

json_t *kiln_inspect_fourcc(uint32_t v)
{
    char buf[16];
    bool printable = true;
    for (int i = 0; i < 4; i++) {
        unsigned c = (v >> (8 * i)) & 0xFF;
        printable &= c >= 0x20 && c < 0x7F;
        buf[i] = (char)c;
    }
    buf[4] = 0;
    if (!printable) snprintf(buf, sizeof buf, "0x%08" PRIx32, v);
    return json_string(buf);
}

json_t *kiln_inspect_bounds(const float *min, const float *max)
{
    json_t *b = json_object();
    json_object_set_new(b, "min", kiln_inspect_f32s(min, 3));
    json_object_set_new(b, "max", kiln_inspect_f32s(max, 3));
    return b;
}

const char *kiln_inspect_name(uint32_t v, const char *const *names, uint32_t n)
{
    return v < n ? names[v] : "unknown";
}
