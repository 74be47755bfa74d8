/* rt_reload.c — hot reload (not yet: see docs/runtime.md). */
#include "core/error.h"
#include "runtime/rt_context.h"

bool krt_reload_apply(krt_context *c, size_t *loading) { (void)c; (void)loading; return false; }
void krt_reload_drop_locked(krt_context *c, krt_asset *a) { (void)c; (void)a; }
kiln_result krt_watch_add_locked(krt_context *c, krt_mount_source *s, kiln_error *err) { (void)c; (void)s; (void)err; return KILN_OK; }
kiln_result krt_source_signature(const char *dir, const kiln_allocator *al, uint64_t *out, kiln_error *err) { (void)dir; (void)al; (void)err; *out = 0; return KILN_OK; }
kiln_result krt_poll_changes(krt_context *c, size_t *n, kiln_error *err) { (void)c; if (n) *n = 0; (void)err; return KILN_OK; }
kiln_result krt_reload(krt_context *c, krt_handle h, kiln_error *err) { (void)c; (void)h; return kiln_error_set(err, KILN_E_USAGE, "krt_reload: not yet"); }
kiln_result krt_reload_error(krt_context *c, krt_handle h, kiln_error *out) { (void)c; (void)h; kiln_error_clear(out); return KILN_OK; }
kiln_result krt_watch_start(krt_context *c, kiln_error *err) { (void)c; return kiln_error_set(err, KILN_E_USAGE, "krt_watch_start: not yet"); }
void krt_watch_stop(krt_context *c) { (void)c; }
