/* rt_type_scene.c — the scene type: container SCEN (the scene cooked kind), its validated view
 * and the handles of what it names: the kind lists every primitive's mesh, every clip, then each
 * skeleton once in node order, and krt_scene_data hands out those three runs of the dependency
 * handles. No GPU object. */
#include "codec/cooked_kind.h"
#include "runtime/rt_context.h"

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    krt_scene_decoded *s = &a->data.scene;
    kiln_result r =
        krt_type_scene.kind->read(a->dec.file, a->dec.file_size, x->flags, &s->view, err);
    if (!r) s->data.view = &s->view;
    return r;
}

static const void *view(const krt_asset *a) { return &a->data.scene.view; }

static void link(krt_asset *a)
{
    krt_scene_decoded *s = &a->data.scene;
    size_t before = (size_t)s->view.primitive_count + s->view.clip_count;
    s->data.primitives = a->dec.deps;
    s->data.clips = a->dec.deps + s->view.primitive_count;
    s->data.skeletons = a->dec.deps + before;
    s->data.skeleton_count = a->dec.dep_count > before ? (uint32_t)(a->dec.dep_count - before) : 0;
}

static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_scene_decoded, a->data.scene, b->data.scene);
    /* the record points at the view beside it */
    if (a->data.scene.data.view) a->data.scene.data.view = &a->data.scene.view;
    if (b->data.scene.data.view) b->data.scene.data.view = &b->data.scene.view;
}

const krt_type_ops krt_type_scene = {
    .kind = &kiln_cooked_kind_scene,
    .decode = decode,
    .view = view,
    .link = link,
    .swap = swap,
};

KRT_TYPE_API(scene, KRT_TYPE_SCENE, krt_scene_data, a->data.scene.data)
