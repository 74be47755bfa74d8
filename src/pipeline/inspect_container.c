/* inspect_container.c — the inspect document of a kiln container (inspect.h): its header and
 * section table (kiln_container_read), then the summary of its cooked kind, found by fourcc in
 * the table below. A kind without a summary, or an unknown kind, gets the section table alone. */
#include "pipeline/inspect.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/reader.h"

/* The cooked kinds inspect summarises: adding one is its summary function and a line here. */
static const kiln_inspect_summary summaries[] = {
    {KILN_MATERIAL_KIND, "material", kiln_inspect_material},
    {KILN_COOKED_SCENE_KIND, "scene", kiln_inspect_cooked_scene},
    {KILN_MESH_KIND, "mesh", kiln_inspect_mesh},
    {KILN_SKELETON_KIND, "skeleton", kiln_inspect_skeleton},
    {KILN_CLIP_KIND, "clip", kiln_inspect_clip},
};

const kiln_inspect_summary *kiln_inspect_summary_find(uint32_t kind)
{
    for (size_t i = 0; i < sizeof summaries / sizeof summaries[0]; i++)
        if (summaries[i].kind == kind) return &summaries[i];
    return NULL;
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

kiln_result kiln_inspect_container(const uint8_t *data, size_t size, json_t **out, kiln_error *err)
{
    kiln_container c;
    kiln_result r = kiln_container_read(data, size, 0, &c, err);
    if (r != KILN_OK) return r;
    const kiln_inspect_summary *kind = kiln_inspect_summary_find(c.kind);
    json_t *summary = NULL;
    if (kind && (r = kind->summary(data, size, &summary, err)) != KILN_OK) return r;
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
    if (summary) json_object_set_new(j, kind->member, summary);
    *out = j;
    return KILN_OK;
}
