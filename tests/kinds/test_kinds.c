/* test_kinds.c — a source kind registered through the public API (kiln_kind.h): a ".note" file of
 * numbers, cooked into two containers of its own cooked kind ("NOTE": the numbers times the
 * setting `scale`, and "note/extra" with their count) where the first refers to the second by
 * asset id (a note starting "#GUID " refers instead to the "note" of the asset with that GUID);
 * kiln_inspect_file and the command's text printer (tools/kiln, linked in) show what the kind's
 * describe() says. */
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inspect_text.h"
#include "kiln/kiln.h"
#include "kiln/kiln_kind.h"
#include "support.h"

#define NOTE_KIND   KILN_FOURCC('N', 'O', 'T', 'E')
#define NOTE_VALUES KILN_FOURCC('V', 'A', 'L', 'S')
#define NOTE_LINK   KILN_FOURCC('L', 'I', 'N', 'K')

typedef struct note_view {
    const float *values;
    uint64_t count;
    uint64_t link;
} note_view;

static kiln_result note_read(const void *data, size_t size, uint32_t flags, void *view,
                             kiln_error *err)
{
    kiln_container c;
    kiln_result r = kiln_container_read(data, size, flags, &c, err);
    if (r != KILN_OK) return r;
    note_view *v = view;
    memset(v, 0, sizeof *v);
    kiln_container_section s;
    if (kiln_container_find(&c, NOTE_VALUES, 4, &s)) {
        v->values = (const float *)(const void *)s.data;
        v->count = s.count;
    }
    if (kiln_container_find(&c, NOTE_LINK, 8, &s) && s.count == 1) memcpy(&v->link, s.data, 8);
    return KILN_OK;
}

static kiln_result note_refs(const void *view, kiln_ref_fn fn, void *user, kiln_error *err)
{
    const note_view *v = view;
    return v->link ? fn(user, v->link, NOTE_KIND, KILN_REF_LOAD, err) : KILN_OK;
}

/* What kiln inspect says about a note: its values, and what it links to. */
static void note_describe(const void *view, kiln_describe *d)
{
    const note_view *v = view;
    kiln_describe_int(d, "count", (int64_t)v->count);
    kiln_describe_floats(d, "values", v->values, (size_t)v->count);
    kiln_describe_object(d, "link");
    kiln_describe_bool(d, "present", v->link != 0);
    kiln_describe_string(d, "label", "note/extra", v->link ? 10 : 0);
    kiln_describe_end(d);
}

static const char *const note_labels[] = {"note", NULL};
static const kiln_cooked_kind note_cooked = {"note",    NOTE_KIND, note_labels,  sizeof(note_view),
                                             note_read, note_refs, note_describe};

static kiln_result note_cook(void *user, const kiln_cook_input *in, kiln_cook_output *out,
                             kiln_error *err)
{
    int *calls = user;
    __atomic_add_fetch(calls, 1, __ATOMIC_RELAXED);
    float values[64];
    size_t n = 0;
    char text[512];
    size_t len = in->size < sizeof text - 1 ? in->size : sizeof text - 1;
    memcpy(text, in->source, len);
    text[len] = 0;
    uint64_t link = kiln_asset_id(in->guid, "note/extra");
    char *start = text;
    if (text[0] == '#' && len > 33) { /* "#GUID ": another asset's note */
        text[33] = 0;
        link = kiln_asset_id(text + 1, "note");
        start = text + 34;
    }
    for (char *tok = strtok(start, " \n"); tok && n < 64; tok = strtok(NULL, " \n")) {
        char *end;
        char included[64] = "";
        if (tok[0] == '@') { /* "@path": the first number of that file (note_dependencies) */
            char *inc = kt_format("%s/%s", in->dir, tok + 1);
            FILE *f = fopen(inc, "rb");
            free(inc);
            size_t got = f ? fread(included, 1, sizeof included - 1, f) : 0;
            if (f) fclose(f);
            included[got] = 0;
            included[strcspn(included, " \n")] = 0;
            tok = included;
        }
        double d = strtod(tok, &end);
        if (*end) {
            return kiln_error_printf(err, KILN_E_IMPORT_FAILED, "%s: \"%s\" is not a number",
                                     in->path, tok);
        }
        values[n++] = (float)(d * in->settings[0].number);
    }
    uint32_t count = (uint32_t)n;
    kiln_section_desc main_sections[] = {{NOTE_VALUES, 4, n, values}, {NOTE_LINK, 8, 1, &link}};
    kiln_section_desc extra_sections[] = {{NOTE_VALUES, 4, 1, &(float){(float)count}}};
    kiln_result r = kiln_cook_output_add_container(out, "note", "note.knote", NOTE_KIND, 1,
                                                   main_sections, 2, err);
    if (r == KILN_OK)
        r = kiln_cook_output_add_container(out, "note/extra", "extra.knote", NOTE_KIND, 1,
                                           extra_sections, 1, err);
    if (r == KILN_OK) r = kiln_cook_output_summary(out, "values", (double)n);
    if (r == KILN_OK && !strcmp(in->settings[1].choice, "loud"))
        r = kiln_cook_output_warn(out, "loud notes");
    return r;
}

static const char *const mood_choices[] = {"quiet", "loud", NULL};
static const kiln_setting_field note_fields[] = {
    {"scale", KILN_SETTING_NUMBER, 0.0, 100.0, NULL, 1.0, NULL, "multiplies every value"},
    {"mood", KILN_SETTING_CHOICE, 0, 0, mood_choices, 0, "quiet", "loud warns"},
};
static const char *const note_exts[] = {"note", NULL};

/* Every "@path" token names a file the cook reads. */
static kiln_result note_dependencies(void *user, const kiln_cook_input *in,
                                     kiln_dep_report_fn report, void *report_user, kiln_error *err)
{
    (void)user;
    char text[512];
    size_t len = in->size < sizeof text - 1 ? in->size : sizeof text - 1;
    memcpy(text, in->source, len);
    text[len] = 0;
    kiln_result r = KILN_OK;
    for (char *tok = strtok(text, " \n"); tok && r == KILN_OK; tok = strtok(NULL, " \n"))
        if (tok[0] == '@') r = report(report_user, tok + 1, err);
    return r;
}

static kiln_source_kind_desc note_desc(int *calls, bool with_dependencies)
{
    kiln_source_kind_desc d = {sizeof d,    "note", note_exts,
                               note_fields, 2,      1,
                               note_cook,   calls,  with_dependencies ? note_dependencies : NULL};
    return d;
}

static void write_text(const char *path, const char *text)
{
    kt_write_file(path, text, strlen(text));
}

static kiln_project *open_project_deps(const char *dir, int *calls, bool with_dependencies)
{
    char *root = kt_format("%s/assets", dir), *out = kt_format("%s/.kiln", dir);
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = dir;
    o.root = root;
    o.out = out;
    o.jobs = 2;
    kiln_project *p = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_open(&o, &p, &e), KILN_OK);
    const kiln_cooked_kind *cooked[] = {&note_cooked};
    kiln_source_kind_desc d = note_desc(calls, with_dependencies);
    assert_int_equal(kiln_project_register_kind(p, &d, cooked, 1, &e), KILN_OK);
    free(root);
    free(out);
    return p;
}

static kiln_project *open_project(const char *dir, int *calls)
{
    return open_project_deps(dir, calls, false);
}

static json_t *report(kiln_project *p)
{
    char *text = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_report(p, &text, &e), KILN_OK);
    json_t *doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    return doc;
}

static json_t *row(json_t *rep, const char *path)
{
    size_t i;
    json_t *r;
    json_array_foreach (json_object_get(rep, "assets"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "path")), path)) return r;
    fail_msg("no row for %s", path);
    return NULL;
}

static const char *state_of(kiln_project *p, const char *path, json_t **keep)
{
    *keep = report(p);
    return json_string_value(json_object_get(row(*keep, path), "state"));
}

static void registration_refuses_what_cannot_work(void **state)
{
    char *dir = kt_tempdir("kinds_refuse");
    char *root = kt_format("%s/assets", dir);
    char *txt = kt_format("%s/x.txt", root);
    kt_write_file(txt, "", 0);
    free(txt);
    int calls = 0;
    kiln_project_opts o = {0};
    o.struct_size = sizeof o;
    o.project_dir = dir;
    o.root = root;
    kiln_project *p = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_open(&o, &p, &e), KILN_OK);
    kiln_source_kind_desc d = note_desc(&calls, false);
    d.cook = NULL;
    assert_int_equal(kiln_project_register_kind(p, &d, NULL, 0, &e), KILN_E_USAGE);
    assert_non_null(strstr(e.message, "no cook"));
    d = note_desc(&calls, false);
    d.name = "texture";
    assert_int_equal(kiln_project_register_kind(p, &d, NULL, 0, &e), KILN_E_USAGE);
    assert_non_null(strstr(e.message, "taken"));
    d = note_desc(&calls, false);
    static const char *const png[] = {"png", NULL};
    d.extensions = png;
    assert_int_equal(kiln_project_register_kind(p, &d, NULL, 0, &e), KILN_E_USAGE);
    assert_non_null(strstr(e.message, "texture"));
    kiln_setting_field bad = note_fields[0];
    bad.default_number = 1000.0;
    d = note_desc(&calls, false);
    d.settings = &bad;
    d.setting_count = 1;
    assert_int_equal(kiln_project_register_kind(p, &d, NULL, 0, &e), KILN_E_USAGE);
    d = note_desc(&calls, false);
    kiln_cooked_kind mesh_like = note_cooked;
    mesh_like.fourcc = KILN_MESH_KIND;
    const kiln_cooked_kind *c1[] = {&mesh_like};
    assert_int_equal(kiln_project_register_kind(p, &d, c1, 1, &e), KILN_E_USAGE);
    kiln_cooked_kind label_like = note_cooked;
    static const char *const meshy[] = {"mesh_extra", NULL};
    label_like.labels = meshy;
    const kiln_cooked_kind *c2[] = {&label_like};
    assert_int_equal(kiln_project_register_kind(p, &d, c2, 1, &e), KILN_E_USAGE);
    assert_non_null(strstr(e.message, "overlaps"));
    /* After the refusals the kind registers once, and not twice. */
    const kiln_cooked_kind *ok[] = {&note_cooked};
    assert_int_equal(kiln_project_register_kind(p, &d, ok, 1, &e), KILN_OK);
    assert_int_equal(kiln_project_register_kind(p, &d, NULL, 0, &e), KILN_E_USAGE);
    char *schema = kiln_source_kind_schema(&d);
    assert_non_null(schema);
    json_t *s = json_loads(schema, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(json_object_get(s, "properties"), "mood"), "default")),
                        "quiet");
    json_decref(s);
    kiln_string_free(schema);
    kiln_project_close(p);
    kt_rmtree(dir);
    free(root);
    free(dir);
}

static void registered_kind_imports_reports_and_packs(void **state)
{
    char *dir = kt_tempdir("kinds_import");
    char *a = kt_format("%s/assets/a.note", dir), *b = kt_format("%s/assets/sub/b.NOTE", dir);
    char *meta = kt_format("%s.meta", a);
    write_text(a, "1 2 3\n");
    write_text(b, "4\n");
    write_text(meta, "{\"import\": {\"note\": {\"scale\": 2, \"mood\": \"loud\"}}}");
    int calls = 0;
    kiln_project *p = open_project(dir, &calls);

    char *text = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &text, &e), KILN_OK);
    json_t *doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    assert_int_equal(calls, 2);
    size_t i;
    json_t *r;
    int seen = 0;
    json_array_foreach (json_object_get(doc, "records"), i, r) {
        assert_string_equal(json_string_value(json_object_get(r, "kind")), "note");
        assert_string_equal(json_string_value(json_object_get(r, "status")), "imported");
        seen++;
    }
    assert_int_equal(seen, 2);
    json_decref(doc);

    json_t *keep;
    assert_string_equal(state_of(p, "a.note", &keep), "up_to_date");
    json_decref(keep);
    /* A second import is all cached: the cook is not called again. */
    assert_int_equal(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &text, &e), KILN_OK);
    kiln_string_free(text);
    assert_int_equal(calls, 2);

    /* The setting enters the key. */
    write_text(meta, "{\"import\": {\"note\": {\"scale\": 3}}}");
    assert_string_equal(state_of(p, "a.note", &keep), "stale");
    json_decref(keep);
    /* A bad value is an invalid asset naming the field. */
    write_text(meta, "{\"import\": {\"note\": {\"mood\": \"sad\"}}}");
    json_t *rep = report(p);
    json_t *ra = row(rep, "a.note");
    assert_string_equal(json_string_value(json_object_get(ra, "state")), "invalid");
    json_t *err = json_object_get(ra, "error");
    assert_string_equal(json_string_value(json_object_get(err, "json_pointer")),
                        "/import/note/mood");
    assert_non_null(strstr(json_string_value(json_object_get(err, "message")), "quiet or loud"));
    json_decref(rep);
    write_text(meta, "{\"import\": {\"note\": {\"volume\": 1}}}");
    rep = report(p);
    err = json_object_get(row(rep, "a.note"), "error");
    assert_non_null(strstr(json_string_value(json_object_get(err, "message")), "scale, mood"));
    json_decref(rep);
    write_text(meta, "{\"import\": {\"note\": {\"scale\": 2, \"mood\": \"loud\"}}}");

    /* Packing a.note#note brings note/extra along: the registered cooked kind's refs. */
    char *pack = kt_format("%s/.kiln/notes.kpak", dir);
    kiln_pack_opts po = {0};
    po.struct_size = sizeof po;
    po.output = pack;
    const char *assets[] = {a};
    char *an = kt_format("%s#note", a);
    assets[0] = an;
    assert_int_equal(kiln_project_pack(p, assets, 1, 0, &po, &text, &e), KILN_OK);
    kiln_string_free(text);
    size_t size;
    void *bytes = kt_read_file(pack, &size);
    kiln_pack k;
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &k, &e), KILN_OK);
    assert_int_equal(k.entry_count, 2);
    uint32_t extra = kiln_pack_find_name(&k, "a.note#note/extra");
    assert_true(extra != KILN_PACK_NOT_FOUND);
    assert_int_equal(kiln_pack_entry_at(&k, extra).kind, NOTE_KIND);
    free(bytes);

    kiln_project_close(p);
    kt_rmtree(dir);
    free(pack);
    free(an);
    free(a);
    free(b);
    free(meta);
    free(dir);
}

/* Files a registered kind's cook reads enter the key through its dependencies function; one
 * outside the source's folder is refused. */
static void registered_kind_dependencies_enter_the_key(void **state)
{
    (void)state;
    char *dir = kt_tempdir("kinds_deps");
    char *a = kt_format("%s/assets/a.note", dir), *inc = kt_format("%s/assets/inc/v.txt", dir);
    char *outside = kt_format("%s/outside.txt", dir);
    write_text(a, "1 @inc/v.txt\n");
    write_text(inc, "5\n");
    write_text(outside, "7\n");
    int calls = 0;
    kiln_project *p = open_project_deps(dir, &calls, true);
    char *text = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &text, &e), KILN_OK);
    kiln_string_free(text);
    assert_int_equal(calls, 1);
    json_t *keep;
    assert_string_equal(state_of(p, "a.note", &keep), "up_to_date");
    json_decref(keep);
    /* The included file changes: stale, and import cooks again. */
    write_text(inc, "6 \n");
    assert_string_equal(state_of(p, "a.note", &keep), "stale");
    json_decref(keep);
    assert_int_equal(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &text, &e), KILN_OK);
    kiln_string_free(text);
    assert_int_equal(calls, 2);
    assert_string_equal(state_of(p, "a.note", &keep), "up_to_date");
    json_decref(keep);
    /* A file outside the source's folder, by ".." or absolute, is refused before any cook. */
    const char *bad[] = {"1 @../outside.txt\n", "1 @inc/../../outside.txt\n", NULL};
    char *abs_text = kt_format("1 @%s\n", outside);
    bad[2] = abs_text;
    for (size_t i = 0; i < 3; i++) {
        write_text(a, bad[i]);
        assert_int_equal(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &text, &e),
                         KILN_E_OUTPUT_REFUSED);
        assert_non_null(strstr(e.message, "not inside the source's folder"));
        kiln_string_free(text);
        text = NULL;
    }
    assert_int_equal(calls, 2);
    kiln_project_close(p);
    kt_rmtree(dir);
    free(abs_text);
    free(a);
    free(inc);
    free(outside);
    free(dir);
}

/* A describe() that leaves an object open, and one named like a member of the document. */
static void unbalanced_describe(const void *view, kiln_describe *d)
{
    (void)view;
    kiln_describe_object(d, "open");
    kiln_describe_int(d, NULL, 1); /* no key in an object: the first misuse */
}

/* What kiln_inspect_print_container prints for doc, as a string. */
static char *printed_text(const json_t *doc, const char *dir)
{
    char *path = kt_format("%s/printed.txt", dir);
    fflush(stdout);
    int saved = dup(1), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 1);
    kiln_inspect_print_container(doc, "note.knote");
    fflush(stdout);
    dup2(saved, 1);
    close(fd);
    close(saved);
    size_t size;
    char *bytes = kt_read_file(path, &size);
    char *text = kt_format("%.*s", (int)size, bytes);
    free(bytes);
    free(path);
    return text;
}

/* kiln_settings_describe (kiln help settings) lists a registered kind's settings after kiln's
 * own groups: type, default, choices or range, its description, and the kind that reads them. */
static void registered_kind_settings_are_described(void **state)
{
    (void)state;
    char *dir = kt_tempdir("kinds_describe");
    char *a = kt_format("%s/assets/a.note", dir);
    write_text(a, "1\n");
    int calls = 0;
    kiln_project *p = open_project(dir, &calls);
    char *text = NULL;
    kiln_error e;
    assert_int_equal(kiln_settings_describe(p, &text, &e), KILN_OK);
    json_t *doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    json_t *groups = json_object_get(doc, "groups");
    assert_int_equal(json_array_size(groups), 5); /* texture, model, fbx, shader, note */
    json_t *note = json_array_get(groups, 4);
    assert_string_equal(json_string_value(json_object_get(note, "name")), "note");
    assert_string_equal(json_string_value(json_array_get(json_object_get(note, "kinds"), 0)),
                        "note");
    json_t *scale = json_array_get(json_object_get(note, "fields"), 0);
    assert_string_equal(json_string_value(json_object_get(scale, "path")), "note.scale");
    assert_string_equal(json_string_value(json_object_get(scale, "type")), "number");
    assert_true(json_number_value(json_object_get(scale, "default")) == 1.0);
    assert_true(json_number_value(json_object_get(scale, "maximum")) == 100.0);
    assert_string_equal(json_string_value(json_object_get(scale, "allowed")),
                        "a number from 0 to 100");
    assert_string_equal(json_string_value(json_object_get(scale, "description")),
                        "multiplies every value");
    json_t *mood = json_array_get(json_object_get(note, "fields"), 1);
    assert_string_equal(json_string_value(json_object_get(mood, "default")), "quiet");
    assert_int_equal(json_array_size(json_object_get(mood, "choices")), 2);
    assert_string_equal(json_string_value(json_object_get(mood, "allowed")), "quiet or loud");
    json_decref(doc);
    /* Without a project: kiln's own groups only. */
    assert_int_equal(kiln_settings_describe(NULL, &text, &e), KILN_OK);
    doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    assert_int_equal(json_array_size(json_object_get(doc, "groups")), 4);
    json_decref(doc);
    kiln_project_close(p);
    kt_rmtree(dir);
    free(a);
    free(dir);
}

static void registered_kind_is_described_by_inspect(void **state)
{
    (void)state;
    char *dir = kt_tempdir("kinds_inspect");
    char *a = kt_format("%s/assets/a.note", dir);
    write_text(a, "1 2.5 3\n");
    int calls = 0;
    kiln_project *p = open_project(dir, &calls);
    char *text = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_import(p, NULL, 0, KILN_IMPORT_ALL, &text, &e), KILN_OK);
    json_t *doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    const char *entry = json_string_value(
        json_object_get(json_array_get(json_object_get(doc, "records"), 0), "entry"));
    assert_non_null(entry);
    char *file = kt_format("%s/note.knote", entry);
    json_decref(doc);
    kiln_project_close(p);

    /* Without the kind: the header and section table only. */
    assert_int_equal(kiln_inspect_file(file, NULL, &text, &e), KILN_OK);
    doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    assert_string_equal(json_string_value(json_object_get(doc, "kind")), "NOTE");
    assert_int_equal(json_array_size(json_object_get(doc, "sections")), 2);
    assert_null(json_object_get(doc, "note"));
    json_decref(doc);

    /* With it: its summary under its name, floats as their shortest decimals. */
    const kiln_cooked_kind *kinds[] = {&note_cooked};
    kiln_inspect_opts o = {0};
    o.struct_size = sizeof o;
    o.kinds = kinds;
    o.kind_count = 1;
    assert_int_equal(kiln_inspect_file(file, &o, &text, &e), KILN_OK);
    assert_non_null(strstr(text, "\"values\": [\n      1.0,\n      2.5,\n      3.0\n    ]"));
    doc = json_loads(text, 0, NULL);
    kiln_string_free(text);
    json_t *note = json_object_get(doc, "note");
    assert_int_equal(json_integer_value(json_object_get(note, "count")), 3);
    assert_true(json_is_true(json_object_get(json_object_get(note, "link"), "present")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(note, "link"), "label")),
                        "note/extra");

    /* The command's text for a kind it has no printer of: the members as an indented tree. */
    char *printed = printed_text(doc, dir);
    assert_non_null(strstr(printed, "note.knote: kiln container NOTE version 1"));
    assert_non_null(strstr(printed,
                           "\n  note:\n    count: 3\n    link:\n      label: "
                           "\"note/extra\"\n      present: true\n    values: [1, 2.5, 3]\n"));
    free(printed);
    json_decref(doc);

    /* A describe() that is not well formed, or a kind named like a member of the document, is
     * a usage error naming the kind. */
    kiln_cooked_kind bad = note_cooked;
    bad.describe = unbalanced_describe;
    kinds[0] = &bad;
    assert_int_equal(kiln_inspect_file(file, &o, &text, &e), KILN_E_USAGE);
    assert_null(text);
    assert_non_null(
        strstr(e.message, "cooked kind note: describe() gave a member of an object no key"));
    bad = note_cooked;
    bad.name = "sections";
    assert_int_equal(kiln_inspect_file(file, &o, &text, &e), KILN_E_USAGE);
    assert_non_null(strstr(e.message, "its name is a member of the inspect document"));

    kt_rmtree(dir);
    free(file);
    free(a);
    free(dir);
}

/* Packing with a failed asset: every failure is listed and nothing is written; with keep_going
 * the rest is packed, less what refers to the failed asset (x.note needs y.note's note). */
static void pack_leaves_out_what_refers_to_a_failed_asset(void **state)
{
    (void)state;
    char *dir = kt_tempdir("kinds_keep_going");
    static const char guid_y[] = "0123456789abcdef0123456789abcdef";
    char *x = kt_format("%s/assets/x.note", dir), *y = kt_format("%s/assets/y.note", dir);
    char *z = kt_format("%s/assets/z.note", dir), *ymeta = kt_format("%s.meta", y);
    char *xtext = kt_format("#%s 1 2\n", guid_y),
         *ymetatext = kt_format("{\"guid\": \"%s\"}", guid_y);
    write_text(x, xtext);
    write_text(y, "3 zz\n"); /* not a number: its import fails */
    write_text(z, "5\n");
    write_text(ymeta, ymetatext);
    int calls = 0;
    kiln_project *p = open_project(dir, &calls);
    char *pack = kt_format("%s/.kiln/notes.kpak", dir);
    kiln_pack_opts po = {0};
    po.struct_size = sizeof po;
    po.output = pack;
    char *text = NULL;
    kiln_error e;
    assert_int_equal(kiln_project_pack(p, NULL, 0, KILN_IMPORT_ALL, &po, &text, &e),
                     KILN_E_IMPORT_FAILED);
    assert_false(kt_file_exists(pack));
    json_t *d = json_loads(text, 0, NULL);
    kiln_string_free(text);
    json_t *failed = json_object_get(d, "failed");
    assert_int_equal(json_array_size(failed), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(failed, 0), "path")),
                        "y.note");
    assert_string_equal(json_string_value(json_object_get(json_array_get(failed, 1), "path")),
                        "x.note");
    json_t *ex = json_object_get(json_array_get(failed, 1), "error");
    assert_string_equal(json_string_value(json_object_get(ex, "code")), "E_CACHE_CORRUPT");
    assert_non_null(
        strstr(json_string_value(json_object_get(ex, "message")), "x.note#note needs asset id"));
    assert_non_null(
        strstr(json_string_value(json_object_get(json_object_get(d, "error"), "message")),
               "2 of 3 assets failed, so nothing was packed; --keep-going packs the other 1"));
    json_decref(d);

    po.keep_going = true;
    assert_int_equal(kiln_project_pack(p, NULL, 0, KILN_IMPORT_ALL, &po, &text, &e),
                     KILN_E_IMPORT_FAILED);
    d = json_loads(text, 0, NULL);
    kiln_string_free(text);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "totals"), "assets")),
                     1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "totals"), "failed")),
                     2);
    json_decref(d);
    size_t size;
    void *bytes = kt_read_file(pack, &size);
    kiln_pack k;
    assert_int_equal(kiln_pack_open_memory(bytes, size, 0, &k, &e), KILN_OK);
    assert_int_equal(k.entry_count, 2);
    assert_true(kiln_pack_find_name(&k, "z.note#note") != KILN_PACK_NOT_FOUND);
    assert_true(kiln_pack_find_name(&k, "z.note#note/extra") != KILN_PACK_NOT_FOUND);
    free(bytes);

    kiln_project_close(p);
    kt_rmtree(dir);
    free(pack);
    free(xtext);
    free(ymetatext);
    free(x);
    free(y);
    free(z);
    free(ymeta);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registration_refuses_what_cannot_work),
        cmocka_unit_test(registered_kind_imports_reports_and_packs),
        cmocka_unit_test(registered_kind_dependencies_enter_the_key),
        cmocka_unit_test(registered_kind_is_described_by_inspect),
        cmocka_unit_test(registered_kind_settings_are_described),
        cmocka_unit_test(pack_leaves_out_what_refers_to_a_failed_asset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
