/* test_shader_corpus.c — every GLSL and HLSL shader of $KILN_CORPUS/shaders (the Vulkan examples,
 * each with its authors' .spv beside it) compiles with kiln_shader_compile (but the listed
 * expected failures, each with its reason) and passes kiln_shader_validate; kiln's reflection is
 * compared with what `spirv-cross --reflect` prints, in bindings (set, binding, type, count),
 * block members (name, offset; uniform, storage and push-constant blocks), and inputs and
 * outputs (location, type):
 *   - kiln's reflection of every upstream .spv equals spirv-cross's of it;
 *   - GLSL: kiln's reflection of the module kiln made equals spirv-cross's of the upstream .spv
 *     (both come from glslang: the same source gives the same interface);
 *   - HLSL: upstream used DXC, kiln uses glslang's HLSL front end, whose modules differ in what
 *     they keep (DXC drops unused resources, glslang unused stage inputs; they name the members
 *     of structured buffers "_m0" and "@data"). kiln's reflection of kiln's module equals
 *     spirv-cross's of that module; how many also equal the DXC module's is printed.
 * Prints the counts and the compile time per shader (median), which docs/shaders.md quotes.
 * Sanitized builds take every 50th shader. */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/error.h"
#include "process/shader_compile.h"
#include "process/shader_reflect.h"
#include "shader_tests.h"
#include "support.h"

/* Shaders shaderc 2023.2 (glslang 12) cannot compile as written, by path prefix, each with the
 * reason (docs/shaders.md). Every shader a prefix names must fail: one that passes fails the
 * test, so that the list shrinks with the compiler. */
static const struct {
    const char *prefix, *reason;
} expected_failures[] = {
    {"glsl/descriptorheapuntyped/", "GL_EXT_descriptor_heap is newer than glslang 12"},
    {"glsl/raytracingpositionfetch/closesthit.rchit",
     "GL_EXT_ray_tracing_position_fetch is newer than glslang 12"},
    {"hlsl/raytracing", "glslang's HLSL has no DXR: RaytracingAccelerationStructure, "
                        "DispatchRaysIndex, WorldRayDirection...; its legalization rejects the "
                        "ray stages it does parse"},
    {"hlsl/meshshader/meshshader.mesh", "glslang's HLSL has no mesh shaders (out indices)"},
    {"hlsl/meshshader/meshshader.task", "glslang's HLSL has no task shaders (DispatchMesh)"},
    {"hlsl/deferredmultisampling/deferred.frag",
     "glslang's HLSL has no Load with a residency status argument"},
    {"hlsl/texturesparseresidency/sparseresidency.frag",
     "glslang's HLSL has no SampleLevel with a residency status argument"},
    {"hlsl/texturemipmapgen/texture.frag", "glslang's HLSL has no Sample with a clamp argument"},
    {"hlsl/descriptorindexing/descriptorindexing.frag",
     "glslang's HLSL has no NonUniformResourceIndex"},
    {"hlsl/inputattachments/attachmentread.frag",
     "glslang's HLSL does not parse a scalar swizzle (0.xxxx)"},
    {"hlsl/multiview/multiview.vert", "glslang gives SV_ViewID a location that overlaps "
                                      "[[vk::location(0)]]; legalization refuses it"},
    {"hlsl/variablerateshading/scene.frag",
     "glslang gives SV_ShadingRate a location that "
     "overlaps [[vk::location(0)]]; legalization refuses it"},
    {"hlsl/tessellation/pntriangles.", "glslang places the patch array pnPatch[10] over the "
                                       "locations after [[vk::location(6)]]; legalization "
                                       "refuses it"},
};

typedef struct path_list {
    char **v;
    size_t n, cap;
} path_list;

static void list_add(path_list *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    l->v[l->n++] = strdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file below root/rel that has an .spv beside it, as paths relative to root. */
static void walk(const char *root, const char *rel, path_list *out)
{
    char *dir = kt_format("%s/%s", root, rel);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *sub = kt_format("%s/%s", rel, e->d_name);
        char *full = kt_format("%s/%s", root, sub);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            walk(root, sub, out);
        } else {
            size_t n = strlen(sub);
            char *spv = kt_format("%s.spv", full);
            if (!(n > 4 && strcmp(sub + n - 4, ".spv") == 0) && kt_file_exists(spv))
                list_add(out, sub);
            free(spv);
        }
        free(sub);
        free(full);
    }
    closedir(d);
    free(dir);
}

/* The corpus has no #include; a resolver beside the file all the same (requesting's folder). */
typedef struct corpus_includes {
    const char *root;
    char *names[8];
    void *data[8];
    int n;
} corpus_includes;

static kiln_result corpus_include(void *user, const char *requested, const char *requesting,
                                  bool relative, const char **resolved, const uint8_t **data,
                                  size_t *size, kiln_error *err)
{
    corpus_includes *ci = user;
    const char *slash = strrchr(requesting, '/');
    int dir_len = slash ? (int)(slash - requesting) : 0;
    if (ci->n == 8) return kiln_error_set(err, KILN_E_LIMIT, "too many includes");
    char *name = kt_format("%.*s/%s", dir_len, requesting, requested);
    char *full = kt_format("%s/%s", ci->root, name);
    void *bytes = kt_read_file(full, size);
    free(full);
    if (!bytes) {
        free(name);
        return kiln_error_set(err, KILN_E_ASSET_IO, "cannot read %s", requested);
    }
    ci->names[ci->n] = name;
    ci->data[ci->n++] = bytes;
    *resolved = name;
    *data = bytes;
    (void)relative;
    return KILN_OK;
}

static uint32_t target_of_version(uint32_t v)
{
    if (v >= 0x10600u) return KILN_SHADER_VULKAN_1_3;
    if (v >= 0x10400u) return KILN_SHADER_VULKAN_1_2;
    if (v >= 0x10100u) return KILN_SHADER_VULKAN_1_1;
    return KILN_SHADER_VULKAN_1_0;
}

/* ---- spirv-cross --reflect JSON against kiln's tables ------------------------------------- */

static uint32_t json_count(json_t *res)
{
    json_t *arr = json_object_get(res, "array");
    if (!json_is_array(arr)) return 1;
    uint64_t n = 1;
    for (size_t i = 0; i < json_array_size(arr); i++)
        n *= (uint64_t)json_integer_value(json_array_get(arr, i));
    return n == 0 ? KILN_SHADER_RUNTIME_ARRAY : (uint32_t)n;
}

static uint32_t json_resource(const char *key, const char *type)
{
    bool buffer = type && strstr(type, "Buffer") != NULL;
    if (strcmp(key, "ubos") == 0) return KILN_SHADER_UNIFORM_BUFFER;
    if (strcmp(key, "ssbos") == 0) return KILN_SHADER_STORAGE_BUFFER;
    if (strcmp(key, "textures") == 0)
        return buffer ? KILN_SHADER_UNIFORM_TEXEL_BUFFER : KILN_SHADER_SAMPLED_IMAGE;
    if (strcmp(key, "separate_images") == 0)
        return buffer ? KILN_SHADER_UNIFORM_TEXEL_BUFFER : KILN_SHADER_SEPARATE_IMAGE;
    if (strcmp(key, "separate_samplers") == 0) return KILN_SHADER_SEPARATE_SAMPLER;
    if (strcmp(key, "images") == 0)
        return buffer ? KILN_SHADER_STORAGE_TEXEL_BUFFER : KILN_SHADER_STORAGE_IMAGE;
    if (strcmp(key, "subpass_inputs") == 0) return KILN_SHADER_SUBPASS_INPUT;
    return KILN_SHADER_ACCELERATION_STRUCTURE;
}

/* One binding or io line, as text, for comparing sorted lists. */
typedef struct lines {
    char **v;
    size_t n;
} lines;

static void lines_add(lines *l, char *s)
{
    l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
    assert_non_null(l->v);
    l->v[l->n++] = s;
}

static void lines_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* Sorted and joined with "; ". */
static char *lines_join(lines *l)
{
    if (l->n > 1) qsort(l->v, l->n, sizeof *l->v, cmp_str);
    size_t len = 1;
    for (size_t i = 0; i < l->n; i++) len += strlen(l->v[i]) + 2;
    char *s = calloc(1, len);
    assert_non_null(s);
    for (size_t i = 0; i < l->n; i++) {
        strcat(s, l->v[i]);
        strcat(s, "; ");
    }
    return s;
}

static const char *kiln_type_name(uint32_t type, uint32_t vec, uint32_t cols, char *buf, size_t cap)
{
    static const char *scalars[] = {"?",         "bool",  "int8_t", "uint8_t", "int16_t",
                                    "uint16_t",  "int",   "uint",   "int64_t", "uint64_t",
                                    "float16_t", "float", "double", "struct",  "uint64_t"};
    static const char *prefix[] = {"?",   "b",   "i8",  "u8", "i16", "u16", "i",  "u",
                                   "i64", "u64", "f16", "",   "d",   "?",   "u64"};
    if (type > KILN_SHADER_TYPE_BUFFER_ADDRESS) type = 0;
    if (cols > 1) {
        if (cols == vec) snprintf(buf, cap, "%smat%u", prefix[type], cols);
        else snprintf(buf, cap, "%smat%ux%u", prefix[type], cols, vec);
    } else if (vec > 1) {
        snprintf(buf, cap, "%svec%u", prefix[type], vec);
    } else {
        snprintf(buf, cap, "%s", scalars[type]);
    }
    return buf;
}

/* The JSON's members of a block type "_N" as "name@offset" lines, a struct member followed by
 * its own members in braces (not a buffer reference's pointee). */
static char *json_members(json_t *types, const char *type, int depth)
{
    lines l = {0};
    json_t *members = json_object_get(json_object_get(types, type), "members");
    for (size_t i = 0; i < json_array_size(members); i++) {
        json_t *m = json_array_get(members, i);
        const char *mtype = json_string_value(json_object_get(m, "type"));
        /* a buffer reference ("physical_pointer") is compared as the member itself: kiln
         * reflects no block behind it */
        bool pointer = json_is_true(json_object_get(m, "physical_pointer"));
        char *nested =
            !pointer && mtype && mtype[0] == '_' && depth < 8 && json_object_get(types, mtype)
                ? json_members(types, mtype, depth + 1)
                : strdup("");
        lines_add(&l, kt_format("%s@%lld%s%s%s", json_string_value(json_object_get(m, "name")),
                                (long long)json_integer_value(json_object_get(m, "offset")),
                                nested[0] ? "{" : "", nested, nested[0] ? "}" : ""));
        free(nested);
    }
    char *s = lines_join(&l);
    lines_free(&l);
    return s;
}

static char *kiln_members(const kiln_shader_reflection *r, uint32_t block, int depth)
{
    lines l = {0};
    if (block < r->block_count) {
        const kiln_shader_block *b = &r->blocks[block];
        for (uint32_t i = 0; i < b->member_count; i++) {
            const kiln_shader_member *m = &r->members[b->first_member + i];
            char *nested = m->struct_block != KILN_SHADER_NONE && depth < 8
                               ? kiln_members(r, m->struct_block, depth + 1)
                               : strdup("");
            const char *open = nested[0] ? "{" : "", *close = nested[0] ? "}" : "";
            /* spirv-cross names a member the module leaves unnamed (DXC's) "_m<index>" */
            if (m->name == 0)
                lines_add(&l, kt_format("_m%u@%u%s%s%s", i, m->offset, open, nested, close));
            else
                lines_add(&l, kt_format("%s@%u%s%s%s", r->strings + m->name, m->offset, open,
                                        nested, close));
            free(nested);
        }
    }
    char *s = lines_join(&l);
    lines_free(&l);
    return s;
}

/* The four comparisons, each as one sorted string per side. */
typedef struct digest {
    char *bindings, *blocks, *inputs, *outputs;
} digest;

static void digest_free(digest *d)
{
    free(d->bindings);
    free(d->blocks);
    free(d->inputs);
    free(d->outputs);
}

static const char *binding_keys[] = {"ubos",
                                     "ssbos",
                                     "textures",
                                     "separate_images",
                                     "separate_samplers",
                                     "images",
                                     "subpass_inputs",
                                     "acceleration_structures"};

static void json_digest(json_t *root, digest *d)
{
    lines b = {0}, k = {0}, in = {0}, out = {0};
    json_t *types = json_object_get(root, "types");
    for (size_t i = 0; i < sizeof binding_keys / sizeof *binding_keys; i++) {
        json_t *list = json_object_get(root, binding_keys[i]);
        for (size_t j = 0; j < json_array_size(list); j++) {
            json_t *e = json_array_get(list, j);
            const char *type = json_string_value(json_object_get(e, "type"));
            lines_add(&b, kt_format("%lld.%lld:%u[%u]",
                                    (long long)json_integer_value(json_object_get(e, "set")),
                                    (long long)json_integer_value(json_object_get(e, "binding")),
                                    json_resource(binding_keys[i], type), json_count(e)));
            if (i < 2) {
                char *m = json_members(types, type, 0);
                lines_add(
                    &k, kt_format("%lld.%lld{%s}",
                                  (long long)json_integer_value(json_object_get(e, "set")),
                                  (long long)json_integer_value(json_object_get(e, "binding")), m));
                free(m);
            }
        }
    }
    json_t *push = json_object_get(root, "push_constants");
    if (json_array_size(push) > 0) {
        const char *type = json_string_value(json_object_get(json_array_get(push, 0), "type"));
        char *m = json_members(types, type, 0);
        lines_add(&k, kt_format("push{%s}", m));
        free(m);
    }
    for (int io = 0; io < 2; io++) {
        json_t *list = json_object_get(root, io ? "outputs" : "inputs");
        for (size_t j = 0; j < json_array_size(list); j++) {
            json_t *e = json_array_get(list, j);
            const char *type = json_string_value(json_object_get(e, "type"));
            json_t *loc = json_object_get(e, "location");
            if (type && type[0] == '_') type = "struct";
            lines_add(io ? &out : &in,
                      kt_format("%lld:%s", loc ? (long long)json_integer_value(loc) : -1LL, type));
        }
    }
    d->bindings = lines_join(&b);
    d->blocks = lines_join(&k);
    d->inputs = lines_join(&in);
    d->outputs = lines_join(&out);
    lines_free(&b);
    lines_free(&k);
    lines_free(&in);
    lines_free(&out);
}

static void kiln_digest(const kiln_shader_reflection *r, digest *d)
{
    lines b = {0}, k = {0}, in = {0}, out = {0};
    for (uint32_t i = 0; i < r->binding_count; i++) {
        const kiln_shader_binding *x = &r->bindings[i];
        lines_add(&b, kt_format("%u.%u:%u[%u]", x->set, x->binding, x->resource, x->count));
        if (x->resource == KILN_SHADER_UNIFORM_BUFFER ||
            x->resource == KILN_SHADER_STORAGE_BUFFER) {
            char *m = kiln_members(r, x->block, 0);
            lines_add(&k, kt_format("%u.%u{%s}", x->set, x->binding, m));
            free(m);
        }
    }
    if (r->push_block != KILN_SHADER_NONE) {
        char *m = kiln_members(r, r->push_block, 0);
        lines_add(&k, kt_format("push{%s}", m));
        free(m);
    }
    for (int io = 0; io < 2; io++) {
        const kiln_shader_io *v = io ? r->outputs : r->inputs;
        uint32_t n = io ? r->output_count : r->input_count;
        for (uint32_t j = 0; j < n; j++) {
            char t[32];
            kiln_type_name(v[j].type, v[j].vec_size, v[j].columns, t, sizeof t);
            lines_add(io ? &out : &in,
                      kt_format("%lld:%s",
                                v[j].location == KILN_SHADER_NONE ? -1LL : (long long)v[j].location,
                                t));
        }
    }
    d->bindings = lines_join(&b);
    d->blocks = lines_join(&k);
    d->inputs = lines_join(&in);
    d->outputs = lines_join(&out);
    lines_free(&b);
    lines_free(&k);
    lines_free(&in);
    lines_free(&out);
}

/* "" when equal, else what differs first (malloc'd). */
static char *digest_diff(const digest *want, const digest *got)
{
    const char *names[4] = {"bindings", "blocks", "inputs", "outputs"};
    const char *w[4] = {want->bindings, want->blocks, want->inputs, want->outputs};
    const char *g[4] = {got->bindings, got->blocks, got->inputs, got->outputs};
    for (int i = 0; i < 4; i++)
        if (strcmp(w[i], g[i]) != 0)
            return kt_format("%s: spirv-cross [%s] kiln [%s]", names[i], w[i], g[i]);
    return strdup("");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *expected_reason(const char *rel)
{
    for (size_t i = 0; i < sizeof expected_failures / sizeof *expected_failures; i++)
        if (strncmp(expected_failures[i].prefix, rel, strlen(expected_failures[i].prefix)) == 0)
            return expected_failures[i].reason;
    return NULL;
}

/* spirv-cross --reflect of a file, parsed; NULL when spirv-cross refuses the module. */
static json_t *spirv_cross_reflect(const char *path)
{
    char *json = NULL;
    char *cmd = kt_format("spirv-cross '%s' --reflect 2>/dev/null", path);
    int rc = kt_run(cmd, &json);
    free(cmd);
    if (rc != 0) {
        free(json);
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loads(json, 0, &je);
    if (!root) fail_msg("spirv-cross --reflect %s: %s", path, je.text);
    free(json);
    return root;
}

static void corpus_compiles_validates_and_reflects_as_spirv_cross(void **state)
{
    (void)state;
    char *root = kt_corpus_path("shaders");
    if (!root || !kt_file_exists(root)) {
        free(root);
        skip();
    }
    char *which = NULL;
    if (kt_run("command -v spirv-cross", &which) != 0) {
        printf("spirv-cross is not installed: skipped\n");
        free(which);
        free(root);
        skip();
    }
    free(which);
    path_list files = {0};
    walk(root, "glsl", &files);
    walk(root, "hlsl", &files);
    qsort(files.v, files.n, sizeof *files.v, cmp_str);
    const char *san = getenv("KILN_TEST_SANITIZED");
    size_t step = san && strcmp(san, "1") == 0 ? 50 : 1;
    char *tmp = kt_tempdir("shader_corpus");
    char *ours_path = kt_format("%s/ours.spv", tmp);

    size_t tried = 0, compiled = 0, valid = 0, expected = 0, unexpected = 0;
    size_t upstream_matched = 0, upstream_refused = 0, glsl_matched = 0, glsl_valid = 0;
    size_t hlsl_self_matched = 0, hlsl_valid = 0, hlsl_dxc_matched = 0;
    double *times = calloc(files.n + 1, sizeof *times);
    assert_non_null(times);
    size_t ntimes = 0;
    for (size_t i = 0; i < files.n; i += step) {
        const char *rel = files.v[i];
        tried++;
        int stage = kiln_shader_stage_of_name(rel);
        assert_true(stage >= 0);
        bool hlsl = strncmp(rel, "hlsl/", 5) == 0;
        char *full = kt_format("%s/%s", root, rel);
        char *spv_path = kt_format("%s.spv", full);
        size_t src_size = 0, spv_size = 0;
        char *src = kt_read_file(full, &src_size);
        uint32_t *spv = kt_read_file(spv_path, &spv_size);
        assert_non_null(src);
        assert_non_null(spv);
        assert_true(spv_size >= 20 && spv_size % 4 == 0);
        uint32_t target = target_of_version(spv[1]);

        /* kiln's reflection of the upstream module against spirv-cross's */
        json_t *upstream_json = spirv_cross_reflect(spv_path);
        digest want = {0}, theirs = {0};
        kiln_shader_reflection up;
        kiln_error err;
        kiln_result r = kiln_shader_reflect(spv, spv_size / 4, NULL, NULL, &up, &err);
        if (!upstream_json) {
            /* SPIRV-Cross (the library and the command) refuses it: so must kiln */
            if (r == KILN_OK) fail_msg("%s.spv: spirv-cross refuses it, kiln reflects it", rel);
            upstream_refused++;
            printf("  spirv-cross and kiln refuse upstream %s.spv: %s\n", rel, err.message);
        } else {
            json_digest(upstream_json, &want);
            if (r != KILN_OK) fail_msg("%s: reflect upstream: %s", rel, err.message);
            kiln_digest(&up, &theirs);
            char *d_up = digest_diff(&want, &theirs);
            if (d_up[0] == 0) {
                upstream_matched++;
            } else {
                unexpected++;
                printf("  FAIL kiln's reflection of upstream %s.spv: %s\n", rel, d_up);
            }
            free(d_up);
            kiln_shader_reflection_free(&up);
            digest_free(&theirs);
        }

        corpus_includes ci = {.root = root};
        kiln_shader_compile_opts o = {.struct_size = sizeof o,
                                      .name = rel,
                                      .language = hlsl ? KILN_SHADER_HLSL : KILN_SHADER_GLSL,
                                      .stage = (uint32_t)stage,
                                      .target = target,
                                      .optimize = KILN_SHADER_OPTIMIZE_NONE,
                                      .entry = "main",
                                      .include = corpus_include,
                                      .include_user = &ci};
        kiln_shader_module m;
        double t0 = now_ms();
        r = kiln_shader_compile(src, src_size, &o, NULL, &m, &err);
        double t1 = now_ms();
        const char *reason = expected_reason(rel);
        char *problem = NULL;
        if (r != KILN_OK) {
            assert_null(m.words);
            assert_non_null(m.log);
            problem = kt_format("compile: %s %s", kiln_result_name(r), err.message);
        } else {
            compiled++;
            times[ntimes++] = t1 - t0;
            r = kiln_shader_validate(m.words, m.word_count, target, "main", (uint32_t)stage, &err);
            if (r != KILN_OK) problem = kt_format("validate: %s", err.message);
        }
        if (!problem) {
            valid++;
            kiln_shader_reflection mine;
            digest ours = {0};
            r = kiln_shader_reflect(m.words, m.word_count, "main", NULL, &mine, &err);
            if (r != KILN_OK) fail_msg("%s: reflect ours: %s", rel, err.message);
            assert_int_equal(mine.stage, (uint32_t)stage);
            kiln_digest(&mine, &ours);
            kiln_shader_reflection_free(&mine);
            if (!upstream_json) {
                problem = kt_format("no upstream reflection to compare with");
            } else if (!hlsl) {
                glsl_valid++;
                char *d = digest_diff(&want, &ours);
                if (d[0] == 0) glsl_matched++;
                else problem = kt_format("reflection differs from upstream: %s", d);
                free(d);
            } else {
                hlsl_valid++;
                kt_write_file(ours_path, m.words, m.word_count * 4);
                json_t *ours_json = spirv_cross_reflect(ours_path);
                if (!ours_json) fail_msg("%s: spirv-cross refuses kiln's module", rel);
                digest self = {0};
                json_digest(ours_json, &self);
                char *d = digest_diff(&self, &ours);
                if (d[0] == 0) hlsl_self_matched++;
                else problem = kt_format("reflection differs from spirv-cross's: %s", d);
                free(d);
                d = digest_diff(&want, &ours);
                if (d[0] == 0) hlsl_dxc_matched++;
                else printf("  note: %s differs from DXC's module in %s\n", rel, d);
                free(d);
                digest_free(&self);
                json_decref(ours_json);
            }
            digest_free(&ours);
        }
        if (problem && reason) {
            expected++;
            printf("  expected failure %s (%s): %s\n", rel, reason, problem);
        } else if (problem) {
            unexpected++;
            printf("  FAIL %s: %s\n", rel, problem);
        } else if (reason) {
            unexpected++;
            printf("  FAIL %s passes but is listed as an expected failure (%s)\n", rel, reason);
        }
        free(problem);
        digest_free(&want);
        if (upstream_json) json_decref(upstream_json);
        kiln_shader_module_free(&m);
        for (int k = 0; k < ci.n; k++) {
            free(ci.names[k]);
            free(ci.data[k]);
        }
        free(src);
        free(spv);
        free(full);
        free(spv_path);
    }
    qsort(times, ntimes, sizeof *times, cmp_double);
    printf(
        "shader corpus: %zu shaders, %zu compiled, %zu valid, %zu expected failures, "
        "%zu unexpected; reflection as spirv-cross: upstream .spv %zu/%zu (%zu refused by both), GLSL (kiln's module "
        "vs upstream) %zu/%zu, HLSL (kiln's module vs spirv-cross of it) %zu/%zu, HLSL also "
        "equal to DXC's module %zu/%zu; compile median %.1f ms, p90 %.1f ms\n",
        tried, compiled, valid, expected, unexpected, upstream_matched, tried, upstream_refused,
        glsl_matched, glsl_valid, hlsl_self_matched, hlsl_valid, hlsl_dxc_matched, hlsl_valid,
        ntimes ? times[ntimes / 2] : 0.0, ntimes ? times[ntimes * 9 / 10] : 0.0);
    free(times);
    for (size_t i = 0; i < files.n; i++) free(files.v[i]);
    free(files.v);
    kt_rmtree(tmp);
    free(tmp);
    free(ours_path);
    free(root);
    assert_true(tried > 0);
    assert_int_equal(unexpected, 0);
    assert_int_equal(valid + expected, tried);
}

int kt_shader_corpus_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_compiles_validates_and_reflects_as_spirv_cross),
    };
    return cmocka_run_group_tests_name("shader_corpus", tests, NULL, NULL);
}
