/* cooked_kind.h — the built-in cooked kinds (include/kiln/kiln_kind.h says what a descriptor
 * holds); each is defined in its own file beside the reader it binds. */
#ifndef KILN_CODEC_COOKED_KIND_H
#define KILN_CODEC_COOKED_KIND_H

#include "kiln/kiln_kind.h"

extern const kiln_cooked_kind kiln_cooked_kind_texture;
extern const kiln_cooked_kind kiln_cooked_kind_mesh;
extern const kiln_cooked_kind kiln_cooked_kind_material;
extern const kiln_cooked_kind kiln_cooked_kind_skeleton;
extern const kiln_cooked_kind kiln_cooked_kind_clip;
extern const kiln_cooked_kind kiln_cooked_kind_scene;
extern const kiln_cooked_kind kiln_cooked_kind_shader;
extern const kiln_cooked_kind kiln_cooked_kind_typed_material;
extern const kiln_cooked_kind kiln_cooked_kind_vgeo;

#endif
