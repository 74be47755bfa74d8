/* inspect_pack.c — the inspect document of a .kpak (inspect.h): the table of contents in the
 * pack's order (by asset id), with sizes, compression and which entries share a payload. */
#include "pipeline/inspect.h"

#include <stdbool.h>
#include <stdio.h>

static void fourcc(uint32_t v, char out[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)(v >> (8 * i));
        out[i] = c >= 32 && c < 127 ? c : '?';
    }
    out[4] = '\0';
}

kiln_result kiln_inspect_pack(const uint8_t *data, size_t size, json_t **out, kiln_error *err)
{
    kiln_pack p;
    kiln_result r = kiln_pack_open_memory(data, size, 0, &p, err);
    if (r != KILN_OK) return r;
    json_t *j = json_object(), *list = json_array();
    uint64_t stored = 0;
    uint32_t next = 0, compressed = 0; /* payloads are numbered in first-use order */
    for (uint32_t i = 0; i < p.entry_count; i++) {
        kiln_pack_entry e = kiln_pack_entry_at(&p, i);
        char id[17], kind[5];
        snprintf(id, sizeof id, "%016llx", (unsigned long long)e.asset_id);
        fourcc(e.kind, kind);
        bool shared = e.payload != next;
        if (!shared) {
            next++;
            stored += e.stored_size;
            compressed += e.compression == KILN_PACK_ZSTD;
        }
        json_t *x = json_object();
        json_object_set_new(x, "name", json_stringn(e.name, e.name_size));
        json_object_set_new(x, "asset_id", json_string(id));
        json_object_set_new(x, "kind", json_string(kind));
        json_object_set_new(x, "compression",
                            json_string(e.compression == KILN_PACK_ZSTD ? "zstd" : "raw"));
        json_object_set_new(x, "size", json_integer((json_int_t)e.size));
        json_object_set_new(x, "stored_size", json_integer((json_int_t)e.stored_size));
        json_object_set_new(x, "offset", json_integer((json_int_t)e.offset));
        json_object_set_new(x, "payload", json_integer(e.payload));
        json_object_set_new(x, "shared", json_boolean(shared));
        json_array_append_new(list, x);
    }
    json_object_set_new(j, "type", json_string("pack"));
    json_object_set_new(j, "version", json_integer(KILN_PACK_VERSION));
    json_object_set_new(j, "align", json_integer(p.flags & KILN_PACK_ALIGN_4096 ? 4096 : 16));
    json_object_set_new(j, "file_size", json_integer((json_int_t)p.size));
    json_object_set_new(j, "data_offset", json_integer((json_int_t)p.data_offset));
    json_object_set_new(j, "entry_count", json_integer(p.entry_count));
    json_object_set_new(j, "payload_count", json_integer(p.payload_count));
    json_object_set_new(j, "compressed", json_integer(compressed));
    json_object_set_new(j, "entry_bytes", json_integer((json_int_t)p.total_size));
    json_object_set_new(j, "stored_bytes", json_integer((json_int_t)stored));
    json_object_set_new(j, "entries", list);
    *out = j;
    return KILN_OK;
}
