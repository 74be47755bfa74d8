/* source_kind.h — what a kind of source file is, as one const descriptor: the file names the scan
 * takes for it, the settings it reads and how they enter the cache key, the other files its cook
 * reads, the checks of settings that parse but cannot be cooked, and the cook itself. The
 * database, key, dependency, cook, import, report and convert code loop over the registry
 * (source_kinds.c) and name no kind; a kind's descriptor lives in the file of its cook. */
#ifndef KILN_PIPELINE_SOURCE_KIND_H
#define KILN_PIPELINE_SOURCE_KIND_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"
#include "kiln/kiln_kind.h"

typedef struct kiln_project kiln_project;
typedef struct kiln_asset kiln_asset;
typedef struct kiln_cooked kiln_cooked;

/* Called once per file a source reads besides itself, with its absolute path inside dir. */
typedef kiln_result (*kiln_dep_fn)(void *user, const char *path, kiln_error *err);

typedef struct kiln_source_kind {
    /* "texture", "model": the kind in cache keys ("kind <name>"), records, reports. */
    const char *name;
    /* File name extensions, lower case, without the dot; NULL-terminated. Matched without
     * regard to case: the scan takes a file for the first kind that lists its extension. */
    const char *const *extensions;
    /* The settings of the asset that enter its key, as one JSON object with every field present
     * (dumped canonically by the key). */
    json_t *(*settings_json)(const kiln_asset *a);
    /* True when the cooked bytes depend on the target (format "auto" on a platform that prefers
     * ASTC): the key then says so. NULL = never. */
    bool (*target_dependent)(const kiln_asset *a);
    /* The cooked artifacts name each other by asset ids made from the GUID: the GUID enters the
     * key, so two copies of one source never share an entry naming the other's ids. */
    bool key_has_guid;
    /* Lists every file besides the source that the cook reads (dir: the source's folder, real
     * path, or the asset root's with deps_from_root; each path reported lies inside it). Their
     * digest enters the key and their stat the import record. NULL = the source alone. */
    kiln_result (*dependencies)(const kiln_asset *a, const uint8_t *source, size_t size,
                                const char *dir, kiln_dep_fn fn, void *user, kiln_error *err);
    /* Lists the sources of the project besides `dependencies`' files whose cache keys enter the
     * key (a model's material templates, from its settings alone: called on every key, the
     * source's bytes read or not). fn gets each one's absolute path inside root (the asset root
     * holding the source, real path); the digest takes its key and GUID, as for deps_are_assets,
     * and the record lists it as "/<root-relative path>". NULL = none. */
    kiln_result (*asset_dependencies)(const kiln_asset *a, const char *root, kiln_dep_fn fn,
                                      void *user, kiln_error *err);
    /* The files `dependencies` reports are found from the asset root holding the source rather
     * than from the source's folder (shader includes: include_dirs are root-relative), and
     * recorded relative to that root. */
    bool deps_from_root;
    /* Every file `dependencies` lists is itself a source of the project (a material's shaders,
     * parent and textures): its entry in the digest is the source's current cache key and GUID,
     * which cover its bytes, its settings and its own dependencies, rather than its bytes. */
    bool deps_are_assets;
    /* Whether a file of the kind's extensions is an asset on its own; false makes the scan
     * leave it out (skipped, reason "library") — a shader include library (lib.glsl: no stage
     * in its name or settings). NULL = always. Called with the settings loaded. */
    bool (*standalone)(const kiln_asset *a);
    /* A cook that fails with E_IMPORT_FAILED, _SETTINGS or _UNSUPPORTED fails for what the key
     * covers alone (no child process, no library loaded at run time, no limit of the machine):
     * an import under the key its record says failed reports that failure again without
     * cooking (docs/cache.md "Asset records"); --force or another key cooks. */
    bool failures_follow_key;
    /* What else changes the cooked bytes besides the source, settings and dependencies: the
     * versions of the external tools the cook runs (a compiler). Enters the key as
     * "tools <text>\n" (docs/cache.md). NULL = nothing. Returns out. */
    const char *(*tools)(char *out, size_t cap);
    /* Settings that are valid JSON-wise but cannot be cooked (KILN_E_IMPORT_SETTINGS with the
     * field's JSON pointer), checked before anything is cooked or written. NULL = none. */
    kiln_result (*check_settings)(const kiln_asset *a, kiln_error *err);
    /* Cooks the source bytes (borrowed) into *out (empty on error). */
    kiln_result (*cook)(kiln_project *p, const kiln_asset *a, const uint8_t *source, size_t size,
                        kiln_cooked *out, kiln_error *err);
    /* The JSON Schema (draft 2020-12) of the settings objects the kind reads, as the text of one
     * JSON object: {"texture": <the schema of import.texture>}. A schema may refer to the
     * definitions the .meta schema shares ("#/$defs/textureFormat", "#/$defs/quality").
     * docs/schemas/meta.schema.json holds each under $defs.<name>; tests/settings
     * (test_kind_schema.c) fails when the two differ or when a field of the settings parser has
     * no schema. NULL: no settings (a registered kind's schema is kiln_source_kind_schema's). */
    const char *settings_schema;
    /* The settings objects (import.<group>) whose fields the kind reads, NULL-terminated:
     * {"model", "fbx"}. An edit that sets another group is refused (a setting that would do
     * nothing): kiln_settings_check_edit_applies. */
    const char *const *settings_groups;
} kiln_source_kind;

/* The kinds of a project: the built-in ones, then those a program registered
 * (kind_registry.c, through kiln_project_register_kind). Every lookup below takes the registry;
 * NULL means the built-in kinds alone. */
typedef struct kiln_kind_registry kiln_kind_registry;
typedef struct kiln_settings_ext kiln_settings_ext;

/* The kind that takes this file name, by its extension; NULL when none does. */
const kiln_source_kind *kiln_source_kind_of(const kiln_kind_registry *reg, const char *path);
/* A kind by its name; NULL when none has it. */
const kiln_source_kind *kiln_source_kind_named(const kiln_kind_registry *reg, const char *name);
/* The kinds in registry order: NULL when i is past the last. */
const kiln_source_kind *kiln_source_kind_at(const kiln_kind_registry *reg, size_t i);
/* The kind's name, "none" for NULL (a file of no kind). */
const char *kiln_source_kind_name(const kiln_source_kind *k);
/* Every extension the registry knows, for messages: "png, jpg, ...; gltf, glb, ..." (one group
 * per kind). Returns out. */
const char *kiln_source_kind_extension_list(const kiln_kind_registry *reg, char *out, size_t cap);

/* Cooked kinds, built-in or registered, by fourcc or label (kiln_kind.h says what they hold). */
const kiln_cooked_kind *kiln_kinds_cooked_of_fourcc(const kiln_kind_registry *reg, uint32_t fourcc);
const kiln_cooked_kind *kiln_kinds_cooked_of_label(const kiln_kind_registry *reg, const char *label,
                                                   const char **prefix);
/* The settings objects of the registered kinds, for the settings parser (NULL when none). */
const kiln_settings_ext *kiln_kinds_settings(const kiln_kind_registry *reg);
/* The registered kinds (past the built-ins) and their cooked kinds. */
size_t kiln_kinds_registered_count(const kiln_kind_registry *reg);
const kiln_source_kind *kiln_kinds_registered_at(const kiln_kind_registry *reg, size_t i);
void kiln_kind_registry_free(const kiln_allocator *a, kiln_kind_registry *reg);

/* The built-in kinds (defined beside their cooks). */
extern const kiln_source_kind kiln_source_kind_texture;
extern const kiln_source_kind kiln_source_kind_model;
extern const kiln_source_kind kiln_source_kind_shader;
extern const kiln_source_kind kiln_source_kind_kmat;
extern const kiln_source_kind kiln_source_kind_ktex;

#endif
