/* cook_shader.c — a GLSL or HLSL source cooked into one SHDR container: its variants (each a set
 * of defines) compiled with shaderc, validated with SPIRV-Tools and reflected with SPIRV-Cross
 * (src/process/shader_*.h), then written with kiln_shader_write. Includes are resolved here, for
 * the cook and for the dependency listing alike: relative to the including file ("name"), then
 * through import.shader.include_dirs, every candidate confined to the project root, so an include
 * never reads outside it. docs/shaders.md says it for users. */
#include "pipeline/cook_shader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json.h"
#include "core/path.h"
#include "process/shader_compile.h"
#include "process/shader_reflect.h"
#include "write/shader_write.h"

#define MAX_INCLUDE_SIZE  ((size_t)16 << 20) /* one included file */
#define MAX_INCLUDE_FILES 1024u              /* distinct files one variant may read */

/* A file an include read, kept until the compile that asked for it ends. */
typedef struct include_file {
    char *rel; /* root-relative */
    uint8_t *data;
    size_t size;
} include_file;

/* The include resolver's state: the root, the search folders, what was read, and (for the
 * dependency listing) where each candidate path goes. */
typedef struct includes {
    const kiln_allocator *alloc;
    const char *root;    /* real path, no trailing slash */
    const json_t *dirs;  /* include_dirs: root-relative folders (array) or NULL */
    include_file *files; /* read so far */
    size_t count, cap;
    kiln_dep_fn record; /* NULL: not listing dependencies */
    void *record_user;
    json_t *recorded; /* root-relative paths already reported (object used as a set) */
} includes;

static void includes_free(includes *in)
{
    for (size_t i = 0; i < in->count; i++) {
        kiln_free(in->alloc, in->files[i].rel, strlen(in->files[i].rel) + 1);
        kiln_free(in->alloc, in->files[i].data, in->files[i].size + 1);
    }
    kiln_free(in->alloc, in->files, in->cap * sizeof *in->files);
    json_decref(in->recorded);
    in->files = NULL;
    in->count = in->cap = 0;
    in->recorded = NULL;
}

/* Reports a candidate path (found or not: a file created later at an earlier candidate changes
 * what the include reads, so the miss is part of the key too). */
static kiln_result record(includes *in, const char *rel, const char *abs, kiln_error *err)
{
    if (!in->record || json_object_get(in->recorded, rel)) return KILN_OK;
    if (json_object_set_new(in->recorded, rel, json_true()) != 0)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory listing includes");
    return in->record(in->record_user, abs, err);
}

/* The root-relative candidate "base/requested", normalised; false when it leaves the root. */
static bool candidate(const char *base, const char *requested, char *out, size_t cap)
{
    char joined[KILN_PATH_MAX];
    if (!kiln_path_format(joined, sizeof joined, "%s%s%s", base, base[0] ? "/" : "", requested))
        return false;
    if (kiln_path_normalize(joined, out, cap, NULL) != KILN_OK) return false;
    return strcmp(out, "..") != 0 && strncmp(out, "../", 3) != 0 && out[0] != '/' &&
           strcmp(out, ".") != 0;
}

/* Reads root/rel once (an include named again is served from memory). */
static kiln_result include_read(includes *in, const char *rel, const char *abs,
                                const include_file **out, kiln_error *err)
{
    for (size_t i = 0; i < in->count; i++)
        if (!strcmp(in->files[i].rel, rel)) {
            *out = &in->files[i];
            return KILN_OK;
        }
    if (in->count == MAX_INCLUDE_FILES)
        return kiln_error_set(err, KILN_E_LIMIT, "more than %u included files", MAX_INCLUDE_FILES);
    /* The read rule: with its links resolved the file lies inside the root, or it is not read. */
    kiln_result r = kiln_path_confine_read(abs, in->root, NULL, 0, err);
    if (r != KILN_OK) {
        if (err) err->code = KILN_E_IMPORT_FAILED;
        return KILN_E_IMPORT_FAILED;
    }
    if (in->count == in->cap) {
        size_t nc = in->cap ? in->cap * 2 : 8;
        include_file *nf =
            kiln_realloc(in->alloc, in->files, in->cap * sizeof *nf, nc * sizeof *nf);
        if (!nf) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory reading includes");
        in->files = nf;
        in->cap = nc;
    }
    include_file f = {kiln_strdup(in->alloc, rel), NULL, 0};
    if (!f.rel) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory reading includes");
    r = kiln_file_read(abs, MAX_INCLUDE_SIZE, in->alloc, &f.data, &f.size, err);
    if (r != KILN_OK) {
        kiln_free(in->alloc, f.rel, strlen(f.rel) + 1);
        return r;
    }
    in->files[in->count] = f;
    *out = &in->files[in->count++];
    return KILN_OK;
}

/* kiln_shader_include_fn: "name" from the including file's folder first, then <name> and
 * "name" through include_dirs in order. */
static kiln_result resolve(void *user, const char *requested, const char *requesting, bool relative,
                           const char **resolved, const uint8_t **data, size_t *size,
                           kiln_error *err)
{
    includes *in = user;
    if (!requested[0] || requested[0] == '/' || strchr(requested, '\\'))
        return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                              "include \"%.120s\": allowed: a '/'-separated relative path",
                              requested);
    size_t ndirs = json_array_size(in->dirs);
    char folder[KILN_PATH_MAX];
    if (!kiln_path_dirname(requesting, folder, sizeof folder))
        return kiln_error_set(err, KILN_E_LIMIT, "include path too long");
    if (!strcmp(folder, ".")) folder[0] = '\0';
    for (size_t c = relative ? 0 : 1; c <= ndirs; c++) {
        const char *base = c == 0 ? folder : json_string_value(json_array_get(in->dirs, c - 1));
        if (!strcmp(base, ".")) base = "";
        char rel[KILN_PATH_MAX], abs[KILN_PATH_MAX];
        if (!candidate(base, requested, rel, sizeof rel))
            return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                                  "include \"%.120s\" leads outside the project root", requested);
        if (!kiln_path_format(abs, sizeof abs, "%s/%s", in->root, rel))
            return kiln_error_set(err, KILN_E_LIMIT, "include path too long");
        kiln_result r = record(in, rel, abs, err);
        if (r != KILN_OK) return r;
        kiln_file_info fi;
        if (kiln_file_stat(abs, &fi, NULL) != KILN_OK || !fi.is_file) continue;
        const include_file *f = NULL;
        if ((r = include_read(in, rel, abs, &f, err)) != KILN_OK) return r;
        *resolved = f->rel;
        *data = f->data;
        *size = f->size;
        return KILN_OK;
    }
    return kiln_error_set(err, KILN_E_IMPORT_FAILED,
                          "cannot find include \"%.120s\" (looked %s%zu include_dirs)", requested,
                          relative ? "beside the including file and in " : "in ", ndirs);
}

/* ---- variants ------------------------------------------------------------------------------ */

/* One variant to compile: its name and defines (base defines under its own, sorted by name). */
typedef struct variant_plan {
    const char *name;
    json_t *defines; /* name -> string or null */
    char *defines_text;
    kiln_shader_define *list;
    size_t count;
} variant_plan;

static int key_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void plans_free(const kiln_allocator *a, variant_plan *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        json_decref(v[i].defines);
        free(v[i].defines_text); /* jansson's, from malloc */
        kiln_free(a, v[i].list, (v[i].count ? v[i].count : 1) * sizeof *v[i].list);
    }
    kiln_free(a, v, n * sizeof *v);
}

/* The defines of one plan as the compiler's list, in name order. */
static kiln_result plan_defines(const kiln_allocator *a, variant_plan *v, kiln_error *err)
{
    size_t n = json_object_size(v->defines);
    const char **keys = kiln_calloc(a, n ? n : 1, sizeof *keys);
    v->list = kiln_calloc(a, n ? n : 1, sizeof *v->list);
    v->count = n;
    v->defines_text = kiln_json_dump_canonical(v->defines);
    if (!keys || !v->list || !v->defines_text) {
        kiln_free(a, keys, (n ? n : 1) * sizeof *keys);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory planning variants");
    }
    size_t k = 0;
    const char *key;
    json_t *val;
    json_object_foreach (v->defines, key, val) keys[k++] = key;
    qsort(keys, n, sizeof *keys, key_cmp);
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_object_get(v->defines, keys[i]);
        v->list[i].name = keys[i];
        v->list[i].value = json_is_string(x) ? json_string_value(x) : NULL;
    }
    kiln_free(a, keys, (n ? n : 1) * sizeof *keys);
    return KILN_OK;
}

/* The variants the settings ask for, in name order: each of shader.variants with shader.defines
 * under its own defines, or one variant "default" with shader.defines. */
static kiln_result plan_variants(const kiln_allocator *a, const kiln_settings *s,
                                 variant_plan **out, size_t *count, kiln_error *err)
{
    const json_t *base = kiln_settings_list(s, "shader", "defines");
    const json_t *variants = kiln_settings_list(s, "shader", "variants");
    size_t n = json_object_size(variants) ? json_object_size(variants) : 1;
    variant_plan *v = kiln_calloc(a, n, sizeof *v);
    if (!v) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory planning variants");
    if (!json_object_size(variants)) {
        v[0].name = "default";
    } else {
        size_t k = 0;
        const char *key;
        json_t *val;
        json_object_foreach ((json_t *)variants, key, val) v[k++].name = key;
        qsort(v, n, sizeof *v, key_cmp); /* name is the first member */
    }
    kiln_result r = KILN_OK;
    for (size_t i = 0; i < n && r == KILN_OK; i++) {
        v[i].defines = base ? json_deep_copy(base) : json_object();
        const json_t *own = json_object_get(variants, v[i].name);
        if (!v[i].defines || (own && json_object_update(v[i].defines, (json_t *)own) != 0))
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory planning variants");
        else r = plan_defines(a, &v[i], err);
    }
    if (r != KILN_OK) {
        plans_free(a, v, n);
        return r;
    }
    *out = v;
    *count = n;
    return KILN_OK;
}

/* ---- options ------------------------------------------------------------------------------- */

static bool name_is_hlsl(const char *name)
{
    const char *ext = kiln_path_extension(name);
    return ext && !strcmp(ext, "hlsl");
}

kiln_result kiln_shader_settings_check(const kiln_settings *s, const char *name, kiln_error *err)
{
    if (s->shader.stage == KILN_SHADER_STAGE_AUTO && kiln_shader_stage_of_name(name) < 0) {
        kiln_error_set(err, KILN_E_IMPORT_SETTINGS,
                       "shader.stage is auto, but the name %s says no stage (.vert, .frag, "
                       ".comp, ..., or x.frag.glsl); allowed: a stage for such a file",
                       kiln_path_basename(name));
        kiln_error_at_pointer(err, "/import/shader/stage");
        return KILN_E_IMPORT_SETTINGS;
    }
    return KILN_OK;
}

static void compile_opts(const kiln_settings *s, const char *name, kiln_shader_compile_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->name = name;
    o->stage = s->shader.stage != KILN_SHADER_STAGE_AUTO
                   ? s->shader.stage - 1
                   : (uint32_t)kiln_shader_stage_of_name(name);
    o->language = s->shader.language != KILN_SHADER_LANGUAGE_AUTO ? s->shader.language - 1
                  : name_is_hlsl(name)                            ? KILN_SHADER_HLSL
                                                                  : KILN_SHADER_GLSL;
    o->target = s->shader.target;
    o->optimize = s->shader.optimize;
    o->entry = s->shader.entry;
    o->warnings_as_errors = s->shader.warnings_as_errors;
    o->debug_info = s->shader.debug_info;
    o->include = resolve;
}

/* ---- dependencies -------------------------------------------------------------------------- */

kiln_result kiln_shader_source_dependencies(const kiln_settings *s, const char *root,
                                            const char *name, const uint8_t *source, size_t size,
                                            kiln_dep_fn fn, void *user, kiln_error *err)
{
    kiln_result r = kiln_shader_settings_check(s, name, err);
    if (r != KILN_OK) return r;
    variant_plan *plans = NULL;
    size_t n = 0;
    if ((r = plan_variants(NULL, s, &plans, &n, err)) != KILN_OK) return r;
    includes in;
    memset(&in, 0, sizeof in);
    in.root = root;
    in.dirs = kiln_settings_list(s, "shader", "include_dirs");
    in.record = fn;
    in.record_user = user;
    in.recorded = json_object();
    if (!in.recorded) r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    kiln_shader_compiler *compiler = NULL;
    if (r == KILN_OK) r = kiln_shader_compiler_create(NULL, &compiler, err);
    /* Each variant preprocessed: its defines decide which #include lines are live. */
    for (size_t i = 0; i < n && r == KILN_OK; i++) {
        kiln_shader_compile_opts o;
        compile_opts(s, name, &o);
        o.include_user = &in;
        o.compiler = compiler;
        o.defines = plans[i].list;
        o.define_count = plans[i].count;
        o.preprocess_only = true;
        kiln_shader_module m;
        r = kiln_shader_compile((const char *)source, size, &o, NULL, &m, err);
        kiln_shader_module_free(&m);
        if (r != KILN_OK && n > 1) kiln_error_prefix(err, "variant %s: ", plans[i].name);
    }
    kiln_shader_compiler_destroy(compiler);
    includes_free(&in);
    plans_free(NULL, plans, n);
    return r;
}

/* ---- the cook ------------------------------------------------------------------------------ */

/* The log's lines (at most 256 in all), each prefixed with the variant's name when there are
 * several, into warnings. The compiler quotes the source, whose bytes need not be UTF-8: such a
 * line is kept with its bytes outside ASCII as '?'. */
static void keep_warnings(json_t *warnings, const char *variant, bool named, const char *log)
{
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 0 && json_array_size(warnings) < 256) {
            char text[512];
            size_t n = 0;
            if (named) n = (size_t)snprintf(text, sizeof text, "variant %s: ", variant);
            for (size_t i = 0; i < len && n + 1 < sizeof text; i++) {
                unsigned char c = (unsigned char)line[i];
                text[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
            }
            text[n] = '\0';
            json_array_append_new(warnings, json_string(text));
        }
        line = end ? end + 1 : NULL;
    }
}

typedef struct variant_out {
    kiln_shader_module module;
    kiln_shader_reflection reflection;
} variant_out;

kiln_result kiln_cook_shader_source(const kiln_cook_env *env, const kiln_settings *s,
                                    const char *root, const uint8_t *source, size_t size,
                                    kiln_shader_compiler *compiler, kiln_cooked *out,
                                    kiln_error *err)
{
    const char *name = env->name;
    kiln_result r = kiln_shader_settings_check(s, name, err);
    if (r != KILN_OK) return r;
    variant_plan *plans = NULL;
    size_t n = 0;
    if ((r = plan_variants(env->allocator, s, &plans, &n, err)) != KILN_OK) return r;
    variant_out *vo = kiln_calloc(env->allocator, n, sizeof *vo);
    kiln_cooked_shader_variant *cv = kiln_calloc(env->allocator, n, sizeof *cv);
    json_t *warnings = json_array();
    if (!vo || !cv || !warnings)
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory cooking a shader");
    includes in;
    memset(&in, 0, sizeof in);
    in.alloc = env->allocator;
    in.root = root;
    in.dirs = kiln_settings_list(s, "shader", "include_dirs");
    kiln_shader_compile_opts o;
    compile_opts(s, name, &o);
    o.include_user = &in;
    /* One compiler for every variant: glslang's tables are built once per cook at most. */
    kiln_shader_compiler *own = NULL;
    if (r == KILN_OK && !compiler &&
        (r = kiln_shader_compiler_create(env->allocator, &own, err)) == KILN_OK)
        compiler = own;
    o.compiler = compiler;
    for (size_t i = 0; i < n && r == KILN_OK; i++) {
        o.defines = plans[i].list;
        o.define_count = plans[i].count;
        r = kiln_shader_compile((const char *)source, size, &o, env->allocator, &vo[i].module, err);
        if (r == KILN_OK)
            r = kiln_shader_validate(vo[i].module.words, vo[i].module.word_count, o.target, o.entry,
                                     o.stage, err);
        if (r == KILN_OK)
            r = kiln_shader_reflect(vo[i].module.words, vo[i].module.word_count, o.entry,
                                    env->allocator, &vo[i].reflection, err);
        if (r != KILN_OK) {
            if (n > 1) kiln_error_prefix(err, "variant %s: ", plans[i].name);
            break;
        }
        keep_warnings(warnings, plans[i].name, n > 1, vo[i].module.log);
        cv[i].name = plans[i].name;
        cv[i].defines = plans[i].defines_text;
        cv[i].words = vo[i].module.words;
        cv[i].word_count = vo[i].module.word_count;
        cv[i].reflection = &vo[i].reflection;
    }
    uint8_t *bytes = NULL;
    size_t file_size = 0;
    if (r == KILN_OK) {
        kiln_cooked_shader cs = {
            o.stage, o.language, o.target, o.optimize, o.debug_info ? KILN_SHADER_DEBUG_INFO : 0u,
            o.entry, cv,         n};
        r = kiln_shader_write(&cs, env->allocator, &bytes, &file_size, err);
    }
    if (r == KILN_OK) {
        json_t *sum = json_object();
        json_object_set_new(sum, "stage", json_string(kiln_shader_stage_name(o.stage)));
        json_object_set_new(sum, "variants", json_integer((json_int_t)n));
        json_object_set_new(sum, "files_included", json_integer((json_int_t)in.count));
        size_t words = 0;
        for (size_t i = 0; i < n; i++) words += cv[i].word_count;
        json_object_set_new(sum, "spirv_bytes", json_integer((json_int_t)(words * 4)));
        json_object_set_new(sum, "size", json_integer((json_int_t)file_size));
        out->summary = sum;
        out->warnings = warnings;
        warnings = NULL;
        r = kiln_cooked_add(out, env->allocator, "shader", "shader.kshader", bytes, file_size,
                            file_size, err);
    }
    for (size_t i = 0; vo && i < n; i++) {
        kiln_shader_module_free(&vo[i].module);
        kiln_shader_reflection_free(&vo[i].reflection);
    }
    kiln_shader_compiler_destroy(own);
    json_decref(warnings);
    kiln_free(env->allocator, vo, n * sizeof *vo);
    kiln_free(env->allocator, cv, n * sizeof *cv);
    includes_free(&in);
    plans_free(env->allocator, plans, n);
    /* The compiler's messages start with the file's name already. */
    if (r != KILN_OK && err && strncmp(err->message, name, strlen(name)) != 0 &&
        strncmp(err->message, "variant ", 8) != 0)
        kiln_error_prefix(err, "%s: ", name);
    return r;
}
