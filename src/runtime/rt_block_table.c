/* rt_block_table.c — the material block table: the parameter blocks of ready typed materials
 * in one byte array the engine uploads verbatim (krt_material_blocks), each in a slot whose
 * offset is a multiple of KRT_MATERIAL_BLOCK_ALIGN. Slots come in power-of-two size classes
 * (256 B .. 64 KiB), each class with a stack of free offsets: taking and freeing are O(1), an
 * offset is stable while the block's size stays in its class, and no block wastes more than
 * half its slot. Slots are taken, written, moved and freed on the renderer thread with the
 * context's lock held (krt_update, krt_destroy), so the engine never sees a half-written block
 * or a moved array mid-frame. */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "runtime/rt_context.h"

static uint8_t class_of(uint32_t size)
{
    uint8_t k = 1;
    for (size_t slot = KRT_MATERIAL_BLOCK_ALIGN; slot < size && k <= KRT_BLOCK_CLASSES; slot *= 2)
        k++;
    return k <= KRT_BLOCK_CLASSES ? k : 0; /* 0: larger than any class (the reader refuses it) */
}

static size_t slot_bytes(uint8_t k) { return (size_t)KRT_MATERIAL_BLOCK_ALIGN << (k - 1); }

void krt_blocktab_destroy(krt_context *c)
{
    kiln_free_large(&c->allocator, c->blk_bytes, c->blk_cap);
    for (int k = 0; k < KRT_BLOCK_CLASSES; k++)
        kiln_free(&c->allocator, c->blk_free[k], (size_t)c->blk_free_cap[k] * sizeof(uint32_t));
    c->blk_bytes = NULL;
    c->blk_cap = c->blk_high = 0;
    memset(c->blk_free, 0, sizeof c->blk_free);
    memset(c->blk_free_count, 0, sizeof c->blk_free_count);
    memset(c->blk_free_cap, 0, sizeof c->blk_free_cap);
}

void krt_blocktab_free_locked(krt_context *c, krt_asset *a)
{
    uint8_t k = a->blk_class;
    if (!k) return;
    a->blk_class = 0;
    a->blk_size = 0;
    size_t n = slot_bytes(k);
    if (a->blk_offset + n <= c->blk_cap) {
        memset(c->blk_bytes + a->blk_offset, 0, n);
        c->blk_generation++;
    }
    uint32_t i = (uint32_t)(k - 1);
    if (c->blk_free_count[i] == c->blk_free_cap[i]) {
        uint32_t cap = c->blk_free_cap[i] ? c->blk_free_cap[i] * 2 : 16;
        uint32_t *f = kiln_realloc(&c->allocator, c->blk_free[i],
                                   (size_t)c->blk_free_cap[i] * sizeof *f, (size_t)cap * sizeof *f);
        if (!f) return; /* out of memory: the slot is not reused (its bytes stay zero) */
        c->blk_free[i] = f;
        c->blk_free_cap[i] = cap;
    }
    c->blk_free[i][c->blk_free_count[i]++] = a->blk_offset;
}

/* A slot of class k for a, the array grown to hold it; false when memory or the 4 GiB of 32-bit
 * offsets run out. */
static bool take(krt_context *c, krt_asset *a, uint8_t k)
{
    uint32_t i = (uint32_t)(k - 1);
    size_t n = slot_bytes(k), offset;
    if (c->blk_free_count[i]) {
        offset = c->blk_free[i][c->blk_free_count[i] - 1];
    } else {
        offset = c->blk_high;
        if (offset + n > UINT32_MAX) return false;
    }
    if (offset + n > c->blk_cap) {
        size_t cap = c->blk_cap ? c->blk_cap : 64u << 10;
        while (cap < offset + n) cap *= 2;
        uint8_t *b = kiln_alloc_large(&c->allocator, cap);
        if (!b) return false;
        if (c->blk_cap) memcpy(b, c->blk_bytes, c->blk_cap);
        memset(b + c->blk_cap, 0, cap - c->blk_cap);
        kiln_free_large(&c->allocator, c->blk_bytes, c->blk_cap);
        c->blk_bytes = b;
        c->blk_cap = cap;
        c->blk_generation++;
    }
    if (c->blk_free_count[i]) c->blk_free_count[i]--;
    else c->blk_high = offset + n;
    a->blk_class = k;
    a->blk_offset = (uint32_t)offset;
    return true;
}

void krt_blocktab_sync_locked(krt_context *c, krt_asset *a)
{
    uint32_t size = 0;
    const uint8_t *src = a->phase == KRT_PHASE_READY ? a->ops->table_block(a, &size) : NULL;
    uint8_t k = src && size ? class_of(size) : 0;
    bool fresh = false;
    if (k != a->blk_class) {
        krt_blocktab_free_locked(c, a);
        if (!k) return;
        if (!take(c, a, k)) {
            c->mat_dirty = true; /* try again in the next krt_update */
            return;
        }
        fresh = true;
    }
    if (!k || (!fresh && a->blk_written_serial == a->mat_serial && a->blk_size == size)) return;
    uint8_t *dst = c->blk_bytes + a->blk_offset;
    memcpy(dst, src, size);
    memset(dst + size, 0, slot_bytes(k) - size);
    a->blk_size = size;
    a->blk_written_serial = a->mat_serial;
    c->blk_generation++;
}

void krt_material_blocks(krt_context *c, const uint8_t **bytes, size_t *size, uint64_t *generation)
{
    if (bytes) *bytes = NULL;
    if (size) *size = 0;
    if (generation) *generation = 0;
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    if (bytes) *bytes = c->blk_bytes;
    if (size) *size = c->blk_high;
    if (generation) *generation = c->blk_generation;
    pthread_mutex_unlock(&c->mu);
}

bool krt_material_block(krt_context *c, krt_handle h, uint32_t *offset, uint32_t *size)
{
    uint32_t o = 0, n = 0;
    if (c) {
        pthread_mutex_lock(&c->mu);
        const krt_asset *a = krt_resolve_locked(c, h);
        if (a && a->ops->table_block && a->phase == KRT_PHASE_READY && a->blk_class) {
            o = a->blk_offset;
            n = a->blk_size;
        }
        pthread_mutex_unlock(&c->mu);
    }
    if (offset) *offset = o;
    if (size) *size = n;
    return n != 0;
}
