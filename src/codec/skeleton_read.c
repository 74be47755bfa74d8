/* skeleton_read.c — kiln_skeleton_read and the joint lookups: validating a cooked skeleton
 * (kiln_format.h; the bytes are in docs/formats.md, "Skeletons"). Shared with the runtime: libc
 * and xxHash only. Every check is linear in joints + slots (probe sequences are at most
 * KILN_SKELETON_MAX_PROBE long), so no input makes validation slow. */
#include <math.h>
#include <string.h>

#include "codec/skeleton_hash.h"
#include "core/error.h"
#include "core/reader.h"
#include "kiln/kiln_format.h"

#define HEADER_ID   KILN_FOURCC('S', 'K', 'H', 'D')
#define JOINTS_ID   KILN_FOURCC('J', 'N', 'T', 'S')
#define IBMS_ID     KILN_FOURCC('I', 'B', 'M', 'S')
#define PRE_ID      KILN_FOURCC('P', 'R', 'E', 'T')
#define HASH_ID     KILN_FOURCC('H', 'A', 'S', 'H')
#define NAMES_ID    KILN_FOURCC('N', 'A', 'M', 'E')
#define HEADER_SIZE 48
#define JOINT_SIZE  64
#define MATRIX_SIZE 64
#define SLOT_SIZE   8
#define EMPTY       0xFFFFFFFFu
#define MAX_PROBE   32u /* KILN_SKELETON_MAX_PROBE of src/process/skeleton.h */

/* What kiln_error_bad_bytes names in the message of every fault this file reports. */
static const char k_format[] = "cooked skeleton";

static bool finite_f32s(const uint8_t *p, size_t n, size_t *bad_at)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(kiln_load_f32le(p + 4 * i))) {
            *bad_at = 4 * i;
            return false;
        }
    return true;
}

static uint64_t offset_of(const kiln_container *c, const uint8_t *p)
{
    return (uint64_t)(p - c->bytes);
}

/* Probe for a name; the slot holding it (*slot_out) and its joint index, or -1. The table was
 * validated (or is being: then every slot visited has a joint below joint_count, which the slot
 * pass checks first). */
static int32_t find_slot(const kiln_skeleton_view *v, const char *name, size_t size,
                         uint32_t *slot_out)
{
    if (size == 0 || v->slot_count == 0) return -1;
    uint64_t h = kiln_skeleton_name_hash(name, size, v->hash_seed);
    uint32_t mask = v->slot_count - 1, hi = (uint32_t)(h >> 32);
    uint32_t at = (uint32_t)h & mask;
    for (uint32_t i = 0; i <= v->max_probe; i++, at = (at + 1) & mask) {
        const uint8_t *slot = v->slots + (size_t)at * SLOT_SIZE;
        uint32_t joint = kiln_load_u32le(slot);
        if (joint == EMPTY) return -1;
        if (kiln_load_u32le(slot + 4) != hi) continue;
        const uint8_t *jp = v->joints + (size_t)joint * JOINT_SIZE;
        uint32_t off = kiln_load_u32le(jp + 56), len = kiln_load_u32le(jp + 60);
        if (len == size && memcmp(v->names + off, name, size) == 0) {
            *slot_out = at;
            return (int32_t)joint;
        }
    }
    return -1;
}

static int32_t find(const kiln_skeleton_view *v, const char *name, size_t size)
{
    uint32_t slot;
    return find_slot(v, name, size, &slot);
}

static kiln_result check_table(const kiln_skeleton_view *v, kiln_error *err)
{
    const kiln_container *c = &v->container;
    uint32_t mask = v->slot_count - 1, filled = 0;
    /* Pass 1: each slot's joint, hash bits and distance from its home slot. */
    for (uint32_t s = 0; s < v->slot_count; s++) {
        const uint8_t *slot = v->slots + (size_t)s * SLOT_SIZE;
        uint32_t joint = kiln_load_u32le(slot), hi = kiln_load_u32le(slot + 4);
        if (joint == EMPTY) {
            if (hi)
                return kiln_error_bad_bytes(err, k_format, offset_of(c, slot + 4),
                                            "an empty name slot has hash bits");
            continue;
        }
        if (joint >= v->joint_count)
            return kiln_error_bad_bytes(err, k_format, offset_of(c, slot),
                                        "a name slot's joint is out of range");
        const uint8_t *jp = v->joints + (size_t)joint * JOINT_SIZE;
        uint32_t off = kiln_load_u32le(jp + 56), len = kiln_load_u32le(jp + 60);
        if (len == 0)
            return kiln_error_bad_bytes(err, k_format, offset_of(c, slot),
                                        "an unnamed joint is in the name table");
        uint64_t h = kiln_skeleton_name_hash(v->names + off, len, v->hash_seed);
        if ((uint32_t)(h >> 32) != hi)
            return kiln_error_bad_bytes(err, k_format, offset_of(c, slot + 4),
                                        "a name slot's hash bits are wrong");
        if (((s - (uint32_t)h) & mask) > v->max_probe)
            return kiln_error_bad_bytes(err, k_format, offset_of(c, slot),
                                        "a name lies further from its home slot than max_probe");
        filled++;
    }
    if ((uint64_t)filled * 2 > v->slot_count)
        return kiln_error_bad_bytes(err, k_format, offset_of(c, v->slots),
                                    "the name table is more than half full");
    /* Pass 2: each slot's name leads back to that slot (no gap before it, no earlier copy). */
    for (uint32_t s = 0; s < v->slot_count; s++) {
        uint32_t joint = kiln_load_u32le(v->slots + (size_t)s * SLOT_SIZE);
        if (joint == EMPTY) continue;
        const uint8_t *jp = v->joints + (size_t)joint * JOINT_SIZE;
        uint32_t found = EMPTY;
        if (find_slot(v, v->names + kiln_load_u32le(jp + 56), kiln_load_u32le(jp + 60), &found) !=
                (int32_t)joint ||
            found != s)
            return kiln_error_bad_bytes(err, k_format,
                                        offset_of(c, v->slots + (size_t)s * SLOT_SIZE),
                                        "a name slot cannot be reached by its name");
    }
    /* Pass 3: every named joint finds the first joint of its name (itself or an earlier one). */
    for (uint32_t j = 0; j < v->joint_count; j++) {
        const uint8_t *jp = v->joints + (size_t)j * JOINT_SIZE;
        uint32_t off = kiln_load_u32le(jp + 56), len = kiln_load_u32le(jp + 60);
        if (!len) continue;
        int32_t got = find(v, v->names + off, len);
        if (got < 0 || (uint32_t)got > j)
            return kiln_error_bad_bytes(err, k_format, offset_of(c, jp + 56),
                                        "a joint's name is not in the name table");
    }
    return KILN_OK;
}

static kiln_result check_name(const kiln_skeleton_view *v, uint32_t off, uint32_t len, uint64_t at,
                              kiln_error *err)
{
    if ((uint64_t)off + len >= v->names_size)
        return kiln_error_bad_bytes(err, k_format, at, "a name runs past the names");
    if (v->names[off + len] != '\0')
        return kiln_error_bad_bytes(err, k_format, at, "a name is not NUL-terminated");
    if (memchr(v->names + off, '\0', len))
        return kiln_error_bad_bytes(err, k_format, at, "a name holds a NUL");
    return KILN_OK;
}

static kiln_result read_skeleton(const void *data, size_t size, uint32_t flags,
                                 kiln_skeleton_view *out, kiln_error *err)
{
    kiln_container *c = &out->container;
    kiln_result r = kiln_container_read(data, size, flags, c, err);
    if (r != KILN_OK) return r;
    if (c->kind != KILN_SKELETON_KIND)
        return kiln_error_bad_bytes(err, k_format, 8, "the container is not of kind SKEL");
    if (c->kind_version != KILN_SKELETON_KIND_VERSION) {
        kiln_error_set(err, KILN_E_FORMAT_VERSION,
                       "cooked skeleton version %u; this kiln reads version %u: cook again",
                       c->kind_version, KILN_SKELETON_KIND_VERSION);
        kiln_error_at_offset(err, 12);
        return KILN_E_FORMAT_VERSION;
    }
    if (c->section_count != 6)
        return kiln_error_bad_bytes(err, k_format, 32, "a skeleton has exactly six sections");
    kiln_container_section hs, js, is, ps, ss, ns;
    if (!kiln_container_find(c, HEADER_ID, HEADER_SIZE, &hs) || hs.count != 1)
        return kiln_error_bad_bytes(err, k_format, 64, "no SKHD section of one 48-byte header");
    if (!kiln_container_find(c, JOINTS_ID, JOINT_SIZE, &js) ||
        !kiln_container_find(c, IBMS_ID, MATRIX_SIZE, &is) ||
        !kiln_container_find(c, PRE_ID, MATRIX_SIZE, &ps) ||
        !kiln_container_find(c, HASH_ID, SLOT_SIZE, &ss) ||
        !kiln_container_find(c, NAMES_ID, 1, &ns))
        return kiln_error_bad_bytes(err, k_format, 64,
                                    "a section is missing or has the wrong element size");
    const uint8_t *h = hs.data;
    uint64_t hoff = offset_of(c, h);
    out->joint_count = kiln_load_u32le(h + 0);
    out->root_count = kiln_load_u32le(h + 4);
    out->pre_count = kiln_load_u32le(h + 8);
    out->skin = kiln_load_u32le(h + 12);
    out->slot_count = kiln_load_u32le(h + 16);
    out->hash_seed = kiln_load_u32le(h + 20);
    out->max_probe = kiln_load_u32le(h + 24);
    uint32_t name_size = kiln_load_u32le(h + 28);
    for (int i = 32; i < HEADER_SIZE; i++)
        if (h[i])
            return kiln_error_bad_bytes(err, k_format, hoff + (uint64_t)i,
                                        "reserved header bytes are not zero");
    if (out->joint_count == 0 || out->joint_count > KILN_SKELETON_MAX_JOINT_COUNT)
        return kiln_error_bad_bytes(err, k_format, hoff, "joint count is 0 or over 65536");
    if (js.count != out->joint_count || is.count != out->joint_count)
        return kiln_error_bad_bytes(err, k_format, hoff,
                                    "JNTS or IBMS count differs from the joint count");
    if (ps.count != out->pre_count)
        return kiln_error_bad_bytes(err, k_format, hoff + 8, "PRET count differs from the header");
    if (ss.count != out->slot_count)
        return kiln_error_bad_bytes(err, k_format, hoff + 16, "HASH count differs from the header");
    if (out->slot_count < 2 || (out->slot_count & (out->slot_count - 1)))
        return kiln_error_bad_bytes(err, k_format, hoff + 16,
                                    "the name table size is not a power of two >= 2");
    if (out->max_probe > MAX_PROBE || out->max_probe >= out->slot_count)
        return kiln_error_bad_bytes(err, k_format, hoff + 24,
                                    "max_probe is over 32 or not below the slot count");
    if (out->pre_count > out->joint_count)
        return kiln_error_bad_bytes(err, k_format, hoff + 8, "more pre-transforms than joints");
    out->joints = js.data;
    out->inverse_binds = is.data;
    out->pre_transforms = ps.data;
    out->slots = ss.data;
    out->names = (const char *)ns.data;
    out->names_size = ns.size;
    if ((r = check_name(out, 0, name_size, hoff + 28, err))) return r;
    out->name = out->names;
    out->name_size = name_size;

    uint8_t seen[KILN_SKELETON_MAX_JOINT_COUNT / 8];
    memset(seen, 0, sizeof seen);
    uint32_t roots = 0;
    for (uint32_t j = 0; j < out->joint_count; j++) {
        const uint8_t *p = out->joints + (size_t)j * JOINT_SIZE;
        uint64_t at = offset_of(c, p);
        int32_t parent = (int32_t)kiln_load_u32le(p);
        uint32_t skin_joint = kiln_load_u32le(p + 8), pre = kiln_load_u32le(p + 12);
        if (parent < -1 || parent >= (int32_t)j)
            return kiln_error_bad_bytes(err, k_format, at, "a parent is not an earlier joint");
        roots += parent == -1;
        if (skin_joint >= out->joint_count || (seen[skin_joint / 8] & (1u << (skin_joint % 8))))
            return kiln_error_bad_bytes(err, k_format, at + 8,
                                        "skin_joint is out of range or repeated");
        seen[skin_joint / 8] |= (uint8_t)(1u << (skin_joint % 8));
        if (pre != KILN_SKELETON_NO_PRE_TRANSFORM && pre >= out->pre_count)
            return kiln_error_bad_bytes(err, k_format, at + 12,
                                        "a pre-transform index is out of range");
        size_t where;
        if (!finite_f32s(p + 16, 10, &where))
            return kiln_error_bad_bytes(err, k_format, at + 16 + where,
                                        "a bind pose value is not finite");
        if (!finite_f32s(out->inverse_binds + (size_t)j * MATRIX_SIZE, 16, &where))
            return kiln_error_bad_bytes(
                err, k_format, offset_of(c, out->inverse_binds + (size_t)j * MATRIX_SIZE) + where,
                "an inverse bind matrix value is not finite");
        if ((r = check_name(out, kiln_load_u32le(p + 56), kiln_load_u32le(p + 60), at + 56, err)))
            return r;
    }
    if (roots != out->root_count)
        return kiln_error_bad_bytes(err, k_format, hoff + 4, "root count differs from the joints'");
    size_t where;
    if (!finite_f32s(out->pre_transforms, (size_t)out->pre_count * 16, &where))
        return kiln_error_bad_bytes(err, k_format, offset_of(c, out->pre_transforms) + where,
                                    "a pre-transform value is not finite");
    return check_table(out, err);
}

KILN_API kiln_result kiln_skeleton_read(const void *data, size_t size, uint32_t flags,
                                        kiln_skeleton_view *out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_skeleton_read: no output");
    kiln_result r = read_skeleton(data, size, flags, out, err);
    if (r != KILN_OK) memset(out, 0, sizeof *out);
    return r;
}

KILN_API kiln_skeleton_joint kiln_skeleton_joint_at(const kiln_skeleton_view *v, uint32_t i)
{
    kiln_skeleton_joint j;
    memset(&j, 0, sizeof j);
    j.parent = -1;
    if (!v || i >= v->joint_count) return j;
    const uint8_t *p = v->joints + (size_t)i * JOINT_SIZE;
    j.parent = (int32_t)kiln_load_u32le(p);
    j.node = kiln_load_u32le(p + 4);
    j.skin_joint = kiln_load_u32le(p + 8);
    uint32_t pre = kiln_load_u32le(p + 12);
    for (int k = 0; k < 3; k++) j.translation[k] = kiln_load_f32le(p + 16 + 4 * k);
    for (int k = 0; k < 4; k++) j.rotation[k] = kiln_load_f32le(p + 28 + 4 * k);
    for (int k = 0; k < 3; k++) j.scale[k] = kiln_load_f32le(p + 44 + 4 * k);
    j.name = v->names + kiln_load_u32le(p + 56);
    j.name_size = kiln_load_u32le(p + 60);
    const uint8_t *m = v->inverse_binds + (size_t)i * MATRIX_SIZE;
    for (int k = 0; k < 16; k++) j.inverse_bind[k] = kiln_load_f32le(m + 4 * k);
    j.has_pre = pre != KILN_SKELETON_NO_PRE_TRANSFORM;
    if (j.has_pre) {
        m = v->pre_transforms + (size_t)pre * MATRIX_SIZE;
        for (int k = 0; k < 16; k++) j.pre[k] = kiln_load_f32le(m + 4 * k);
    } else {
        j.pre[0] = j.pre[5] = j.pre[10] = j.pre[15] = 1.0f;
    }
    return j;
}

KILN_API int32_t kiln_skeleton_find_joint_n(const kiln_skeleton_view *v, const char *name,
                                            size_t name_size)
{
    if (!v || !name) return -1;
    return find(v, name, name_size);
}

KILN_API int32_t kiln_skeleton_find_joint(const kiln_skeleton_view *v, const char *name)
{
    if (!v || !name) return -1;
    return find(v, name, strlen(name));
}
