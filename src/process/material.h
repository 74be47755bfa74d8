/* material.h — a material of the scene turned into a cooked material: its
 * factors, alpha, flags, and per texture slot the image artifact the pipeline cooked for it
 * (by asset id), the sampler, the UV set and the texture transform. In memory only:
 * src/write/material_write.c serializes it (docs/formats.md, "Materials"). */
#ifndef KILN_PROCESS_MATERIAL_H
#define KILN_PROCESS_MATERIAL_H

#include <stdint.h>

#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"

/* The cook fills the very struct that kiln_material_read gives back, so a round trip compares
 * member by member. name is borrowed from the scene (or a string literal). */
typedef kiln_material kiln_cooked_material;

/* How the image of a slot is cooked: sRGB colour, a normal map, or linear data. */
typedef enum kiln_image_role {
    KILN_IMAGE_ROLE_COLOR = 0,
    KILN_IMAGE_ROLE_NORMAL = 1,
    KILN_IMAGE_ROLE_LINEAR = 2,
    KILN_IMAGE_ROLE_COUNT = 3,
} kiln_image_role;

/* The role of a kiln_scene_slot: base colour, emissive, sheen colour and specular colour are
 * sRGB colour; normal and clearcoat normal are normal maps; the rest linear. */
kiln_image_role kiln_material_slot_role(uint32_t slot);

/* Builds the cooked material of scene->materials[material], or of glTF's default material when
 * material is -1 (base colour 1, metallic 1, roughness 1, opaque, cutoff 0.5, no textures, no
 * extensions). The extensions the scene material has are kept with their factors (the others
 * get glTF's defaults) and the textures of their slots (a texture of an extension the material
 * lacks is dropped).
 * image_ids[slot] (KILN_SCENE_SLOT_COUNT entries in kiln_scene_slot order: the five core slots
 * then the extensions'; the array may be NULL: all 0) is the asset id of
 * the image artifact the pipeline cooked for that slot, 0 when it cooked none (the slot is then
 * empty, whatever the source had). The sampler comes from the slot's texture (glTF's default
 * sampler when it has none: renderer's filters, mipmaps, repeat). The texture transform is kept
 * as given and as a matrix (kiln_material_texture in kiln_format.h).
 *
 * Never allocates; *out borrows the material's name from the scene. Errors: KILN_E_USAGE (NULL
 * scene or out, material out of range, an id for a slot the source leaves empty),
 * KILN_E_IMPORT_FAILED (a texture or sampler index out of range, a factor not finite or out of
 * its range, an unknown alpha mode or filter), KILN_E_IMPORT_UNSUPPORTED (a UV set past
 * KILN_MATERIAL_MAX_UV_SETS); the message names material and slot. On error *out is zeroed.
 * Deterministic (the matrix uses libm's sin and cos in double precision, rounded to float);
 * thread-safe. */
kiln_result kiln_material_build(const kiln_scene *scene, int32_t material,
                                const uint64_t *image_ids, kiln_cooked_material *out,
                                kiln_error *err);

/* The name of a kiln_scene_slot as docs/formats.md and kiln inspect print it: "base_color",
 * "metallic_roughness", "normal", "occlusion", "emissive", then the extensions' ("clearcoat",
 * ..., kiln_material_ext_slot_name); "" for other values. */
const char *kiln_material_slot_name(uint32_t slot);

/* The 3x2 column-major matrix of a KHR_texture_transform (see kiln_material_texture). */
void kiln_material_transform_matrix(const float offset[2], float rotation, const float scale[2],
                                    float m[6]);

#endif
