/* test_settings_schema.c — docs/schemas/meta.schema.json must accept exactly the .meta documents
 * kiln accepts. Every case of meta_cases.c and every default document kiln writes out goes into
 * a temporary folder; Debian's python3-jsonschema (an independent validator) judges each one, and
 * its verdict must equal kiln's, except where a case is marked as a rule JSON Schema cannot state.
 *
 * With KILN_WRITE_FUZZ_SEEDS=1 the same documents are written to fuzz/corpus/meta/ as the seeds
 * of fuzz_meta. Exits 77 (skip) when /usr/bin/python3 or its jsonschema module is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#include "meta_cases.h"
#include "pipeline/settings.h"

#define PYTHON "/usr/bin/python3"

typedef struct meta_doc {
    char *name;
    char *text;
    bool kiln_accepts;
    bool schema_gap;
} meta_doc;

static meta_doc *docs;
static size_t doc_count;

static void add_doc(const char *name, const char *text, bool gap)
{
    docs = realloc(docs, (doc_count + 1) * sizeof *docs);
    assert_non_null(docs);
    kiln_settings s;
    kiln_error err;
    meta_doc *d = &docs[doc_count++];
    d->name = kt_format("%s", name);
    d->text = kt_format("%s", text);
    d->kiln_accepts = kiln_settings_parse(text, strlen(text), NULL, &s, &err) == KILN_OK;
    if (d->kiln_accepts) kiln_settings_clear(&s);
    d->schema_gap = gap;
}

/* A document whose import (and optionally a platform) holds kiln's own default settings JSON. */
static char *defaults_document(bool guid, bool platforms)
{
    kiln_settings s;
    kiln_settings_default(&s);
    json_t *kinds = json_object();
    json_object_set_new(kinds, "texture", kiln_texture_settings_json(&s.texture));
    json_object_set_new(kinds, "model", kiln_model_settings_json(&s));
    json_object_set_new(kinds, "fbx", kiln_fbx_settings_json(&s.fbx));
    json_object_set_new(kinds, "shader", kiln_shader_settings_json(&s));
    json_t *doc = json_object();
    if (guid) json_object_set_new(doc, "guid", json_string("00112233445566778899aabbccddeeff"));
    json_object_set(doc, "import", kinds);
    if (platforms) {
        json_t *p = json_object();
        json_object_set(p, "mobile", kinds);
        json_object_set_new(p, "pc", json_object());
        json_object_set_new(doc, "platforms", p);
    }
    json_decref(kinds);
    char *text = json_dumps(doc, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(doc);
    assert_non_null(text);
    return text;
}

static void collect_documents(void)
{
    char buf[1024];
    add_doc("defaults: empty document", "{}", false);
    const struct {
        const char *name;
        bool guid, platforms;
    } defaults[] = {
        {"defaults: every field written out", false, false},
        {"defaults: with a guid", true, false},
        {"defaults: repeated as a platform", true, true},
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        char *text = defaults_document(defaults[i].guid, defaults[i].platforms);
        add_doc(defaults[i].name, text, false);
        free(text);
    }
    for (size_t i = 0; i < meta_case_count; i++)
        add_doc(meta_cases[i].name, meta_case_text(&meta_cases[i], buf, sizeof buf),
                meta_cases[i].schema_gap);
}

static char *file_name(size_t i) { return kt_format("%03zu.json", i); }

static void write_fuzz_seeds(void)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src) {
        fprintf(stderr, "KILN_WRITE_FUZZ_SEEDS needs KILN_SOURCE_DIR\n");
        exit(1);
    }
    for (size_t i = 0; i < doc_count; i++) {
        char *path = kt_format("%s/fuzz/corpus/meta/seed-%03zu.json", src, i);
        kt_write_file(path, docs[i].text, strlen(docs[i].text));
        free(path);
    }
    fprintf(stderr, "wrote %zu seeds to %s/fuzz/corpus/meta\n", doc_count, src);
}

static void document_set_holds_both_accepted_and_rejected_documents(void **state)
{
    (void)state;
    /* The table's own verdicts are checked with pointers in test_settings; here only that the
     * set sent to the validator has both kinds, so the comparison below means something. */
    size_t accepted = 0;
    for (size_t i = 0; i < doc_count; i++) accepted += docs[i].kiln_accepts;
    assert_true(accepted > 20);
    assert_true(doc_count - accepted > 20);
    for (size_t i = 0; i < 4; i++) assert_true(docs[i].kiln_accepts); /* the default documents */
}

static void schema_accepts_exactly_the_documents_kiln_accepts(void **state)
{
    (void)state;
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *dir = kt_tempdir("meta-schema");
    for (size_t i = 0; i < doc_count; i++) {
        char *name = file_name(i);
        char *path = kt_format("%s/%s", dir, name);
        kt_write_file(path, docs[i].text, strlen(docs[i].text));
        free(path);
        free(name);
    }
    char *cmd = kt_format(PYTHON " '%s/tests/settings/check_meta_schema.py' "
                                 "'%s/docs/schemas/meta.schema.json' '%s'",
                          src, src, dir);
    char *out = NULL;
    int status = kt_run(cmd, &out);
    if (status != 0) fail_msg("%s exited with %d:\n%s", cmd, status, out ? out : "");
    assert_non_null(out);

    size_t mismatches = 0, judged = 0;
    for (size_t i = 0; i < doc_count; i++) {
        char *name = file_name(i);
        char *valid = kt_format("%s valid\n", name), *invalid = kt_format("%s invalid", name);
        bool schema_accepts = strstr(out, valid) != NULL;
        bool schema_rejects = strstr(out, invalid) != NULL;
        if (schema_accepts == schema_rejects) {
            print_error("%s (%s): no verdict from the validator\n", name, docs[i].name);
            mismatches++;
        } else {
            judged++;
            bool expected = docs[i].schema_gap ? true : docs[i].kiln_accepts;
            if (docs[i].schema_gap && docs[i].kiln_accepts) {
                print_error("%s (%s): marked as a schema gap but kiln accepts it\n", name,
                            docs[i].name);
                mismatches++;
            } else if (schema_accepts != expected) {
                const char *line = strstr(out, invalid);
                print_error("%s (%s): kiln %s, schema %s\n  %s\n  %.*s\n", name, docs[i].name,
                            docs[i].kiln_accepts ? "accepts" : "rejects",
                            schema_accepts ? "accepts" : "rejects", docs[i].text,
                            line ? (int)strcspn(line, "\n") : 0, line ? line : "");
                mismatches++;
            }
        }
        free(valid);
        free(invalid);
        free(name);
    }
    assert_int_equal(judged, doc_count);
    assert_int_equal(mismatches, 0);
    free(out);
    free(cmd);
    kt_rmtree(dir);
    free(dir);
}

int main(void)
{
    collect_documents();
    if (getenv("KILN_WRITE_FUZZ_SEEDS") && strcmp(getenv("KILN_WRITE_FUZZ_SEEDS"), "1") == 0)
        write_fuzz_seeds();

    if (access(PYTHON, X_OK) != 0) {
        printf("SKIP: %s is missing; install python3-jsonschema (scripts/setup.sh does)\n", PYTHON);
        return 77;
    }
    if (kt_run(PYTHON " -c 'import jsonschema' 2>/dev/null", NULL) != 0) {
        printf("SKIP: %s has no jsonschema module; apt-get install python3-jsonschema\n", PYTHON);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(document_set_holds_both_accepted_and_rejected_documents),
        cmocka_unit_test(schema_accepts_exactly_the_documents_kiln_accepts),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    for (size_t i = 0; i < doc_count; i++) {
        free(docs[i].name);
        free(docs[i].text);
    }
    free(docs);
    return failed;
}
