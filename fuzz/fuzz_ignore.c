/* fuzz_ignore.c — libFuzzer target for the ignore rules (src/pipeline/ignore.c, glob.c): the
 * bytes up to the first NUL are a .kilnignore, the lines after it are paths matched against its
 * rules, as files and as folders. A rule that matches must be one of the rules read, and a
 * pattern must match its own text when it has no special characters. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/glob.h"
#include "pipeline/ignore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 16)) return 0;
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t rules_size = nul ? (size_t)(nul - text) : size;
    kiln_ignore ig;
    memset(&ig, 0, sizeof ig);
    kiln_error err;
    kiln_result r = kiln_ignore_add_text(&ig, text, rules_size, ".kilnignore", &err);
    if (r != KILN_OK && r != KILN_E_LIMIT && r != KILN_E_OUT_OF_MEMORY) abort();
    if (r == KILN_OK && nul) {
        char path[512];
        const char *at = nul + 1, *end = text + size;
        while (at < end) {
            const char *nl = memchr(at, '\n', (size_t)(end - at));
            size_t len = (size_t)((nl ? nl : end) - at);
            if (len < sizeof path && !memchr(at, '\0', len)) {
                memcpy(path, at, len);
                path[len] = '\0';
                for (int dir = 0; dir < 2; dir++) {
                    const kiln_ignore_rule *m = kiln_ignore_match(&ig, path, dir);
                    if (m && (m < ig.rules || m >= ig.rules + ig.count)) abort();
                }
                if (!strpbrk(path, "*?[\\") && !kiln_glob_match(path, path)) abort();
            }
            at = nl ? nl + 1 : end;
        }
    }
    kiln_ignore_free(&ig);
    return 0;
}
