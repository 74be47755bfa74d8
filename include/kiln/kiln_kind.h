/* kiln_kind.h — what a kind of cooked data is, as one const descriptor.
 *
 * A cooked kind is a file format an artifact is stored in: KTX2 for textures, and the kiln
 * container kinds (MESH, MATL, SKEL, CLIP, SCEN) for the rest. Its descriptor says how the file
 * is recognised (the container's fourcc; labels of the artifacts of that kind), how it is read
 * into a view, and which other artifacts it refers to by asset id. Packing (which artifacts must
 * ship together), the runtime (which assets to load before another is ready) and the inspector
 * all take that from the descriptor, so "which artifact needs which" is said once, by the kind.
 *
 * libc only: this header is part of what libkiln_rt shares with the cook side. */
#ifndef KILN_KIND_H
#define KILN_KIND_H

#include "kiln/kiln_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reference's flags. */
enum {
    /* The runtime loads the referenced asset with this one, and this one is ready only when it
     * is (a material's textures, a scene's meshes). Without it the reference only says what
     * must ship in the same pack (a clip's skeleton: an engine samples the clip against the
     * skeleton it chose). */
    KILN_REF_LOAD = 1u << 0,
};

/* Called once per reference, in the kind's fixed order. kind is the cooked kind the referenced
 * artifact must have (its fourcc). A zero id is reported where a kind's references are
 * positional (a scene's primitives): it refers to nothing. A non-OK return stops the walk. */
typedef kiln_result (*kiln_ref_fn)(void *user, uint64_t asset_id, uint32_t kind, uint32_t flags,
                                   kiln_error *err);

typedef struct kiln_cooked_kind {
    /* "texture", "mesh", "material", "skeleton", "clip", "scene". */
    const char *name;
    /* The container kind (KILN_FOURCC), or KILN_PACK_KIND_KTX2 for KTX2 files. */
    uint32_t fourcc;
    /* The label prefixes of the artifacts stored in this kind ("mesh" for mesh0/prim1),
     * NULL-terminated. */
    const char *const *labels;
    /* Reads and checks the bytes (every offset, size, count and index) into view, which holds
     * view_size bytes, aligned for any type. flags: KILN_CONTAINER_SKIP_CHECKSUM where the
     * caller checked the bytes already. The view points into data. */
    size_t view_size;
    kiln_result (*read)(const void *data, size_t size, uint32_t flags, void *view,
                        kiln_error *err);
    /* Lists the asset ids the artifact refers to from a view read() filled. NULL: none. */
    kiln_result (*refs)(const void *view, kiln_ref_fn fn, void *user, kiln_error *err);
} kiln_cooked_kind;

/* The built-in cooked kinds, in registry order: NULL when i is past the last. */
KILN_API const kiln_cooked_kind *kiln_cooked_kind_at(size_t i);
/* The built-in kind with this fourcc (KILN_PACK_KIND_KTX2 for KTX2), NULL when none. */
KILN_API const kiln_cooked_kind *kiln_cooked_kind_of_fourcc(uint32_t fourcc);
/* The built-in kind whose label prefix starts this label ("image2" -> texture); *prefix (may be
 * NULL) receives the prefix that matched ("image"). NULL when none. */
KILN_API const kiln_cooked_kind *kiln_cooked_kind_of_label(const char *label, const char **prefix);
/* The kind of a cooked file by its first bytes: the KTX2 identifier or a kiln container's
 * header (its fourcc); NULL when neither or when no built-in kind has that fourcc. *fourcc (may
 * be NULL) receives the fourcc found, 0 when the bytes are neither. */
KILN_API const kiln_cooked_kind *kiln_cooked_kind_of_bytes(const void *data, size_t size,
                                                           uint32_t *fourcc);

#ifdef __cplusplus
}
#endif

#endif
