/* shader_write.c — see shader_write.h; the layout is in docs/formats.md, "Shaders". */
#include "write/shader_write.h"

#include <string.h>

#include "codec/shader_sections.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/reader.h"
#include "write/container_write.h"

#define NONE KILN_SHADER_NONE

/* The counts of one reflection's tables, in KILN_SHADER_TABLE_* order. */
static void table_counts(const kiln_shader_reflection *r, uint32_t n[KILN_SHADER_TABLE_COUNT])
{
    n[KILN_SHADER_TABLE_BINDINGS] = r->binding_count;
    n[KILN_SHADER_TABLE_BLOCKS] = r->block_count;
    n[KILN_SHADER_TABLE_MEMBERS] = r->member_count;
    n[KILN_SHADER_TABLE_INPUTS] = r->input_count;
    n[KILN_SHADER_TABLE_OUTPUTS] = r->output_count;
    n[KILN_SHADER_TABLE_CONSTANTS] = r->constant_count;
}

/* The checks a variant passes before its records are read: arrays present, names inside its
 * strings, member ranges and struct indices inside its tables (so the depth pass reads nothing
 * outside them), its stage and entry point the shader's. */
static kiln_result check_variant(const kiln_cooked_shader *s, size_t vi, kiln_error *err)
{
    const kiln_cooked_shader_variant *v = &s->variants[vi];
    const kiln_shader_reflection *r = v->reflection;
    if (!v->name || !*v->name || !v->words || !r)
        return kiln_error_set(err, KILN_E_USAGE,
                              "shader variant %zu: no name, no words or no reflection", vi);
    if (v->word_count > UINT32_MAX)
        return kiln_error_set(err, KILN_E_LIMIT, "shader variant %s: too many words", v->name);
    if ((r->binding_count && !r->bindings) || (r->block_count && !r->blocks) ||
        (r->member_count && !r->members) || (r->input_count && !r->inputs) ||
        (r->output_count && !r->outputs) || (r->constant_count && !r->constants) || !r->strings ||
        !r->strings_size || r->strings[r->strings_size - 1] || r->strings_size > UINT32_MAX)
        return kiln_error_set(err, KILN_E_USAGE,
                              "shader variant %s: a reflection table is missing, or its strings "
                              "do not end with a NUL",
                              v->name);
    size_t ns = r->strings_size;
    bool names_ok = r->entry_point < ns;
    for (uint32_t i = 0; i < r->binding_count; i++) names_ok &= r->bindings[i].name < ns;
    for (uint32_t i = 0; i < r->block_count; i++) names_ok &= r->blocks[i].name < ns;
    for (uint32_t i = 0; i < r->member_count; i++) names_ok &= r->members[i].name < ns;
    for (uint32_t i = 0; i < r->input_count; i++) names_ok &= r->inputs[i].name < ns;
    for (uint32_t i = 0; i < r->output_count; i++) names_ok &= r->outputs[i].name < ns;
    for (uint32_t i = 0; i < r->constant_count; i++) names_ok &= r->constants[i].name < ns;
    if (!names_ok)
        return kiln_error_set(err, KILN_E_USAGE, "shader variant %s: a name outside its strings",
                              v->name);
    if (r->stage != s->stage || strcmp(r->strings + r->entry_point, s->entry))
        return kiln_error_set(err, KILN_E_USAGE,
                              "shader variant %s: reflected for another stage or entry point",
                              v->name);
    for (uint32_t b = 0; b < r->block_count; b++)
        if ((uint64_t)r->blocks[b].first_member + r->blocks[b].member_count > r->member_count)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "shader variant %s: block %u's members out of range", v->name, b);
    for (uint32_t m = 0; m < r->member_count; m++)
        if (r->members[m].struct_block != NONE && r->members[m].struct_block >= r->block_count)
            return kiln_error_set(err, KILN_E_USAGE,
                                  "shader variant %s: member %u's struct block out of range",
                                  v->name, m);
    return KILN_OK;
}

/* Each block's depth (docs/formats.md): longest-path relaxation, at most MAX_DEPTH + 2 passes
 * over the members; still changing after them means a cycle or deeper nesting. */
static kiln_result block_depths(const kiln_shader_reflection *r, const char *variant,
                                const kiln_allocator *alloc, uint32_t **out, kiln_error *err)
{
    *out = NULL;
    if (!r->block_count) return KILN_OK;
    uint32_t *depth = kiln_calloc(alloc, r->block_count, sizeof *depth);
    if (!depth) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader block depths");
    bool changed = true;
    for (uint32_t pass = 0; changed && pass < KILN_SHADER_MAX_DEPTH + 2; pass++) {
        changed = false;
        for (uint32_t b = 0; b < r->block_count; b++) {
            const kiln_shader_block *bk = &r->blocks[b];
            for (uint32_t m = 0; m < bk->member_count; m++) {
                uint32_t sb = r->members[bk->first_member + m].struct_block;
                if (sb != NONE && depth[sb] + 1 > depth[b]) {
                    depth[b] = depth[sb] + 1;
                    changed = true;
                }
            }
        }
    }
    for (uint32_t b = 0; b < r->block_count; b++) changed |= depth[b] > KILN_SHADER_MAX_DEPTH;
    if (changed) {
        kiln_free(alloc, depth, (size_t)r->block_count * sizeof *depth);
        return kiln_error_set(err, KILN_E_LIMIT,
                              "shader variant %s: structs nest in a cycle or more than %u deep",
                              variant, KILN_SHADER_MAX_DEPTH);
    }
    *out = depth;
    return KILN_OK;
}

static uint8_t *put_u32s(uint8_t *p, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_store_u32le(p + 4 * i, v[i]);
    return p + 4 * n;
}

/* The records of one variant's reflection at the ends of each table (cursor[t]), names moved by
 * base into the shader's strings. */
static void put_records(const kiln_shader_reflection *r, const uint32_t *depth, uint32_t base,
                        uint8_t *cursor[KILN_SHADER_TABLE_COUNT])
{
    for (uint32_t i = 0; i < r->binding_count; i++) {
        const kiln_shader_binding *b = &r->bindings[i];
        uint32_t f[] = {
            base + b->name, b->set,       b->binding,     b->resource,         b->count,
            b->block,       b->image_dim, b->image_flags, b->input_attachment, b->flags};
        cursor[KILN_SHADER_TABLE_BINDINGS] = put_u32s(cursor[KILN_SHADER_TABLE_BINDINGS], f, 10);
    }
    for (uint32_t i = 0; i < r->block_count; i++) {
        const kiln_shader_block *b = &r->blocks[i];
        uint32_t f[] = {base + b->name,  b->size,         b->layout,
                        b->first_member, b->member_count, depth[i]};
        cursor[KILN_SHADER_TABLE_BLOCKS] = put_u32s(cursor[KILN_SHADER_TABLE_BLOCKS], f, 6);
    }
    for (uint32_t i = 0; i < r->member_count; i++) {
        const kiln_shader_member *m = &r->members[i];
        uint32_t f[] = {base + m->name,   m->offset,  m->size,        m->type,
                        m->vec_size,      m->columns, m->array_count, m->array_stride,
                        m->matrix_stride, m->flags,   m->struct_block};
        cursor[KILN_SHADER_TABLE_MEMBERS] = put_u32s(cursor[KILN_SHADER_TABLE_MEMBERS], f, 11);
    }
    for (int t = KILN_SHADER_TABLE_INPUTS; t <= KILN_SHADER_TABLE_OUTPUTS; t++) {
        const kiln_shader_io *io = t == KILN_SHADER_TABLE_INPUTS ? r->inputs : r->outputs;
        uint32_t n = t == KILN_SHADER_TABLE_INPUTS ? r->input_count : r->output_count;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t f[] = {base + io[i].name, io[i].location, io[i].component,   io[i].type,
                            io[i].vec_size,    io[i].columns,  io[i].array_count, io[i].flags};
            cursor[t] = put_u32s(cursor[t], f, 8);
        }
    }
    for (uint32_t i = 0; i < r->constant_count; i++) {
        const kiln_shader_spec_constant *c = &r->constants[i];
        uint32_t f[] = {base + c->name, c->id, c->type, c->default_bits[0], c->default_bits[1]};
        cursor[KILN_SHADER_TABLE_CONSTANTS] = put_u32s(cursor[KILN_SHADER_TABLE_CONSTANTS], f, 5);
    }
}

static const uint32_t k_record_sizes[KILN_SHADER_TABLE_COUNT] = {
    KILN_SHADER_BINDING_SIZE, KILN_SHADER_BLOCK_SIZE, KILN_SHADER_MEMBER_SIZE,
    KILN_SHADER_IO_SIZE,      KILN_SHADER_IO_SIZE,    KILN_SHADER_CONSTANT_SIZE};
static const uint32_t k_table_ids[KILN_SHADER_TABLE_COUNT] = {
    KILN_SHADER_SECTION_BINDINGS, KILN_SHADER_SECTION_BLOCKS,  KILN_SHADER_SECTION_MEMBERS,
    KILN_SHADER_SECTION_INPUTS,   KILN_SHADER_SECTION_OUTPUTS, KILN_SHADER_SECTION_CONSTANTS};

/* The sizes of everything, in one buffer laid out as: header, variants, words, the six tables,
 * strings (section i at off[i], off[11] the end). */
typedef struct layout {
    uint64_t words, tables[KILN_SHADER_TABLE_COUNT], strings;
    size_t off[11];
} layout;

static kiln_result plan(const kiln_cooked_shader *s, layout *l, kiln_error *err)
{
    memset(l, 0, sizeof *l);
    l->strings = 1 + strlen(s->entry) + 1;
    for (size_t i = 0; i < s->variant_count; i++) {
        const kiln_cooked_shader_variant *v = &s->variants[i];
        uint32_t n[KILN_SHADER_TABLE_COUNT];
        table_counts(v->reflection, n);
        l->words += v->word_count;
        for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++) l->tables[t] += n[t];
        l->strings += strlen(v->name) + 1 + (v->defines ? strlen(v->defines) : 0) + 1 +
                      v->reflection->strings_size;
    }
    bool big = l->words > UINT32_MAX || l->strings > UINT32_MAX;
    for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++) big |= l->tables[t] > UINT32_MAX;
    if (big) return kiln_error_set(err, KILN_E_LIMIT, "shader: counts or strings past 32 bits");
    uint64_t sizes[10] = {KILN_SHADER_HEADER_SIZE,
                          (uint64_t)s->variant_count * KILN_SHADER_VARIANT_SIZE, l->words * 4};
    for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++)
        sizes[3 + t] = l->tables[t] * k_record_sizes[t];
    sizes[9] = l->strings;
    uint64_t total = 0;
    for (int i = 0; i < 10; i++) {
        l->off[i] = (size_t)total;
        total += sizes[i];
    }
    if (total > SIZE_MAX / 2) return kiln_error_set(err, KILN_E_LIMIT, "shader: too large");
    l->off[10] = (size_t)total;
    return KILN_OK;
}

static kiln_result check_shader(const kiln_cooked_shader *s, kiln_error *err)
{
    if (!s->entry || !*s->entry || !s->variants || !s->variant_count ||
        s->variant_count > KILN_SHADER_MAX_VARIANTS)
        return kiln_error_set(err, KILN_E_USAGE,
                              "kiln_shader_write: no entry point, or not 1 .. %u variants",
                              KILN_SHADER_MAX_VARIANTS);
    kiln_result r;
    for (size_t i = 0; i < s->variant_count; i++)
        if ((r = check_variant(s, i, err))) return r;
    return KILN_OK;
}

/* Fills buf (l->off[10] bytes, zeroed) with every section's bytes. */
static kiln_result fill(const kiln_cooked_shader *s, const layout *l, uint8_t *buf,
                        const kiln_allocator *alloc, kiln_error *err)
{
    uint8_t *h = buf + l->off[0];
    char *strings = (char *)buf + l->off[9];
    size_t at = 1; /* offset 0 is "" */
    uint32_t header[] = {s->stage,
                         s->language,
                         s->target,
                         s->optimize,
                         s->flags,
                         (uint32_t)at,
                         (uint32_t)s->variant_count,
                         0};
    put_u32s(h, header, 8);
    memcpy(strings + at, s->entry, strlen(s->entry) + 1);
    at += strlen(s->entry) + 1;
    uint8_t *words = buf + l->off[2];
    uint8_t *cursor[KILN_SHADER_TABLE_COUNT];
    for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++) cursor[t] = buf + l->off[3 + t];
    uint32_t word_at = 0, firsts[KILN_SHADER_TABLE_COUNT] = {0};
    for (size_t i = 0; i < s->variant_count; i++) {
        const kiln_cooked_shader_variant *v = &s->variants[i];
        const kiln_shader_reflection *r = v->reflection;
        uint32_t *depth;
        kiln_result res = block_depths(r, v->name, alloc, &depth, err);
        if (res != KILN_OK) return res;
        uint32_t rec[KILN_SHADER_VARIANT_SIZE / 4] = {0}, n[KILN_SHADER_TABLE_COUNT];
        const char *defines = v->defines ? v->defines : "";
        rec[0] = (uint32_t)at;
        memcpy(strings + at, v->name, strlen(v->name) + 1);
        at += strlen(v->name) + 1;
        rec[1] = (uint32_t)at;
        memcpy(strings + at, defines, strlen(defines) + 1);
        at += strlen(defines) + 1;
        rec[2] = word_at;
        rec[3] = (uint32_t)v->word_count;
        words = put_u32s(words, v->words, v->word_count);
        word_at += (uint32_t)v->word_count;
        table_counts(r, n);
        for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++) {
            rec[4 + 2 * t] = firsts[t];
            rec[5 + 2 * t] = n[t];
            firsts[t] += n[t];
        }
        for (int k = 0; k < 3; k++) {
            rec[16 + k] = r->workgroup[k];
            rec[19 + k] = r->workgroup_spec[k];
        }
        rec[22] = r->push_block;
        rec[23] = r->push_size;
        put_u32s(buf + l->off[1] + i * KILN_SHADER_VARIANT_SIZE, rec, KILN_SHADER_VARIANT_SIZE / 4);
        put_records(r, depth, (uint32_t)at, cursor);
        kiln_free(alloc, depth, (size_t)r->block_count * sizeof *depth);
        memcpy(strings + at, r->strings, r->strings_size);
        at += r->strings_size;
    }
    return KILN_OK;
}

kiln_result kiln_shader_write(const kiln_cooked_shader *s, const kiln_allocator *alloc,
                              uint8_t **out, size_t *size, kiln_error *err)
{
    if (out) *out = NULL;
    if (size) *size = 0;
    if (!s || !out || !size) return kiln_error_set(err, KILN_E_USAGE, "kiln_shader_write: NULL");
    kiln_result r = check_shader(s, err);
    layout l;
    if (r != KILN_OK || (r = plan(s, &l, err)) != KILN_OK) return r;
    uint8_t *buf = kiln_calloc(alloc, l.off[10], 1);
    if (!buf) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "shader: %zu bytes", l.off[10]);
    if ((r = fill(s, &l, buf, alloc, err)) != KILN_OK) {
        kiln_free(alloc, buf, l.off[10]);
        return r;
    }
    kiln_container_writer w;
    kiln_container_begin(&w, KILN_SHADER_KIND, KILN_SHADER_KIND_VERSION, alloc);
    uint64_t counts[10] = {1, s->variant_count, l.words};
    uint32_t ids[10] = {KILN_SHADER_SECTION_HEADER, KILN_SHADER_SECTION_VARIANTS,
                        KILN_SHADER_SECTION_WORDS};
    uint32_t sizes[10] = {KILN_SHADER_HEADER_SIZE, KILN_SHADER_VARIANT_SIZE, 4};
    for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++) {
        counts[3 + t] = l.tables[t];
        ids[3 + t] = k_table_ids[t];
        sizes[3 + t] = k_record_sizes[t];
    }
    counts[9] = l.strings;
    ids[9] = KILN_SHADER_SECTION_STRINGS;
    sizes[9] = 1;
    for (int i = 0; i < 10 && r == KILN_OK; i++)
        r = kiln_container_add(&w, ids[i], sizes[i], counts[i], counts[i] ? buf + l.off[i] : NULL,
                               err);
    if (r == KILN_OK) r = kiln_container_finish(&w, out, size, err);
    kiln_free(alloc, buf, l.off[10]);
    if (r != KILN_OK) return r;
    kiln_shader_view v;
    kiln_error check;
    if (kiln_shader_read(*out, *size, KILN_CONTAINER_SKIP_CHECKSUM, &v, &check) != KILN_OK) {
        kiln_free(alloc, *out, *size);
        *out = NULL;
        *size = 0;
        return kiln_error_set(err, KILN_E_USAGE, "shader refused by its reader: %s", check.message);
    }
    return KILN_OK;
}
