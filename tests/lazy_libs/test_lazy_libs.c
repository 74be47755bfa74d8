/* test_lazy_libs.c — the image and ASTC libraries kiln opens on first use (png_dl.c, exr_dl.c,
 * astcenc_dl.cpp) load when a decode needs them and report a missing library by name. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "support.h"

#include "import/exr_dl.h"
#include "import/image.h"
#include "import/png_dl.h"
#include "process/astc.h"

/* This program does not link OpenEXRCore or libastcenc (kiln_test_support links libspng for
 * its PNG writer, so libspng is mapped from the start here). */
static bool mapped(const char *soname)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (h) dlclose(h);
    return h != NULL;
}

static void exr_library_is_opened_by_the_first_exr(void **state)
{
    (void)state;
    assert_false(mapped(KILN_EXR_SONAME));
    /* The EXR magic and version, then a header cut short: the library reads it and refuses. */
    static const uint8_t bytes[] = {0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0, 'c', 'h'};
    kiln_image img;
    memset(&img, 0, sizeof img);
    kiln_error err;
    assert_int_equal(kiln_image_decode(bytes, sizeof bytes, NULL, &img, &err),
                     KILN_E_IMPORT_FAILED);
    assert_non_null(strstr(err.message, "EXR: "));
    kiln_image_free(&img);
    assert_true(mapped(KILN_EXR_SONAME));
}

static void *astc_decode_thread(void *result)
{
    uint8_t block[16] = {0}, rgba[64];
    kiln_error err;
    *(kiln_result *)result = kiln_astc_decode(block, sizeof block, 4, 4, false, rgba, &err);
    return NULL;
}

/* Several threads make the first call at once: pthread_once loads the table exactly once and
 * every caller waits for it (TSan builds check the table is published safely). */
static void astcenc_is_opened_by_the_first_astc_decode(void **state)
{
    (void)state;
    assert_false(mapped("libastcenc.so.3d"));
    enum { THREADS = 4 };
    pthread_t t[THREADS];
    kiln_result r[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, astc_decode_thread, &r[i]), 0);
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(r[i], KILN_OK);
    }
    assert_true(mapped("libastcenc.so.3d"));
    /* A later call takes the same table. */
    uint8_t block[16] = {0}, rgba[64];
    kiln_error err;
    assert_int_equal(kiln_astc_decode(block, sizeof block, 4, 4, true, rgba, &err), KILN_OK);
}

static void png_table_loads(void **state)
{
    (void)state;
    kiln_spng_api api;
    char why[200] = "";
    assert_true(kiln_spng_dl_load(NULL, &api, why, sizeof why));
    assert_non_null(api.ctx_new);
    assert_string_equal(api.strerror(0), "success");
    const kiln_spng_api *shared = NULL;
    assert_int_equal(kiln_spng_api_get(&shared, NULL), KILN_OK);
    assert_non_null(shared);
}

static void missing_libraries_are_named(void **state)
{
    (void)state;
    char why[200] = "";
    kiln_spng_api png;
    assert_false(kiln_spng_dl_load("libspng-kiln-missing.so.0", &png, why, sizeof why));
    assert_non_null(strstr(why, "libspng-kiln-missing.so.0"));
    assert_null(png.ctx_new);

    kiln_exr_api exr;
    why[0] = 0;
    assert_false(kiln_exr_dl_load("libOpenEXRCore-kiln-missing.so.30", &exr, why, sizeof why));
    assert_non_null(strstr(why, "libOpenEXRCore-kiln-missing.so.30"));
    assert_null(exr.start_read);

    /* A library without the functions: libm has none of libspng's, and is closed again. */
    why[0] = 0;
    assert_false(kiln_spng_dl_load("libm.so.6", &png, why, sizeof why));
    assert_non_null(strstr(why, "spng_ctx_new"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exr_library_is_opened_by_the_first_exr),
        cmocka_unit_test(astcenc_is_opened_by_the_first_astc_decode),
        cmocka_unit_test(png_table_loads),
        cmocka_unit_test(missing_libraries_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
