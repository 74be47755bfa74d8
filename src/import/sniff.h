/* sniff.h — what a file's first bytes look like, named for people. Importers refuse bytes that
 * contradict the extension that chose them ("not an OBJ file: the bytes are a PNG image"); this
 * says what the bytes are instead, when they are something kiln knows. It decides nothing. */
#ifndef KILN_IMPORT_SNIFF_H
#define KILN_IMPORT_SNIFF_H

#include <stddef.h>

/* "a PNG image", "a JPEG image", "a GLB file", "a JSON document", "an FBX file", "an OBJ file",
 * "a KTX2 texture", "a kiln container", "a kiln pack", ...; NULL when the bytes are none of them
 * (or data is NULL). */
const char *kiln_sniff_describe(const void *data, size_t size);

#endif
