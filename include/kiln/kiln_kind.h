/* kiln_kind.h — what a kind of cooked data is, as one const descriptor.
 *
 * A cooked kind is a file format an artifact is stored in: KTX2 for textures, and the kiln
 * container kinds (MESH, MATL, SKEL, CLIP, SCEN, SHDR, TMAT, VGEO) for the rest. Its descriptor
 * says how the file is recognised (the container's fourcc; labels of the artifacts of that kind),
 * how it is read into a view, and which other artifacts it refers to by asset id. Packing (which
 * artifacts must ship together), the runtime (which assets to load before another is ready) and
 * the inspector all take that from the descriptor, so "which artifact needs which" is said once,
 * by the kind.
 *
 * The cooked-kind part is libc only and part of libkiln_rt; source kinds (a program's own kind of
 * source file, cooked by its own function) are registered with a project of libkiln. */
#ifndef KILN_KIND_H
#define KILN_KIND_H

#include "kiln/kiln_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills err (may be NULL) with a code and a printf-style message, as kiln's own errors are
 * filled, for the functions of a program's kinds; returns code. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
KILN_API kiln_result
kiln_error_printf(kiln_error *err, kiln_result code, const char *fmt, ...);

/* A reference's flags. */
enum {
    /* The runtime loads the referenced asset with this one, and this one is ready only when it
     * is (a material's textures, a scene's meshes). Without it the reference only says what
     * must ship in the same pack (a clip's skeleton: an engine samples the clip against the
     * skeleton it chose). */
    KILN_REF_LOAD = 1u << 0,
    /* The id counts once however often it is reported with this flag (a scene's skeletons,
     * named by any number of nodes): callers keep the first report and drop the repeats. A kind
     * may report repeats so that listing stays linear and needs no memory; references without
     * the flag are positional and kept as reported (a scene's primitive meshes). */
    KILN_REF_ONCE = 1u << 1,
};

/* Called once per reference, in the kind's fixed order. kind is the cooked kind the referenced
 * artifact must have (its fourcc). A zero id is reported where a kind's references are
 * positional (a scene's primitives): it refers to nothing. A non-OK return stops the walk. */
typedef kiln_result (*kiln_ref_fn)(void *user, uint64_t asset_id, uint32_t kind, uint32_t flags,
                                   kiln_error *err);

/* ---- describing an artifact: what `kiln inspect` says about it ------------------------------ */

/* Where a kind's describe() writes its summary: a tree of objects, arrays and values, as JSON has
 * them, written through the functions below without a JSON library (kiln_inspect_file makes the
 * members of its document of them). Opaque: kiln makes one and hands it to describe().
 *
 * describe() starts inside an object the caller opened and writes its members. In an object
 * every call names its member by key; in an array key is NULL. A misuse (a key missing or given
 * where it must not be, an end without a begin, more than KILN_DESCRIBE_MAX_DEPTH levels, an
 * object left open) fails the whole description, and kiln_inspect_file reports it; calls after
 * the first misuse do nothing. */
typedef struct kiln_describe kiln_describe;

#define KILN_DESCRIBE_MAX_DEPTH 32

KILN_API void kiln_describe_object(kiln_describe *d, const char *key); /* opens an object */
KILN_API void kiln_describe_array(kiln_describe *d, const char *key);  /* opens an array */
KILN_API void kiln_describe_end(kiln_describe *d); /* closes the innermost object or array */
KILN_API void kiln_describe_int(kiln_describe *d, const char *key, int64_t value);
/* A real number; null when not finite (JSON has no infinity). */
KILN_API void kiln_describe_number(kiln_describe *d, const char *key, double value);
/* A float as the shortest decimal that reads back as the same float (0.8, not 0.800000012);
 * null when not finite. */
KILN_API void kiln_describe_float(kiln_describe *d, const char *key, float value);
/* An array of count floats, each as kiln_describe_float writes it. */
KILN_API void kiln_describe_floats(kiln_describe *d, const char *key, const float *values,
                                   size_t count);
/* size bytes of s (UTF-8, may hold NULs; NULL is ""). A string that is not valid UTF-8 is left
 * out of the document, as JSON cannot hold it. */
KILN_API void kiln_describe_string(kiln_describe *d, const char *key, const char *s, size_t size);
KILN_API void kiln_describe_bool(kiln_describe *d, const char *key, bool value);
KILN_API void kiln_describe_null(kiln_describe *d, const char *key);

typedef struct kiln_cooked_kind {
    /* "texture", "mesh", "material", "skeleton", "clip", "scene", "shader", "typed_material",
     * "vgeo". */
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
    kiln_result (*read)(const void *data, size_t size, uint32_t flags, void *view, kiln_error *err);
    /* Lists the asset ids the artifact refers to from a view read() filled. NULL: none. */
    kiln_result (*refs)(const void *view, kiln_ref_fn fn, void *user, kiln_error *err);
    /* What `kiln inspect` says about an artifact, from a view read() filled: its members, written
     * to d. A container's summary is the document's member named after the kind ("mesh": {...});
     * a KTX2 file's members are the document's own. NULL: none (inspect shows the container's
     * header and section table alone). Added after refs: a descriptor initialised by position
     * without it has none. */
    void (*describe)(const void *view, kiln_describe *d);
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

/* ---- source kinds registered by a program (libkiln, the cook side) ------------------------ */

/* A program adds a kind of source file to a project with kiln_project_register_kind: the scan
 * then takes files with its extensions, .meta files may hold an import.<name> object of its
 * settings (validated by kiln against the fields below, with the same errors as built-in
 * settings), the key covers its name, version, settings and source bytes, and import, report,
 * reimport, pack and gc treat its assets like any other. Its cook turns the source bytes into
 * artifacts (usually kiln containers of a cooked kind the program registers too, so that pack
 * can follow their references and libkiln_rt can load them: krt_register_type in kiln_rt.h).
 * docs/extending.md walks through a whole kind. */

typedef enum kiln_setting_type {
    KILN_SETTING_BOOL = 1,   /* JSON true/false; value.number is 0 or 1 */
    KILN_SETTING_INT = 2,    /* a JSON integer within [min, max] */
    KILN_SETTING_NUMBER = 3, /* a finite JSON number within [min, max] */
    KILN_SETTING_CHOICE = 4, /* one of choices; value.choice is the string */
} kiln_setting_type;

typedef struct kiln_setting_field {
    const char *name; /* [a-z0-9_]+, unique within the kind */
    kiln_setting_type type;
    double min, max;            /* INT and NUMBER: the allowed range, inclusive */
    const char *const *choices; /* CHOICE: the allowed strings, NULL-terminated */
    double default_number;      /* BOOL (0 or 1), INT, NUMBER */
    const char *default_choice; /* CHOICE: one of choices */
    const char *description;    /* one line, for the JSON Schema */
} kiln_setting_field;

typedef struct kiln_setting_value {
    double number;      /* BOOL, INT, NUMBER */
    const char *choice; /* CHOICE (points into the field's choices) */
} kiln_setting_value;

/* What a cook reads. Everything is borrowed for the duration of the call. */
typedef struct kiln_cook_input {
    const uint8_t *source; /* the source file's bytes */
    size_t size;
    const char *path;     /* relative to the asset root ('/'-separated), for messages */
    const char *dir;      /* the source's folder, absolute */
    const char *guid;     /* 32 lowercase hex digits: kiln_asset_id(guid, label) */
    const char *platform; /* the target platform, "" for none */
    const kiln_setting_value *settings; /* one per field of the kind, in its order */
} kiln_cook_input;

/* Reports one file a source reads besides itself (kiln_source_kind_desc.dependencies). */
typedef kiln_result (*kiln_dep_report_fn)(void *report_user, const char *path, kiln_error *err);

/* Where a cook puts what it made (opaque). */
typedef struct kiln_cook_output kiln_cook_output;

typedef struct kiln_source_kind_desc {
    uint32_t struct_size; /* sizeof(kiln_source_kind_desc); 0 = the current size */
    /* [a-z0-9_]+, not a kind or settings object kiln has: "kind" in keys, records and reports,
     * and the name of the settings object import.<name>. */
    const char *name;
    /* Extensions of the files it takes, lower case, without the dot; NULL-terminated. None may
     * be one another kind takes. */
    const char *const *extensions;
    const kiln_setting_field *settings;
    size_t setting_count; /* at most KILN_KIND_MAX_SETTINGS over all registered kinds */
    /* The cook's own version: it enters the key, so bump it when the cook's output changes. */
    uint32_t version;
    /* Cooks in->source into artifacts added to out. Called on worker threads, several sources
     * at once: keep no unsynchronised state in user. On failure return the error's code with
     * err filled (KILN_E_IMPORT_FAILED for a bad source); what was added is dropped. */
    kiln_result (*cook)(void *user, const kiln_cook_input *in, kiln_cook_output *out,
                        kiln_error *err);
    void *user;
    /* Lists every file besides the source that the cook reads (an include, a palette), calling
     * report once per file with its path relative to the source's folder ('/'-separated). The
     * files' bytes enter the key (a change to one makes the asset stale; a missing one is
     * recorded as missing), so the cook must read nothing else. A path that leads outside the
     * source's folder (absolute, "..", a symlink) is refused: KILN_E_OUTPUT_REFUSED. Called
     * before each import and report of the asset, on worker threads, with in->platform "".
     * NULL: the source alone. */
    kiln_result (*dependencies)(void *user, const kiln_cook_input *in, kiln_dep_report_fn report,
                                void *report_user, kiln_error *err);
} kiln_source_kind_desc;

#define KILN_KIND_MAX_SETTINGS 64

typedef struct kiln_project kiln_project;

/* Registers a source kind and the cooked kinds its artifacts are stored in (cooked may be NULL
 * when count is 0) with a project, before its first import, report or pack. The descriptors are
 * borrowed for the project's life. Errors: KILN_E_USAGE naming what is wrong (a missing cook, a
 * name or extension already taken, a bad setting field, a cooked kind whose fourcc or label
 * prefix another has, more than KILN_KIND_MAX_SETTINGS settings). */
KILN_API kiln_result kiln_project_register_kind(kiln_project *p,
                                                const kiln_source_kind_desc *source,
                                                const kiln_cooked_kind *const *cooked,
                                                size_t cooked_count, kiln_error *err);

/* The JSON Schema (draft 2020-12) of the kind's import.<name> object: every field with its type,
 * range or choices, default and description. Free with kiln_string_free; NULL when out of
 * memory or when the descriptor is not valid. */
KILN_API char *kiln_source_kind_schema(const kiln_source_kind_desc *source);

/* Adds an artifact: label ([a-z0-9_/]+, unique within the source; its asset id is
 * kiln_asset_id(guid, label)) stored in file (a plain name: [A-Za-z0-9_.-]+), with a copy of
 * the bytes. Errors: KILN_E_USAGE (a bad or repeated label or file), KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_cook_output_add(kiln_cook_output *out, const char *label,
                                          const char *file, const void *data, size_t size,
                                          kiln_error *err);

/* One section of a kiln container to write: count elements of element_size bytes. */
typedef struct kiln_section_desc {
    uint32_t id;           /* KILN_FOURCC, unique within the container */
    uint32_t element_size; /* bytes of one element, >= 1 */
    uint64_t count;
    const void *data; /* count * element_size bytes (NULL when count is 0) */
} kiln_section_desc;

/* Lays sections out as a kiln container of this kind (fourcc) and layout version, in the order
 * given (docs/formats.md: header, section table, 16-byte aligned sections, XXH3-64 checksum) and
 * adds it as kiln_cook_output_add does. Deterministic. Errors: those of kiln_cook_output_add,
 * KILN_E_USAGE (a repeated section id, element size 0, more than KILN_CONTAINER_MAX_SECTIONS),
 * KILN_E_LIMIT (sizes that overflow). */
KILN_API kiln_result kiln_cook_output_add_container(kiln_cook_output *out, const char *label,
                                                    const char *file, uint32_t kind,
                                                    uint32_t kind_version,
                                                    const kiln_section_desc *sections,
                                                    size_t section_count, kiln_error *err);

/* A warning kept in the manifest and shown by import (copied). */
KILN_API kiln_result kiln_cook_output_warn(kiln_cook_output *out, const char *message);

/* A number in the summary the manifest keeps and import prints (key copied; a repeated key
 * replaces the value). */
KILN_API kiln_result kiln_cook_output_summary(kiln_cook_output *out, const char *key, double value);

#ifdef __cplusplus
}
#endif

#endif
