#!/usr/bin/python3
"""Fails when a test skips without one of the codes CI accepts.

CI (.ci/lib.sh, check_skips) accepts a skipped test only by the code its message starts with,
and the codes are printed by the ROCM_AUDIT_SKIP_* macros of tests/support/test_support.h. A
bare GTEST_SKIP() anywhere else passes every run on a machine with the corpus and fails CI,
which has none; this check finds it before CI does.

Usage: skip_codes.py TESTS_DIR [--plant]
  --plant: also check one planted bare GTEST_SKIP() (the control: must fail).
"""
import pathlib
import re
import sys

DEFINING_FILE = "support/test_support.h"
BARE_SKIP = re.compile(r"\bGTEST_SKIP\s*\(\s*\)")


def bare_skips(name, text):
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("//", 1)[0]
        if BARE_SKIP.search(code):
            found.append(f"{name}:{number}: GTEST_SKIP() without a code; use a ROCM_AUDIT_SKIP_* macro")
    return found


def main(argv):
    root = pathlib.Path(argv[1])
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cc", ".h") or path.as_posix().endswith(DEFINING_FILE):
            continue
        found += bare_skips(str(path.relative_to(root)), path.read_text(errors="replace"))
    if "--plant" in argv:
        found += bare_skips("planted.cc", 'if (x) GTEST_SKIP() << "no corpus";\n')
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
