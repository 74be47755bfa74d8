/* cook_model_template.h — a model's material cooked against the .kmat template its settings
 * name (cook_model_template.c). */
#ifndef KILN_PIPELINE_COOK_MODEL_TEMPLATE_H
#define KILN_PIPELINE_COOK_MODEL_TEMPLATE_H

#include <jansson.h>

#include "kiln/kiln_scene.h"
#include "pipeline/cook.h"

/* The template of the material named name: the entry of that name, else "*", else NULL. */
const kiln_model_template *kiln_model_template_for(const kiln_cook_env *env, const char *name);

/* Material `index` of sc cooked against t into TMAT bytes (allocated from env->allocator):
 * its factors, normal scale, occlusion strength and alpha cutoff as the parameters
 * base_color_factor (vec4), metallic_factor, roughness_factor, emissive_factor (vec3),
 * emissive_strength, normal_scale, occlusion_strength, alpha_cutoff (floats), the material
 * extensions' factors by the snake_case of their glTF keys (clearcoat_factor,
 * clearcoat_roughness_factor, clearcoat_normal_scale, sheen_color_factor (vec3), ...,
 * ior, dispersion; glTF's defaults where the material lacks the extension), its textures
 * (image_ids: the model's cooked image of each kiln_scene_slot, 0 for none) as
 * base_color_texture, metallic_roughness_texture, normal_texture, occlusion_texture,
 * emissive_texture, clearcoat_texture, ..., anisotropy_texture with their samplers, and its alpha
 * mode, cutoff and double-sidedness as the render state; each where the template's fragment shader
 * declares one of that name. *row: the summary's row (a new object). Errors: those of
 * kiln_kmat_template_cook, prefixed with the material and the template. */
kiln_result kiln_model_template_cook(const kiln_cook_env *env, const kiln_model_template *t,
                                     const kiln_scene *sc, uint32_t index,
                                     const uint64_t image_ids[KILN_SCENE_SLOT_COUNT],
                                     uint8_t **bytes, size_t *size, json_t **row, kiln_error *err);

#endif
