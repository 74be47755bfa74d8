/* rt_material_table.c — the GPU material table: one 256-byte krt_gpu_material per material the
 * engine uploads verbatim. Indices are handed out under the context's lock when a material is
 * loaded (a stack of free ones, so at most max_assets are ever used); the records are grown and
 * written only on the renderer thread, in krt_update, which is also where krt_material_table
 * hands them out: the engine never sees a half-written record or a moved array mid-frame. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

kiln_result krt_mattab_create(krt_context *c, kiln_error *err)
{
    c->mat_free = kiln_calloc(&c->allocator, c->max_assets, sizeof *c->mat_free);
    if (!c->mat_free)
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the material table");
    return KILN_OK;
}

void krt_mattab_destroy(krt_context *c)
{
    kiln_free(&c->allocator, c->mat_free, (size_t)c->max_assets * sizeof *c->mat_free);
    kiln_free(&c->allocator, c->mat_records, c->mat_record_count * sizeof *c->mat_records);
    c->mat_free = NULL;
    c->mat_records = NULL;
    c->mat_record_count = 0;
}

void krt_mattab_alloc_locked(krt_context *c, krt_asset *a)
{
    if (a->mat_index != KRT_INVALID_INDEX) return;
    /* Live materials hold distinct slots, so fewer than max_assets indices are ever in use. */
    if (c->mat_free_count) a->mat_index = c->mat_free[--c->mat_free_count];
    else if (KILN_NEVER(c->mat_high >= c->max_assets)) return;
    else a->mat_index = c->mat_high++;
    a->mat_written = 0;
    c->mat_dirty = true;
}

void krt_mattab_free_locked(krt_context *c, krt_asset *a)
{
    uint32_t i = a->mat_index;
    if (i == KRT_INVALID_INDEX) return;
    if (i < c->mat_record_count) {
        memset(&c->mat_records[i], 0, sizeof c->mat_records[i]);
        c->mat_generation++;
    }
    if (!KILN_NEVER(c->mat_free_count >= c->max_assets)) c->mat_free[c->mat_free_count++] = i;
    a->mat_index = KRT_INVALID_INDEX;
    a->mat_written = 0;
}

/* glTF's defaults: what a shader sees for a material that is not ready. */
static void write_default(krt_gpu_material *r, uint32_t flags)
{
    memset(r, 0, sizeof *r);
    for (int k = 0; k < 4; k++) r->base_color[k] = 1.0f;
    r->emissive_strength = 1.0f;
    r->metallic = r->roughness = r->normal_scale = r->occlusion_strength = 1.0f;
    r->alpha_cutoff = 0.5f;
    r->flags = flags | KRT_GPU_MATERIAL_LIVE;
    for (int s = 0; s < KILN_MATERIAL_SLOT_COUNT; s++) {
        r->textures[s] = KRT_INVALID_INDEX;
        r->uv_transforms[s][0] = r->uv_transforms[s][3] = 1.0f;
    }
}

void krt_mattab_sync_locked(krt_context *c)
{
    if (!c->mat_dirty) return; /* nothing loaded, failed, became ready or reloaded */
    /* (the material block table's slots follow in the same walk: krt_blocktab_sync_locked) */
    c->mat_dirty = false;
    if (c->mat_high > c->mat_record_count) {
        size_t n = c->mat_record_count ? c->mat_record_count * 2 : 64;
        if (n < c->mat_high) n = c->mat_high;
        if (n > c->max_assets) n = c->max_assets;
        krt_gpu_material *r = kiln_realloc(&c->allocator, c->mat_records,
                                           c->mat_record_count * sizeof *r, n * sizeof *r);
        if (r) {
            memset(r + c->mat_record_count, 0, (n - c->mat_record_count) * sizeof *r);
            c->mat_records = r;
            c->mat_record_count = n;
            c->mat_generation++;
        } else {
            c->mat_dirty = true; /* out of memory: the new records wait for a later update */
        }
    }
    for (uint32_t s = 0; s < c->high_water; s++) {
        krt_asset *a = c->slots[s].asset;
        if (!a || a->cached || a->dying) continue;
        if (a->ops->table_block) krt_blocktab_sync_locked(c, a);
        if (!a->ops->table_record) continue;
        uint32_t i = a->mat_index;
        if (i == KRT_INVALID_INDEX || i >= c->mat_record_count) continue;
        uint8_t want = a->phase == KRT_PHASE_READY ? 2 : a->phase == KRT_PHASE_FAILED ? 3 : 1;
        if (a->mat_written == want && (want != 2 || a->mat_written_serial == a->mat_serial))
            continue;
        if (want == 2) a->ops->table_record(a, &c->mat_records[i]);
        else
            write_default(&c->mat_records[i],
                          want == 3 ? KRT_GPU_MATERIAL_FAILED : KRT_GPU_MATERIAL_LOADING);
        a->mat_written = want;
        a->mat_written_serial = a->mat_serial;
        c->mat_generation++;
    }
}

void krt_material_table(krt_context *c, const krt_gpu_material **records, size_t *count,
                        uint64_t *generation)
{
    if (records) *records = NULL;
    if (count) *count = 0;
    if (generation) *generation = 0;
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    if (records) *records = c->mat_records;
    if (count) *count = c->mat_high < c->mat_record_count ? c->mat_high : c->mat_record_count;
    if (generation) *generation = c->mat_generation;
    pthread_mutex_unlock(&c->mu);
}

uint32_t krt_material_index(krt_context *c, krt_handle h)
{
    if (!c || krt_handle_type(h) != KRT_TYPE_MATERIAL) return KRT_INVALID_INDEX;
    pthread_mutex_lock(&c->mu);
    krt_asset *a = krt_resolve_locked(c, h);
    uint32_t i = a ? a->mat_index : KRT_INVALID_INDEX;
    pthread_mutex_unlock(&c->mu);
    return i;
}
