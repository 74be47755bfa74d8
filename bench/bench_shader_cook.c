/* bench_shader_cook.c — the import cook of each test shader (tests/shaders, with its .meta
 * settings) per shader and per variant, where its time goes, and the same work done by the tools
 * a user would otherwise script (Debian's `glslc` and `spirv-val` commands), side by side in one
 * run. Every figure is the median of --runs runs. Numbers are printed, never asserted.
 *
 * glslang builds its built-in tables (per version, profile and stage) when a compile first needs
 * them and frees them when the last shaderc compiler of the process is released; an import keeps
 * a compiler per thread that cooks (src/pipeline/shader_compilers.h), so its compiles find them
 * built. The figures say which situation they measure:
 *
 *   one-shot    kiln_convert_shader into a .kshader (public API, `kiln shader`: every variant on
 *               one compiler made for the call, no other compiler alive: the tables are built
 *               once per call), wall time;
 *   cook        kiln_cook_shader_source (src/pipeline/cook_shader.h, internal; the code an import
 *               runs, every variant, in memory) with a compiler kept by this program that has
 *               cooked this shader once: an import's cook once its worker has compiled the stage;
 *               "per variant" is that divided by the variant count;
 *   1 variant   the same cook with the .meta's variants cut to the first (shaders with several):
 *               cook - 1 variant, over the other variants, is what one more variant costs;
 *   compile, validate, reflect, write
 *               the process-layer functions the cook calls (kiln_shader_compile on the kept
 *               compiler, kiln_shader_validate, kiln_shader_reflect: summed over the variants;
 *               kiln_shader_write once), called directly (internal headers: src/process,
 *               src/write);
 *   preprocess  kiln_shader_compile with preprocess_only on the kept compiler, summed over the
 *               variants;
 *   fresh       kiln_shader_compile summed over the variants, each on a compiler of its own with
 *               no other alive (what every compile and every preprocess pass of an import cost
 *               before the compilers were kept: the tables built each time);
 *   deps        kiln_shader_source_dependencies (src/pipeline/cook_shader.h, internal), the
 *               dependency listing an import makes before it cooks (a compiler of its own for
 *               its passes, while the kept one lives, as in an import after its first cook);
 *   glslc+val   per variant `glslc -O --target-env=E -Werror -I include [-D...] F -o x.spv` then
 *               `spirv-val --target-env E x.spv`, two processes started by this program (process
 *               start-up included), summed over the variants; glslc alone too.
 *
 *   bench_shader_cook [--shaders DIR] [--runs N]
 *
 * DIR defaults to the checkout's tests/shaders; KILN_BENCH_RUNS sets the default run count (5). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "kiln/kiln.h"
#include "measure.h"
#include "pipeline/cook_shader.h"
#include "pipeline/settings.h"
#include "process/shader_compile.h"
#include "process/shader_reflect.h"
#include "write/shader_write.h"

#ifndef KILN_BENCH_SOURCE_DIR
#define KILN_BENCH_SOURCE_DIR "."
#endif

#define MAX_RUNS     50
#define MAX_VARIANTS 4
#define MAX_DEFINES  2

extern char **environ;

typedef struct bench_variant {
    const char *name;
    const char *defines[MAX_DEFINES]; /* defined without a value */
} bench_variant;

/* A test shader and what its .meta says, spelled out for the process-layer calls and glslc
 * (the cook itself reads the .meta). Variants in name order, as the cook compiles them. */
typedef struct bench_case {
    const char *file;
    uint32_t language;
    const char *entry;
    uint32_t target;
    const char *env;         /* the same target for glslc and spirv-val */
    const char *glslc_stage; /* -fshader-stage= for HLSL; NULL: from the name */
    bench_variant variants[MAX_VARIANTS];
    size_t variant_count;
} bench_case;

static const bench_case cases[] = {
    {"flat_color.frag",
     KILN_SHADER_GLSL,
     "main",
     KILN_SHADER_VULKAN_1_2,
     "vulkan1.2",
     NULL,
     {{"default", {NULL}}},
     1},
    {"meshlets.mesh",
     KILN_SHADER_GLSL,
     "main",
     KILN_SHADER_VULKAN_1_3,
     "vulkan1.3",
     NULL,
     {{"default", {NULL}}},
     1},
    {"pbr_forward.frag",
     KILN_SHADER_GLSL,
     "main",
     KILN_SHADER_VULKAN_1_2,
     "vulkan1.2",
     NULL,
     {{"alpha_mask", {"ALPHA_MASK"}},
      {"normal_map", {"NORMAL_MAP"}},
      {"normal_map_alpha_mask", {"NORMAL_MAP", "ALPHA_MASK"}},
      {"opaque", {NULL}}},
     4},
    {"pbr_forward.vert",
     KILN_SHADER_GLSL,
     "main",
     KILN_SHADER_VULKAN_1_2,
     "vulkan1.2",
     NULL,
     {{"skinned", {"SKINNED"}}, {"static", {NULL}}},
     2},
    {"skin_vertices.comp",
     KILN_SHADER_GLSL,
     "main",
     KILN_SHADER_VULKAN_1_2,
     "vulkan1.2",
     NULL,
     {{"default", {NULL}}},
     1},
    {"unlit_texture.hlsl",
     KILN_SHADER_HLSL,
     "PSMain",
     KILN_SHADER_VULKAN_1_2,
     "vulkan1.2",
     "frag",
     {{"default", {NULL}}},
     1},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])

/* ---- includes for the direct compile: beside the including file, then include/ ---------- */

typedef struct include_store {
    const char *dir; /* tests/shaders */
    char *names[16];
    char *bytes[16];
    size_t count;
} include_store;

static kiln_result resolve(void *user, const char *requested, const char *requesting, bool relative,
                           const char **resolved, const uint8_t **data, size_t *size,
                           kiln_error *err)
{
    include_store *st = user;
    (void)relative;
    char beside[1024], rel[1024], path[2048];
    const char *slash = strrchr(requesting, '/');
    snprintf(beside, sizeof beside, "%.*s%s", slash ? (int)(slash - requesting + 1) : 0, requesting,
             requested);
    snprintf(rel, sizeof rel, "include/%s", requested);
    const char *tries[2] = {beside, rel};
    for (int t = 0; t < 2 && st->count < 16; t++) {
        snprintf(path, sizeof path, "%s/%s", st->dir, tries[t]);
        size_t n = 0;
        char *b = bench_read_file(path, &n);
        if (!b) continue;
        st->names[st->count] = strdup(tries[t]);
        st->bytes[st->count] = b;
        *resolved = st->names[st->count];
        *data = (const uint8_t *)b;
        *size = n;
        st->count++;
        return KILN_OK;
    }
    return kiln_error_set(err, KILN_E_ASSET_IO, "no include %s", requested);
}

static void store_clear(include_store *st)
{
    for (size_t i = 0; i < st->count; i++) {
        free(st->names[i]);
        free(st->bytes[i]);
    }
    st->count = 0;
}

static kiln_shader_compile_opts compile_opts(const bench_case *c, const bench_variant *v,
                                             kiln_shader_define *defs, include_store *st)
{
    kiln_shader_compile_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.name = c->file;
    o.language = c->language;
    o.stage = c->glslc_stage ? KILN_SHADER_FRAGMENT : (uint32_t)kiln_shader_stage_of_name(c->file);
    o.target = c->target;
    o.optimize = KILN_SHADER_OPTIMIZE_PERFORMANCE; /* the default of import.shader.optimize */
    o.entry = c->entry;
    o.warnings_as_errors = true;
    size_t n = 0;
    for (size_t d = 0; d < MAX_DEFINES && v->defines[d]; d++) {
        defs[n].name = v->defines[d];
        defs[n].value = NULL;
        n++;
    }
    o.defines = defs;
    o.define_count = n;
    o.include = resolve;
    o.include_user = st;
    return o;
}

/* ---- the peer: two processes per variant ------------------------------------------------- */

static int run_quiet(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int st = -1;
    if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0) waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* glslc (then spirv-val when val) for one variant; returns the exit status of the first that
 * failed, 0 when both succeeded. */
static int peer_variant(const char *dir, const bench_case *c, const bench_variant *v,
                        const char *spv, bool val)
{
    char env[64], inc[1100], src[1100], stage[64], entry[96], defs[MAX_DEFINES][96];
    snprintf(env, sizeof env, "--target-env=%s", c->env);
    snprintf(inc, sizeof inc, "-I%s/include", dir);
    snprintf(src, sizeof src, "%s/%s", dir, c->file);
    char *argv[24];
    int n = 0;
    argv[n++] = "glslc";
    argv[n++] = "-O";
    argv[n++] = env;
    argv[n++] = "-Werror";
    argv[n++] = inc;
    if (c->language == KILN_SHADER_HLSL) {
        snprintf(stage, sizeof stage, "-fshader-stage=%s", c->glslc_stage);
        snprintf(entry, sizeof entry, "-fentry-point=%s", c->entry);
        argv[n++] = "-x";
        argv[n++] = "hlsl";
        argv[n++] = stage;
        argv[n++] = entry;
    }
    for (size_t d = 0; d < MAX_DEFINES && v->defines[d]; d++) {
        snprintf(defs[d], sizeof defs[d], "-D%s", v->defines[d]);
        argv[n++] = defs[d];
    }
    argv[n++] = src;
    argv[n++] = "-o";
    argv[n++] = (char *)spv;
    argv[n] = NULL;
    int st = run_quiet(argv);
    if (st != 0 || !val) return st;
    char *vargv[] = {"spirv-val", "--target-env", (char *)c->env, (char *)spv, NULL};
    return run_quiet(vargv);
}

static bool have_command(const char *name)
{
    char *argv[] = {(char *)name, "--version", NULL};
    return run_quiet(argv) == 0;
}

/* ---- one shader --------------------------------------------------------------------------- */

typedef struct figures {
    double one_shot, cook, cook_one, compile, validate, reflect, write, preprocess, fresh, deps,
        peer, glslc;
} figures;

static kiln_result count_dep(void *user, const char *path, kiln_error *err)
{
    (void)path;
    (void)err;
    (*(size_t *)user)++;
    return KILN_OK;
}

/* The .meta's "import" object with the include folder (root: tests/shaders) added: the settings
 * patch kiln_convert_shader takes. *meta_doc: the whole .meta document for kiln_settings_parse;
 * *meta_one: the same with its variants cut to the first (NULL for one variant). */
static char *settings_patch(const char *dir, const bench_case *c, char **meta_doc, char **meta_one)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s.meta", dir, c->file);
    json_t *meta = json_load_file(path, 0, NULL);
    if (!meta) meta = json_pack("{s:{}}", "import");
    json_t *imp = json_object_get(meta, "import");
    json_t *sh = json_object_get(imp, "shader");
    if (!sh) {
        sh = json_object();
        json_object_set_new(imp, "shader", sh);
    }
    json_object_set_new(sh, "include_dirs", json_pack("[s]", "include"));
    char *patch = json_dumps(imp, JSON_COMPACT);
    *meta_doc = json_dumps(meta, JSON_COMPACT);
    *meta_one = NULL;
    json_t *variants = json_object_get(sh, "variants");
    if (c->variant_count > 1 && json_object_get(variants, c->variants[0].name)) {
        json_t *one = json_object();
        json_object_set(one, c->variants[0].name, json_object_get(variants, c->variants[0].name));
        json_object_set_new(sh, "variants", one);
        *meta_one = json_dumps(meta, JSON_COMPACT);
    }
    json_decref(meta);
    return patch;
}

/* kiln_cook_shader_source of src with the settings of meta (a .meta document), on compiler. */
static bool cook_once(const char *meta, const char *root, const bench_case *c, const char *src,
                      size_t size, kiln_shader_compiler *compiler, kiln_error *err)
{
    kiln_settings s;
    if (kiln_settings_parse(meta, strlen(meta), NULL, &s, err) != KILN_OK) return false;
    kiln_cook_env env = {.platform = "", .name = c->file};
    kiln_cooked out;
    memset(&out, 0, sizeof out);
    bool ok = kiln_cook_shader_source(&env, &s, root, (const uint8_t *)src, size, compiler, &out,
                                      err) == KILN_OK;
    kiln_cooked_release(NULL, &out);
    kiln_settings_clear(&s);
    return ok;
}

/* The stages called directly, summed over the variants, on compiler: compile, validate,
 * reflect, preprocess into t[0..3], the container writer into t[4]. */
static bool stages_once(const char *dir, const bench_case *c, const char *src, size_t size,
                        kiln_shader_compiler *compiler, double t[5], kiln_error *err)
{
    kiln_shader_module m[MAX_VARIANTS];
    kiln_shader_reflection refl[MAX_VARIANTS];
    kiln_cooked_shader_variant cv[MAX_VARIANTS];
    memset(m, 0, sizeof m);
    memset(refl, 0, sizeof refl);
    memset(t, 0, 5 * sizeof *t);
    kiln_shader_compile_opts o;
    bool ok = true;
    for (size_t v = 0; v < c->variant_count && ok; v++) {
        include_store st = {dir, {NULL}, {NULL}, 0};
        kiln_shader_define defs[MAX_DEFINES];
        o = compile_opts(c, &c->variants[v], defs, &st);
        o.compiler = compiler;
        double t0 = bench_now_ms();
        ok = kiln_shader_compile(src, size, &o, NULL, &m[v], err) == KILN_OK;
        t[0] += bench_now_ms() - t0;
        store_clear(&st);
        if (!ok) break;
        t0 = bench_now_ms();
        ok = kiln_shader_validate(m[v].words, m[v].word_count, o.target, o.entry, o.stage, err) ==
             KILN_OK;
        t[1] += bench_now_ms() - t0;
        if (!ok) break;
        t0 = bench_now_ms();
        ok = kiln_shader_reflect(m[v].words, m[v].word_count, o.entry, NULL, &refl[v], err) ==
             KILN_OK;
        t[2] += bench_now_ms() - t0;
        cv[v].name = c->variants[v].name;
        cv[v].defines = "";
        cv[v].words = m[v].words;
        cv[v].word_count = m[v].word_count;
        cv[v].reflection = &refl[v];
        /* the preprocessor alone, as the dependency listing runs it */
        kiln_shader_module pm;
        o.preprocess_only = true;
        t0 = bench_now_ms();
        kiln_shader_compile(src, size, &o, NULL, &pm, err);
        t[3] += bench_now_ms() - t0;
        kiln_shader_module_free(&pm);
        store_clear(&st);
    }
    if (ok) {
        kiln_cooked_shader cs = {o.stage, o.language, o.target, o.optimize,
                                 0,       c->entry,   cv,       c->variant_count};
        uint8_t *bytes = NULL;
        size_t n = 0;
        double t0 = bench_now_ms();
        ok = kiln_shader_write(&cs, NULL, &bytes, &n, err) == KILN_OK;
        t[4] = bench_now_ms() - t0;
        free(bytes); /* the libc allocator (NULL) */
    }
    for (size_t v = 0; v < c->variant_count; v++) {
        kiln_shader_module_free(&m[v]);
        kiln_shader_reflection_free(&refl[v]);
    }
    return ok;
}

static bool bench_one(const char *dir, const char *tmp, const bench_case *c, int runs, bool peer,
                      figures *f)
{
    char in[1100], out[1100], spv[1100], root[1100];
    snprintf(in, sizeof in, "%s/%s", dir, c->file);
    snprintf(out, sizeof out, "%s/out.kshader", tmp);
    snprintf(spv, sizeof spv, "%s/out.spv", tmp);
    if (!realpath(dir, root)) snprintf(root, sizeof root, "%s", dir);
    size_t size = 0;
    char *src = bench_read_file(in, &size);
    if (!src) {
        fprintf(stderr, "bench_shader_cook: cannot read %s\n", in);
        return false;
    }
    char *meta_doc = NULL, *meta_one = NULL;
    char *patch = settings_patch(dir, c, &meta_doc, &meta_one);
    kiln_convert_opts co;
    memset(&co, 0, sizeof co);
    co.struct_size = sizeof co;
    co.settings_json = patch;
    co.root = dir;
    co.jobs = 1;
    kiln_error err;
    double t[MAX_RUNS], u[MAX_RUNS];
    bool ok = true;

    /* no compiler alive: the one-shot command, then compiles on fresh compilers */
    for (int r = 0; r < runs && ok; r++) {
        char *doc = NULL;
        double t0 = bench_now_ms();
        ok = kiln_convert_shader(in, out, &co, &doc, &err) == KILN_OK;
        t[r] = bench_now_ms() - t0;
        kiln_string_free(doc);
    }
    if (!ok) fprintf(stderr, "bench_shader_cook: %s: %s\n", c->file, err.message);
    f->one_shot = bench_median(t, (size_t)runs);
    for (int r = 0; r < runs && ok; r++) {
        t[r] = 0;
        for (size_t v = 0; v < c->variant_count && ok; v++) {
            include_store st = {dir, {NULL}, {NULL}, 0};
            kiln_shader_define defs[MAX_DEFINES];
            kiln_shader_compile_opts o = compile_opts(c, &c->variants[v], defs, &st);
            kiln_shader_module m;
            double t0 = bench_now_ms();
            ok = kiln_shader_compile(src, size, &o, NULL, &m, &err) == KILN_OK;
            t[r] += bench_now_ms() - t0;
            kiln_shader_module_free(&m);
            store_clear(&st);
        }
    }
    f->fresh = bench_median(t, (size_t)runs);

    /* a compiler kept, as an import's worker keeps one; warmed by one cook of this shader */
    kiln_shader_compiler *kept = NULL;
    if (ok) ok = kiln_shader_compiler_create(NULL, &kept, &err) == KILN_OK;
    if (ok) ok = cook_once(meta_doc, root, c, src, size, kept, &err);
    for (int r = 0; r < runs && ok; r++) {
        double t0 = bench_now_ms();
        ok = cook_once(meta_doc, root, c, src, size, kept, &err);
        t[r] = bench_now_ms() - t0;
    }
    if (!ok) fprintf(stderr, "bench_shader_cook: %s (cook): %s\n", c->file, err.message);
    f->cook = bench_median(t, (size_t)runs);
    f->cook_one = f->cook;
    if (ok && meta_one) {
        for (int r = 0; r < runs && ok; r++) {
            double t0 = bench_now_ms();
            ok = cook_once(meta_one, root, c, src, size, kept, &err);
            t[r] = bench_now_ms() - t0;
        }
        if (!ok) fprintf(stderr, "bench_shader_cook: %s (one variant): %s\n", c->file, err.message);
        f->cook_one = bench_median(t, (size_t)runs);
    }

    /* the stages, called directly */
    double tc[MAX_RUNS], tv[MAX_RUNS], tr[MAX_RUNS], tp[MAX_RUNS], tw[MAX_RUNS];
    for (int r = 0; r < runs && ok; r++) {
        double st[5];
        ok = stages_once(dir, c, src, size, kept, st, &err);
        tc[r] = st[0];
        tv[r] = st[1];
        tr[r] = st[2];
        tp[r] = st[3];
        tw[r] = st[4];
        if (!ok) fprintf(stderr, "bench_shader_cook: %s (stages): %s\n", c->file, err.message);
    }
    f->compile = bench_median(tc, (size_t)runs);
    f->validate = bench_median(tv, (size_t)runs);
    f->reflect = bench_median(tr, (size_t)runs);
    f->preprocess = bench_median(tp, (size_t)runs);
    f->write = bench_median(tw, (size_t)runs);

    /* the dependency listing an import makes (while the kept compiler lives) */
    kiln_settings s;
    if (ok && kiln_settings_parse(meta_doc, strlen(meta_doc), NULL, &s, &err) == KILN_OK) {
        for (int r = 0; r < runs; r++) {
            size_t deps = 0;
            double t0 = bench_now_ms();
            kiln_shader_source_dependencies(&s, root, c->file, (const uint8_t *)src, size,
                                            count_dep, &deps, &err);
            t[r] = bench_now_ms() - t0;
        }
        f->deps = bench_median(t, (size_t)runs);
        kiln_settings_clear(&s);
    }
    kiln_shader_compiler_destroy(kept);

    /* the peer: glslc and spirv-val per variant */
    f->peer = f->glslc = 0;
    for (int r = 0; r < runs && ok && peer; r++) {
        t[r] = u[r] = 0;
        for (size_t v = 0; v < c->variant_count; v++) {
            double t0 = bench_now_ms();
            int st = peer_variant(dir, c, &c->variants[v], spv, false);
            u[r] += bench_now_ms() - t0;
            t0 = bench_now_ms();
            st |= peer_variant(dir, c, &c->variants[v], spv, true);
            t[r] += bench_now_ms() - t0;
            if (st) {
                fprintf(stderr, "bench_shader_cook: glslc or spirv-val failed on %s %s\n", c->file,
                        c->variants[v].name);
                peer = false;
            }
        }
    }
    if (peer && ok) {
        f->peer = bench_median(t, (size_t)runs);
        f->glslc = bench_median(u, runs);
    }
    free(patch);
    free(meta_doc);
    free(meta_one);
    free(src);
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = KILN_BENCH_SOURCE_DIR "/tests/shaders";
    int runs = getenv("KILN_BENCH_RUNS") ? atoi(getenv("KILN_BENCH_RUNS")) : 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shaders") == 0 && i + 1 < argc) dir = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_shader_cook [--shaders DIR] [--runs N]\n");
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    if (runs > MAX_RUNS) runs = MAX_RUNS;
    char tmp[] = "/tmp/kiln-bench-shader-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    bool peer = have_command("glslc") && have_command("spirv-val");
    char toolchain[256];
    printf("bench_shader_cook: %zu shaders of %s, %d runs each (median, ms); %s\n", CASE_COUNT, dir,
           runs, kiln_shader_toolchain(toolchain, sizeof toolchain));
    if (!peer) printf("  glslc or spirv-val is not installed: the peer columns are empty\n");
    printf("  %-20s %3s %8s %7s %7s %7s %7s %7s %8s %7s %6s %7s %8s %7s %9s %6s %6s\n", "shader",
           "var", "one-shot", "cook", "/var", "1 var", "+1 var", "compile", "validate", "reflect",
           "write", "preproc", "fresh", "deps", "glslc+val", "ratio", "1-shot");
    figures sum;
    memset(&sum, 0, sizeof sum);
    size_t variants = 0, failed = 0;
    for (size_t i = 0; i < CASE_COUNT; i++) {
        const bench_case *c = &cases[i];
        figures f;
        memset(&f, 0, sizeof f);
        if (!bench_one(dir, tmp, c, runs, peer, &f)) {
            failed++;
            continue;
        }
        double extra =
            c->variant_count > 1 ? (f.cook - f.cook_one) / (double)(c->variant_count - 1) : 0.0;
        printf("  %-20s %3zu %8.1f %7.2f %7.2f %7.2f %7.2f %7.2f %8.2f %7.2f %6.2f %7.2f %8.1f "
               "%7.2f %9.1f %6.3f %6.2f\n",
               c->file, c->variant_count, f.one_shot, f.cook, f.cook / (double)c->variant_count,
               f.cook_one, extra, f.compile, f.validate, f.reflect, f.write, f.preprocess, f.fresh,
               f.deps, f.peer, f.peer > 0 ? f.cook / f.peer : 0.0,
               f.peer > 0 ? f.one_shot / f.peer : 0.0);
        sum.one_shot += f.one_shot;
        sum.cook += f.cook;
        sum.compile += f.compile;
        sum.validate += f.validate;
        sum.reflect += f.reflect;
        sum.write += f.write;
        sum.preprocess += f.preprocess;
        sum.fresh += f.fresh;
        sum.deps += f.deps;
        sum.peer += f.peer;
        sum.glslc += f.glslc;
        variants += c->variant_count;
    }
    printf("  %-20s %3zu %8.1f %7.2f %7.2f %7s %7s %7.2f %8.2f %7.2f %6.2f %7.2f %8.1f %7.2f "
           "%9.1f %6.3f %6.2f\n",
           "all", variants, sum.one_shot, sum.cook, variants ? sum.cook / (double)variants : 0.0,
           "", "", sum.compile, sum.validate, sum.reflect, sum.write, sum.preprocess, sum.fresh,
           sum.deps, sum.peer, sum.peer > 0 ? sum.cook / sum.peer : 0.0,
           sum.peer > 0 ? sum.one_shot / sum.peer : 0.0);
    if (sum.cook > 0)
        printf("  of the cook: compile %.0f%%, validate %.1f%%, reflect %.1f%%, write %.2f%%; "
               "dependency listing %.0f%% of the cook; a compile on a fresh compiler %.0fx one "
               "on the kept compiler\n",
               100 * sum.compile / sum.cook, 100 * sum.validate / sum.cook,
               100 * sum.reflect / sum.cook, 100 * sum.write / sum.cook, 100 * sum.deps / sum.cook,
               sum.compile > 0 ? sum.fresh / sum.compile : 0.0);
    if (sum.glslc > 0)
        printf("  glslc alone (process start-up included): %.1f ms over %zu variants; kiln's cook "
               "/ glslc alone %.3f, the one-shot / glslc alone %.2f\n",
               sum.glslc, variants, sum.cook / sum.glslc, sum.one_shot / sum.glslc);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0) fprintf(stderr, "bench_shader_cook: could not remove %s\n", tmp);
    if (failed) printf("  %zu shaders failed (above)\n", failed);
    return failed ? 1 : 0;
}
