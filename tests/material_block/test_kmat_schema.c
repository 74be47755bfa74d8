/* test_kmat_schema.c — docs/schemas/kmat.schema.json must accept exactly the .kmat documents
 * kiln accepts. Every document of kmat_cases.c that a JSON Schema validator can read goes into a
 * temporary folder; Debian's python3-jsonschema (an independent validator, through
 * tests/settings/check_meta_schema.py, which takes the schema as an argument) judges each one,
 * and its verdict must equal kiln_kmat_parse's, except where a case is marked as a rule JSON
 * Schema cannot state (the schema accepts those).
 *
 * With KILN_WRITE_FUZZ_SEEDS=1 the documents are written to fuzz/corpus/kmat/ as the seeds of
 * fuzz_kmat. Exits 77 (skip) when /usr/bin/python3 or its jsonschema module is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#include "import/kmat.h"
#include "kmat_cases.h"

#define PYTHON "/usr/bin/python3"

static kmat_case *cases;
static size_t case_count;

static bool kiln_accepts(const kmat_case *c)
{
    kiln_kmat m;
    kiln_error err;
    kiln_result r = kiln_kmat_parse(c->text, strlen(c->text), NULL, &m, &err);
    kiln_kmat_free(&m);
    return r == KILN_OK;
}

static void write_fuzz_seeds(void)
{
    const char *src = getenv("KILN_SOURCE_DIR");
    if (!src) {
        fprintf(stderr, "KILN_WRITE_FUZZ_SEEDS needs KILN_SOURCE_DIR\n");
        exit(1);
    }
    size_t written = 0;
    for (size_t i = 0; i < case_count; i++) {
        if (strlen(cases[i].text) > 4096) continue; /* the limit cases: fuzzing grows its own */
        char *path = kt_format("%s/fuzz/corpus/kmat/seed-%03zu.kmat", src, i);
        kt_write_file(path, cases[i].text, strlen(cases[i].text));
        free(path);
        written++;
    }
    fprintf(stderr, "wrote %zu seeds to %s/fuzz/corpus/kmat\n", written, src);
}

static void schema_accepts_exactly_the_documents_kiln_accepts(void **state)
{
    (void)state;
    const char *src = getenv("KILN_SOURCE_DIR");
    assert_non_null(src);
    char *dir = kt_tempdir("kmat-schema");
    size_t judged_expected = 0;
    for (size_t i = 0; i < case_count; i++) {
        if (cases[i].schema == KMAT_NOT_JSON) continue;
        char *path = kt_format("%s/%03zu.json", dir, i);
        kt_write_file(path, cases[i].text, strlen(cases[i].text));
        free(path);
        judged_expected++;
    }
    char *cmd = kt_format(PYTHON " '%s/tests/settings/check_meta_schema.py' "
                                 "'%s/docs/schemas/kmat.schema.json' '%s'",
                          src, src, dir);
    char *out = NULL;
    int status = kt_run(cmd, &out);
    if (status != 0) fail_msg("%s exited with %d:\n%s", cmd, status, out ? out : "");
    assert_non_null(out);
    size_t mismatches = 0, judged = 0, accepted = 0;
    for (size_t i = 0; i < case_count; i++) {
        if (cases[i].schema == KMAT_NOT_JSON) continue;
        char *valid = kt_format("%03zu.json valid\n", i),
             *invalid = kt_format("%03zu.json invalid", i);
        bool schema_accepts = strstr(out, valid) != NULL,
             schema_rejects = strstr(out, invalid) != NULL;
        bool kiln = kiln_accepts(&cases[i]);
        accepted += kiln;
        if (kiln != cases[i].accepts) {
            print_error("%s: kiln's verdict is not the table's\n", cases[i].name);
            mismatches++;
        } else if (schema_accepts == schema_rejects) {
            print_error("%s: no verdict from the validator\n", cases[i].name);
            mismatches++;
        } else {
            judged++;
            bool expected = cases[i].schema == KMAT_SCHEMA_GAP ? true : kiln;
            if (cases[i].schema == KMAT_SCHEMA_GAP && kiln) {
                print_error("%s: marked as a schema gap but kiln accepts it\n", cases[i].name);
                mismatches++;
            } else if (schema_accepts != expected) {
                const char *line = strstr(out, invalid);
                print_error("%s: kiln %s, schema %s\n  %.300s\n  %.*s\n", cases[i].name,
                            kiln ? "accepts" : "rejects", schema_accepts ? "accepts" : "rejects",
                            cases[i].text, line ? (int)strcspn(line, "\n") : 0, line ? line : "");
                mismatches++;
            }
        }
        free(valid);
        free(invalid);
    }
    assert_int_equal(judged, judged_expected);
    assert_int_equal(mismatches, 0);
    assert_true(accepted > 15 && judged - accepted > 60); /* both verdicts are exercised */
    free(out);
    free(cmd);
    kt_rmtree(dir);
    free(dir);
}

int main(void)
{
    cases = kmat_cases(&case_count);
    if (getenv("KILN_WRITE_FUZZ_SEEDS") && strcmp(getenv("KILN_WRITE_FUZZ_SEEDS"), "1") == 0)
        write_fuzz_seeds();
    int failed = 0;
    if (access(PYTHON, X_OK) != 0) {
        printf("SKIP: %s is missing; install python3-jsonschema (scripts/setup.sh does)\n", PYTHON);
        failed = 77;
    } else if (kt_run(PYTHON " -c 'import jsonschema' 2>/dev/null", NULL) != 0) {
        printf("SKIP: %s has no jsonschema module; apt-get install python3-jsonschema\n", PYTHON);
        failed = 77;
    } else {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(schema_accepts_exactly_the_documents_kiln_accepts),
        };
        failed = cmocka_run_group_tests(tests, NULL, NULL);
    }
    kmat_cases_free(cases, case_count);
    return failed;
}
