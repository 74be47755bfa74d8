/* thumbnail_model.c — `kiln thumbnail` for a model, a scene, a mesh or a material: the one place
 * the renderer's model drawing plugs in (issue 20: frame the bounds, --view, --camera, --time,
 * --lod). Until it exists such an artifact is refused with a stable code. */
#ifdef KILN_HAVE_VIEW
#include <string.h>

#include "thumbnail.h"

kiln_result kiln_thumb_model(const kiln_thumb_job *job, kiln_thumb_image *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    return kiln_thumb_error(err, KILN_E_IMPORT_UNSUPPORTED,
                            "%.200s: thumbnails of models, scenes, meshes and materials are not "
                            "drawn yet (textures are)",
                            job->name);
}
#endif
