/* inspect_text.h — `kiln inspect` for people: each prints, on stdout, the document
 * kiln_inspect_file returned (parsed back) for one type of file; path heads the first line.
 * The documents' members are in docs/schemas/inspect.schema.json. */
#ifndef KILN_TOOLS_INSPECT_TEXT_H
#define KILN_TOOLS_INSPECT_TEXT_H

#include <jansson.h>

void kiln_inspect_print_container(const json_t *doc, const char *path); /* "container" */
void kiln_inspect_print_model(const json_t *doc, const char *path);     /* "model" */
void kiln_inspect_print_pack(const json_t *doc, const char *path);      /* "pack" */
void kiln_inspect_print_entry(const json_t *doc, const char *path);     /* "entry" */
/* The "shader" member of a container document (called by kiln_inspect_print_container). */
void kiln_inspect_print_shader(const json_t *shader);
/* The "typed_material" member of a container document (likewise). */
void kiln_inspect_print_typed_material(const json_t *typed_material);
/* The "vgeo" member of a container document (likewise). */
void kiln_inspect_print_vgeo(const json_t *vgeo);

#endif
