/* meta_cases.h — one table of .meta documents with kiln's verdict on each, shared by the C tests
 * (which check the verdict and the exact JSON pointer) and the schema test (which checks that the
 * JSON Schema in docs/schemas accepts exactly the same documents). */
#ifndef KILN_TEST_META_CASES_H
#define KILN_TEST_META_CASES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct meta_case {
    const char *name;    /* the claim, e.g. "texture.max_size 3 is below the minimum" */
    const char *json;    /* with ' for " (see meta_case_text) */
    const char *pointer; /* NULL: kiln accepts it; else err->json_pointer of the rejection */
    bool schema_gap;     /* kiln rejects it by a rule JSON Schema cannot state */
} meta_case;

extern const meta_case meta_cases[];
extern const size_t meta_case_count;

/* The case's JSON with every ' turned into ". Returns buf. */
const char *meta_case_text(const meta_case *c, char *buf, size_t size);

#endif
