/* shader_compile.c — kiln_shader_compile through libshaderc's C API (see shader_compile.h;
 * docs/shaders.md): the options onto a shaderc_compile_options, #include through the caller's
 * resolver, the words and the whole log copied out on kiln's allocator. The compiler is given
 * the project-relative name only, and debug information only when asked, so the words carry no
 * path of this machine (without debug_info glslang writes no OpString/OpLine/OpSource text). */
#include "process/shader_compile.h"

#include <pthread.h>
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

#define MAX_SOURCE ((size_t)64 << 20) /* a shader source above 64 MiB is refused */
/* glslang's HLSL warning for an entry point the source does not define */
#define ENTRY_NOT_FOUND "Entry point not found"

/* What the include callbacks share: the caller's resolver and the first error it returned
 * (the compile then fails with that error rather than glslang's generic message). */
typedef struct include_ctx {
    const kiln_shader_compile_opts *o;
    const kiln_allocator *a;
    kiln_error first; /* code KILN_OK until the resolver fails */
    char requested[128];
    char requesting[256];
} include_ctx;

/* One include result: shaderc's record and the message it carries on failure. */
typedef struct include_record {
    shaderc_include_result r;
    char message[320];
} include_record;

/* glslang (under shaderc) keeps process-wide state: built-in symbol tables shared by every
 * compiler of the process, made with the first and dropped with the last. ThreadSanitizer saw two
 * threads race on it (a dependency listing's compiler on the main thread, a cook on a job
 * worker). So every shaderc call that can touch it (a compiler started or released, a compile)
 * holds this one lock: the only process-wide mutable object in libkiln, for a library's own
 * process-wide state. Compiles are a few ms each on a kept compiler, and the cook's validation,
 * reflection and writing stay parallel. */
static pthread_mutex_t shaderc_lock = PTHREAD_MUTEX_INITIALIZER;

static shaderc_compiler_t compiler_start(void)
{
    pthread_mutex_lock(&shaderc_lock);
    shaderc_compiler_t c = shaderc_compiler_initialize();
    pthread_mutex_unlock(&shaderc_lock);
    return c;
}

static void compiler_release(shaderc_compiler_t c)
{
    if (!c) return;
    pthread_mutex_lock(&shaderc_lock);
    shaderc_compiler_release(c);
    pthread_mutex_unlock(&shaderc_lock);
}

struct kiln_shader_compiler {
    kiln_allocator allocator;
    shaderc_compiler_t shaderc;
};

kiln_result kiln_shader_compiler_create(const kiln_allocator *a, kiln_shader_compiler **out,
                                        kiln_error *err)
{
    *out = NULL;
    kiln_shader_compiler *c = kiln_calloc(a, 1, sizeof *c);
    if (c) {
        if (a) c->allocator = *a;
        c->shaderc = compiler_start();
    }
    if (!c || !c->shaderc) {
        kiln_free(a, c, sizeof *c);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: the compiler did not start");
    }
    *out = c;
    return KILN_OK;
}

void kiln_shader_compiler_destroy(kiln_shader_compiler *c)
{
    if (!c) return;
    compiler_release(c->shaderc);
    kiln_allocator a = c->allocator;
    kiln_free(&a, c, sizeof *c);
}

static const char *stage_names[KILN_SHADER_STAGE_COUNT] = {
    "vert", "tesc", "tese",  "geom",  "frag",  "comp", "task",
    "mesh", "rgen", "rahit", "rchit", "rmiss", "rint", "rcall"};

static shaderc_shader_kind shader_kind(uint32_t stage)
{
    static const shaderc_shader_kind kinds[KILN_SHADER_STAGE_COUNT] = {
        shaderc_vertex_shader,       shaderc_tess_control_shader, shaderc_tess_evaluation_shader,
        shaderc_geometry_shader,     shaderc_fragment_shader,     shaderc_compute_shader,
        shaderc_task_shader,         shaderc_mesh_shader,         shaderc_raygen_shader,
        shaderc_anyhit_shader,       shaderc_closesthit_shader,   shaderc_miss_shader,
        shaderc_intersection_shader, shaderc_callable_shader};
    return kinds[stage];
}

int kiln_shader_stage_of_name(const char *name)
{
    if (!name) return -1;
    /* The last extension, or the one before ".glsl"/".hlsl" ("lit.frag.hlsl"). */
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) return -1;
    size_t len = strlen(dot + 1);
    const char *ext = dot + 1;
    if (strcmp(ext, "glsl") == 0 || strcmp(ext, "hlsl") == 0) {
        const char *prev = dot;
        while (prev > base && prev[-1] != '.') prev--;
        if (prev == base) return -1; /* "x.glsl": no stage in the name */
        len = (size_t)(dot - prev);
        ext = prev;
    }
    for (int s = 0; s < KILN_SHADER_STAGE_COUNT; s++)
        if (strlen(stage_names[s]) == len && memcmp(stage_names[s], ext, len) == 0) return s;
    return -1;
}

void kiln_shader_module_free(kiln_shader_module *m)
{
    if (!m) return;
    kiln_free(&m->allocator, m->words, m->word_count * sizeof *m->words);
    kiln_free(&m->allocator, m->log, m->log_size + 1);
    memset(m, 0, sizeof *m);
}

static void copy_trunc(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static shaderc_include_result *include_resolve(void *user, const char *requested, int type,
                                               const char *requesting, size_t depth)
{
    include_ctx *c = user;
    include_record *rec = kiln_calloc(c->a, 1, sizeof *rec);
    if (!rec) {
        /* shaderc cannot take NULL: a static record naming the failure, never freed. */
        static const shaderc_include_result oom = {"", 0, "out of memory", 13, NULL};
        if (c->first.code == KILN_OK)
            kiln_error_set(&c->first, KILN_E_OUT_OF_MEMORY, "include %s: out of memory", requested);
        return (shaderc_include_result *)&oom;
    }
    const char *resolved = NULL;
    const uint8_t *data = NULL;
    size_t size = 0;
    kiln_error e;
    kiln_error_clear(&e);
    kiln_result r;
    if (!c->o->include)
        r = kiln_error_set(&e, KILN_E_IMPORT_FAILED,
                           "#include \"%s\": includes are not allowed here", requested);
    else
        r = c->o->include(c->o->include_user, requested, requesting,
                          type == shaderc_include_type_relative, &resolved, &data, &size, &e);
    if (r == KILN_OK && (!resolved || !resolved[0] || (!data && size > 0)))
        r = kiln_error_set(&e, KILN_E_IMPORT_FAILED, "#include \"%s\": the resolver gave no file",
                           requested);
    if (r != KILN_OK) {
        if (e.code == KILN_OK) kiln_error_set(&e, r, "#include \"%s\" failed", requested);
        if (c->first.code == KILN_OK) {
            c->first = e;
            c->first.code = r;
            copy_trunc(c->requested, sizeof c->requested, requested);
            copy_trunc(c->requesting, sizeof c->requesting, requesting ? requesting : "");
        }
        /* An empty source name is shaderc's failure signal; the content is the message. */
        copy_trunc(rec->message, sizeof rec->message, e.message);
        rec->r.content = rec->message;
        rec->r.content_length = strlen(rec->message);
        rec->r.source_name = "";
        rec->r.user_data = rec;
        return &rec->r;
    }
    rec->r.source_name = resolved;
    rec->r.source_name_length = strlen(resolved);
    rec->r.content = data ? (const char *)data : "";
    rec->r.content_length = size;
    rec->r.user_data = rec;
    (void)depth;
    return &rec->r;
}

static void include_release(void *user, shaderc_include_result *result)
{
    include_ctx *c = user;
    if (result && result->user_data) kiln_free(c->a, result->user_data, sizeof(include_record));
}

/* The first diagnostic of a log: the first line that says "error", else the first line. */
static void first_diagnostic(const char *log, char *out, size_t cap)
{
    const char *pick = NULL;
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (!pick && n > 0) pick = line;
        const char *hit = strstr(line, "error");
        if (hit && hit < line + n) {
            pick = line;
            break;
        }
        line = end ? end + 1 : NULL;
    }
    if (!pick) {
        copy_trunc(out, cap, "the compiler failed without a message");
        return;
    }
    const char *end = strchr(pick, '\n');
    size_t n = end ? (size_t)(end - pick) : strlen(pick);
    if (n >= cap) n = cap - 1;
    memcpy(out, pick, n);
    out[n] = 0;
}

/* The line glslang names for a failed #include: "<requesting>:<line>: error: '#include' ..." or
 * "<requesting>:<line>: error: '<requested>' ...". 0 when the log does not say it. */
static unsigned long include_line(const char *log, const char *requesting)
{
    size_t rn = strlen(requesting);
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        if (rn > 0 && strncmp(line, requesting, rn) == 0 && line[rn] == ':' &&
            line[rn + 1] >= '0' && line[rn + 1] <= '9')
            return strtoul(line + rn + 1, NULL, 10);
        line = end ? end + 1 : NULL;
    }
    return 0;
}

static kiln_result check_opts(const kiln_shader_compile_opts *o, size_t size, kiln_error *err)
{
    if (!o || o->struct_size < sizeof *o)
        return kiln_error_set(err, KILN_E_USAGE, "shader: options missing or of an older size");
    if (!o->name || !o->name[0])
        return kiln_error_set(err, KILN_E_USAGE, "shader: the source has no name");
    if (o->language > KILN_SHADER_HLSL)
        return kiln_error_set(err, KILN_E_USAGE, "shader: language %u", (unsigned)o->language);
    if (o->stage >= KILN_SHADER_STAGE_COUNT)
        return kiln_error_set(err, KILN_E_USAGE, "shader: stage %u", (unsigned)o->stage);
    if (o->target > KILN_SHADER_VULKAN_1_3)
        return kiln_error_set(err, KILN_E_USAGE, "shader: target %u", (unsigned)o->target);
    if (o->optimize > KILN_SHADER_OPTIMIZE_PERFORMANCE)
        return kiln_error_set(err, KILN_E_USAGE, "shader: optimize %u", (unsigned)o->optimize);
    if (o->define_count > 0 && !o->defines)
        return kiln_error_set(err, KILN_E_USAGE, "shader: %zu defines without an array",
                              o->define_count);
    for (size_t i = 0; i < o->define_count; i++)
        if (!o->defines[i].name || !o->defines[i].name[0])
            return kiln_error_set(err, KILN_E_USAGE, "shader: define %zu has no name", i);
    if (size > MAX_SOURCE)
        return kiln_error_set(err, KILN_E_LIMIT, "shader: %s is %zu bytes (limit %zu)", o->name,
                              size, MAX_SOURCE);
    return KILN_OK;
}

static const uint32_t vulkan_env[4] = {
    shaderc_env_version_vulkan_1_0, shaderc_env_version_vulkan_1_1, shaderc_env_version_vulkan_1_2,
    shaderc_env_version_vulkan_1_3};

static shaderc_compile_options_t make_options(const kiln_shader_compile_opts *o, include_ctx *ic)
{
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    if (!opts) return NULL;
    shaderc_compile_options_set_source_language(opts, o->language == KILN_SHADER_HLSL
                                                          ? shaderc_source_language_hlsl
                                                          : shaderc_source_language_glsl);
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, vulkan_env[o->target]);
    static const shaderc_optimization_level levels[3] = {shaderc_optimization_level_zero,
                                                         shaderc_optimization_level_size,
                                                         shaderc_optimization_level_performance};
    shaderc_compile_options_set_optimization_level(opts, levels[o->optimize]);
    if (o->warnings_as_errors) shaderc_compile_options_set_warnings_as_errors(opts);
    /* Always: the optimizer strips OpName and OpMemberName without it, and reflection and typed
     * materials find blocks and members by name. The source text and lines go again after the
     * compile unless debug_info asks for them (strip_source_lines). */
    shaderc_compile_options_set_generate_debug_info(opts);
    for (size_t i = 0; i < o->define_count; i++) {
        const kiln_shader_define *d = &o->defines[i];
        shaderc_compile_options_add_macro_definition(opts, d->name, strlen(d->name), d->value,
                                                     d->value ? strlen(d->value) : 0);
    }
    if (o->language == KILN_SHADER_HLSL) {
        /* [[vk::...]] attributes and semantic names as DXC's SPIR-V back end reads them. */
        shaderc_compile_options_set_hlsl_functionality1(opts, true);
        shaderc_compile_options_set_hlsl_io_mapping(opts, true);
        shaderc_compile_options_set_hlsl_offsets(opts, true);
    }
    shaderc_compile_options_set_include_callbacks(opts, include_resolve, include_release, ic);
    return opts;
}

/* The debug instructions that carry the source and its lines: OpSourceContinued, OpSource,
 * OpSourceExtension, OpLine, OpNoLine, OpModuleProcessed. */
static bool source_line_op(uint32_t op)
{
    return op == 2 || op == 3 || op == 4 || op == 8 || op == 317 || op == 330;
}

/* Whether an OpExtInst names the ID among its operands (words 5 on: after the result type,
 * result, set and instruction): the NonSemantic instruction sets refer to OpStrings that way
 * (debugPrintfEXT's format); no other instruction that stays refers to one. */
static bool id_used(const uint32_t *w, size_t n, uint32_t id)
{
    for (size_t i = 5; i < n;) {
        uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
        if (len == 0 || len > n - i) return true;
        for (uint32_t k = 5; op == 12 && k < len; k++)
            if (w[i + k] == id) return true;
        i += len;
    }
    return false;
}

/* Removes the source text and lines (source_line_op) and the OpStrings only they used (the file
 * names; debugPrintfEXT's format strings stay), keeping the names. The rest of the module is
 * untouched: the optimizer's output does not depend on debug instructions. Returns the new word
 * count; a malformed tail is left for the validator. */
static size_t strip_source_lines(uint32_t *w, size_t n)
{
    if (n < 5) return n;
    size_t in = 5, out = 5, end = n;
    while (in < end) {
        uint32_t op = w[in] & 0xFFFFu, len = w[in] >> 16;
        if (len == 0 || len > end - in) { /* not ours to judge: the validator will */
            memmove(w + out, w + in, (end - in) * sizeof *w);
            return out + (end - in);
        }
        /* decided on the words as they are: what was removed so far was before, and the
         * instructions after are still in place */
        bool drop =
            source_line_op(op) || (op == 7 && len >= 2 && !id_used(w, out, w[in + 1]) &&
                                   !id_used(w + in + len - 5, end - (in + len) + 5, w[in + 1]));
        if (!drop) {
            if (out != in) memmove(w + out, w + in, len * sizeof *w);
            out += len;
        }
        in += len;
    }
    return out;
}

/* Copies the compiler's messages into out->log (always NUL-terminated). */
static kiln_result keep_log(const char *msg, const kiln_allocator *a, kiln_shader_module *out,
                            kiln_error *err)
{
    size_t n = msg ? strlen(msg) : 0;
    out->log = kiln_alloc(a, n + 1);
    if (!out->log) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: log of %zu bytes", n);
    if (n) memcpy(out->log, msg, n);
    out->log[n] = 0;
    out->log_size = n;
    return KILN_OK;
}

kiln_result kiln_shader_compile(const char *source, size_t size, const kiln_shader_compile_opts *o,
                                const kiln_allocator *a, kiln_shader_module *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "shader: no output");
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    if (!source && size > 0) return kiln_error_set(err, KILN_E_USAGE, "shader: no source bytes");
    kiln_result r = check_opts(o, size, err);
    if (r != KILN_OK) return r;

    include_ctx ic;
    memset(&ic, 0, sizeof ic);
    ic.o = o;
    ic.a = &out->allocator;
    kiln_error_clear(&ic.first);

    /* The caller's compiler, or one for this call alone (which builds glslang's tables). */
    shaderc_compiler_t own = o->compiler ? NULL : compiler_start();
    shaderc_compiler_t compiler = o->compiler ? o->compiler->shaderc : own;
    shaderc_compile_options_t opts = compiler ? make_options(o, &ic) : NULL;
    if (!opts) {
        compiler_release(own);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: the compiler did not start");
    }
    pthread_mutex_lock(&shaderc_lock);
    shaderc_compilation_result_t res =
        o->preprocess_only
            ? shaderc_compile_into_preprocessed_text(compiler, source ? source : "", size,
                                                     shader_kind(o->stage), o->name,
                                                     o->entry ? o->entry : "main", opts)
            : shaderc_compile_into_spv(compiler, source ? source : "", size, shader_kind(o->stage),
                                       o->name, o->entry ? o->entry : "main", opts);
    pthread_mutex_unlock(&shaderc_lock);
    shaderc_compile_options_release(opts);
    if (!res) {
        compiler_release(own);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: %s: the compiler gave no result",
                              o->name);
    }
    shaderc_compilation_status status = shaderc_result_get_compilation_status(res);
    r = keep_log(shaderc_result_get_error_message(res), &out->allocator, out, err);
    if (r == KILN_OK && ic.first.code != KILN_OK) {
        /* The resolver's own error, placed where the compiler says the #include is. */
        unsigned long line = include_line(out->log, ic.requesting);
        kiln_error e = ic.first;
        r = e.code;
        if (err) {
            *err = e;
            if (line > 0) kiln_error_prefix(err, "%s:%lu: ", ic.requesting, line);
            else kiln_error_prefix(err, "%s: ", ic.requesting);
        }
    } else if (r == KILN_OK && status != shaderc_compilation_status_success) {
        char first[240];
        first_diagnostic(out->log, first, sizeof first);
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "%s", first);
    } else if (r == KILN_OK && o->preprocess_only) {
        /* the text is not kept: only the includes the preprocessor resolved mattered */
    } else if (r == KILN_OK && o->language == KILN_SHADER_HLSL &&
               strstr(out->log, ENTRY_NOT_FOUND)) {
        /* glslang's HLSL only warns when the entry point is missing and emits an empty "main":
         * an error whatever warnings_as_errors says. */
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "%s: entry point \"%s\" not found", o->name,
                           o->entry ? o->entry : "main");
    } else if (r == KILN_OK) {
        size_t bytes = shaderc_result_get_length(res);
        const char *words = shaderc_result_get_bytes(res);
        if (bytes == 0 || bytes % 4 != 0 || !words) {
            r = kiln_error_set(err, KILN_E_IMPORT_FAILED,
                               "shader: %s: the compiler gave %zu bytes, not whole words", o->name,
                               bytes);
        } else if (!(out->words = kiln_alloc(&out->allocator, bytes))) {
            r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: %zu bytes of SPIR-V", bytes);
        } else {
            memcpy(out->words, words, bytes);
            out->word_count = bytes / 4;
            size_t kept =
                o->debug_info ? out->word_count : strip_source_lines(out->words, out->word_count);
            /* shrunk to what is kept, so that the block is freed with the size it has */
            uint32_t *fit = kept < out->word_count
                                ? kiln_realloc(&out->allocator, out->words, bytes, kept * 4)
                                : out->words;
            if (fit) {
                out->words = fit;
                out->word_count = kept;
            } else {
                r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: %zu bytes of SPIR-V",
                                   kept * 4);
            }
        }
    }
    shaderc_result_release(res);
    compiler_release(own);
    if (r != KILN_OK) {
        /* After a failure only the log stays. */
        kiln_free(&out->allocator, out->words, out->word_count * sizeof *out->words);
        out->words = NULL;
        out->word_count = 0;
    }
    return r;
}
