/* cook_kmat.h — a .kmat typed material cooked against its shaders into one TMAT container
 * (cook_kmat.c), and the sources it refers to (its dependencies: they are assets themselves). */
#ifndef KILN_PIPELINE_COOK_KMAT_H
#define KILN_PIPELINE_COOK_KMAT_H

#include "pipeline/cook.h"
#include "process/material_block.h"

/* The output of a .kmat asset. */
#define KILN_KMAT_LABEL "typed_material"
#define KILN_KMAT_FILE  "typed_material.tmat"

/* Calls fn with the absolute path of every source the material (source, root-relative name rel)
 * refers to itself: its parent, its shaders, its textures (those of its parents are in the
 * parent's key). The chain of parents is read to refuse a cycle or more than
 * KILN_KMAT_MAX_DEPTH documents. Errors: KILN_E_IMPORT_SETTINGS (a bad document, a path leaving
 * the root, a cycle: the JSON pointer names the field), KILN_E_ASSET_IO (a parent that cannot
 * be read), and what fn returns. */
kiln_result kiln_kmat_source_dependencies(const char *root, const char *rel, const uint8_t *source,
                                          size_t size, kiln_dep_fn fn, void *user, kiln_error *err);

/* Cooks the material into one output (KILN_KMAT_LABEL). Its shaders' cooked files come from
 * their cache entries, or are cooked now when an entry is missing. Errors: those of the
 * dependencies, KILN_E_IMPORT_SETTINGS (a parameter unknown to the shader's block or of the
 * wrong type, named with its pointer; a texture for no sampled image or a sampled image without
 * a texture; stages whose interfaces differ; blending with a shader that writes no alpha; a
 * shader that is not of its stage or lacks the variant), the shaders' own errors. */
kiln_result kiln_cook_kmat_source(kiln_project *p, const char *root, const char *rel,
                                  const uint8_t *source, size_t size, kiln_cooked *out,
                                  kiln_error *err);

/* ---- templates: a .kmat read and prepared once, cooked for one or many materials ---------- */

/* A .kmat merged with its parents, its two shaders loaded and checked against each other (the
 * stage interfaces), its parameter block found and its own textures bound and named by asset
 * id: what kiln_cook_kmat_source cooks, and what a model's glTF materials are cooked against
 * (import.model.material_templates). */
typedef struct kiln_kmat_template kiln_kmat_template;

/* Loads the template at root-relative rel (source: its bytes). Errors: those of
 * kiln_cook_kmat_source that do not depend on the values (a bad document, a shader that is
 * missing, fails, is of the other stage or lacks the variant, interfaces that differ, parameters
 * without a block, a texture for no image or that is not a texture source). Free with
 * kiln_kmat_template_free. */
kiln_result kiln_kmat_template_load(kiln_project *p, const char *root, const char *rel,
                                    const uint8_t *source, size_t size, kiln_kmat_template **out,
                                    kiln_error *err);
/* The same for the file root/rel (read with the read rule: it must resolve inside root). */
kiln_result kiln_kmat_template_load_file(kiln_project *p, const char *root, const char *rel,
                                         kiln_kmat_template **out, kiln_error *err);
void kiln_kmat_template_free(kiln_kmat_template *t);              /* NULL is a no-op */
const char *kiln_kmat_template_name(const kiln_kmat_template *t); /* its root-relative path */

/* What one material puts over a template. Parameters and textures apply by name where the
 * fragment shader reads one of that name (a block member path, an image binding) and are left
 * out elsewhere: a glTF material offers every value it has, the template's shader takes those
 * it declares. A parameter the shader declares with another type is an error naming it. */
typedef struct kiln_kmat_overrides {
    const char *name; /* the cooked material's name (kiln_typed_material.name) */
    const kiln_material_param *params;
    size_t param_count;
    /* name, image (asset id) and sampler of each; set and binding are filled from the shader */
    const kiln_typed_material_texture *textures;
    size_t texture_count;
    /* The render state the material states (a glTF material always does): alpha mode, cutoff,
     * double-sided; blending follows the alpha mode (the template's blend for blend, when it
     * has one, else alpha), depth writes too unless the template set them. */
    bool has_render_state;
    uint32_t alpha_mode; /* kiln_material_alpha */
    float alpha_cutoff;
    bool double_sided;
} kiln_kmat_overrides;

/* Cooks one typed material (TMAT bytes, allocated from the project's allocator; *summary: a new
 * JSON object) from the template and o (NULL: the template as it is — a .kmat's own cook).
 * Errors: KILN_E_IMPORT_SETTINGS (a value of the wrong type for its member, a sampled image
 * without a texture, alpha that the shader does not write), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_kmat_template_cook(const kiln_kmat_template *t, const kiln_kmat_overrides *o,
                                    uint8_t **bytes, size_t *size, json_t **summary,
                                    kiln_error *err);

#endif
