/* shader_read.c — kiln_shader_read and the accessors of a cooked shader (kiln_format.h; the bytes
 * are in docs/formats.md, "Shaders"). Every record is read with the little-endian loads, so the
 * bytes may have any alignment; only variant words are handed out as a pointer, when that is
 * safe. Shared with the runtime: libc only. */
#include <stdint.h>
#include <string.h>

#include "codec/shader_sections.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

#define NONE KILN_SHADER_NONE

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "cooked shader";

static const uint32_t k_ids[] = {KILN_SHADER_SECTION_HEADER,    KILN_SHADER_SECTION_VARIANTS,
                                 KILN_SHADER_SECTION_WORDS,     KILN_SHADER_SECTION_BINDINGS,
                                 KILN_SHADER_SECTION_BLOCKS,    KILN_SHADER_SECTION_MEMBERS,
                                 KILN_SHADER_SECTION_INPUTS,    KILN_SHADER_SECTION_OUTPUTS,
                                 KILN_SHADER_SECTION_CONSTANTS, KILN_SHADER_SECTION_STRINGS};
static const uint32_t k_sizes[] = {KILN_SHADER_HEADER_SIZE,
                                   KILN_SHADER_VARIANT_SIZE,
                                   4,
                                   KILN_SHADER_BINDING_SIZE,
                                   KILN_SHADER_BLOCK_SIZE,
                                   KILN_SHADER_MEMBER_SIZE,
                                   KILN_SHADER_IO_SIZE,
                                   KILN_SHADER_IO_SIZE,
                                   KILN_SHADER_CONSTANT_SIZE,
                                   1};
#define SECTION_COUNT (sizeof k_ids / sizeof k_ids[0])

/* The table sections in the order of the variant record's ranges (KILN_SHADER_TABLE_*). */
static const uint8_t *table_base(const kiln_shader_view *v, int t)
{
    switch (t) {
    case KILN_SHADER_TABLE_BINDINGS:
        return v->bindings;
    case KILN_SHADER_TABLE_BLOCKS:
        return v->blocks;
    case KILN_SHADER_TABLE_MEMBERS:
        return v->members;
    case KILN_SHADER_TABLE_INPUTS:
        return v->inputs;
    case KILN_SHADER_TABLE_OUTPUTS:
        return v->outputs;
    default:
        return v->constants;
    }
}

static const uint32_t k_table_sizes[KILN_SHADER_TABLE_COUNT] = {
    KILN_SHADER_BINDING_SIZE, KILN_SHADER_BLOCK_SIZE, KILN_SHADER_MEMBER_SIZE,
    KILN_SHADER_IO_SIZE,      KILN_SHADER_IO_SIZE,    KILN_SHADER_CONSTANT_SIZE};

static const char *const k_table_names[KILN_SHADER_TABLE_COUNT] = {"binding", "block",  "member",
                                                                   "input",   "output", "constant"};

static uint64_t at(const kiln_shader_view *v, const uint8_t *p)
{
    return (uint64_t)(p - v->container.bytes);
}

static const char *str(const kiln_shader_view *v, uint32_t offset)
{
    return offset < v->strings_size ? v->strings + offset : NULL;
}

/* Record i of table t of the variant whose record is var (ranges already checked). */
static const uint8_t *record(const kiln_shader_view *v, const uint8_t *var, int t, uint32_t i)
{
    uint32_t first = kiln_load_u32le(var + KILN_SHADER_VARIANT_TABLES + 8 * t);
    return table_base(v, t) + ((size_t)first + i) * k_table_sizes[t];
}

static uint32_t table_count(const uint8_t *var, int t)
{
    return kiln_load_u32le(var + KILN_SHADER_VARIANT_TABLES + 8 * t + 4);
}

/* A type, vector size and column count as members and inputs store them. */
static bool shape_ok(uint32_t type, uint32_t vec_size, uint32_t columns)
{
    return type <= KILN_SHADER_TYPE_BUFFER_ADDRESS && vec_size >= 1 && vec_size <= 4 &&
           columns >= 1 && columns <= 4;
}

static kiln_result check_names(const kiln_shader_view *v, const uint8_t *var, uint32_t vi,
                               kiln_error *err)
{
    for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++)
        for (uint32_t i = 0; i < table_count(var, t); i++) {
            const uint8_t *p = record(v, var, t, i);
            if (!str(v, kiln_load_u32le(p)))
                return kiln_error_bad_bytes(err, k_format, at(v, p), "variant %u %s %u: bad name",
                                            vi, k_table_names[t], i);
        }
    return KILN_OK;
}

static kiln_result check_records(const kiln_shader_view *v, const uint8_t *var, uint32_t vi,
                                 kiln_error *err)
{
    uint32_t blocks = table_count(var, KILN_SHADER_TABLE_BLOCKS);
    uint32_t members = table_count(var, KILN_SHADER_TABLE_MEMBERS);
    for (uint32_t i = 0; i < table_count(var, KILN_SHADER_TABLE_BINDINGS); i++) {
        const uint8_t *p = record(v, var, KILN_SHADER_TABLE_BINDINGS, i);
        uint32_t block = kiln_load_u32le(p + 20);
        if (kiln_load_u32le(p + 12) >= KILN_SHADER_RESOURCE_COUNT)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 12,
                                        "variant %u binding %u: unknown resource", vi, i);
        if (block != NONE && block >= blocks)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 20,
                                        "variant %u binding %u: block out of range", vi, i);
        if (kiln_load_u32le(p + 24) > 6 || kiln_load_u32le(p + 28) > 7)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 24,
                                        "variant %u binding %u: unknown image dimension or flags",
                                        vi, i);
        if (kiln_load_u32le(p + 36) &
            ~(uint32_t)(KILN_SHADER_BINDING_READONLY | KILN_SHADER_BINDING_WRITEONLY))
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 36,
                                        "variant %u binding %u: unknown flags", vi, i);
    }
    for (uint32_t i = 0; i < members; i++) {
        const uint8_t *p = record(v, var, KILN_SHADER_TABLE_MEMBERS, i);
        uint32_t type = kiln_load_u32le(p + 12), sb = kiln_load_u32le(p + 40);
        if (!shape_ok(type, kiln_load_u32le(p + 16), kiln_load_u32le(p + 20)))
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 12,
                                        "variant %u member %u: unknown type or shape", vi, i);
        if (kiln_load_u32le(p + 36) & ~(uint32_t)KILN_SHADER_MEMBER_ROW_MAJOR)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 36,
                                        "variant %u member %u: unknown flags", vi, i);
        if (type == KILN_SHADER_TYPE_STRUCT ? sb >= blocks : sb != NONE)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 40,
                                        "variant %u member %u: struct block out of range", vi, i);
    }
    /* Block member ranges inside the members, together no more than all of them (so the depth
     * check below reads each member once), and every depth exactly 1 + its deepest struct's:
     * depths fall along every struct reference, so nesting is acyclic and a walk ends. */
    uint64_t covered = 0;
    for (uint32_t b = 0; b < blocks; b++) {
        const uint8_t *p = record(v, var, KILN_SHADER_TABLE_BLOCKS, b);
        uint32_t first = kiln_load_u32le(p + 12), count = kiln_load_u32le(p + 16);
        if (kiln_load_u32le(p + 8) > KILN_SHADER_LAYOUT_SCALAR)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 8,
                                        "variant %u block %u: unknown layout", vi, b);
        covered += count;
        if ((uint64_t)first + count > members || covered > members)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 12,
                                        "variant %u block %u: member range out of bounds", vi, b);
        uint64_t depth = 0;
        for (uint32_t m = 0; m < count; m++) {
            const uint8_t *mp = record(v, var, KILN_SHADER_TABLE_MEMBERS, first + m);
            uint32_t sb = kiln_load_u32le(mp + 40);
            if (sb == NONE) continue;
            uint64_t d =
                (uint64_t)kiln_load_u32le(record(v, var, KILN_SHADER_TABLE_BLOCKS, sb) + 20) + 1;
            if (d > depth) depth = d;
        }
        if (kiln_load_u32le(p + 20) != depth || depth > KILN_SHADER_MAX_DEPTH)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 20,
                                        "variant %u block %u: wrong depth (structs nest in a "
                                        "cycle or more than %u deep)",
                                        vi, b, KILN_SHADER_MAX_DEPTH);
    }
    for (int t = KILN_SHADER_TABLE_INPUTS; t <= KILN_SHADER_TABLE_OUTPUTS; t++)
        for (uint32_t i = 0; i < table_count(var, t); i++) {
            const uint8_t *p = record(v, var, t, i);
            if (!shape_ok(kiln_load_u32le(p + 12), kiln_load_u32le(p + 16),
                          kiln_load_u32le(p + 20)) ||
                (kiln_load_u32le(p + 28) & ~3u))
                return kiln_error_bad_bytes(err, k_format, at(v, p) + 12,
                                            "variant %u %s %u: unknown type, shape or flags", vi,
                                            k_table_names[t], i);
        }
    for (uint32_t i = 0; i < table_count(var, KILN_SHADER_TABLE_CONSTANTS); i++) {
        const uint8_t *p = record(v, var, KILN_SHADER_TABLE_CONSTANTS, i);
        if (kiln_load_u32le(p + 8) > KILN_SHADER_TYPE_BUFFER_ADDRESS)
            return kiln_error_bad_bytes(err, k_format, at(v, p) + 8,
                                        "variant %u constant %u: unknown type", vi, i);
    }
    uint32_t push = kiln_load_u32le(var + 88);
    if (push == NONE ? kiln_load_u32le(var + 92) != 0 : push >= blocks)
        return kiln_error_bad_bytes(err, k_format, at(v, var) + 88,
                                    "variant %u: push block out of range, or a push size "
                                    "without one",
                                    vi);
    return check_names(v, var, vi, err);
}

/* Variant vi: its names, its ranges (each starting where the previous variant's ended: running
 * holds those ends), its words' magic, then its records. */
static kiln_result check_variant(const kiln_shader_view *v, uint32_t vi, uint64_t *running,
                                 kiln_error *err)
{
    const uint8_t *var = v->variants + (size_t)vi * KILN_SHADER_VARIANT_SIZE;
    const char *name = str(v, kiln_load_u32le(var));
    if (!name || !*name)
        return kiln_error_bad_bytes(err, k_format, at(v, var), "variant %u: bad or empty name", vi);
    if (!str(v, kiln_load_u32le(var + 4)))
        return kiln_error_bad_bytes(err, k_format, at(v, var) + 4, "variant %u: bad defines", vi);
    for (uint32_t j = 0; j < vi; j++)
        if (!strcmp(name, v->strings +
                              kiln_load_u32le(v->variants + (size_t)j * KILN_SHADER_VARIANT_SIZE)))
            return kiln_error_bad_bytes(err, k_format, at(v, var),
                                        "variant %u: the name of variant %u again", vi, j);
    uint32_t first = kiln_load_u32le(var + 8), count = kiln_load_u32le(var + 12);
    if (first != running[0] || count < 5 || (uint64_t)first + count > v->word_count)
        return kiln_error_bad_bytes(err, k_format, at(v, var) + 8,
                                    "variant %u: word range does not follow the previous "
                                    "variant's, is under 5 words or runs past SPRV",
                                    vi);
    running[0] += count;
    if (kiln_load_u32le(v->words + (size_t)first * 4) != KILN_SHADER_SPIRV_MAGIC)
        return kiln_error_bad_bytes(err, k_format, at(v, v->words) + (uint64_t)first * 4,
                                    "variant %u: the words do not start with the SPIR-V magic", vi);
    for (int t = 0; t < KILN_SHADER_TABLE_COUNT; t++) {
        const uint8_t *p = var + KILN_SHADER_VARIANT_TABLES + 8 * t;
        uint32_t tf = kiln_load_u32le(p), tc = kiln_load_u32le(p + 4);
        if (tf != running[1 + t])
            return kiln_error_bad_bytes(err, k_format, at(v, p),
                                        "variant %u: %s range does not follow the previous "
                                        "variant's",
                                        vi, k_table_names[t]);
        running[1 + t] += tc;
    }
    return KILN_OK;
}

static kiln_result read_shader(const void *data, size_t size, uint32_t flags, kiln_shader_view *out,
                               kiln_error *err)
{
    kiln_container *c = &out->container;
    kiln_result r = kiln_container_read(data, size, flags, c, err);
    if (r != KILN_OK) return r;
    if (c->kind != KILN_SHADER_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "the container is not of kind SHDR");
    if (c->kind_version != KILN_SHADER_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "cooked shader version %u; this kiln reads version %u: cook again",
                       c->kind_version, KILN_SHADER_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    if (c->section_count != SECTION_COUNT)
        return kiln_error_bad_bytes(err, k_format, 32, "a shader has exactly ten sections");
    kiln_container_section s[SECTION_COUNT];
    for (size_t i = 0; i < SECTION_COUNT; i++) {
        kiln_container_section_at(c, (uint32_t)i, &s[i]);
        if (s[i].id != k_ids[i] || s[i].element_size != k_sizes[i] || s[i].count > UINT32_MAX)
            return kiln_error_bad_bytes(err, k_format, 64 + 32 * (uint64_t)i,
                                        "section %zu is not the one docs/formats.md names there, "
                                        "or has the wrong element size",
                                        i);
    }
    if (s[0].count != 1)
        return kiln_error_bad_bytes(err, k_format, 64, "no SHHD section of one 32-byte header");
    out->variants = s[1].data;
    out->words = s[2].data;
    out->word_count = s[2].count;
    out->bindings = s[3].data;
    out->blocks = s[4].data;
    out->members = s[5].data;
    out->inputs = s[6].data;
    out->outputs = s[7].data;
    out->constants = s[8].data;
    out->strings = (const char *)s[9].data;
    out->strings_size = s[9].size;
    uint64_t soff = s[9].size ? (uint64_t)(s[9].data - c->bytes) : 64 + 32 * 9;
    if (!s[9].size || out->strings[0] || out->strings[s[9].size - 1])
        return kiln_error_bad_bytes(err, k_format, soff,
                                    "the strings do not start and end with a NUL");
    const uint8_t *h = s[0].data;
    uint64_t hoff = (uint64_t)(h - c->bytes);
    out->stage = kiln_load_u32le(h);
    out->language = kiln_load_u32le(h + 4);
    out->target = kiln_load_u32le(h + 8);
    out->optimize = kiln_load_u32le(h + 12);
    out->flags = kiln_load_u32le(h + 16);
    out->entry = str(out, kiln_load_u32le(h + 20));
    out->variant_count = kiln_load_u32le(h + 24);
    if (out->stage >= KILN_SHADER_STAGE_COUNT || out->language >= KILN_SHADER_LANGUAGE_COUNT ||
        out->target >= KILN_SHADER_TARGET_COUNT || out->optimize >= KILN_SHADER_OPTIMIZE_COUNT)
        return kiln_error_bad_bytes(err, k_format, hoff,
                                    "unknown stage, language, target or optimization");
    if (out->flags & ~(uint32_t)KILN_SHADER_DEBUG_INFO || kiln_load_u32le(h + 28))
        return kiln_error_bad_bytes(err, k_format, hoff + 16,
                                    "unknown shader flags or reserved bytes not zero");
    if (!out->entry || !*out->entry)
        return kiln_error_bad_bytes(err, k_format, hoff + 20, "bad or empty entry point name");
    if (out->variant_count == 0 || out->variant_count > KILN_SHADER_MAX_VARIANTS ||
        out->variant_count != s[1].count)
        return kiln_error_bad_bytes(err, k_format, hoff + 24,
                                    "variant count is 0, over %u or not SVAR's count",
                                    KILN_SHADER_MAX_VARIANTS);
    uint64_t running[1 + KILN_SHADER_TABLE_COUNT] = {0};
    for (uint32_t i = 0; i < out->variant_count; i++)
        if ((r = check_variant(out, i, running, err))) return r;
    for (int t = 0; t <= KILN_SHADER_TABLE_COUNT; t++)
        if (running[t] != s[2 + t].count)
            return kiln_error_bad_bytes(err, k_format, 64 + 32 * (uint64_t)(2 + t),
                                        "the variants do not cover section %s",
                                        t ? k_table_names[t - 1] : "SPRV");
    for (uint32_t i = 0; i < out->variant_count; i++)
        if ((r = check_records(out, out->variants + (size_t)i * KILN_SHADER_VARIANT_SIZE, i, err)))
            return r;
    return KILN_OK;
}

KILN_API kiln_result kiln_shader_read(const void *data, size_t size, uint32_t flags,
                                      kiln_shader_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_shader_read: no output");
    memset(out, 0, sizeof *out);
    kiln_result r = read_shader(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}

/* ---- accessors ---------------------------------------------------------------------------- */

static const uint8_t *variant_record(const kiln_shader_view *v, uint32_t i)
{
    return v && i < v->variant_count ? v->variants + (size_t)i * KILN_SHADER_VARIANT_SIZE : NULL;
}

KILN_API kiln_shader_variant_info kiln_shader_variant_at(const kiln_shader_view *v, uint32_t i)
{
    kiln_shader_variant_info o;
    memset(&o, 0, sizeof o);
    const uint8_t *p = variant_record(v, i);
    if (!p) return o;
    o.name = v->strings + kiln_load_u32le(p);
    o.defines = v->strings + kiln_load_u32le(p + 4);
    const uint8_t *w = v->words + (size_t)kiln_load_u32le(p + 8) * 4;
    o.word_count = kiln_load_u32le(p + 12);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if ((uintptr_t)w % 4 == 0) o.words = (const uint32_t *)(const void *)w;
#endif
    o.binding_count = table_count(p, KILN_SHADER_TABLE_BINDINGS);
    o.block_count = table_count(p, KILN_SHADER_TABLE_BLOCKS);
    o.member_count = table_count(p, KILN_SHADER_TABLE_MEMBERS);
    o.input_count = table_count(p, KILN_SHADER_TABLE_INPUTS);
    o.output_count = table_count(p, KILN_SHADER_TABLE_OUTPUTS);
    o.constant_count = table_count(p, KILN_SHADER_TABLE_CONSTANTS);
    for (int k = 0; k < 3; k++) {
        o.workgroup[k] = kiln_load_u32le(p + 64 + 4 * k);
        o.workgroup_spec[k] = kiln_load_u32le(p + 76 + 4 * k);
    }
    o.push_block = kiln_load_u32le(p + 88);
    o.push_size = kiln_load_u32le(p + 92);
    return o;
}

KILN_API int32_t kiln_shader_find_variant(const kiln_shader_view *v, const char *name)
{
    for (uint32_t i = 0; name && v && i < v->variant_count; i++)
        if (!strcmp(v->strings + kiln_load_u32le(variant_record(v, i)), name)) return (int32_t)i;
    return -1;
}

KILN_API size_t kiln_shader_variant_words(const kiln_shader_view *v, uint32_t i, uint32_t *dst,
                                          size_t cap)
{
    const uint8_t *p = variant_record(v, i);
    if (!p) return 0;
    size_t count = kiln_load_u32le(p + 12);
    const uint8_t *w = v->words + (size_t)kiln_load_u32le(p + 8) * 4;
    if (dst && cap >= count)
        for (size_t k = 0; k < count; k++) dst[k] = kiln_load_u32le(w + 4 * k);
    return count;
}

/* Record i of table t of a variant, or NULL when either is out of range. */
static const uint8_t *table_record(const kiln_shader_view *v, uint32_t variant, int t, uint32_t i)
{
    const uint8_t *var = variant_record(v, variant);
    return var && i < table_count(var, t) ? record(v, var, t, i) : NULL;
}

KILN_API kiln_shader_binding_info kiln_shader_binding_at(const kiln_shader_view *v,
                                                         uint32_t variant, uint32_t i)
{
    kiln_shader_binding_info o;
    memset(&o, 0, sizeof o);
    const uint8_t *p = table_record(v, variant, KILN_SHADER_TABLE_BINDINGS, i);
    if (!p) return o;
    o.name = v->strings + kiln_load_u32le(p);
    o.set = kiln_load_u32le(p + 4);
    o.binding = kiln_load_u32le(p + 8);
    o.resource = kiln_load_u32le(p + 12);
    o.count = kiln_load_u32le(p + 16);
    o.block = kiln_load_u32le(p + 20);
    o.image_dim = kiln_load_u32le(p + 24);
    o.image_flags = kiln_load_u32le(p + 28);
    o.input_attachment = kiln_load_u32le(p + 32);
    o.flags = kiln_load_u32le(p + 36);
    return o;
}

KILN_API kiln_shader_block_info kiln_shader_block_at(const kiln_shader_view *v, uint32_t variant,
                                                     uint32_t i)
{
    kiln_shader_block_info o;
    memset(&o, 0, sizeof o);
    const uint8_t *p = table_record(v, variant, KILN_SHADER_TABLE_BLOCKS, i);
    if (!p) return o;
    o.name = v->strings + kiln_load_u32le(p);
    o.size = kiln_load_u32le(p + 4);
    o.layout = kiln_load_u32le(p + 8);
    o.first_member = kiln_load_u32le(p + 12);
    o.member_count = kiln_load_u32le(p + 16);
    o.depth = kiln_load_u32le(p + 20);
    return o;
}

KILN_API kiln_shader_member_info kiln_shader_member_at(const kiln_shader_view *v, uint32_t variant,
                                                       uint32_t i)
{
    kiln_shader_member_info o;
    memset(&o, 0, sizeof o);
    const uint8_t *p = table_record(v, variant, KILN_SHADER_TABLE_MEMBERS, i);
    if (!p) return o;
    o.name = v->strings + kiln_load_u32le(p);
    o.offset = kiln_load_u32le(p + 4);
    o.size = kiln_load_u32le(p + 8);
    o.type = kiln_load_u32le(p + 12);
    o.vec_size = kiln_load_u32le(p + 16);
    o.columns = kiln_load_u32le(p + 20);
    o.array_count = kiln_load_u32le(p + 24);
    o.array_stride = kiln_load_u32le(p + 28);
    o.matrix_stride = kiln_load_u32le(p + 32);
    o.flags = kiln_load_u32le(p + 36);
    o.struct_block = kiln_load_u32le(p + 40);
    return o;
}

static kiln_shader_io_info io_at(const kiln_shader_view *v, uint32_t variant, int t, uint32_t i)
{
    kiln_shader_io_info o;
    memset(&o, 0, sizeof o);
    const uint8_t *p = table_record(v, variant, t, i);
    if (!p) return o;
    o.name = v->strings + kiln_load_u32le(p);
    o.location = kiln_load_u32le(p + 4);
    o.component = kiln_load_u32le(p + 8);
    o.type = kiln_load_u32le(p + 12);
    o.vec_size = kiln_load_u32le(p + 16);
    o.columns = kiln_load_u32le(p + 20);
    o.array_count = kiln_load_u32le(p + 24);
    o.flags = kiln_load_u32le(p + 28);
    return o;
}

KILN_API kiln_shader_io_info kiln_shader_input_at(const kiln_shader_view *v, uint32_t variant,
                                                  uint32_t i)
{
    return io_at(v, variant, KILN_SHADER_TABLE_INPUTS, i);
}

KILN_API kiln_shader_io_info kiln_shader_output_at(const kiln_shader_view *v, uint32_t variant,
                                                   uint32_t i)
{
    return io_at(v, variant, KILN_SHADER_TABLE_OUTPUTS, i);
}

KILN_API kiln_shader_constant_info kiln_shader_constant_at(const kiln_shader_view *v,
                                                           uint32_t variant, uint32_t i)
{
    kiln_shader_constant_info o;
    memset(&o, 0, sizeof o);
    const uint8_t *p = table_record(v, variant, KILN_SHADER_TABLE_CONSTANTS, i);
    if (!p) return o;
    o.name = v->strings + kiln_load_u32le(p);
    o.id = kiln_load_u32le(p + 4);
    o.type = kiln_load_u32le(p + 8);
    o.default_bits[0] = kiln_load_u32le(p + 12);
    o.default_bits[1] = kiln_load_u32le(p + 16);
    return o;
}
