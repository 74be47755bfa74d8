/* report_html.c — `kiln report --html`: the report document as one static page. Everything in it
 * comes from the report (states, keys, summaries, warnings, why an asset is stale) and from the
 * cooked files of each asset's entry (cache/objects/<kk>/<key>/, docs/cache.md), read through the
 * public readers: textures as pictures of every level, meshes as their levels of detail. The
 * pictures go into a folder beside the page (<page>.d/): a page of inline data: URIs would be a
 * third larger than its pictures and parsed as one string, where files load lazily and keep the
 * page small enough to read and diff. Assets, kinds and problems are sorted, and nothing depends
 * on the time or on the folder the project is in, so the same project gives the same bytes. */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_html.h"
#include "report_html_thumb.h"

/* Pixels of the thumbnail box and of a level of detail's picture on the page; model pictures are
 * asked for at twice that, for screens of two device pixels per CSS pixel. */
#define RH_THUMB   128
#define RH_LOD_PIC 96

/* ---- the page ------------------------------------------------------------------------------- */

typedef struct rh_page {
    json_t *doc;
    rh_buf b;
    rh_png *png;
    char dir[PATH_MAX];     /* the pictures folder on disk */
    const char *href;       /* the same, relative to the page (its base name + ".d") */
    const char *cache;      /* the cache folder */
    rh_kind_size kinds[16]; /* artifact_kind gives fewer than 16 */
    size_t kind_count;
    size_t pictures; /* written */
    /* The pictures are made between two walks over the assets: the first (planning) lists the
     * jobs, the pictures are drawn on every thread, the second walk writes the page. */
    bool planning;
    rh_job *jobs;
    size_t job_count, job_cap, job_next; /* job_next: the second walk's place in jobs */
    report_thumbs *thumbs;               /* the model pictures' renderer, made on first use */
} rh_page;

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static long long int_of(const json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

/* The kind of an artifact, from its label ("image3/normal", "mesh0/prim1", "clip2", "texture"):
 * a static string, for the chart. */
static const char *artifact_kind(const char *label)
{
    static const struct {
        const char *prefix, *kind;
    } k[] = {{"image", "texture"},     {"texture", "texture"},   {"mesh", "mesh"},
             {"material", "material"}, {"skeleton", "skeleton"}, {"clip", "clip"},
             {"scene", "scene"},       {"shader", "shader"},     {"vgeo", "vgeo"}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strncmp(label, k[i].prefix, strlen(k[i].prefix))) return k[i].kind;
    return "other";
}

static void count_kind(rh_page *pg, const char *kind, uint64_t bytes)
{
    size_t i = 0;
    while (i < pg->kind_count && strcmp(pg->kinds[i].kind, kind) != 0) i++;
    if (i == pg->kind_count) {
        if (pg->kind_count == sizeof pg->kinds / sizeof pg->kinds[0]) return;
        pg->kinds[pg->kind_count++] = (rh_kind_size){.kind = kind};
    }
    pg->kinds[i].bytes += bytes;
    pg->kinds[i].count++;
}

/* The entry folder of key in the cache (docs/cache.md: objects/<first two digits>/<key>). */
static void entry_dir(const rh_page *pg, const char *key, char *out, size_t cap)
{
    snprintf(out, cap, "%s/objects/%.2s/%s", pg->cache, key, key);
}

/* What the page shows of an asset: its current entry (up_to_date: the report's outputs and
 * summary), or for a stale asset the entry of its last import when the cache still holds it
 * (its manifest.json). NULL: nothing to show. *old says which. A new reference. */
static json_t *shown_entry(rh_page *pg, const json_t *row, char *dir, size_t cap, bool *old)
{
    const char *state = str_of(row, "state");
    *old = false;
    if (!strcmp(state, "up_to_date") && json_object_get(row, "outputs")) {
        entry_dir(pg, str_of(row, "key"), dir, cap);
        json_t *e = json_object();
        json_object_set(e, "outputs", json_object_get(row, "outputs"));
        if (json_object_get(row, "summary"))
            json_object_set(e, "summary", json_object_get(row, "summary"));
        return e;
    }
    const char *key = str_of(row, "imported_key");
    if (strcmp(state, "stale") != 0 || strlen(key) != 64) return NULL;
    entry_dir(pg, key, dir, cap);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    json_t *m = json_load_file(path, 0, NULL);
    if (!json_is_array(json_object_get(m, "outputs"))) {
        json_decref(m);
        return NULL;
    }
    *old = true;
    return m;
}

/* The source file of an asset (for the PSNR): root/path, or with several roots the folder of its
 * name's prefix. */
static bool source_path(const rh_page *pg, const char *asset, char *out, size_t cap)
{
    json_t *roots = json_object_get(pg->doc, "roots");
    if (!roots) {
        snprintf(out, cap, "%s/%s", str_of(pg->doc, "root"), asset);
        return true;
    }
    const char *slash = strchr(asset, '/');
    if (!slash) return false;
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(slash - asset), asset);
    const char *dir = json_string_value(json_object_get(roots, prefix));
    if (!dir) return false;
    snprintf(out, cap, "%s/%s", dir, slash + 1);
    return true;
}

/* Whether level 0's PSNR against the source can be measured: only for 8-bit sources of the
 * texture's size (job->source then names the source), else job->psnr_text says why not. */
static void psnr_plan(const rh_page *pg, const char *asset, const json_t *summary, rh_job *job)
{
    const json_t *src = json_object_get(summary, "source");
    job->psnr = false;
    const char *type = str_of(src, "type");
    if (strcmp(type, "u8") != 0)
        snprintf(job->psnr_text, sizeof job->psnr_text, "PSNR not measured: a %s source",
                 !strcmp(type, "u16")   ? "16-bit"
                 : !strcmp(type, "f32") ? "float"
                                        : "non-8-bit");
    else if (int_of(src, "width") != int_of(summary, "width") ||
             int_of(src, "height") != int_of(summary, "height"))
        snprintf(job->psnr_text, sizeof job->psnr_text,
                 "PSNR not measured: the source was resized (%lldx%lld)", int_of(src, "width"),
                 int_of(src, "height"));
    else if (!source_path(pg, asset, job->source, sizeof job->source))
        snprintf(job->psnr_text, sizeof job->psnr_text, "PSNR not measured: no source");
    else job->psnr = true;
}

/* The picture file name of an artifact: its asset id (kiln_asset_id, unique per artifact). */
static void stem_of(const json_t *row, const char *label, char *out, size_t cap)
{
    snprintf(out, cap, "%016llx", (unsigned long long)kiln_asset_id(str_of(row, "guid"), label));
}

static void img(rh_page *pg, const char *file, uint32_t w, uint32_t h, const char *cls,
                const char *alt)
{
    rh_printf(&pg->b, "<img class=\"%s\" src=\"", cls);
    rh_url(&pg->b, pg->href);
    rh_puts(&pg->b, "/");
    rh_url(&pg->b, file);
    rh_printf(&pg->b, "\" width=\"%u\" height=\"%u\" alt=\"", w, h);
    rh_escape(&pg->b, alt);
    rh_puts(&pg->b, "\" loading=\"lazy\">");
}

/* The display size of a picture in a box of side `box`: its aspect kept, never enlarged past
 * 4x (small mip levels are drawn pixelated, not blurred). */
static void fit(uint32_t w, uint32_t h, uint32_t box, uint32_t *dw, uint32_t *dh)
{
    uint32_t side = w > h ? w : h;
    double s = (double)box / side;
    if (s > 4.0) s = 4.0;
    *dw = (uint32_t)(w * s + 0.5) ? (uint32_t)(w * s + 0.5) : 1;
    *dh = (uint32_t)(h * s + 0.5) ? (uint32_t)(h * s + 0.5) : 1;
}

static void placeholder(rh_buf *b, const char *kind, const char *text)
{
    rh_puts(b, "<div class=\"ph\"><span class=\"ph-kind\">");
    rh_escape(b, kind);
    rh_puts(b, "</span><span class=\"ph-text\">");
    rh_escape(b, text);
    rh_puts(b, "</span></div>");
}

static void problem(rh_buf *b, const char *cls, const char *text)
{
    rh_printf(b, "<li class=\"%s\">", cls);
    rh_escape(b, text);
    rh_puts(b, "</li>\n");
}

/* The mip chain of a texture: one line for the format, levels and PSNR, then a figure per level
 * with its size and bytes. */
static void mip_chain(rh_page *pg, const rh_texture *t, const char *psnr_text)
{
    rh_printf(&pg->b, "<p class=\"chain\"><b>%s</b> · %u level%s", t->format, t->level_count,
              t->level_count == 1 ? "" : "s");
    if (t->hdr) rh_puts(&pg->b, " · pictures tone-mapped (Reinhard)");
    rh_puts(&pg->b, " · ");
    rh_escape(&pg->b, psnr_text);
    rh_puts(&pg->b, "</p>\n<div class=\"mips\">\n");
    for (uint32_t l = 0; l < t->level_count; l++) {
        const rh_level *lv = &t->levels[l];
        char size[32], alt[64];
        uint32_t box = RH_THUMB >> (l < 4 ? l : 4), dw, dh;
        if (box < 16) box = 16;
        fit(lv->width, lv->height, box, &dw, &dh);
        rh_puts(&pg->b, "<figure class=\"mip\"><div class=\"pic checker\">");
        snprintf(alt, sizeof alt, "level %u", l);
        if (lv->file[0]) img(pg, lv->file, dw, dh, "px", alt);
        rh_printf(&pg->b, "</div><figcaption><b>L%u</b> %u×%u<br>%s</figcaption></figure>\n", l,
                  lv->width, lv->height, kiln_cli_format_size(lv->size, size));
    }
    rh_puts(&pg->b, "</div>\n");
}

/* Pictures and mip chain of one KTX2 artifact, in two passes: the first (pg->planning) adds a
 * job and writes nothing, the second takes the jobs' results in the same order. The texture's
 * levels in *t (for a thumbnail); false when there are none. */
static bool texture_artifact(rh_page *pg, const json_t *row, const json_t *out, const char *dir,
                             const json_t *summary, bool psnr, rh_texture *t, rh_buf *problems)
{
    memset(t, 0, sizeof *t);
    if (pg->planning) {
        if (pg->job_count == pg->job_cap) {
            size_t cap = pg->job_cap ? 2 * pg->job_cap : 64;
            rh_job *jobs = realloc(pg->jobs, cap * sizeof *jobs);
            if (!jobs) {
                pg->b.failed = true;
                return false;
            }
            pg->jobs = jobs;
            pg->job_cap = cap;
        }
        rh_job *job = &pg->jobs[pg->job_count++];
        memset(job, 0, sizeof *job);
        snprintf(job->ktx2, sizeof job->ktx2, "%s/%s", dir, str_of(out, "file"));
        stem_of(row, str_of(out, "label"), job->stem, sizeof job->stem);
        if (psnr) psnr_plan(pg, str_of(row, "path"), summary, job);
        else snprintf(job->psnr_text, sizeof job->psnr_text, "PSNR: not recorded by the cook");
        return false;
    }
    assert(pg->job_next < pg->job_count); /* the second pass walks as the first did */
    if (pg->job_next >= pg->job_count) return false;
    rh_job *job = &pg->jobs[pg->job_next++];
    *t = job->t;
    if (job->r != KILN_OK) {
        char text[400];
        snprintf(text, sizeof text, "%s: no pictures: %s (kiln cache verify checks the entry)",
                 str_of(out, "label"), job->err.message);
        problem(problems, "err", text);
        return false;
    }
    pg->pictures += t->level_count;
    mip_chain(pg, t, job->psnr_text);
    return true;
}

/* The levels of detail of each mesh of a model: a column per level, each with a picture slot,
 * its triangles and error. */
static void lod_table(rh_page *pg, const json_t *row, const json_t *outputs, const char *dir,
                      rh_buf *problems)
{
    size_t i;
    const json_t *out;
    bool any = false;
    json_array_foreach (outputs, i, out) {
        const char *label = str_of(out, "label");
        if (strcmp(artifact_kind(label), "mesh") != 0) continue;
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, str_of(out, "file"));
        rh_mesh m;
        kiln_error err;
        if (rh_mesh_levels(path, &m, &err) != KILN_OK) {
            char text[400];
            snprintf(text, sizeof text, "%s: %s", label, err.message);
            problem(problems, "err", text);
            continue;
        }
        if (!any) rh_puts(&pg->b, "<div class=\"lods\">\n");
        any = true;
        char size[32];
        rh_puts(&pg->b, "<div><p class=\"mesh\">");
        rh_escape(&pg->b, label);
        rh_printf(&pg->b,
                  " <span class=\"dim\">%u vertices · %s</span></p>\n"
                  "<table class=\"lod\"><tr>",
                  m.vertex_count, kiln_cli_format_size(m.size, size));
        for (uint32_t l = 0; l < m.level_count; l++) {
            char png[PATH_MAX + 64], file[64], stem[32];
            stem_of(row, label, stem, sizeof stem);
            snprintf(file, sizeof file, "%s-lod%u.png", stem, l);
            snprintf(png, sizeof png, "%s/%s", pg->dir, file);
            report_thumb_request rq = {
                .entry_dir = dir,
                .asset = str_of(row, "path"),
                .label = label,
                .file = str_of(out, "file"),
                .lod = l,
                .size = 2 * RH_LOD_PIC,
                .png_path = png,
            };
            const char *got =
                pg->planning ? "none" : report_model_thumbnail(&pg->thumbs, &rq, &err);
            rh_puts(&pg->b, "<td><div class=\"pic small\">");
            if (got && !strcmp(got, "png")) {
                char alt[96];
                snprintf(alt, sizeof alt, "%s LOD %u", label, l);
                img(pg, file, RH_LOD_PIC, RH_LOD_PIC, "", alt);
                pg->pictures++;
            } else {
                placeholder(&pg->b, "", got ? "no picture: no renderer" : err.message);
            }
            rh_printf(&pg->b,
                      "</div><b>LOD %u</b><br>%u triangles<br><span class=\"dim\">error %.3g%%"
                      " (%.3g)</span></td>",
                      l, m.triangles[l], 100.0 * m.error[l], m.error_absolute[l]);
        }
        rh_puts(&pg->b, "</tr></table></div>\n");
    }
    if (any) rh_puts(&pg->b, "</div>\n");
}

/* One asset: thumbnail, name, badges, summary, and the details of its kind. */
static void asset_card(rh_page *pg, const json_t *row, size_t n, rh_buf *problems, rh_buf *contents)
{
    const char *path = str_of(row, "path"), *kind = str_of(row, "kind");
    const char *state = str_of(row, "state");
    char dir[PATH_MAX], summary_text[256] = "";
    bool old = false;
    json_t *entry = shown_entry(pg, row, dir, sizeof dir, &old);
    const json_t *outputs = json_object_get(entry, "outputs");
    const json_t *summary = json_object_get(entry, "summary");
    kiln_cli_summary_text(json_is_object(summary) ? summary : NULL, true, summary_text,
                          sizeof summary_text);
    uint64_t bytes = 0;
    size_t i;
    const json_t *out;
    json_array_foreach (outputs, i, out) {
        bytes += (uint64_t)int_of(out, "size");
        if (!old)
            count_kind(pg, artifact_kind(str_of(out, "label")), (uint64_t)int_of(out, "size"));
    }

    char size[32];
    rh_printf(contents, "<tr><td><a href=\"#a%zu\">", n);
    rh_escape(contents, path);
    rh_puts(contents, "</a></td><td>");
    rh_escape(contents, kind);
    rh_printf(contents, "</td><td><span class=\"badge st s-%s\">%s</span></td><td>", state, state);
    rh_escape(contents, summary_text);
    rh_printf(contents, "</td><td class=\"num\">%s</td></tr>\n",
              outputs ? kiln_cli_format_size(bytes, size) : "");

    rh_printf(&pg->b, "<article class=\"asset s-%s\" id=\"a%zu\">\n", state, n);
    /* The details are built first: the texture's level 0 picture is its thumbnail. */
    rh_buf saved = pg->b;
    pg->b = (rh_buf){0};
    rh_texture t = {0};
    bool have_texture = false;
    if (!strcmp(kind, "texture")) {
        json_array_foreach (outputs, i, out)
            if (!have_texture && strstr(str_of(out, "file"), ".ktx2"))
                have_texture = texture_artifact(pg, row, out, dir, summary, !old, &t, problems);
    } else if (!strcmp(kind, "model") && outputs) {
        lod_table(pg, row, outputs, dir, problems);
        size_t images = 0;
        json_array_foreach (outputs, i, out)
            if (!strncmp(str_of(out, "label"), "image", 5)) images++;
        if (images) {
            rh_printf(&pg->b, "<details><summary>%zu texture%s</summary>\n", images,
                      images == 1 ? "" : "s");
            json_array_foreach (outputs, i, out) {
                if (strncmp(str_of(out, "label"), "image", 5) != 0) continue;
                rh_texture it;
                rh_puts(&pg->b, "<div class=\"image\"><h4>");
                rh_escape(&pg->b, str_of(out, "label"));
                /* Its role (color, normal, linear) from the model's summary. */
                size_t k;
                const json_t *im;
                json_array_foreach (json_object_get(summary, "images"), k, im)
                    if (!strcmp(str_of(im, "label"), str_of(out, "label"))) {
                        rh_puts(&pg->b, " <span class=\"dim\">");
                        rh_escape(&pg->b, str_of(im, "role"));
                        rh_puts(&pg->b, "</span>");
                    }
                rh_puts(&pg->b, "</h4>\n");
                texture_artifact(pg, row, out, dir, summary, false, &it, problems);
                rh_puts(&pg->b, "</div>\n");
            }
            rh_puts(&pg->b, "</details>\n");
        }
    }
    rh_buf details = pg->b;
    pg->b = saved;
    if (details.failed) pg->b.failed = true;

    rh_puts(&pg->b, "<div class=\"thumb\">");
    if (have_texture && t.levels[0].file[0]) {
        uint32_t dw, dh;
        fit(t.levels[0].width, t.levels[0].height, RH_THUMB, &dw, &dh);
        rh_puts(&pg->b, "<div class=\"pic checker\">");
        img(pg, t.levels[0].file, dw, dh, "px", path);
        rh_puts(&pg->b, "</div>");
    } else if (!strcmp(kind, "model") && entry) {
        char file[64], stem[32], png[PATH_MAX + 64];
        kiln_error err;
        stem_of(row, "scene", stem, sizeof stem);
        snprintf(file, sizeof file, "%s-scene.png", stem);
        snprintf(png, sizeof png, "%s/%s", pg->dir, file);
        report_thumb_request rq = {.entry_dir = dir,
                                   .asset = path,
                                   .label = "scene",
                                   .file = "scene.kscene",
                                   .size = 2 * RH_THUMB,
                                   .png_path = png};
        const char *got = pg->planning ? "none" : report_model_thumbnail(&pg->thumbs, &rq, &err);
        if (got && !strcmp(got, "png")) {
            rh_puts(&pg->b, "<div class=\"pic\">");
            img(pg, file, RH_THUMB, RH_THUMB, "", path);
            rh_puts(&pg->b, "</div>");
            pg->pictures++;
        } else {
            rh_puts(&pg->b, "<div class=\"pic\">");
            placeholder(&pg->b, kind,
                        got ? "no picture: kiln built without its renderer" : err.message);
            rh_puts(&pg->b, "</div>");
        }
    } else {
        rh_puts(&pg->b, "<div class=\"pic\">");
        placeholder(&pg->b, kind[0] ? kind : "?", entry ? "no picture" : "nothing cooked");
        rh_puts(&pg->b, "</div>");
    }
    rh_puts(&pg->b, "</div>\n<div class=\"body\">\n<h3><a href=\"#a");
    rh_printf(&pg->b, "%zu\">", n);
    rh_escape(&pg->b, path);
    rh_puts(&pg->b, "</a> <span class=\"badge kind\">");
    rh_escape(&pg->b, kind);
    rh_printf(&pg->b, "</span> <span class=\"badge st s-%s\">", state);
    rh_escape(&pg->b, state);
    rh_puts(&pg->b, "</span></h3>\n<p class=\"sum\">");
    rh_escape(&pg->b, summary_text);
    if (outputs) {
        rh_printf(&pg->b, "%s%zu artifact%s, %s", summary_text[0] ? " · " : "",
                  json_array_size(outputs), json_array_size(outputs) == 1 ? "" : "s",
                  kiln_cli_format_size(bytes, size));
    }
    rh_puts(&pg->b, "</p>\n");
    if (old)
        rh_puts(&pg->b, "<p class=\"note stale\">Stale: shown as of its last import; "
                        "<code>kiln import</code> brings it up to date.</p>\n");
    if (problems->size) {
        rh_puts(&pg->b, "<ul class=\"problems\">\n");
        rh_puts(&pg->b, problems->data);
        rh_puts(&pg->b, "</ul>\n");
    }
    if (details.data) rh_puts(&pg->b, details.data);
    rh_buf_free(&details);
    rh_puts(&pg->b, "</div>\n</article>\n");
    json_decref(entry);
}

/* What is wrong with an asset, one <li> each: its error, damage, why it is stale, warnings. */
static void asset_problems(const json_t *row, rh_buf *p)
{
    const char *state = str_of(row, "state");
    const json_t *e = json_object_get(row, "error");
    if (e) {
        char text[1024];
        snprintf(text, sizeof text, "%s %s", str_of(e, "code"), str_of(e, "message"));
        problem(p, "err", text);
    }
    if (json_object_get(row, "damage")) problem(p, "err", str_of(row, "damage"));
    if (!strcmp(state, "not_imported")) problem(p, "stale", "not imported yet");
    size_t i;
    const json_t *r;
    json_array_foreach (json_object_get(row, "why"), i, r) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) continue;
        kiln_report_print_reason(f, "", r);
        fclose(f);
        /* kiln_report_print_reason writes "<path>: reason\n"; the path is the card's. */
        if (len && text[len - 1] == '\n') text[len - 1] = '\0';
        problem(p, "stale", text[0] == ':' ? text + 2 : text);
        free(text);
    }
    const json_t *w;
    json_array_foreach (json_object_get(row, "warnings"), i, w)
        problem(p, "warn", json_string_value(w) ? json_string_value(w) : "?");
}

/* One walk over the assets: their cards into pg->b, each one's problems into lists[i] (those the
 * report names, then those its pictures met), a row each into contents. */
static void walk(rh_page *pg, json_t **rows, rh_buf *lists, size_t count, rh_buf *contents)
{
    pg->job_next = 0;
    for (size_t i = 0; i < count; i++) {
        asset_problems(rows[i], &lists[i]);
        rh_buf card_problems = {0};
        if (lists[i].data) rh_puts(&card_problems, lists[i].data);
        asset_card(pg, rows[i], i, &card_problems, contents);
        if (card_problems.size > lists[i].size)
            rh_puts(&lists[i], card_problems.data + lists[i].size);
        rh_buf_free(&card_problems);
    }
    if (!count) rh_puts(&pg->b, "<p>No assets under the root.</p>\n");
}

/* Forgets what a planning walk wrote (its jobs stay). */
static void walk_reset(rh_page *pg, rh_buf *lists, size_t count, rh_buf *contents)
{
    bool failed = pg->b.failed;
    rh_buf_free(&pg->b);
    pg->b.failed = failed;
    for (size_t i = 0; i < count; i++) rh_buf_free(&lists[i]);
    rh_buf_free(contents);
    pg->kind_count = 0;
    pg->pictures = 0;
}

static int by_path(const void *a, const void *b)
{
    const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
    return strcmp(str_of(x, "path"), str_of(y, "path"));
}

static void page_head(rh_page *pg, size_t count)
{
    const json_t *t = json_object_get(pg->doc, "totals");
    char size[32];
    const char *platform = json_string_value(json_object_get(pg->doc, "platform"));
    rh_puts(&pg->b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n");
    rh_printf(&pg->b, "<title>kiln report · %zu assets</title>\n", count);
    rh_puts(&pg->b, rh_style);
    rh_puts(&pg->b, "</head>\n<body>\n<header>\n<h1><span>kiln</span> report</h1>\n<p>");
    rh_printf(&pg->b, "%zu assets · platform ", count);
    rh_escape(&pg->b, platform ? platform : "default");
    rh_printf(
        &pg->b, " · cache %s</p>\n<div class=\"chips\">",
        kiln_cli_format_size((uint64_t)int_of(json_object_get(pg->doc, "cache"), "size"), size));
    static const char *const states[] = {"up_to_date", "stale",       "not_imported",
                                         "invalid",    "unsupported", "damaged"};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        const json_t *v = json_object_get(t, states[i]);
        if (!v || (i >= 4 && !json_integer_value(v))) continue;
        rh_printf(&pg->b, "<span class=\"chip s-%s%s\"><b>%lld</b>%s</span>", states[i],
                  json_integer_value(v) ? "" : " zero", json_integer_value(v), states[i]);
    }
    rh_puts(&pg->b, "</div>\n</header>\n<main>\n");
}

/* The table of every asset that is not up to date or has something to say. */
static void problems_section(rh_page *pg, json_t **rows, rh_buf *lists, size_t count)
{
    rh_puts(&pg->b, "<h2 id=\"problems\">Warnings, errors and stale assets</h2>\n"
                    "<section class=\"panel\">\n");
    size_t shown = 0;
    for (size_t i = 0; i < count; i++) {
        if (!lists[i].size) continue;
        if (!shown++)
            rh_puts(&pg->b, "<table class=\"list\"><tr><th>asset</th><th>state</th>"
                            "<th>what</th></tr>\n");
        rh_printf(&pg->b, "<tr><td><a href=\"#a%zu\">", i);
        rh_escape(&pg->b, str_of(rows[i], "path"));
        rh_printf(&pg->b,
                  "</a></td><td><span class=\"badge st s-%s\">%s</span></td><td><ul "
                  "class=\"problems\">\n%s</ul></td></tr>\n",
                  str_of(rows[i], "state"), str_of(rows[i], "state"), lists[i].data);
    }
    if (shown) rh_puts(&pg->b, "</table>\n");
    else rh_puts(&pg->b, "<p>None: every asset is up to date and its cook said nothing.</p>\n");
    rh_puts(&pg->b, "</section>\n");
}

/* Writes the pictures folder afresh: the report's own pictures from an earlier run are removed
 * (names of 16 hex digits, a suffix, .png), anything else is left alone. */
static kiln_result prepare_dir(const char *dir, kiln_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return rh_error(err, KILN_E_ASSET_IO, "cannot create %s: %s", dir, strerror(errno));
    DIR *d = opendir(dir);
    if (!d) return rh_error(err, KILN_E_ASSET_IO, "cannot read %s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        size_t len = strlen(n), hex = strspn(n, "0123456789abcdef");
        if (hex == 16 && n[16] == '-' && len > 21 && !strcmp(n + len - 4, ".png")) {
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", dir, n);
            unlink(path);
        }
    }
    closedir(d);
    return KILN_OK;
}

int kiln_report_html(const kiln_cli *c, const char *doc, const char *out_path)
{
    rh_page pg = {0};
    kiln_error err;
    pg.doc = json_loads(doc, 0, NULL);
    pg.cache = str_of(json_object_get(pg.doc, "cache"), "path");
    snprintf(pg.dir, sizeof pg.dir, "%s.d", out_path);
    const char *base = strrchr(pg.dir, '/');
    pg.href = base ? base + 1 : pg.dir;
    if (prepare_dir(pg.dir, &err) != KILN_OK) {
        json_decref(pg.doc);
        return kiln_cli_fail(c, err.code, &err);
    }
    const json_t *assets = json_object_get(pg.doc, "assets");
    size_t count = json_array_size(assets);
    json_t **rows = calloc(count ? count : 1, sizeof *rows);
    rh_buf *lists = calloc(count ? count : 1, sizeof *lists);
    if (!rows || !lists) {
        free(rows);
        free(lists);
        json_decref(pg.doc);
        rh_error(&err, KILN_E_OUT_OF_MEMORY, "out of memory");
        return kiln_cli_fail(c, err.code, &err);
    }
    for (size_t i = 0; i < count; i++) rows[i] = json_array_get(assets, i);
    qsort(rows, count, sizeof *rows, by_path);

    page_head(&pg, count);
    /* The cards come first into their own buffer: they fill the kind sizes and the problems
     * that the sections above them show. */
    rh_buf head = pg.b;
    pg.b = (rh_buf){0};
    rh_buf contents = {0};
    pg.planning = true;
    walk(&pg, rows, lists, count, &contents);
    walk_reset(&pg, lists, count, &contents);
    unsigned threads = c->jobs;
    if (!threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1;
    }
    rh_jobs_run(pg.jobs, pg.job_count, &pg.png, pg.dir, threads);
    pg.planning = false;
    walk(&pg, rows, lists, count, &contents);
    report_thumbs_close(pg.thumbs);
    pg.thumbs = NULL;
    rh_buf cards = pg.b;
    pg.b = head;
    if (cards.failed) pg.b.failed = true;

    rh_puts(&pg.b, "<h2 id=\"sizes\">Cooked size by kind</h2>\n<section class=\"panel\">\n");
    if (pg.kind_count) rh_chart_sizes(&pg.b, pg.kinds, pg.kind_count);
    else rh_puts(&pg.b, "<p>Nothing is cooked yet.</p>\n");
    rh_puts(&pg.b, "<p class=\"dim\">Bytes of the artifacts of up-to-date assets, by kind "
                   "(a model's images count as textures) · number of artifacts · share.</p>\n"
                   "</section>\n");
    problems_section(&pg, rows, lists, count);
    rh_puts(&pg.b, "<h2 id=\"assets\">Assets</h2>\n");
    if (contents.data) {
        rh_puts(&pg.b, "<details class=\"panel\"><summary>All assets in a table</summary>\n"
                       "<table class=\"list\"><tr><th>asset</th><th>kind</th><th>state</th>"
                       "<th>cooked</th><th class=\"num\">size</th></tr>\n");
        rh_puts(&pg.b, contents.data);
        rh_puts(&pg.b, "</table>\n</details>\n");
    }
    if (contents.failed) pg.b.failed = true;
    rh_buf_free(&contents);
    if (cards.data) rh_puts(&pg.b, cards.data);
    rh_buf_free(&cards);
    rh_puts(&pg.b,
            "</main>\n<footer>\n<p>Pictures are the cooked textures decoded on the CPU by kiln's "
            "own decoders (what a GPU samples: sRGB bytes as stored, BC5 as red and green, "
            "RGBA16F tone-mapped with Reinhard), box-filtered to at most 256 pixels a side. "
            "Models have no pictures until kiln has a renderer. The cook records no PSNR: level "
            "0's is measured by this report against the source (as <code>kiln inspect "
            "--compare</code> does) for 8-bit sources of the texture's size; other levels have "
            "none. Mesh errors are the simplifier's, relative to the mesh's extent (in model "
            "units in brackets).</p>\n");
    uint32_t v = kiln_version();
    rh_printf(&pg.b, "<p>kiln %u.%u.%u</p>\n</footer>\n</body>\n</html>\n", v / 10000,
              v / 100 % 100, v % 100);

    int code = KILN_EXIT_OK;
    for (size_t i = 0; i < count; i++)
        if (lists[i].failed) pg.b.failed = true;
    if (pg.b.failed) {
        rh_error(&err, KILN_E_OUT_OF_MEMORY, "out of memory writing the page");
        code = kiln_cli_fail(c, err.code, &err);
    } else {
        FILE *f = fopen(out_path, "wb");
        bool ok = f && fwrite(pg.b.data, 1, pg.b.size, f) == pg.b.size;
        if (f && fclose(f) != 0) ok = false;
        if (!ok) {
            rh_error(&err, KILN_E_ASSET_IO, "cannot write %s", out_path);
            code = kiln_cli_fail(c, err.code, &err);
        } else if (!c->json && !c->quiet) {
            printf("wrote %s (%zu assets) and %zu pictures in %s/\n", out_path, count, pg.pictures,
                   pg.dir);
        }
    }
    for (size_t i = 0; i < count; i++) rh_buf_free(&lists[i]);
    free(lists);
    free(rows);
    rh_buf_free(&pg.b);
    rh_png_close(pg.png);
    free(pg.jobs);
    json_decref(pg.doc);
    return code;
}
