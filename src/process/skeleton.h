/* skeleton.h — a skin of the scene turned into a cooked skeleton: joints in parent-before-child
 * order, parent indices, bind-pose local TRS, inverse bind matrices, the static transforms of the
 * non-joint nodes above and between joints, names and a hashed name table (docs/animation.md).
 * In memory only: src/write/skeleton_write.c serializes it (docs/formats.md, "Skeletons"). */
#ifndef KILN_PROCESS_SKELETON_H
#define KILN_PROCESS_SKELETON_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_scene.h"

#define KILN_SKELETON_MAX_JOINTS 65536u      /* what skins and u16 vertex joints can address */
#define KILN_SKELETON_NO_PRE     0xFFFFFFFFu /* joint.pre: no pre-transform (identity) */
#define KILN_SKELETON_EMPTY_SLOT 0xFFFFFFFFu
/* Longest probe sequence the writer allows (and the reader accepts) in the name table: the
 * builder changes the hash seed or grows the table until every name is found within it. */
#define KILN_SKELETON_MAX_PROBE 32u

typedef struct kiln_cooked_joint {
    int32_t parent;       /* joint index < this one, or -1 for a root */
    uint32_t node;        /* the scene node */
    uint32_t skin_joint;  /* index of this joint in the skin's joint list (vertex JOINTS) */
    uint32_t pre;         /* index into pre[], or KILN_SKELETON_NO_PRE */
    uint32_t name_offset; /* into names: name_size bytes, then a NUL */
    uint32_t name_size;
    float translation[3]; /* bind pose: the node's local TRS */
    float rotation[4];    /* unit quaternion x, y, z, w */
    float scale[3];
    float inverse_bind[16]; /* column-major */
} kiln_cooked_joint;

/* One slot of the name table: open addressing with linear probing over slot_count (a power of
 * two, at least twice the names) slots. Only the first joint of each distinct non-empty name
 * is in the table. */
typedef struct kiln_cooked_name_slot {
    uint32_t joint;   /* KILN_SKELETON_EMPTY_SLOT when empty */
    uint32_t hash_hi; /* upper 32 bits of the name's XXH3-64, 0 when empty */
} kiln_cooked_name_slot;

typedef struct kiln_cooked_skeleton {
    uint32_t skin; /* the scene skin it came from */
    uint32_t joint_count;
    uint32_t root_count;       /* joints with parent -1 */
    kiln_cooked_joint *joints; /* joint_count, parents first */
    /* old -> new: skin_to_joint[i] is the joint index of the skin's i-th joint. Skinned
     * vertices' JOINTS values go through this map. joint_to_skin is the inverse. */
    uint32_t *skin_to_joint;
    uint32_t *joint_to_skin;
    /* Pre-transforms, 16 floats (column-major) each: the product of the local matrices of the
     * nodes between a joint and its parent joint, or for a root the world matrix of its parent
     * node; world(j) = world(parent(j)) * pre(j) * local(j), world(-1) = identity. */
    float *pre;
    uint32_t pre_count;
    char *names; /* skeleton name, then each joint's name, NUL after each */
    size_t names_size;
    uint32_t name_offset, name_size; /* the skeleton's (the skin's) name */
    kiln_cooked_name_slot *slots;    /* the name table */
    uint32_t slot_count;
    uint32_t hash_seed;          /* XXH3-64 seed of the name table */
    uint32_t max_probe;          /* longest probe distance in the table (0: home slot) */
    const kiln_allocator *alloc; /* what the arrays came from (borrowed) */
} kiln_cooked_skeleton;

/* Builds the cooked skeleton of scene->skins[skin]. The order is the skin's joint order where
 * that already puts parents first; a parent listed after its child moves to just before the
 * first of its descendants (a stable topological order). A joint's parent is its nearest
 * ancestor node that is also a joint of the skin. `a` may be NULL (libc); it must outlive *out.
 * Free with kiln_cooked_skeleton_free. Errors: KILN_E_USAGE (skin out of range),
 * KILN_E_IMPORT_FAILED (a node listed twice in the skin, a node index out of range),
 * KILN_E_LIMIT (more than KILN_SKELETON_MAX_JOINTS joints, names over 4 GiB),
 * KILN_E_OUT_OF_MEMORY. On error *out is zeroed. Deterministic; thread-safe for distinct out. */
kiln_result kiln_skeleton_build(const kiln_scene *scene, uint32_t skin, const kiln_allocator *a,
                                kiln_cooked_skeleton *out, kiln_error *err);

void kiln_cooked_skeleton_free(kiln_cooked_skeleton *s); /* zeroes it; NULL is a no-op */

/* The joint named `name` (size bytes, not NUL-terminated necessarily) through the name table,
 * or -1. The first joint of that name when several share it; -1 for "". */
int32_t kiln_cooked_skeleton_find(const kiln_cooked_skeleton *s, const char *name, size_t size);

/* The joint index of a scene node, or -1 when the node is not a joint. Linear in joints. */
int32_t kiln_cooked_skeleton_joint_of_node(const kiln_cooked_skeleton *s, uint32_t node);

#endif
