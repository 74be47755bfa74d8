/* rt_type_custom.c — the types a program registers (krt_register_type): each is an ops table
 * in the context beside a copy of the program's krt_type_desc, and these functions serve them
 * all, calling the program's callbacks: the kind's read into a view allocated for it, the
 * program's decode into its record, its free, and its renderer callbacks with krt_custom_data.
 * Also krt_get_data, which hands the record out. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

typedef struct krt_custom_type {
    krt_type_ops ops; /* first: a->ops is the address of the whole */
    krt_type_desc desc;
} krt_custom_type;

static const krt_type_desc *desc_of(const krt_type_ops *t)
{
    return &((const krt_custom_type *)(const void *)t)->desc;
}

static size_t view_size(const krt_type_desc *d)
{
    return d->kind->view_size ? d->kind->view_size : 1;
}

static kiln_result decode(krt_asset *a, const krt_decode_args *x, kiln_error *err)
{
    const krt_type_desc *d = desc_of(a->ops);
    krt_custom_decoded *m = &a->data.custom;
    m->view = kiln_calloc(x->alloc, 1, view_size(d));
    if (!m->view)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a %s's view",
                              d->kind->name);
    kiln_result r = d->kind->read(a->dec.file, a->dec.file_size, x->flags, m->view, err);
    if (r) return r;
    r = d->decode(d->user, m->view, &m->record, err);
    if (r && err && !err->code)
        kiln_error_set(err, r, "the program's decode of this %s failed", d->kind->name);
    return r;
}

static const void *view(const krt_asset *a) { return a->data.custom.view; }

static void free_record(krt_asset *a, const kiln_allocator *al)
{
    const krt_type_desc *d = desc_of(a->ops);
    krt_custom_decoded *m = &a->data.custom;
    if (m->record && d->free) d->free(d->user, m->record);
    if (m->view) kiln_free(al, m->view, view_size(d));
}

/* No pointer into the record: the view and the program's record are blocks of their own. */
static void swap(krt_asset *a, krt_asset *b)
{
    KRT_SWAP(krt_custom_decoded, a->data.custom, b->data.custom);
}

static krt_custom_data data_of(const krt_asset *a)
{
    return (krt_custom_data){a->data.custom.record, a->data.custom.view, a->dec.deps,
                             a->dec.dep_count};
}

static kiln_result create(krt_context *c, krt_handle h, const krt_asset *a, void **gpu, bool *made,
                          kiln_error *e)
{
    const krt_type_desc *d = desc_of(a->ops);
    (void)c;
    if (!d->create) return KILN_OK;
    *made = true;
    krt_custom_data cd = data_of(a);
    return d->create(d->user, h, &cd, gpu, e);
}

static kiln_result replace(krt_context *c, krt_handle h, const krt_asset *a, void **gpu,
                           bool *replaced, kiln_error *e)
{
    const krt_type_desc *d = desc_of(a->ops);
    (void)c;
    if (!d->replace) return KILN_OK;
    *replaced = true;
    krt_custom_data cd = data_of(a);
    return d->replace(d->user, h, &cd, gpu, e);
}

static void destroy(krt_context *c, const krt_type_ops *t, krt_handle h, void *gpu)
{
    const krt_type_desc *d = desc_of(t);
    (void)c;
    if (d->destroy) d->destroy(d->user, h, gpu);
}

/* Whether label prefixes x and y could name the same label (one starts the other). */
static bool prefixes_overlap(const char *x, const char *y)
{
    size_t n = strlen(x) < strlen(y) ? strlen(x) : strlen(y);
    return strncmp(x, y, n) == 0;
}

/* Why kind k cannot be told apart from the kinds of r (built-in and registered), or NULL. */
static const char *clash(const krt_type_registry *r, const kiln_cooked_kind *k)
{
    const kiln_cooked_kind *other;
    for (size_t i = 0; (other = kiln_cooked_kind_at(i)) != NULL; i++) {
        if (other->fourcc == k->fourcc) return other->name;
        for (const char *const *x = k->labels; *x; x++)
            for (const char *const *y = other->labels; y && *y; y++)
                if (prefixes_overlap(*x, *y)) return other->name;
    }
    for (uint32_t t = KRT_TYPE_COUNT; t < r->count; t++) {
        other = r->ops[t]->kind;
        if (other == k || other->fourcc == k->fourcc) return other->name;
        for (const char *const *x = k->labels; *x; x++)
            for (const char *const *y = other->labels; *y; y++)
                if (prefixes_overlap(*x, *y)) return other->name;
    }
    return NULL;
}

kiln_result krt_register_type(krt_context *c, const krt_type_desc *desc, krt_type *out_type,
                              kiln_error *err)
{
    if (out_type) *out_type = KRT_TYPE_NONE;
    if (!c || !desc) return kiln_error_set(err, KILN_E_USAGE, "krt_register_type: NULL argument");
    krt_type_desc d;
    memset(&d, 0, sizeof d);
    size_t n = desc->struct_size ? desc->struct_size : sizeof d;
    if (n > sizeof d)
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_type_desc.struct_size %zu is larger than this library's %zu", n,
                              sizeof d);
    memcpy(&d, desc, n);
    const kiln_cooked_kind *k = d.kind;
    if (!k || !k->read || !d.decode)
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_register_type: the desc needs a kind with a read, and decode");
    if (!k->name || !k->name[0] || !k->fourcc || !k->labels || !k->labels[0])
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_register_type: the kind needs a name, a fourcc and labels");
    for (const char *const *l = k->labels; *l; l++)
        if (!**l)
            return kiln_error_set(err, KILN_E_USAGE, "krt_register_type: %s has an empty label",
                                  k->name);
    if (d.flags & ~(uint32_t)KRT_TYPE_DESC_CHECK_DIGEST)
        return kiln_error_set(err, KILN_E_USAGE, "krt_type_desc.flags has unknown bits %x",
                              d.flags & ~(uint32_t)KRT_TYPE_DESC_CHECK_DIGEST);
    /* Mounts map labels and fourccs to types as they read, and assets hold their type's table:
     * the set of types is fixed before either happens. */
    if (c->mount_serial || c->high_water)
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_register_type: %s: types are registered before the first "
                              "mount or load",
                              k->name);
    const char *other = clash(&c->types, k);
    if (other)
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_register_type: %s's fourcc or a label prefix would be taken "
                              "for %s's",
                              k->name, other);
    if (c->types.count >= KRT_TYPE_LIMIT)
        return kiln_error_set(err, KILN_E_LIMIT, "krt_register_type: %u types are the most",
                              KRT_TYPE_LIMIT);
    krt_custom_type *t = kiln_calloc(&c->allocator, 1, sizeof *t);
    if (!t) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory registering a type");
    t->desc = d;
    t->ops = (krt_type_ops){
        .kind = k,
        .flags = d.flags & KRT_TYPE_DESC_CHECK_DIGEST ? KRT_TYPE_OPS_DIGEST : 0,
        .decode = decode,
        .view = view,
        .free = free_record,
        .swap = swap,
        .create = create,
        .replace = replace,
        .destroy = destroy,
    };
    uint32_t type = c->types.count++;
    c->types.ops[type] = &t->ops;
    if (out_type) *out_type = (krt_type)type;
    return KILN_OK;
}

void krt_custom_types_free(krt_context *c)
{
    for (uint32_t t = KRT_TYPE_COUNT; t < c->types.count; t++)
        kiln_free(&c->allocator, (void *)(uintptr_t)c->types.ops[t], sizeof(krt_custom_type));
    c->types.count = KRT_TYPE_COUNT;
}

kiln_result krt_get_data(krt_context *c, krt_handle h, krt_type type, krt_custom_data *out,
                         kiln_error *err)
{
    if (c && type > KRT_TYPE_NONE && type < KRT_TYPE_COUNT)
        return kiln_error_set(err, KILN_E_USAGE,
                              "krt_get_data: %s is a built-in type (krt_get_%s gives its data)",
                              krt_type_name(c, type), krt_type_name(c, type));
    krt_asset *a = krt_ready_locked(c, h, (uint32_t)type, err);
    if (!a) return KILN_E_USAGE;
    *out = data_of(a);
    pthread_mutex_unlock(&c->mu);
    return KILN_OK;
}
