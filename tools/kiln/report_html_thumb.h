/* report_html_thumb.h — the one place `kiln report --html` asks for a picture of a model: its
 * scene, or one level of detail of one of its meshes. Until kiln has a renderer (issue 20) there
 * is none and the page shows a placeholder box; a renderer plugs in here alone. */
#ifndef KILN_TOOLS_REPORT_HTML_THUMB_H
#define KILN_TOOLS_REPORT_HTML_THUMB_H

#include <stdint.h>

#include "kiln/kiln_format.h"

typedef struct report_thumb_request {
    const char *entry_dir; /* the model's cache entry folder: its artifacts and manifest.json */
    const char *asset;     /* the asset's name from the root: "models/Fox.gltf" */
    const char *label;     /* "scene" (the whole model), or a mesh artifact ("mesh0/prim0") */
    const char *file;      /* that artifact's file in entry_dir ("scene.kscene") */
    uint32_t lod;          /* a mesh: its level of detail to draw (0 for the scene) */
    uint32_t size;         /* the picture is size x size pixels */
    const char *png_path;  /* where to write it (RGBA8 PNG) */
} report_thumb_request;

/* Draws what rq asks for into rq->png_path. Returns "png" when it wrote the file, "none" when it
 * has no picture to give (the page then shows a placeholder), NULL on failure with err set (the
 * page then says why in place of the picture). At present always "none". */
const char *report_model_thumbnail(const report_thumb_request *rq, kiln_error *err);

#endif
