#!/usr/bin/python3
"""Validates JSON files against a JSON Schema with the python3-jsonschema package, using
the draft the schema declares ($schema). Prints each error with its place; exit 1 on any.

  validate_json.py SCHEMA FILE...
"""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failed = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        for error in validator.iter_errors(document):
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{path}: /{where}: {error.message}")
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
