/* json_pointer.c — see json_pointer.h. */
#include "core/json_pointer.h"

#include <string.h>

size_t kiln_json_pointer_push(char *text, size_t cap, size_t *len, const char *key)
{
    size_t old = *len, n = 0;
    char seg[512];
    seg[n++] = '/';
    for (; *key && n + 3 < sizeof seg; key++) {
        if (*key == '~' || *key == '/') {
            seg[n++] = '~';
            seg[n++] = *key == '~' ? '0' : '1';
        } else {
            seg[n++] = *key;
        }
    }
    if (n < cap - *len) {
        memcpy(text + *len, seg, n);
        *len += n;
    }
    text[*len] = '\0';
    return old;
}

void kiln_json_pointer_pop(char *text, size_t *len, size_t old)
{
    *len = old;
    text[old] = '\0';
}
