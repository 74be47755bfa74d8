/* rt_type_vgeo.c — the virtual geometry type: container VGEO (the vgeo cooked kind), its
 * validated view handed out as it is, linked to the mesh whose vertices its clusters index (the
 * kind's one reference, KILN_REF_LOAD: the mesh loads with it and is ready first). No GPU object
 * of its own: a renderer draws a cut's clusters from the mesh's vertex buffer. */
#include "codec/cooked_kind.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_vgeo_decoded *g = &a->data.vgeo;
    kiln_result r =
        krt_type_vgeo.kind->read(a->dec.file, a->dec.file_size, x->flags, &g->view, err);
    if (r) return r;
    g->data.view = &g->view;
    return KILN_OK;
}

static const void *view(const krt_asset *a) { return &a->data.vgeo.view; }

/* The kind lists the mesh alone. */
static void link(krt_asset *a)
{
    if (a->dec.dep_count) a->data.vgeo.data.mesh = a->dec.deps[0];
}

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_vgeo_decoded, a->data.vgeo, b->data.vgeo);
    /* the record points at the view beside it */
    if (a->data.vgeo.data.view) a->data.vgeo.data.view = &a->data.vgeo.view;
    if (b->data.vgeo.data.view) b->data.vgeo.data.view = &b->data.vgeo.view;
}

const krt_type_ops krt_type_vgeo = {
    .kind = &kiln_cooked_kind_vgeo,
    .decode = decode,
    .view = view,
    .link = link,
    .swap = swap,
};

KRT_TYPE_API(vgeo, KRT_TYPE_VGEO, krt_vgeo_data, a->data.vgeo.data)
