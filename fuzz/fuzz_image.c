/* fuzz_image.c — libFuzzer target for kiln_image_decode (PNG, JPEG, TGA, BMP, HDR, EXR). The last
 * input byte picks options, as libspng's fuzzer does: bit 0 gives the name hint "x.tga" (TGA has
 * no magic), bit 1 a small max_dim so the limit paths run. The memory limit stays modest so a
 * legal-but-large image cannot exhaust the fuzzer's RSS budget. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "import/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t opt = data[size - 1];
    size--;
    kiln_image_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name_hint = (opt & 1) ? "x.tga" : NULL;
    opts.max_dim = (opt & 2) ? 64 : 0;
    opts.memory_limit = (size_t)256 << 20;
    kiln_image img;
    kiln_error err;
    uint32_t w, h;
    kiln_image_format f;
    kiln_image_probe(data, size, &opts, &f, &w, &h, &err);
    if (kiln_image_decode(data, size, &opts, &img, &err) == KILN_OK) {
        /* Touch the last byte: the size must be real. */
        volatile uint8_t last = ((const uint8_t *)img.pixels)[img.size - 1];
        (void)last;
        kiln_image_free(&img);
    }
    return 0;
}
