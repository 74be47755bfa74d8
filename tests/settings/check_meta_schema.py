#!/usr/bin/python3
"""Validates every *.json in a folder against kiln's .meta JSON Schema with python3-jsonschema.

Usage: check_meta_schema.py SCHEMA FOLDER
Prints one line per document, "<file> valid" or "<file> invalid: <first error>", in name order.
Exit status 0 when it ran, 2 when the schema itself is not a valid draft 2020-12 schema.
Run by tests/settings/test_settings_schema.c, which compares the verdicts with kiln's own.
"""
import json
import os
import sys

import jsonschema


def main():
    schema_path, folder = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print("schema is invalid: %s" % e.message)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            doc = json.load(f)
        error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if error is None:
            print("%s valid" % name)
        else:
            print("%s invalid: %s" % (name, error.message.replace("\n", " ")[:200]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
