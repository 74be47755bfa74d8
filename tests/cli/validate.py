#!/usr/bin/python3
"""validate.py - checks JSON documents printed by `kiln ... --json` against docs/schemas/.

usage: validate.py SCHEMA FILE...    SCHEMA is a name ("report" -> docs/schemas/report.schema.json)
       validate.py --auto FILE...    picks the schema from the document: error.schema.json when it
                                     has "error" at the top, else by its "command"
       validate.py --check-schemas   only checks that every schema is itself valid (draft 2020-12)

Every schema in docs/schemas/ is loaded into one store keyed by its $id, so the documents' schemas
can share definitions (common.schema.json). Exit 0 when every file is valid, 1 otherwise, and 1
with a message when python3-jsonschema is missing: a check that cannot run must not pass.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.join(os.environ.get("KILN_SOURCE_DIR", os.path.join(HERE, "..", "..")),
                          "docs", "schemas")

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    sys.stderr.write("validate.py: python3-jsonschema (with draft 2020-12) is not installed; "
                     "run scripts/setup.sh or: apt-get install python3-jsonschema\n")
    sys.exit(1)


def load_schemas():
    schemas = {}
    for name in sorted(os.listdir(SCHEMA_DIR)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(SCHEMA_DIR, name), encoding="utf-8") as f:
            s = json.load(f)
        Draft202012Validator.check_schema(s)
        schemas[name[: -len(".schema.json")]] = s
    return schemas


def make_validator(schema, schemas):
    """A validator that resolves $ref to any schema of the folder by $id (old and new jsonschema)."""
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012))
            for s in schemas.values() if "$id" in s)
        return Draft202012Validator(schema, registry=registry)
    except ImportError:
        store = {s["$id"]: s for s in schemas.values() if "$id" in s}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        # urljoin leaves "#/$defs/x" alone against a "urn:" base (not a hierarchical scheme), so
        # a schema reached through another (folder-meta -> meta's $defs) would look its own
        # fragments up in the first one. Join fragments onto urn bases by hand.
        plain_join = resolver._urljoin_cache

        def join(base, ref):
            if base.startswith("urn:") and ref.startswith("#"):
                return base.split("#", 1)[0] + ref
            return plain_join(base, ref)
        resolver._urljoin_cache = join
        return Draft202012Validator(schema, resolver=resolver)


# "command" of a document -> its schema.
BY_COMMAND = {"import": "import", "reimport": "reimport", "report": "report", "meta": "meta-command",
              "inspect": "inspect", "cache gc": "gc", "cache verify": "cache-verify",
              "texture": "texture", "shader": "shader",
              "model": "model", "pack": "pack", "graph": "graph",
              "help settings": "help-settings", "watch": "watch", "thumbnail": "thumbnail",
              "view": "view", "gltf": "gltf"}


def auto_schema(doc):
    if isinstance(doc, dict) and "error" in doc and "command" in doc and len(doc) == 2:
        return "error"
    return BY_COMMAND.get(doc.get("command") if isinstance(doc, dict) else None)


def main(argv):
    if len(argv) == 2 and argv[1] == "--check-schemas":
        print("%d schemas valid" % len(load_schemas()))
        return 0
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    schemas = load_schemas()
    bad = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            sys.stderr.write("%s: not a JSON document: %s\n" % (path, e))
            bad += 1
            continue
        name = auto_schema(doc) if argv[1] == "--auto" else argv[1]
        if name not in schemas:
            sys.stderr.write("%s: no schema %s in %s\n" % (path, name, SCHEMA_DIR))
            bad += 1
            continue
        v = make_validator(schemas[name], schemas)
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/" + "/".join(str(p) for p in e.absolute_path)
            sys.stderr.write("%s: %s schema: at %s: %s\n" % (path, name, where, e.message))
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
