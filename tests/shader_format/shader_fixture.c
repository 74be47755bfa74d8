/* shader_fixture.c — see shader_fixture.h. */
#include "shader_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define NONE KILN_SHADER_NONE

typedef struct strtab {
    char *buf;
    size_t size, cap;
} strtab;

/* Appends s with its NUL; returns its offset (offset 0 is the "" every table starts with). */
static uint32_t add(strtab *t, const char *s)
{
    size_t n = strlen(s) + 1;
    if (t->size + n > t->cap) abort();
    memcpy(t->buf + t->size, s, n);
    t->size += n;
    return (uint32_t)(t->size - n);
}

static void words(uint32_t *w, uint32_t salt)
{
    const uint32_t module[12] = {KILN_SHADER_SPIRV_MAGIC,
                                 0x00010500,
                                 0x000D000B,
                                 40 + salt,
                                 0,
                                 0x00020011,
                                 1,
                                 0x0003000E,
                                 0,
                                 1,
                                 0x0005000F,
                                 salt};
    memcpy(w, module, sizeof module);
}

static kiln_shader_member member(uint32_t name, uint32_t offset, uint32_t size, uint32_t type,
                                 uint32_t vec, uint32_t cols)
{
    kiln_shader_member m = {name, offset, size, type, vec, cols, 1, 0, 0, 0, NONE};
    if (cols > 1) m.matrix_stride = 16;
    return m;
}

static kiln_shader_io io(uint32_t name, uint32_t location, uint32_t type, uint32_t vec)
{
    kiln_shader_io x = {name, location, 0, type, vec, 1, 1, 0};
    return x;
}

static void vertex_variant(kt_shader_fixture *f, int v, int skinned)
{
    kiln_shader_reflection *r = &f->reflections[v];
    strtab t = {f->strings[v], 1, sizeof f->strings[v]};
    f->strings[v][0] = 0;
    memset(r, 0, sizeof *r);
    r->stage = KILN_SHADER_VERTEX;
    r->entry_point = add(&t, "main");
    for (int k = 0; k < 3; k++) r->workgroup_spec[k] = NONE;
    kiln_shader_block *b = f->blocks[v];
    kiln_shader_member *m = f->members[v];
    uint32_t nb = 0, nm = 0;
    /* block 0: Globals (std140) { mat4 view_proj; vec4 tint; Material material; float w[4]; } */
    b[nb++] = (kiln_shader_block){add(&t, "Globals"), 176, KILN_SHADER_LAYOUT_STD140, nm, 4};
    m[nm++] = member(add(&t, "view_proj"), 0, 64, KILN_SHADER_TYPE_FLOAT, 4, 4);
    m[nm++] = member(add(&t, "tint"), 64, 16, KILN_SHADER_TYPE_FLOAT, 4, 1);
    m[nm] = member(add(&t, "material"), 80, 32, KILN_SHADER_TYPE_STRUCT, 1, 1);
    m[nm++].struct_block = 3;
    m[nm] = member(add(&t, "weights"), 112, 64, KILN_SHADER_TYPE_FLOAT, 1, 1);
    m[nm].array_count = 4;
    m[nm++].array_stride = 16;
    /* block 1: LightBuffer (std430) { uint count; Light lights[]; } */
    b[nb++] = (kiln_shader_block){add(&t, "LightBuffer"), 16, KILN_SHADER_LAYOUT_STD430, nm, 2};
    m[nm++] = member(add(&t, "count"), 0, 4, KILN_SHADER_TYPE_UINT, 1, 1);
    m[nm] = member(add(&t, "lights"), 16, 0, KILN_SHADER_TYPE_STRUCT, 1, 1);
    m[nm].array_count = KILN_SHADER_RUNTIME_ARRAY;
    m[nm].array_stride = 32;
    m[nm++].struct_block = 4;
    /* block 2: Push { uint material_index; float scale; } */
    b[nb++] = (kiln_shader_block){add(&t, "Push"), 8, KILN_SHADER_LAYOUT_STD430, nm, 2};
    m[nm++] = member(add(&t, "material_index"), 0, 4, KILN_SHADER_TYPE_UINT, 1, 1);
    m[nm++] = member(add(&t, "scale"), 4, 4, KILN_SHADER_TYPE_FLOAT, 1, 1);
    /* block 3: Material { vec3 color; float roughness; Inner inner; } */
    b[nb++] = (kiln_shader_block){add(&t, "Material"), 32, KILN_SHADER_LAYOUT_STD140, nm, 3};
    m[nm++] = member(add(&t, "color"), 0, 12, KILN_SHADER_TYPE_FLOAT, 3, 1);
    m[nm++] = member(add(&t, "roughness"), 12, 4, KILN_SHADER_TYPE_FLOAT, 1, 1);
    m[nm] = member(add(&t, "inner"), 16, 16, KILN_SHADER_TYPE_STRUCT, 1, 1);
    m[nm++].struct_block = 5;
    /* block 4: Light { vec3 position; float radius; vec4 color; } */
    b[nb++] = (kiln_shader_block){add(&t, "Light"), 32, KILN_SHADER_LAYOUT_STD430, nm, 3};
    m[nm++] = member(add(&t, "position"), 0, 12, KILN_SHADER_TYPE_FLOAT, 3, 1);
    m[nm++] = member(add(&t, "radius"), 12, 4, KILN_SHADER_TYPE_FLOAT, 1, 1);
    m[nm++] = member(add(&t, "color"), 16, 16, KILN_SHADER_TYPE_FLOAT, 4, 1);
    /* block 5: Inner { int flags; } */
    b[nb++] = (kiln_shader_block){add(&t, "Inner"), 16, KILN_SHADER_LAYOUT_STD140, nm, 1};
    m[nm++] = member(add(&t, "flags"), 0, 4, KILN_SHADER_TYPE_INT, 1, 1);
    r->blocks = b;
    r->block_count = nb;
    r->members = m;
    r->member_count = nm;
    r->push_block = 2;
    r->push_size = 8;

    kiln_shader_binding *bd = f->bindings[v];
    uint32_t n = 0;
    bd[n++] = (kiln_shader_binding){
        add(&t, "globals"), 0, 0, KILN_SHADER_UNIFORM_BUFFER, 1, 0, 0, 0, NONE, 0};
    bd[n++] = (kiln_shader_binding){
        add(&t, "lights"),           0, 1, KILN_SHADER_STORAGE_BUFFER, 1, 1, 0, 0, NONE,
        KILN_SHADER_BINDING_READONLY};
    bd[n++] = (kiln_shader_binding){
        add(&t, "textures"), 1, 0, KILN_SHADER_SAMPLED_IMAGE, 4, NONE, 2, 1, NONE, 0};
    if (skinned)
        bd[n++] = (kiln_shader_binding){
            add(&t, "shadow"), 1, 4, KILN_SHADER_SAMPLED_IMAGE, 1, NONE, 2, 4, NONE, 0};
    r->bindings = bd;
    r->binding_count = n;

    kiln_shader_io *in = f->inputs[v];
    n = 0;
    in[n++] = io(add(&t, "position"), 0, KILN_SHADER_TYPE_FLOAT, 3);
    in[n++] = io(add(&t, "normal"), 1, KILN_SHADER_TYPE_FLOAT, 3);
    in[n++] = io(add(&t, "uv"), 2, KILN_SHADER_TYPE_FLOAT, 2);
    if (skinned) {
        in[n++] = io(add(&t, "joints"), 3, KILN_SHADER_TYPE_UINT, 4);
        in[n++] = io(add(&t, "weights"), 4, KILN_SHADER_TYPE_FLOAT, 4);
    }
    r->inputs = in;
    r->input_count = n;
    kiln_shader_io *out = f->outputs[v];
    out[0] = io(add(&t, "v_uv"), 0, KILN_SHADER_TYPE_FLOAT, 2);
    out[1] = io(add(&t, "v_material"), 1, KILN_SHADER_TYPE_UINT, 1);
    out[1].flags = 1; /* flat */
    r->outputs = out;
    r->output_count = 2;
    kiln_shader_spec_constant *c = f->constants[v];
    c[0] = (kiln_shader_spec_constant){add(&t, "USE_FOG"), 0, KILN_SHADER_TYPE_BOOL, {1, 0}};
    c[1] = (kiln_shader_spec_constant){
        add(&t, "FOG_SCALE"), 3, KILN_SHADER_TYPE_FLOAT, {0x3F800000u, 0}};
    c[2] = (kiln_shader_spec_constant){0, 9, KILN_SHADER_TYPE_UINT64, {5, 1}}; /* unnamed */
    r->constants = c;
    r->constant_count = 3;
    r->strings = f->strings[v];
    r->strings_size = t.size;

    words(f->words[v], (uint32_t)v);
    kiln_cooked_shader_variant *var = &f->variants[v];
    var->name = skinned ? "skinned" : "default";
    var->defines = skinned ? "SKINNED=1 BONES=64" : NULL;
    var->words = f->words[v];
    var->word_count = 12;
    var->reflection = r;
}

void kt_shader_vertex(kt_shader_fixture *f)
{
    memset(f, 0, sizeof *f);
    vertex_variant(f, 0, 0);
    vertex_variant(f, 1, 1);
    f->shader = (kiln_cooked_shader){KILN_SHADER_VERTEX, 0, 2, 2, 0, "main", f->variants, 2};
}

void kt_shader_compute(kt_shader_fixture *f)
{
    memset(f, 0, sizeof *f);
    kiln_shader_reflection *r = &f->reflections[0];
    strtab t = {f->strings[0], 1, sizeof f->strings[0]};
    r->stage = KILN_SHADER_COMPUTE;
    r->entry_point = add(&t, "cs_main");
    r->workgroup[0] = r->workgroup[1] = 8;
    r->workgroup_spec[0] = r->workgroup_spec[1] = NONE;
    r->workgroup_spec[2] = 7;
    r->push_block = NONE;
    f->blocks[0][0] = (kiln_shader_block){add(&t, "Histogram"), 4, KILN_SHADER_LAYOUT_STD430, 0, 2};
    f->members[0][0] = member(add(&t, "total"), 0, 4, KILN_SHADER_TYPE_UINT, 1, 1);
    f->members[0][1] = member(add(&t, "bins"), 4, 0, KILN_SHADER_TYPE_UINT, 1, 1);
    f->members[0][1].array_count = KILN_SHADER_RUNTIME_ARRAY;
    f->members[0][1].array_stride = 4;
    r->blocks = f->blocks[0];
    r->block_count = 1;
    r->members = f->members[0];
    r->member_count = 2;
    f->bindings[0][0] = (kiln_shader_binding){add(&t, "image"),
                                              0,
                                              0,
                                              KILN_SHADER_STORAGE_IMAGE,
                                              1,
                                              NONE,
                                              2,
                                              0,
                                              NONE,
                                              KILN_SHADER_BINDING_READONLY};
    f->bindings[0][1] = (kiln_shader_binding){
        add(&t, "histogram"), 0, 1, KILN_SHADER_STORAGE_BUFFER, 1, 0, 0, 0, NONE, 0};
    r->bindings = f->bindings[0];
    r->binding_count = 2;
    f->constants[0][0] =
        (kiln_shader_spec_constant){add(&t, "LOCAL_Z"), 7, KILN_SHADER_TYPE_UINT, {1, 0}};
    r->constants = f->constants[0];
    r->constant_count = 1;
    r->strings = f->strings[0];
    r->strings_size = t.size;
    words(f->words[0], 2);
    f->variants[0] = (kiln_cooked_shader_variant){"default", "", f->words[0], 6, r};
    f->shader = (kiln_cooked_shader){KILN_SHADER_COMPUTE,    1,         3,           0,
                                     KILN_SHADER_DEBUG_INFO, "cs_main", f->variants, 1};
}

uint8_t *kt_shader_bytes(int compute, size_t *size)
{
    kt_shader_fixture f;
    if (compute) kt_shader_compute(&f);
    else kt_shader_vertex(&f);
    uint8_t *bytes;
    kiln_error err;
    if (kiln_shader_write(&f.shader, NULL, &bytes, size, &err) != KILN_OK) return NULL;
    uint8_t *copy = malloc(*size);
    if (copy) memcpy(copy, bytes, *size);
    kiln_free(NULL, bytes, *size);
    return copy;
}
