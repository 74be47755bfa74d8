/* rt_type.h — a runtime type as one ops table: what the runtime does with an asset of that type
 * (decode it from its cooked kind, link it to its dependencies, free it, swap it on hot reload,
 * hand it to the renderer), and the registry that maps type numbers, cooked kinds, fourccs and
 * labels onto the tables. Each built-in type is one file (rt_type_<name>.c) that defines its
 * table; rt_types.c lists them, one line each; types a program registers (krt_register_type,
 * rt_type_custom.c) are tables in the context. The rest of the runtime calls through the table
 * and names no type. */
#ifndef KILN_RT_TYPE_H
#define KILN_RT_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_kind.h"
#include "kiln/kiln_rt.h"

struct krt_asset;
struct krt_context;

/* What a type's decode gets besides the asset (whose file is read, and verified where the
 * type's flags say so). */
typedef struct krt_decode_args {
    uint32_t flags;               /* for the cooked kind's read: KILN_CONTAINER_SKIP_CHECKSUM */
    const krt_renderer *renderer; /* supports_format (texture transcoding) */
    const kiln_allocator *alloc;
} krt_decode_args;

enum { /* krt_type_ops.flags */
       /* The kind's files carry no checksum of their own: a loose file is checked against its
        * manifest's digest (XXH3-128, else SHA-256) before it is decoded (KTX2). */
       KRT_TYPE_OPS_DIGEST = 1u << 0,
       /* KRT_DESC_DROP_CPU_AFTER_UPLOAD applies: the CPU data goes once the renderer took it. */
       KRT_TYPE_OPS_CPU_DROP = 1u << 1,
       /* Dependents build their GPU objects from this type's (a material from its textures'): a
        * reload of it rebuilds the ready dependents that have link_gpu. */
       KRT_TYPE_OPS_REBUILD_DEPENDENTS = 1u << 2,
};

typedef struct krt_type_ops {
    /* The cooked kind its artifacts are stored in: name (in messages), fourcc (packs), label
     * prefixes (cache folders), read, refs (the dependencies: those flagged KILN_REF_LOAD). */
    const kiln_cooked_kind *kind;
    uint32_t flags; /* KRT_TYPE_OPS_* */
    /* Reads a->dec.file through the kind's read into the type's view, then does the type's own
     * work (supercompression, transcoding, stream unpacking). Blocks it allocates are added to
     * a->dec.resident. Runs on a job thread, no lock held. */
    kiln_result (*decode)(struct krt_asset *a, const krt_decode_args *args, kiln_error *err);
    /* The view decode filled, for the kind's refs. */
    const void *(*view)(const struct krt_asset *a);
    /* Points the public record at the dependency handles (a->dec.deps, in the order the kind's
     * refs listed them). NULL: nothing to link. */
    void (*link)(struct krt_asset *a);
    /* Frees what decode allocated (not the file, not the deps). NULL: nothing. Lock held. */
    void (*free)(struct krt_asset *a, const kiln_allocator *alloc);
    /* Exchanges the type's member of the two records' data (a hot reload), fixing pointers
     * into the record itself. */
    void (*swap)(struct krt_asset *a, struct krt_asset *b);
    /* The renderer (no lock held, renderer thread). create: *made set when the renderer has a
     * callback for the type (then *gpu is its object); replace: *replaced set when it has a
     * replace callback (else the caller creates anew and destroys the old object). NULL: the
     * type has no GPU object. */
    kiln_result (*create)(struct krt_context *c, krt_handle h, const struct krt_asset *a,
                          void **gpu, bool *made, kiln_error *err);
    kiln_result (*replace)(struct krt_context *c, krt_handle h, const struct krt_asset *a,
                           void **gpu, bool *replaced, kiln_error *err);
    void (*destroy)(struct krt_context *c, const struct krt_type_ops *t, krt_handle h, void *gpu);
    /* Before create or replace, with the lock held: fills the record's GPU pointers from its
     * dependencies' objects (a material's texture_gpu). NULL: none. */
    void (*link_gpu)(struct krt_context *c, struct krt_asset *a);
    /* The type has a record in the GPU material table: writes it for a ready asset. NULL: it
     * has none. */
    void (*table_record)(const struct krt_asset *a, krt_gpu_material *out);
    /* The type has a block in the material block table (rt_block_table.c): the bytes of a
     * ready asset's block and their size (NULL, 0: none). NULL: it has none. */
    const uint8_t *(*table_block)(const struct krt_asset *a, uint32_t *size);
    /* The renderer's fallback object for an asset of this type that is not ready (lock held),
     * NULL when none. NULL: the type has no fallback. */
    void *(*fallback_gpu)(const struct krt_context *c);
} krt_type_ops;

/* The built-in types (rt_type_<name>.c). */
extern const krt_type_ops krt_type_texture;
extern const krt_type_ops krt_type_mesh;
extern const krt_type_ops krt_type_material;
extern const krt_type_ops krt_type_skeleton;
extern const krt_type_ops krt_type_clip;
extern const krt_type_ops krt_type_scene;
extern const krt_type_ops krt_type_shader;
extern const krt_type_ops krt_type_typed_material;
extern const krt_type_ops krt_type_vgeo;

/* The types of a context, by krt_type number: the built-ins, then those registered. ops[0]
 * (KRT_TYPE_NONE) is NULL. */
typedef struct krt_type_registry {
    const krt_type_ops *ops[KRT_TYPE_LIMIT];
    uint32_t count; /* types 1 .. count-1 are defined */
} krt_type_registry;

/* A registry of the built-in types alone. */
void krt_types_init(krt_type_registry *r);
const krt_type_registry *krt_types_builtin(void);

/* The ops of type t, NULL when r has none of that number. */
static inline const krt_type_ops *krt_types_at(const krt_type_registry *r, uint32_t t)
{
    return t < r->count ? r->ops[t] : NULL;
}

/* The type of a cooked kind, of a container fourcc (KILN_PACK_KIND_KTX2 for KTX2), of a label
 * ("image0/normal" -> texture); KRT_TYPE_NONE when r loads none. r NULL: the built-ins. */
uint32_t krt_types_of_kind(const krt_type_registry *r, const kiln_cooked_kind *kind);
uint32_t krt_types_of_fourcc(const krt_type_registry *r, uint32_t fourcc);
uint32_t krt_types_of_label(const krt_type_registry *r, const char *label);

/* "texture", ...; "none" for a number r does not define. */
const char *krt_types_name(const krt_type_registry *r, uint32_t t);

#endif
