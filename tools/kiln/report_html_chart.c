/* report_html_chart.c — the cooked bytes by kind as a horizontal bar chart in inline SVG (no
 * script, no library): one bar per kind, longest first, its length proportional to the bytes,
 * labelled with the size and the number of artifacts. Colours come from a fixed table by kind,
 * so a kind keeps its colour from one report to the next. */
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

static const struct {
    const char *kind, *colour;
} k_colours[] = {
    {"texture", "#e07a2f"},  {"mesh", "#3c7dd9"}, {"material", "#8d5fd3"}, {"scene", "#2aa198"},
    {"skeleton", "#6c8a2b"}, {"clip", "#c94f7c"}, {"shader", "#b58900"},   {"vgeo", "#268bd2"},
};

static const char *colour_of(const char *kind)
{
    for (size_t i = 0; i < sizeof k_colours / sizeof k_colours[0]; i++)
        if (!strcmp(k_colours[i].kind, kind)) return k_colours[i].colour;
    return "#7f8c8d";
}

static int by_size(const void *a, const void *b)
{
    const rh_kind_size *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    return strcmp(x->kind, y->kind);
}

void rh_chart_sizes(rh_buf *b, rh_kind_size *rows, size_t count)
{
    enum { LABEL = 96, BAR = 420, ROW = 30, WIDTH = LABEL + BAR + 150 };
    qsort(rows, count, sizeof *rows, by_size);
    uint64_t max = 0, total = 0;
    for (size_t i = 0; i < count; i++) {
        if (rows[i].bytes > max) max = rows[i].bytes;
        total += rows[i].bytes;
    }
    size_t height = count * ROW + 8;
    rh_printf(b,
              "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 %d %zu\" width=\"%d\" "
              "height=\"%zu\" xmlns=\"http://www.w3.org/2000/svg\">\n"
              "<title>Cooked bytes by kind</title>\n",
              WIDTH, height, WIDTH, height);
    for (size_t i = 0; i < count; i++) {
        char size[32];
        double frac = max ? (double)rows[i].bytes / (double)max : 0.0;
        int len = (int)(frac * BAR + 0.5);
        if (len < 2 && rows[i].bytes) len = 2;
        size_t y = i * ROW + 4;
        double pct = total ? 100.0 * (double)rows[i].bytes / (double)total : 0.0;
        char share[16];
        if (pct > 0.0 && pct < 1.0) snprintf(share, sizeof share, "&lt;1%%");
        else snprintf(share, sizeof share, "%.0f%%", pct);
        rh_printf(b,
                  "<g><text x=\"%d\" y=\"%zu\" text-anchor=\"end\" class=\"k\">%s</text>"
                  "<rect x=\"%d\" y=\"%zu\" width=\"%d\" height=\"%d\" rx=\"3\" fill=\"%s\"/>"
                  "<text x=\"%d\" y=\"%zu\" class=\"v\">%s · %zu · %s</text></g>\n",
                  LABEL - 8, y + 17, rows[i].kind, LABEL, y + 2, len, ROW - 8,
                  colour_of(rows[i].kind), LABEL + len + 8, y + 17,
                  kiln_cli_format_size(rows[i].bytes, size), rows[i].count, share);
    }
    rh_puts(b, "</svg>\n");
}
