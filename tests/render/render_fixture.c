/* render_fixture.c — see render_fixture.h. */
#include "render_fixture.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void render_pin_drivers(void)
{
    const char *list = getenv("KILN_RENDER_PIN");
    if (!list) return;
    char name[256];
    while (*list) {
        size_t n = strcspn(list, ":");
        if (n > 0 && n < sizeof name) {
            memcpy(name, list, n);
            name[n] = '\0';
            (void)dlopen(name, RTLD_NOW | RTLD_LOCAL); /* kept open on purpose */
        }
        list += n;
        if (*list == ':') list++;
    }
}

kv_context *render_context_or_skip(void)
{
    kv_context_desc d = {.struct_size = sizeof d, .require_validation = true};
    kv_context *ctx = NULL;
    kiln_error err;
    kiln_result r = kv_context_create(&d, &ctx, &err);
    if (r == KV_E_UNAVAILABLE) {
        printf("skip: %s\n", err.message);
        exit(77);
    }
    if (r) fail_msg("kv_context_create: %s: %s", kiln_result_name(r), err.message);
    return ctx;
}

void render_assert_no_messages(kv_context *ctx)
{
    kv_messages m;
    kv_messages_get(ctx, &m);
    for (uint32_t i = 0; i < m.kept; i++) fprintf(stderr, "validation: %s\n", m.text[i]);
    assert_int_equal(m.errors, 0);
    assert_int_equal(m.warnings, 0);
}
