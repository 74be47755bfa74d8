/* inspect_pack.h — the .kpak half of `kiln inspect`: a pack's table of contents listed (entries,
 * kinds, sizes, compression ratios, shared payloads). */
#ifndef KILN_TOOLS_INSPECT_PACK_H
#define KILN_TOOLS_INSPECT_PACK_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* Opens the pack (kiln_pack_open_memory: the table and its checksum; payloads are checked by
 * `kiln pack --verify`) and returns the inspect document's pack members ("type": "pack", ...;
 * docs/schemas/inspect.schema.json). On failure NULL with *r and err set by the reader. */
json_t *kiln_inspect_pack(const uint8_t *data, size_t size, kiln_result *r, kiln_error *err);

/* Prints that document for people on stdout; path heads the first line. */
void kiln_inspect_pack_print(const json_t *doc, const char *path);

#endif
