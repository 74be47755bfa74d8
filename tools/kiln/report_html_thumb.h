/* report_html_thumb.h — the one place `kiln report --html` asks for a picture of a model: its
 * scene, or one level of detail of one of its meshes, drawn by kiln's Vulkan renderer
 * (tools/view) through libkiln_rt. One renderer session serves the whole page (a Vulkan context
 * costs about a tenth of a second); without the renderer (a kiln built without the Vulkan
 * headers, or no Vulkan device here) the page shows a placeholder that says why. */
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

/* The renderer session of one page: made by the first request, closed by report_thumbs_close. */
typedef struct report_thumbs report_thumbs;

/* Draws what rq asks for into rq->png_path (a scene lit from the camera rule's auto position, a
 * mesh level lit and framed alone). Returns "png" when it wrote the file, "none" when it has no
 * picture to give (a kiln without the renderer), NULL on failure with err set (the page then
 * says why in place of the picture: no Vulkan here, a draw that failed). *session is made on the
 * first call; a session that could not start answers every later request the same way. */
const char *report_model_thumbnail(report_thumbs **session, const report_thumb_request *rq,
                                   kiln_error *err);
void report_thumbs_close(report_thumbs *session); /* NULL is a no-op */

#endif
