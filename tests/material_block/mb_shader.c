/* mb_shader.c — see mb_shader.h. */
#include "mb_shader.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "core/alloc.h"
#include "core/error.h"

#include "process/shader_compile.h"
#include "process/shader_reflect.h"
#include "write/shader_write.h"

typedef struct include_buf {
    char *names[16];
    void *data[16];
    size_t count;
} include_buf;

static kiln_result include_file(void *user, const char *requested, const char *requesting,
                                bool relative, const char **resolved, const uint8_t **data,
                                size_t *size, kiln_error *err)
{
    (void)requesting;
    (void)relative;
    include_buf *b = user;
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src || b->count == 16) return kiln_error_set(err, KILN_E_ASSET_IO, "no include");
    char *path = kt_format("%s/tests/shaders/include/%s", src, requested);
    void *bytes = kt_read_file(path, size);
    free(path);
    if (!bytes) return kiln_error_set(err, KILN_E_ASSET_IO, "missing include %s", requested);
    b->names[b->count] = kt_format("include/%s", requested);
    b->data[b->count] = bytes;
    *resolved = b->names[b->count];
    *data = bytes;
    b->count++;
    return KILN_OK;
}

void mb_build(mb_shader *s, const char *source, uint32_t stage, uint32_t language,
              const char *entry, const char *const *defines)
{
    memset(s, 0, sizeof *s);
    kiln_shader_define defs[8];
    size_t nd = 0;
    char *texts[8];
    for (; defines && defines[nd] && nd < 8; nd++) {
        texts[nd] = kt_format("%s", defines[nd]);
        char *eq = strchr(texts[nd], '=');
        if (eq) *eq++ = '\0';
        defs[nd] = (kiln_shader_define){texts[nd], eq};
    }
    include_buf inc;
    memset(&inc, 0, sizeof inc);
    kiln_shader_compile_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.name = "test.shader";
    o.language = language;
    o.stage = stage;
    o.target = KILN_SHADER_VULKAN_1_2;
    o.optimize = KILN_SHADER_OPTIMIZE_NONE;
    o.entry = entry;
    o.warnings_as_errors = false;
    o.defines = defs;
    o.define_count = nd;
    o.include = include_file;
    o.include_user = &inc;
    kiln_shader_module m;
    kiln_error err;
    kiln_result r = kiln_shader_compile(source, strlen(source), &o, NULL, &m, &err);
    if (r != KILN_OK) fail_msg("compile: %s\n%s", err.message, m.log ? m.log : "");
    kiln_shader_reflection refl;
    r = kiln_shader_reflect(m.words, m.word_count, entry ? entry : "main", NULL, &refl, &err);
    if (r != KILN_OK) fail_msg("reflect: %s", err.message);
    kiln_cooked_shader_variant var = {"default", "", m.words, m.word_count, &refl};
    kiln_cooked_shader cs = {stage, language, KILN_SHADER_VULKAN_1_2, 0, 0, entry ? entry : "main",
                             &var,  1};
    r = kiln_shader_write(&cs, NULL, &s->bytes, &s->size, &err);
    if (r != KILN_OK) fail_msg("write: %s", err.message);
    r = kiln_shader_read(s->bytes, s->size, 0, &s->view, &err);
    if (r != KILN_OK) fail_msg("read: %s", err.message);
    kiln_shader_reflection_free(&refl);
    kiln_shader_module_free(&m);
    for (size_t i = 0; i < inc.count; i++) {
        free(inc.names[i]);
        free(inc.data[i]);
    }
    for (size_t i = 0; i < nd; i++) free(texts[i]);
}

void mb_build_file(mb_shader *s, const char *name, uint32_t stage, uint32_t language,
                   const char *entry, const char *const *defines)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *path = kt_format("%s/tests/shaders/%s", src, name);
    size_t size = 0;
    char *text = kt_read_file(path, &size);
    if (!text) fail_msg("cannot read %s", path);
    char *z = malloc(size + 1);
    memcpy(z, text, size);
    z[size] = '\0';
    mb_build(s, z, stage, language, entry, defines);
    free(z);
    free(text);
    free(path);
}

void mb_free(mb_shader *s)
{
    if (s->bytes) kiln_free(NULL, s->bytes, s->size);
    memset(s, 0, sizeof *s);
}

uint32_t mb_block(const mb_shader *s, uint32_t set, uint32_t binding)
{
    kiln_shader_variant_info vi = kiln_shader_variant_at(&s->view, 0);
    if (set == KILN_SHADER_NONE) {
        assert_int_not_equal(vi.push_block, KILN_SHADER_NONE);
        return vi.push_block;
    }
    for (uint32_t i = 0; i < vi.binding_count; i++) {
        kiln_shader_binding_info b = kiln_shader_binding_at(&s->view, 0, i);
        if (b.set == set && b.binding == binding && b.block != KILN_SHADER_NONE) return b.block;
    }
    fail_msg("no block at set %u, binding %u", set, binding);
    return KILN_SHADER_NONE;
}
