/* owned.h — the files a model among the scanned assets names (its images, .mtl files, buffers),
 * which belong to that model and are not assets of their own. */
#ifndef KILN_PIPELINE_OWNED_H
#define KILN_PIPELINE_OWNED_H

#include <jansson.h>

#include "pipeline/database.h"

/* Removes from assets[0..*count) every asset that another one of them names as a file its cook
 * reads (its kind's `dependencies`: a glTF's images, an OBJ's or FBX's textures), unless the
 * asset has a .meta of its own or its kind reads other files itself (a model is never owned).
 * The first naming asset in array order is the owner. Removed assets are cleared, the rest
 * moved down in order and *count lowered; each removed one is appended to skipped (may be NULL)
 * as {"path", "reason": "owned", "owner", "message": "owned by <owner>"}. A model names what
 * its import record lists when the model's stat still matches that record, else what its bytes
 * say; a model that cannot be read or parsed names nothing (its own import says why).
 * Errors: KILN_E_OUT_OF_MEMORY; the array is unchanged then. */
kiln_result kiln_owned_remove(kiln_project *p, kiln_asset *assets, size_t *count, json_t *skipped,
                              kiln_error *err);

#endif
