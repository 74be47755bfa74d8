/* rt_fallback.c — fallback texture and material (not yet: see docs/runtime.md). */
#include "runtime/rt_context.h"

void krt_fallback_make(krt_context *c) { c->fb_made = true; }
void krt_fallback_destroy(krt_context *c) { (void)c; }
