/* kmat_cases.h — .kmat documents with kiln's expected verdict: accepted, or refused with a JSON
 * pointer and words of the message. test_kmat.c checks kiln against the table; test_kmat_schema.c
 * checks docs/schemas/kmat.schema.json (through python3-jsonschema) against kiln's verdicts. */
#ifndef KT_KMAT_CASES_H
#define KT_KMAT_CASES_H

#include <stdbool.h>
#include <stddef.h>

enum {
    KMAT_SCHEMA_JUDGES = 0, /* the schema must agree with kiln */
    KMAT_SCHEMA_GAP = 1,    /* kiln refuses what JSON Schema cannot state (the schema accepts) */
    KMAT_NOT_JSON = 2,      /* not a document a JSON Schema validator reads */
};

typedef struct kmat_case {
    const char *name;
    char *text;
    bool accepts;
    const char *pointer; /* refused: err->json_pointer */
    const char *words;   /* refused: in err->message */
    int schema;          /* KMAT_SCHEMA_* */
} kmat_case;

/* The table (static documents and generated ones: limits); free with kmat_cases_free. */
kmat_case *kmat_cases(size_t *count);
void kmat_cases_free(kmat_case *cases, size_t count);

#endif
