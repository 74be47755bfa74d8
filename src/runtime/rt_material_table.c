/* rt_material_table.c — the GPU material table (not yet: see docs/runtime.md). */
#include "runtime/rt_context.h"

kiln_result krt_mattab_create(krt_context *c, kiln_error *err) { (void)c; (void)err; return KILN_OK; }
void krt_mattab_destroy(krt_context *c) { (void)c; }
void krt_mattab_alloc_locked(krt_context *c, krt_asset *a) { (void)c; a->mat_index = KRT_INVALID_INDEX; }
void krt_mattab_free_locked(krt_context *c, krt_asset *a) { (void)c; (void)a; }
void krt_mattab_sync_locked(krt_context *c) { (void)c; }
void krt_material_table(krt_context *c, const krt_gpu_material **r, size_t *n, uint64_t *g) { (void)c; if (r) *r = NULL; if (n) *n = 0; if (g) *g = 0; }
uint32_t krt_material_index(krt_context *c, krt_handle h) { (void)c; (void)h; return KRT_INVALID_INDEX; }
