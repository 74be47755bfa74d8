/* inspect_container.c — the inspect document of a kiln container (inspect.h): its header and
 * section table (kiln_container_read), then what its cooked kind describes, under the kind's
 * name. The kind is found by fourcc among the built-in kinds and those the caller gives; one
 * without describe(), or an unknown kind, gets the section table alone. */
#include "pipeline/inspect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/reader.h"

/* The document's own members, which a kind's summary may not replace ("command" and "file" are
 * added by kiln_inspect_file). */
static const char *const document_members[] = {
    "type",     "kind",    "kind_version", "container_version", "size", "checksum",
    "sections", "command", "file"};

static const kiln_cooked_kind *kind_of(uint32_t fourcc, const kiln_cooked_kind *const *kinds,
                                       size_t kind_count)
{
    if (fourcc == KILN_PACK_KIND_KTX2) return NULL; /* a KTX2 file is not a container */
    const kiln_cooked_kind *k = kiln_cooked_kind_of_fourcc(fourcc);
    for (size_t i = 0; !k && kinds && i < kind_count; i++)
        if (kinds[i] && kinds[i]->fourcc == fourcc) k = kinds[i];
    return k;
}

/* The kind's summary of the container: read through the kind's reader, then described. */
static kiln_result summary_of(const kiln_cooked_kind *k, const uint8_t *data, size_t size,
                              json_t **out, kiln_error *err)
{
    for (size_t i = 0; i < sizeof document_members / sizeof document_members[0]; i++)
        if (!strcmp(k->name, document_members[i]))
            return kiln_error_set(err, KILN_E_USAGE,
                                  "cooked kind %s: its name is a member of the inspect document",
                                  k->name);
    if (!k->read || !k->view_size)
        return kiln_error_set(err, KILN_E_USAGE, "cooked kind %s has no reader", k->name);
    void *view = calloc(1, k->view_size); /* malloc's alignment suits any type */
    if (!view) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_result r = k->read(data, size, 0, view, err);
    json_t *summary = r == KILN_OK ? json_object() : NULL;
    if (r == KILN_OK) r = kiln_inspect_describe(k, view, summary, err);
    free(view);
    if (r != KILN_OK) {
        json_decref(summary);
        return r;
    }
    *out = summary;
    return KILN_OK;
}

static json_t *sections_doc(const kiln_container *c)
{
    json_t *sections = json_array();
    for (uint32_t i = 0; i < c->section_count; i++) {
        kiln_container_section s;
        kiln_container_section_at(c, i, &s);
        json_t *sj = json_object();
        json_object_set_new(sj, "id", kiln_inspect_fourcc(s.id));
        json_object_set_new(sj, "element_size", json_integer(s.element_size));
        json_object_set_new(sj, "count", json_integer((json_int_t)s.count));
        json_object_set_new(sj, "offset", json_integer((json_int_t)(s.data - c->bytes)));
        json_object_set_new(sj, "size", json_integer((json_int_t)s.size));
        json_array_append_new(sections, sj);
    }
    return sections;
}

kiln_result kiln_inspect_container(const uint8_t *data, size_t size,
                                   const kiln_cooked_kind *const *kinds, size_t kind_count,
                                   json_t **out, kiln_error *err)
{
    kiln_container c;
    kiln_result r = kiln_container_read(data, size, 0, &c, err);
    if (r != KILN_OK) return r;
    const kiln_cooked_kind *kind = kind_of(c.kind, kinds, kind_count);
    json_t *summary = NULL;
    if (kind && kind->describe && (r = summary_of(kind, data, size, &summary, err)) != KILN_OK)
        return r;
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("container"));
    json_object_set_new(j, "kind", kiln_inspect_fourcc(c.kind));
    json_object_set_new(j, "kind_version", json_integer(c.kind_version));
    json_object_set_new(j, "container_version", json_integer(KILN_CONTAINER_VERSION));
    json_object_set_new(j, "size", json_integer((json_int_t)size));
    char checksum[24]; /* the header's XXH3-64 at byte 24, as kiln_container_read checked it */
    snprintf(checksum, sizeof checksum, "0x%016" PRIx64, kiln_load_u64le(data + 24));
    json_object_set_new(j, "checksum", json_string(checksum));
    json_object_set_new(j, "sections", sections_doc(&c));
    if (summary) json_object_set_new(j, kind->name, summary);
    *out = j;
    return KILN_OK;
}
