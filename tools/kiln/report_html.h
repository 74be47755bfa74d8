/* report_html.h — what the files of `kiln report --html` share. report_html.c writes the page
 * from the report document; report_html_texture.c turns KTX2 levels into PNG pictures, and
 * report_html_jobs.c runs that on several threads; report_html_model.c reads the levels of
 * detail of cooked meshes; report_html_chart.c draws the sizes by kind as inline SVG;
 * report_html_style.c is the style sheet; report_html_buf.c holds the string, escaping and file
 * helpers; report_html_png.c writes PNG files through libspng, opened on first use (kiln loads
 * no image library at start-up); report_html_thumb.c is where pictures of models come from (none
 * until kiln has a renderer). Public API only (the kiln/ headers). */
#ifndef KILN_TOOLS_REPORT_HTML_H
#define KILN_TOOLS_REPORT_HTML_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* Fills err (may be NULL) with code and the message; returns code. */
kiln_result rh_error(kiln_error *err, kiln_result code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads a whole file into *data (free with free). Errors: KILN_E_ASSET_IO, KILN_E_LIMIT (above
 * 2 GiB), KILN_E_OUT_OF_MEMORY. */
kiln_result rh_read_file(const char *path, uint8_t **data, size_t *size, kiln_error *err);

/* ---- the page as it is built: a growing string, failure sticky ------------------------------ */

typedef struct rh_buf {
    char *data;
    size_t size, cap;
    bool failed; /* out of memory once: every later append is dropped */
} rh_buf;

void rh_puts(rh_buf *b, const char *s);
void rh_printf(rh_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as HTML text or a quoted attribute value (& < > " ' escaped). */
void rh_escape(rh_buf *b, const char *s);
/* s as part of a relative URL: everything but unreserved characters and '/' percent-encoded. */
void rh_url(rh_buf *b, const char *s);
void rh_buf_free(rh_buf *b);

/* ---- PNG files (report_html_png.c) ---------------------------------------------------------- */

typedef struct rh_png rh_png; /* libspng's encoder, loaded on first use; owned by the report */

/* Opens libspng into *png unless it is open (KILN_E_IMPORT_UNSUPPORTED, naming it, when it is
 * not installed). Once open, rh_png_write may be called from several threads at once. */
kiln_result rh_png_open(rh_png **png, kiln_error *err);
/* Writes rgba (w * h * 4 bytes, top row first) to path as an 8-bit RGBA PNG; the same pixels
 * give the same bytes. *png is opened on the first call (KILN_E_IMPORT_UNSUPPORTED when libspng
 * is not installed, naming it) and closed by rh_png_close. */
kiln_result rh_png_write(rh_png **png, const char *path, const uint8_t *rgba, uint32_t w,
                         uint32_t h, kiln_error *err);
void rh_png_close(rh_png *png); /* NULL is a no-op */

/* ---- textures (report_html_texture.c) ------------------------------------------------------- */

#define RH_PICTURE_MAX 256 /* pictures are box-filtered down to at most this many pixels a side */

typedef struct rh_level {
    uint32_t width, height;         /* of the level */
    uint32_t pic_width, pic_height; /* of its picture (smaller when the level is larger than 256) */
    size_t size;                    /* bytes stored in the file */
    char file[64]; /* the picture's file name in the images folder; "" when not written */
} rh_level;

typedef struct rh_texture {
    uint32_t vk_format;
    char format[32]; /* "bc7 sRGB" */
    uint32_t level_count;
    rh_level levels[KILN_KTX2_MAX_LEVELS];
    bool hdr; /* RGBA16F: the pictures are tone-mapped (Reinhard) */
} rh_texture;

/* Reads the KTX2 file at path and writes a picture of each level into dir as
 * <stem>-l<level>.png (decoded on the CPU: kiln_transcode_rgba8, RGBA16F through
 * kiln_transcode_rgba16f_srgb8). Errors: those of the readers and of the PNG writer. */
kiln_result rh_texture_pictures(rh_png **png, const char *path, const char *dir, const char *stem,
                                rh_texture *out, kiln_error *err);

/* ---- the picture pass (report_html_jobs.c) -------------------------------------------------- */

#define RH_MAX_THREADS 64

/* One KTX2 artifact to draw: what the first walk over the assets decides, what the pass finds. */
typedef struct rh_job {
    char ktx2[PATH_MAX + 256]; /* the file in its entry */
    char stem[32];             /* the pictures' names: <stem>-l<level>.png */
    bool psnr;                 /* level 0's PSNR is to be measured against source */
    char source[PATH_MAX];
    char psnr_text[300]; /* the PSNR, or why there is none */
    rh_texture t;        /* results: the levels and their pictures */
    kiln_result r;
    kiln_error err;
} rh_job;

/* Draws every job's pictures into dir and measures the PSNRs it plans, on up to `threads`
 * threads (the calling one among them). *png is opened first (its failure becomes each job's
 * error). Each job's r, err, t and psnr_text say what came of it. */
void rh_jobs_run(rh_job *jobs, size_t count, rh_png **png, const char *dir, unsigned threads);

/* ---- models (report_html_model.c) ----------------------------------------------------------- */

typedef struct rh_mesh {
    uint32_t vertex_count, level_count;
    uint32_t triangles[KILN_MESH_MAX_LEVELS];
    float error[KILN_MESH_MAX_LEVELS];          /* relative to the extent */
    float error_absolute[KILN_MESH_MAX_LEVELS]; /* model units */
    float extent;
    size_t size; /* bytes of the cooked file */
} rh_mesh;

/* The levels of detail of the cooked mesh file at path (kiln_mesh_read). */
kiln_result rh_mesh_levels(const char *path, rh_mesh *out, kiln_error *err);

/* ---- sizes by kind (report_html_chart.c) ---------------------------------------------------- */

typedef struct rh_kind_size {
    const char *kind; /* "texture", "mesh", ... (static strings) */
    uint64_t bytes;
    size_t count;
} rh_kind_size;

/* A horizontal bar chart of rows (sorted here: largest first, then by name) as inline SVG. */
void rh_chart_sizes(rh_buf *b, rh_kind_size *rows, size_t count);

/* ---- the stale reasons, as `kiln report --why` words them (cmd_report.c) --------------------- */

void kiln_report_print_reason(FILE *out, const char *path, const json_t *reason);

/* ---- the style sheet (report_html_style.c) ------------------------------------------------- */

extern const char rh_style[]; /* "<style>...</style>\n" */

/* ---- the page (report_html.c) ---------------------------------------------------------------- */

/* Writes the page for the report document doc (of every asset) to out_path and its pictures to
 * <out_path>.d/. Prints errors on stderr; returns an exit status. */
int kiln_report_html(const kiln_cli *c, const char *doc, const char *out_path);

#endif
