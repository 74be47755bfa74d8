/* cook_output.h — the kiln_cook_output a registered kind's cook fills (kiln_kind.h): artifacts,
 * a summary and warnings, collected into a kiln_cooked. */
#ifndef KILN_PIPELINE_COOK_OUTPUT_H
#define KILN_PIPELINE_COOK_OUTPUT_H

#include <jansson.h>

#include "kiln/kiln_kind.h"
#include "pipeline/cook.h"

struct kiln_cook_output {
    kiln_cooked *cooked; /* what the artifacts go into (borrowed) */
    const kiln_allocator *alloc;
    json_t *summary;  /* object */
    json_t *warnings; /* array */
};

/* Starts an output over an empty kiln_cooked. */
void kiln_cook_output_init(kiln_cook_output *o, kiln_cooked *cooked, const kiln_allocator *alloc);
/* Hands the summary and warnings to the kiln_cooked. KILN_E_OUT_OF_MEMORY when one could not be
 * made. */
kiln_result kiln_cook_output_finish(kiln_cook_output *o, kiln_error *err);

#endif
