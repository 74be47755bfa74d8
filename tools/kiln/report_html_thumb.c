/* report_html_thumb.c — model pictures for `kiln report --html`: none yet. The Vulkan renderer
 * of issue 20 (tools/view) draws them here once it is merged; the page already asks for the
 * scene of every model and for each level of detail of every mesh, and shows what comes back. */
#include "report_html_thumb.h"

const char *report_model_thumbnail(const report_thumb_request *rq, kiln_error *err)
{
    (void)rq;
    (void)err;
    return "none";
}
